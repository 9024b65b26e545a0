// SPDX-License-Identifier: Apache-2.0
#include "guest/initramfs.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cache.h"
#include "lib/util.h"

static struct initramfs_entry *add(struct initramfs *ir, const char *name,
				   int type, mode_t mode)
{
	struct initramfs_entry *e;

	ALLOC_GROW(ir->e, ir->n + 1, ir->alloc);
	e = &ir->e[ir->n++];
	memset(e, 0, sizeof(*e));
	e->name = xstrdup(name);
	e->type = type;
	e->mode = mode;
	return e;
}

void initramfs_add_dir(struct initramfs *ir, const char *name, mode_t mode)
{
	add(ir, name, 'd', mode);
}

void initramfs_add_file(struct initramfs *ir, const char *name, const char *src,
			mode_t mode)
{
	add(ir, name, 'f', mode)->src = xstrdup(src);
}

void initramfs_add_data(struct initramfs *ir, const char *name, const char *data,
			size_t len, mode_t mode)
{
	struct initramfs_entry *e = add(ir, name, 'f', mode);

	e->data = xmalloc(len ? len : 1);
	memcpy(e->data, data, len);
	e->len = len;
}

void initramfs_add_chardev(struct initramfs *ir, const char *name,
			   unsigned major, unsigned minor, mode_t mode)
{
	struct initramfs_entry *e = add(ir, name, 'c', mode);

	e->major = major;
	e->minor = minor;
}

void initramfs_release(struct initramfs *ir)
{
	for (size_t i = 0; i < ir->n; i++) {
		free(ir->e[i].name);
		free(ir->e[i].src);
		free(ir->e[i].data);
	}
	free(ir->e);
	ir->e = NULL;
	ir->n = ir->alloc = 0;
}

int initramfs_hash(const struct initramfs *ir, char out[65])
{
	struct hash_ctx *h = hash_new();
	char meta[64];

	snprintf(meta, sizeof(meta), "initramfs v1 compress=%d", ir->compress);
	hash_adds(h, meta);
	for (size_t i = 0; i < ir->n; i++) {
		const struct initramfs_entry *e = &ir->e[i];

		snprintf(meta, sizeof(meta), "%c %o %u:%u", e->type,
			 (unsigned)e->mode, e->major, e->minor);
		hash_adds(h, meta);
		hash_adds(h, e->name);
		if (e->type != 'f')
			continue;
		/* Each file's contents enter as their own fixed-size digest,
		 * so entry boundaries cannot be shifted to forge a match. */
		struct hash_ctx *fh = hash_new();
		char digest[65];
		int bad = 0;

		if (e->src)
			bad = hash_add_file(fh, e->src) < 0;
		else
			hash_add(fh, e->data, e->len);
		hash_hex(fh, digest);
		if (bad) {
			hash_hex(h, out);
			return -1;
		}
		hash_adds(h, digest);
	}
	hash_hex(h, out);
	return 0;
}

static int write_entry(struct archive *a, const struct initramfs_entry *e,
		       unsigned ino)
{
	struct archive_entry *ae = archive_entry_new();
	struct strbuf body = STRBUF_INIT;
	int r = -1;

	archive_entry_set_pathname(ae, e->name);
	archive_entry_set_uid(ae, 0);
	archive_entry_set_gid(ae, 0);
	archive_entry_set_ino(ae, ino);
	archive_entry_set_nlink(ae, e->type == 'd' ? 2 : 1);
	archive_entry_set_mtime(ae, 0, 0);
	archive_entry_set_size(ae, 0);
	switch (e->type) {
	case 'd':
		archive_entry_set_filetype(ae, AE_IFDIR);
		break;
	case 'c':
		archive_entry_set_filetype(ae, AE_IFCHR);
		archive_entry_set_rdevmajor(ae, e->major);
		archive_entry_set_rdevminor(ae, e->minor);
		break;
	default:
		archive_entry_set_filetype(ae, AE_IFREG);
		if (e->src) {
			if (sb_read_file(&body, e->src) < 0) {
				error_errno("cannot read '%s'", e->src);
				goto out;
			}
		} else {
			sb_add(&body, e->data, e->len);
		}
		archive_entry_set_size(ae, (la_int64_t)body.len);
	}
	archive_entry_set_perm(ae, e->mode);
	if (archive_write_header(a, ae) != ARCHIVE_OK) {
		error("cpio: cannot write '%s': %s", e->name, archive_error_string(a));
		goto out;
	}
	if (body.len && archive_write_data(a, body.buf, body.len) != (la_ssize_t)body.len) {
		error("cpio: cannot write '%s': %s", e->name, archive_error_string(a));
		goto out;
	}
	r = 0;
out:
	sb_release(&body);
	archive_entry_free(ae);
	return r;
}

static int cmp_entry_name(const void *a, const void *b)
{
	const struct initramfs_entry *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

int initramfs_write(const struct initramfs *ir, const char *path)
{
	struct archive *a = archive_write_new();
	const struct initramfs_entry **order = NULL;
	size_t nd = 0;
	int r = -1;

	if (archive_write_set_format_cpio_newc(a) != ARCHIVE_OK ||
	    (ir->compress == INITRAMFS_GZIP &&
	     archive_write_add_filter_gzip(a) != ARCHIVE_OK) ||
	    archive_write_set_bytes_in_last_block(a, 1) != ARCHIVE_OK) {
		error("cpio: %s", archive_error_string(a));
		goto out;
	}
	if (archive_write_open_filename(a, path) != ARCHIVE_OK) {
		error("cannot create '%s': %s", path, archive_error_string(a));
		goto out;
	}
	/* Directories first, parents before children: the kernel's unpacker
	 * does not create missing parents. */
	order = xmalloc((ir->n ? ir->n : 1) * sizeof(*order));
	for (size_t i = 0; i < ir->n; i++)
		if (ir->e[i].type == 'd')
			order[nd++] = &ir->e[i];
	qsort(order, nd, sizeof(*order), cmp_entry_name);
	for (size_t i = 0, j = nd; i < ir->n; i++)
		if (ir->e[i].type != 'd')
			order[j++] = &ir->e[i];
	for (size_t i = 0; i < ir->n; i++)
		if (write_entry(a, order[i], (unsigned)i + 1) < 0)
			goto out;
	if (archive_write_close(a) != ARCHIVE_OK) {
		error("cannot finish '%s': %s", path, archive_error_string(a));
		goto out;
	}
	r = 0;
out:
	free(order);
	archive_write_free(a);
	return r;
}

int initramfs_build_cached(const struct initramfs *ir, char **path, int *hit)
{
	char hash[65];
	struct cache_txn txn;
	char *entry;
	int r;

	if (initramfs_hash(ir, hash) < 0)
		return -1;
	entry = cache_path("initramfs/%s.cpio%s", hash,
			   ir->compress == INITRAMFS_GZIP ? ".gz" : "");
	if (!entry)
		return ERR_ENV;
	r = cache_begin(&txn, entry);
	*hit = r == 1;
	if (r == 0 && (r = initramfs_write(ir, txn.tmp)) == 0)
		r = cache_commit(&txn);
	cache_end(&txn);
	if (r < 0) {
		free(entry);
		return r;
	}
	if (!*hit) {
		char *dir = xstrdup(entry);
		*strrchr(dir, '/') = '\0';
		cache_prune(dir, INITRAMFS_KEEP, "initramfs");
		free(dir);
	}
	*path = entry;
	return 0;
}
