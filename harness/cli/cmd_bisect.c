// SPDX-License-Identifier: Apache-2.0
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/bisect.h"
#include "cli/commands.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "lib/xalloc.h"

const char usage_bisect[] =
	"usage: scaletest bisect SCENARIO --source TREE --good REV --bad REV\n"
	"                        --metric NAME (--max N | --min N | --baseline DIR | --worse-than-good)\n"
	"                        [--threshold PCT] [--runs N] [--set KEY=VALUE]...\n"
	"                        [--out DIR] [--quiet]\n"
	"\n"
	"Find the commit of a kernel tree that made a figure worse.  git bisect\n"
	"runs in a bare shared clone of TREE (TREE itself, its checkout and its own\n"
	"bisect state are never written); each commit it asks about is built\n"
	"(kernel = build, kernel_source = TREE, kernel_rev = the commit, with the\n"
	"scenario's patches and fragments on top; one work tree and ccache, so a\n"
	"step recompiles only what changed; builds are cached by commit) and the\n"
	"scenario runs on it.  Both ends are tested first.\n"
	"\n"
	"  --source TREE    a git repository of a kernel (no uncommitted changes to\n"
	"                   tracked files)\n"
	"  --good REV       a commit without the problem (an ancestor of --bad)\n"
	"  --bad REV        a commit with it\n"
	"  --metric NAME    the figure judged (from each run's result.json):\n"
	"                     lowfree_per_disk      LowFree's drop at insmod per disk (HIGHMEM)\n"
	"                     memfree_per_disk      MemFree's drop at insmod per disk\n"
	"                     memavailable_per_disk MemAvailable's drop at insmod per disk\n"
	"                     slab_per_disk         Slab's growth at insmod per disk\n"
	"                     unaccounted_kb        the MemFree drop no counter names\n"
	"                     lowfree_per_disk_fit  a sweep's fitted LowFree bytes per disk\n"
	"                     memfree_per_disk_fit  a sweep's fitted MemFree bytes per disk\n"
	"                     enumerate_s           the time to enumerate the disks\n"
	"  --max N          a figure above N is bad\n"
	"  --min N          a figure below N is bad\n"
	"  --baseline DIR   bad when worse than this run, group (run --repeat) or\n"
	"                   baseline by compare's rule: at least --threshold % and,\n"
	"                   where either side has a spread, p < 0.05\n"
	"  --worse-than-good  the same rule against the good end's own run\n"
	"  --threshold PCT  compare's smallest change that counts (default 5)\n"
	"  --runs N         runs of one commit at most (default 3): a figure near\n"
	"                   the boundary (within --threshold of the limit; from a\n"
	"                   base, a change between half and 1.5 times it) is run\n"
	"                   again; after N runs near a limit, a one-sample t-test\n"
	"                   (p < 0.05) decides, else the commit is skipped\n"
	"  --set KEY=VALUE  a scenario setting for every run (repeatable)\n"
	"  --out DIR        where DIR/bisect-<time>-<bad> goes (default results)\n"
	"  --quiet          no report on stdout\n"
	"\n"
	"Each commit is good, bad or skip: a build that fails, or a run that ends\n"
	"as fail, timeout or crash, is skip (not the figure's doing); an OOM is bad\n"
	"for a memory figure.  The bisect directory keeps bisect.json (every step:\n"
	"commit, subject, figures, verdict, why, times; rewritten after each),\n"
	"bisect.md (printed), bisect.log (git bisect log), runs/ and builds/.\n"
	"\n"
	"Exit status:\n"
	"  0    the first bad commit was found\n"
	"  1    no culprit: an end is not what it was said to be (the good end is\n"
	"       bad, the bad end good, or either cannot be judged), or only skipped\n"
	"       commits are left (the candidates are listed); or the harness failed\n"
	"       under a run\n"
	"  2    bad usage: not a git repository, uncommitted changes, a revision\n"
	"       that is not a commit, --good not an ancestor of --bad, an unknown\n"
	"       metric, a bad scenario or baseline (nothing built)\n"
	"  3    a tool or package is missing, or the environment cannot hold\n"
	"       a run\n"
	"  130  interrupted (the bisect directory keeps what was done)\n";

static int usage_bad(const char *fmt, const char *arg)
{
	char *msg = xstrfmt(fmt, arg);
	int r = usage_error(usage_bisect, "%s", msg);

	free(msg);
	return r;
}

int cmd_bisect(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "source", required_argument, NULL, 'S' },
		{ "good", required_argument, NULL, 'g' },
		{ "bad", required_argument, NULL, 'b' },
		{ "metric", required_argument, NULL, 'm' },
		{ "max", required_argument, NULL, 'X' },
		{ "min", required_argument, NULL, 'N' },
		{ "baseline", required_argument, NULL, 'B' },
		{ "worse-than-good", no_argument, NULL, 'W' },
		{ "threshold", required_argument, NULL, 'T' },
		{ "runs", required_argument, NULL, 'r' },
		{ "set", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	struct bisect_opts o = BISECT_OPTS_INIT;
	struct strvec sets = STRVEC_INIT;
	struct scenario s;
	char *dir = NULL, *src = NULL;
	int c, ncrit = 0, ret = EXIT_USAGE, opened = 0, err_class = 0;
	uint64_t runs;

	if (want_help(argc, argv, usage_bisect))
		return finish_stdout(EXIT_OK);
	while ((c = getopt_long(argc, argv, "s:o:q", opts, NULL)) != -1) {
		switch (c) {
		case 'S':
			o.source = optarg;
			break;
		case 'g':
			o.good = optarg;
			break;
		case 'b':
			o.bad = optarg;
			break;
		case 'm':
			o.crit.metric = bisect_metric_find(optarg);
			if (!o.crit.metric) {
				struct strbuf known = STRBUF_INIT;
				for (size_t i = 0; i < bisect_nmetrics; i++)
					sb_addf(&known, " %s", bisect_metrics[i].name);
				char *msg = xstrfmt("--metric: unknown metric '%s'; known:%s", optarg, known.buf);
				ret = usage_bad("%s", msg);
				free(msg);
				sb_release(&known);
				goto out;
			}
			break;
		case 'X':
		case 'N':
			if (parse_double(optarg, &o.crit.limit) < 0) {
				ret = usage_bad("--max/--min: '%s' is not a number", optarg);
				goto out;
			}
			o.crit.kind = c == 'X' ? CRIT_MAX : CRIT_MIN;
			ncrit++;
			break;
		case 'B':
			o.crit.kind = CRIT_BASE;
			o.baseline = optarg;
			ncrit++;
			break;
		case 'W':
			o.crit.kind = CRIT_BASE;
			ncrit++;
			break;
		case 'T':
			if (parse_double(optarg, &o.crit.threshold_pct) < 0 ||
			    !(o.crit.threshold_pct > 0 && o.crit.threshold_pct < 100)) {
				ret = usage_bad("--threshold: '%s' is not a percentage above 0 and below 100", optarg);
				goto out;
			}
			break;
		case 'r':
			if (parse_u64(optarg, &runs) < 0 || runs < 1 || runs > 20) {
				ret = usage_bad("--runs: '%s' is not a count from 1 to 20", optarg);
				goto out;
			}
			o.crit.max_runs = (size_t)runs;
			break;
		case 's':
			strvec_push(&sets, optarg);
			break;
		case 'o':
			o.out = optarg;
			break;
		case 'q':
			o.quiet = 1;
			break;
		default:
			ret = usage_bad("%s", "unknown option");
			goto out;
		}
	}
	if (optind != argc - 1) {
		ret = usage_bad("%s", optind < argc ? "bisect takes one scenario" : "bisect needs a scenario");
		goto out;
	}
	if (!o.source || !o.good || !o.bad) {
		ret = usage_bad("%s", "bisect needs --source TREE, --good REV and --bad REV");
		goto out;
	}
	if (!o.crit.metric) {
		ret = usage_bad("%s", "bisect needs --metric NAME");
		goto out;
	}
	if (ncrit != 1) {
		ret = usage_bad("%s", ncrit ? "give one of --max, --min, --baseline, --worse-than-good"
				: "bisect needs a criterion: --max N, --min N, --baseline DIR or --worse-than-good");
		goto out;
	}
	if (o.baseline && need_dir("baseline", o.baseline) < 0)
		goto out;
	src = realpath(o.source, NULL);
	if (!src || !is_dir(src)) {
		error("--source '%s' is not a directory", o.source);
		goto out;
	}
	o.source = src;
	/* The kernel comes from the tree, whatever the scenario says. */
	strvec_push(&sets, "kernel=build");
	strvec_pushf(&sets, "kernel_source=%s", src);
	opened = 1;
	if (scenario_open(&s, argv[optind], &sets) < 0)
		goto out;
	switch (bisect_execute(&s, &o, &dir, &err_class)) {
	case BISECT_FOUND:
		ret = EXIT_OK;
		break;
	case BISECT_UNDECIDED:
		ret = EXIT_RUNFAIL;
		break;
	case BISECT_BAD_INPUT:
		ret = EXIT_USAGE;
		break;
	case BISECT_INTERRUPTED:
		ret = EXIT_INTERRUPTED;
		break;
	case BISECT_ERROR:
	default:
		ret = exit_code(err_class < 0 ? err_class : ERR_FAIL);
		break;
	}
	if (dir)
		note("bisect: %s", dir);
	ret = finish_stdout(ret);
out:
	if (opened)
		scenario_release(&s);
	strvec_clear(&sets);
	free(dir);
	free(src);
	return ret;
}
