/* SPDX-License-Identifier: Apache-2.0 */
/*
 * curve: result.json's time curves read back, for the reports and compare
 * (from result.json alone): the disks present against the seconds since
 * the phase began, and the time per disk along the way.
 *
 *	struct curve_point *p;
 *	size_t n = curve_read(root, CURVE_INSMOD, &p);
 *		// (disks present, seconds since the phase began), in order:
 *		// time_curves.insmod.points (timecurve.h: disks made so far);
 *		// CURVE_RMMOD time_curves.rmmod's, its disks removed counted
 *		// down from time_curves.rmmod.disks; a sweep's insmod (none in
 *		// time_curves) is its rising steps, each step's enumeration
 *		// summed, as sweep.fit.enumerate fits them (sweep.h);
 *		// CURVE_SWEEP_REMOVE the peak and the falling steps after it,
 *		// their removal summed, as sweep.down_fit.remove fits them
 *	struct curve_rate *r;
 *	size_t k = curve_rates(p, n, &r);
 *		// the time per disk along it: (disks present at the end of a
 *		// stretch, ms per disk made or removed over it), stretches of
 *		// at least a CURVE_STRETCHES-th of the range, so that a count
 *		// that moves a disk at a time is not a comb
 *	free(p); free(r);
 *
 * A stretch starts at the first point at a count (the disk that made the
 * count was done by then); the time before the count first moves (insmod
 * loading, rmmod starting: the fit's fixed cost) is no disk's.  A point
 * that goes back against the curve's direction, or back in time (a
 * result.json from elsewhere), starts a new stretch.  Either returns 0
 * and NULL when there is nothing to read; at most CURVE_READ_MAX points
 * are read.
 */
#ifndef SCALETEST_RESULT_CURVE_H
#define SCALETEST_RESULT_CURVE_H

#include <json.h>
#include <stddef.h>

enum curve_what { CURVE_INSMOD, CURVE_RMMOD, CURVE_SWEEP_REMOVE };
#define CURVE_STRETCHES 40
#define CURVE_READ_MAX 1600

struct curve_point {
	double disks, s;
};

struct curve_rate {
	double disks, ms;
};

size_t curve_read(json_object *root, enum curve_what what, struct curve_point **out);
size_t curve_rates(const struct curve_point *p, size_t n, struct curve_rate **out);
/* Points as [[disks, seconds], ...] (compare.json keeps a side's so): read
 * back as they are, and written (whole disks, seconds to 0.01). */
size_t curve_points_of(json_object *pts, struct curve_point **out);
json_object *curve_points_json(const struct curve_point *p, size_t n);

#endif
