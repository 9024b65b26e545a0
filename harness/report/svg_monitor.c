// SPDX-License-Identifier: Apache-2.0
/*
 * The monitor's time series (svg.h): a run's free memory and slab against
 * the guest's uptime, its steps shaded and lost samples hatched
 * (svg_monitor), and a comparison's overlay of every side's samples during
 * insmod (svg_monitor_overlay).  Thousands of samples make a path of at
 * most two points per pixel column (series()).
 */
#include "report/svg.h"
#include "report/svg_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

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

/* Hatching for lost monitor samples. */
static void defs_hatch(struct strbuf *out)
{
	sb_adds(out, "<defs><pattern id=\"gaphatch\" width=\"6\" height=\"6\" "
		"patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
		"<rect width=\"6\" height=\"6\" fill=\"#fbe3e3\"/>"
		"<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#d62728\" stroke-width=\"2\"/>"
		"</pattern></defs>\n");
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

/* ---- every side's samples during insmod, a line a side ---- */

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

