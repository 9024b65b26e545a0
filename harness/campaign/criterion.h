/* SPDX-License-Identifier: Apache-2.0 */
/*
 * criterion: when one commit's figure is "good", "bad", or too close to
 * tell, for scaletest bisect.
 *
 * A criterion is a metric of result.json (bisect_metrics[], by short
 * name: lowfree_per_disk, memfree_per_disk, ...) and either a limit
 * (--max: above it is bad; --min: below it is bad) or a base (a baseline
 * run or group, or the good end's run: bad when worse than it by
 * compare's rule, compare.h: a change of at least threshold_pct and, when
 * either side has a spread, Welch's p < alpha).
 *
 * A commit is judged on its runs so far.  When the mean lies near the
 * boundary (within threshold_pct of the limit, or a change between half
 * and one and a half times threshold_pct from the base) and fewer than
 * max_runs runs were made, the answer is "repeat": one more run of the
 * same kernel.  At max_runs, near a limit, the runs' mean is tested
 * against the limit (a one-sample t-test): p <
 * alpha decides, else the commit is skipped ("within noise"), so noise
 * never picks the culprit; near a base, compare's rule decides as it
 * would in scaletest compare.
 *
 *	const struct bisect_metric *m = bisect_metric_find("lowfree_per_disk");
 *	struct criterion c = CRITERION_INIT;
 *	c.metric = m; c.kind = CRIT_MAX; c.limit = 150000;
 *	double v[3]; size_t n = ...;
 *	struct strbuf why = STRBUF_INIT;
 *	switch (criterion_judge(&c, v, n, &why)) { case JUDGE_BAD: ... }
 */
#ifndef SCALETEST_BISECT_CRITERION_H
#define SCALETEST_BISECT_CRITERION_H

#include <stddef.h>

#include "lib/strbuf.h"

struct bisect_metric {
	const char *name;	/* the --metric word */
	const char *key;	/* its path in result.json */
	const char *unit;
	int memory;		/* a memory figure: an OOM means "bad" */
	const char *help;
};

extern const struct bisect_metric bisect_metrics[];
extern const size_t bisect_nmetrics;
const struct bisect_metric *bisect_metric_find(const char *name);

enum crit_kind { CRIT_MAX, CRIT_MIN, CRIT_BASE };

struct criterion {
	const struct bisect_metric *metric;
	enum crit_kind kind;
	double limit;		/* CRIT_MAX, CRIT_MIN */
	double *base;		/* CRIT_BASE: the base's values */
	size_t nbase;
	double threshold_pct;	/* compare's rule */
	double alpha;
	size_t max_runs;	/* runs of one commit at most */
};
#define CRITERION_INIT { NULL, CRIT_MAX, 0, NULL, 0, 5.0, 0.05, 3 }

enum judgement { JUDGE_GOOD, JUDGE_BAD, JUDGE_SKIP, JUDGE_REPEAT };

/* "good", "bad", "skip", "repeat" */
const char *judgement_name(enum judgement j);
/* Judge n >= 1 values; why gets a sentence (the figure against the
 * boundary, and the test when one was made). */
enum judgement criterion_judge(const struct criterion *c, const double *v, size_t n,
			       struct strbuf *why);
/* The criterion in words: "lowfree_per_disk > 150000 B is bad". */
void criterion_describe(const struct criterion *c, struct strbuf *out);

#endif
