// SPDX-License-Identifier: Apache-2.0
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/baseline.h"
#include "cli/commands.h"
#include "compare/compare.h"
#include "report/report.h"
#include "result/result.h"
#include "lib/strvec.h"
#include "lib/util.h"

const char usage_compare[] =
	"usage: scaletest compare A B [C...] [options]\n"
	"       scaletest compare --baseline RUN [options]\n"
	"\n"
	"Compare sides, each a run directory, a group of repeated runs\n"
	"(scaletest run --repeat N) or a baseline directory; the first side, A,\n"
	"is the base and every other side is compared with it (at most 10\n"
	"sides).  With --baseline, compare a run against the baseline that\n"
	"matches it (the baseline is A).  Prints a table of the headline figures\n"
	"(memory per disk, what the counters do not explain, enumeration and\n"
	"rmmod time, fio IOPS) with each side's mean and spread and, for each\n"
	"side after A, the change from A, its p-value and a verdict; then the\n"
	"slab caches that changed most.  Sides are named by their run id, group\n"
	"or baseline directory.\n"
	"\n"
	"  --threshold PCT   smallest relative change that counts (default 5)\n"
	"  --alpha P         significance level (default 0.05) of Welch's t-test\n"
	"                    when both sides have repeats, of the group's\n"
	"                    prediction interval for one run against a group\n"
	"  --gate KINDS      which metrics decide the verdict: memory, time, io,\n"
	"                    comma-separated (default memory); only these are\n"
	"                    called a regression, the others worse or better\n"
	"  --series          the sides are a kernel series (Debian's 6.1 and 6.12,\n"
	"                    built, patched...): each named by its kernel, and the\n"
	"                    reports lead with the per-disk figures side by side\n"
	"                    (memory per disk, a sweep's fit with its standard\n"
	"                    error; enumeration and rmmod time per disk), with a\n"
	"                    chart of each\n"
	"  --allow-mismatch  compare runs from different environments (arch,\n"
	"                    disks, memory, CPUs, accelerator, QEMU...), with a\n"
	"                    warning in the report\n"
	"  --baselines DIR   where baselines are (default results/baselines)\n"
	"  --format FMT      what is printed: md (default, compare.md), text (a\n"
	"                    table for the terminal) or json (compare.json)\n"
	"  --out DIR         also write compare.json, compare.md, compare.html\n"
	"                    (with every side's memory by phase and during\n"
	"                    insmod overlaid) and compare.xml (JUnit) there\n"
	"\n"
	"A change counts when it is at least PCT of A's mean and, with repeats on\n"
	"both sides, p < P.  Only passed, complete runs of this result.json\n"
	"schema are compared.\n"
	"\n"
	"Exit status:\n"
	"  0    no regression\n"
	"  1    a regression in any side, or the reports could not be written\n"
	"  2    bad usage: a missing or unreadable run directory, runs that\n"
	"       cannot be compared, no baseline for the run (--baseline)\n";

/* The comparison on stdout in format; with dir, compare.json and the
 * reports there. */
static int compare_write_outputs(json_object *cmp, const char *format, const char *dir)
{
	char *p;
	int r;

	r = report_print_compare(cmp, format, stdout);
	if (!dir)
		return r;
	if (mkdir_p(dir, 0755) < 0)
		return -1;
	p = xstrfmt("%s/compare.json", dir);
	r |= json_save(cmp, p);
	free(p);
	r |= report_write_compare(cmp, dir, NULL);
	return r ? -1 : 0;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threshold", required_argument, NULL, 't' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "gate", required_argument, NULL, 'g' },
		{ "allow-mismatch", no_argument, NULL, 'm' },
		{ "series", no_argument, NULL, 's' },
		{ "baseline", no_argument, NULL, 'B' },
		{ "baselines", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "out", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	struct compare_opts o = COMPARE_OPTS_INIT;
	const char *baselines = "results/baselines", *outdir = NULL, *format = "md";
	struct side s[COMPARE_MAX_SIDES];
	const struct side *sp[COMPARE_MAX_SIDES];
	struct strvec paths = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	json_object *cmp = NULL;
	size_t loaded = 0;
	int c, use_baseline = 0, ret = EXIT_USAGE;

	if (want_help(argc, argv, usage_compare))
		return finish_stdout(EXIT_OK);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_double(optarg, &o.threshold_pct) < 0 || o.threshold_pct < 0) {
				return usage_error(usage_compare, "--threshold: '%s' is not a percentage",
						   optarg);
			}
			break;
		case 'a':
			if (parse_double(optarg, &o.alpha) < 0 || o.alpha <= 0 || o.alpha >= 1) {
				return usage_error(usage_compare,
						   "--alpha: '%s' is not a probability between 0 and 1",
						   optarg);
			}
			break;
		case 'g':
			if ((o.gates = compare_parse_gates(optarg)) <= 0) {
				return usage_error(usage_compare,
						   "--gate: '%s' is not a list of memory, time, io", optarg);
			}
			break;
		case 'm':
			o.allow_mismatch = 1;
			break;
		case 's':
			o.series = 1;
			break;
		case 'B':
			use_baseline = 1;
			break;
		case 'd':
			baselines = optarg;
			break;
		case 'f':
			if (report_compare_format(optarg) < 0) {
				error("--format: '%s' is not text, md or json", optarg);
				return EXIT_USAGE;
			}
			format = optarg;
			break;
		case 'o':
			outdir = optarg;
			break;
		default:
			fputs(usage_compare, stderr);
			return EXIT_USAGE;
		}
	}
	if (use_baseline ? argc - optind != 1 : argc - optind < 2)
		return usage_error(usage_compare, "%s", use_baseline ? "compare --baseline takes one run"
				   : "compare takes two sides or more, A B [C...]");
	if (argc - optind > COMPARE_MAX_SIDES)
		return usage_error(usage_compare, "compare takes at most %d sides, not %d",
				   COMPARE_MAX_SIDES, argc - optind);
	for (int i = optind; i < argc; i++)
		if (need_dir("run directory", argv[i]) < 0)
			return EXIT_USAGE;
	if (use_baseline) {
		/* The baseline is the base; the run is found first, to find it. */
		struct side run;
		char *bpath = NULL;
		int f;

		if (side_load(&run, argv[optind], &err) < 0) {
			error("%s", err.buf);
			side_release(&run);
			goto out;
		}
		f = baseline_find(baselines, run.roots[0], &bpath, &err);
		side_release(&run);
		if (f != 1) {
			error("%s", err.buf);
			free(bpath);
			goto out;
		}
		strvec_push(&paths, bpath);
		free(bpath);
	}
	for (int i = optind; i < argc; i++)
		strvec_push(&paths, argv[i]);
	for (loaded = 0; loaded < paths.n; loaded++) {
		sp[loaded] = &s[loaded];
		if (side_load(&s[loaded], paths.v[loaded], &err) < 0) {
			error("%s", err.buf);
			side_release(&s[loaded]);
			goto out;
		}
	}
	if (compare_n(sp, loaded, &o, &cmp, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	if (compare_write_outputs(cmp, format, outdir) < 0) {
		ret = EXIT_RUNFAIL;
		goto out;
	}
	ret = !strcmp(jstr(cmp, "verdict", ""), "regression") ? EXIT_RUNFAIL : EXIT_OK;
out:
	json_object_put(cmp);
	for (size_t i = 0; i < loaded; i++)
		side_release(&s[i]);
	strvec_clear(&paths);
	sb_release(&err);
	return finish_stdout(ret);
}
