// SPDX-License-Identifier: Apache-2.0
/*
 * Curves of a run's time (svg.h): the disks present against the seconds
 * since a phase began, and the ms per disk against the disks present with
 * the fitted cost of one more disk; a run's phases (svg_run_curves) or a
 * comparison's sides (svg_series_curves), a line each, two charts
 * (svg_curves).
 */
#include "report/svg.h"
#include "report/svg_int.h"

#include <stdlib.h>

#include "lib/util.h"

/* ---- charts: disks against time, time per disk against disks ---- */

/* A line of a chart: its points, and a dashed line (a fit) if any. */
struct line {
	const char *name, *color;
	double *x, *y;
	size_t n;
	int dots, have_fit;
	double fx0, fy0, fx1, fy1;
};

/* Lines against two value axes, with a legend; nothing drawn (a note
 * instead) when no line has a point. */
static void line_chart(struct strbuf *out, const char *cls, const char *label,
		       const char *xtitle, const char *ytitle, const struct line *l, size_t n,
		       const char *fit_name)
{
	const double W = 900, ml = 90, mr = 16, ph = 240;
	double xlo = 0, xhi = 0, yhi = 0, top, H, y0, y1, x0 = ml, x1 = W - mr;
	struct key *keys = xcalloc(n + 2, sizeof(*keys));
	struct axis ax, ay;
	size_t nk = 0, per_row;
	int any = 0, any_fit = 0;

	for (size_t k = 0; k < n; k++) {
		for (size_t i = 0; i < l[k].n; i++) {
			xlo = !any || l[k].x[i] < xlo ? l[k].x[i] : xlo;
			xhi = !any || l[k].x[i] > xhi ? l[k].x[i] : xhi;
			yhi = !any || l[k].y[i] > yhi ? l[k].y[i] : yhi;
			any = 1;
		}
		if (l[k].n && l[k].have_fit) {
			yhi = l[k].fy0 > yhi ? l[k].fy0 : yhi;
			yhi = l[k].fy1 > yhi ? l[k].fy1 : yhi;
			any_fit = 1;
		}
		if (l[k].n) {
			keys[nk].name = l[k].name;
			keys[nk].color = l[k].color;
			keys[nk++].kind = KEY_LINE;
		}
	}
	if (!any) {
		sb_adds(out, "<p class=\"note\">Nothing to draw: no curve has points.</p>\n");
		free(keys);
		return;
	}
	if (any_fit && fit_name) {
		keys[nk].name = fit_name;
		keys[nk].color = "#777";
		keys[nk++].kind = KEY_DASH;
	}
	per_row = legend_per_row(keys, nk, W - ml - mr);
	top = 16 + 18 * (double)((nk + per_row - 1) / per_row);
	H = top + ph + 48;
	y0 = top + ph;
	y1 = top;
	axis_nice(&ax, xlo < 0 ? xlo : 0, xhi, 8);
	axis_nice(&ay, 0, yhi, 5);
	svg_open(out, W, H, cls, label);
	y_axis(out, &ay, x0, x1, y0, y1, ytitle);
	x_axis(out, &ax, x0, x1, y1, y0, 1, xtitle);
	for (size_t k = 0; k < n; k++) {
		struct strbuf pts = STRBUF_INIT;
		size_t np = 0;

		if (!l[k].n)
			continue;
		if (l[k].have_fit)
			sb_addf(out, "<line class=\"fit\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>\n",
				axis_pos(&ax, l[k].fx0, x0, x1), axis_pos(&ay, l[k].fy0, y0, y1),
				axis_pos(&ax, l[k].fx1, x0, x1), axis_pos(&ay, l[k].fy1, y0, y1),
				l[k].color);
		for (size_t i = 0; i < l[k].n; i++) {
			double x = axis_pos(&ax, l[k].x[i], x0, x1), y = axis_pos(&ay, l[k].y[i], y0, y1);

			polyline_point(&pts, x, y, &np);
			if (!l[k].dots)
				continue;
			sb_addf(out, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"><title>",
				x, y, l[k].color);
			html_escape(out, l[k].name);
			sb_adds(out, ": ");
			fmt_value(out, l[k].y[i]);
			sb_adds(out, " at ");
			fmt_thousands_d(out, l[k].x[i]);
			sb_adds(out, "</title></circle>\n");
		}
		polyline_end(out, &pts, np, "curve", l[k].color);
	}
	sb_addf(out, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
		x0, y1, x1 - x0, y0 - y1);
	legend_rows(out, ml, 18, keys, nk, per_row);
	sb_adds(out, "</svg>\n");
	free(keys);
}

static const char *const curve_colors[] = { "#4e79a7", "#e15759", "#59a14f", "#b07aa1" };

/* Each curve as two lines: disks present against seconds (a), ms per
 * disk against disks present (b), with the fit's marginal cost. */
static void curve_lines(const struct svg_curve *c, size_t n, struct line *a, struct line *b)
{
	for (size_t k = 0; k < n; k++) {
		a[k] = (struct line){ .name = c[k].name, .color = c[k].color, .n = c[k].npts };
		a[k].x = xcalloc(c[k].npts + 1, sizeof(double));
		a[k].y = xcalloc(c[k].npts + 1, sizeof(double));
		for (size_t i = 0; i < c[k].npts; i++) {
			a[k].x[i] = c[k].pts[i].s;
			a[k].y[i] = c[k].pts[i].disks;
		}
		b[k] = (struct line){ .name = c[k].name, .color = c[k].color, .n = c[k].nrate,
				      .dots = 1, .have_fit = c[k].have_fit, .fx0 = c[k].fit_x0,
				      .fy0 = c[k].fit_y0, .fx1 = c[k].fit_x1, .fy1 = c[k].fit_y1 };
		b[k].x = xcalloc(c[k].nrate + 1, sizeof(double));
		b[k].y = xcalloc(c[k].nrate + 1, sizeof(double));
		for (size_t i = 0; i < c[k].nrate; i++) {
			b[k].x[i] = c[k].rate[i].disks;
			b[k].y[i] = c[k].rate[i].ms;
		}
	}
}

void svg_curves(struct strbuf *out, const struct svg_curve *c, size_t n, const char *xtitle)
{
	struct line *a = xcalloc(n + 1, sizeof(*a)), *b = xcalloc(n + 1, sizeof(*b));

	curve_lines(c, n, a, b);
	line_chart(out, "chart curves disks-time",
		   "disks present against the seconds since each phase began, a line a phase",
		   xtitle, "disks present", a, n, NULL);
	line_chart(out, "chart curves ms-per-disk",
		   "milliseconds per disk against the disks present, with the fitted cost of one "
		   "more disk", "disks present", "ms per disk", b, n, "fitted cost of one more disk");
	for (size_t k = 0; k < n; k++) {
		free(a[k].x);
		free(a[k].y);
		free(b[k].x);
		free(b[k].y);
	}
	free(a);
	free(b);
}

void svg_run_curves(struct strbuf *out, const struct report_model *m)
{
	struct svg_curve c[ARRAY_SIZE(m->curves)];
	size_t n = 0;

	for (size_t i = 0; i < m->ncurves && n < ARRAY_SIZE(c); i++) {
		const struct report_time_curve *t = &m->curves[i];

		if (!t->npts)
			continue;
		c[n] = (struct svg_curve){ .name = t->what, .color = curve_colors[n],
					   .pts = t->pts, .npts = t->npts, .rate = t->rate,
					   .nrate = t->nrate };
		if (t->have && t->marginal_first.have && t->marginal_last.have) {
			c[n].have_fit = 1;
			c[n].fit_x0 = t->first_disks;
			c[n].fit_y0 = t->marginal_first.v;
			c[n].fit_x1 = t->last_disks;
			c[n].fit_y1 = t->marginal_last.v;
		}
		n++;
	}
	svg_curves(out, c, n, "seconds since the phase began (a sweep: its steps' time summed)");
}

void svg_series_curves(struct strbuf *out, const struct compare_side_model *sides, size_t ns)
{
	struct svg_curve *c = xcalloc(ns + 1, sizeof(*c));
	char **names = xcalloc(ns + 1, sizeof(*names));

	for (size_t k = 0; k < ns; k++) {
		names[k] = side_name(&sides[k], k);
		c[k] = (struct svg_curve){ .name = names[k], .color = svg_side_color(k),
					   .pts = sides[k].curve, .npts = sides[k].ncurve,
					   .rate = sides[k].curve_rate, .nrate = sides[k].ncurve_rate };
	}
	svg_curves(out, c, ns, "seconds since insmod began (a sweep: its rising steps' time summed)");
	for (size_t k = 0; k < ns; k++)
		free(names[k]);
	free(names);
	free(c);
}


/* ---- chart: compare --series' time per disk, range by range, a line a side ---- */

void svg_curve_overlay(struct strbuf *out, const struct compare_side_model *sides, size_t ns)
{
	const double W = 900, ml = 90, mr = 16, ph = 240;
	double xhi = 0, ylo = 0, yhi = 0;
	int any = 0;

	for (size_t s = 0; s < ns; s++)
		for (size_t i = 0; i < sides[s].nbins; i++) {
			const struct compare_curve_bin *b = &sides[s].bins[i];
			double sd = b->sd.have ? dabs(b->sd.v) : 0;

			xhi = !any || b->to.v > xhi ? b->to.v : xhi;
			yhi = !any || b->ms.v + sd > yhi ? b->ms.v + sd : yhi;
			ylo = b->ms.v - sd < ylo ? b->ms.v - sd : ylo;
			any = 1;
		}
	if (!any)
		return;

	char **knames = xcalloc(ns + 1, sizeof(*knames));
	struct key *keys = side_keys(sides, ns, knames);
	size_t per_row = legend_per_row(keys, ns, W - ml - mr);
	double top = 16 + 18 * (double)((ns + per_row - 1) / per_row);
	double H = top + ph + 48, y0 = top + ph, y1 = top, x0 = ml, x1 = W - mr;
	struct axis ax, ay;

	axis_nice(&ax, 0, xhi, 8);
	axis_nice(&ay, ylo, yhi, 5);
	svg_open(out, W, H, "chart overlay curve",
		 "milliseconds per disk against the disks present, one line per side");
	y_axis(out, &ay, x0, x1, y0, y1, "ms per disk");
	x_axis(out, &ax, x0, x1, y1, y0, 1, "disks present");
	for (size_t s = 0; s < ns; s++) {
		struct strbuf pts = STRBUF_INIT;
		size_t npts = 0;

		for (size_t i = 0; i < sides[s].nbins; i++) {
			const struct compare_curve_bin *b = &sides[s].bins[i];
			double x = axis_pos(&ax, (b->from.v + b->to.v) / 2, x0, x1);
			double y = axis_pos(&ay, b->ms.v, y0, y1);

			polyline_point(&pts, x, y, &npts);
			if (b->sd.have && b->sd.v != 0)
				sb_addf(out, "<line class=\"err\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
					"y2=\"%.1f\" stroke=\"%s\"/>\n", x,
					axis_pos(&ay, b->ms.v - dabs(b->sd.v), y0, y1), x,
					axis_pos(&ay, b->ms.v + dabs(b->sd.v), y0, y1), svg_side_color(s));
			sb_addf(out, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>",
				x, y, svg_side_color(s));
			html_escape(out, knames[s]);
			sb_adds(out, ", disks ");
			fmt_thousands_d(out, b->from.v);
			sb_adds(out, " to ");
			fmt_thousands_d(out, b->to.v);
			sb_adds(out, ": ");
			fmt_value(out, b->ms.v);
			if (b->sd.have) {
				sb_adds(out, " \xc2\xb1 ");
				fmt_value(out, b->sd.v);
			}
			sb_adds(out, " ms per disk</title></circle>\n");
		}
		polyline_end(out, &pts, npts, "side", svg_side_color(s));
	}
	overlay_end(out, ml, keys, knames, ns, per_row);
}
