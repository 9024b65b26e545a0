/* SPDX-License-Identifier: Apache-2.0 */
/*
 * svg_int: the core every chart of svg.h draws with (svg.c), for the chart
 * files only (svg_phases.c, svg_bars.c, svg_monitor.c, svg_sweep.c,
 * svg_curves.c, svg_icicle.c); nothing outside report/svg*.c includes it.
 *
 * A chart is one <svg> element: opened with its size, class and label,
 * then its axes (round ticks from axis_nice(), values placed with
 * axis_pos()), its marks, a legend of keys, and "</svg>\n":
 *
 *	struct axis ax, ay;
 *	axis_nice(&ax, xlo, xhi, 8);		// round ticks over [xlo, xhi]
 *	axis_nice(&ay, 0, yhi, 5);
 *	svg_open(out, W, H, "chart NAME", "what it shows, for a screen reader");
 *	y_axis(out, &ay, x0, x1, y0, y1, "kB");	// gridlines, tick labels, title
 *	x_axis(out, &ax, x0, x1, y1, y0, 1, "disks present");
 *	... marks at (axis_pos(&ax, x, x0, x1), axis_pos(&ay, y, y0, y1)),
 *	    a line's points through polyline_point() ...
 *	struct key k[] = { { "MemFree", "#4e79a7", KEY_LINE } };
 *	legend(out, ml, 18, k, 1);
 *	sb_adds(out, "</svg>\n");
 *
 * A comparison's charts name their sides with side_keys() (a line each, in
 * svg_side_color(k), "A: label") and end with overlay_end(), which writes
 * the legend in rows and frees the keys.  Every string a chart writes goes
 * through html_escape() and every number through format.h.
 *
 * Only isfinite() and NAN come from math.h (macros): nothing here needs
 * libm (dfloor and dceil below are floor() and ceil() without it).
 */
#ifndef SCALETEST_REPORT_SVG_INT_H
#define SCALETEST_REPORT_SVG_INT_H

#include <stddef.h>

#include "lib/strbuf.h"
#include "report/model.h"

/* ---- numbers ---- */

double dabs(double v);
double clampd(double v, double lo, double hi);
/* floor() and ceil() for |v| < 9e18, without libm. */
double dfloor(double v);
double dceil(double v);

/* ---- text ---- */

#define CHAR_W 6.6	/* a generous average width of an 11px sans-serif glyph */

/* Seconds in a title or label, as every report writes them. */
void seconds(struct strbuf *out, double v);
/* The width of s in px, cut at max characters. */
double text_w(const char *s, size_t max);

/* ---- axes ---- */

/* A value axis with round ticks: lo, lo + step, ... hi. */
struct axis {
	double lo, hi, step;
	int decimals;
};

/* Round ticks over [lo, hi], about ticks of them (a span of nothing
 * widened around its value). */
void axis_nice(struct axis *ax, double lo, double hi, int ticks);
/* Pixel position of v on an axis drawn from p0 (at lo) to p1 (at hi). */
double axis_pos(const struct axis *ax, double v, double p0, double p1);
/* <svg ...> of w x h px, its class cls and its aria-label. */
void svg_open(struct strbuf *out, double w, double h, const char *cls, const char *label);
/* Horizontal gridlines and labels of a y axis over [x0, x1], values from
 * y0 (bottom) to y1 (top), and its title turned on its side. */
void y_axis(struct strbuf *out, const struct axis *ax, double x0, double x1,
	    double y0, double y1, const char *title);
/* Vertical gridlines of an x axis over [y0, y1]; with labels, the tick
 * labels under y1 and the title (if not NULL) under them. */
void x_axis(struct strbuf *out, const struct axis *ax, double x0, double x1,
	    double y0, double y1, int labels, const char *title);

/* ---- marks ---- */

/* A point appended to a polyline's points attribute (*npts counts them). */
void polyline_point(struct strbuf *pts, double x, double y, size_t *npts);

/* The line through a series' points (none when it has fewer than two),
 * of class "series CLASS" in COLOR; releases PTS. */
void polyline_end(struct strbuf *out, struct strbuf *pts, size_t npts,
		  const char *cls, const char *color);

/* A figure drawn as a series: its name, which value (phase:
 * report_phase.mem[k]; sample: report_sample.v[k]), its colour, and the
 * stroke-dasharray of its line (NULL: solid). */
struct field_series {
	const char *name;
	int k;			/* phase: report_phase.mem[k]; sample: report_sample.v[k] */
	const char *color;
	const char *dash;	/* stroke-dasharray of its line, or NULL */
};

/* ---- legends ---- */

enum { KEY_BOX, KEY_LINE, KEY_DASH };

struct key {
	const char *name;
	const char *color;
	int kind;
};

/* A legend in a row from (x, y), each name cut at max characters;
 * returns its width. */
double legend_cut(struct strbuf *out, double x, double y, const struct key *k, size_t n,
		  size_t max);
/* The same, names cut at 24 characters. */
double legend(struct strbuf *out, double x, double y, const struct key *k, size_t n);
/* A comparison's legend: names of up to LEGEND_MAX characters, as many to
 * a row as fit in width (legend_per_row), the rows from (x, y), 18 px
 * apart (legend_rows). */
#define LEGEND_MAX 60
size_t legend_per_row(const struct key *k, size_t n, double width);
void legend_rows(struct strbuf *out, double x, double y, const struct key *k, size_t n,
		 size_t per_row);

/* ---- a comparison's sides ---- */

/* "A: label" for a legend or an axis; malloc'd. */
char *side_name(const struct compare_side_model *s, size_t k);
/* A legend entry per side, a line in its colour; names[k] gets side_name(). */
struct key *side_keys(const struct compare_side_model *sides, size_t ns, char **names);
/* The end of an overlay: its legend and closing tag; the side keys and
 * their names (side_keys) freed. */
void overlay_end(struct strbuf *out, double ml, struct key *keys, char **knames,
		 size_t ns, size_t per_row);

#endif
