/* SPDX-License-Identifier: Apache-2.0 */
/*
 * timecurve: seconds per disk as fitted curves, for the work of a run
 * that makes or removes the disks one after another: insmod (without a
 * sweep) and rmmod.
 *
 * While insmod and rmmod run, /init counts the block devices and sends
 * each count that moved as a "progress" record (initramfs/lib/wait.sh,
 * bg_wait; record/monitor.h): so every run has, for both, the time at
 * which each count was reached.  With the phase's start (the guest's
 * timing records, start_cs) and its end (enumerate_s, rmmod_s, when all
 * disks are there or gone), each becomes a curve of seconds against
 * the disks made (or removed) so far, fitted as the sweep fits its
 * figures (result/fit.h):
 *
 *	timecurve_build(root, s, rs);	// after "guest_timings" is in root
 *
 *	"time_curves": {
 *	  "insmod": {"disks", "wall_s", "s_per_disk",
 *		     "points": [[disks, seconds], ...] (from 0, 0 to disks, wall_s),
 *		     "fit": {"points", "ms_per_disk", "ms_per_disk_se",
 *			     "fixed_s", "r2", "p_quadratic", "bend", "nonlinear",
 *			     "marginal_first_ms", "marginal_last_ms"} or null},
 *	  "rmmod": the same, disks removed
 *	}
 *
 * fixed_s is the intercept (the time before the first disk), ms_per_disk
 * the slope; marginal_first_ms and marginal_last_ms the parabola's slope
 * at the first and the last disk (the cost of one more disk there; the
 * line's slope without a parabola, under four points).  A phase that
 * did not run, or whose timing never came, is null; in a sweep, insmod is
 * the sweep's (sweep.fit.enumerate) and null here.
 */
#ifndef SCALETEST_TIMECURVE_H
#define SCALETEST_TIMECURVE_H

#include <json.h>

#include "record/records.h"
#include "scenario/scenario.h"

/* The most points kept in result.json per curve (evenly thinned). */
#define TIMECURVE_MAX_POINTS 400

void timecurve_build(json_object *root, const struct scenario *s, const struct records *rs);

/* Reading a curve (time_curves.insmod or .rmmod of a result.json, which
 * may come from anywhere): the seconds at which its count first reached
 * disks, interpolated linearly between the points before and at it.  0
 * and *t set; -1 when no point reaches it, or the points are not a curve
 * (times going back). */
int timecurve_time_at(json_object *curve, double disks, double *t);

#endif
