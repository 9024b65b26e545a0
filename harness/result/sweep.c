// SPDX-License-Identifier: Apache-2.0
#include "result/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest/phase.h"
#include "result/fit.h"
#include "result/result.h"
#include "lib/util.h"
#include "lib/xalloc.h"

static long long mi(json_object *snap, const char *field)
{
	char path[64];

	snprintf(path, sizeof(path), "meminfo.%s", field);
	return jint(snap, path, -1);
}

/* A free measure with the per-CPU lists' free pages (result_pcp_key) when
 * the snapshot has them. */
static long long free_kb(json_object *snap, const char *field)
{
	char path[64];
	long long v = mi(snap, field), p;

	snprintf(path, sizeof(path), "zoneinfo.%s", result_pcp_key(field));
	p = jint(snap, path, -1);
	return v < 0 ? -1 : v + (p > 0 ? p : 0);
}

/* The memory figures of one point against before-insmod: the free
 * measures count the per-CPU lists' pages as free where both snapshots
 * have them (as analysis.c's deltas do). */
static void point_figures(json_object *p, json_object *before)
{
	static const char *const parts[] = { "Slab", "PageTables", "KernelStack",
					     "VmallocUsed", "Percpu" };
	int pcp = jget(before, "zoneinfo") && jget(p, "zoneinfo");
	long long mf0 = pcp ? free_kb(before, "MemFree") : mi(before, "MemFree");
	long long mf = pcp ? free_kb(p, "MemFree") : mi(p, "MemFree");
	long long lf0 = pcp ? free_kb(before, "LowFree") : mi(before, "LowFree");
	long long lf = pcp ? free_kb(p, "LowFree") : mi(p, "LowFree");
	long long known = 0;
	int all = 1;

	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		long long a = mi(before, parts[i]), b = mi(p, parts[i]);
		if (a >= 0 && b >= 0)
			known += b - a;
		else if (strcmp(parts[i], "Percpu"))
			all = 0;
	}
	json_object_object_add(p, "memfree_drop_kb", mf0 >= 0 && mf >= 0
			       ? json_object_new_int64(mf0 - mf) : NULL);
	json_object_object_add(p, "lowfree_drop_kb", lf0 >= 0 && lf >= 0
			       ? json_object_new_int64(lf0 - lf) : NULL);
	json_object_object_add(p, "slab_growth_kb",
			       mi(before, "Slab") >= 0 && mi(p, "Slab") >= 0
			       ? json_object_new_int64(mi(p, "Slab") - mi(before, "Slab")) : NULL);
	json_object_object_add(p, "unaccounted_kb", mf0 >= 0 && mf >= 0 && all
			       ? json_object_new_int64(mf0 - mf - known) : NULL);
}

static const struct figure {
	const char *name;	/* the key in fit */
	const char *key;	/* the point's figure, kB */
} figures[] = {
	{ "MemFree", "memfree_drop_kb" },
	{ "LowFree", "lowfree_drop_kb" },
	{ "Slab", "slab_growth_kb" },
	{ "unaccounted", "unaccounted_kb" },
};

/* The fit's common fields; the slope and intercept in the caller's units. */
static json_object *fit_json(const struct fit *f, const char *slope, double sscale,
			     int sdec, const char *icept, double iscale, int idec,
			     const char *resid, double xmin, double xmax)
{
	json_object *o = json_object_new_object(), *r = json_object_new_array();
	char se[64];

	snprintf(se, sizeof(se), "%s_se", slope);
	json_object_object_add(o, "points", json_object_new_int64((long long)f->n));
	json_object_object_add(o, slope, json_fixed(f->slope * sscale, sdec));
	json_object_object_add(o, se, f->slope_se >= 0 ? json_fixed(f->slope_se * sscale, sdec) : NULL);
	json_object_object_add(o, icept, json_fixed(f->intercept * iscale, idec));
	json_object_object_add(o, "r2", f->r2 >= 0 ? json_fixed(f->r2, 6) : NULL);
	json_object_object_add(o, "p_quadratic", f->p_quadratic >= 0 ? json_fixed(f->p_quadratic, 6) : NULL);
	json_object_object_add(o, "bend", f->p_quadratic >= 0 ? json_fixed(f->bend, 4) : NULL);
	json_object_object_add(o, "nonlinear", json_object_new_boolean(f->nonlinear));
	/* The cost of one more at the first and the last count (the
	 * parabola's slope there; the line's without a parabola). */
	json_object_object_add(o, "marginal_first", json_fixed(fit_marginal(f, xmin) * sscale, sdec));
	json_object_object_add(o, "marginal_last", json_fixed(fit_marginal(f, xmax) * sscale, sdec));
	for (size_t i = 0; i < f->n; i++)
		json_object_array_add(r, json_fixed(f->residual[i] * iscale, idec));
	json_object_object_add(o, resid, r);
	return o;
}

/* The memory figures fitted over points [from, to]. */
static json_object *fit_memory(json_object *points, size_t from, size_t to)
{
	json_object *out = json_object_new_object();
	size_t cap = to - from + 1;
	double *x = xcalloc(cap, sizeof(*x)), *y = xcalloc(cap, sizeof(*y));

	for (size_t k = 0; k < ARRAY_SIZE(figures); k++) {
		struct fit f;
		size_t n = 0;
		double lo = 0, hi = 0;

		for (size_t i = from; i <= to; i++) {
			json_object *p = json_object_array_get_idx(points, i), *v = jget(p, figures[k].key);
			if (!v)
				continue;
			x[n] = (double)jint(p, "disks", 0);
			lo = !n || x[n] < lo ? x[n] : lo;
			hi = !n || x[n] > hi ? x[n] : hi;
			y[n++] = (double)json_object_get_int64(v);
		}
		if (n >= 2 && fit_line(x, y, n, &f) == 0) {
			/* kB per disk -> bytes per disk; kB stays kB. */
			json_object_object_add(out, figures[k].name,
					       fit_json(&f, "bytes_per_disk", 1024, 0,
							"fixed_kb", 1, 0, "residuals_kb", lo, hi));
			fit_release(&f);
		} else {
			json_object_object_add(out, figures[k].name, NULL);
		}
	}
	free(x);
	free(y);
	return out;
}

/* Enumeration time summed over the rising steps, against the count. */
static json_object *fit_enumerate(json_object *points, size_t peak)
{
	double *x = xcalloc(peak + 1, sizeof(*x)), *y = xcalloc(peak + 1, sizeof(*y));
	double sum = 0;
	struct fit f;
	json_object *o = NULL;

	for (size_t i = 0; i <= peak; i++) {
		json_object *p = json_object_array_get_idx(points, i);
		sum += json_object_get_double(jget(p, "enumerate_s"));
		x[i] = (double)jint(p, "disks", 0);
		y[i] = sum;
	}
	if (fit_line(x, y, peak + 1, &f) == 0) {
		o = fit_json(&f, "ms_per_disk", 1000, 3, "fixed_s", 1, 2, "residuals_s",
			     x[0], x[peak]);
		json_object_object_add(o, "disks", json_object_new_int64((long long)x[peak]));
		json_object_object_add(o, "wall_s", json_seconds(sum));
		fit_release(&f);
	}
	free(x);
	free(y);
	return o;
}

/* Removal time summed over the falling steps, against the disks removed
 * since the peak (the peak itself: 0 removed, 0 s). */
static json_object *fit_remove(json_object *points, size_t peak, size_t np)
{
	double *x = xcalloc(np - peak, sizeof(*x)), *y = xcalloc(np - peak, sizeof(*y));
	double sum = 0, top = (double)jint(json_object_array_get_idx(points, peak), "disks", 0);
	struct fit f;
	json_object *o = NULL;

	for (size_t i = peak; i < np; i++) {
		json_object *p = json_object_array_get_idx(points, i);

		if (i > peak)
			sum += json_object_get_double(jget(p, "enumerate_s"));
		x[i - peak] = top - (double)jint(p, "disks", 0);
		y[i - peak] = sum;
	}
	if (fit_line(x, y, np - peak, &f) == 0) {
		o = fit_json(&f, "ms_per_disk", 1000, 3, "fixed_s", 1, 2, "residuals_s",
			     x[0], x[np - peak - 1]);
		json_object_object_add(o, "disks", json_object_new_int64((long long)x[np - peak - 1]));
		json_object_object_add(o, "wall_s", json_seconds(sum));
		fit_release(&f);
	}
	free(x);
	free(y);
	return o;
}

/* With sweep_floor_mb: the largest count whose headline free memory was
 * still at or above the floor, over the rising points. */
static json_object *knee_json(const struct scenario *s, json_object *points, size_t peak,
			      json_object *before, json_object *fit)
{
	const char *field = mi(before, "LowFree") >= 0 ? "LowFree" : "MemFree";
	long long floor_kb = s->sweep_floor_mb * 1024, max = -1, free_at = -1;
	long long *st;
	size_t n;
	int reached = 0;
	json_object *k = json_object_new_object(), *bpd;

	scenario_sweep(s, &st, &n);
	free(st);
	for (size_t i = 0; i <= peak && i < jlen(points); i++) {
		json_object *p = json_object_array_get_idx(points, i);
		long long f = mi(p, field), d = jint(p, "disks", 0);
		if (f < 0)
			continue;
		if (f < floor_kb)
			reached = 1;
		else if (d > max) {
			max = d;
			free_at = f;
		}
	}
	json_object_object_add(k, "field", json_object_new_string(field));
	json_object_object_add(k, "floor_kb", json_object_new_int64(floor_kb));
	json_object_object_add(k, "reached", json_object_new_boolean(reached));
	json_object_object_add(k, "max_disks", max >= 0 ? json_object_new_int64(max) : NULL);
	json_object_object_add(k, "free_kb_at_max", max >= 0 ? json_object_new_int64(free_at) : NULL);
	json_object_object_add(k, "steps_beyond_list", json_object_new_int64(
		peak + 1 > n ? (long long)(peak + 1 - n) : 0));
	bpd = jget(fit, !strcmp(field, "LowFree") ? "LowFree.bytes_per_disk" : "MemFree.bytes_per_disk");
	json_object_object_add(k, "per_disk_bytes", bpd ? json_object_get(bpd) : NULL);
	return k;
}

void sweep_build(json_object *root, const struct scenario *s, json_object *points)
{
	json_object *sw = json_object_new_object(), *steps = json_object_new_array();
	json_object *before = result_phase(root, phase_name(PHASE_BEFORE_INSMOD));
	long long *st, prev = 0;
	size_t n, np = jlen(points), peak = 0;

	scenario_sweep(s, &st, &n);
	for (size_t i = 0; i < n; i++)
		json_object_array_add(steps, json_object_new_int64(st[i]));
	json_object_object_add(sw, "steps", steps);
	json_object_object_add(sw, "host_disks", json_object_new_int64(scenario_sd_host_disks(s)));
	json_object_object_add(sw, "peak", json_object_new_int64(scenario_sweep_peak(s)));
	json_object_object_add(sw, "complete", json_object_new_boolean(n && np >= n));
	for (size_t i = 0; i < np; i++) {
		json_object *p = json_object_array_get_idx(points, i);
		long long d = jint(p, "disks", 0), delta = d > prev ? d - prev : prev - d;
		double en = json_object_get_double(jget(p, "enumerate_s"));

		json_object_object_add(p, "rate_disks_per_s", delta && en > 0
				       ? json_fixed((double)delta / en, 1) : NULL);
		if (before)
			point_figures(p, before);
		if (i && d > prev && peak == i - 1)
			peak = i;
		prev = d;
	}
	json_object_object_add(sw, "points", json_object_get(points));
	if (np >= 2 && before) {
		json_object *fit = fit_memory(points, 0, peak);
		json_object_object_add(fit, "enumerate", fit_enumerate(points, peak));
		json_object_object_add(sw, "fit", fit);
	} else {
		json_object_object_add(sw, "fit", NULL);
	}
	if (np >= peak + 2 && before) {
		json_object *down = fit_memory(points, peak, np - 1);

		json_object_object_add(down, "remove", fit_remove(points, peak, np));
		json_object_object_add(sw, "down_fit", down);
	} else {
		json_object_object_add(sw, "down_fit", NULL);
	}
	if (s->sweep_floor_mb)
		json_object_object_add(sw, "knee", before
				       ? knee_json(s, points, peak, before, jget(sw, "fit")) : NULL);
	json_object_object_add(root, "sweep", sw);
	free(st);
}
