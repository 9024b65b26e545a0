/* SPDX-License-Identifier: Apache-2.0 */
/*
 * timeattr (result): result.json's "time_attribution" section, from the
 * guest's stack samples folded by record/timeattr.h: per phase (insmod,
 * each sweep step, the sweep as a whole, rmmod), per call site, the
 * seconds, seconds per disk and share of the phase's wall time, and
 * how much of that wall time the samples account for (the closure).
 *
 *	timeattr_build(root, s, rs);	// after "sweep" and "guest_timings"
 *
 *	"time_attribution": {
 *	  "status": "ok" | "unavailable" | "none" (on, but nothing came),
 *	  "reason": why unavailable, or null,
 *	  "method": "proc_pid_stack",
 *	  "max_cpu_pct": the scenario's time_attribution_max_cpu_pct,
 *	  "closure_tolerance_pct": TIMEATTR_CLOSURE_TOLERANCE_PCT,
 *	  "cost": {"cpu_s", "span_s", "pct"}	// the sampler, all phases
 *	  "phases": [{
 *	    "phase": "insmod" | "rmmod" | "step-K" | "sweep",
 *	    "disks": disks made or removed in it (a step: |its change|),
 *	    "wall_s": the phase's own time (enumerate_s, rmmod_s, the step's
 *		      enumerate_s; the sweep: their sum), or null,
 *	    "complete", "samples", "interval_s" (span / samples), "span_s",
 *	    "cost_s", "cost_pct" (the sampler's CPU over the span),
 *	    "on_cpu_s", "wait_s", "idle_s",
 *	    "command_cpu_s" (schedstat), "command_sampled_cpu_s",
 *	    "closure": {"attributed_s", "wall_s", "pct", "tolerance_s", "closes"},
 *	    "sites": [{"site", "class", "comm", "s", "on_cpu_s", "wait_s",
 *		       "s_per_disk", "ms_per_disk", "share_pct", "stack"}],
 *	    "other_s", "stacks" (not for steps) ...
 *	  }],
 *	  "growth": {			// a sweep with three or more rising steps
 *	    "sites": [{"site", "class", "share_pct", "steps": [{"step", "disks",
 *		       "added", "s", "ms_per_disk"}], "fit": {ms_per_disk, fixed_s,
 *		       r2, p_quadratic, bend, nonlinear, marginal_first_ms,
 *		       marginal_last_ms}, "first_ms_per_disk",
 *		       "last_ms_per_disk", "growth"}]: the TIMEATTR_GROWTH_SITES
 *		largest over the rising steps,
 *	    "functions": the same by leaf function ("function": a site's
 *		first frame, its callers summed),
 *	    "growing_site", "growing_function": the call site (not "(no
 *		stack)", "(idle)" or "(user space)") and the function whose ms
 *		per disk grew most from the first rising step to the last,
 *		among those with at least TIMEATTR_GROWTH_MIN_SHARE_PCT of the
 *		rising steps' time; or null
 *	  }
 *	}
 *
 * The closure: the samples' time that went to a task (on the CPU or
 * waiting, not "(idle)") against the phase's wall time; it "closes"
 * within TIMEATTR_CLOSURE_TOLERANCE_PCT either way, or within two mean
 * sampling intervals where that is more (tolerance_s: what sampling can
 * resolve at either end of a short phase).  The samples span a
 * little more than the phase (the sampler starts just before it and stops
 * just after), and time when nothing was running or waiting is idle.
 * Without time_attribution and without records the section is absent.
 */
#ifndef SCALETEST_RESULT_TIMEATTR_H
#define SCALETEST_RESULT_TIMEATTR_H

#include <json.h>

#include "record/records.h"
#include "scenario/scenario.h"

#define TIMEATTR_CLOSURE_TOLERANCE_PCT 10
#define TIMEATTR_GROWTH_SITES 10
#define TIMEATTR_GROWTH_MIN_SHARE_PCT 5

void timeattr_build(json_object *root, const struct scenario *s, const struct records *rs);

#endif
