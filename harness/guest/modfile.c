// SPDX-License-Identifier: Apache-2.0
#include "guest/modfile.h"

#include <archive.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* The kernel's MODULE_SIG_STRING, at the very end of a signed module. */
static const char sig_magic[] = "~Module signature appended~\n";

static const struct {
	const char *suffix;	/* after ".ko" */
	enum modfile_comp comp;
	const char *name;
	int filter;		/* libarchive's code for it */
} comps[] = {
	{ "", MODFILE_NONE, "none", ARCHIVE_FILTER_NONE },
	{ ".xz", MODFILE_XZ, "xz", ARCHIVE_FILTER_XZ },
	{ ".zst", MODFILE_ZSTD, "zstd", ARCHIVE_FILTER_ZSTD },
	{ ".gz", MODFILE_GZIP, "gzip", ARCHIVE_FILTER_GZIP },
};

/* The ".ko" that ends the module's name in path, or NULL. */
static const char *ko_at(const char *path)
{
	const char *b = path_basename(path), *ko = NULL;

	for (const char *p = strstr(b, ".ko"); p; p = strstr(p + 1, ".ko"))
		if (p[3] == '\0' || p[3] == '.')
			ko = p;
	return ko;
}

enum modfile_comp modfile_compression(const char *path)
{
	const char *ko = ko_at(path);

	if (!ko)
		return MODFILE_UNKNOWN;
	for (size_t i = 0; i < ARRAY_SIZE(comps); i++)
		if (!strcmp(ko + 3, comps[i].suffix))
			return comps[i].comp;
	return MODFILE_UNKNOWN;
}

const char *modfile_comp_name(enum modfile_comp c)
{
	for (size_t i = 0; i < ARRAY_SIZE(comps); i++)
		if (comps[i].comp == c)
			return comps[i].name;
	return "unknown";
}

char *modfile_plain_name(const char *path)
{
	const char *ko = ko_at(path);

	return ko ? xstrndup(path, (size_t)(ko + 3 - path)) : xstrdup(path);
}

static int is_elf(const struct strbuf *b, size_t from)
{
	return b->len - from >= 4 && !memcmp(b->buf + from, "\177ELF", 4);
}

/* The fix to name for a module the harness cannot use. */
static const char fix[] =
	"decompress the modules yourself (unxz, unzstd, gunzip over the tree, then "
	"depmod -b ROOT VERSION) and give them with --modules DIR";

static int decompress(const unsigned char *buf, size_t len, enum modfile_comp comp,
		      const char *what, struct strbuf *out, struct strbuf *err)
{
	struct archive *a = archive_read_new();
	struct archive_entry *entry;
	size_t start = out->len;
	int filter = 0, r = -1, ok;
	const char *cname = modfile_comp_name(comp);

	switch (comp) {
	case MODFILE_XZ:
		ok = archive_read_support_filter_xz(a);
		filter = ARCHIVE_FILTER_XZ;
		break;
	case MODFILE_ZSTD:
		ok = archive_read_support_filter_zstd(a);
		filter = ARCHIVE_FILTER_ZSTD;
		break;
	default:
		ok = archive_read_support_filter_gzip(a);
		filter = ARCHIVE_FILTER_GZIP;
		break;
	}
	/* ARCHIVE_WARN: libarchive would run an external program instead. */
	if (ok != ARCHIVE_OK) {
		sb_addf(err, "module '%s' is %s-compressed, which this libarchive cannot read "
			"itself: %s", what, cname, fix);
		goto out;
	}
	archive_read_support_format_raw(a);
	if (archive_read_open_memory(a, buf, len) != ARCHIVE_OK ||
	    archive_read_next_header(a, &entry) != ARCHIVE_OK)
		goto bad;
	/* Without the filter's signature libarchive reads the bytes raw. */
	if (archive_filter_count(a) < 2 || archive_filter_code(a, 0) != filter) {
		sb_addf(err, "module '%s' is not %s data, though its name says so: the file "
			"is damaged or misnamed; %s", what, cname, fix);
		goto out;
	}
	for (;;) {
		char chunk[65536];
		la_ssize_t n = archive_read_data(a, chunk, sizeof(chunk));

		if (n == 0)
			break;
		if (n < 0)
			goto bad;
		if (out->len - start + (size_t)n > MODFILE_MAX) {
			sb_addf(err, "module '%s' decompresses to more than %u MiB: the file is "
				"damaged or not a module; %s", what, MODFILE_MAX >> 20, fix);
			goto out;
		}
		sb_add(out, chunk, (size_t)n);
	}
	r = 0;
	goto out;
bad:
	sb_addf(err, "cannot decompress module '%s' (%s): %s; the file is damaged "
		"(fetch the package again: scaletest cache clean), or %s", what, cname,
		archive_error_string(a) ? archive_error_string(a) : "truncated data", fix);
out:
	archive_read_free(a);
	if (r < 0)
		sb_setlen(out, start);
	return r;
}

int modfile_decode(const unsigned char *buf, size_t len, enum modfile_comp comp,
		   const char *what, struct strbuf *out, struct strbuf *err)
{
	size_t start = out->len;
	size_t ml = sizeof(sig_magic) - 1;

	if (comp == MODFILE_UNKNOWN) {
		sb_addf(err, "module '%s' is compressed in a way neither the kernel's module "
			"loader nor scaletest reads (only .ko, .ko.xz, .ko.zst and .ko.gz): %s",
			what, fix);
		return -1;
	}
	if (comp == MODFILE_NONE) {
		if (len > MODFILE_MAX) {
			sb_addf(err, "module '%s' is larger than %u MiB", what, MODFILE_MAX >> 20);
			return -1;
		}
		sb_add(out, buf, len);
	} else {
		if (len >= ml && !memcmp(buf + len - ml, sig_magic, ml)) {
			sb_addf(err, "module '%s' has a signature appended after it was "
				"compressed: the kernel checks a module's signature on the "
				"decompressed module, so neither it nor scaletest can use this "
				"file; sign, then compress (as make modules_install does with "
				"CONFIG_MODULE_SIG_ALL and CONFIG_MODULE_COMPRESS), or give the "
				"signed modules uncompressed with --modules DIR", what);
			return -1;
		}
		if (decompress(buf, len, comp, what, out, err) < 0)
			return -1;
	}
	if (!is_elf(out, start)) {
		sb_setlen(out, start);
		sb_addf(err, "module '%s' is not an ELF file%s: the file is damaged or not a "
			"kernel module", what, comp == MODFILE_NONE ? "" : " once decompressed");
		return -1;
	}
	return 0;
}

int modfile_read(const char *path, struct strbuf *out, struct strbuf *err)
{
	struct strbuf raw = STRBUF_INIT;
	int r;

	if (sb_read_file(&raw, path) < 0) {
		sb_addf(err, "cannot read module '%s': %s", path, strerror(errno));
		sb_release(&raw);
		return -1;
	}
	r = modfile_decode((const unsigned char *)raw.buf, raw.len,
			   modfile_compression(path), path, out, err);
	sb_release(&raw);
	return r;
}
