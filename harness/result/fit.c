// SPDX-License-Identifier: Apache-2.0
#include "result/fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"
#include "lib/xalloc.h"

/* Solves the 3x3 system a * c = b by Gaussian elimination with partial
 * pivoting; -1 when it is singular. */
static int solve3(double a[3][3], double b[3], double c[3])
{
	for (int col = 0; col < 3; col++) {
		int piv = col;
		for (int r = col + 1; r < 3; r++)
			if (fabs(a[r][col]) > fabs(a[piv][col]))
				piv = r;
		if (fabs(a[piv][col]) < 1e-12)
			return -1;
		if (piv != col) {
			double t[3], tb = b[col];
			memcpy(t, a[col], sizeof(t));
			memcpy(a[col], a[piv], sizeof(t));
			memcpy(a[piv], t, sizeof(t));
			b[col] = b[piv];
			b[piv] = tb;
		}
		for (int r = col + 1; r < 3; r++) {
			double m = a[r][col] / a[col][col];
			for (int k = col; k < 3; k++)
				a[r][k] -= m * a[col][k];
			b[r] -= m * b[col];
		}
	}
	for (int r = 2; r >= 0; r--) {
		double s = b[r];
		for (int k = r + 1; k < 3; k++)
			s -= a[r][k] * c[k];
		c[r] = s / a[r][r];
	}
	return 0;
}

/* The parabola's test; x is centred and scaled to [-1, 1] first so the
 * normal equations stay well conditioned at 100,000 disks. */
static void quadratic_test(const double *x, const double *y, size_t n, struct fit *f,
			   double sse_line, double xmin, double xmax)
{
	double mid = (xmin + xmax) / 2, half = (xmax - xmin) / 2;
	double a[3][3] = { { 0 } }, b[3] = { 0 }, c[3], sse = 0, dev = 0;

	for (size_t i = 0; i < n; i++) {
		double u = (x[i] - mid) / half, p[3] = { 1, u, u * u };
		for (int r = 0; r < 3; r++) {
			for (int k = 0; k < 3; k++)
				a[r][k] += p[r] * p[k];
			b[r] += p[r] * y[i];
		}
	}
	if (solve3(a, b, c) < 0)
		return;
	f->have_quad = 1;
	memcpy(f->quad, c, sizeof(f->quad));
	f->qmid = mid;
	f->qhalf = half;
	for (size_t i = 0; i < n; i++) {
		double u = (x[i] - mid) / half;
		double q = c[0] + c[1] * u + c[2] * u * u;
		sse += (y[i] - q) * (y[i] - q);
	}
	double df = (double)n - 3;
	double scale = sse_line > 0 ? sse_line : 1;
	if (sse <= 1e-12 * scale)
		f->p_quadratic = sse_line <= 1e-12 * scale ? 1 : 0;
	else if (sse_line <= sse)
		f->p_quadratic = 1;
	else {
		double F = (sse_line - sse) / (sse / df);
		f->p_quadratic = incbeta(df / 2, 0.5, df / (df + F));
	}
	/* The parabola's slope at the largest x less that at the smallest. */
	dev = fabs(4 * c[2] / half);
	f->bend = fabs(f->slope) > 0 ? dev / fabs(f->slope) : (dev > 0 ? 1 : 0);
	f->nonlinear = f->p_quadratic < FIT_NONLINEAR_P && f->bend > FIT_NONLINEAR_BEND;
}

int fit_line(const double *x, const double *y, size_t n, struct fit *f)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, sst = 0, sse = 0;
	double xmin, xmax;
	size_t distinct = 0;

	memset(f, 0, sizeof(*f));
	f->slope_se = f->r2 = f->p_quadratic = -1;
	if (n < 2)
		return -1;
	xmin = xmax = x[0];
	for (size_t i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
		xmin = x[i] < xmin ? x[i] : xmin;
		xmax = x[i] > xmax ? x[i] : xmax;
	}
	mx /= (double)n;
	my /= (double)n;
	for (size_t i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
		sst += (y[i] - my) * (y[i] - my);
	}
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < i && x[j] != x[i])
			j++;
		distinct += j == i;
	}
	if (distinct < 2 || sxx <= 0)
		return -1;
	f->n = n;
	f->slope = sxy / sxx;
	f->intercept = my - f->slope * mx;
	f->residual = xcalloc(n, sizeof(*f->residual));
	for (size_t i = 0; i < n; i++) {
		f->residual[i] = y[i] - (f->intercept + f->slope * x[i]);
		sse += f->residual[i] * f->residual[i];
	}
	if (n > 2)
		f->slope_se = sqrt(sse / (double)(n - 2) / sxx);
	if (sst > 0 && n > 2)
		f->r2 = 1 - sse / sst;
	if (n >= 4 && distinct >= 3)
		quadratic_test(x, y, n, f, sse, xmin, xmax);
	return 0;
}

double fit_marginal(const struct fit *f, double x)
{
	if (!f->have_quad || f->qhalf <= 0)
		return f->slope;
	return (f->quad[1] + 2 * f->quad[2] * (x - f->qmid) / f->qhalf) / f->qhalf;
}

void fit_release(struct fit *f)
{
	free(f->residual);
	f->residual = NULL;
}
