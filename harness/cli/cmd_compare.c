#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/baseline.h"
#include "cli/commands.h"
#include "compare/compare.h"
#include "report/report.h"
#include "result/result.h"
#include "lib/util.h"

const char usage_compare[] =
	"usage: scaletest compare A B [options]\n"
	"       scaletest compare --baseline RUN [options]\n"
	"\n"
	"Compare two sides, each a run directory or a group of repeated runs\n"
	"(scaletest run --repeat N), or a run against the baseline that matches\n"
	"it.  Prints a table of the headline figures (memory per disk, what the\n"
	"counters do not explain, enumeration and rmmod time, fio IOPS) with\n"
	"each side's mean and spread, the change, its p-value and a verdict,\n"
	"and the slab caches that changed most.\n"
	"\n"
	"  --threshold PCT   smallest relative change that counts (default 5)\n"
	"  --alpha P         significance level (default 0.05) of Welch's t-test\n"
	"                    when both sides have repeats, of the group's\n"
	"                    prediction interval for one run against a group\n"
	"  --gate KINDS      which metrics decide the verdict: memory, time, io,\n"
	"                    comma-separated (default memory)\n"
	"  --allow-mismatch  compare runs from different environments (arch,\n"
	"                    disks, memory, CPUs, accelerator, QEMU...), with a\n"
	"                    warning in the report\n"
	"  --baselines DIR   where baselines are (default results/baselines)\n"
	"  --out DIR         also write compare.json, compare.md, compare.html\n"
	"                    and compare.xml (JUnit) there\n"
	"\n"
	"A change counts when it is at least PCT of A's mean and, with repeats on\n"
	"both sides, p < P.  Only passed, complete runs of this result.json\n"
	"schema are compared.\n"
	"\n"
	"Exit status:\n"
	"  0    no regression\n"
	"  1    a regression, or the reports could not be written\n"
	"  2    bad usage: a missing or unreadable run directory, runs that\n"
	"       cannot be compared, no baseline for the run (--baseline)\n";

/* compare.md on stdout; with dir, compare.json and the reports there. */
static int compare_write_outputs(json_object *cmp, const char *dir)
{
	char *p;
	int r;

	r = report_write_compare(cmp, NULL, stdout);
	if (!dir)
		return r;
	if (mkdir_p(dir, 0755) < 0)
		return -1;
	p = xstrfmt("%s/compare.json", dir);
	r |= result_save(cmp, p);
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
		{ "baseline", no_argument, NULL, 'B' },
		{ "baselines", required_argument, NULL, 'd' },
		{ "out", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	struct compare_opts o = COMPARE_OPTS_INIT;
	const char *baselines = "results/baselines", *outdir = NULL;
	struct side a, b;
	struct strbuf err = STRBUF_INIT;
	json_object *cmp = NULL;
	char *apath = NULL;
	int c, use_baseline = 0, ret = EXIT_USAGE;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
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
		case 'B':
			use_baseline = 1;
			break;
		case 'd':
			baselines = optarg;
			break;
		case 'o':
			outdir = optarg;
			break;
		default:
			fputs(usage_compare, stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != (use_baseline ? 1 : 2))
		return usage_error(usage_compare, "%s", use_baseline ? "compare --baseline takes one run"
				   : "compare takes two sides, A and B");
	for (int i = optind; i < argc; i++)
		if (need_dir("run directory", argv[i]) < 0)
			return EXIT_USAGE;
	if (side_load(&b, argv[argc - 1], &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	if (use_baseline) {
		int f = baseline_find(baselines, b.roots[0], &apath, &err);
		if (f != 1) {
			error("%s", err.buf);
			goto out;
		}
	} else {
		apath = xstrdup(argv[optind]);
	}
	if (side_load(&a, apath, &err) < 0 ||
	    compare_sides(&a, &b, &o, &cmp, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	if (compare_write_outputs(cmp, outdir) < 0) {
		ret = EXIT_RUNFAIL;
		goto out;
	}
	ret = !strcmp(jstr(cmp, "verdict", ""), "regression") ? EXIT_RUNFAIL : EXIT_OK;
out:
	json_object_put(cmp);
	side_release(&a);
	side_release(&b);
	sb_release(&err);
	free(apath);
	return finish_stdout(ret);
}
