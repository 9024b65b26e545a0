/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bisect: which commit of a kernel tree made a figure worse.
 *
 * scaletest bisect drives git bisect over GOOD..BAD of the user's tree and
 * runs the scenario on the kernel of each commit it is asked about:
 *
 *   1. checks before anything is built: the tree is a git repository with
 *      no uncommitted changes to tracked files, GOOD and BAD are commits,
 *      GOOD is an ancestor of BAD (usage errors, nothing written);
 *   2. makes DIR (<out>/bisect-<time>): a bare shared clone of the tree
 *      in DIR/git (the user's repository is only read: its objects through
 *      git's alternates; its checkout and its own bisect state untouched),
 *      where "git bisect start --no-checkout" keeps the state;
 *   3. tests both ends first: GOOD must judge good and BAD bad (with
 *      --worse-than-good, GOOD's runs are the base and only BAD is
 *      checked), else it stops saying which end is wrong;
 *   4. then asks git for the next commit (BISECT_HEAD) until git names the
 *      first bad commit or only skipped commits are left.  Each commit is
 *      built with kbuild (kernel = build, kernel_source = the tree,
 *      kernel_rev = the commit: one shared work tree, so a step recompiles
 *      only what changed, and ccache) and run with run_execute() into
 *      DIR/runs/; the criterion (criterion.h) judges the figure, repeating
 *      the run near the boundary.  A build that fails, or a run that ends
 *      as fail, timeout or crash, is "skip" (not the criterion's doing); an
 *      OOM is "bad" when the metric is a memory figure; a harness error
 *      stops the bisect.
 *
 * DIR/bisect.json (rewritten after every step, so a killed bisect leaves
 * its table) holds the criterion, the range, every step {commit, subject,
 * role, values, mean, verdict, why, runs, build_s, run_s} and the outcome;
 * DIR/bisect.log is git bisect log; DIR/bisect.md the report
 * (report_write_bisect, report.h).
 *
 *	struct bisect_opts o = BISECT_OPTS_INIT;
 *	o.source = "/src/linux"; o.good = "v6.0"; o.bad = "v6.1";
 *	o.crit = ...;				// criterion.h
 *	int err;
 *	enum bisect_outcome r = bisect_execute(&scenario, &o, &dir, &err);
 *
 * A build that fails is the commit's (skipped), unless it failed for the
 * environment (a tool missing: that build's own class, ERR_ENV), which
 * stops the bisect as BISECT_ERROR; so does a run that ends in error.  For
 * BISECT_ERROR, err is the class of what stopped it (lib/util.h: ERR_ENV,
 * or ERR_FAIL for the harness), each step judged by its own.
 */
#ifndef SCALETEST_BISECT_H
#define SCALETEST_BISECT_H

#include <json.h>

#include "campaign/criterion.h"
#include "scenario/scenario.h"

enum bisect_outcome {
	BISECT_FOUND,		/* the first bad commit */
	BISECT_UNDECIDED,	/* only skipped commits left, or an end is wrong */
	BISECT_BAD_INPUT,	/* said before anything was built */
	BISECT_ERROR,		/* the harness or the environment failed: err */
	BISECT_INTERRUPTED,
};

struct bisect_opts {
	const char *source;	/* the user's tree */
	const char *good, *bad;	/* revisions */
	struct criterion crit;	/* CRIT_BASE: against baseline, or the good end */
	const char *baseline;	/* a run, group or baseline directory, or NULL */
	const char *out;	/* results directory */
	int quiet;
};
#define BISECT_OPTS_INIT { NULL, NULL, NULL, CRITERION_INIT, NULL, "results", 0 }

/* What git bisect good|bad|skip printed (a buffer, any bytes): the first
 * bad commit's hash into first (FOUND), the candidates when only skipped
 * commits are left into cands, an array (SKIPPED), or MORE to test. */
enum { BISECT_MARK_MORE, BISECT_MARK_FOUND, BISECT_MARK_SKIPPED };
int bisect_parse_mark(const char *buf, size_t len, struct strbuf *first,
		      json_object *cands);

/* s: the scenario with the user's sets applied (kernel = build and
 * kernel_source are set here).  *dir: the bisect directory, or NULL. */
enum bisect_outcome bisect_execute(const struct scenario *s, const struct bisect_opts *o,
				   char **dir, int *err);

#endif
