// SPDX-License-Identifier: Apache-2.0
#include "lib/stats.h"

#include <math.h>

void stats_of(const double *v, size_t n, struct stats *st)
{
	double sum = 0, ss = 0;

	st->n = n;
	st->mean = st->sd = 0;
	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	st->mean = sum / (double)n;
	if (n < 2)
		return;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - st->mean) * (v[i] - st->mean);
	st->sd = sqrt(ss / (double)(n - 1));
}

#define LENTZ_TINY 1e-300

/* One step of Lentz's method with the coefficient aa: updates c and d,
 * returns the factor d * c for the fraction. */
static double lentz_step(double aa, double *c, double *d)
{
	*d = 1 + aa * *d;
	if (fabs(*d) < LENTZ_TINY)
		*d = LENTZ_TINY;
	*c = 1 + aa / *c;
	if (fabs(*c) < LENTZ_TINY)
		*c = LENTZ_TINY;
	*d = 1 / *d;
	return *d * *c;
}

/* Continued fraction for the incomplete beta (Lentz's method). */
static double betacf(double a, double b, double x)
{
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;

	if (fabs(d) < LENTZ_TINY)
		d = LENTZ_TINY;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, del;

		h *= lentz_step(m * (b - m) * x / ((qam + m2) * (a + m2)), &c, &d);
		del = lentz_step(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), &c, &d);
		h *= del;
		if (fabs(del - 1) < 1e-14)
			break;
	}
	return h;
}

double incbeta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, 1 - x) / b;
}

double welch_p(const struct stats *a, const struct stats *b)
{
	double va, vb, se2, t, df;

	if (a->n < 2 && b->n < 2)
		return -1;
	if (a->n < 2 || b->n < 2) {
		/* One run against a group: the group's prediction interval. */
		const struct stats *g = a->n < 2 ? b : a, *one = a->n < 2 ? a : b;

		se2 = g->sd * g->sd * (1 + 1 / (double)g->n);
		if (se2 <= 0)
			return one->mean == g->mean ? 1 : 0;
		t = (one->mean - g->mean) / sqrt(se2);
		df = (double)(g->n - 1);
		return incbeta(df / 2, 0.5, df / (df + t * t));
	}
	va = a->sd * a->sd / (double)a->n;
	vb = b->sd * b->sd / (double)b->n;
	se2 = va + vb;
	if (se2 <= 0)
		return a->mean == b->mean ? 1 : 0;
	t = (b->mean - a->mean) / sqrt(se2);
	df = se2 * se2 / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	/* Two-sided: P(|T| > |t|) = I_{df/(df+t²)}(df/2, 1/2). */
	return incbeta(df / 2, 0.5, df / (df + t * t));
}
