#include <getopt.h>
#include <stdio.h>

#include "cli/commands.h"
#include "compare/nightly.h"
#include "run/fanout.h"
#include "lib/util.h"

const char usage_nightly[] =
	"usage: scaletest nightly MATRIX [--out DIR] [--baselines DIR] [--threshold PCT]\n"
	"                         [--alpha P] [--gate KINDS] [--require-baselines]\n"
	"                         [--connect URI[,slots=N]]...\n"
	"\n"
	"Run every scenario of MATRIX (lines of 'SCENARIO [KEY=VALUE]...', paths\n"
	"relative to the matrix file, '#' comments), compare each passed run with\n"
	"the baseline that matches it (see 'scaletest baseline'), and write one\n"
	"summary in DIR/nightly-<stamp>/: summary.md, summary.xml (JUnit: every\n"
	"run's checks and every comparison's gating metrics) and summary.json.\n"
	"Every line is checked before anything runs.\n"
	"\n"
	"  --out DIR            results directory (default results)\n"
	"  --baselines DIR      default results/baselines\n"
	"  --require-baselines  a run without a baseline fails the night\n"
	"  --threshold, --alpha, --gate   as for 'scaletest compare'\n"
	"  --connect URI[,slots=N][,upload]   run the matrix through libvirt at URI,\n"
	"                       all lines at once, at most N at a time there;\n"
	"                       repeat it to spread the lines over several hosts\n"
	"\n"
	"Exit status:\n"
	"  0    every run passed and nothing regressed\n"
	"  1    a run failed (crash, timeout, OOM, missing disks...), a figure\n"
	"       regressed, or a run had no baseline (--require-baselines)\n"
	"  2    bad usage: a missing, unreadable or bad matrix\n"
	"  3    a tool or package is missing, or the night's directory or summary\n"
	"       could not be written\n"
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
		{ "connect", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	struct nightly_opts o = NIGHTLY_OPTS_INIT;
	struct fanout f = FANOUT_INIT;
	struct strbuf err = STRBUF_INIT;
	struct nightly_matrix mx;
	struct nightly_result res;
	int c, require = 0, r, status;

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
	printf("\nsummary: %s/summary.md, summary.xml\n", res.dir);

	if (res.interrupted)
		status = EXIT_INTERRUPTED;
	else if ((res.failed && error_was_env) || r < 0)
		status = EXIT_ENV;
	else if (res.failed || res.regressed || (require && res.without_baseline))
		status = EXIT_RUNFAIL;
	else
		status = EXIT_OK;
	nightly_result_release(&res);
	nightly_matrix_release(&mx);
	fanout_release(&f);
	return finish_stdout(status);
}
