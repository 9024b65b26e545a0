/* SPDX-License-Identifier: Apache-2.0 */
/*
 * analysis: what a run's figures mean, computed from result.json's own
 * tree (phases, samples, fio jobs), so that it can be recomputed without
 * booting.  result_build() (build.c) calls these, for a live run and a
 * replay alike, once the records and the console are decoded:
 *
 *	analysis_deltas(root, s);	// "deltas": insmod and rmmod changes,
 *					// per-disk costs, unaccounted memory
 *	analysis_slab_growth(root, s);	// "slab_growth": caches by growth
 *	analysis_monitor(root);		// "monitor.peak": the I/O peak vs
 *					// the steady state after insmod
 *	analysis_leak(root, s, checks);	// the after-rmmod leak check
 *	analysis_fio(root, s, checks);	// fio's jobs: errors, verify
 *	analysis_attribution(root, s, a);	// "attribution": call sites
 *
 * Checks are {name, pass, detail} objects appended to an array.
 */
#ifndef SCALETEST_ANALYSIS_H
#define SCALETEST_ANALYSIS_H

#include <json.h>

#include "scenario/scenario.h"

void analysis_add_check(json_object *checks, const char *name, int pass,
			const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void analysis_deltas(json_object *root, const struct scenario *s);
void analysis_slab_growth(json_object *root, const struct scenario *s);
void analysis_monitor(json_object *root);
void analysis_leak(json_object *root, const struct scenario *s, json_object *checks);
void analysis_fio(json_object *root, const struct scenario *s, json_object *checks);
/* "attribution": the guest's call sites (records.attribution, or NULL)
 * with bytes per disk, shares of the MemFree drop and the closure; in a
 * sweep, "steps" (each step's cumulative page_alloc and page_free bytes,
 * net_bytes and its ATTR_STEP_SITES largest sites {site, bytes}) and
 * "step_fit": the peak's ATTR_STEP_FIT_SITES largest page_alloc sites,
 * each {site, points, bytes_at_peak, bytes_per_disk, bytes_per_disk_se,
 * fixed_bytes, r2} fitted by least squares (result/fit.h) against the
 * disk count over the rising steps (null with fewer than two; a site
 * whose fit fails is left out). */
void analysis_attribution(json_object *root, const struct scenario *s,
			  json_object *from_guest);
/* How far the traced net page allocations may fall from the MemFree drop
 * (either way, % of the drop) for the closure to hold; measured on smoke,
 * see docs/attribution.md, "Closure". */
#define ATTR_CLOSURE_TOLERANCE_PCT 15
#define ATTR_STEP_SITES 10
#define ATTR_STEP_FIT_SITES 10

#endif
