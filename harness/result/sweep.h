/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep: result.json's "sweep" section, made from a sweep's points
 * (record/sweep.h) and the before-insmod snapshot: each point's figures,
 * and a straight line fitted to each against the disk count (result/fit.h).
 *
 *	sweep_build(root, s, rs->points);	// after "phases" is in root
 *
 *	"sweep": {
 *	  "steps": [0, 250, 500, 250], "host_disks": 250, "peak": 500,
 *	  "complete": true,		// every step's point arrived
 *	  "points": [{"step", "disks", "t", "add_s", "enumerate_s",
 *		      "rate_disks_per_s", "memfree_drop_kb", "lowfree_drop_kb",
 *		      "slab_growth_kb", "unaccounted_kb", "meminfo", "slab_kb"}],
 *	  "fit": {			// the rising steps, up to the peak
 *	    "MemFree": {"points", "bytes_per_disk", "bytes_per_disk_se",
 *			"fixed_kb", "r2", "p_quadratic", "bend", "nonlinear",
 *			"marginal_first", "marginal_last", "residuals_kb"},
 *	    "LowFree", "Slab", "unaccounted": the same (LowFree null without
 *			HIGHMEM),
 *	    "enumerate": {"points", "ms_per_disk", "ms_per_disk_se", "fixed_s",
 *			"r2", "p_quadratic", "bend", "nonlinear", "marginal_first",
 *			"marginal_last", "residuals_s", "disks" (the peak), "wall_s"
 *			(the steps' time summed)}
 *	  },
 *	  "down_fit": {"MemFree", ...} over the peak and the falling steps
 *			(what removing hosts gives back per disk), and "remove":
 *			the removal time summed over the falling steps against
 *			the disks removed since the peak, fitted as "enumerate"
 *			is ("disks": removed in all); or null
 *	  "knee": {"field", "floor_kb", "reached", "max_disks", "free_kb_at_max",
 *		   "steps_beyond_list", "per_disk_bytes"}  (sweep_floor_mb only:
 *			the largest rising count whose LowFree, or MemFree
 *			without HIGHMEM, was still at or above the floor)
 *	}
 *
 * Drops and growth are against the before-insmod snapshot, so fixed_kb is
 * what scsi_debug costs with no disk.  unaccounted is the MemFree drop less
 * the growth of Slab, PageTables, KernelStack, VmallocUsed and Percpu, as
 * in deltas.insmod.  "enumerate" fits the enumeration time summed over the
 * rising steps against the count: a constant time per disk is a line, a
 * probe that slows down as disks accumulate bends it.  A fit needs two
 * points at distinct counts (else null); r2, bytes_per_disk_se and
 * p_quadratic are null where there are too few points for them.
 * marginal_first and marginal_last (in the slope's unit) are the cost of
 * one more disk at the first and the last count: the fitted parabola's
 * slope there (the line's with fewer than four points).
 */
#ifndef SCALETEST_RESULT_SWEEP_H
#define SCALETEST_RESULT_SWEEP_H

#include <json.h>

#include "scenario/scenario.h"

void sweep_build(json_object *root, const struct scenario *s, json_object *points);

#endif
