/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compare: two sides of runs or more, figure by figure, each against the
 * first (the base), with a verdict.
 *
 * A side (side.h) is a run directory, a group of repeats or a baseline,
 * loaded and checked by side_load(); two sides with one label get their
 * numbers ("#1", "#2"), a kernel series names each by its kernel.
 *
 *	struct side s[3];
 *	side_load(&s[0], "results/x", &err);		// -1: err says why
 *	...
 *	const struct side *v[3] = { &s[0], &s[1], &s[2] };
 *	struct compare_opts o = COMPARE_OPTS_INIT;	// alpha, threshold, gates
 *	json_object *cmp;
 *	if (compare_n(v, 3, &o, &cmp, &err) < 0)	// environments differ
 *		...					// (unless o.allow_mismatch)
 *	report_write_compare(cmp, "DIR", stdout);	// report.h: compare.md printed,
 *						// the pages written (DIR may be NULL)
 *	... json_object_get_string(jget(cmp, "verdict")) ...
 *	side_release(&s[0]); ...
 *
 * compare_sides(&a, &b, ...) is compare_n() of two.
 *
 * The comparison (its JSON, schema COMPARE_SCHEMA, is documented in the
 * docs/compare.md, "Comparing runs") has per side its label, runs, memory by phase
 * and monitor samples during insmod (for the page's overlays), and per
 * metric every side's mean, sample sd and values; each side after the
 * first also has the absolute and relative change from the base, a
 * p-value (welch_p() in stats.h: Welch's test with repeats on both sides,
 * a prediction interval for one run against a group, none for one run
 * against one), and a verdict.  The rule: a change counts when it is at
 * least threshold_pct of the base's mean and p < alpha where there is a
 * p.  On a gating metric (by default the memory ones) it is a
 * "regression" when it goes the metric's bad way, else an "improvement";
 * on the others it is only "worse" or "better", and only gating metrics
 * decide a side's verdict and the overall one (a regression if any side
 * has one).
 */
#ifndef SCALETEST_COMPARE_H
#define SCALETEST_COMPARE_H

#include <json.h>

#include "compare/side.h"
#include "lib/strbuf.h"

/* Which kinds of metric gate the verdict. */
enum { GATE_MEMORY = 1, GATE_TIME = 2, GATE_IO = 4 };

struct compare_opts {
	double alpha;		/* significance level of Welch's test */
	double threshold_pct;	/* smallest relative change that counts */
	int gates;		/* GATE_* */
	int allow_mismatch;	/* compare different environments anyway */
	int series;		/* a kernel series: sides named by their kernel,
				 * and the report leads with the per-disk figures */
};
#define COMPARE_OPTS_INIT { 0.05, 5.0, GATE_MEMORY, 0, 0 }

#define COMPARE_SCHEMA 2
#define COMPARE_MAX_SIDES 10

int compare_n(const struct side *const *sides, size_t n, const struct compare_opts *o,
	      json_object **cmp, struct strbuf *err);
int compare_sides(const struct side *a, const struct side *b,
		  const struct compare_opts *o, json_object **cmp, struct strbuf *err);
/* "memory,time,io" -> GATE_* bits; -1 on an unknown word. */
int compare_parse_gates(const char *s);

#endif
