/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stats: the statistics behind "regression", "improvement" or "no change",
 * and the distributions a fit's tests need (result/fit.c).
 *
 *	struct stats st;
 *	stats_of(values, n, &st);	// mean, sample sd, n
 *	double p = welch_p(&a, &b);	// two-sided p-value, or -1 when
 *					// neither side has a spread to use
 *
 * Welch's t-test compares two means without assuming equal variances (as
 * mmtests does for kernel benchmarks): t = (mb - ma) / sqrt(sa²/na +
 * sb²/nb), with the Welch-Satterthwaite degrees of freedom; the p-value
 * comes from Student's t distribution through the regularized incomplete
 * beta function.  When both spreads are zero, equal means give p = 1 and
 * different means p = 0.
 *
 * A single run against a group (tonight against a baseline of repeats)
 * has no spread of its own, so it is judged by the group's prediction
 * interval: t = (x - m) / (s * sqrt(1 + 1/n)) with n - 1 degrees of
 * freedom, i.e. how likely one more run of the group's kind lands as far
 * from its mean.  One run against one run has no test (-1).
 */
#ifndef SCALETEST_STATS_H
#define SCALETEST_STATS_H

#include <stddef.h>

struct stats {
	double mean, sd;
	size_t n;
};

void stats_of(const double *v, size_t n, struct stats *st);
double welch_p(const struct stats *a, const struct stats *b);
/* The regularized incomplete beta function I_x(a, b): Student's t
 * distribution above, and result/fit.c's F test of a fit's curvature. */
double incbeta(double a, double b, double x);

#endif
