// SPDX-License-Identifier: Apache-2.0
#include "result/curve.h"

#include <math.h>
#include <stdlib.h>

#include "lib/json.h"
#include "lib/util.h"

static int number_of(json_object *v, double *out)
{
	if (!v || !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return 0;
	*out = json_object_get_double(v);
	return isfinite(*out);
}

/* time_curves.WHAT.points: [disks made or removed, seconds] pairs; as
 * disks present, removed ones counted down from total. */
static size_t read_points(json_object *pts, int removed, double total, struct curve_point *p)
{
	size_t n = 0;

	for (size_t i = 0; i < jlen(pts) && n < CURVE_READ_MAX; i++) {
		json_object *e = json_object_array_get_idx(pts, i);
		double d;

		if (jlen(e) == 2 && number_of(json_object_array_get_idx(e, 0), &d) &&
		    number_of(json_object_array_get_idx(e, 1), &p[n].s)) {
			p[n].disks = removed ? total - d : d;
			n++;
		}
	}
	return n;
}

/* A sweep's steps as sweep.c fits them: the rising steps up to the peak,
 * their enumeration summed (remove = 0); or the peak and the falling
 * steps after it, their removal summed (remove = 1). */
static size_t read_sweep(json_object *pts, int remove, struct curve_point *p)
{
	size_t np = jlen(pts), peak = 0, n = 0;
	double prev = 0, sum = 0;

	for (size_t i = 0; i < np; i++) {
		double d;

		if (!number_of(jget(json_object_array_get_idx(pts, i), "disks"), &d))
			return 0;
		if (i && d > prev && peak == i - 1)
			peak = i;
		prev = d;
	}
	for (size_t i = remove ? peak : 0; i < (remove ? np : peak + 1) && n < CURVE_READ_MAX; i++) {
		json_object *e = json_object_array_get_idx(pts, i);
		double d, s;

		if (!number_of(jget(e, "disks"), &d) || !number_of(jget(e, "enumerate_s"), &s))
			break;
		if (!remove || i > peak)
			sum += s;
		p[n].disks = d;
		p[n++].s = sum;
	}
	return n < 2 ? 0 : n;
}

size_t curve_read(json_object *root, enum curve_what what, struct curve_point **out)
{
	json_object *sweep = jarray(root, "sweep.points"), *pts = NULL;
	double total = 0;
	size_t n = 0;

	if (what == CURVE_INSMOD) {
		pts = jarray(root, "time_curves.insmod.points");
	} else if (what == CURVE_RMMOD) {
		pts = jarray(root, "time_curves.rmmod.points");
		if (!number_of(jget(root, "time_curves.rmmod.disks"), &total))
			pts = NULL;
	}
	*out = xcalloc(CURVE_READ_MAX + 1, sizeof(**out));
	if (pts)
		n = read_points(pts, what == CURVE_RMMOD, total, *out);
	else if (what != CURVE_RMMOD && sweep)
		n = read_sweep(sweep, what == CURVE_SWEEP_REMOVE, *out);
	if (!n) {
		free(*out);
		*out = NULL;
	}
	return n;
}

size_t curve_rates(const struct curve_point *p, size_t n, struct curve_rate **out)
{
	double lo = 0, hi = 0, width, dir = 0;
	size_t k = 0, from = 0;

	*out = NULL;
	for (size_t i = 0; i < n; i++) {
		lo = !i || p[i].disks < lo ? p[i].disks : lo;
		hi = !i || p[i].disks > hi ? p[i].disks : hi;
	}
	if (n < 2 || hi <= lo)
		return 0;
	width = (hi - lo) / CURVE_STRETCHES;
	*out = xcalloc(n + 1, sizeof(**out));
	for (size_t i = 1; i < n; i++) {
		double dd = p[i].disks - p[from].disks, ds = p[i].s - p[from].s;

		if (!dir && dd)
			dir = dd > 0 ? 1 : -1;
		if (dd * dir < 0 || ds < 0) {
			from = i;	/* not a curve: start again here */
			continue;
		}
		if (!dd) {
			if (!k && p[from].disks == p[0].disks)
				from = i;	/* before the count first moves */
			continue;
		}
		if (dd * dir < width && i + 1 < n)
			continue;
		(*out)[k].disks = p[i].disks;
		(*out)[k++].ms = ds * 1000 / (dd * dir);
		from = i;
	}
	if (!k) {
		free(*out);
		*out = NULL;
	}
	return k;
}

size_t curve_points_of(json_object *pts, struct curve_point **out)
{
	size_t n;

	*out = xcalloc(CURVE_READ_MAX + 1, sizeof(**out));
	n = read_points(pts, 0, 0, *out);
	if (!n) {
		free(*out);
		*out = NULL;
	}
	return n;
}

json_object *curve_points_json(const struct curve_point *p, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_new_array();

		json_object_array_add(e, json_object_new_int64((long long)p[i].disks));
		json_object_array_add(e, json_fixed(p[i].s, 2));
		json_object_array_add(a, e);
	}
	return a;
}
