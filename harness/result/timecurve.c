// SPDX-License-Identifier: Apache-2.0
#include "result/timecurve.h"

#include <math.h>
#include <stdlib.h>

#include "guest/phase.h"
#include "result/fit.h"
#include "result/result.h"
#include "lib/util.h"

static json_object *curve_fit(const double *x, const double *y, size_t n, double xmax)
{
	struct fit f;
	json_object *o;

	if (fit_line(x, y, n, &f) < 0)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "points", json_object_new_int64((long long)f.n));
	json_object_object_add(o, "ms_per_disk", json_fixed(f.slope * 1000, 3));
	json_object_object_add(o, "ms_per_disk_se", f.slope_se >= 0 ? json_fixed(f.slope_se * 1000, 3) : NULL);
	json_object_object_add(o, "fixed_s", json_fixed(f.intercept, 2));
	json_object_object_add(o, "r2", f.r2 >= 0 ? json_fixed(f.r2, 6) : NULL);
	json_object_object_add(o, "p_quadratic", f.p_quadratic >= 0 ? json_fixed(f.p_quadratic, 6) : NULL);
	json_object_object_add(o, "bend", f.p_quadratic >= 0 ? json_fixed(f.bend, 4) : NULL);
	json_object_object_add(o, "nonlinear", json_object_new_boolean(f.nonlinear));
	json_object_object_add(o, "marginal_first_ms", json_fixed(fit_marginal(&f, 0) * 1000, 3));
	json_object_object_add(o, "marginal_last_ms", json_fixed(fit_marginal(&f, xmax) * 1000, 3));
	fit_release(&f);
	return o;
}

/* One phase's curve: the progress counts of phase ph between its start
 * and its end, as disks made (sign 1, from base) or removed (sign -1,
 * from base + disks + virtio). */
static json_object *curve(const struct records *rs, enum phase ph, const char *wall_key,
			  long long disks, long long base, int sign)
{
	json_object *t = jget(rs->timings, phase_name(ph)), *o, *pts;
	double start = jdouble(t, "start_s", -1), wall = jdouble(t, wall_key, -1);
	double *x, *y;
	size_t n = 0, step;

	if (!t || start < 0 || wall < 0 || disks <= 0 || base < 0)
		return NULL;
	x = xcalloc(rs->nprogress + 2, sizeof(*x));
	y = xcalloc(rs->nprogress + 2, sizeof(*y));
	x[n] = 0;
	y[n++] = 0;
	for (size_t i = 0; i < rs->nprogress; i++) {
		const struct progress_pt *p = &rs->progress_pts[i];
		long long d = sign > 0 ? p->blocks - base : base - p->blocks;

		if (p->phase != (int)ph || p->t < start || p->t > start + wall)
			continue;
		x[n] = (double)(d < 0 ? 0 : d > disks ? disks : d);
		y[n++] = p->t - start;
	}
	x[n] = (double)disks;
	y[n++] = wall;
	o = json_object_new_object();
	json_object_object_add(o, "disks", json_object_new_int64(disks));
	json_object_object_add(o, "wall_s", json_fixed(wall, 2));
	json_object_object_add(o, "s_per_disk", json_fixed(wall / (double)disks, 6));
	pts = json_object_new_array();
	step = n > TIMECURVE_MAX_POINTS ? (n + TIMECURVE_MAX_POINTS - 1) / TIMECURVE_MAX_POINTS : 1;
	for (size_t i = 0; i < n; i++) {
		json_object *p;

		if (i % step && i != n - 1)
			continue;
		p = json_object_new_array();
		json_object_array_add(p, json_object_new_int64((long long)x[i]));
		json_object_array_add(p, json_fixed(y[i], 2));
		json_object_array_add(pts, p);
	}
	json_object_object_add(o, "points", pts);
	json_object_object_add(o, "fit", curve_fit(x, y, n, (double)disks));
	free(x);
	free(y);
	return o;
}

void timecurve_build(json_object *root, const struct scenario *s, const struct records *rs)
{
	json_object *o = json_object_new_object();
	long long base = rs->have_base ? (long long)rs->base.n : -1;
	long long virtio = rs->have_virtio ? (long long)rs->virtio.n : s->virtio_disks;

	json_object_object_add(o, "insmod", *s->sweep ? NULL :
			       curve(rs, PHASE_AFTER_INSMOD, "enumerate_s", s->disks, base, 1));
	json_object_object_add(o, "rmmod", s->rmmod && base >= 0 ?
			       curve(rs, PHASE_AFTER_RMMOD, "rmmod_s", s->disks,
				     base + s->disks + virtio, -1) : NULL);
	json_object_object_add(root, "time_curves", o);
}

int timecurve_time_at(json_object *curve, double disks, double *t)
{
	json_object *pts = jget(curve, "points");
	double d0 = 0, t0 = 0;
	int have = 0;

	for (size_t i = 0; i < jlen(pts); i++) {
		json_object *p = json_object_array_get_idx(pts, i), *x, *y;
		double d1, t1;

		if (!json_object_is_type(p, json_type_array) || json_object_array_length(p) != 2)
			continue;
		x = json_object_array_get_idx(p, 0);
		y = json_object_array_get_idx(p, 1);
		if (!(json_object_is_type(x, json_type_int) || json_object_is_type(x, json_type_double)) ||
		    !(json_object_is_type(y, json_type_int) || json_object_is_type(y, json_type_double)))
			continue;
		d1 = json_object_get_double(x);
		t1 = json_object_get_double(y);
		if (!isfinite(d1) || !isfinite(t1) || (have && t1 < t0))
			return -1;	/* time goes forward, or it is not a curve */
		if (d1 >= disks) {
			*t = have && d1 > d0 ? t0 + (t1 - t0) * (disks - d0) / (d1 - d0) : t1;
			return 0;
		}
		d0 = d1;
		t0 = t1;
		have = 1;
	}
	return -1;
}
