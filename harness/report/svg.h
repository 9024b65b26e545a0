/* SPDX-License-Identifier: Apache-2.0 */
/*
 * svg: the plots of the HTML pages, drawn as inline SVG (no script, no
 * font, nothing fetched), from the models of model.h.  A file per kind of
 * chart, on a small core (svg.c, svg_int.h: axes, legends, the sides'
 * colours):
 *
 * svg_phases.c, memory by phase:
 *	svg_phases(&sb, m.phases, m.nphases);	// a run's: grouped bars
 *	svg_phase_overlay(&sb, c.sides, c.nsides, PHASE_MEMFREE, "MemFree");
 *						// every side's, a line a side
 * svg_bars.c, bars:
 *	svg_hbars(&sb, "label", bars, n, "#59a14f", "#e15759");
 *						// signed horizontal bars (slab)
 *	svg_metric(&sb, &metric, c.sides, c.nsides);
 *						// a comparison's metric: a bar a side
 * svg_monitor.c, the monitor's samples against time:
 *	svg_monitor(&sb, &m);			// a run's, its steps shaded, lost
 *						// samples hatched
 *	svg_monitor_overlay(&sb, c.sides, c.nsides, 0, "MemFree");
 *						// every side's samples during
 *						// insmod (free memory above, slab below)
 * svg_sweep.c, a sweep against the disk count:
 *	svg_sweep(&sb, &m, 0);			// memory (1: time), points and
 *						// fitted lines
 * svg_curves.c, curves of a run's time:
 *	svg_run_curves(&sb, &m);		// the disks present against time, and
 *					// ms per disk against the disks present
 *	svg_series_curves(&sb, c.sides, c.nsides);	// every side's enumeration
 *					// on those two axes (compare --series)
 *	svg_curve_overlay(&sb, c.sides, c.nsides);
 *						// compare --series: ms per disk, range
 *						// by range, a line a side
 * svg_icicle.c, where a phase's time went:
 *	svg_icicle(&sb, "rmmod", stacks, n);
 *
 * A comparison's sides have one colour each, svg_side_color(k) (ten that
 * stay apart; the base is the first), and the overlays a legend naming
 * them "A: label", "B: label"...
 *
 * Each appends one <svg> element (or, when there is nothing to draw, a
 * <p class="note"> saying so) and never fails: missing values are left
 * out, axes get round ticks with thousands separators (format.h), and
 * every string is escaped with html_escape(), long ones cut.
 */
#ifndef SCALETEST_REPORT_SVG_H
#define SCALETEST_REPORT_SVG_H

#include <stddef.h>

#include "report/model.h"
#include "lib/strbuf.h"

struct svg_bar {
	const char *label;
	double v;		/* kB */
};

void svg_phases(struct strbuf *out, const struct report_phase *phases, size_t n);
void svg_hbars(struct strbuf *out, const char *label, const struct svg_bar *b, size_t n,
	       const char *pos_color, const char *neg_color);
void svg_monitor(struct strbuf *out, const struct report_model *m);
void svg_metric(struct strbuf *out, const struct compare_metric *m,
		const struct compare_side_model *sides, size_t nsides);
/* field: a phase's mem[] index (PHASE_MEMFREE, PHASE_LOWFREE), a sample's
 * v[] index (0 MemFree, 1 LowFree); field_name names it. */
void svg_phase_overlay(struct strbuf *out, const struct compare_side_model *sides, size_t nsides,
		       int field, const char *field_name);
void svg_monitor_overlay(struct strbuf *out, const struct compare_side_model *sides, size_t nsides,
			 int field, const char *field_name);
/* compare --series: every side's milliseconds per disk against the disks
 * present (its insmod curve, range by range), a line a side with the sd
 * as whiskers; nothing when no side has a curve. */
void svg_curve_overlay(struct strbuf *out, const struct compare_side_model *sides, size_t nsides);
const char *svg_side_color(size_t k);
/* A sweep (model.h): the memory figures (time = 0) or the summed
 * enumeration time (time = 1) at each step, with the fitted lines. */
void svg_sweep(struct strbuf *out, const struct report_model *m, int time);
/* Where a phase's time went (time_attribution's stacks): an icicle, the
 * phase on top, each frame under its caller, as wide as its seconds,
 * coloured from blue (waiting) to orange (on the CPU); each rectangle
 * names its frame and seconds in a <title>. */
void svg_icicle(struct strbuf *out, const char *title, const struct report_ta_stack *st,
		size_t n);


/* A curve of a run's time (model.h's report_time_curve, a comparison
 * side's): its points, the disks present against the seconds since its
 * phase began, and its time per disk against the disks present, with the
 * fit's cost of one more disk from (fit_x0, fit_y0) to (fit_x1, fit_y1)
 * (disks present, ms) when have_fit. */
struct svg_curve {
	const char *name, *color;
	const struct curve_point *pts;
	size_t npts;
	const struct curve_rate *rate;
	size_t nrate;
	int have_fit;
	double fit_x0, fit_y0, fit_x1, fit_y1;
};
/* Two charts of the curves, a line each: the disks present against the
 * seconds (xtitle), and the ms per disk against the disks present. */
void svg_curves(struct strbuf *out, const struct svg_curve *c, size_t n, const char *xtitle);
/* A run's curves (insmod, rmmod, a sweep's steps up and down). */
void svg_run_curves(struct strbuf *out, const struct report_model *m);
/* Every side's enumeration on one axis (compare --series). */
void svg_series_curves(struct strbuf *out, const struct compare_side_model *sides, size_t ns);

#endif
