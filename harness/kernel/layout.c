// SPDX-License-Identifier: Apache-2.0
#include "kernel/layout.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/textscan.h"
#include "lib/util.h"

int kernel_release_valid(const char *v)
{
	size_t n = strlen(v);

	if (!n || n > 64 || !isalnum((unsigned char)*v) || strstr(v, ".."))
		return 0;
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && !strchr("._+~-", *v))
			return 0;
	return 1;
}

void kernel_layout_release(struct kernel_layout *l)
{
	free(l->version);
	free(l->image);
	free(l->modules);
	free(l->config);
	free(l->system_map);
	*l = (struct kernel_layout)KERNEL_LAYOUT_INIT;
}

/* A relative path with no empty, "." or ".." component. */
static int path_clean(const char *p, size_t n)
{
	size_t i = 0;

	if (!n || p[0] == '/')
		return 0;
	while (i < n) {
		size_t j = i;
		while (j < n && p[j] != '/')
			j++;
		if (j == i || (j - i == 1 && p[i] == '.') ||
		    (j - i == 2 && p[i] == '.' && p[i + 1] == '.'))
			return 0;
		i = j + 1;
	}
	return 1;
}

static char entry_type(char mode)
{
	switch (mode) {
	case '-':
	case 'h':	/* a hard link is a regular file */
		return 'f';
	case 'd':
		return 'd';
	case 'l':
		return 'l';
	default:
		return '?';
	}
}

int layout_parse_listing(const char *buf, size_t len, struct strvec *entries,
			 struct strbuf *err)
{
	struct line_iter it;
	size_t lineno = 0;

	line_iter_init(&it, buf, len);
	while (line_next(&it)) {
		const char *l = it.line, *end = it.line + it.len, *p;
		int fields = 0;

		lineno++;
		if (!it.len)
			continue;
		/* "MODE OWNER/GROUP SIZE DATE TIME ./PATH[ -> TARGET | link to ...]":
		 * the path starts after the fifth field. */
		p = l;
		while (p < end && fields < 5) {
			while (p < end && *p != ' ')
				p++;
			while (p < end && *p == ' ')
				p++;
			fields++;
		}
		if (fields < 5 || p >= end || it.len < 10 || strncmp(p, "./", 2)) {
			sb_addf(err, "line %zu: not a line of dpkg-deb -c (MODE OWNER SIZE DATE TIME ./PATH)",
				lineno);
			return -1;
		}
		p += 2;
		const char *pe = end;
		const char *arrow = NULL;
		for (const char *q = p; q + 4 <= end; q++)
			if (!strncmp(q, " -> ", 4) || (q + 9 <= end && !strncmp(q, " link to ", 9))) {
				arrow = q;
				break;
			}
		if (arrow)
			pe = arrow;
		while (pe > p && pe[-1] == '/')
			pe--;
		if (pe == p)
			continue;	/* "./" itself */
		if (!path_clean(p, (size_t)(pe - p)) || line_has_nul(p, (size_t)(pe - p))) {
			sb_addf(err, "line %zu: '%.*s' is not a clean relative path", lineno,
				(int)(pe - p), p);
			return -1;
		}
		strvec_pushf(entries, "%c %.*s", entry_type(*l), (int)(pe - p), p);
	}
	return 0;
}

static void scan_dir(const char *root, const char *rel, int depth,
		     struct strvec *entries)
{
	char *dir = xstrfmt("%s/%s", root, rel);
	DIR *d = opendir(dir);
	struct dirent *de;

	free(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;
		char *r, *full;
		char t;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		r = xstrfmt("%s/%s", rel, de->d_name);
		full = xstrfmt("%s/%s", root, r);
		if (lstat(full, &st) == 0) {
			t = S_ISREG(st.st_mode) ? 'f' : S_ISDIR(st.st_mode) ? 'd'
			    : S_ISLNK(st.st_mode) ? 'l' : '?';
			strvec_pushf(entries, "%c %s", t, r);
			if (t == 'd' && depth > 1)
				scan_dir(root, r, depth - 1, entries);
		}
		free(full);
		free(r);
	}
	closedir(d);
}

int layout_scan(const char *root, struct strvec *entries, struct strbuf *err)
{
	static const char *const tops[] = { "boot", "lib", "usr", "usr/lib" };
	static const char *const mods[] = { "lib/modules", "usr/lib/modules" };
	struct stat st;

	if (lstat(root, &st) < 0 || !S_ISDIR(st.st_mode)) {
		sb_addf(err, "'%s' is not a directory", root);
		return -1;
	}
	/* The directories on the way, as entries (so a link is seen)... */
	for (size_t i = 0; i < ARRAY_SIZE(tops); i++) {
		char *full = xstrfmt("%s/%s", root, tops[i]);
		if (lstat(full, &st) == 0)
			strvec_pushf(entries, "%c %s", S_ISDIR(st.st_mode) ? 'd'
				     : S_ISLNK(st.st_mode) ? 'l' : '?', tops[i]);
		free(full);
	}
	/* ...the files of boot/, and (usr/)lib/modules/ two levels down. */
	scan_dir(root, "boot", 1, entries);
	for (size_t i = 0; i < ARRAY_SIZE(mods); i++) {
		char *full = xstrfmt("%s/%s", root, mods[i]);
		if (lstat(full, &st) == 0) {
			strvec_pushf(entries, "%c %s", S_ISDIR(st.st_mode) ? 'd'
				     : S_ISLNK(st.st_mode) ? 'l' : '?', mods[i]);
			if (S_ISDIR(st.st_mode))
				scan_dir(root, mods[i], 2, entries);
		}
		free(full);
	}
	return 0;
}

/* The entry's type for path, or 0 when there is none. */
static char entry_of(const struct strvec *e, const char *path)
{
	for (size_t i = 0; i < e->n; i++)
		if (!strcmp(e->v[i] + 2, path))
			return e->v[i][0];
	return 0;
}

/* "V" when path is "<base>/V" or below it; malloc'd, or NULL. */
static char *version_under(const char *path, const char *base)
{
	size_t n = strlen(base);
	const char *v, *s;

	if (strncmp(path, base, n) || path[n] != '/')
		return NULL;
	v = path + n + 1;
	s = strchr(v, '/');
	return s ? xstrndup(v, (size_t)(s - v)) : xstrdup(v);
}

static const char *const mod_bases[] = { "lib/modules", "usr/lib/modules" };

int kernel_layout_find(const struct strvec *e, struct kernel_layout *l,
		       struct strbuf *err)
{
	char *image = NULL, *version = NULL;
	int nimages = 0, r = -1;

	/* The kernel: boot/vmlinuz-V or (usr/)lib/modules/V/vmlinuz. */
	for (size_t i = 0; i < e->n; i++) {
		const char *p = e->v[i] + 2;
		char t = e->v[i][0];
		char *v = NULL;

		if (!strncmp(p, "boot/vmlinuz-", 13) && !strchr(p + 5, '/')) {
			v = xstrdup(p + 13);
		} else {
			for (size_t b = 0; b < ARRAY_SIZE(mod_bases) && !v; b++) {
				char *x = version_under(p, mod_bases[b]);
				size_t bl = strlen(mod_bases[b]);
				if (x && !strcmp(p + bl + 1 + strlen(x), "/vmlinuz"))
					v = x;
				else
					free(x);
			}
		}
		if (!v)
			continue;
		if (t != 'f') {
			sb_addf(err, "'%s' is %s, not a file: a package's kernel must be one",
				p, t == 'l' ? "a symbolic link" : t == 'd' ? "a directory"
				: "a special file");
			free(v);
			goto out;
		}
		if (nimages++) {
			sb_addf(err, "two kernels in the package: '%s' and '%s'", image, p);
			free(v);
			goto out;
		}
		image = xstrdup(p);
		version = v;
	}
	if (!nimages) {
		sb_adds(err, "no kernel in the package: neither boot/vmlinuz-VERSION nor "
			"usr/lib/modules/VERSION/vmlinuz (nor lib/modules/VERSION/vmlinuz)");
		goto out;
	}
	if (!kernel_release_valid(version)) {
		sb_addf(err, "'%s' names a kernel version that cannot name a directory", image);
		goto out;
	}
	/* Its modules: one tree, of its version, in one place; the modules
	 * directories themselves no links. */
	l->modules = NULL;
	for (size_t b = 0; b < ARRAY_SIZE(mod_bases); b++) {
		char t = entry_of(e, mod_bases[b]);
		if (t && t != 'd') {
			sb_addf(err, "'%s' is not a directory in the package", mod_bases[b]);
			goto out;
		}
	}
	for (size_t i = 0; i < e->n; i++) {
		const char *p = e->v[i] + 2;
		for (size_t b = 0; b < ARRAY_SIZE(mod_bases); b++) {
			char *v = version_under(p, mod_bases[b]);
			if (!v)
				continue;
			if (strcmp(v, version)) {
				sb_addf(err, "modules of another kernel than %s in the package: '%s/%s'",
					version, mod_bases[b], v);
				free(v);
				goto out;
			}
			char *dir = xstrfmt("%s/%s", mod_bases[b], v);
			free(v);
			char t = entry_of(e, dir);
			if (t && t != 'd') {
				sb_addf(err, "'%s' is %s, not a directory", dir,
					t == 'l' ? "a symbolic link" : "a file");
				free(dir);
				goto out;
			}
			if (l->modules && strcmp(l->modules, dir)) {
				sb_addf(err, "the modules of %s are in both '%s' and '%s'", version,
					l->modules, dir);
				free(dir);
				goto out;
			}
			if (!l->modules)
				l->modules = dir;
			else
				free(dir);
		}
	}
	if (!l->modules) {
		sb_addf(err, "no modules of %s in the package: neither lib/modules/%s nor "
			"usr/lib/modules/%s", version, version, version);
		goto out;
	}
	/* config and System.map: beside the kernel in boot/, else in the
	 * modules tree; a link is refused (read_highmem reads the config). */
	static const char *const extras[][2] = { { "config", "config" },
						  { "System.map", "System.map" } };
	for (size_t x = 0; x < ARRAY_SIZE(extras); x++) {
		char *cand[2] = { xstrfmt("boot/%s-%s", extras[x][0], version),
				  xstrfmt("%s/%s", l->modules, extras[x][1]) };
		char *found = NULL;
		for (int c = 0; c < 2 && !found; c++) {
			char t = entry_of(e, cand[c]);
			if (t == 'f')
				found = xstrdup(cand[c]);
			else if (t) {
				sb_addf(err, "'%s' is not a file in the package", cand[c]);
				free(cand[0]);
				free(cand[1]);
				goto out;
			}
		}
		free(cand[0]);
		free(cand[1]);
		if (x == 0)
			l->config = found;
		else
			l->system_map = found;
	}
	l->version = version;
	l->image = image;
	version = image = NULL;
	r = 0;
out:
	if (r < 0) {
		free(l->modules);
		free(l->config);
		l->modules = l->config = NULL;
	}
	free(image);
	free(version);
	return r;
}

char *layout_find_program(const char *root, const char *name)
{
	static const char *const dirs[] = { "bin", "usr/bin" };

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		char *p = xstrfmt("%s/%s/%s", root, dirs[i], name);
		struct stat st;

		if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111))
			return p;
		free(p);
	}
	return NULL;
}
