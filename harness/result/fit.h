/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fit: a straight line through (x, y) points by least squares, and whether
 * the points bend away from it.  The sweep (result/sweep.h) fits each
 * figure against the disk count with it.
 *
 *	struct fit f;
 *	if (fit_line(x, y, n, &f) == 0)		// -1: fewer than two distinct x
 *		use(f.intercept, f.slope, f.slope_se, f.r2, f.residual[i]);
 *	fit_release(&f);
 *
 * slope_se is the slope's standard error, sqrt(SSE / (n - 2) / Sxx) (-1
 * with two points); r2 is 1 - SSE / SST (-1 with two points, or when every y is the
 * same).
 *
 * Nonlinearity: a parabola y = a + b x + c x^2 is fitted too, and the
 * added term is tested with the F-test of nested least-squares models,
 * F = (SSE_line - SSE_parabola) / (SSE_parabola / (n - 3)) on 1 and n - 3
 * degrees of freedom (p from the regularized incomplete beta function,
 * compare/stats.h).  A memory figure is nearly deterministic, so a bend
 * too small to matter can still be "significant": f.nonlinear is set only
 * when p < FIT_NONLINEAR_P and the parabola's slope (the cost of one more
 * disk) at the largest x differs from its slope at the smallest by more
 * than FIT_NONLINEAR_BEND of the line's slope (f.bend).  With fewer
 * than four points there is no test (p_quadratic = -1, nonlinear = 0).
 */
#ifndef SCALETEST_FIT_H
#define SCALETEST_FIT_H

#include <stddef.h>

#define FIT_NONLINEAR_P 0.01
#define FIT_NONLINEAR_BEND 0.10

struct fit {
	size_t n;
	double intercept, slope;
	double slope_se;
	double r2;
	double p_quadratic;
	double bend;		/* |parabola's slope at max x - at min x| / |slope| */
	int nonlinear;
	int have_quad;		/* the parabola was fitted: fit_marginal() works */
	double quad[3], qmid, qhalf;	/* y = q0 + q1 u + q2 u^2, u = (x - qmid) / qhalf */
	double *residual;	/* n values: y - (intercept + slope x) */
};

int fit_line(const double *x, const double *y, size_t n, struct fit *f);
/* The cost of one more at x: the parabola's slope there (the marginal
 * cost of the Nth disk), or the line's slope without a parabola. */
double fit_marginal(const struct fit *f, double x);
void fit_release(struct fit *f);

#endif
