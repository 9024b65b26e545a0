// SPDX-License-Identifier: Apache-2.0
#include "guest/moddep.h"

#include <libkmod.h>
#include <stdarg.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "lib/textscan.h"
#include "lib/util.h"

void module_name(const char *path, char *out, size_t n)
{
	const char *b = path_basename(path);
	size_t i = 0;

	for (; *b && i + 1 < n; b++) {
		if (!strncmp(b, ".ko", 3) && (b[3] == '\0' || b[3] == '.'))
			break;
		out[i++] = *b == '-' ? '_' : *b;
	}
	out[i] = '\0';
}

/* A path from the index that may become an initramfs entry and a line of
 * the guest's module lists: relative, no "..", nothing but printable
 * characters other than space. */
static int valid_path(const char *p)
{
	size_t n = strlen(p);

	if (n < 4 || p[0] == '/' || strstr(p, "..") || !strstr(p, ".ko"))
		return 0;
	for (; *p; p++)
		if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f)
			return 0;
	return 1;
}

/* libkmod's messages: kept (the last few hundred bytes), never printed. */
static void kmod_log(void *data, int priority, const char *file, int line,
		     const char *fn, const char *format, va_list args)
{
	struct strbuf *log = data;

	(void)priority;
	(void)file;
	(void)line;
	(void)fn;
	if (log->len > 4096)
		sb_reset(log);
	sb_vaddf(log, format, args);
}

int moddep_open(struct moddep *d, const char *dir, struct strbuf *err)
{
	static const char *const no_config[] = { NULL };
	char *dep = xstrfmt("%s/modules.dep", dir);
	char *bin = xstrfmt("%s/modules.dep.bin", dir);
	int r = -1;

	d->dir = absolute_path(dir);
	if (!d->dir) {
		sb_addf(err, "cannot resolve '%s': %s", dir, strerror(errno));
		goto out;
	}
	while (strlen(d->dir) > 1 && d->dir[strlen(d->dir) - 1] == '/')
		d->dir[strlen(d->dir) - 1] = '\0';
	if (!path_exists(dep) || !path_exists(bin)) {
		sb_addf(err, "'%s' is missing: the modules tree '%s' is not indexed; run "
			"'depmod -b ROOT VERSION' (ROOT holds lib/modules/VERSION; make "
			"modules_install does it)", path_exists(dep) ? bin : dep, d->dir);
		goto out;
	}
	/* No configuration directories: the host's modprobe.d is not the
	 * guest's.  (libkmod still reads modules.softdep of the tree.) */
	d->ctx = kmod_new(d->dir, no_config);
	if (!d->ctx) {
		sb_addf(err, "libkmod cannot open the modules tree '%s'", d->dir);
		goto out;
	}
	kmod_set_log_fn(d->ctx, kmod_log, &d->log);
	r = 0;
out:
	free(dep);
	free(bin);
	return r;
}

/* kmod_module_probe_insert_module() reports each module of a dry run
 * through a callback that takes no context: this is it. */
static struct {
	struct moddep *d;
	struct strvec *order, *optional;
	struct strvec required;		/* names: the module and its dependencies */
	struct strbuf *err;
	int failed;
} collect;

static void collect_module(struct kmod_module *m, bool install, const char *options)
{
	const char *path = kmod_module_get_path(m);
	size_t dl = strlen(collect.d->dir);
	const char *rel;

	(void)install;
	(void)options;
	if (collect.failed || !path)
		return;		/* built in */
	rel = path + dl + 1;
	if (strncmp(path, collect.d->dir, dl) || path[dl] != '/' || !valid_path(rel)) {
		sb_addf(collect.err, "module '%s' of '%s' has a bad path in modules.dep "
			"('%s'): index the tree again with depmod",
			kmod_module_get_name(m), collect.d->dir, path);
		collect.failed = 1;
		return;
	}
	if (strvec_find(collect.order, rel) >= 0)
		return;
	strvec_push(collect.order, rel);
	/* A soft dependency (or one of its own) may fail to load, as modprobe
	 * lets it: crct10dif_pclmul on a CPU without PCLMULQDQ, say. */
	if (collect.optional && strvec_find(&collect.required, kmod_module_get_name(m)) < 0)
		strvec_push(collect.optional, rel);
}

/* The names a module cannot load without: itself and its dependencies. */
static void required_names(struct kmod_module *m, struct strvec *out)
{
	struct kmod_list *deps = kmod_module_get_dependencies(m), *l;

	strvec_push(out, kmod_module_get_name(m));
	kmod_list_foreach(l, deps) {
		struct kmod_module *dm = kmod_module_get_module(l);

		strvec_push(out, kmod_module_get_name(dm));
		kmod_module_unref(dm);
	}
	kmod_module_unref_list(deps);
}

/* A module missing from the index may still be in the tree: depmod
 * indexes .ko, .ko.xz, .ko.zst and .ko.gz only, and without zlib (Debian's
 * kmod 30) not .ko.gz.  The file, by modules.order (which names every
 * module as .ko), with one of these suffixes, or NULL. */
static const char *const unindexed_suffixes[] = { ".gz", ".bz2", ".lz4", ".lzma", ".lzo" };

static char *unindexed(const struct moddep *d, const char *name)
{
	struct strbuf order = STRBUF_INIT;
	char *path = xstrfmt("%s/modules.order", d->dir), *found = NULL;
	char want[64], got[64];
	struct line_iter it;

	module_name(name, want, sizeof(want));
	if (sb_read_file(&order, path) == 0) {
		line_iter_init(&it, order.buf, order.len);
		while (!found && line_next(&it)) {
			char *line = xstrndup(it.line, it.len);

			module_name(line, got, sizeof(got));
			for (size_t i = 0; valid_path(line) && !strcmp(got, want) && !found &&
			     i < ARRAY_SIZE(unindexed_suffixes); i++) {
				char *f = xstrfmt("%s/%s%s", d->dir, line, unindexed_suffixes[i]);
				if (path_exists(f))
					found = f;
				else
					free(f);
			}
			free(line);
		}
	}
	sb_release(&order);
	free(path);
	return found;
}

int moddep_closure(struct moddep *d, const char *name, struct strvec *order,
		   struct strvec *optional, struct strbuf *err)
{
	struct kmod_list *list = NULL, *l;
	int r;

	sb_reset(&d->log);
	r = kmod_module_new_from_lookup(d->ctx, name, &list);
	if (r < 0 || !list) {
		char *file = unindexed(d, name);
		size_t fl = file ? strlen(file) : 0;

		if (file && fl > 3 && !strcmp(file + fl - 3, ".gz"))
			sb_addf(err, "module '%s' is not in modules.dep although '%s' is there: "
				"depmod without zlib (as Debian's) passes over gzip-compressed "
				"modules; gunzip them and run depmod again, or build with "
				"CONFIG_MODULE_COMPRESS_XZ or _ZSTD", name, file);
		else if (file)
			sb_addf(err, "module '%s' is not in modules.dep although '%s' is there: "
				"it is compressed in a way neither the kernel's module loader nor "
				"depmod reads (only .ko, .ko.xz, .ko.zst and .ko.gz); decompress it "
				"and run depmod again", name, file);
		if (file) {
			free(file);
			return -1;
		}
		sb_addf(err, "module '%s' is neither in modules.dep nor built in", name);
		if (d->log.len)
			sb_addf(err, " (libkmod: %.*s)", (int)strcspn(d->log.buf, "\n"),
				d->log.buf);
		return -1;
	}
	collect.d = d;
	collect.order = order;
	collect.optional = optional;
	collect.err = err;
	collect.failed = 0;
	strvec_init(&collect.required);
	r = 0;
	kmod_list_foreach(l, list) {
		struct kmod_module *m = kmod_module_get_module(l);

		strvec_clear(&collect.required);
		required_names(m, &collect.required);
		/* modprobe --show-depends: nothing loaded, the host's loaded
		 * modules and install commands ignored, only the order told. */
		int e = kmod_module_probe_insert_module(m, KMOD_PROBE_DRY_RUN |
							KMOD_PROBE_IGNORE_LOADED,
							NULL, NULL, NULL, collect_module);

		kmod_module_unref(m);
		if (collect.failed) {
			r = -1;
			break;
		}
		if (e < 0) {
			sb_addf(err, "cannot resolve the dependencies of module '%s' in '%s'%s%.*s",
				name, d->dir, d->log.len ? ": " : "",
				(int)strcspn(d->log.buf, "\n"), d->log.buf);
			r = -1;
			break;
		}
	}
	kmod_module_unref_list(list);
	strvec_clear(&collect.required);
	collect.d = NULL;
	return r;
}

int moddep_have(struct moddep *d, const char *name)
{
	struct kmod_list *list = NULL;
	int r = kmod_module_new_from_lookup(d->ctx, name, &list);

	if (r < 0 || !list)
		return 0;
	kmod_module_unref_list(list);
	return 1;
}

void moddep_release(struct moddep *d)
{
	if (d->ctx)
		kmod_unref(d->ctx);
	free(d->dir);
	sb_release(&d->log);
	*d = (struct moddep)MODDEP_INIT;
}
