/*
 * stats: the statistics behind "regression", "improvement" or "no change".
 *
 *	struct stats st;
 *	stats_of(values, n, &st);	// mean, sample sd, n
 *	double p = welch_p(&a, &b);	// two-sided p-value of Welch's t-test,
 *					// or -1 when either side has n < 2
 *
 * Welch's t-test compares two means without assuming equal variances (as
 * mmtests does for kernel benchmarks): t = (mb - ma) / sqrt(sa²/na +
 * sb²/nb), with the Welch-Satterthwaite degrees of freedom; the p-value
 * comes from Student's t distribution through the regularized incomplete
 * beta function.  When both spreads are zero, equal means give p = 1 and
 * different means p = 0.
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
/* The regularized incomplete beta function I_x(a, b), for tests. */
double incbeta(double a, double b, double x);

#endif
