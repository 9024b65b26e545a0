// SPDX-License-Identifier: Apache-2.0
/*
 * The core of the charts (svg_int.h): numbers, axes with round ticks, the
 * <svg> element, legends, and a comparison's sides; each chart is in its
 * own file (svg.h says which).
 */
#include "report/svg.h"
#include "report/svg_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* ---- numbers ---- */

double dabs(double v)
{
	return v < 0 ? -v : v;
}

double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* floor() and ceil() for |v| < 9e18, without libm. */
double dfloor(double v)
{
	double i = (double)(long long)clampd(v, -9e18, 9e18);

	return i > v ? i - 1 : i;
}

double dceil(double v)
{
	return -dfloor(-v);
}

/* ---- SVG building blocks ---- */

/* Seconds in a title or label, as every report writes them. */
void seconds(struct strbuf *out, double v)
{
	fmt_seconds(out, (struct num){ v, 1 });
}

double text_w(const char *s, size_t max)
{
	size_t n = utf8_len(s);

	return (double)(n > max ? max : n) * CHAR_W;
}

void axis_nice(struct axis *ax, double lo, double hi, int ticks)
{
	double raw, mag = 1, f;

	lo = clampd(isfinite(lo) ? lo : 0, -1e15, 1e15);
	hi = clampd(isfinite(hi) ? hi : 0, -1e15, 1e15);
	if (lo > hi) {
		double t = lo;
		lo = hi;
		hi = t;
	}
	if (hi - lo < 1e-9) {
		double d = dabs(lo) > 1e-9 ? dabs(lo) * 0.05 : 1;
		lo = lo == 0 ? 0 : lo - d;
		hi += d;
	}
	raw = (hi - lo) / ticks;
	while (mag * 10 <= raw)
		mag *= 10;
	while (mag > raw)
		mag /= 10;
	f = raw / mag;
	ax->step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * mag;
	ax->lo = dfloor(lo / ax->step + 1e-9) * ax->step;
	ax->hi = dceil(hi / ax->step - 1e-9) * ax->step;
	if (ax->hi <= ax->lo)
		ax->hi = ax->lo + ax->step;
	ax->decimals = 0;
	for (double s = ax->step; s - dfloor(s + 1e-9) > 1e-6 && ax->decimals < 6; s *= 10)
		ax->decimals++;
}

static int axis_ticks(const struct axis *ax)
{
	return (int)fmt_round((ax->hi - ax->lo) / ax->step);
}

static double axis_tick(const struct axis *ax, int i)
{
	double v = ax->lo + i * ax->step;

	return dabs(v) < ax->step * 1e-6 ? 0 : v;
}

static void add_tick_label(struct strbuf *out, const struct axis *ax, double v)
{
	if (ax->decimals)
		sb_addf(out, "%.*f", ax->decimals, v);
	else
		fmt_thousands_d(out, v);
}

/* Pixel position of v on an axis drawn from p0 (at lo) to p1 (at hi). */
double axis_pos(const struct axis *ax, double v, double p0, double p1)
{
	return p0 + (clampd(v, ax->lo, ax->hi) - ax->lo) / (ax->hi - ax->lo) * (p1 - p0);
}

void svg_open(struct strbuf *out, double w, double h, const char *cls, const char *label)
{
	sb_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"%s\" "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"",
		cls, w, h, w, h);
	html_escape(out, label);
	sb_adds(out, "\">\n");
}

/* Horizontal gridlines and labels of a y axis over [x0, x1], values from
 * y0 (bottom) to y1 (top), and its title turned on its side. */
void y_axis(struct strbuf *out, const struct axis *ax, double x0, double x1,
	    double y0, double y1, const char *title)
{
	for (int i = 0; i <= axis_ticks(ax); i++) {
		double v = axis_tick(ax, i), y = axis_pos(ax, v, y0, y1);
		sb_addf(out, "<line class=\"grid%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			v == 0 ? " zero" : "", x0, y, x1, y, x0 - 6, y + 4);
		add_tick_label(out, ax, v);
		sb_adds(out, "</text>\n");
	}
	sb_addf(out, "<text class=\"axt\" text-anchor=\"middle\" "
		"transform=\"translate(14,%.1f) rotate(-90)\">", (y0 + y1) / 2);
	html_escape(out, title);
	sb_adds(out, "</text>\n");
}

/* Vertical gridlines of an x axis over [y0, y1]; with labels, the tick
 * labels under y1 and the title (if not NULL) under them. */
void x_axis(struct strbuf *out, const struct axis *ax, double x0, double x1,
	    double y0, double y1, int labels, const char *title)
{
	for (int i = 0; i <= axis_ticks(ax); i++) {
		double v = axis_tick(ax, i), x = axis_pos(ax, v, x0, x1);
		sb_addf(out, "<line class=\"grid%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
			v == 0 ? " zero" : "", x, y0, x, y1);
		if (labels) {
			sb_addf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
				"text-anchor=\"middle\">", x, y1 + 15);
			add_tick_label(out, ax, v);
			sb_adds(out, "</text>");
		}
		sb_addch(out, '\n');
	}
	if (labels && title) {
		sb_addf(out, "<text class=\"axt\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			(x0 + x1) / 2, y1 + 32);
		html_escape(out, title);
		sb_adds(out, "</text>\n");
	}
}

/* A legend in a row from (x, y), each name cut at max characters;
 * returns its width. */
double legend_cut(struct strbuf *out, double x, double y, const struct key *k, size_t n,
		  size_t max)
{
	double x0 = x;

	for (size_t i = 0; i < n; i++) {
		if (k[i].kind != KEY_BOX)
			sb_addf(out, "<line class=\"key\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"%s\" stroke-width=\"2.5\"%s/>",
				x, y - 4, x + 16, y - 4, k[i].color,
				k[i].kind == KEY_DASH ? " stroke-dasharray=\"5 3\"" : "");
		else
			sb_addf(out, "<rect class=\"key\" x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" "
				"fill=\"%s\" stroke=\"#888\" stroke-width=\"0.5\"/>",
				x + 2, y - 10, k[i].color);
		sb_addf(out, "<text class=\"legend\" x=\"%.1f\" y=\"%.1f\">", x + 21, y);
		html_escape_cut(out, k[i].name, max);
		sb_adds(out, "</text>\n");
		x += 21 + text_w(k[i].name, max) + 18;
	}
	return x - x0;
}

double legend(struct strbuf *out, double x, double y, const struct key *k, size_t n)
{
	return legend_cut(out, x, y, k, n, 24);
}

/* ---- marks ---- */

void polyline_point(struct strbuf *pts, double x, double y, size_t *npts)
{
	sb_addf(pts, "%s%.1f,%.1f", *npts ? " " : "", x, y);
	(*npts)++;
}

void polyline_end(struct strbuf *out, struct strbuf *pts, size_t npts,
		  const char *cls, const char *color)
{
	if (npts > 1)
		sb_addf(out, "<polyline class=\"series %s\" fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"2\" stroke-linejoin=\"round\" points=\"%s\"/>\n",
			cls, color, pts->buf);
	sb_release(pts);
}

/* ---- a comparison's sides ---- */

/* The sides' colours (Tableau 10): the base first. */
static const char *const side_colors[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
};

const char *svg_side_color(size_t k)
{
	return side_colors[k % ARRAY_SIZE(side_colors)];
}

/* "A: label" for a legend or an axis; malloc'd. */
char *side_name(const struct compare_side_model *s, size_t k)
{
	return xstrfmt("%c: %s", fmt_side_letter(k), s->label ? s->label : "?");
}

/* A side's legend entries, one per side. */
struct key *side_keys(const struct compare_side_model *sides, size_t ns, char **names)
{
	struct key *k = xcalloc(ns + 1, sizeof(*k));

	for (size_t i = 0; i < ns; i++) {
		names[i] = side_name(&sides[i], i);
		k[i].name = names[i];
		k[i].color = svg_side_color(i);
		k[i].kind = KEY_LINE;
	}
	return k;
}

/* A side's legend: as many names to a row as fit in width. */
size_t legend_per_row(const struct key *k, size_t n, double width)
{
	double w = 0;

	for (size_t i = 0; i < n; i++)
		if (21 + text_w(k[i].name, LEGEND_MAX) + 18 > w)
			w = 21 + text_w(k[i].name, LEGEND_MAX) + 18;
	return w > 0 && width / w >= 1 ? (size_t)(width / w) : 1;
}

void legend_rows(struct strbuf *out, double x, double y, const struct key *k, size_t n,
		 size_t per_row)
{
	for (size_t i = 0; i < n; i += per_row)
		legend_cut(out, x, y + 18 * (double)(i / per_row), k + i,
			   n - i < per_row ? n - i : per_row, LEGEND_MAX);
}

/* The end of an overlay: its legend and closing tag; the side keys and
 * their names (side_keys) freed. */
void overlay_end(struct strbuf *out, double ml, struct key *keys, char **knames,
		 size_t ns, size_t per_row)
{
	legend_rows(out, ml, 18, keys, ns, per_row);
	sb_adds(out, "</svg>\n");
	for (size_t s = 0; s < ns; s++)
		free(knames[s]);
	free(knames);
	free(keys);
}

