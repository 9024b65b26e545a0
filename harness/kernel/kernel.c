// SPDX-License-Identifier: Apache-2.0
#include "kernel/kernel.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/apt.h"
#include "kernel/deb.h"
#include "kernel/layout.h"
#include "lib/cache.h"
#include "lib/child.h"
#include "lib/util.h"

void kernel_release(struct kernel_artifact *k)
{
	free(k->source);
	free(k->package);
	free(k->package_version);
	free(k->version);
	free(k->image);
	free(k->modules);
	free(k->config);
	free(k->build_source);
	free(k->build_key);
	free(k->build_base);
	free(k->suite);
	strvec_clear(&k->package_parts);
	strvec_clear(&k->build_patches);
	strvec_clear(&k->build_fragments);
	free(k->failure);
	free(k->build_patchset_hash);
	free(k->build_git_url);
	*k = (struct kernel_artifact)KERNEL_ARTIFACT_INIT;
}

/* The single entry of dir whose name starts with prefix; malloc'd or NULL. */
static char *only_entry(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char *found = NULL;
	int n = 0;

	if (!d)
		return NULL;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' &&
		    !strncmp(de->d_name, prefix, strlen(prefix))) {
			free(found);
			found = xstrdup(de->d_name);
			n++;
		}
	closedir(d);
	if (n != 1) {
		free(found);
		return NULL;
	}
	return found;
}

static int read_highmem(struct kernel_artifact *k)
{
	struct strbuf sb = STRBUF_INIT;

	k->highmem = -1;
	if (k->config && sb_read_file(&sb, k->config) == 0)
		k->highmem = strstr(sb.buf, "\nCONFIG_HIGHMEM=y\n") != NULL;
	sb_release(&sb);
	return 0;
}

/* lib/modules/VERSION as make modules_install or a package leave it:
 * modules.dep, or before depmod modules.order or the kernel/ folder (the
 * run then says to index it: guest/moddep.h). */
static int looks_like_modules(const char *dir)
{
	static const char *const marks[] = { "modules.dep", "modules.order", "kernel" };

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++) {
		char *p = xstrfmt("%s/%s", dir, marks[i]);
		int ok = path_exists(p);

		free(p);
		if (ok)
			return 1;
	}
	return 0;
}

char *kernel_modules_tree(const char *modules)
{
	char *mods = NULL;

	/* Accept lib/modules/VERSION or a root that holds lib/modules/VERSION. */
	if (looks_like_modules(modules)) {
		mods = absolute_path(modules);	/* NULL: no current directory */
	} else {
		char *lm = xstrfmt("%s/lib/modules", modules);
		char *ver = only_entry(lm, "");
		if (ver)
			mods = xstrfmt("%s/%s", lm, ver);
		free(ver);
		free(lm);
		if (mods && !looks_like_modules(mods)) {
			free(mods);
			mods = NULL;
		}
	}
	return mods;
}

int kernel_from_files(const char *image, const char *modules, const char *config,
		      int arch, struct kernel_artifact *k)
{
	char *mods;

	if (!path_exists(image))
		return error("kernel image '%s' does not exist", image);
	mods = kernel_modules_tree(modules);
	if (!mods)
		return error("'%s' is not a modules tree: no modules.dep, modules.order or "
			     "kernel/ in it or in a single lib/modules/VERSION below it",
			     modules);
	k->image = absolute_path(image);
	if (!k->image) {
		free(mods);
		return error_errno("cannot resolve '%s'", image);
	}
	k->source = xstrdup("files");
	k->modules = mods;
	k->version = xstrdup(path_basename(mods));
	k->arch = arch;
	char *cfg = config ? xstrdup(config) : xstrfmt("%s/build/.config", mods);
	if (!config && !path_exists(cfg)) {
		free(cfg);
		cfg = xstrfmt("%s/config", mods);
	}
	if (path_exists(cfg))
		k->config = cfg;
	else
		free(cfg);
	return read_highmem(k);
}

/* The kernel's layout in the unpacked tree at root (layout.h). */
static int debian_layout(const char *root, const char *what, struct kernel_layout *l)
{
	struct strvec e = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	int r = 0;

	if (layout_scan(root, &e, &err) < 0 || kernel_layout_find(&e, l, &err) < 0)
		r = error_env("%s: %s", what, err.buf);
	strvec_clear(&e);
	sb_release(&err);
	return r;
}

/* Unpack p (or its parts) into tmp and index its modules: a cache entry
 * once renamed.  Modules under usr/lib/modules (trixie and later) are
 * moved to lib/modules, where depmod -b looks on every Debian (kmod's
 * module directory is /lib/modules in bookworm's and in trixie's), so an
 * entry has one layout whatever the package had. */
static int debian_unpack(const struct deb_pkg *p, const char *tmp,
			 const char *log)
{
	struct kernel_layout l = KERNEL_LAYOUT_INIT;
	char *what = xstrfmt("package %s %s", p->name, p->version);
	int r;

	if ((r = deb_fetch_extract(p, tmp, log)) < 0)
		goto out;
	if ((r = debian_layout(tmp, what, &l)) < 0)
		goto out;
	r = -1;
	if (!strncmp(l.modules, "usr/", 4)) {
		char *from = xstrfmt("%s/%s", tmp, l.modules);
		char *dir = xstrfmt("%s/lib/modules", tmp);
		char *to = xstrfmt("%s/%s", dir, l.version);
		int m = mkdir_p(dir, 0755) < 0 ? -1 : rename(from, to);
		if (m < 0)
			error_errno("cannot move '%s' to '%s'", from, to);
		free(from);
		free(dir);
		free(to);
		if (m < 0)
			goto out;
	}
	const char *depmod[] = { "depmod", "-b", tmp, l.version, NULL };
	struct child_opts o = CHILD_OPTS_INIT;
	struct child_result res;

	if (!have_program("depmod")) {
		r = error_env("depmod not found: install kmod (make deps)");
		goto out;
	}
	o.log = log;
	o.timeout = 600;
	note("indexing modules of %s (depmod)", l.version);
	if ((r = child_run(depmod, &o, &res)) < 0)
		goto out;
	r = -1;
	if (!child_ok(&res)) {
		error("depmod -b %s %s failed (%s); see '%s'", tmp, l.version,
		      child_describe(&res), log);
		goto out;
	}
	r = 0;
out:
	kernel_layout_release(&l);
	free(what);
	return r;
}

/* k from the unpacked package in entry. */
static int debian_fill(const char *entry, const struct deb_pkg *p, int arch,
		       struct kernel_artifact *k)
{
	struct kernel_layout l = KERNEL_LAYOUT_INIT;
	char *what = xstrfmt("cache entry '%s' (remove it)", entry);
	int r = debian_layout(entry, what, &l);

	free(what);
	if (r < 0)
		return r;
	k->version = xstrdup(l.version);
	k->image = xstrfmt("%s/%s", entry, l.image);
	k->modules = xstrfmt("%s/%s", entry, l.modules);
	k->config = l.config ? xstrfmt("%s/%s", entry, l.config) : NULL;
	k->source = xstrdup("debian");
	k->package = xstrdup(p->name);
	k->package_version = xstrdup(p->version);
	k->suite = apt_suite() ? xstrdup(apt_suite()) : NULL;
	for (size_t i = 0; i < p->part_names.n; i++)
		strvec_pushf(&k->package_parts, "%s=%s", p->part_names.v[i], p->part_versions.v[i]);
	k->arch = arch;
	kernel_layout_release(&l);
	return read_highmem(k);
}

static char *debian_entry(const struct deb_pkg *p)
{
	return cache_path("kernels/debian/%s_%s_%s", p->name, p->version, p->arch);
}

static int kernel_debian(const struct scenario *s, const char *log,
			 struct kernel_artifact *k)
{
	struct deb_pkg p = DEB_PKG_INIT;
	struct cache_txn txn;
	char *entry;
	int r, got;

	if ((r = deb_resolve(scenario_kernel_package(s), arch_debian(s->arch), 1, &p)) < 0)
		return r;
	if (!(entry = debian_entry(&p))) {
		deb_pkg_release(&p);
		return ERR_ENV;
	}
	got = cache_begin(&txn, entry);
	if (got == 0 && (got = debian_unpack(&p, txn.tmp, log)) == 0)
		got = cache_commit(&txn);
	cache_end(&txn);
	r = got < 0 ? got : debian_fill(entry, &p, s->arch, k);
	free(entry);
	deb_pkg_release(&p);
	return r;
}

/* Entries are renamed into place whole (cache.h): one that is there is
 * complete, and looking needs no lock. */
static int debian_find(const struct scenario *s, struct kernel_artifact *k,
		       struct strbuf *what)
{
	struct deb_pkg p = DEB_PKG_INIT;
	char *entry;
	int r;

	if ((r = deb_resolve(scenario_kernel_package(s), arch_debian(s->arch), 1, &p)) < 0)
		return r;
	if (!(entry = debian_entry(&p))) {
		deb_pkg_release(&p);
		return ERR_ENV;
	}
	if (is_dir(entry) && cache_check_owner(entry) == 0) {
		r = debian_fill(entry, &p, s->arch, k) < 0 ? -1 : 1;
	} else {
		struct strbuf parts = STRBUF_INIT;
		for (size_t i = 0; i < p.part_names.n; i++)
			sb_addf(&parts, "%s%s %s", i ? ", " : " (its parts: ", p.part_names.v[i],
				p.part_versions.v[i]);
		if (parts.len)
			sb_addch(&parts, ')');
		sb_addf(what, "not cached: a run would download %s %s (%s)%s%s%s with apt-get "
			"download and unpack it into %s", p.name, p.version, p.arch, parts.buf,
			apt_suite() ? " from suite " : "", apt_suite() ? apt_suite() : "", entry);
		sb_release(&parts);
		r = 0;
	}
	free(entry);
	deb_pkg_release(&p);
	return r;
}

int kernel_find(const struct scenario *s, kernel_finder *find_build,
		struct kernel_artifact *k, struct strbuf *what)
{
	int a = apt_select(s->kernel_suite, 0, NULL);

	if (a < 0)
		return a;
	if (a > 0) {
		struct strbuf d = STRBUF_INIT;
		apt_suite_describe(s->kernel_suite, &d);
		if (s->kernel == KERNEL_DEBIAN) {
			sb_addf(what, "not cached: a run would first fetch the package lists of "
				"suite %s (apt-get update with scaletest's own apt), then resolve "
				"%s for %s there and download it", d.buf,
				scenario_kernel_package(s), arch_debian(s->arch));
			sb_release(&d);
			return 0;
		}
		if (s->kernel == KERNEL_BUILD && scenario_debian_source(s->kernel_source, NULL, 0)) {
			sb_addf(what, "not built: a run would first fetch the package lists of "
				"suite %s (apt-get update with scaletest's own apt), then resolve "
				"Debian's kernel source there (kernel_source = %s) and build it",
				d.buf, s->kernel_source);
			sb_release(&d);
			return 0;
		}
		sb_release(&d);
	}
	switch (s->kernel) {
	case KERNEL_DEBIAN:
		return debian_find(s, k, what);
	case KERNEL_FILES:
		return kernel_from_files(s->kernel_image, s->kernel_modules, NULL,
					 s->arch, k) < 0 ? -1 : 1;
	case KERNEL_BUILD:
		if (!find_build)
			return error("kernel = build: no kernel builder here");
		return find_build(s, k, what);
	}
	return error("unknown kernel source");
}

static unsigned get16(const unsigned char *b, size_t off)
{
	return (unsigned)b[off] | (unsigned)b[off + 1] << 8;
}

int kernel_image_parse(const unsigned char *buf, size_t len,
		       struct kernel_image_info *info, struct strbuf *err)
{
	unsigned proto, vo;

	info->arch = -1;
	info->version[0] = '\0';
	if (len < 0x240 || memcmp(buf + 0x202, "HdrS", 4)) {
		sb_adds(err, "not a bzImage (no \"HdrS\" boot header at 0x202)");
		return -1;
	}
	proto = get16(buf, 0x206);
	if (proto < 0x200) {
		sb_addf(err, "boot protocol %u.%02u is too old", proto >> 8, proto & 0xff);
		return -1;
	}
	if (proto >= 0x20c)
		info->arch = get16(buf, 0x236) & 1 ? ARCH_X86_64 : ARCH_I386;
	vo = get16(buf, 0x20e);
	if (vo && (size_t)vo + 0x200 < len) {
		const unsigned char *v = buf + vo + 0x200;
		size_t n = 0, max = len - (vo + 0x200);

		/* The first word of "6.1.0-28-amd64 (debian-kernel@...) #1 SMP ...";
		 * printable characters only, else none. */
		while (n < max && n + 1 < sizeof(info->version) && isgraph(v[n]))
			n++;
		if (n && (n == max || v[n] == ' ' || v[n] == '\0')) {
			memcpy(info->version, v, n);
			info->version[n] = '\0';
		}
		/* It names /lib/modules/VERSION: "../../etc" names nothing. */
		if (!kernel_release_valid(info->version))
			info->version[0] = '\0';
	}
	return 0;
}

int kernel_image_read(const char *path, struct kernel_image_info *info,
		      struct strbuf *err)
{
	unsigned char *buf = xmalloc(KERNEL_IMAGE_HEAD);
	size_t len = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), r = -1;

	if (fd < 0) {
		sb_addf(err, "'%s': %s", path, strerror(errno));
		goto out;
	}
	while (len < KERNEL_IMAGE_HEAD &&
	       ((n = read(fd, buf + len, KERNEL_IMAGE_HEAD - len)) > 0 ||
		(n < 0 && errno == EINTR)))
		if (n > 0)
			len += (size_t)n;
	close(fd);
	struct strbuf why = STRBUF_INIT;
	r = kernel_image_parse(buf, len, info, &why);
	if (r < 0)
		sb_addf(err, "'%s': %s", path, why.buf);
	sb_release(&why);
out:
	free(buf);
	return r;
}

int kernel_obtain(const struct scenario *s, const char *log,
		  kernel_builder *build, struct kernel_artifact *k)
{
	/* The suite's apt serves the kernel (and, through it, busybox and
	 * fio's source: apt_use_userland()). */
	int r = apt_select(s->kernel_suite, 1, log);

	if (r < 0)
		return r;
	switch (s->kernel) {
	case KERNEL_DEBIAN:
		return kernel_debian(s, log, k);
	case KERNEL_FILES:
		return kernel_from_files(s->kernel_image, s->kernel_modules, NULL,
					 s->arch, k);
	case KERNEL_BUILD:
		if (!build)
			return error("kernel = build: no kernel builder here");
		return build(s, log, k);
	}
	return error("unknown kernel source");
}
