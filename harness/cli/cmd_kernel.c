// SPDX-License-Identifier: Apache-2.0
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "lib/cache.h"
#include "kernel/kbuild.h"
#include "kernel/kernel.h"
#include "lib/child.h"
#include "scenario/scenario.h"
#include "lib/strvec.h"
#include "lib/util.h"

const char usage_kernel[] =
	"usage: scaletest kernel build [SCENARIO] [options] [--set KEY=VALUE]...\n"
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
	int c, hit = 0, ret = EXIT_USAGE;

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
		log = xstrfmt("%s/kernel-build-%s.log", dir, stamp);
		free(dir);
	}
	note("log: %s", log);
	if (kbuild_build(&spec, log, &k, &hit) < 0) {
		ret = child_interrupted() ? EXIT_INTERRUPTED
		      : error_was_env ? EXIT_ENV : EXIT_RUNFAIL;
	} else {
		printf("kernel %s (%s)\n", k.version, hit ? "cached" : "built");
		printf("image %s\nmodules %s\nconfig %s\n", k.image, k.modules, k.config);
		printf("# as a scenario: kernel = files, kernel_image = %s, kernel_modules = %s\n",
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

static const struct command kernel_commands[] = {
	{ "build", kernel_build, "build a kernel from source (cached)", usage_kernel },
};

int cmd_kernel(int argc, char **argv)
{
	return run_subcommand("kernel", kernel_commands, ARRAY_SIZE(kernel_commands),
			      usage_kernel, argc - 1, argv + 1);
}
