// SPDX-License-Identifier: Apache-2.0
#include <getopt.h>
#include <stdio.h>

#include "cli/commands.h"
#include "campaign/nightly.h"
#include "run/fanout.h"
#include "lib/util.h"

const char usage_nightly[] =
	"usage: scaletest nightly MATRIX [--out DIR] [--baselines DIR] [--threshold PCT]\n"
	"                         [--alpha P] [--gate KINDS] [--record-baselines]\n"
	"                         [--allow-missing-baselines] [--connect URI[,slots=N]]...\n"
	"\n"
	"Run every scenario of MATRIX (lines of 'SCENARIO [KEY=VALUE]...', paths\n"
	"relative to the matrix file, '#' comments), compare each passed run with\n"
	"the baseline that matches it (see 'scaletest baseline'), and write one\n"
	"summary in DIR/nightly-<stamp>/: summary.md, summary.xml (JUnit: every\n"
	"run's checks, every comparison's gating metrics, every missing baseline)\n"
	"and summary.json.  Every line is checked before anything runs.\n"
	"\n"
	"A baseline matches only a run of the same key, accelerator and QEMU\n"
	"version included: on a new runner no committed baseline matches, and a\n"
	"run without one fails the night (exit 4) until the first night there\n"
	"records them (--record-baselines; make nightly-first).\n"
	"\n"
	"  --out DIR            results directory (default results)\n"
	"  --baselines DIR      default results/baselines\n"
	"  --record-baselines   the first night on a runner: a run that passed and\n"
	"                       has no baseline here becomes its baseline there\n"
	"                       (--baselines; runs that have one are compared as\n"
	"                       usual); the night passes when the runs pass\n"
	"  --allow-missing-baselines   a run without a baseline is only a warning\n"
	"  --require-baselines  the default, kept for old scripts\n"
	"  --threshold, --alpha, --gate   as for 'scaletest compare'\n"
	"  --connect URI[,slots=N][,upload]   run the matrix through libvirt at URI,\n"
	"                       all lines at once, at most N at a time there;\n"
	"                       repeat it to spread the lines over several hosts\n"
	"\n"
	"Exit status:\n"
	"  0    every run passed, nothing regressed and every run had a baseline\n"
	"       (or one was recorded)\n"
	"  1    a run failed (crash, timeout, OOM, missing disks...) or a figure\n"
	"       regressed\n"
	"  2    bad usage: a missing, unreadable or bad matrix\n"
	"  3    a tool or package is missing, or the night's directory or summary\n"
	"       could not be written\n"
	"  4    every run passed and nothing regressed, but a run had no baseline\n"
	"       on this runner (--record-baselines records them)\n"
	"  130  interrupted\n";

int cmd_nightly(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "baselines", required_argument, NULL, 'd' },
		{ "threshold", required_argument, NULL, 't' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "gate", required_argument, NULL, 'g' },
		{ "require-baselines", no_argument, NULL, 'R' },
		{ "allow-missing-baselines", no_argument, NULL, 'M' },
		{ "record-baselines", no_argument, NULL, 'r' },
		{ "connect", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	struct nightly_opts o = NIGHTLY_OPTS_INIT;
	struct fanout f = FANOUT_INIT;
	struct strbuf err = STRBUF_INIT;
	struct nightly_matrix mx;
	struct nightly_result res;
	int c, require = 1, r, status;

	if (want_help(argc, argv, usage_nightly))
		return finish_stdout(EXIT_OK);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.out = optarg;
			break;
		case 'd':
			o.baselines = optarg;
			break;
		case 't':
			if (parse_double(optarg, &o.compare.threshold_pct) < 0 || o.compare.threshold_pct < 0)
				return usage_error(usage_nightly, "--threshold: '%s' is not a percentage",
						   optarg);
			break;
		case 'a':
			if (parse_double(optarg, &o.compare.alpha) < 0 || o.compare.alpha <= 0 ||
			    o.compare.alpha >= 1)
				return usage_error(usage_nightly, "--alpha: '%s' is not a probability",
						   optarg);
			break;
		case 'g':
			if ((o.compare.gates = compare_parse_gates(optarg)) <= 0)
				return usage_error(usage_nightly,
						   "--gate: '%s' is not a list of memory, time, io", optarg);
			break;
		case 'R':
			require = 1;
			break;
		case 'M':
			require = 0;
			break;
		case 'r':
			o.record = 1;
			break;
		case 'c':
			if (fanout_add(&f, optarg, &err) < 0) {
				error("%s", err.buf);
				sb_release(&err);
				fanout_release(&f);
				return EXIT_USAGE;
			}
			break;
		default:
			fputs(usage_nightly, stderr);
			fanout_release(&f);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fanout_release(&f);
		return usage_error(usage_nightly, "nightly takes one matrix file");
	}
	if (nightly_matrix_load(&mx, argv[optind]) < 0) {
		fanout_release(&f);
		return EXIT_USAGE;
	}
	o.fanout = &f;
	r = nightly_run(&mx, &o, &res);
	if (!res.dir) {
		fanout_release(&f);
		nightly_matrix_release(&mx);
		return EXIT_ENV;
	}
	printf_clean("\nsummary: %s/summary.md, summary.xml\n", res.dir);
	if (res.recorded)
		printf_clean("recorded %d baseline%s in %s: commit them, or keep that directory\n"
		       "between nights\n", res.recorded, res.recorded == 1 ? "" : "s", o.baselines);

	if (res.interrupted)
		status = EXIT_INTERRUPTED;
	else if (res.env_failed || r < 0)
		status = EXIT_ENV;
	else if (res.failed || res.regressed)
		status = EXIT_RUNFAIL;
	else if (require && res.without_baseline)
		status = EXIT_NO_BASELINE;
	else
		status = EXIT_OK;
	nightly_result_release(&res);
	nightly_matrix_release(&mx);
	fanout_release(&f);
	return finish_stdout(status);
}
