// SPDX-License-Identifier: Apache-2.0
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "lib/cache.h"
#include "kernel/apt.h"
#include "kernel/deb.h"
#include "kernel/kbuild.h"
#include "kernel/kernel.h"
#include "lib/child.h"
#include "scenario/scenario.h"
#include "lib/strvec.h"
#include "lib/util.h"

const char usage_kernel[] =
	"usage: scaletest kernel build [SCENARIO] [options] [--set KEY=VALUE]...\n"
	"       scaletest kernel list [SCENARIO] [--suite SUITE]... [--arch ARCH]\n"
	"                             [--package NAME] [--set KEY=VALUE]...\n"
	"\n"
	"list: which Debian kernel a run gets: for the scenario's kernel_suite (or\n"
	"each --suite; \"host\" is this host's apt), the package asked for, the\n"
	"versioned package and version it resolves to (a split 7.x kernel's\n"
	"parts), and whether it is cached.  It fetches a suite's package lists\n"
	"when it has none of today (scaletest's own apt; nothing of the host's\n"
	"changes), never a kernel.\n"
	"\n"
	"Build a kernel from source, as a scenario with kernel=build would, and\n"
	"print where the artifact is.  Options are shorthands for scenario keys:\n"
	"\n"
	"  --source debian|debian:X.Y|PATH\n"
	"                        kernel_source: Debian's linux-source package of\n"
	"                        the prebuilt kernel's version, linux-source-X.Y\n"
	"                        (debian:6.12), or a kernel tree (copied; never\n"
	"                        modified)\n"
	"  --patches DIR|SERIES  kernel_patches: *.patch/*.diff in name order, or\n"
	"                        a series file\n"
	"  --config BASE         kernel_config_base: tinyconfig or defconfig\n"
	"  --fragment NAME|PATH  add a fragment (kernel-configs/NAME.config or a\n"
	"                        file) on top of base, the arch's and fast-boot;\n"
	"                        repeatable\n"
	"  --arch x86_64|i386    arch\n"
	"  --jobs N              build_jobs (default: one per CPU)\n"
	"\n"
	"The build is cached by a hash of its inputs (source identity, patches,\n"
	"base, fragments, arch, compiler); a hit costs nothing.  The full log is\n"
	"written to the file named at the start.\n"
	"\n"
	"Exit status:\n"
	"  0    built, or found in the cache\n"
	"  1    the build failed\n"
	"  2    bad usage, or a scenario that is missing, unreadable or invalid\n"
	"  3    a tool or package is missing, or a patch does not apply to the\n"
	"       source (nothing built)\n"
	"  130  interrupted\n";

/* An option that is a shorthand for a scenario key: KEY=ARG into sets. */
struct key_opt {
	int c;
	const char *key;
};

/* Option c (with optarg) into sets if it is --set or one of keys; else 0. */
static int key_opt_push(const struct key_opt *keys, int c, struct strvec *sets)
{
	if (c == 's') {
		strvec_push(sets, optarg);
		return 1;
	}
	for (; keys->key; keys++)
		if (keys->c == c) {
			strvec_pushf(sets, "%s=%s", keys->key, optarg);
			return 1;
		}
	return 0;
}

/*
 * The scenario "kernel SUB" works on, from its operands (argc, argv after
 * the options): the file named, with sets on top, or (none) the defaults,
 * as if from an empty file, with sets.  s is initialised either way: the
 * caller releases it.
 */
static int kernel_scenario(struct scenario *s, const char *sub, int argc, char **argv,
			   const struct strvec *sets, struct strbuf *err)
{
	scenario_init(s);
	if (argc > 1) {
		usage_error(usage_kernel, "kernel %s takes at most one scenario", sub);
		return -1;
	}
	if (argc) {
		scenario_release(s);
		return scenario_open(s, argv[0], sets);
	}
	for (size_t i = 0; i < sets->n; i++)
		if (scenario_set(s, sets->v[i], "--set", err) < 0) {
			error("%s", err->buf);
			return -1;
		}
	if (scenario_check(s, err) < 0) {
		error("%s", err->buf);
		return -1;
	}
	return 0;
}

/* <cache>/logs/kernel-WHAT-<stamp>.log, or NULL (said) without a cache. */
static char *kernel_log(const char *what)
{
	char stamp[32], *dir, *log;

	timestamp_id(stamp, sizeof(stamp));
	dir = cache_log_dir();
	if (!dir)
		return NULL;
	log = xstrfmt("%s/kernel-%s-%s.log", dir, what, stamp);
	free(dir);
	return log;
}

static int kernel_build(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "source", required_argument, NULL, 'S' },
		{ "patches", required_argument, NULL, 'P' },
		{ "config", required_argument, NULL, 'C' },
		{ "fragment", required_argument, NULL, 'F' },
		{ "arch", required_argument, NULL, 'A' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "set", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct key_opt build_keys[] = {
		{ 'S', "kernel_source" },
		{ 'C', "kernel_config_base" },
		{ 'A', "arch" },
		{ 'j', "build_jobs" },
		{ 0, NULL },
	};
	struct strvec sets = STRVEC_INIT;
	struct strbuf frags = STRBUF_INIT, err = STRBUF_INIT;
	struct scenario s;
	struct kbuild_spec spec;
	struct kernel_artifact k = KERNEL_ARTIFACT_INIT;
	char *log = NULL;
	int c, hit = 0, ret = EXIT_USAGE, r;

	strvec_push(&sets, "kernel=build");
	while ((c = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
		if (c == 'P') {
			/* As run --patches: git applies them in the work tree, so
			 * a path relative to here must not stay relative. */
			char *p = absolute_path(optarg);

			strvec_pushf(&sets, "kernel_patches=%s", p);
			free(p);
			continue;
		}
		if (key_opt_push(build_keys, c, &sets))
			continue;
		if (c != 'F') {
			fputs(usage_kernel, stderr);
			goto out_nos;
		}
		sb_addf(&frags, "%s%s", frags.len ? "," : "", optarg);
	}
	if (frags.len)
		strvec_pushf(&sets, "kernel_fragments=%s", frags.buf);
	if (kernel_scenario(&s, "build", argc - optind, argv + optind, &sets, &err) < 0)
		goto out;
	kbuild_spec_init(&spec);
	if (kbuild_spec_from_scenario(&s, &spec, &err) < 0) {
		error("%s", err.buf);
		kbuild_spec_release(&spec);
		goto out;
	}
	if (!(log = kernel_log("build"))) {
		ret = EXIT_ENV;
		kbuild_spec_release(&spec);
		goto out;
	}
	note("log: %s", log);
	if ((r = apt_select(s.kernel_suite, 1, log)) < 0 ||
	    (r = kbuild_build(&spec, log, &k, &hit)) < 0) {
		ret = child_interrupted() ? EXIT_INTERRUPTED : exit_code(r);
	} else {
		printf_clean("kernel %s (%s)\n", k.version, hit ? "cached" : "built");
		printf_clean("image %s\nmodules %s\nconfig %s\n", k.image, k.modules, k.config);
		printf_clean("# as a scenario: kernel = files, kernel_image = %s, kernel_modules = %s\n",
		       k.image, k.modules);
		ret = EXIT_OK;
	}
	kbuild_spec_release(&spec);
out:
	scenario_release(&s);
out_nos:
	kernel_release(&k);
	strvec_clear(&sets);
	sb_release(&frags);
	sb_release(&err);
	free(log);
	return finish_stdout(ret);
}

/* One line (and its parts) for the kernel s would get from suite. */
static int list_one(struct scenario *s, const char *suite, const char *log)
{
	struct deb_pkg p = DEB_PKG_INIT;
	struct kernel_artifact k = KERNEL_ARTIFACT_INIT;
	struct strbuf what = STRBUF_INIT, d = STRBUF_INIT;
	const char *pkg = scenario_kernel_package(s);
	const char *arch = arch_debian(s->arch);
	int r;

	if ((r = apt_select(suite, 1, log)) < 0)
		return r;
	if (*suite)
		apt_suite_describe(suite, &d);
	else
		sb_adds(&d, "host (this host's apt: /etc/apt)");
	if ((r = deb_resolve(pkg, arch, 1, &p)) < 0) {
		sb_release(&d);
		return r;
	}
	printf_clean("suite %s\n", d.buf);
	printf_clean("  %s (%s) -> %s %s\n", pkg, arch, p.name, p.version);
	for (size_t i = 0; i < p.part_names.n; i++)
		printf_clean("    part %s %s\n", p.part_names.v[i], p.part_versions.v[i]);
	free(s->kernel_suite);
	s->kernel_suite = xstrdup(suite);
	r = kernel_find(s, NULL, &k, &what);
	if (r > 0)
		printf_clean("  cached: kernel %s, %s\n", k.version, k.image);
	else if (r == 0)
		printf_clean("  %s\n", what.buf);
	kernel_release(&k);
	deb_pkg_release(&p);
	sb_release(&what);
	sb_release(&d);
	return r < 0 ? r : 0;
}

static int kernel_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "suite", required_argument, NULL, 'S' },
		{ "arch", required_argument, NULL, 'A' },
		{ "package", required_argument, NULL, 'P' },
		{ "set", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct key_opt list_keys[] = {
		{ 'A', "arch" },
		{ 'P', "kernel_package" },
		{ 0, NULL },
	};
	struct strvec sets = STRVEC_INIT, want = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	struct scenario s;
	char *log = NULL;
	int c, ret = EXIT_USAGE;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (key_opt_push(list_keys, c, &sets))
			continue;
		if (c != 'S') {
			fputs(usage_kernel, stderr);
			goto out_nos;
		}
		strvec_push(&want, !strcmp(optarg, "host") ? "" : optarg);
	}
	if (kernel_scenario(&s, "list", argc - optind, argv + optind, &sets, &err) < 0)
		goto out;
	for (size_t i = 0; i < want.n; i++)
		if (*want.v[i] && strspn(want.v[i], "abcdefghijklmnopqrstuvwxyz-") != strlen(want.v[i])) {
			usage_error(usage_kernel, "'%s' is not a suite name", want.v[i]);
			goto out;
		}
	if (!want.n)
		strvec_push(&want, s.kernel_suite);
	if (!(log = kernel_log("list"))) {
		ret = EXIT_ENV;
		goto out;
	}
	ret = EXIT_OK;
	for (size_t i = 0; i < want.n; i++) {
		int r = list_one(&s, want.v[i], log);
		if (r < 0) {
			ret = child_interrupted() ? EXIT_INTERRUPTED : exit_code(r);
			break;
		}
	}
out:
	scenario_release(&s);
out_nos:
	strvec_clear(&sets);
	strvec_clear(&want);
	sb_release(&err);
	free(log);
	return finish_stdout(ret);
}

static const struct command kernel_commands[] = {
	{ "build", kernel_build, "build a kernel from source (cached)", usage_kernel },
	{ "list", kernel_list, "say which Debian kernel a run gets, from which suite", usage_kernel },
};

int cmd_kernel(int argc, char **argv)
{
	return run_subcommand("kernel", kernel_commands, ARRAY_SIZE(kernel_commands),
			      usage_kernel, argc - 1, argv + 1);
}
