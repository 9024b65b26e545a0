// SPDX-License-Identifier: Apache-2.0
#include "report/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/*
 * Only isfinite() and NAN come from math.h (macros): nothing here needs
 * libm.
 */

/* ---- numbers ---- */

static double dabs(double v)
{
	return v < 0 ? -v : v;
}

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* floor() and ceil() for |v| < 9e18, without libm. */
static double dfloor(double v)
{
	double i = (double)(long long)clampd(v, -9e18, 9e18);

	return i > v ? i - 1 : i;
}

static double dceil(double v)
{
	return -dfloor(-v);
}

/* ---- SVG building blocks ---- */

#define CHAR_W 6.6	/* a generous average width of an 11px sans-serif glyph */

/* Seconds in a title or label, as every report writes them. */
static void seconds(struct strbuf *out, double v)
{
	fmt_seconds(out, (struct num){ v, 1 });
}

static double text_w(const char *s, size_t max)
{
	size_t n = utf8_len(s);

	return (double)(n > max ? max : n) * CHAR_W;
}

/* A value axis with round ticks: lo, lo + step, ... hi. */
struct axis {
	double lo, hi, step;
	int decimals;
};

static void axis_nice(struct axis *ax, double lo, double hi, int ticks)
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
static double axis_pos(const struct axis *ax, double v, double p0, double p1)
{
	return p0 + (clampd(v, ax->lo, ax->hi) - ax->lo) / (ax->hi - ax->lo) * (p1 - p0);
}

static void svg_open(struct strbuf *out, double w, double h, const char *cls, const char *label)
{
	sb_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"%s\" "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"",
		cls, w, h, w, h);
	html_escape(out, label);
	sb_adds(out, "\">\n");
}

/* Horizontal gridlines and labels of a y axis over [x0, x1], values from
 * y0 (bottom) to y1 (top), and its title turned on its side. */
static void y_axis(struct strbuf *out, const struct axis *ax, double x0, double x1,
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
static void x_axis(struct strbuf *out, const struct axis *ax, double x0, double x1,
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

enum { KEY_BOX, KEY_LINE, KEY_DASH };

struct key {
	const char *name;
	const char *color;
	int kind;
};

/* A legend in a row from (x, y), each name cut at max characters;
 * returns its width. */
static double legend_cut(struct strbuf *out, double x, double y, const struct key *k, size_t n,
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

static double legend(struct strbuf *out, double x, double y, const struct key *k, size_t n)
{
	return legend_cut(out, x, y, k, n, 24);
}

/* Hatching for lost monitor samples. */
static void defs_hatch(struct strbuf *out)
{
	sb_adds(out, "<defs><pattern id=\"gaphatch\" width=\"6\" height=\"6\" "
		"patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
		"<rect width=\"6\" height=\"6\" fill=\"#fbe3e3\"/>"
		"<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#d62728\" stroke-width=\"2\"/>"
		"</pattern></defs>\n");
}

/* ---- chart: grouped bars (memory by phase) ---- */

static const char *name_of(const struct report_phase *p)
{
	return p->name ? p->name : "?";
}

struct field_series {
	const char *name;
	int k;			/* phase: report_phase.mem[k]; sample: report_sample.v[k] */
	const char *color;
	const char *dash;	/* stroke-dasharray of its line, or NULL */
};

static const struct field_series phase_series[] = {
	{ "MemFree", PHASE_MEMFREE, "#4e79a7", NULL },
	{ "LowFree", PHASE_LOWFREE, "#f28e2b", NULL },
	{ "Slab", PHASE_SLAB, "#59a14f", NULL },
};

void svg_phases(struct strbuf *out, const struct report_phase *phases, size_t np)
{
	const struct field_series *ser[ARRAY_SIZE(phase_series)];
	struct key keys[ARRAY_SIZE(phase_series)];
	size_t ns = 0;
	double lo = 0, hi = 0, v, maxlab = 0;
	const double W = 900, ml = 90, mr = 16, top = 34, ph = 240;
	struct axis ax;

	for (size_t s = 0; s < ARRAY_SIZE(phase_series); s++) {
		int any = 0;
		for (size_t i = 0; i < np; i++) {
			if (!phases[i].mem[phase_series[s].k].have)
				continue;
			v = phases[i].mem[phase_series[s].k].v;
			any = 1;
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
		if (any) {
			keys[ns].name = phase_series[s].name;
			keys[ns].color = phase_series[s].color;
			keys[ns].kind = KEY_BOX;
			ser[ns++] = &phase_series[s];
		}
	}
	if (!ns) {
		sb_adds(out, "<p class=\"note\">No phase has memory figures.</p>\n");
		return;
	}
	axis_nice(&ax, lo, hi, 5);
	for (size_t i = 0; i < np; i++) {
		double w = text_w(name_of(&phases[i]), 24);
		maxlab = w > maxlab ? w : maxlab;
	}

	double gw = (W - ml - mr) / (double)np;
	int rot = maxlab > gw - 8;
	double bottom = rot ? 24 + maxlab * 0.6 : 30;
	double H = top + ph + bottom, y0 = top + ph, y1 = top;
	double bw = gw * 0.8 / (double)ns;
	double zero = axis_pos(&ax, 0, y0, y1);

	bw = bw > 44 ? 44 : bw;
	svg_open(out, W, H, "chart phases", "memory by phase, kB");
	y_axis(out, &ax, ml, W - mr, y0, y1, "kB");
	for (size_t i = 0; i < np; i++) {
		const struct report_phase *p = &phases[i];
		double gx = ml + (double)i * gw + (gw - bw * (double)ns) / 2;

		for (size_t s = 0; s < ns; s++) {
			if (!p->mem[ser[s]->k].have)
				continue;
			v = p->mem[ser[s]->k].v;
			double y = axis_pos(&ax, v, y0, y1);
			sb_addf(out, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.1f\" fill=\"%s\"><title>",
				gx + (double)s * bw, y < zero ? y : zero, bw > 2 ? bw - 1 : bw,
				dabs(zero - y), ser[s]->color);
			html_escape(out, name_of(p));
			sb_addf(out, " %s: ", ser[s]->name);
			fmt_kb(out, (struct num){ v, 1 });
			sb_adds(out, "</title></rect>\n");
		}
		double cx = ml + ((double)i + 0.5) * gw;
		if (rot)
			sb_addf(out, "<text class=\"cat\" text-anchor=\"end\" "
				"transform=\"translate(%.1f,%.1f) rotate(-35)\">", cx + 4, y0 + 14);
		else
			sb_addf(out, "<text class=\"cat\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
				cx, y0 + 18);
		html_escape_cut(out, name_of(p), 24);
		sb_adds(out, "</text>\n");
	}
	sb_addf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		ml, zero, W - mr, zero);
	legend(out, ml, 18, keys, ns);
	sb_adds(out, "</svg>\n");
}

/* ---- chart: horizontal bars, signed (slab growth, slab changes) ---- */

void svg_hbars(struct strbuf *out, const char *label, const struct svg_bar *b, size_t n,
	       const char *pos_color, const char *neg_color)
{
	const double W = 900, mr = 16, top = 8, row = 22, maxchars = 40;
	double lo = 0, hi = 0, lw = 80, padl = 0, padr = 90;
	struct axis ax;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		double w = text_w(b[i].label, (size_t)maxchars) + 16;
		lw = w > lw ? w : lw;
		lo = b[i].v < lo ? b[i].v : lo;
		hi = b[i].v > hi ? b[i].v : hi;
	}
	lw = lw > 290 ? 290 : lw;
	if (lo < 0)
		padl = 90;
	axis_nice(&ax, lo, hi, 5);

	double H = top + row * (double)n + 46, x0 = lw + padl, x1 = W - mr - padr;
	double zero = axis_pos(&ax, 0, x0, x1), ybot = top + row * (double)n;

	svg_open(out, W, H, "chart hbars", label);
	x_axis(out, &ax, x0, x1, top, ybot, 1, "kB");
	for (size_t i = 0; i < n; i++) {
		double x = axis_pos(&ax, b[i].v, x0, x1), y = top + row * (double)i;
		int neg = b[i].v < 0;

		sb_addf(out, "<text class=\"cat\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			lw - 8, y + row / 2 + 4);
		html_escape_cut(out, b[i].label, (size_t)maxchars);
		sb_addf(out, "</text><rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" fill=\"%s\"><title>",
			neg ? x : zero, y + 3, dabs(x - zero), row - 6, neg ? neg_color : pos_color);
		html_escape(out, b[i].label);
		sb_adds(out, ": ");
		fmt_signed_kb(out, (struct num){ b[i].v, 1 });
		sb_addf(out, "</title></rect><text class=\"val\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
			neg ? x - 5 : x + 5, y + row / 2 + 4, neg ? "end" : "start");
		fmt_signed_kb(out, (struct num){ b[i].v, 1 });
		sb_adds(out, "</text>\n");
	}
	sb_addf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		zero, top, zero, ybot);
	sb_adds(out, "</svg>\n");
}

/* ---- chart: the monitor's time series ---- */

static const struct field_series sample_series[] = {
	{ "MemFree", 0, "#4e79a7", NULL },
	/* dashed: without HIGHMEM (a small i386 guest) it lies on MemFree */
	{ "LowFree", 1, "#f28e2b", "7 4" },
	{ "Slab", 2, "#59a14f", NULL },
};

static const struct {
	const char *step;
	const char *color;
} step_colors[] = {
	{ "insmod", "#fde9d2" },
	{ "virtio", "#dde9f6" },
	{ "io", "#e3f2dd" },
	{ "rmmod", "#efe2f3" },
};

static const char *step_color(const char *step)
{
	for (size_t i = 0; i < ARRAY_SIZE(step_colors); i++)
		if (!strcmp(step, step_colors[i].step))
			return step_colors[i].color;
	return "#eeeeee";
}

/*
 * One series as polylines, broken where a sample is missing (a gap in n)
 * or has no value.  Within one pixel column only the lowest and the highest
 * point are kept, in their order, so that thousands of samples make a path
 * of at most two points per column and no peak is lost.
 */
struct column {
	long x;
	size_t lo, hi;		/* indexes of the lowest and highest value */
	int open;
};

static void polyline_point(struct strbuf *pts, double x, double y, size_t *npts)
{
	sb_addf(pts, "%s%.1f,%.1f", *npts ? " " : "", x, y);
	(*npts)++;
}

static void column_flush(struct strbuf *out, struct column *c, const struct report_sample *s, int k,
			 const struct axis *ax, double x0, double x1, const struct axis *ay,
			 double y0, double y1, size_t *npts)
{
	size_t a = c->lo < c->hi ? c->lo : c->hi, b = c->lo < c->hi ? c->hi : c->lo;

	if (!c->open)
		return;
	polyline_point(out, axis_pos(ax, s[a].t, x0, x1), axis_pos(ay, s[a].v[k], y0, y1), npts);
	if (b != a)
		polyline_point(out, axis_pos(ax, s[b].t, x0, x1), axis_pos(ay, s[b].v[k], y0, y1), npts);
	c->open = 0;
}

static void segment(struct strbuf *out, const struct report_sample *s, size_t from, size_t to, int k,
		    const struct field_series *fs, const struct axis *ax, double x0, double x1,
		    const struct axis *ay, double y0, double y1)
{
	struct column c = { 0, 0, 0, 0 };
	struct strbuf pts = STRBUF_INIT;
	size_t npts = 0;

	for (size_t i = from; i < to; i++) {
		long x = (long)dfloor(axis_pos(ax, s[i].t, x0, x1));
		if (!c.open || x != c.x) {
			column_flush(&pts, &c, s, k, ax, x0, x1, ay, y0, y1, &npts);
			c.x = x;
			c.lo = c.hi = i;
			c.open = 1;
			continue;
		}
		if (s[i].v[k] < s[c.lo].v[k])
			c.lo = i;
		if (s[i].v[k] > s[c.hi].v[k])
			c.hi = i;
	}
	column_flush(&pts, &c, s, k, ax, x0, x1, ay, y0, y1, &npts);
	if (npts > 1) {
		sb_addf(out, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
			"stroke-linejoin=\"round\"", fs->color);
		if (fs->dash)
			sb_addf(out, " stroke-dasharray=\"%s\"", fs->dash);
		sb_addf(out, " points=\"%s\"/>\n", pts.buf);
	}
	else	/* one sample, or several in one pixel and flat: a dot */
		sb_addf(out, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
			axis_pos(ax, s[from].t, x0, x1), axis_pos(ay, s[from].v[k], y0, y1), fs->color);
	sb_release(&pts);
}

static void series(struct strbuf *out, const struct report_sample *s, size_t n, int k, 
		   const struct field_series *fs,
		   const struct axis *ax, double x0, double x1, const struct axis *ay,
		   double y0, double y1)
{
	size_t start = 0;

	for (size_t i = 0; i <= n; i++) {
		int brk = i == n || !isfinite(s[i].v[k]) ||
			  (i > start && s[i].n > s[i - 1].n + 1);
		if (!brk)
			continue;
		if (i > start)
			segment(out, s, start, i, k, fs, ax, x0, x1, ay, y0, y1);
		start = i < n && isfinite(s[i].v[k]) ? i : i + 1;
	}
}

/* Value range of series k; 0 if it has no value at all. */
static int series_range(const struct report_sample *s, size_t n, int k, double *lo, double *hi)
{
	int any = 0;

	for (size_t i = 0; i < n; i++) {
		if (!isfinite(s[i].v[k]))
			continue;
		if (!any || s[i].v[k] < *lo)
			*lo = s[i].v[k];
		if (!any || s[i].v[k] > *hi)
			*hi = s[i].v[k];
		any = 1;
	}
	return any;
}

#define GAPS_DRAWN 200

/* The time where sample number n sits: that sample's, or NAN. */
static double time_of_n(const struct report_sample *s, size_t ns, double n, int before)
{
	double t = NAN, best = NAN;

	for (size_t i = 0; i < ns; i++) {
		if (before ? s[i].n < n && !(s[i].n <= best) : s[i].n > n && !(s[i].n >= best)) {
			best = s[i].n;
			t = s[i].t;
		}
	}
	return t;
}

void svg_monitor(struct strbuf *out, const struct report_model *m)
{
	const struct report_sample *s = m->samples;
	size_t n = m->nsamples, nkeys = 0, nsteps = 0;
	struct key keys[ARRAY_SIZE(sample_series) + ARRAY_SIZE(step_colors) + 2];
	const char *steps_seen[ARRAY_SIZE(step_colors) + 1];
	const double W = 900, ml = 90, mr = 16, top0 = 34, h0 = 210, top1 = 282, h1 = 110;
	double tlo = 0, thi = 0, lo, hi;
	int have[3];
	struct axis ax, ay0, ay1;

	for (size_t i = 0; i < n; i++) {
		tlo = !i || s[i].t < tlo ? s[i].t : tlo;
		thi = !i || s[i].t > thi ? s[i].t : thi;
	}
	if (!n) {
		sb_adds(out, "<p class=\"note\">No monitor sample has a time.</p>\n");
		return;
	}
	/* The last step ends at the first phase measured after the last sample
	 * (after-rmmod ends rmmod), or with that sample. */
	double tend = thi;
	for (size_t i = 0; i < m->nphases; i++) {
		double pt = m->phases[i].uptime_s.v;
		if (m->phases[i].uptime_s.have && pt > thi && (tend == thi || pt < tend))
			tend = pt;
	}
	axis_nice(&ax, tlo, tend, 8);
	double flo[2] = { 0, 0 }, fhi[2] = { 0, 0 };
	have[0] = series_range(s, n, 0, &flo[0], &fhi[0]);
	have[1] = series_range(s, n, 1, &flo[1], &fhi[1]);
	if (have[0] && have[1]) {
		lo = flo[0] < flo[1] ? flo[0] : flo[1];
		hi = fhi[0] > fhi[1] ? fhi[0] : fhi[1];
	} else {
		lo = have[1] ? flo[1] : flo[0];
		hi = have[1] ? fhi[1] : fhi[0];
	}
	axis_nice(&ay0, lo, hi, 4);
	lo = hi = 0;
	have[2] = series_range(s, n, 2, &lo, &hi);
	axis_nice(&ay1, lo, hi, 3);

	double H = top1 + h1 + 44, x0 = ml, x1 = W - mr;
	svg_open(out, W, H, "chart monitor", "memory against guest uptime, kB");
	defs_hatch(out);

	/* The steps, shaded; a step runs until the next one's first sample.
	 * Their labels go on top of everything but the lines, after the gaps. */
	struct strbuf labels = STRBUF_INIT;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && !strcmp(s[j].step, s[i].step))
			j++;
		double xa = axis_pos(&ax, s[i].t, x0, x1);
		double xb = axis_pos(&ax, j < n ? s[j].t : tend, x0, x1);
		if (xb - xa < 3)
			xb = xa + 3;
		sb_addf(out, "<rect class=\"step\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"%s\"><title>step ", xa, top0, xb - xa, top1 + h1 - top0,
			step_color(s[i].step));
		html_escape(out, s[i].step);
		sb_adds(out, ": ");
		seconds(out, s[i].t);
		sb_adds(out, " to ");
		seconds(out, j < n ? s[j].t : tend);
		sb_adds(out, "</title></rect>\n");
		if (xb - xa >= text_w(s[i].step, 12) + 6) {
			sb_addf(&labels, "<text class=\"steplabel\" x=\"%.1f\" y=\"%.1f\">", xa + 3, top0 + 12);
			html_escape_cut(&labels, s[i].step, 12);
			sb_adds(&labels, "</text>\n");
		}
		size_t k;
		for (k = 0; k < nsteps && strcmp(steps_seen[k], s[i].step); k++)
			;
		if (k == nsteps && nsteps < ARRAY_SIZE(step_colors) + 1)
			steps_seen[nsteps++] = s[i].step;
		i = j;
	}

	/* Lost samples: from the one before the gap to the one after it. */
	size_t ngaps = 0;
	double label_end = 0;
	for (size_t i = 0; i < m->ngaps && ngaps < GAPS_DRAWN; i++) {
		double a = m->gaps[i].first, b = m->gaps[i].last;
		double ta = time_of_n(s, n, a, 1), tb = time_of_n(s, n, b, 0);
		double xa = isfinite(ta) ? axis_pos(&ax, ta, x0, x1) : x0;
		double xb = isfinite(tb) ? axis_pos(&ax, tb, x0, x1) : x1;
		if (xb - xa < 4)
			xb = xa + 4;
		sb_addf(out, "<rect class=\"gap\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"url(#gaphatch)\" opacity=\"0.8\"><title>samples %lld..%lld lost</title></rect>\n",
			xa, top0, xb - xa, top1 + h1 - top0, fmt_round(a), fmt_round(b));
		if (xa >= label_end) {	/* labels of gaps close together would overlap */
			struct strbuf l = STRBUF_INIT;
			sb_addf(&l, "lost %lld..%lld", fmt_round(a), fmt_round(b));
			sb_addf(out, "<text class=\"gaplabel\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
				xa + 2, top0 + h0 - 6, l.buf);
			label_end = xa + 2 + text_w(l.buf, 64) + 6;
			sb_release(&l);
		}
		ngaps++;
	}
	sb_add(out, labels.buf, labels.len);
	sb_release(&labels);

	y_axis(out, &ay0, x0, x1, top0 + h0, top0, "free, kB");
	y_axis(out, &ay1, x0, x1, top1 + h1, top1, "slab, kB");
	x_axis(out, &ax, x0, x1, top0, top0 + h0, 0, NULL);
	x_axis(out, &ax, x0, x1, top1, top1 + h1, 1, "guest uptime, s");
	for (int k = 0; k < 3; k++) {
		if (!have[k])
			continue;
		if (k < 2)
			series(out, s, n, k, &sample_series[k], &ax, x0, x1, &ay0, top0 + h0, top0);
		else
			series(out, s, n, k, &sample_series[k], &ax, x0, x1, &ay1, top1 + h1, top1);
		keys[nkeys].name = sample_series[k].name;
		keys[nkeys].color = sample_series[k].color;
		keys[nkeys++].kind = sample_series[k].dash ? KEY_DASH : KEY_LINE;
	}
	if (!have[0] && !have[1])
		sb_addf(out, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
			"no free-memory figures</text>\n", (x0 + x1) / 2, top0 + h0 / 2);
	if (!have[2])
		sb_addf(out, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
			"no slab figures</text>\n", (x0 + x1) / 2, top1 + h1 / 2);
	sb_addf(out, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>"
		"<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
		x0, top0, x1 - x0, h0, x0, top1, x1 - x0, h1);
	for (size_t i = 0; i < nsteps; i++) {
		keys[nkeys].name = steps_seen[i];
		keys[nkeys].color = step_color(steps_seen[i]);
		keys[nkeys++].kind = KEY_BOX;
	}
	if (ngaps) {
		keys[nkeys].name = "lost samples";
		keys[nkeys].color = "url(#gaphatch)";
		keys[nkeys++].kind = KEY_BOX;
	}
	legend(out, ml, 18, keys, nkeys);
	sb_adds(out, "</svg>\n");
}

/* ---- page ---- */
static void values_range(const struct compare_stat *s, double *lo, double *hi)
{
	for (size_t i = 0; i < s->nvalues; i++) {
		*lo = s->values[i] < *lo ? s->values[i] : *lo;
		*hi = s->values[i] > *hi ? s->values[i] : *hi;
	}
	if (s->mean.have) {
		double mean = s->mean.v, sd = s->sd.have ? dabs(s->sd.v) : 0;
		*lo = mean - sd < *lo ? mean - sd : *lo;
		*hi = mean + sd > *hi ? mean + sd : *hi;
	}
}

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
static char *side_name(const struct compare_side_model *s, size_t k)
{
	return xstrfmt("%c: %s", fmt_side_letter(k), s->label ? s->label : "?");
}

void svg_metric(struct strbuf *out, const struct compare_metric *m,
		const struct compare_side_model *sides, size_t ns)
{
	const char *verdict = m->verdict ? m->verdict : "n/a";
	const char *name = m->name ? m->name : m->key ? m->key : "?";
	const char *unit = m->unit ? m->unit : "";
	const double ml = 86, mr = 14, top = 40, ph = 160, H = 250;
	const double W = ns > 2 ? ml + mr + 112 * (double)ns : 440;
	double lo = 0, hi = 0, y0 = top + ph, y1 = top;
	struct axis ax;
	struct strbuf label = STRBUF_INIT;

	for (size_t k = 0; k < ns; k++)
		values_range(&m->sides[k], &lo, &hi);
	axis_nice(&ax, lo, hi, 4);
	sb_adds(&label, name);
	sb_adds(&label, ns > 2 ? ", each side against A" : ", A against B");
	svg_open(out, W, H, "chart metric", label.buf);
	sb_release(&label);
	sb_addf(out, "<text class=\"title\" x=\"%.1f\" y=\"16\">", ml);
	html_escape_cut(out, name, 40);
	sb_addf(out, "</text><text class=\"val v-%s\" x=\"%.1f\" y=\"31\">", fmt_verdict_class(verdict), ml);
	fmt_verdict_html(out, verdict);
	if (ns == 2 && m->sides[1].change_pct.have)
	{
		sb_adds(out, " (");
		fmt_signed_percent(out, m->sides[1].change_pct);
		sb_addch(out, ')');
	}
	sb_adds(out, "</text>\n");
	y_axis(out, &ax, ml, W - mr, y0, y1, !strcmp(unit, "B") ? "bytes" : !strcmp(unit, "s") ? "seconds" : unit);

	double slot = (W - ml - mr) / (double)ns, bw = ns > 2 ? 50 : 70, zero = axis_pos(&ax, 0, y0, y1);
	for (size_t s = 0; s < ns; s++) {
		const struct compare_stat *side = &m->sides[s];
		const char *v = side->verdict ? side->verdict : "";
		const char *color = !s ? "#9aa9bd" : !strcmp(v, "regression") ? "#e15759" :
				    !strcmp(v, "improvement") ? "#59a14f" : "#4e79a7";
		double cx = ml + slot * ((double)s + 0.5);
		char letter = fmt_side_letter(s);

		if (side->mean.have) {
			double mean = side->mean.v, y = axis_pos(&ax, mean, y0, y1);
			sb_addf(out, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"><title>%c mean: ", cx - bw / 2, y < zero ? y : zero, bw,
				dabs(zero - y), color, letter);
			fmt_value(out, mean);
			fmt_unit_html(out, unit);
			if (s && side->change_pct.have)
			{
				sb_adds(out, " (");
				fmt_signed_percent(out, side->change_pct);
				sb_adds(out, " against A)");
			}
			sb_addf(out, "</title></rect><text class=\"val\" x=\"%.1f\" y=\"%.1f\" "
				"text-anchor=\"start\">", cx + bw / 2 + 6, y + 4);
			if (ns <= 2)
				fmt_value(out, mean);
			sb_adds(out, "</text>\n");
			/* The spread: a sweep's fit has its standard error, runs
			 * repeated their sample sd. */
			double spread = side->se.have ? dabs(side->se.v) :
					side->n.v > 1 && side->sd.have ? dabs(side->sd.v) : 0;
			if (spread != 0) {
				double ya = axis_pos(&ax, mean - spread, y0, y1);
				double yb = axis_pos(&ax, mean + spread, y0, y1);
				sb_addf(out, "<line class=\"err\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
					"<line class=\"err\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
					"<line class=\"err\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
					cx, ya, cx, yb, cx - 8, ya, cx + 8, ya, cx - 8, yb, cx + 8, yb);
			}
		} else {
			sb_addf(out, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">n/a</text>\n",
				cx, (y0 + y1) / 2);
		}
		for (size_t i = 0; i < side->nvalues; i++) {
			double dx = side->nvalues > 1 ? ((double)i / (double)(side->nvalues - 1) - 0.5) * 30 : 0;
			sb_addf(out, "<circle class=\"run\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#fff\" "
				"stroke=\"#222\" stroke-width=\"1.2\"/>", cx + dx,
				axis_pos(&ax, side->values[i], y0, y1));
		}
		/* Two sides: "A: label"; more: the letter, the label on hover
		 * and in the page's table of sides. */
		sb_addf(out, "<text class=\"cat\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%c",
			cx, y0 + 18, letter);
		if (ns > 2) {
			sb_adds(out, "<title>");
			html_escape(out, sides && sides[s].label ? sides[s].label : "?");
			sb_adds(out, "</title>");
		} else {
			sb_adds(out, ": ");
			html_escape_cut(out, sides && sides[s].label ? sides[s].label : "?", 22);
		}
		sb_adds(out, "</text>\n");
	}
	sb_addf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		ml, zero, W - mr, zero);
	sb_addf(out, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\">bars: mean; whiskers: one sd; "
		"dots: runs</text>\n", ml, H - 8);
	sb_adds(out, "</svg>\n");
}

/* ---- overlays: every side of a comparison in one chart ---- */

/* A side's legend entries, one per side. */
static struct key *side_keys(const struct compare_side_model *sides, size_t ns, char **names)
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

/* A side's legend: names of up to LEGEND_MAX characters, as many to a
 * row as fit in width. */
#define LEGEND_MAX 60

static size_t legend_per_row(const struct key *k, size_t n, double width)
{
	double w = 0;

	for (size_t i = 0; i < n; i++)
		if (21 + text_w(k[i].name, LEGEND_MAX) + 18 > w)
			w = 21 + text_w(k[i].name, LEGEND_MAX) + 18;
	return w > 0 && width / w >= 1 ? (size_t)(width / w) : 1;
}

static void legend_rows(struct strbuf *out, double x, double y, const struct key *k, size_t n,
			size_t per_row)
{
	for (size_t i = 0; i < n; i += per_row)
		legend_cut(out, x, y + 18 * (double)(i / per_row), k + i,
			   n - i < per_row ? n - i : per_row, LEGEND_MAX);
}

/* The end of an overlay: its legend and closing tag; the side keys and
 * their names (side_keys) freed. */
static void overlay_end(struct strbuf *out, double ml, struct key *keys, char **knames,
			size_t ns, size_t per_row)
{
	legend_rows(out, ml, 18, keys, ns, per_row);
	sb_adds(out, "</svg>\n");
	for (size_t s = 0; s < ns; s++)
		free(knames[s]);
	free(knames);
	free(keys);
}

void svg_phase_overlay(struct strbuf *out, const struct compare_side_model *sides, size_t ns,
		       int field, const char *field_name)
{
	const char **names = NULL;
	size_t nn = 0, alloc = 0;
	double lo = 0, hi = 0;
	int any = 0;

	/* The phases, in the order the sides name them (the base's first). */
	for (size_t s = 0; s < ns; s++)
		for (size_t i = 0; i < sides[s].nphases; i++) {
			const struct report_phase *p = &sides[s].phases[i];
			size_t j;
			for (j = 0; j < nn && strcmp(names[j], p->name); j++)
				;
			if (j == nn) {
				ALLOC_GROW(names, nn + 1, alloc);
				names[nn++] = p->name;
			}
			if (p->mem[field].have) {
				double v = p->mem[field].v;
				lo = !any || v < lo ? v : lo;
				hi = !any || v > hi ? v : hi;
				any = 1;
			}
		}
	if (!any) {
		sb_adds(out, "<p class=\"note\">No side has memory figures by phase.</p>\n");
		free(names);
		return;
	}

	char **knames = xcalloc(ns + 1, sizeof(*knames));
	struct key *keys = side_keys(sides, ns, knames);
	const double W = 900, ml = 90, mr = 16, ph = 240;
	size_t per_row = legend_per_row(keys, ns, W - ml - mr);
	double top = 16 + 18 * (double)((ns + per_row - 1) / per_row), gw = (W - ml - mr) / (double)nn;
	double H = top + ph + 40, y0 = top + ph, y1 = top;
	struct axis ax;
	struct strbuf label = STRBUF_INIT;

	axis_nice(&ax, lo, hi, 5);
	sb_addf(&label, "%s by phase, kB, one line per side", field_name);
	svg_open(out, W, H, "chart overlay phases", label.buf);
	sb_release(&label);
	sb_addf(&label, "%s, kB", field_name);
	y_axis(out, &ax, ml, W - mr, y0, y1, label.buf);
	sb_release(&label);
	for (size_t i = 0; i < nn; i++) {
		double cx = ml + ((double)i + 0.5) * gw;
		sb_addf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"cat\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			cx, y1, cx, y0, cx, y0 + 18);
		html_escape_cut(out, names[i], (size_t)(gw / CHAR_W) > 4 ? (size_t)(gw / CHAR_W) - 1 : 4);
		sb_adds(out, "</text>\n");
	}
	for (size_t s = 0; s < ns; s++) {
		struct strbuf pts = STRBUF_INIT;
		size_t npts = 0;

		for (size_t i = 0; i < nn; i++) {
			const struct report_phase *p = NULL;
			for (size_t j = 0; j < sides[s].nphases && !p; j++)
				if (!strcmp(sides[s].phases[j].name, names[i]))
					p = &sides[s].phases[j];
			if (!p || !p->mem[field].have)
				continue;
			double x = ml + ((double)i + 0.5) * gw, y = axis_pos(&ax, p->mem[field].v, y0, y1);
			polyline_point(&pts, x, y, &npts);
			sb_addf(out, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>",
				x, y, svg_side_color(s));
			html_escape(out, knames[s]);
			sb_adds(out, ", ");
			html_escape(out, names[i]);
			sb_addf(out, " %s: ", field_name);
			fmt_kb(out, p->mem[field]);
			sb_adds(out, "</title></circle>\n");
		}
		if (npts > 1)
			sb_addf(out, "<polyline class=\"series side\" fill=\"none\" stroke=\"%s\" "
				"stroke-width=\"2\" stroke-linejoin=\"round\" points=\"%s\"/>\n",
				svg_side_color(s), pts.buf);
		sb_release(&pts);
	}
	overlay_end(out, ml, keys, knames, ns, per_row);
	free(names);
}

void svg_monitor_overlay(struct strbuf *out, const struct compare_side_model *sides, size_t ns,
			 int field, const char *field_name)
{
	const double W = 900, ml = 90, mr = 16, h0 = 210, h1 = 110;
	double tlo = 0, thi = 0, lo = 0, hi = 0, slo = 0, shi = 0;
	int any_t = 0, any = 0, any_slab = 0;
	struct axis ax, ay0, ay1;

	for (size_t s = 0; s < ns; s++) {
		double a = 0, b = 0;
		for (size_t i = 0; i < sides[s].nsamples; i++) {
			double t = sides[s].samples[i].t;
			tlo = !any_t || t < tlo ? t : tlo;
			thi = !any_t || t > thi ? t : thi;
			any_t = 1;
		}
		if (series_range(sides[s].samples, sides[s].nsamples, field, &a, &b)) {
			lo = !any || a < lo ? a : lo;
			hi = !any || b > hi ? b : hi;
			any = 1;
		}
		if (series_range(sides[s].samples, sides[s].nsamples, 2, &a, &b)) {
			slo = !any_slab || a < slo ? a : slo;
			shi = !any_slab || b > shi ? b : shi;
			any_slab = 1;
		}
	}
	if (!any_t) {
		sb_adds(out, "<p class=\"note\">No side has monitor samples during insmod "
			"(monitor_interval_ms 0, or a comparison made without them).</p>\n");
		return;
	}

	char **knames = xcalloc(ns + 1, sizeof(*knames));
	struct key *keys = side_keys(sides, ns, knames);
	size_t per_row = legend_per_row(keys, ns, W - ml - mr);
	double top0 = 16 + 18 * (double)((ns + per_row - 1) / per_row), top1 = top0 + h0 + 38;
	double H = top1 + h1 + 44, x0 = ml, x1 = W - mr;
	struct strbuf label = STRBUF_INIT;

	axis_nice(&ax, tlo, thi, 8);
	axis_nice(&ay0, lo, hi, 4);
	axis_nice(&ay1, slo, shi, 3);
	sb_addf(&label, "%s and slab during insmod, kB, one line per side", field_name);
	svg_open(out, W, H, "chart overlay monitor", label.buf);
	sb_release(&label);
	sb_addf(&label, "%s, kB", field_name);
	y_axis(out, &ay0, x0, x1, top0 + h0, top0, label.buf);
	sb_release(&label);
	y_axis(out, &ay1, x0, x1, top1 + h1, top1, "slab, kB");
	x_axis(out, &ax, x0, x1, top0, top0 + h0, 0, NULL);
	x_axis(out, &ax, x0, x1, top1, top1 + h1, 1, "seconds since insmod began");
	for (size_t s = 0; s < ns; s++) {
		const struct field_series fs[2] = {
			{ knames[s], field, svg_side_color(s), NULL },
			{ knames[s], 2, svg_side_color(s), NULL },
		};
		if (!sides[s].nsamples)
			continue;
		series(out, sides[s].samples, sides[s].nsamples, field, &fs[0], &ax, x0, x1, &ay0,
		       top0 + h0, top0);
		series(out, sides[s].samples, sides[s].nsamples, 2, &fs[1], &ax, x0, x1, &ay1,
		       top1 + h1, top1);
	}
	if (!any)
		sb_addf(out, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
			"no free-memory figures</text>\n", (x0 + x1) / 2, top0 + h0 / 2);
	if (!any_slab)
		sb_addf(out, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
			"no slab figures</text>\n", (x0 + x1) / 2, top1 + h1 / 2);
	sb_addf(out, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>"
		"<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
		x0, top0, x1 - x0, h0, x0, top1, x1 - x0, h1);
	overlay_end(out, ml, keys, knames, ns, per_row);
}

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
		if (npts > 1)
			sb_addf(out, "<polyline class=\"series side\" fill=\"none\" stroke=\"%s\" "
				"stroke-width=\"2\" stroke-linejoin=\"round\" points=\"%s\"/>\n",
				svg_side_color(s), pts.buf);
		sb_release(&pts);
	}
	overlay_end(out, ml, keys, knames, ns, per_row);
}

/* ---- chart: a sweep's figures against the disk count ---- */

struct xy_series {
	const char *name, *color;
	double *x, *y;
	size_t n;
	int have_fit;
	double slope, icept;	/* the fitted line, in the plotted units */
};

static void xy_chart(struct strbuf *out, const char *label, const char *ytitle,
		     struct xy_series *s, size_t ns)
{
	const double W = 900, ml = 90, mr = 16, top = 34, ph = 240;
	double H = top + ph + 48, y0 = top + ph, y1 = top, x0 = ml, x1 = W - mr;
	double xlo = 0, xhi = 0, ylo = 0, yhi = 0;
	struct key keys[8];
	struct axis ax, ay;
	size_t nk = 0;
	int any = 0;

	for (size_t k = 0; k < ns; k++)
		for (size_t i = 0; i < s[k].n; i++) {
			xhi = !any || s[k].x[i] > xhi ? s[k].x[i] : xhi;
			ylo = !any || s[k].y[i] < ylo ? s[k].y[i] : ylo;
			yhi = !any || s[k].y[i] > yhi ? s[k].y[i] : yhi;
			any = 1;
		}
	if (!any) {
		sb_adds(out, "<p class=\"note\">No sweep points to draw.</p>\n");
		return;
	}
	axis_nice(&ax, xlo, xhi, 8);
	axis_nice(&ay, ylo < 0 ? ylo : 0, yhi, 5);
	svg_open(out, W, H, "chart sweep", label);
	y_axis(out, &ay, x0, x1, y0, y1, ytitle);
	x_axis(out, &ax, x0, x1, y1, y0, 1, "scsi_debug disks");
	for (size_t k = 0; k < ns; k++) {
		if (!s[k].n)
			continue;
		if (s[k].have_fit) {
			double fa = s[k].icept + s[k].slope * ax.lo, fb = s[k].icept + s[k].slope * ax.hi;
			sb_addf(out, "<line class=\"fit\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>\n",
				x0, axis_pos(&ay, fa, y0, y1), x1, axis_pos(&ay, fb, y0, y1), s[k].color);
		}
		for (size_t i = 0; i < s[k].n; i++) {
			sb_addf(out, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>",
				axis_pos(&ax, s[k].x[i], x0, x1), axis_pos(&ay, s[k].y[i], y0, y1),
				s[k].color);
			html_escape(out, s[k].name);
			sb_adds(out, " at ");
			fmt_thousands_d(out, s[k].x[i]);
			sb_adds(out, " disks: ");
			fmt_value(out, s[k].y[i]);
			sb_adds(out, "</title></circle>\n");
		}
		if (nk < ARRAY_SIZE(keys)) {
			keys[nk].name = s[k].name;
			keys[nk].color = s[k].color;
			keys[nk++].kind = KEY_BOX;
		}
	}
	if (nk < ARRAY_SIZE(keys)) {
		keys[nk].name = "fitted line";
		keys[nk].color = "#777";
		keys[nk++].kind = KEY_DASH;
	}
	legend(out, ml, 18, keys, nk);
	sb_adds(out, "</svg>\n");
}

void svg_sweep(struct strbuf *out, const struct report_model *m, int time)
{
	static const char *const colors[] = { "#4e79a7", "#f28e2b", "#59a14f", "#b07aa1" };
	struct xy_series s[4];
	size_t ns = 0;
	double *buf = xcalloc(2 * 4 * (m->nsweep + 1), sizeof(*buf));

	for (size_t k = 0; k < (time ? 1u : 4u); k++) {
		const struct report_sweep_fit *f = &m->sweep_fit[time ? 4 : k];
		struct xy_series *x = &s[ns];
		double sum = 0;
		int rising = 1;

		memset(x, 0, sizeof(*x));
		x->name = time ? "enumeration, summed" : f->figure;
		x->color = colors[k];
		x->x = buf + 2 * k * (m->nsweep + 1);
		x->y = x->x + m->nsweep + 1;
		for (size_t i = 0; i < m->nsweep; i++) {
			const struct report_sweep_point *p = &m->sweep[i];
			struct num v = !time ? (k == 0 ? p->memfree_kb : k == 1 ? p->lowfree_kb
						: k == 2 ? p->slab_kb : p->unaccounted_kb)
					     : p->enumerate_s;

			if (i && p->disks.v <= m->sweep[i - 1].disks.v)
				rising = 0;
			if (!p->disks.have || !v.have || (time && !rising))
				continue;
			sum += v.v;
			x->x[x->n] = p->disks.v;
			x->y[x->n++] = time ? sum : v.v;
		}
		if (!x->n)
			continue;
		/* The fit is per disk in bytes (ms); the chart is in kB (s). */
		x->have_fit = f->have && f->per_disk.have && f->fixed.have;
		x->slope = f->per_disk.v / (time ? 1000 : 1024);
		x->icept = f->fixed.v;
		ns++;
	}
	if (time)
		xy_chart(out, "enumeration time summed over the rising steps against the disk count, "
			 "with the fitted line", "enumeration, s", s, ns);
	else
		xy_chart(out, "memory taken against the disk count, kB, with the fitted lines",
			 "taken since before insmod, kB", s, ns);
	free(buf);
}

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
		if (np > 1)
			sb_addf(out, "<polyline class=\"series curve\" fill=\"none\" stroke=\"%s\" "
				"stroke-width=\"2\" stroke-linejoin=\"round\" points=\"%s\"/>\n",
				l[k].color, pts.buf);
		sb_release(&pts);
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

/* ---- chart: where a phase's time went, as an icicle ---- */

struct ice {
	struct strbuf *out;
	char ***parts;		/* each stack's components */
	size_t *nparts;
	const struct report_ta_stack *st;
	double scale;		/* px per second */
	double x0, top, row;
	size_t maxdepth, depth_used;
};

/* "#rrggbb" between waiting (blue) and on the CPU (orange) by the share
 * on the CPU. */
static void ice_color(struct strbuf *out, double on_share)
{
	static const int wait[3] = { 0x4e, 0x79, 0xa7 }, cpu[3] = { 0xf2, 0x8e, 0x2b };

	on_share = clampd(on_share, 0, 1);
	sb_adds(out, "#");
	for (int i = 0; i < 3; i++)
		sb_addf(out, "%02x", (int)(wait[i] + (cpu[i] - wait[i]) * on_share + 0.5));
}

static int ice_cmp_name(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* The stacks idx[0..n) share their first depth components: group them by
 * the next one, largest first, each a rectangle at x, its children under it. */
static void ice_level(struct ice *c, size_t *idx, size_t n, size_t depth, double x)
{
	size_t *grp = xcalloc(n + 1, sizeof(*grp)), *order = xcalloc(n + 1, sizeof(*order));
	double *sum = xcalloc(n + 1, sizeof(*sum)), *on = xcalloc(n + 1, sizeof(*on));
	size_t ng = 0;

	if (depth >= c->maxdepth)
		goto out;
	/* Groups: the first stack of each distinct component at depth. */
	for (size_t i = 0; i < n; i++) {
		const char *name = depth < c->nparts[idx[i]] ? c->parts[idx[i]][depth] : NULL;
		size_t g = 0;

		if (!name)
			continue;
		while (g < ng && ice_cmp_name(c->parts[idx[grp[g]]][depth], name))
			g++;
		if (g == ng)
			grp[ng++] = i;
		sum[g] += c->st[idx[i]].on + c->st[idx[i]].wait;
		on[g] += c->st[idx[i]].on;
	}
	for (size_t g = 0; g < ng; g++)
		order[g] = g;
	/* Largest first, then by name: the same picture for the same data. */
	for (size_t a = 1; a < ng; a++)
		for (size_t b = a; b > 0; b--) {
			size_t p = order[b - 1], q = order[b];
			int swap = sum[q] > sum[p] || (sum[q] == sum[p] &&
				ice_cmp_name(c->parts[idx[grp[q]]][depth],
					     c->parts[idx[grp[p]]][depth]) < 0);
			if (!swap)
				break;
			order[b - 1] = q;
			order[b] = p;
		}
	for (size_t k = 0; k < ng; k++) {
		size_t g = order[k], m = 0;
		const char *name = c->parts[idx[grp[g]]][depth];
		double w = sum[g] * c->scale, y = c->top + c->row * (double)(depth + 1);
		size_t *sub;

		if (w >= 0.5) {
			if (depth + 1 > c->depth_used)
				c->depth_used = depth + 1;
			sb_addf(c->out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"",
				x, y, w > 1 ? w - 0.5 : w, c->row - 1);
			ice_color(c->out, sum[g] > 0 ? on[g] / sum[g] : 0);
			sb_adds(c->out, "\"><title>");
			html_escape(c->out, name);
			sb_adds(c->out, ": ");
			seconds(c->out, sum[g]);
			sb_adds(c->out, " (on the CPU ");
			seconds(c->out, on[g]);
			sb_adds(c->out, ", waiting ");
			seconds(c->out, sum[g] - on[g]);
			sb_adds(c->out, ")</title></rect>");
			if (w > 24) {
				sb_addf(c->out, "<text class=\"ice\" x=\"%.1f\" y=\"%.1f\">", x + 3,
					y + c->row - 5);
				html_escape_cut(c->out, name, (size_t)((w - 6) / CHAR_W));
				sb_adds(c->out, "</text>");
			}
			sb_adds(c->out, "\n");
			sub = xcalloc(n + 1, sizeof(*sub));
			for (size_t i = 0; i < n; i++)
				if (depth < c->nparts[idx[i]] &&
				    !ice_cmp_name(c->parts[idx[i]][depth], name))
					sub[m++] = idx[i];
			ice_level(c, sub, m, depth + 1, x);
			free(sub);
		}
		x += w;
	}
out:
	free(grp);
	free(order);
	free(sum);
	free(on);
}

void svg_icicle(struct strbuf *out, const char *title, const struct report_ta_stack *st,
		size_t n)
{
	const double W = 960, ml = 8, mr = 8, top = 22, row = 17;
	struct ice c;
	struct strbuf body = STRBUF_INIT;
	size_t *idx;
	double total = 0;

	for (size_t i = 0; i < n; i++)
		total += st[i].on + st[i].wait;
	if (!n || total <= 0) {
		sb_adds(out, "<p class=\"note\">No stacks to draw.</p>\n");
		return;
	}
	memset(&c, 0, sizeof(c));
	c.out = &body;
	c.st = st;
	c.parts = xcalloc(n, sizeof(*c.parts));
	c.nparts = xcalloc(n, sizeof(*c.nparts));
	idx = xcalloc(n, sizeof(*idx));
	for (size_t i = 0; i < n; i++) {
		char *s = xstrdup(st[i].stack ? st[i].stack : "?"), *p = s;
		size_t k = 0, cap = 1;

		for (const char *q = s; *q; q++)
			cap += *q == ';';
		c.parts[i] = xcalloc(cap + 1, sizeof(char *));
		for (;;) {
			char *semi = strchr(p, ';');

			if (semi)
				*semi = '\0';
			c.parts[i][k++] = xstrdup(p);
			if (!semi)
				break;
			p = semi + 1;
		}
		c.nparts[i] = k;
		free(s);
		idx[i] = i;
	}
	c.scale = (W - ml - mr) / total;
	c.top = top;
	c.row = row;
	c.maxdepth = 48;
	sb_addf(&body, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#999\">"
		"<title>", ml, top, W - ml - mr, row - 1);
	html_escape(&body, title);
	sb_adds(&body, ": ");
	seconds(&body, total);
	sb_addf(&body, "</title></rect><text class=\"ice\" x=\"%.1f\" y=\"%.1f\">", ml + 3,
		top + row - 5);
	html_escape_cut(&body, title, (size_t)((W - ml - mr - 6) / CHAR_W));
	sb_adds(&body, " (");
	seconds(&body, total);
	sb_adds(&body, " sampled)</text>\n");
	ice_level(&c, idx, n, 0, ml);
	svg_open(out, W, top + row * (double)(c.depth_used + 1) + 8, "chart icicle", title);
	sb_addf(out, "<text class=\"title\" x=\"%.1f\" y=\"14\">", ml);
	html_escape(out, title);
	sb_adds(out, ": width is time; orange on the CPU, blue waiting</text>\n");
	sb_add(out, body.buf, body.len);
	sb_adds(out, "</svg>\n");
	sb_release(&body);
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < c.nparts[i]; k++)
			free(c.parts[i][k]);
		free(c.parts[i]);
	}
	free(c.parts);
	free(c.nparts);
	free(idx);
}
