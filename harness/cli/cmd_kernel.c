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
	struct strvec sets = STRVEC_INIT;
	struct strbuf frags = STRBUF_INIT, err = STRBUF_INIT;
	struct scenario s;
	struct kbuild_spec spec;
	struct kernel_artifact k = KERNEL_ARTIFACT_INIT;
	char *log = NULL;
	int c, hit = 0, ret = EXIT_USAGE, r;

	strvec_push(&sets, "kernel=build");
	while ((c = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
		switch (c) {
		case 'S':
			strvec_pushf(&sets, "kernel_source=%s", optarg);
			break;
		case 'P': {
			/* As run --patches: git applies them in the work tree, so
			 * a path relative to here must not stay relative. */
			char *p = absolute_path(optarg);

			strvec_pushf(&sets, "kernel_patches=%s", p);
			free(p);
			break;
		}
		case 'C':
			strvec_pushf(&sets, "kernel_config_base=%s", optarg);
			break;
		case 'F':
			sb_addf(&frags, "%s%s", frags.len ? "," : "", optarg);
			break;
		case 'A':
			strvec_pushf(&sets, "arch=%s", optarg);
			break;
		case 'j':
			strvec_pushf(&sets, "build_jobs=%s", optarg);
			break;
		case 's':
			strvec_push(&sets, optarg);
			break;
		default:
			fputs(usage_kernel, stderr);
			goto out_nos;
		}
	}
	if (frags.len)
		strvec_pushf(&sets, "kernel_fragments=%s", frags.buf);
	if (argc - optind > 1) {
		usage_error(usage_kernel, "kernel build takes at most one scenario");
		goto out_nos;
	}
	/* No scenario: the defaults, as if from an empty file. */
	scenario_init(&s);
	if (optind < argc) {
		scenario_release(&s);
		if (scenario_open(&s, argv[optind], &sets) < 0)
			goto out;
	} else {
		for (size_t i = 0; i < sets.n; i++)
			if (scenario_set(&s, sets.v[i], "--set", &err) < 0) {
				error("%s", err.buf);
				goto out;
			}
		if (scenario_check(&s, &err) < 0) {
			error("%s", err.buf);
			goto out;
		}
	}
	kbuild_spec_init(&spec);
	if (kbuild_spec_from_scenario(&s, &spec, &err) < 0) {
		error("%s", err.buf);
		kbuild_spec_release(&spec);
		goto out;
	}
	{
		char stamp[32];
		timestamp_id(stamp, sizeof(stamp));
		char *dir = cache_log_dir();

		if (!dir) {
			ret = EXIT_ENV;
			kbuild_spec_release(&spec);
			goto out;
		}
		log = xstrfmt("%s/kernel-build-%s.log", dir, stamp);
		free(dir);
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
	struct strvec sets = STRVEC_INIT, want = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	struct scenario s;
	char *log = NULL;
	int c, ret = EXIT_USAGE;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'S':
			strvec_push(&want, !strcmp(optarg, "host") ? "" : optarg);
			break;
		case 'A':
			strvec_pushf(&sets, "arch=%s", optarg);
			break;
		case 'P':
			strvec_pushf(&sets, "kernel_package=%s", optarg);
			break;
		case 's':
			strvec_push(&sets, optarg);
			break;
		default:
			fputs(usage_kernel, stderr);
			goto out_nos;
		}
	}
	if (argc - optind > 1) {
		usage_error(usage_kernel, "kernel list takes at most one scenario");
		goto out_nos;
	}
	scenario_init(&s);
	if (optind < argc) {
		scenario_release(&s);
		if (scenario_open(&s, argv[optind], &sets) < 0)
			goto out;
	} else {
		for (size_t i = 0; i < sets.n; i++)
			if (scenario_set(&s, sets.v[i], "--set", &err) < 0) {
				error("%s", err.buf);
				goto out;
			}
		if (scenario_check(&s, &err) < 0) {
			error("%s", err.buf);
			goto out;
		}
	}
	for (size_t i = 0; i < want.n; i++)
		if (*want.v[i] && strspn(want.v[i], "abcdefghijklmnopqrstuvwxyz-") != strlen(want.v[i])) {
			usage_error(usage_kernel, "'%s' is not a suite name", want.v[i]);
			goto out;
		}
	if (!want.n)
		strvec_push(&want, s.kernel_suite);
	{
		char stamp[32];
		timestamp_id(stamp, sizeof(stamp));
		char *dir = cache_log_dir();
		log = xstrfmt("%s/kernel-list-%s.log", dir, stamp);
		free(dir);
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
