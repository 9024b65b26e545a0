// SPDX-License-Identifier: Apache-2.0
#include "kernel/override.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "lib/util.h"

int kernel_override_any(const struct kernel_override *o)
{
	return o->image || o->modules || o->source || o->patches;
}

/* The user's --set of key, or NULL. */
static const char *user_set(const struct strvec *user_sets, const char *key)
{
	size_t n = strlen(key);

	for (size_t i = 0; user_sets && i < user_sets->n; i++)
		if (!strncmp(user_sets->v[i], key, n) && user_sets->v[i][n] == '=')
			return user_sets->v[i];
	return NULL;
}

/*
 * Each option, the keys it chooses (a --set of one of them is a conflict)
 * and the keys of the file's kernel it sends back to their defaults.
 */
static const char *const image_keys[] = {
	"kernel", "kernel_image", "kernel_modules", "kernel_package", "kernel_source",
	"kernel_patches", "kernel_fragments", NULL,
};
static const char *const image_resets[] = {
	"kernel_package", "kernel_source", "kernel_patches", "kernel_fragments",
	"kernel_config_base", NULL,
};
static const char *const source_keys[] = {
	"kernel", "kernel_source", "kernel_image", "kernel_modules", "kernel_package", NULL,
};
static const char *const source_resets[] = {
	"kernel_package", "kernel_image", "kernel_modules", "kernel_patches", NULL,
};

static int conflict(const char *opt, const char *const *keys,
		    const struct strvec *user_sets, struct strbuf *err)
{
	for (size_t i = 0; keys[i]; i++) {
		const char *u = user_set(user_sets, keys[i]);
		if (u) {
			sb_addf(err, "%s and --set %s both choose the kernel: give one", opt, u);
			return -1;
		}
	}
	return 0;
}

/* The file's own kernel lines that the option replaces: back to their
 * defaults, and named in one note. */
static void replace(const struct scenario *s, const char *opt, const char *const *resets,
		    struct strvec *sets, struct strvec *notes)
{
	struct strbuf note = STRBUF_INIT, v = STRBUF_INIT;
	const struct scenario_key *kk = scenario_key_find("kernel");

	if (s->origin[kk - scenario_keys] > 0) {
		scenario_value(s, kk, &v);
		sb_addf(&note, "kernel = %s (line %d)", v.buf, s->origin[kk - scenario_keys]);
	}
	for (size_t i = 0; resets[i]; i++) {
		const struct scenario_key *k = scenario_key_find(resets[i]);
		int line = s->origin[k - scenario_keys];

		if (line <= 0)
			continue;
		sb_reset(&v);
		scenario_value(s, k, &v);
		sb_addf(&note, "%s%s = %s (line %d)", note.len ? ", " : "", k->name, v.buf, line);
		strvec_pushf(sets, "%s=%s", k->name, k->def);
	}
	if (note.len)
		strvec_pushf(notes, "%s replaces the kernel of %s: %s", opt, s->file, note.buf);
	sb_release(&note);
	sb_release(&v);
}

static int from_image(const struct kernel_override *o, const struct scenario *s,
		      int implicit, const struct strvec *user_sets, struct strvec *sets,
		      struct strvec *notes, struct strbuf *err)
{
	struct kernel_image_info info;
	struct strbuf why = STRBUF_INIT;
	const struct scenario_key *ak = scenario_key_find("arch");
	char *image = NULL, *mods = NULL, *sys = NULL;
	int r = -1;

	if (conflict("--kernel", image_keys, user_sets, err) < 0)
		goto out;
	if (kernel_image_read(o->image, &info, &why) < 0) {
		sb_addf(err, "--kernel %s", why.buf);
		goto out;
	}
	image = absolute_path(o->image);
	if (!image) {
		sb_addf(err, "--kernel '%s': %s", o->image, strerror(errno));
		goto out;
	}
	if (o->modules) {
		if (!is_dir(o->modules)) {
			sb_addf(err, "--modules '%s': %s", o->modules,
				path_exists(o->modules) ? "not a directory" : strerror(ENOENT));
			goto out;
		}
		mods = kernel_modules_tree(o->modules);
		if (!mods) {
			sb_addf(err, "--modules '%s' is not a modules tree: no modules.dep, "
				"modules.order or kernel/ in it or in a single lib/modules/VERSION "
				"below it (make modules_install INSTALL_MOD_PATH=DIR)", o->modules);
			goto out;
		}
	} else {
		if (!*info.version) {
			sb_addf(err, "--kernel '%s' needs --modules DIR: its header names no "
				"version to look for in /lib/modules", o->image);
			goto out;
		}
		sys = xstrfmt("/lib/modules/%s", info.version);
		mods = kernel_modules_tree(sys);
		if (!mods) {
			sb_addf(err, "--kernel '%s' (%s) needs --modules DIR: %s has no "
				"modules.dep (make modules_install INSTALL_MOD_PATH=DIR)",
				o->image, info.version, sys);
			goto out;
		}
	}
	if (*info.version && strcmp(path_basename(mods), info.version))
		strvec_pushf(notes, "warning: the modules in %s are %s's, the --kernel "
			     "image says %s: they may not load", mods, path_basename(mods),
			     info.version);
	if (info.arch >= 0 && info.arch != s->arch) {
		const char *u = user_set(user_sets, "arch");
		int line = s->origin[ak - scenario_keys];

		if (u) {
			sb_addf(err, "--kernel '%s' is an %s kernel, but --set %s",
				o->image, arch_name(info.arch), u);
			goto out;
		}
		if (!implicit && line > 0) {
			sb_addf(err, "--kernel '%s' is an %s kernel, but %s:%d sets arch = %s "
				"(add --set arch=%s, or give an %s kernel)", o->image,
				arch_name(info.arch), s->file, line, arch_name(s->arch),
				arch_name(info.arch), arch_name(s->arch));
			goto out;
		}
		strvec_pushf(sets, "arch=%s", arch_name(info.arch));
		strvec_pushf(notes, "arch = %s, as the --kernel image says (%s had %s)",
			     arch_name(info.arch), s->file ? s->file : "the scenario",
			     arch_name(s->arch));
	}
	strvec_push(sets, "kernel=files");
	strvec_pushf(sets, "kernel_image=%s", image);
	strvec_pushf(sets, "kernel_modules=%s", mods);
	replace(s, "--kernel", image_resets, sets, notes);
	r = 0;
out:
	sb_release(&why);
	free(image);
	free(mods);
	free(sys);
	return r;
}

static int from_source(const struct kernel_override *o, const struct scenario *s,
		       const struct strvec *user_sets, struct strvec *sets,
		       struct strvec *notes, struct strbuf *err)
{
	char *src;

	if (conflict("--source", source_keys, user_sets, err) < 0)
		return -1;
	int deb = scenario_debian_source(o->source, NULL, 0);

	if (!deb && !is_dir(o->source)) {
		sb_addf(err, "--source '%s': %s", o->source,
			path_exists(o->source) ? "not a directory" : strerror(ENOENT));
		return -1;
	}
	src = deb ? xstrdup(o->source) : absolute_path(o->source);
	if (!src) {
		sb_addf(err, "--source '%s': %s", o->source, strerror(errno));
		return -1;
	}
	strvec_push(sets, "kernel=build");
	strvec_pushf(sets, "kernel_source=%s", src);
	/* The file's patches were made for its source: they go too (a
	 * --patches comes after, in kernel_override_sets). */
	replace(s, "--source", source_resets, sets, notes);
	free(src);
	return 0;
}

int kernel_override_sets(const struct kernel_override *o, const struct scenario *s,
			 int implicit, const struct strvec *user_sets,
			 struct strvec *sets, struct strvec *notes, struct strbuf *err)
{
	if (o->image && o->source) {
		sb_adds(err, "--kernel and --source name two kernels: give one");
		return -1;
	}
	if (o->modules && !o->image) {
		sb_adds(err, "--modules goes with --kernel BZIMAGE");
		return -1;
	}
	if (o->patches && o->image) {
		sb_adds(err, "--patches goes with --source (a prebuilt --kernel is not patched)");
		return -1;
	}
	if (o->patches && !o->source && s->kernel != KERNEL_BUILD) {
		sb_addf(err, "--patches needs --source TREE, or a scenario with kernel = build "
			"(%s has kernel = %s)", s->file ? s->file : "the scenario",
			s->kernel == KERNEL_FILES ? "files" : "debian");
		return -1;
	}
	if (o->patches) {
		const char *u = user_set(user_sets, "kernel_patches");
		if (u) {
			sb_addf(err, "--patches and --set %s both choose the patches: give one", u);
			return -1;
		}
		if (!path_exists(o->patches)) {
			sb_addf(err, "--patches '%s': %s", o->patches, strerror(ENOENT));
			return -1;
		}
	}
	if (o->image && from_image(o, s, implicit, user_sets, sets, notes, err) < 0)
		return -1;
	if (o->source && from_source(o, s, user_sets, sets, notes, err) < 0)
		return -1;
	if (o->patches) {
		char *p = absolute_path(o->patches);

		if (!p) {
			sb_addf(err, "--patches '%s': %s", o->patches, strerror(errno));
			return -1;
		}
		strvec_pushf(sets, "kernel_patches=%s", p);
		free(p);
	}
	return 0;
}
