#include "kernel/kernel.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cache.h"
#include "kernel/deb.h"
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
	strvec_clear(&k->build_patches);
	strvec_clear(&k->build_fragments);
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

int kernel_from_files(const char *image, const char *modules, const char *config,
		      int arch, struct kernel_artifact *k)
{
	char *dep, *mods = NULL;

	if (!path_exists(image))
		return error("kernel image '%s' does not exist", image);
	/* Accept lib/modules/VERSION or a root that holds lib/modules/VERSION. */
	dep = xstrfmt("%s/modules.dep", modules);
	if (path_exists(dep)) {
		mods = absolute_path(modules);
	} else {
		char *lm = xstrfmt("%s/lib/modules", modules);
		char *ver = only_entry(lm, "");
		if (ver)
			mods = xstrfmt("%s/%s", lm, ver);
		free(ver);
		free(lm);
		if (mods) {
			free(dep);
			dep = xstrfmt("%s/modules.dep", mods);
			if (!path_exists(dep)) {
				free(mods);
				mods = NULL;
			}
		}
	}
	free(dep);
	if (!mods)
		return error("'%s' is not a modules tree: no modules.dep in it or "
			     "in a single lib/modules/VERSION below it (run depmod)",
			     modules);
	k->source = xstrdup("files");
	k->image = absolute_path(image);
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

/* Unpack p into tmp and index its modules: a cache entry once renamed. */
static int debian_unpack(const struct deb_pkg *p, const char *tmp,
			 const char *log)
{
	char *boot = xstrfmt("%s/boot", tmp);
	char *vmlinuz = NULL;
	int r = -1;

	if (deb_fetch_extract(p, tmp, log) < 0)
		goto out;
	vmlinuz = only_entry(boot, "vmlinuz-");
	if (!vmlinuz) {
		error("package %s has no single boot/vmlinuz-*", p->name);
		goto out;
	}
	const char *ver = vmlinuz + strlen("vmlinuz-");
	const char *depmod[] = { "depmod", "-b", tmp, ver, NULL };
	struct child_opts o = CHILD_OPTS_INIT;
	struct child_result res;

	if (!have_program("depmod")) {
		error_env("depmod not found: install kmod (make deps)");
		goto out;
	}
	o.log = log;
	o.timeout = 600;
	note("indexing modules of %s (depmod)", ver);
	if (child_run(depmod, &o, &res) < 0)
		goto out;
	if (!child_ok(&res)) {
		error("depmod -b %s %s failed (%s); see '%s'", tmp, ver,
		      child_describe(&res), log);
		goto out;
	}
	r = 0;
out:
	free(vmlinuz);
	free(boot);
	return r;
}

static int kernel_debian(const struct scenario *s, const char *log,
			 struct kernel_artifact *k)
{
	struct deb_pkg p = DEB_PKG_INIT;
	struct cache_txn txn;
	char *entry, *boot, *vmlinuz;
	int r = -1, got;

	if (deb_resolve(scenario_kernel_package(s), arch_debian(s->arch), 1, &p) < 0)
		return -1;
	entry = cache_path("kernels/debian/%s_%s_%s", p.name, p.version, p.arch);
	got = cache_begin(&txn, entry);
	if (got == 0)
		got = debian_unpack(&p, txn.tmp, log) < 0 ? -1 : cache_commit(&txn);
	cache_end(&txn);
	if (got < 0)
		goto out;

	boot = xstrfmt("%s/boot", entry);
	vmlinuz = only_entry(boot, "vmlinuz-");
	if (!vmlinuz) {
		error("cache entry '%s' has no kernel image; remove it", entry);
		free(boot);
		goto out;
	}
	k->version = xstrdup(vmlinuz + strlen("vmlinuz-"));
	k->image = xstrfmt("%s/%s", boot, vmlinuz);
	k->modules = xstrfmt("%s/lib/modules/%s", entry, k->version);
	k->config = xstrfmt("%s/config-%s", boot, k->version);
	k->source = xstrdup("debian");
	k->package = xstrdup(p.name);
	k->package_version = xstrdup(p.version);
	k->arch = s->arch;
	free(vmlinuz);
	free(boot);
	read_highmem(k);
	r = 0;
out:
	free(entry);
	deb_pkg_release(&p);
	return r;
}

int kernel_obtain(const struct scenario *s, const char *log,
		  kernel_builder *build, struct kernel_artifact *k)
{
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
