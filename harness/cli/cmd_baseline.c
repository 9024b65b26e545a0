// SPDX-License-Identifier: Apache-2.0
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/baseline.h"
#include "cli/commands.h"
#include "compare/compare.h"
#include "result/result.h"
#include "lib/util.h"

const char usage_baseline[] =
	"usage: scaletest baseline update RUN [--baselines DIR]\n"
	"       scaletest baseline find RUN [--baselines DIR]\n"
	"       scaletest baseline list [--baselines DIR]\n"
	"\n"
	"Baselines are the reference figures 'compare --baseline' and 'nightly'\n"
	"hold runs to, kept in results/baselines/ (committed) or DIR.  A baseline\n"
	"is keyed by what makes figures comparable: scenario, kernel version and\n"
	"source, and every setting compare requires to match (arch, disks,\n"
	"memory, CPUs, accelerator, QEMU version, per-queue knobs).\n"
	"\n"
	"  update RUN  make RUN (a run directory, or a group of repeats, whose\n"
	"              spread the comparison then uses) the baseline for its key,\n"
	"              replacing the one there; incomplete or failed runs and\n"
	"              other schema versions are refused\n"
	"  find RUN    print the baseline that matches RUN, or why none does\n"
	"  list        print every baseline and its key\n"
	"\n"
	"Exit status:\n"
	"  0    done\n"
	"  1    no baseline matches RUN (find)\n"
	"  2    bad usage: a missing or unreadable run directory, a run that\n"
	"       cannot be a baseline\n";

/* --baselines DIR, for every verb. */
static const char *baselines = "results/baselines";

/* update and find take one run, argv[1], a directory that opens. */
static int one_run(int argc, char **argv)
{
	if (argc != 2) {
		usage_error(usage_baseline, "'baseline %s' needs one run", argv[0]);
		return -1;
	}
	return need_dir("run directory", argv[1]);
}

static int baseline_list_cmd(int argc, char **argv)
{
	const char *dir = baselines;
	DIR *d;
	struct dirent *de;
	int n = 0;

	if (argc > 1)
		return usage_error(usage_baseline, "'baseline list' takes no run, not '%s'", argv[1]);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		json_object *meta = baseline_meta(dir, de->d_name);

		if (!meta)
			continue;
		printf_clean("%s/%s\n", dir, de->d_name);
		json_object_object_foreach(jget(meta, "key"), f, v)
			if (*json_object_get_string(v))
				printf_clean("  %s: %s\n", f, json_object_get_string(v));
		printf_clean("  made: %s from %s\n", jstr(meta, "made", "?"), jstr(meta, "from", "?"));
		n++;
		json_object_put(meta);
	}
	if (d)
		closedir(d);
	if (!n)
		printf_clean("no baselines in %s\n", dir);
	return finish_stdout(EXIT_OK);
}

static int baseline_update_cmd(int argc, char **argv)
{
	char *path;

	if (one_run(argc, argv) < 0)
		return EXIT_USAGE;
	if (mkdir_p(baselines, 0755) < 0 || baseline_update(baselines, argv[1], &path) < 0)
		return EXIT_USAGE;
	printf_clean("baseline %s\n", path);
	free(path);
	return finish_stdout(EXIT_OK);
}

static int baseline_find_cmd(int argc, char **argv)
{
	struct side s;
	struct strbuf err = STRBUF_INIT;
	char *path = NULL;
	int ret;

	if (one_run(argc, argv) < 0)
		return EXIT_USAGE;
	if (side_load(&s, argv[1], &err) < 0) {
		error("%s", err.buf);
		sb_release(&err);
		side_release(&s);
		return EXIT_USAGE;
	}
	if (baseline_find(baselines, s.roots[0], &path, &err) == 1) {
		printf_clean("%s\n", path);
		ret = EXIT_OK;
	} else {
		error("%s", err.buf);
		ret = EXIT_RUNFAIL;
	}
	free(path);
	side_release(&s);
	sb_release(&err);
	return finish_stdout(ret);
}

static const struct command baseline_commands[] = {
	{ "update", baseline_update_cmd, "make a run the baseline for its key", usage_baseline },
	{ "find", baseline_find_cmd, "print the baseline that matches a run", usage_baseline },
	{ "list", baseline_list_cmd, "print every baseline and its key", usage_baseline },
};

int cmd_baseline(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "baselines", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	if (want_help(argc, argv, usage_baseline))
		return finish_stdout(EXIT_OK);
	/* Options anywhere (getopt moves the verb and its run to the end). */
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'd') {
			fputs(usage_baseline, stderr);
			return EXIT_USAGE;
		}
		baselines = optarg;
	}
	return run_subcommand("baseline", baseline_commands, ARRAY_SIZE(baseline_commands),
			      usage_baseline, argc - optind, argv + optind);
}
