// SPDX-License-Identifier: Apache-2.0
#include "lib/seal.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/strvec.h"
#include "lib/textscan.h"
#include "lib/util.h"

#define SEAL_HEADER "scaletest-seal 1"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int file_digest(const char *path, char hex[65])
{
	struct hash_ctx *h = hash_new();
	int r = hash_add_file(h, path);

	hash_hex(h, hex);
	return r;
}

static int link_digest(const char *path, char hex[65])
{
	char target[4096];
	ssize_t n = readlink(path, target, sizeof(target));
	struct hash_ctx *h = hash_new();

	if (n >= 0)
		hash_add(h, target, (size_t)n);
	hash_hex(h, hex);
	return n < 0 || (size_t)n == sizeof(target) ? -1 : 0;
}

static void add_line(struct strbuf *out, const struct stat *st, const char *hex,
		     const char *rel)
{
	if (S_ISLNK(st->st_mode))
		sb_addf(out, "l 0 %s 0 0.0 0.0 %s\n", hex, rel);
	else
		sb_addf(out, "f %lld %s %llu %lld.%09ld %lld.%09ld %s\n",
			(long long)st->st_size, hex, (unsigned long long)st->st_ino,
			(long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
			(long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec, rel);
}

/* Lines for path (rel inside the entry) and, for a directory, everything
 * below it, in name order. */
static int add_tree(struct strbuf *out, const char *path, const char *rel)
{
	struct stat st;
	char hex[65];

	if (strchr(rel, '\n'))
		return error("cannot seal '%s': a newline in a file name", path);
	if (lstat(path, &st) < 0)
		return error_errno("cannot stat '%s'", path);
	if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) {
		int bad = S_ISREG(st.st_mode) ? file_digest(path, hex) : link_digest(path, hex);

		if (bad)
			return error("cannot seal '%s': it cannot be read", path);
		add_line(out, &st, hex, rel);
		return 0;
	}
	if (!S_ISDIR(st.st_mode))
		return 0;	/* nothing else is made by what fills the cache */

	struct strvec names = STRVEC_INIT;
	DIR *d = opendir(path);
	struct dirent *de;
	int r = 0;

	if (!d)
		return error_errno("cannot open '%s'", path);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			strvec_push(&names, de->d_name);
	closedir(d);
	qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	for (size_t i = 0; i < names.n && !r; i++) {
		char *sub = xstrfmt("%s/%s", path, names.v[i]);
		char *subrel = strcmp(rel, ".") ? xstrfmt("%s/%s", rel, names.v[i])
						: xstrdup(names.v[i]);

		r = add_tree(out, sub, subrel);
		free(subrel);
		free(sub);
	}
	strvec_clear(&names);
	return r;
}

int seal_write(const char *root, const char *seal)
{
	struct strbuf out = STRBUF_INIT;
	int r;

	sb_adds(&out, SEAL_HEADER "\n");
	r = add_tree(&out, root, ".");
	if (!r && write_file_atomic(seal, out.buf, out.len) < 0)
		r = error_errno("cannot write '%s'", seal);
	sb_release(&out);
	return r;
}

struct sealed {
	char type;
	unsigned long long size, ino;
	long long mt_s, ct_s;
	long mt_ns, ct_ns;
	char hex[65];
	const char *rel;
};

/* One line of a seal into *e (rel points into line): 0, or -1. */
static int parse_line(char *line, struct sealed *e)
{
	int n = -1;

	if (sscanf(line, "%c %llu %64[0-9a-f] %llu %lld.%ld %lld.%ld %n", &e->type,
		   &e->size, e->hex, &e->ino, &e->mt_s, &e->mt_ns, &e->ct_s,
		   &e->ct_ns, &n) != 8 || n < 0 || !line[n] ||
	    strlen(e->hex) != 64 || (e->type != 'f' && e->type != 'l'))
		return -1;
	e->rel = line + n;
	return 0;
}

/* "PATH: " before what differs, nothing for the entry itself. */
static void damaged(struct strbuf *why, const char *rel, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void damaged(struct strbuf *why, const char *rel, const char *fmt, ...)
{
	va_list ap;

	if (strcmp(rel, "."))
		sb_addf(why, "%s: ", rel);
	va_start(ap, fmt);
	sb_vaddf(why, fmt, ap);
	va_end(ap);
}

/* Check one sealed file; *restamped set when it matched with other
 * stamps.  0 intact, -1 damaged (why). */
static int check_one(const char *root, int in_dir, const struct sealed *e,
		     struct stat *st, int *restamped, struct strbuf *why)
{
	char *path = strcmp(e->rel, ".") ? xstrfmt("%s/%s", root, e->rel) : xstrdup(root);
	char hex[65];
	int r = -1;

	*restamped = 0;
	if (lstat(path, st) < 0) {
		damaged(why, e->rel, "%s", errno == ENOENT ? "missing" : strerror(errno));
		goto out;
	}
	if (e->type == 'l') {
		if (!S_ISLNK(st->st_mode))
			damaged(why, e->rel, "no longer a symbolic link");
		else if (link_digest(path, hex) < 0 || strcmp(hex, e->hex))
			damaged(why, e->rel, "the link points elsewhere");
		else
			r = 0;
		goto out;
	}
	if (!S_ISREG(st->st_mode)) {
		damaged(why, e->rel, "no longer a regular file");
		goto out;
	}
	if ((unsigned long long)st->st_size != e->size) {
		damaged(why, e->rel, "%lld bytes, sealed with %llu",
			(long long)st->st_size, e->size);
		goto out;
	}
	if (in_dir && st->st_ino == e->ino &&
	    st->st_mtim.tv_sec == e->mt_s && st->st_mtim.tv_nsec == e->mt_ns &&
	    st->st_ctim.tv_sec == e->ct_s && st->st_ctim.tv_nsec == e->ct_ns) {
		r = 0;	/* untouched since it was sealed */
		goto out;
	}
	if (file_digest(path, hex) < 0 || strcmp(hex, e->hex)) {
		damaged(why, e->rel, "its contents differ from the seal (SHA-256)");
		goto out;
	}
	*restamped = in_dir;
	r = 0;
out:
	free(path);
	return r;
}

enum seal_state seal_check(const char *root, const char *seal, struct strbuf *why)
{
	struct strbuf text = STRBUF_INIT, fresh = STRBUF_INIT;
	struct line_iter it;
	struct stat st;
	int in_dir, restamped = 0, seen = 0, header = 0;
	enum seal_state state = SEAL_INTACT;

	if (sb_read_file(&text, seal) < 0) {
		int e = errno;

		sb_release(&text);
		if (e == ENOENT)
			return SEAL_MISSING;
		sb_addf(why, "its seal '%s' cannot be read: %s", seal, strerror(e));
		return SEAL_DAMAGED;
	}
	in_dir = lstat(root, &st) == 0 && S_ISDIR(st.st_mode);
	line_iter_init(&it, text.buf, text.len);
	sb_adds(&fresh, SEAL_HEADER "\n");
	while (line_next(&it)) {
		char *line = xstrndup(it.line, it.len);
		struct sealed e;
		int r = 0, re = 0;

		if (it.lineno == 1) {
			r = strcmp(line, SEAL_HEADER) ? -1 : 0;
			header = !r;
			if (r)
				sb_addf(why, "its seal '%s' is not one (first line)", seal);
		} else if (line_has_nul(it.line, it.len) || parse_line(line, &e) < 0) {
			sb_addf(why, "its seal '%s' is unreadable at line %u", seal, it.lineno);
			r = -1;
		} else if ((!strcmp(e.rel, ".")) == in_dir) {
			sb_addf(why, "its seal is for a %s", in_dir ? "file" : "directory");
			r = -1;
		} else {
			r = check_one(root, in_dir, &e, &st, &re, why);
			if (!r && re) {
				add_line(&fresh, &st, e.hex, e.rel);
				restamped = 1;
			} else if (!r) {
				sb_add(&fresh, it.line, it.len);
				sb_addch(&fresh, '\n');
			}
			seen++;
		}
		free(line);
		if (r) {
			state = SEAL_DAMAGED;
			break;
		}
	}
	if (state == SEAL_INTACT && !header) {
		sb_addf(why, "its seal '%s' is empty", seal);
		state = SEAL_DAMAGED;
	} else if (state == SEAL_INTACT && !in_dir && seen != 1) {
		sb_addf(why, "its seal '%s' does not list the file", seal);
		state = SEAL_DAMAGED;
	}
	/* Next time, the files that matched with new stamps need no hashing. */
	if (state == SEAL_INTACT && restamped)
		write_file_atomic(seal, fresh.buf, fresh.len);
	sb_release(&fresh);
	sb_release(&text);
	return state;
}
