// SPDX-License-Identifier: Apache-2.0
#include "campaign/criterion.h"

#include <math.h>
#include <string.h>

#include "lib/stats.h"
#include "lib/util.h"

const struct bisect_metric bisect_metrics[] = {
	{ "lowfree_per_disk", "deltas.insmod.per_disk_bytes.LowFree", "B", 1,
	  "LowFree's drop at insmod per disk (HIGHMEM kernels)" },
	{ "memfree_per_disk", "deltas.insmod.per_disk_bytes.MemFree", "B", 1,
	  "MemFree's drop at insmod per disk" },
	{ "memavailable_per_disk", "deltas.insmod.per_disk_bytes.MemAvailable", "B", 1,
	  "MemAvailable's drop at insmod per disk" },
	{ "slab_per_disk", "deltas.insmod.per_disk_bytes.Slab", "B", 1,
	  "Slab's growth at insmod per disk" },
	{ "unaccounted_kb", "deltas.insmod.unaccounted_kb", "kB", 1,
	  "the MemFree drop no counter names" },
	{ "lowfree_per_disk_fit", "sweep.fit.LowFree.bytes_per_disk", "B", 1,
	  "a sweep's fitted LowFree bytes per disk" },
	{ "memfree_per_disk_fit", "sweep.fit.MemFree.bytes_per_disk", "B", 1,
	  "a sweep's fitted MemFree bytes per disk" },
	{ "enumerate_s", "timings.enumerate_s", "s", 0,
	  "the time to enumerate the disks" },
};
const size_t bisect_nmetrics = ARRAY_SIZE(bisect_metrics);

const struct bisect_metric *bisect_metric_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(bisect_metrics); i++)
		if (!strcmp(bisect_metrics[i].name, name))
			return &bisect_metrics[i];
	return NULL;
}

const char *judgement_name(enum judgement j)
{
	static const char *const names[] = { "good", "bad", "skip", "repeat" };

	return names[j];
}

void criterion_describe(const struct criterion *c, struct strbuf *out)
{
	if (c->kind == CRIT_BASE) {
		sb_addf(out, "%s worse than the base by %g%% or more (p < %g where there is a spread) is bad",
			c->metric->name, c->threshold_pct, c->alpha);
		return;
	}
	sb_addf(out, "%s %s %g %s is bad", c->metric->name, c->kind == CRIT_MAX ? ">" : "<",
		c->limit, c->metric->unit);
}

/* Against a limit: the side of the mean, unless it is near. */
static enum judgement judge_limit(const struct criterion *c, const struct stats *st,
				  size_t n, struct strbuf *why)
{
	int worse = c->kind == CRIT_MAX ? st->mean > c->limit : st->mean < c->limit;
	double dist = 100 * fabs(st->mean - c->limit) / (c->limit ? fabs(c->limit) : 1);
	int near = dist < c->threshold_pct;

	sb_addf(why, "%.0f %s (mean of %zu) %s %g", st->mean, c->metric->unit, n,
		worse ? (c->kind == CRIT_MAX ? ">" : "<") : (c->kind == CRIT_MAX ? "<=" : ">="),
		c->limit);
	if (!near)
		return worse ? JUDGE_BAD : JUDGE_GOOD;
	sb_addf(why, ", %.2f%% from it", dist);
	if (n < c->max_runs)
		return JUDGE_REPEAT;
	if (n < 2)	/* no repeats allowed: the side decides */
		return worse ? JUDGE_BAD : JUDGE_GOOD;
	/* One-sample t-test of the mean against the limit. */
	double se = st->sd / sqrt((double)n), p, t, df = (double)(n - 1);
	if (se <= 0) {
		p = st->mean == c->limit ? 1 : 0;
	} else {
		t = (st->mean - c->limit) / se;
		p = incbeta(df / 2, 0.5, df / (df + t * t));
	}
	sb_addf(why, ", t-test p = %.3g", p);
	if (p >= 0 && p < c->alpha)
		return worse ? JUDGE_BAD : JUDGE_GOOD;
	sb_adds(why, ": within noise of the limit");
	return JUDGE_SKIP;
}

/* Against a base: compare's rule (compare.h). */
static enum judgement judge_base(const struct criterion *c, const struct stats *st,
				 size_t n, struct strbuf *why)
{
	struct stats base;
	double rel, p;

	stats_of(c->base, c->nbase, &base);
	/* Every bisect metric is lower-is-better: worse is up. */
	rel = base.mean ? 100 * (st->mean - base.mean) / fabs(base.mean) : 0;
	p = welch_p(&base, st);
	sb_addf(why, "%.0f %s (mean of %zu) against %.0f (base of %zu): %+.2f%%",
		st->mean, c->metric->unit, n, base.mean, c->nbase, rel);
	if (p >= 0)
		sb_addf(why, ", p = %.3g", p);
	int near = rel >= c->threshold_pct / 2 && rel < c->threshold_pct * 1.5;
	if (near && n < c->max_runs)
		return JUDGE_REPEAT;
	int bad = rel >= c->threshold_pct && (p < 0 || p < c->alpha);
	return bad ? JUDGE_BAD : JUDGE_GOOD;
}

enum judgement criterion_judge(const struct criterion *c, const double *v, size_t n,
			       struct strbuf *why)
{
	struct stats st;

	stats_of(v, n, &st);
	return c->kind == CRIT_BASE ? judge_base(c, &st, n, why) : judge_limit(c, &st, n, why);
}
