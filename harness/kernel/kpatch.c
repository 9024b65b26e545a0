// SPDX-License-Identifier: Apache-2.0
/*
 * A kernel build's patches (kernel/kpatch.h): the series read from its
 * directory or series file, applied to the work tree with git apply (a
 * patch that does not apply named with its rejected hunks), and KCIDB's
 * hash of the set.
 */
#include "kernel/kpatch.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/child.h"
#include "lib/textscan.h"
#include "lib/util.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_patch_name(const char *n)
{
	size_t l = strlen(n);

	return (l > 6 && !strcmp(n + l - 6, ".patch")) ||
	       (l > 5 && !strcmp(n + l - 5, ".diff"));
}

int kbuild_patch_list(const char *patches, struct strvec *out, struct strbuf *err)
{
	struct stat st;

	if (!*patches)
		return 0;
	if (stat(patches, &st) < 0) {
		sb_addf(err, "patches '%s': %s", patches, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(patches);
		struct dirent *de;
		struct strvec names = STRVEC_INIT;

		if (!d) {
			sb_addf(err, "cannot open '%s': %s", patches, strerror(errno));
			return -1;
		}
		while ((de = readdir(d)))
			if (is_patch_name(de->d_name))
				strvec_push(&names, de->d_name);
		closedir(d);
		qsort(names.v, names.n, sizeof(*names.v), cmp_str);
		if (!names.n) {
			sb_addf(err, "no *.patch or *.diff files in '%s'", patches);
			strvec_clear(&names);
			return -1;
		}
		for (size_t i = 0; i < names.n; i++)
			strvec_pushf(out, "%s/%s", patches, names.v[i]);
		strvec_clear(&names);
		return 0;
	}
	/* A series file: one patch per line, '#' comments, relative to it. */
	struct strbuf buf = STRBUF_INIT, line = STRBUF_INIT;
	struct line_iter it;
	char *dir = xstrdup(patches);
	char *slash = strrchr(dir, '/');
	int r = 0;

	if (slash)
		*slash = '\0';
	if (sb_read_file(&buf, patches) < 0) {
		sb_addf(err, "cannot read '%s': %s", patches, strerror(errno));
		free(dir);
		return -1;
	}
	line_iter_init(&it, buf.buf, buf.len);
	while (line_next(&it)) {
		sb_reset(&line);
		sb_add(&line, it.line, it.len);
		char *p = line.buf;
		while (*p == ' ' || *p == '\t')
			p++;
		char *end = p + strlen(p);
		while (end > p && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (!*p || *p == '#')
			continue;
		if (strstr(p, "..") || line_has_nul(it.line, it.len)) {
			sb_addf(err, "%s:%u: bad patch name '%s'", patches, it.lineno, p);
			r = -1;
			break;
		}
		char *full = p[0] == '/' ? xstrdup(p) : xstrfmt("%s/%s", slash ? dir : ".", p);
		if (!path_exists(full)) {
			sb_addf(err, "%s:%u: patch '%s' does not exist", patches, it.lineno, p);
			free(full);
			r = -1;
			break;
		}
		strvec_push(out, full);
		free(full);
	}
	sb_release(&buf);
	sb_release(&line);
	free(dir);
	return r;
}

/* The rejected hunks git apply --reject left in srcdir ("--- FILE.rej" and
 * its text, for each), appended to out. */
static void read_rejects(const char *srcdir, struct strbuf *out)
{
	const char *ls[] = { "git", "ls-files", "--others", "--exclude-standard", "-z", NULL };
	struct child_opts o = CHILD_OPTS_INIT;
	struct strbuf files = STRBUF_INIT;
	struct child_result res;

	o.dir = srcdir;
	o.capture = &files;
	o.timeout = 300;
	if (child_run(ls, &o, &res) < 0 || !child_ok(&res)) {
		sb_release(&files);
		return;
	}
	for (char *f = files.buf; f < files.buf + files.len; f += strlen(f) + 1) {
		size_t l = strlen(f);

		if (l > 4 && !strcmp(f + l - 4, ".rej")) {
			char *full = xstrfmt("%s/%s", srcdir, f);
			sb_addf(out, "--- %s\n", f);
			sb_read_file(out, full);
			if (out->len && out->buf[out->len - 1] != '\n')
				sb_addch(out, '\n');
			free(full);
		}
	}
	sb_release(&files);
}

/* What git apply --verbose says it rejected, in one line: "block/blk.c
 * hunk #1, hunk #2; mm/x.c hunk #1" (from its "Applying patch FILE with N
 * rejects..." and "Rejected hunk #K." lines), appended to out; else its
 * first "error: " line (a patch git cannot read at all). */
/* Where " with " begins in the line p[0..len), or NULL.  A loop of its
 * own: memmem and strstr there drew GCC's -Wstringop-overread in the
 * sanitizer build (a false "region of size 0" once inlined). */
static const char *find_with(const char *p, size_t len)
{
	static const char w[] = " with ";

	for (size_t i = 0; i + 6 <= len; i++) {
		size_t j = 0;

		while (j < 6 && p[i + j] == w[j])
			j++;
		if (j == 6)
			return p + i;
	}
	return NULL;
}

static void rejected_hunks(const char *text, struct strbuf *out)
{
	const char *file = NULL, *first_error = NULL;
	size_t file_len = 0, first_len = 0, start = out->len;
	int in_file = 0;

	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		const char *with;

		if (len > 15 && !strncmp(p, "Applying patch ", 15) &&
		    (with = find_with(p + 15, len - 15))) {
			file = p + 15;
			file_len = (size_t)(with - file);
			in_file = 0;
		} else if (len > 15 && !strncmp(p, "Rejected hunk #", 15) && file) {
			int n = (int)strspn(p + 15, "0123456789");

			if (in_file)
				sb_addf(out, ", hunk #%.*s", n, p + 15);
			else
				sb_addf(out, "%s%.*s hunk #%.*s", out->len > start ? "; " : "",
					(int)file_len, file, n, p + 15);
			in_file = 1;
		} else if (!first_error && len > 7 && !strncmp(p, "error: ", 7)) {
			first_error = p + 7;
			first_len = len - 7;
		}
		p += len + (eol != NULL);
	}
	if (out->len == start && first_error)
		sb_addf(out, "%.*s", (int)first_len, first_error);
}

/*
 * The patches, in order, on the tree reset to base.  One that does not
 * apply is the input's fault, not the build's: exit 3 (error_env), the
 * message naming the patch, the source, the hunks rejected and git's own
 * words, and *failure that in one line (the run's reason).
 */
int kbuild_apply_patches(const char *srcdir, const char *base, const struct strvec *patches,
			 const char *source_id, const char *log, char **failure)
{
	const char *reset[] = { "git", "reset", "-q", "--hard", base, NULL };
	const char *clean[] = { "git", "clean", "-q", "-f", "-d", "-x", NULL };
	int e;

	if ((e = child_step(reset, srcdir, NULL, log, 600, NULL, "git reset")) < 0 ||
	    (e = child_step(clean, srcdir, NULL, log, 600, NULL, "git clean")) < 0)
		return e;
	for (size_t i = 0; i < patches->n; i++) {
		const char *p = patches->v[i];
		/* One apply: what applies is applied, each hunk that does not
		 * goes to FILE.rej, and the output names the failing files.
		 * The next build resets the tree to pristine anyway. */
		const char *apply[] = { "git", "apply", "--reject", "--verbose", p, NULL };
		struct child_opts o = CHILD_OPTS_INIT;
		struct strbuf out = STRBUF_INIT, rejects = STRBUF_INIT;
		struct child_result res;
		int r = 0;

		note("applying %s", path_basename(p));
		o.dir = srcdir;
		o.capture = &out;
		o.log = log;
		o.timeout = 300;
		if ((e = child_run(apply, &o, &res)) < 0) {
			r = e;
		} else if (res.outcome != CHILD_EXITED) {
			r = error("git apply %s: %s; see '%s'", path_basename(p),
				  child_describe(&res), log);
		} else if (!child_ok(&res)) {
			struct strbuf hunks = STRBUF_INIT;

			rejected_hunks(out.buf, &hunks);
			read_rejects(srcdir, &rejects);
			r = error_env("patch '%s' does not apply to %s (%s), nothing was built:\n%s%s%s",
				      path_basename(p), source_id, hunks.len ? hunks.buf : "git failed",
				      out.buf, rejects.len ? "rejected hunks:\n" : "", rejects.buf);
			free(*failure);
			*failure = xstrfmt("patch '%s' does not apply to %s: %.300s",
					   path_basename(p), source_id,
					   hunks.len ? hunks.buf : "git failed");
			sb_release(&hunks);
		}
		sb_release(&rejects);
		sb_release(&out);
		if (r < 0)
			return r;
	}
	return 0;
}

/* KCIDB's patchset hash of the patches, in order: sha256 over each
 * patch's sha256 in hex and a newline ("sha256sum *.patch | cut -c-64 |
 * sha256sum"); "" for none; NULL when a patch cannot be read. */
char *kbuild_patchset_hash(const struct strvec *patches)
{
	struct hash_ctx *all;
	char hex[65];

	if (!patches->n)
		return xstrdup("");
	all = hash_new();
	for (size_t i = 0; i < patches->n; i++) {
		struct hash_ctx *one = hash_new();
		int r = hash_add_file(one, patches->v[i]);

		hash_hex(one, hex);
		if (r < 0) {
			hash_hex(all, hex);
			return NULL;
		}
		hash_add(all, hex, 64);
		hash_add(all, "\n", 1);
	}
	hash_hex(all, hex);
	return xstrdup(hex);
}
