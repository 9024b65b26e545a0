// SPDX-License-Identifier: Apache-2.0
#include "kernel/deb.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/cache.h"
#include "lib/child.h"
#include "lib/strvec.h"
#include "lib/textscan.h"
#include "lib/util.h"

static int deb_resolve_apt(const char *name, const char *arch, int follow_kernel,
			   struct deb_pkg *out);

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void deb_pkg_release(struct deb_pkg *p)
{
	free(p->name);
	free(p->version);
	free(p->arch);
	p->name = p->version = p->arch = NULL;
}

static int deb_name_valid(const char *name)
{
	size_t n = strlen(name);

	if (n < 2 || n > 128 || !(islower((unsigned char)*name) || isdigit((unsigned char)*name)))
		return 0;
	for (const char *c = name; *c; c++)
		if (!islower((unsigned char)*c) && !isdigit((unsigned char)*c) && !strchr("+.-", *c))
			return 0;
	return 1;
}

static int deb_version_valid(const char *v)
{
	size_t n = strlen(v);

	if (!n || n > 128 || !isdigit((unsigned char)*v))
		return 0;
	for (const char *c = v; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr(".+~:-", *c))
			return 0;
	return 1;
}

static int deb_arch_valid(const char *arch)
{
	return !strcmp(arch, "amd64") || !strcmp(arch, "i386");
}

/* "linux-image-6.1.0-57-amd64" and "linux-image-6.12.118+deb12-amd64" are
 * versioned kernel image packages (three numbers); "linux-image-amd64",
 * "linux-image-686-pae" and "linux-image-6.12-amd64" (bookworm-security's
 * 6.12 series) are metapackages. */
static int is_versioned_kernel(const char *name)
{
	const char *p = name + 12;

	if (strncmp(name, "linux-image-", 12))
		return 0;
	for (int i = 0; i < 3; i++) {
		if (!isdigit((unsigned char)*p))
			return 0;
		while (isdigit((unsigned char)*p))
			p++;
		if (i < 2 && *p++ != '.')
			return 0;
	}
	return 1;
}

int deb_parse_show(const char *buf, char **version, char **kernel_dep)
{
	struct line_iter it;

	*version = NULL;
	*kernel_dep = NULL;
	line_iter_init(&it, buf, strlen(buf));
	while (line_next(&it)) {
		if (!it.len)
			break;	/* end of the first stanza */
		if (it.len > 9 && !strncmp(it.line, "Version: ", 9) && !*version)
			*version = xstrndup(it.line + 9, it.len - 9);
		if (it.len > 9 && !strncmp(it.line, "Depends: ", 9) && !*kernel_dep) {
			const char *p = it.line + 9, *end = it.line + it.len;
			while (p < end) {
				while (p < end && (*p == ' ' || *p == ',' || *p == '|'))
					p++;
				const char *s = p;
				while (p < end && *p != ' ' && *p != ',' && *p != '|')
					p++;
				char *dep = xstrndup(s, (size_t)(p - s));
				if (is_versioned_kernel(dep)) {
					*kernel_dep = dep;
					break;
				}
				free(dep);
				/* Skip a version constraint "(= x)". */
				while (p < end && *p != ',')
					p++;
			}
		}
	}
	if (*version && !deb_version_valid(*version)) {
		free(*version);
		*version = NULL;
	}
	if (*kernel_dep && !deb_name_valid(*kernel_dep)) {
		free(*kernel_dep);
		*kernel_dep = NULL;
	}
	if (!*version) {
		free(*kernel_dep);
		*kernel_dep = NULL;
		return -1;
	}
	return 0;
}

static int apt_show(const char *name, const char *arch, char **version,
		    char **kernel_dep)
{
	char *spec = xstrfmt("%s:%s", name, arch);
	const char *argv[] = { "apt-cache", "show", "--no-all-versions", spec, NULL };
	struct child_opts o = CHILD_OPTS_INIT;
	struct strbuf out = STRBUF_INIT;
	struct child_result res;
	int r = -1;

	if (!have_program("apt-cache")) {
		free(spec);
		return error_env("apt-cache not found: scaletest fetches Debian's "
				 "kernels with apt; use kernel=files on other systems");
	}
	o.capture = &out;
	o.timeout = 120;
	if ((r = child_run(argv, &o, &res)) < 0)
		goto out;
	r = -1;
	if (!child_ok(&res) || !out.len) {
		if (!strcmp(arch, "i386"))
			r = error_env("package '%s' not found for i386: run 'make deps' "
				      "(it enables dpkg --add-architecture i386 and apt-get "
				      "update)", spec);
		else
			r = error_env("package '%s' not found: check the name, or run "
				      "'apt-get update'", spec);
		goto out;
	}
	if (deb_parse_show(out.buf, version, kernel_dep) < 0) {
		error("cannot read apt-cache's answer for '%s'", spec);
		goto out;
	}
	r = 0;
out:
	sb_release(&out);
	free(spec);
	return r;
}

/*
 * apt-cache rebuilds its cache from the package lists on every call where
 * pkgcache.bin is disabled (common in containers): over a second each.  So
 * answers are remembered in the cache, keyed by the request and by the
 * names, sizes and times of apt's lists and dpkg's architectures; any
 * apt-get update makes a new key.  That state is read once per process.
 */
static const char *apt_state(void)
{
	static char hex[65];
	struct hash_ctx *h;
	DIR *d;
	struct dirent *de;
	struct strvec names = STRVEC_INIT;
	char line[128];
	struct stat st;

	if (hex[0])
		return hex;
	h = hash_new();
	if ((d = opendir("/var/lib/apt/lists"))) {
		while ((de = readdir(d)))
			if (de->d_name[0] != '.' && strcmp(de->d_name, "partial"))
				strvec_push(&names, de->d_name);
		closedir(d);
	}
	qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	for (size_t j = 0; j < names.n; j++) {
		char *p = xstrfmt("/var/lib/apt/lists/%s", names.v[j]);
		if (stat(p, &st) == 0) {
			snprintf(line, sizeof(line), "%lld %lld.%09ld",
				 (long long)st.st_size, (long long)st.st_mtim.tv_sec,
				 st.st_mtim.tv_nsec);
			hash_adds(h, names.v[j]);
			hash_adds(h, line);
		}
		free(p);
	}
	strvec_clear(&names);
	if (stat("/var/lib/dpkg/arch", &st) == 0) {
		snprintf(line, sizeof(line), "arch %lld", (long long)st.st_mtim.tv_sec);
		hash_adds(h, line);
	}
	hash_hex(h, hex);
	return hex;
}

char *deb_memo_path(const char *const *key)
{
	struct hash_ctx *h = hash_new();
	char hex[65];

	for (size_t i = 0; key[i]; i++)
		hash_adds(h, key[i]);
	hash_adds(h, apt_state());
	hash_hex(h, hex);
	return cache_path("apt/%.32s", hex);
}

static char *resolve_memo_path(const char *name, const char *arch, int follow)
{
	char line[32];
	const char *key[] = { line, name, arch, NULL };

	snprintf(line, sizeof(line), "resolve v1 %d", follow);
	return deb_memo_path(key);
}

/* "name version\n" from a memo file; 0 if both were read and are a Debian
 * package name and version (the cache is checked to be ours, and still its
 * text goes to apt-get: "-c/tmp/evil.conf" is no package). */
static int memo_read(const char *path, struct deb_pkg *out, const char *arch)
{
	struct strbuf sb = STRBUF_INIT;
	char *name = NULL, *version = NULL, *sp, *nl;
	int r = -1;

	if (cache_read_small(path, &sb, 512) < 0)
		goto out;
	if ((sp = strchr(sb.buf, ' ')) && (nl = strchr(sp, '\n')) && !nl[1]) {
		name = xstrndup(sb.buf, (size_t)(sp - sb.buf));
		version = xstrndup(sp + 1, (size_t)(nl - sp - 1));
	}
	if (!name || !deb_name_valid(name) || !deb_version_valid(version)) {
		warning("apt memo '%s' does not hold a package name and version: asking apt again",
			path);
		goto out;
	}
	out->name = name;
	out->version = version;
	out->arch = xstrdup(arch);
	name = version = NULL;
	r = 0;
out:
	free(name);
	free(version);
	sb_release(&sb);
	return r;
}

int deb_resolve(const char *name, const char *arch, int follow_kernel,
		struct deb_pkg *out)
{
	const char *colon = strchr(name, ':');
	char *bare = colon ? xstrndup(name, (size_t)(colon - name)) : xstrdup(name);
	int ok = deb_name_valid(bare) && deb_arch_valid(arch) && (!colon || deb_arch_valid(colon + 1));

	free(bare);
	if (!ok)
		return error("'%s' is not a Debian package name (lowercase letters, digits and "
			     "+.-, from a letter or digit; \":amd64\" or \":i386\" may follow) for %s",
			     name, deb_arch_valid(arch) ? arch : "this arch");

	char *memo = resolve_memo_path(name, arch, follow_kernel);

	if (!memo)
		return ERR_ENV;	/* the cache: said */
	if (memo_read(memo, out, arch) == 0) {
		free(memo);
		return 0;
	}
	int r = deb_resolve_apt(name, arch, follow_kernel, out);
	if (!r) {
		char *text = xstrfmt("%s %s\n", out->name, out->version);
		cache_write_small(memo, text);
		free(text);
	}
	free(memo);
	return r;
}

static int deb_resolve_apt(const char *name, const char *arch, int follow_kernel,
			   struct deb_pkg *out)
{
	char *version = NULL, *dep = NULL;
	char *cur = xstrdup(name);
	const char *colon = strchr(name, ':');

	if (colon) {
		/* "pkg:arch" in a scenario: the arch must agree. */
		if (strcmp(colon + 1, arch)) {
			free(cur);
			return error("package '%s' is not for %s", name, arch);
		}
		cur[colon - name] = '\0';
	}
	for (int depth = 0; ; depth++) {
		int r = apt_show(cur, arch, &version, &dep);

		if (r < 0) {
			free(cur);
			return r;
		}
		if (!follow_kernel || is_versioned_kernel(cur) || !dep || depth > 3)
			break;
		free(cur);
		free(version);
		cur = dep;
		dep = NULL;
	}
	free(dep);
	if (follow_kernel && !is_versioned_kernel(cur)) {
		error("'%s' is not a kernel image package", name);
		free(cur);
		free(version);
		return -1;
	}
	out->name = cur;
	out->version = version;
	out->arch = xstrdup(arch);
	return 0;
}

int deb_fetch_extract(const struct deb_pkg *p, const char *root, const char *log)
{
	char *dl = xstrfmt("%s.download", root);
	char *spec = xstrfmt("%s:%s=%s", p->name, p->arch, p->version);
	const char *get[] = { "apt-get", "download", "-q", spec, NULL };
	struct child_opts o = CHILD_OPTS_INIT;
	struct child_result res;
	char *deb = NULL;
	DIR *d;
	struct dirent *de;
	int r = -1;

	if (!deb_name_valid(p->name) || !deb_version_valid(p->version) || !deb_arch_valid(p->arch)) {
		error("not a Debian package to fetch: '%s' '%s' '%s'", p->name, p->version, p->arch);
		goto out;
	}
	remove_tree(dl);
	if (mkdir_p(dl, 0755) < 0 || mkdir_p(root, 0755) < 0)
		goto out;
	o.dir = dl;
	o.log = log;
	o.timeout = 1800;
	note("downloading %s", spec);
	if ((r = child_run(get, &o, &res)) < 0)
		goto out;
	r = -1;
	if (!child_ok(&res)) {
		r = error_env("apt-get download %s failed (%s); see '%s'", spec,
			      child_describe(&res), log);
		goto out;
	}
	if ((d = opendir(dl))) {
		while ((de = readdir(d)))
			if (strlen(de->d_name) > 4 &&
			    !strcmp(de->d_name + strlen(de->d_name) - 4, ".deb"))
				deb = xstrfmt("%s/%s", dl, de->d_name);
		closedir(d);
	}
	if (!deb) {
		error("apt-get download %s left no .deb in '%s'", spec, dl);
		goto out;
	}
	const char *x[] = { "dpkg-deb", "-x", deb, root, NULL };
	o.dir = NULL;
	o.timeout = 600;
	if ((r = child_run(x, &o, &res)) < 0)
		goto out;
	r = -1;
	if (!child_ok(&res)) {
		error("dpkg-deb -x %s failed (%s); see '%s'", deb,
		      child_describe(&res), log);
		goto out;
	}
	r = 0;
out:
	remove_tree(dl);
	free(deb);
	free(spec);
	free(dl);
	return r;
}
