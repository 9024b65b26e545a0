/*
 * compare: two sides of runs, figure by figure, with a verdict.
 *
 * A side is a run directory (holding result.json), a group directory made
 * by "run --repeat N" (holding run directories), or a baseline directory
 * (baseline.h).  Every run on a side must be complete, passed, and of this
 * schema; the runs of one side must agree on the environment keys.
 *
 *	struct side a, b;
 *	side_load(&a, "results/x", &err);		// -1: err says why
 *	side_load(&b, "results/y", &err);
 *	struct compare_opts o = COMPARE_OPTS_INIT;	// alpha, threshold, gates
 *	json_object *cmp;
 *	if (compare_sides(&a, &b, &o, &cmp, &err) < 0)	// environments differ
 *		...					// (unless o.allow_mismatch)
 *	report_write_compare(cmp, "DIR", stdout);	// report.h: compare.md printed,
 *						// the pages written (DIR may be NULL)
 *	... json_object_get_string(jget(cmp, "verdict")) ...
 *	side_release(&a); side_release(&b);
 *
 * The comparison (its JSON is documented in the README, "Comparing runs")
 * has, per metric, both sides' mean, sample sd and values, the absolute
 * and relative change, a p-value (welch_p() in stats.h: Welch's test with
 * repeats on both sides, a prediction interval for one run against a
 * group, none for one run against one), and a verdict.  The rule: a change
 * counts when it is at least threshold_pct of side A's mean and p < alpha
 * where there is a p; it is a regression when it goes the metric's bad
 * way, else an improvement.  Only gating metrics (by default the memory
 * ones) decide the overall verdict; the others are shown.
 */
#ifndef SCALETEST_COMPARE_H
#define SCALETEST_COMPARE_H

#include <json.h>

#include "lib/strbuf.h"
#include "lib/strvec.h"

struct side {
	char *path;
	char *label;
	struct strvec runs;	/* run directories */
	json_object **roots;	/* their result.json */
	size_t n;
};

/* Which kinds of metric gate the verdict. */
enum { GATE_MEMORY = 1, GATE_TIME = 2, GATE_IO = 4 };

struct compare_opts {
	double alpha;		/* significance level of Welch's test */
	double threshold_pct;	/* smallest relative change that counts */
	int gates;		/* GATE_* */
	int allow_mismatch;	/* compare different environments anyway */
};
#define COMPARE_OPTS_INIT { 0.05, 5.0, GATE_MEMORY, 0 }

int side_load(struct side *s, const char *path, struct strbuf *err);
void side_release(struct side *s);

/* The keys that make figures comparable (environment), and the ones that
 * are the subject of a comparison (shown, never refused). */
extern const char *const compare_env_keys[];
extern const char *const compare_subject_keys[];
/* The value of a key in a result as text ("" if absent); arrays joined. */
void compare_key_value(json_object *root, const char *key, struct strbuf *out);

int compare_sides(const struct side *a, const struct side *b,
		  const struct compare_opts *o, json_object **cmp, struct strbuf *err);
/* "memory,time,io" -> GATE_* bits; -1 on an unknown word. */
int compare_parse_gates(const char *s);

#endif
