// SPDX-License-Identifier: Apache-2.0
#include "kernel/deb.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernel/apt.h"
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
	strvec_clear(&p->part_names);
	strvec_clear(&p->part_versions);
	*p = (struct deb_pkg)DEB_PKG_INIT;
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

/* A kernel a package may depend on: "linux-image-" and a version
 * ("6.1.0-57-amd64", "6.12-amd64", "7.3-amd64", "7.2.13+deb14-amd64"), not
 * a flavour's metapackage ("linux-image-686-pae", "linux-image-amd64")
 * and not debugging symbols ("-dbg"). */
static int is_kernel_dep(const char *name)
{
	const char *p = name + 12;
	size_t n = strlen(name);

	if (strncmp(name, "linux-image-", 12))
		return 0;
	if (n > 4 && !strcmp(name + n - 4, "-dbg"))
		return 0;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == '.' && isdigit((unsigned char)p[1]);
}

static const char *const part_prefix[DEB_PARTS] = { "linux-binary-", "linux-modules-", "linux-base-" };

void deb_stanza_release(struct deb_stanza *st)
{
	free(st->version);
	free(st->kernel_dep);
	for (int i = 0; i < DEB_PARTS; i++) {
		free(st->part[i]);
		free(st->part_version[i]);
	}
	memset(st, 0, sizeof(*st));
}

/* One "Depends:" value: every alternative's name and "(= version)". */
static void parse_depends(const char *p, const char *end, struct deb_stanza *st,
			  struct strvec *names, struct strvec *eqs)
{
	(void)st;
	while (p < end) {
		while (p < end && (*p == ' ' || *p == ',' || *p == '|'))
			p++;
		const char *s = p;
		while (p < end && *p != ' ' && *p != ',' && *p != '|' && *p != ':' && *p != '(')
			p++;
		if (p == s) {
			if (p < end)
				p++;
			continue;
		}
		char *dep = xstrndup(s, (size_t)(p - s));
		char *eq = NULL;
		/* ":any" and the like, then "(= x)" */
		while (p < end && *p != ',' && *p != '|' && *p != '(')
			p++;
		if (p < end && *p == '(') {
			const char *c = p + 1, *ce = memchr(p, ')', (size_t)(end - p));
			if (ce) {
				while (c < ce && *c == ' ')
					c++;
				if (c + 1 < ce && c[0] == '=' && c[1] != '=') {
					c++;
					while (c < ce && *c == ' ')
						c++;
					const char *ve = c;
					while (ve < ce && *ve != ' ')
						ve++;
					eq = xstrndup(c, (size_t)(ve - c));
				}
				p = ce + 1;
			} else {
				p = end;
			}
		}
		strvec_push(names, dep);
		strvec_push(eqs, eq ? eq : "");
		free(dep);
		free(eq);
	}
}

int deb_parse_stanza(const char *buf, struct deb_stanza *st)
{
	struct line_iter it;
	struct strvec names = STRVEC_INIT, eqs = STRVEC_INIT;
	int have_depends = 0;

	memset(st, 0, sizeof(*st));
	line_iter_init(&it, buf, strlen(buf));
	while (line_next(&it)) {
		if (!it.len)
			break;	/* end of the first stanza */
		if (it.len > 9 && !strncmp(it.line, "Version: ", 9) && !st->version)
			st->version = xstrndup(it.line + 9, it.len - 9);
		if (it.len > 9 && !strncmp(it.line, "Depends: ", 9) && !have_depends) {
			have_depends = 1;
			parse_depends(it.line + 9, it.line + it.len, st, &names, &eqs);
		}
	}
	for (size_t i = 0; i < names.n; i++) {
		const char *d = names.v[i];
		if (!st->kernel_dep && is_kernel_dep(d) && deb_name_valid(d))
			st->kernel_dep = xstrdup(d);
		if (!st->part[0] && !strncmp(d, part_prefix[0], strlen(part_prefix[0])) &&
		    deb_name_valid(d)) {
			st->part[0] = xstrdup(d);
			if (*eqs.v[i] && deb_version_valid(eqs.v[i]))
				st->part_version[0] = xstrdup(eqs.v[i]);
		}
	}
	/* The other parts: of the binary's flavour and version. */
	if (st->part[0]) {
		const char *x = st->part[0] + strlen(part_prefix[0]);
		for (int k = 1; k < DEB_PARTS; k++) {
			char *want = xstrfmt("%s%s", part_prefix[k], x);
			for (size_t i = 0; i < names.n && !st->part[k]; i++)
				if (!strcmp(names.v[i], want)) {
					st->part[k] = xstrdup(want);
					if (*eqs.v[i] && deb_version_valid(eqs.v[i]))
						st->part_version[k] = xstrdup(eqs.v[i]);
				}
			free(want);
		}
	}
	strvec_clear(&names);
	strvec_clear(&eqs);
	if (!st->version || !deb_version_valid(st->version)) {
		deb_stanza_release(st);
		return -1;
	}
	return 0;
}

int deb_parse_show(const char *buf, char **version, char **kernel_dep)
{
	struct deb_stanza st;

	*version = *kernel_dep = NULL;
	if (deb_parse_stanza(buf, &st) < 0)
		return -1;
	*version = st.version;
	*kernel_dep = st.kernel_dep;
	st.version = st.kernel_dep = NULL;
	deb_stanza_release(&st);
	return 0;
}

/* What to say when apt has no pkg for arch: ERR_ENV. */
static int say_not_found(const char *name, const char *arch)
{
	const char *suite = apt_suite();
	int kernel = !strncmp(name, "linux-", 6);

	if (suite && !strcmp(arch, "i386") && kernel &&
	    strcmp(apt_suite_release(suite), "bookworm"))
		return error_env("suite '%s' has no package '%s' for i386: Debian builds no i386 "
			  "kernel after bookworm (12); set kernel_suite = bookworm, or arch = "
			  "x86_64, or build one (kernel = build)", suite, name);
	if (suite)
		return error_env("suite '%s' has no package '%s' for %s: check %s, or set "
			  "kernel_suite to a suite that has it", suite, name, arch,
			  kernel ? "kernel_package" : "the package name");
	if (!strcmp(arch, "i386"))
		return error_env("package '%s:%s' not found for i386: Debian builds i386 kernels up to "
			  "bookworm (12) only; set kernel_suite = bookworm to fetch them with "
			  "scaletest's own apt whatever this host runs (or, on a bookworm "
			  "host, run 'make deps SCENARIO=...', which enables dpkg "
			  "--add-architecture i386)", name, arch);
	return error_env("package '%s:%s' not found: check the name, or run "
			  "'apt-get update', or set kernel_suite", name, arch);
}

static int apt_show(const char *name, const char *arch, struct deb_stanza *st)
{
	char *spec = xstrfmt("%s:%s", name, arch);
	struct strvec av = STRVEC_INIT;
	struct child_opts o = CHILD_OPTS_INIT;
	struct strbuf out = STRBUF_INIT;
	struct child_result res;
	int r = -1;

	if (!have_program("apt-cache")) {
		free(spec);
		return error_env("apt-cache not found: scaletest fetches Debian's "
				 "kernels with apt; use kernel=files on other systems");
	}
	apt_argv(&av, "apt-cache");
	strvec_push(&av, "show");
	strvec_push(&av, "--no-all-versions");
	strvec_push(&av, spec);
	o.capture = &out;
	o.timeout = 120;
	o.env = (const char *const[]){ "LC_ALL=C", NULL };
	if ((r = child_run((const char *const *)av.v, &o, &res)) < 0)
		goto out;
	r = -1;
	if (!child_ok(&res) || !out.len) {
		r = say_not_found(name, arch);
		goto out;
	}
	if (deb_parse_stanza(out.buf, st) < 0) {
		error("cannot read apt-cache's answer for '%s'", spec);
		goto out;
	}
	r = 0;
out:
	strvec_clear(&av);
	sb_release(&out);
	free(spec);
	return r;
}

/*
 * apt-cache rebuilds its cache from the package lists on every call where
 * pkgcache.bin is disabled (common in containers): over a second each.  So
 * answers are remembered in the cache, keyed by the request and by the
 * names, sizes and times of apt's lists and dpkg's architectures; any
 * apt-get update makes a new key.  That state is read once per process
 * and lists directory (the host's, or a suite's: apt.h).
 */
static const char *apt_state(void)
{
	static char hex[65];
	static char *for_dir;
	const char *dir = apt_lists_dir();
	struct hash_ctx *h;
	DIR *d;
	struct dirent *de;
	struct strvec names = STRVEC_INIT;
	char line[128];
	struct stat st;

	if (hex[0] && for_dir && !strcmp(for_dir, dir))
		return hex;
	free(for_dir);
	for_dir = xstrdup(dir);
	h = hash_new();
	hash_adds(h, dir);
	hash_adds(h, apt_suite() ? apt_suite() : "host");
	if ((d = opendir(dir))) {
		while ((de = readdir(d)))
			if (de->d_name[0] != '.' && strcmp(de->d_name, "partial"))
				strvec_push(&names, de->d_name);
		closedir(d);
	}
	qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	for (size_t j = 0; j < names.n; j++) {
		char *p = xstrfmt("%s/%s", dir, names.v[j]);
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

	snprintf(line, sizeof(line), "resolve v2 %d", follow);
	return deb_memo_path(key);
}

/* "name version\n" from a memo file, then one such line for each part of
 * a split kernel; 0 if every line was read and is a Debian package name
 * and version (the cache is checked to be ours, and still its text goes
 * to apt-get: "-c/tmp/evil.conf" is no package). */
static int memo_read(const char *path, struct deb_pkg *out, const char *arch)
{
	struct strbuf sb = STRBUF_INIT;
	struct strvec names = STRVEC_INIT, versions = STRVEC_INIT;
	struct line_iter it;
	int r = -1;

	if (cache_read_small(path, &sb, 2048) < 0)
		goto out;
	if (!sb.len || sb.buf[sb.len - 1] != '\n')
		goto bad;
	line_iter_init(&it, sb.buf, sb.len);
	while (line_next(&it)) {
		const char *sp = memchr(it.line, ' ', it.len);
		if (!sp)
			goto bad;
		char *name = xstrndup(it.line, (size_t)(sp - it.line));
		char *version = xstrndup(sp + 1, it.len - (size_t)(sp + 1 - it.line));
		int ok = deb_name_valid(name) && deb_version_valid(version);
		strvec_push(&names, name);
		strvec_push(&versions, version);
		free(name);
		free(version);
		if (!ok || names.n > 1 + DEB_PARTS)
			goto bad;
	}
	if (names.n == 2 || !names.n)
		goto bad;
	out->name = xstrdup(names.v[0]);
	out->version = xstrdup(versions.v[0]);
	out->arch = xstrdup(arch);
	for (size_t i = 1; i < names.n; i++) {
		strvec_push(&out->part_names, names.v[i]);
		strvec_push(&out->part_versions, versions.v[i]);
	}
	r = 0;
	goto out;
bad:
	warning("apt memo '%s' does not hold a package name and version on each line: asking apt again",
		path);
out:
	strvec_clear(&names);
	strvec_clear(&versions);
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
		struct strbuf text = STRBUF_INIT;
		sb_addf(&text, "%s %s\n", out->name, out->version);
		for (size_t i = 0; i < out->part_names.n; i++)
			sb_addf(&text, "%s %s\n", out->part_names.v[i], out->part_versions.v[i]);
		cache_write_small(memo, text.buf);
		sb_release(&text);
	}
	free(memo);
	return r;
}

/* Where the packages come from, for messages: " in suite 'sid'" or "". */
static char *where(void)
{
	return apt_suite() ? xstrfmt(" in suite '%s'", apt_suite()) : xstrdup("");
}

/* The parts of the split kernel cur (its stanza st) into out: each must
 * be there in the version cur requires. */
static int resolve_parts(const char *cur, const char *arch, const struct deb_stanza *st,
			 struct deb_pkg *out)
{
	static const char *const what[DEB_PARTS] = { "the kernel", "its modules",
						     "its config and System.map" };
	char *w = where();
	int r = -1;

	if (!st->part[1]) {
		r = error_env("'%s'%s depends on '%s' but on no linux-modules- of it: a kernel "
			  "without its modules cannot boot a run; set kernel_package to another "
			  "kernel", cur, w, st->part[0]);
		goto out;
	}
	for (int k = 0; k < DEB_PARTS; k++) {
		struct deb_stanza ps;

		if (!st->part[k])
			continue;	/* linux-base: optional */
		if (apt_show(st->part[k], arch, &ps) < 0) {
			r = error_env("'%s'%s is a metapackage whose part '%s' (%s) cannot be "
				  "resolved: the suite is missing it (an archive in the middle of "
				  "an upload?); set kernel_package to a kernel the suite has whole, "
				  "or try again later", cur, w, st->part[k], what[k]);
			goto out;
		}
		if (st->part_version[k] && strcmp(ps.version, st->part_version[k])) {
			r = error_env("'%s'%s needs '%s' (= %s), but the suite has %s: the metapackage "
				  "cannot be resolved; set kernel_package to a kernel the suite has "
				  "whole, or try again later", cur, w, st->part[k],
				  st->part_version[k], ps.version);
			deb_stanza_release(&ps);
			goto out;
		}
		strvec_push(&out->part_names, st->part[k]);
		strvec_push(&out->part_versions, ps.version);
		deb_stanza_release(&ps);
	}
	r = 0;
out:
	free(w);
	return r;
}

static int deb_resolve_apt(const char *name, const char *arch, int follow_kernel,
			   struct deb_pkg *out)
{
	struct deb_stanza st;
	char *cur = xstrdup(name);
	const char *colon = strchr(name, ':');
	int depth, split = 0;

	memset(&st, 0, sizeof(st));
	if (colon) {
		/* "pkg:arch" in a scenario: the arch must agree. */
		if (strcmp(colon + 1, arch)) {
			free(cur);
			return error("package '%s' is not for %s", name, arch);
		}
		cur[colon - name] = '\0';
	}
	for (depth = 0; ; depth++) {
		int r = apt_show(cur, arch, &st);

		if (r < 0) {
			free(cur);
			return r;
		}
		if (!follow_kernel)
			break;
		if (st.part[0]) {
			split = 1;
			break;
		}
		if (!st.kernel_dep || depth > 3)
			break;
		free(cur);
		cur = st.kernel_dep;
		st.kernel_dep = NULL;
		deb_stanza_release(&st);
	}
	if (follow_kernel && !split && (!is_kernel_dep(cur) || st.kernel_dep)) {
		char *w = where();
		int r = error_env("'%s'%s is not a kernel image package: it leads to no package that "
			  "holds a kernel (linux-image-VERSION, or linux-binary-VERSION); set "
			  "kernel_package to one", name, w);
		free(w);
		free(cur);
		deb_stanza_release(&st);
		return r;
	}
	if (split) {
		int r = resolve_parts(cur, arch, &st, out);

		if (r < 0) {
			free(cur);
			deb_stanza_release(&st);
			deb_pkg_release(out);
			return r;
		}
	}
	out->name = cur;
	out->version = st.version;
	st.version = NULL;
	out->arch = xstrdup(arch);
	deb_stanza_release(&st);
	return 0;
}

/* apt-get download NAME:ARCH=VERSION into dir; the .deb's path. */
static int fetch_one(const char *name, const char *arch, const char *version,
		     const char *dl, const char *log, char **deb)
{
	char *spec = xstrfmt("%s:%s=%s", name, arch, version);
	char *sub = xstrfmt("%s/%s", dl, name);
	struct strvec av = STRVEC_INIT;
	struct child_opts o = CHILD_OPTS_INIT;
	struct child_result res;
	DIR *d;
	struct dirent *de;
	int r = -1;

	*deb = NULL;
	if (!deb_name_valid(name) || !deb_version_valid(version) || !deb_arch_valid(arch)) {
		error("not a Debian package to fetch: '%s' '%s' '%s'", name, version, arch);
		goto out;
	}
	if (mkdir_p(sub, 0755) < 0)
		goto out;
	apt_argv(&av, "apt-get");
	strvec_push(&av, "download");
	strvec_push(&av, "-q");
	strvec_push(&av, spec);
	o.dir = sub;
	o.log = log;
	o.timeout = 1800;
	if (apt_suite())
		note("downloading %s (suite %s)", spec, apt_suite());
	else
		note("downloading %s", spec);
	if ((r = child_run((const char *const *)av.v, &o, &res)) < 0)
		goto out;
	r = -1;
	if (!child_ok(&res)) {
		char *w = where();
		r = error_env("apt-get download %s%s failed (%s); see '%s'", spec, w,
			  child_describe(&res), log);
		free(w);
		goto out;
	}
	if ((d = opendir(sub))) {
		while ((de = readdir(d)))
			if (strlen(de->d_name) > 4 &&
			    !strcmp(de->d_name + strlen(de->d_name) - 4, ".deb")) {
				free(*deb);
				*deb = xstrfmt("%s/%s", sub, de->d_name);
			}
		closedir(d);
	}
	if (!*deb) {
		error("apt-get download %s left no .deb in '%s'", spec, sub);
		goto out;
	}
	r = 0;
out:
	strvec_clear(&av);
	free(sub);
	free(spec);
	return r;
}

int deb_fetch_extract(const struct deb_pkg *p, const char *root, const char *log)
{
	char *dl = xstrfmt("%s.download", root);
	struct strvec debs = STRVEC_INIT;
	struct child_opts o = CHILD_OPTS_INIT;
	struct child_result res;
	int r = -1;

	remove_tree(dl);
	if (mkdir_p(dl, 0755) < 0 || mkdir_p(root, 0755) < 0)
		goto out;
	/* Every .deb first, then unpack: a part that cannot be fetched
	 * leaves nothing unpacked. */
	if (!p->part_names.n) {
		char *deb;
		if ((r = fetch_one(p->name, p->arch, p->version, dl, log, &deb)) < 0)
			goto out;
		strvec_push(&debs, deb);
		free(deb);
	}
	for (size_t i = 0; i < p->part_names.n; i++) {
		char *deb;
		if ((r = fetch_one(p->part_names.v[i], p->arch, p->part_versions.v[i], dl, log,
				   &deb)) < 0)
			goto out;
		strvec_push(&debs, deb);
		free(deb);
	}
	o.log = log;
	o.timeout = 600;
	for (size_t i = 0; i < debs.n; i++) {
		const char *x[] = { "dpkg-deb", "-x", debs.v[i], root, NULL };
		if ((r = child_run(x, &o, &res)) < 0)
			goto out;
		r = -1;
		if (!child_ok(&res)) {
			error("dpkg-deb -x %s failed (%s); see '%s'", debs.v[i],
			      child_describe(&res), log);
			goto out;
		}
	}
	r = 0;
out:
	remove_tree(dl);
	strvec_clear(&debs);
	free(dl);
	return r;
}
