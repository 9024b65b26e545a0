#include "report/html.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "result/result.h"
#include "guest/phase.h"
#include "lib/util.h"

/*
 * Only isfinite() and NAN come from math.h (macros): nothing here needs
 * libm.  Every JSON access goes through the type-checking helpers below,
 * so a hostile or truncated result.json cannot trip json-c's assertions.
 */

void html_escape(struct strbuf *out, const char *s)
{
	if (!s)
		return;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			sb_adds(out, "&amp;");
			break;
		case '<':
			sb_adds(out, "&lt;");
			break;
		case '>':
			sb_adds(out, "&gt;");
			break;
		case '"':
			sb_adds(out, "&quot;");
			break;
		case '\'':
			sb_adds(out, "&#39;");
			break;
		default:
			sb_addch(out, c < 0x20 || c == 0x7f ? '?' : (char)c);
		}
	}
}

/* Characters (UTF-8 sequences) in s. */
static size_t utf8_len(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* html_escape() of at most max characters of s, an ellipsis when cut. */
static void html_escape_cut(struct strbuf *out, const char *s, size_t max)
{
	size_t chars = 0;
	const char *p;
	char *cut;

	if (!s)
		return;
	if (utf8_len(s) <= max) {
		html_escape(out, s);
		return;
	}
	for (p = s; *p; p++)
		if (((unsigned char)*p & 0xc0) != 0x80 && chars++ == max - 1)
			break;
	cut = xstrndup(s, (size_t)(p - s));
	html_escape(out, cut);
	free(cut);
	sb_adds(out, "\xe2\x80\xa6");
}

/* ---- JSON access that tolerates anything ---- */

static json_object *jarr(json_object *o, const char *path)
{
	json_object *a = jget(o, path);

	return a && json_object_is_type(a, json_type_array) ? a : NULL;
}

static size_t alen(json_object *a)
{
	return a ? json_object_array_length(a) : 0;
}

static json_object *aget(json_object *a, size_t i)
{
	return json_object_array_get_idx(a, i);
}

/* 1 and *v if path is a finite number, else 0. */
static int jnum(json_object *o, const char *path, double *v)
{
	json_object *x = jget(o, path);

	if (!x || !(json_object_is_type(x, json_type_int) ||
		    json_object_is_type(x, json_type_double)))
		return 0;
	*v = json_object_get_double(x);
	return isfinite(*v);
}

static int jbool(json_object *o, const char *path)
{
	json_object *x = jget(o, path);

	return x && json_object_get_boolean(x);
}


/* ---- numbers ---- */

static double dabs(double v)
{
	return v < 0 ? -v : v;
}

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static long long dround(double v)
{
	v = clampd(v, -9e18, 9e18);
	return (long long)(v < 0 ? v - 0.5 : v + 0.5);
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

static void add_thousands(struct strbuf *out, double v)
{
	fmt_thousands(out, dround(v));
}

static void add_kb(struct strbuf *out, double v)
{
	add_thousands(out, v);
	sb_adds(out, " kB");
}

static void add_signed_kb(struct strbuf *out, double v)
{
	if (dround(v) > 0)
		sb_addch(out, '+');
	add_kb(out, v);
}

/* "1,234 kB" or "n/a" for the number at path. */
static void kb_at(struct strbuf *out, json_object *o, const char *path)
{
	double v;

	if (jnum(o, path, &v))
		add_kb(out, v);
	else
		sb_adds(out, "n/a");
}

/* A measurement of any size: thousands separators from 1,000 up, three
 * significant digits below 10. */
static void add_value(struct strbuf *out, double v)
{
	double a = dabs(v);

	if (a >= 1000)
		add_thousands(out, v);
	else if (a >= 100)
		sb_addf(out, "%.0f", v);
	else if (a >= 10)
		sb_addf(out, "%.1f", v);
	else
		sb_addf(out, "%.3g", v);
}

static void add_signed_value(struct strbuf *out, double v)
{
	if (v > 0)
		sb_addch(out, '+');
	add_value(out, v);
}

/* ---- SVG building blocks ---- */

#define CHAR_W 6.6	/* a generous average width of an 11px sans-serif glyph */

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
	return (int)dround((ax->hi - ax->lo) / ax->step);
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
		add_thousands(out, v);
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

/* A legend in a row from (x, y); returns its width. */
static double legend(struct strbuf *out, double x, double y, const struct key *k, size_t n)
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
		html_escape_cut(out, k[i].name, 24);
		sb_adds(out, "</text>\n");
		x += 21 + text_w(k[i].name, 24) + 18;
	}
	return x - x0;
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

struct field_series {
	const char *name;
	const char *path;
	const char *color;
	const char *dash;	/* stroke-dasharray of its line, or NULL */
};

static const struct field_series phase_series[] = {
	{ "MemFree", "meminfo.MemFree", "#4e79a7", NULL },
	{ "LowFree", "meminfo.LowFree", "#f28e2b", NULL },
	{ "Slab", "meminfo.Slab", "#59a14f", NULL },
};

static void chart_phases(struct strbuf *out, json_object *phases)
{
	const struct field_series *ser[ARRAY_SIZE(phase_series)];
	struct key keys[ARRAY_SIZE(phase_series)];
	size_t np = alen(phases), ns = 0;
	double lo = 0, hi = 0, v, maxlab = 0;
	const double W = 900, ml = 90, mr = 16, top = 34, ph = 240;
	struct axis ax;

	for (size_t s = 0; s < ARRAY_SIZE(phase_series); s++) {
		int any = 0;
		for (size_t i = 0; i < np; i++) {
			if (!jnum(aget(phases, i), phase_series[s].path, &v))
				continue;
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
		double w = text_w(jstr(aget(phases, i), "name", "?"), 24);
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
		json_object *p = aget(phases, i);
		double gx = ml + (double)i * gw + (gw - bw * (double)ns) / 2;

		for (size_t s = 0; s < ns; s++) {
			if (!jnum(p, ser[s]->path, &v))
				continue;
			double y = axis_pos(&ax, v, y0, y1);
			sb_addf(out, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.1f\" fill=\"%s\"><title>",
				gx + (double)s * bw, y < zero ? y : zero, bw > 2 ? bw - 1 : bw,
				dabs(zero - y), ser[s]->color);
			html_escape(out, jstr(p, "name", "?"));
			sb_addf(out, " %s: ", ser[s]->name);
			add_kb(out, v);
			sb_adds(out, "</title></rect>\n");
		}
		double cx = ml + ((double)i + 0.5) * gw;
		if (rot)
			sb_addf(out, "<text class=\"cat\" text-anchor=\"end\" "
				"transform=\"translate(%.1f,%.1f) rotate(-35)\">", cx + 4, y0 + 14);
		else
			sb_addf(out, "<text class=\"cat\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
				cx, y0 + 18);
		html_escape_cut(out, jstr(p, "name", "?"), 24);
		sb_adds(out, "</text>\n");
	}
	sb_addf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		ml, zero, W - mr, zero);
	legend(out, ml, 18, keys, ns);
	sb_adds(out, "</svg>\n");
}

/* ---- chart: horizontal bars, signed (slab growth, slab changes) ---- */

#define SLAB_SHOWN 15	/* bars in a slab chart; its table has every cache */

struct hbar {
	const char *label;
	double v;
};

static void chart_hbars(struct strbuf *out, const char *label, const struct hbar *b, size_t n,
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
		add_signed_kb(out, b[i].v);
		sb_addf(out, "</title></rect><text class=\"val\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
			neg ? x - 5 : x + 5, y + row / 2 + 4, neg ? "end" : "start");
		add_signed_kb(out, b[i].v);
		sb_adds(out, "</text>\n");
	}
	sb_addf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		zero, top, zero, ybot);
	sb_adds(out, "</svg>\n");
}

/* ---- chart: the monitor's time series ---- */

struct sample {
	double t, n;
	double v[3];		/* MemFree, LowFree, slab_kb; NAN when missing */
	const char *step;
};

static const struct field_series sample_series[] = {
	{ "MemFree", "meminfo.MemFree", "#4e79a7", NULL },
	/* dashed: without HIGHMEM (a small i386 guest) it lies on MemFree */
	{ "LowFree", "meminfo.LowFree", "#f28e2b", "7 4" },
	{ "Slab", "slab_kb", "#59a14f", NULL },
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

static void column_flush(struct strbuf *out, struct column *c, const struct sample *s, int k,
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

static void segment(struct strbuf *out, const struct sample *s, size_t from, size_t to, int k,
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

static void series(struct strbuf *out, const struct sample *s, size_t n, int k, 
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
static int series_range(const struct sample *s, size_t n, int k, double *lo, double *hi)
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

/* monitor.gaps[i]: the first and last sample number lost, or 0. */
static int gap_at(json_object *gaps, size_t i, double *a, double *b)
{
	json_object *g = aget(gaps, i);

	return json_object_is_type(g, json_type_array) && alen(g) >= 2 &&
	       jnum(aget(g, 0), "", a) && jnum(aget(g, 1), "", b);
}

#define GAPS_DRAWN 200
#define GAPS_LISTED 20

/* The time where sample number n sits: that sample's, or NAN. */
static double time_of_n(const struct sample *s, size_t ns, double n, int before)
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

static void chart_monitor(struct strbuf *out, json_object *root)
{
	json_object *samples = jarr(root, "monitor.samples"), *gaps = jarr(root, "monitor.gaps");
	size_t n = 0, nkeys = 0, nsteps = 0;
	struct sample *s = xcalloc(alen(samples) + 1, sizeof(*s));
	struct key keys[ARRAY_SIZE(sample_series) + ARRAY_SIZE(step_colors) + 2];
	const char *steps_seen[ARRAY_SIZE(step_colors) + 1];
	const double W = 900, ml = 90, mr = 16, top0 = 34, h0 = 210, top1 = 282, h1 = 110;
	double tlo = 0, thi = 0, lo, hi;
	int have[3];
	struct axis ax, ay0, ay1;

	for (size_t i = 0; i < alen(samples); i++) {
		json_object *o = aget(samples, i);
		if (!jnum(o, "t", &s[n].t))
			continue;
		if (!jnum(o, "n", &s[n].n))
			s[n].n = n ? s[n - 1].n + 1 : 1;
		for (int k = 0; k < 3; k++)
			if (!jnum(o, sample_series[k].path, &s[n].v[k]))
				s[n].v[k] = NAN;
		s[n].step = jstr(o, "step", "");
		tlo = !n || s[n].t < tlo ? s[n].t : tlo;
		thi = !n || s[n].t > thi ? s[n].t : thi;
		n++;
	}
	if (!n) {
		sb_adds(out, "<p class=\"note\">No monitor sample has a time.</p>\n");
		free(s);
		return;
	}
	/* The last step ends at the first phase measured after the last sample
	 * (after-rmmod ends rmmod), or with that sample. */
	double tend = thi, pt;
	json_object *phases = jarr(root, "phases");
	for (size_t i = 0; i < alen(phases); i++)
		if (jnum(aget(phases, i), "uptime_s", &pt) && pt > thi && (tend == thi || pt < tend))
			tend = pt;
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
		sb_addf(out, ": %.1f s to %.1f s</title></rect>\n", s[i].t, j < n ? s[j].t : tend);
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
	for (size_t i = 0; i < alen(gaps) && ngaps < GAPS_DRAWN; i++) {
		double a, b;
		if (!gap_at(gaps, i, &a, &b))
			continue;
		double ta = time_of_n(s, n, a, 1), tb = time_of_n(s, n, b, 0);
		double xa = isfinite(ta) ? axis_pos(&ax, ta, x0, x1) : x0;
		double xb = isfinite(tb) ? axis_pos(&ax, tb, x0, x1) : x1;
		if (xb - xa < 4)
			xb = xa + 4;
		sb_addf(out, "<rect class=\"gap\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"url(#gaphatch)\" opacity=\"0.8\"><title>samples %lld..%lld lost</title></rect>\n",
			xa, top0, xb - xa, top1 + h1 - top0, dround(a), dround(b));
		if (xa >= label_end) {	/* labels of gaps close together would overlap */
			struct strbuf l = STRBUF_INIT;
			sb_addf(&l, "lost %lld..%lld", dround(a), dround(b));
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
	free(s);
}

/* ---- page ---- */

static const char css[] =
	"body{font:14px/1.45 \"DejaVu Sans\",system-ui,sans-serif;color:#222;background:#fff;"
	"max-width:960px;margin:0 auto;padding:12px 24px 40px}\n"
	"h1{font-size:22px;margin:10px 0 6px}\n"
	"h2{font-size:17px;margin:30px 0 8px;padding-bottom:3px;border-bottom:1px solid #ddd}\n"
	"h3{font-size:14px;margin:14px 0 4px}\n"
	"p{margin:6px 0}\n"
	"table{border-collapse:collapse;margin:6px 0 10px}\n"
	"th,td{padding:3px 10px;border-bottom:1px solid #e6e6e6;text-align:left;vertical-align:top}\n"
	"th{background:#f4f5f7;font-weight:600}\n"
	"td.n,th.n{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}\n"
	"tr.headline td{font-weight:600}\n"
	".status{display:inline-block;padding:0 10px;border-radius:4px;color:#fff}\n"
	".st-ok{background:#2e7d32}.st-bad{background:#c62828}.st-unknown{background:#757575}\n"
	".reason{background:#fdecea;border-left:4px solid #c62828;padding:6px 10px}\n"
	".env,.note{color:#555}.note{font-size:13px}\n"
	".warn{background:#fff4e5;border:1px solid #f0a040;border-left:4px solid #e67e00;"
	"padding:8px 12px;margin:10px 0}\n"
	".pass{color:#2e7d32}.fail{color:#c62828;font-weight:700}\n"
	".verdict{font-size:17px;padding:6px 12px;margin:8px 0;border-radius:4px}\n"
	".v-regression{background:#fdecea;color:#b71c1c;font-weight:700}\n"
	".v-improvement{background:#e8f5e9;color:#1b5e20;font-weight:700}\n"
	".v-nochange{background:#f4f5f7;color:#333}.v-na{background:#f4f5f7;color:#757575}\n"
	"svg text.v-regression{fill:#b71c1c;font-weight:700}svg text.v-improvement{fill:#1b5e20;font-weight:700}\n"
	"tr.regression td{background:#fdecea}tr.improvement td{background:#f1f8f1}\n"
	"td.v-regression,td.v-improvement,td.v-nochange,td.v-na{white-space:nowrap}\n"
	".gating{font-size:11px;border:1px solid #999;border-radius:3px;padding:0 4px;color:#555}\n"
	".charts{display:flex;flex-wrap:wrap;gap:8px 16px}\n"
	"svg.chart{display:block;margin:8px 0;max-width:100%;height:auto;overflow:visible}\n"
	"svg text{font-family:\"DejaVu Sans\",sans-serif;font-size:11px;fill:#333}\n"
	"svg text.axt{font-size:12px;fill:#555}svg text.val{font-size:10.5px;fill:#222}\n"
	"svg text.title{font-size:12.5px;font-weight:600}\n"
	"svg text.steplabel{font-size:10.5px;fill:#666}svg text.gaplabel{font-size:10px;fill:#b71c1c}\n"
	"svg line.grid{stroke:#e4e4e4;stroke-width:1}svg line.grid.zero,svg line.axis{stroke:#666;stroke-width:1}\n"
	"svg rect.frame{fill:none;stroke:#bbb}svg line.err{stroke:#222;stroke-width:1.5}\n"
	"code{font-family:\"DejaVu Sans Mono\",monospace;font-size:13px}\n"
	"footer{margin-top:30px;color:#777;font-size:12px}\n";

static void page_begin(struct strbuf *out, const char *title1, const char *title2)
{
	sb_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	html_escape(out, title1);
	sb_adds(out, ": ");
	html_escape(out, title2);
	sb_addf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", css);
}

static void page_end(struct strbuf *out, json_object *o)
{
	sb_adds(out, "<footer>");
	html_escape(out, jstr(o, "tool", "scaletest"));
	if (jstr(o, "started", NULL)) {
		sb_adds(out, ", started ");
		html_escape(out, jstr(o, "started", ""));
	}
	if (jstr(o, "finished", NULL)) {
		sb_adds(out, ", finished ");
		html_escape(out, jstr(o, "finished", ""));
	}
	sb_adds(out, ". Generated from the JSON alone; no scripts, nothing fetched.</footer>\n"
		"</body>\n</html>\n");
}

static const char *status_class(const char *status)
{
	static const char *const bad[] = { "fail", "timeout", "crash", "oom", "error", "interrupted" };

	if (!strcmp(status, "pass"))
		return "st-ok";
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (!strcmp(status, bad[i]))
			return "st-bad";
	return "st-unknown";
}

static void disk_cell(struct strbuf *out, json_object *d)
{
	html_escape(out, jstr(d, "name", "?"));
	sb_adds(out, " (");
	html_escape(out, jstr(d, "dev", "?"));
	sb_adds(out, ")");
}

static void run_head(struct strbuf *out, json_object *root)
{
	const char *status = jstr(root, "status", "?");
	json_object *v;
	double x;

	sb_adds(out, "<h1>scaletest run <span class=\"runid\">");
	html_escape(out, jstr(root, "run_id", "?"));
	sb_addf(out, "</span>: <span class=\"status %s\">", status_class(status));
	html_escape(out, status);
	sb_adds(out, "</span></h1>\n");
	if (jstr(root, "reason", NULL)) {
		sb_adds(out, "<p class=\"reason\"><b>Reason:</b> ");
		html_escape(out, jstr(root, "reason", ""));
		sb_adds(out, "</p>\n");
	}
	sb_adds(out, "<p>Scenario <b>");
	html_escape(out, jstr(root, "scenario.name", "?"));
	sb_adds(out, "</b>");
	if (*jstr(root, "scenario.description", "")) {
		sb_adds(out, ": ");
		html_escape(out, jstr(root, "scenario.description", ""));
	}
	sb_adds(out, "</p>\n<p class=\"env\">kernel ");
	html_escape(out, jstr(root, "kernel.version", "?"));
	sb_adds(out, " ");
	html_escape(out, jstr(root, "kernel.arch", "?"));
	sb_adds(out, ", ");
	html_escape(out, jstr(root, "vm.accel", "?"));
	sb_adds(out, ", ");
	if (jnum(root, "vm.memory_mb", &x))
		add_thousands(out, x);
	else
		sb_adds(out, "?");
	sb_adds(out, " MiB, ");
	if (jnum(root, "vm.cpus", &x))
		sb_addf(out, "%lld", dround(x));
	else
		sb_adds(out, "?");
	sb_adds(out, " CPU, QEMU ");
	html_escape(out, jstr(root, "vm.qemu_version", "?"));
	if (jstr(root, "vm.accel_reason", NULL)) {
		sb_adds(out, " <span class=\"note\">(");
		html_escape(out, jstr(root, "vm.accel_reason", ""));
		sb_adds(out, ")</span>");
	}
	sb_adds(out, "</p>\n<p class=\"env\">disks: ");
	add_thousands(out, (double)jint(root, "disks.present", 0));
	sb_adds(out, " of ");
	add_thousands(out, (double)jint(root, "disks.requested", 0));
	sb_adds(out, " scsi_debug");
	if (jget(root, "disks.first") && jget(root, "disks.last")) {
		sb_adds(out, ", ");
		disk_cell(out, jget(root, "disks.first"));
		sb_adds(out, " .. ");
		disk_cell(out, jget(root, "disks.last"));
	}
	sb_addf(out, "; %lld of %lld virtio-", jint(root, "disks.virtio_present", 0),
		jint(root, "disks.virtio_requested", 0));
	html_escape(out, jstr(root, "disks.virtio_bus", "?"));
	sb_adds(out, "<br>time:");
	static const struct {
		const char *name, *path;
	} times[] = {
		{ "enumeration", "timings.enumerate_s" }, { "boot", "timings.boot_s" },
		{ "rmmod", "timings.rmmod_s" }, { "total", "timings.total_s" },
		{ "setup", "timings.setup_s" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(times); i++) {
		sb_addf(out, "%s %s ", i ? "," : "", times[i].name);
		if (jnum(root, times[i].path, &x))
			sb_addf(out, "%.1f s", x);
		else
			sb_adds(out, "n/a");
	}
	sb_adds(out, "</p>\n");
	if ((v = jget(root, "console.crash")) && json_object_is_type(v, json_type_string)) {
		sb_adds(out, "<p class=\"reason\"><b>Console:</b> <code>");
		html_escape(out, json_object_get_string(v));
		sb_adds(out, "</code></p>\n");
	}
	if ((v = jget(root, "console.oom")) && json_object_is_type(v, json_type_string)) {
		sb_adds(out, "<p class=\"reason\"><b>OOM:</b> <code>");
		html_escape(out, json_object_get_string(v));
		sb_adds(out, "</code></p>\n");
	}
}

/* The rows of report.md's "memory at insmod" table, and whether a field
 * costs when it falls (free memory) or when it grows (slab). */
static const struct {
	const char *field;
	int falls;
} mem_rows[] = {
	{ "LowFree", 1 },
	{ "MemFree", 1 },
	{ "MemAvailable", 1 },
	{ "Slab", 0 },
	{ "SUnreclaim", 0 },
};

static void mem_table(struct strbuf *out, json_object *root)
{
	json_object *b = result_phase(root, phase_name(PHASE_BEFORE_INSMOD)), *a = result_phase(root, phase_name(PHASE_AFTER_INSMOD));
	long long disks = jint(root, "settings.disks", 0);
	int hm = result_highmem(root);
	double v;

	sb_adds(out, "<h2 id=\"insmod\">Memory at insmod scsi_debug</h2>\n<p class=\"note\">");
	sb_adds(out, hm ? "LowFree is the headline: a HIGHMEM kernel's disks live in lowmem."
			: "MemFree is the headline: a 64-bit kernel has no LowFree "
			  "(all its memory is directly mapped).");
	sb_adds(out, " Per disk is the change divided by the number of scsi_debug disks, "
		"with the sign turned so that a cost is positive.</p>\n"
		"<table class=\"mem\">\n<tr><th></th><th class=\"n\">before insmod</th>"
		"<th class=\"n\">after insmod</th><th class=\"n\">change</th>"
		"<th class=\"n\">per disk</th></tr>\n");
	for (size_t i = 0; i < ARRAY_SIZE(mem_rows); i++) {
		const char *f = mem_rows[i].field;
		char path[64];

		if (!strcmp(f, "LowFree") && !hm)
			continue;
		sb_addf(out, "<tr%s><td>%s</td><td class=\"n\">",
			!strcmp(f, hm ? "LowFree" : "MemFree") ? " class=\"headline\"" : "", f);
		snprintf(path, sizeof(path), "meminfo.%s", f);
		kb_at(out, b, path);
		sb_adds(out, "</td><td class=\"n\">");
		kb_at(out, a, path);
		sb_adds(out, "</td><td class=\"n\">");
		snprintf(path, sizeof(path), "deltas.insmod.%s_kb", f);
		if (jnum(root, path, &v)) {
			add_signed_kb(out, v);
			sb_adds(out, "</td><td class=\"n\">");
			if (disks) {
				/* report.c's arithmetic, to the byte */
				long long d = dround(v), cost = mem_rows[i].falls ? -d : d;
				if (cost > -LLONG_MAX / 1024 && cost < LLONG_MAX / 1024)
					fmt_thousands(out, cost * 1024 / disks);
				else	/* no kernel has that much; a damaged file */
					add_thousands(out, (double)cost * 1024 / (double)disks);
				sb_adds(out, " B");
			} else {
				sb_adds(out, "n/a");
			}
		} else {
			sb_adds(out, "n/a</td><td class=\"n\">n/a");
		}
		sb_adds(out, "</td></tr>\n");
	}
	sb_adds(out, "</table>\n");
	if (jnum(root, "deltas.insmod.unaccounted_kb", &v)) {
		sb_adds(out, "<p>MemFree drop not in Slab/PageTables/KernelStack/VmallocUsed/Percpu: ");
		add_kb(out, v);
		sb_adds(out, " <span class=\"note\">(blk-mq request pools and other page "
			"allocations never appear in slabinfo)</span></p>\n");
	}
	if (jnum(root, "deltas.insmod.lowmem_unaccounted_kb", &v)) {
		sb_adds(out, "<p>LowFree drop not in Slab/PageTables/KernelStack/Percpu: ");
		add_kb(out, v);
		sb_adds(out, "</p>\n");
	}
	if (jnum(root, "deltas.rmmod.returned_pct", &v)) {
		sb_addf(out, "<p>After rmmod: %.0f%% of the MemFree taken at insmod came back (", v);
		if (jnum(root, "deltas.rmmod.MemFree_kb", &v))
			add_signed_kb(out, v);
		else
			sb_adds(out, "n/a");
		sb_adds(out, ").</p>\n");
	}
}

static void phase_table(struct strbuf *out, json_object *phases)
{
	double v;

	sb_adds(out, "<table class=\"phases\">\n<tr><th>phase</th><th class=\"n\">uptime</th>"
		"<th class=\"n\">LowFree</th><th class=\"n\">MemFree</th>"
		"<th class=\"n\">MemAvailable</th><th class=\"n\">Slab</th></tr>\n");
	for (size_t i = 0; i < alen(phases); i++) {
		json_object *p = aget(phases, i);
		sb_adds(out, "<tr><td>");
		html_escape(out, jstr(p, "name", "?"));
		sb_adds(out, "</td><td class=\"n\">");
		if (jnum(p, "uptime_s", &v))
			sb_addf(out, "%.2f s", v);
		else
			sb_adds(out, "n/a");
		static const char *const f[] = { "meminfo.LowFree", "meminfo.MemFree",
						  "meminfo.MemAvailable", "meminfo.Slab" };
		for (size_t k = 0; k < ARRAY_SIZE(f); k++) {
			sb_adds(out, "</td><td class=\"n\">");
			kb_at(out, p, f[k]);
		}
		sb_adds(out, "</td></tr>\n");
	}
	sb_adds(out, "</table>\n");
}

static void slab_section(struct strbuf *out, json_object *root)
{
	json_object *g = jarr(root, "slab_growth");
	size_t n = alen(g), k = 0;
	struct hbar *b;

	if (!n)
		return;
	b = xcalloc(n, sizeof(*b));
	for (size_t i = 0; i < n && k < SLAB_SHOWN; i++) {
		if (!jnum(aget(g, i), "kb", &b[k].v))
			continue;
		b[k++].label = jstr(aget(g, i), "cache", "?");
	}
	sb_adds(out, "<h2 id=\"slab\">Slab caches that grew most at insmod</h2>\n");
	if (k)
		chart_hbars(out, "slab caches that grew most at insmod, kB", b, k, "#59a14f", "#e15759");
	sb_adds(out, "<table class=\"slab\">\n<tr><th>cache</th><th class=\"n\">growth</th>"
		"<th class=\"n\">objects</th><th class=\"n\">per disk</th></tr>\n");
	for (size_t i = 0; i < n; i++) {
		json_object *c = aget(g, i);
		double v;
		sb_adds(out, "<tr><td>");
		html_escape(out, jstr(c, "cache", "?"));
		sb_adds(out, "</td><td class=\"n\">");
		if (jnum(c, "kb", &v))
			add_signed_kb(out, v);
		else
			sb_adds(out, "n/a");
		sb_adds(out, "</td><td class=\"n\">");
		if (jnum(c, "objs", &v))
			add_thousands(out, v);
		else
			sb_adds(out, "n/a");
		sb_adds(out, "</td><td class=\"n\">");
		if (jnum(c, "bytes_per_disk", &v)) {
			add_thousands(out, v);
			sb_adds(out, " B");
		} else {
			sb_adds(out, "n/a");
		}
		sb_adds(out, "</td></tr>\n");
	}
	sb_adds(out, "</table>\n");
	free(b);
}

static void monitor_section(struct strbuf *out, json_object *root)
{
	json_object *m = jget(root, "monitor"), *gaps = jarr(root, "monitor.gaps");
	json_object *p = jget(m, "peak");
	double v;

	if (!m || !json_object_is_type(m, json_type_object))
		return;
	sb_adds(out, "<h2 id=\"monitor\">Memory while it ran</h2>\n<p>");
	if (jnum(m, "received", &v))
		add_thousands(out, v);
	else
		add_thousands(out, (double)alen(jarr(m, "samples")));
	sb_adds(out, " samples");
	if (jnum(m, "interval_ms", &v)) {
		sb_adds(out, ", one every ");
		add_thousands(out, v);
		sb_adds(out, " ms");
	}
	for (size_t i = 0, shown = 0; i < alen(gaps); i++) {
		double a, b;
		if (!gap_at(gaps, i, &a, &b))
			continue;
		if (shown == GAPS_LISTED) {
			sb_adds(out, " and more");
			break;
		}
		sb_addf(out, "%s%lld..%lld", shown++ ? ", " : "; lost on the channel: ",
			dround(a), dround(b));
	}
	sb_adds(out, ". The guest's steps are shaded.</p>\n");
	if (alen(jarr(m, "samples")))
		chart_monitor(out, root);
	if (p) {
		sb_adds(out, "<table class=\"peak\">\n<tr><th></th><th class=\"n\">steady after insmod</th>"
			"<th class=\"n\">during I/O</th></tr>\n<tr><td>MemFree (lowest during I/O)</td><td class=\"n\">");
		kb_at(out, p, "steady_after_insmod.MemFree");
		sb_adds(out, "</td><td class=\"n\">");
		kb_at(out, p, "during_io.MemFree_min");
		sb_adds(out, "</td></tr>\n<tr><td>LowFree (lowest)</td><td class=\"n\">");
		kb_at(out, p, "steady_after_insmod.LowFree");
		sb_adds(out, "</td><td class=\"n\">");
		kb_at(out, p, "during_io.LowFree_min");
		sb_adds(out, "</td></tr>\n<tr><td>Slab (highest)</td><td class=\"n\">");
		kb_at(out, p, "steady_after_insmod.Slab");
		sb_adds(out, "</td><td class=\"n\">");
		kb_at(out, p, "during_io.Slab_max");
		sb_adds(out, "</td></tr>\n</table>\n");
		if (jnum(p, "io_extra_kb", &v)) {
			sb_adds(out, "<p>The I/O peak took ");
			add_kb(out, v);
			sb_adds(out, " of MemFree beyond the steady state after insmod.</p>\n");
		}
	}
}

static void fio_cell(struct strbuf *out, json_object *j, const char *dir)
{
	char p50[48], p99[48];
	double a, b;

	snprintf(p50, sizeof(p50), "%s.clat_p50_us", dir);
	snprintf(p99, sizeof(p99), "%s.clat_p99_us", dir);
	sb_adds(out, "<td class=\"n\">");
	if (jnum(j, p50, &a) && jnum(j, p99, &b))
		sb_addf(out, "%.1f / %.1f us", a, b);
	sb_adds(out, "</td>");
}

static void fio_section(struct strbuf *out, json_object *root)
{
	json_object *jobs = jarr(root, "fio.jobs");
	double v;

	if (!alen(jobs))
		return;
	sb_adds(out, "<h2 id=\"fio\">fio</h2>\n<table class=\"fio\">\n<tr><th>group</th><th>job</th>"
		"<th class=\"n\">read IOPS</th><th class=\"n\">write IOPS</th>"
		"<th class=\"n\">read p50 / p99</th><th class=\"n\">write p50 / p99</th>"
		"<th class=\"n\">error</th></tr>\n");
	for (size_t i = 0; i < alen(jobs); i++) {
		json_object *j = aget(jobs, i);
		sb_adds(out, "<tr><td>");
		html_escape(out, jstr(j, "group", "?"));
		sb_adds(out, "</td><td>");
		html_escape(out, jstr(j, "job", "?"));
		sb_adds(out, "</td>");
		static const char *const iops[] = { "read.iops", "write.iops" };
		for (size_t k = 0; k < ARRAY_SIZE(iops); k++) {
			sb_adds(out, "<td class=\"n\">");
			if (jnum(j, iops[k], &v))
				add_thousands(out, v);
			sb_adds(out, "</td>");
		}
		fio_cell(out, j, "read");
		fio_cell(out, j, "write");
		v = 0;
		jnum(j, "error", &v);
		sb_addf(out, "<td class=\"n%s\">%lld</td></tr>\n", v ? " fail" : "", dround(v));
	}
	sb_adds(out, "</table>\n<p class=\"note\">Latencies are completion latencies; "
		"fio's own JSON for each group is in fio/ in the run directory.</p>\n");
}

static void checks_section(struct strbuf *out, json_object *root)
{
	json_object *c = jarr(root, "checks");

	if (!alen(c))
		return;
	sb_adds(out, "<h2 id=\"checks\">Checks</h2>\n<table class=\"checks\">\n"
		"<tr><th>check</th><th>result</th><th>detail</th></tr>\n");
	for (size_t i = 0; i < alen(c); i++) {
		json_object *k = aget(c, i);
		int pass = jbool(k, "pass");
		sb_adds(out, "<tr><td>");
		html_escape(out, jstr(k, "name", "?"));
		sb_addf(out, "</td><td class=\"%s\">%s</td><td>", pass ? "pass" : "fail",
			pass ? "pass" : "FAIL");
		html_escape(out, jstr(k, "detail", ""));
		sb_adds(out, "</td></tr>\n");
	}
	sb_adds(out, "</table>\n");
}

static void disk_row(struct strbuf *out, const char *what, json_object *d)
{
	if (!d || !json_object_is_type(d, json_type_object))
		return;
	sb_addf(out, "<tr><td>%s</td><td>", what);
	html_escape(out, jstr(d, "name", "?"));
	sb_adds(out, "</td><td>");
	html_escape(out, jstr(d, "dev", "?"));
	sb_adds(out, "</td></tr>\n");
}

static void disks_section(struct strbuf *out, json_object *root)
{
	json_object *v = jarr(root, "disks.virtio");

	sb_adds(out, "<h2 id=\"disks\">Disks</h2>\n<table class=\"disks\">\n"
		"<tr><th>disk</th><th>name</th><th>dev_t</th></tr>\n");
	disk_row(out, "first scsi_debug", jget(root, "disks.first"));
	disk_row(out, "last scsi_debug", jget(root, "disks.last"));
	for (size_t i = 0; i < alen(v); i++)
		disk_row(out, "virtio", aget(v, i));
	sb_adds(out, "</table>\n");
}

static void rejections_section(struct strbuf *out, json_object *root)
{
	json_object *r = jarr(root, "channel.rejections");

	if (!alen(r))
		return;
	sb_addf(out, "<h2 id=\"rejected\">Rejected channel records (%lld)</h2>\n<ul>\n",
		jint(root, "channel.rejected", (long long)alen(r)));
	for (size_t i = 0; i < alen(r); i++) {
		sb_adds(out, "<li><code>");
		if (json_object_is_type(aget(r, i), json_type_string))
			html_escape(out, json_object_get_string(aget(r, i)));
		sb_adds(out, "</code></li>\n");
	}
	sb_adds(out, "</ul>\n");
}

void report_html(json_object *root, struct strbuf *out)
{
	json_object *phases = jarr(root, "phases");

	page_begin(out, jstr(root, "run_id", "scaletest run"), jstr(root, "status", "?"));
	run_head(out, root);
	if (result_phase(root, phase_name(PHASE_BEFORE_INSMOD)) && result_phase(root, phase_name(PHASE_AFTER_INSMOD)))
		mem_table(out, root);
	sb_adds(out, "<h2 id=\"phases\">Memory by phase</h2>\n");
	if (alen(phases)) {
		chart_phases(out, phases);
		phase_table(out, phases);
	} else {
		sb_adds(out, "<p class=\"note\">No phase was measured.</p>\n");
	}
	slab_section(out, root);
	monitor_section(out, root);
	fio_section(out, root);
	checks_section(out, root);
	disks_section(out, root);
	rejections_section(out, root);
	page_end(out, root);
}

/* ---- the comparison's page ---- */

static const char *verdict_class(const char *v)
{
	if (!strcmp(v, "regression"))
		return "regression";
	if (!strcmp(v, "improvement"))
		return "improvement";
	if (!strcmp(v, "no change"))
		return "nochange";
	return "na";
}

static void verdict_text(struct strbuf *out, const char *v)
{
	if (!strcmp(v, "regression"))
		sb_adds(out, "\xe2\x96\xb2 REGRESSION");	/* an up triangle */
	else
		html_escape(out, v);
}

static void side_cell(struct strbuf *out, json_object *side, const char *key)
{
	sb_adds(out, "<td>");
	html_escape(out, jstr(side, key, "n/a"));
	sb_adds(out, "</td>");
}

static void sides_table(struct strbuf *out, json_object *cmp)
{
	static const char *const sides[] = { "a", "b" };
	double v;

	sb_adds(out, "<h2 id=\"sides\">The two sides</h2>\n<table class=\"sides\">\n"
		"<tr><th></th><th>A</th><th>B</th></tr>\n<tr><td>label</td>");
	for (int s = 0; s < 2; s++) {
		sb_adds(out, "<td><b>");
		html_escape(out, jstr(jget(cmp, sides[s]), "label", "n/a"));
		sb_adds(out, "</b></td>");
	}
	sb_adds(out, "</tr>\n<tr><td>scenario</td>");
	for (int s = 0; s < 2; s++)
		side_cell(out, jget(cmp, sides[s]), "scenario");
	sb_adds(out, "</tr>\n<tr><td>kernel</td>");
	for (int s = 0; s < 2; s++)
		side_cell(out, jget(cmp, sides[s]), "kernel");
	if (jstr(jget(cmp, "a"), "path", NULL) || jstr(jget(cmp, "b"), "path", NULL)) {
		sb_adds(out, "</tr>\n<tr><td>path</td>");
		for (int s = 0; s < 2; s++)
			side_cell(out, jget(cmp, sides[s]), "path");
	}
	sb_adds(out, "</tr>\n<tr><td>runs</td>");
	for (int s = 0; s < 2; s++) {
		json_object *side = jget(cmp, sides[s]), *runs = jarr(side, "runs");
		sb_adds(out, "<td>");
		if (jnum(side, "n", &v))
			sb_addf(out, "%lld", dround(v));
		else
			sb_adds(out, "n/a");
		for (size_t i = 0; i < alen(runs); i++) {
			sb_adds(out, "<br><code>");
			if (json_object_is_type(aget(runs, i), json_type_string))
				html_escape(out, json_object_get_string(aget(runs, i)));
			sb_adds(out, "</code>");
		}
		sb_adds(out, "</td>");
	}
	sb_adds(out, "</tr>\n</table>\n");
}

static void rule_line(struct strbuf *out, json_object *cmp)
{
	json_object *r = jget(cmp, "rule");
	const char *test = jstr(r, "test", "?");
	double alpha, thr;
	int ha = jnum(r, "alpha", &alpha), ht = jnum(r, "threshold_pct", &thr);

	sb_adds(out, "<p class=\"rule\"><b>Rule:</b> ");
	if (!strcmp(test, "welch"))
		sb_adds(out, "Welch&#39;s t-test");
	else
		html_escape(out, test);
	if (ha)
		sb_addf(out, ", alpha %g", alpha);
	if (ht)
		sb_addf(out, ", threshold %g%%", thr);
	sb_adds(out, ". ");
	if (ha && ht)
		sb_addf(out, "A change counts when it is at least %g%% of side A&#39;s mean and, "
			"with two runs or more on both sides, the test gives p &lt; %g; "
			"only gating metrics decide the verdict.", thr, alpha);
	sb_adds(out, "</p>\n");
}

static void kv_value(struct strbuf *out, json_object *o, const char *key)
{
	json_object *v = jget(o, key);

	if (!v || (json_object_is_type(v, json_type_string) && !*json_object_get_string(v)))
		sb_adds(out, "<i class=\"note\">(none)</i>");
	else if (json_object_is_type(v, json_type_string))
		html_escape(out, json_object_get_string(v));
	else
		html_escape(out, json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
}

static void mismatch_block(struct strbuf *out, json_object *cmp)
{
	json_object *m = jarr(cmp, "mismatch");

	if (!alen(m))
		return;
	sb_adds(out, "<div class=\"warn\" id=\"mismatch\"><b>Warning: the two sides ran in "
		"different environments</b>, so their figures may not be comparable:\n<ul>\n");
	for (size_t i = 0; i < alen(m); i++) {
		json_object *e = aget(m, i);
		sb_adds(out, "<li><code>");
		html_escape(out, jstr(e, "key", "?"));
		sb_adds(out, "</code>: A ");
		kv_value(out, e, "a");
		sb_adds(out, ", B ");
		kv_value(out, e, "b");
		sb_adds(out, "</li>\n");
	}
	sb_adds(out, "</ul></div>\n");
}

static void differences_table(struct strbuf *out, json_object *cmp)
{
	json_object *d = jarr(cmp, "differences");

	if (!alen(d))
		return;
	sb_adds(out, "<h2 id=\"differences\">What differs</h2>\n<table class=\"differences\">\n"
		"<tr><th>key</th><th>A</th><th>B</th></tr>\n");
	for (size_t i = 0; i < alen(d); i++) {
		json_object *e = aget(d, i);
		sb_adds(out, "<tr><td><code>");
		html_escape(out, jstr(e, "key", "?"));
		sb_adds(out, "</code></td><td>");
		kv_value(out, e, "a");
		sb_adds(out, "</td><td>");
		kv_value(out, e, "b");
		sb_adds(out, "</td></tr>\n");
	}
	sb_adds(out, "</table>\n");
}

static void unit_suffix(struct strbuf *out, json_object *m)
{
	const char *unit = jstr(m, "unit", "");

	if (*unit) {
		sb_addch(out, ' ');
		html_escape(out, unit);
	}
}

/* "mean ± sd unit (n=3)" */
static void mean_sd(struct strbuf *out, json_object *m, const char *side)
{
	json_object *s = jget(m, side);
	double mean, sd, n = 0;

	if (!jnum(s, "mean", &mean)) {
		sb_adds(out, "n/a");
		return;
	}
	add_value(out, mean);
	jnum(s, "n", &n);
	if (n > 1 && jnum(s, "sd", &sd)) {
		sb_adds(out, " \xc2\xb1 ");
		add_value(out, sd);
	}
	unit_suffix(out, m);
	if (n > 0)
		sb_addf(out, " <span class=\"note\">(n=%lld)</span>", dround(n));
}

static void metrics_table(struct strbuf *out, json_object *cmp)
{
	json_object *ms = jarr(cmp, "metrics");
	double v;

	sb_adds(out, "<h2 id=\"metrics\">Metrics</h2>\n");
	if (!alen(ms)) {
		sb_adds(out, "<p class=\"note\">No metric was compared.</p>\n");
		return;
	}
	sb_adds(out, "<table class=\"metrics\">\n<tr><th>metric</th><th class=\"n\">A mean \xc2\xb1 sd</th>"
		"<th class=\"n\">B mean \xc2\xb1 sd</th><th class=\"n\">change</th>"
		"<th class=\"n\">change %</th><th class=\"n\">p</th><th>verdict</th></tr>\n");
	for (size_t i = 0; i < alen(ms); i++) {
		json_object *m = aget(ms, i);
		const char *verdict = jstr(m, "verdict", "n/a");
		sb_addf(out, "<tr class=\"%s\"><td>", verdict_class(verdict));
		html_escape(out, jstr(m, "name", jstr(m, "key", "?")));
		if (jbool(m, "gating"))
			sb_adds(out, " <span class=\"gating\">gating</span>");
		sb_adds(out, "</td><td class=\"n\">");
		mean_sd(out, m, "a");
		sb_adds(out, "</td><td class=\"n\">");
		mean_sd(out, m, "b");
		sb_adds(out, "</td><td class=\"n\">");
		if (jnum(m, "change", &v)) {
			add_signed_value(out, v);
			unit_suffix(out, m);
		} else {
			sb_adds(out, "n/a");
		}
		sb_adds(out, "</td><td class=\"n\">");
		if (jnum(m, "change_pct", &v))
			sb_addf(out, "%+.1f%%", v);
		else
			sb_adds(out, "n/a");
		sb_adds(out, "</td><td class=\"n\">");
		if (jnum(m, "p", &v) && v >= 0 && v < 0.001)
			sb_adds(out, "&lt; 0.001");
		else if (jnum(m, "p", &v) && v >= 0)
			sb_addf(out, "%.3f", v);
		else
			sb_adds(out, "n/a");
		sb_addf(out, "</td><td class=\"v-%s\">", verdict_class(verdict));
		verdict_text(out, verdict);
		sb_adds(out, "</td></tr>\n");
	}
	sb_adds(out, "</table>\n<p class=\"note\">p is n/a when a side has fewer than two runs; "
		"then the threshold alone decides.</p>\n");
}

static void values_range(json_object *s, double *lo, double *hi)
{
	json_object *vals = jarr(s, "values");
	double v, mean, sd;

	for (size_t i = 0; i < alen(vals); i++)
		if (jnum(aget(vals, i), "", &v)) {
			*lo = v < *lo ? v : *lo;
			*hi = v > *hi ? v : *hi;
		}
	if (jnum(s, "mean", &mean)) {
		if (!jnum(s, "sd", &sd))
			sd = 0;
		sd = dabs(sd);
		*lo = mean - sd < *lo ? mean - sd : *lo;
		*hi = mean + sd > *hi ? mean + sd : *hi;
	}
}

/* A against B for one metric: bars of the means, one sd as error bars
 * when a side has more than one run, and every run's value as a dot. */
static void chart_metric(struct strbuf *out, json_object *m, json_object *cmp)
{
	static const char *const sides[] = { "a", "b" };
	const char *verdict = jstr(m, "verdict", "n/a");
	const char *bcolor = !strcmp(verdict, "regression") ? "#e15759" :
			     !strcmp(verdict, "improvement") ? "#59a14f" : "#4e79a7";
	const char *colors[2] = { "#9aa9bd", bcolor };
	const double W = 440, H = 250, ml = 86, mr = 14, top = 40, ph = 160;
	double lo = 0, hi = 0, y0 = top + ph, y1 = top, v;
	struct axis ax;
	struct strbuf label = STRBUF_INIT;

	values_range(jget(m, "a"), &lo, &hi);
	values_range(jget(m, "b"), &lo, &hi);
	axis_nice(&ax, lo, hi, 4);
	sb_adds(&label, jstr(m, "name", jstr(m, "key", "?")));
	sb_adds(&label, ", A against B");
	svg_open(out, W, H, "chart metric", label.buf);
	sb_release(&label);
	sb_addf(out, "<text class=\"title\" x=\"%.1f\" y=\"16\">", ml);
	html_escape_cut(out, jstr(m, "name", jstr(m, "key", "?")), 40);
	sb_addf(out, "</text><text class=\"val v-%s\" x=\"%.1f\" y=\"31\">", verdict_class(verdict), ml);
	verdict_text(out, verdict);
	if (jnum(m, "change_pct", &v))
		sb_addf(out, " (%+.1f%%)", v);
	sb_adds(out, "</text>\n");
	const char *unit = jstr(m, "unit", "");
	y_axis(out, &ax, ml, W - mr, y0, y1, !strcmp(unit, "B") ? "bytes" : !strcmp(unit, "s") ? "seconds" : unit);

	double slot = (W - ml - mr) / 2, bw = 70, zero = axis_pos(&ax, 0, y0, y1);
	for (int s = 0; s < 2; s++) {
		json_object *side = jget(m, sides[s]), *vals = jarr(side, "values");
		double cx = ml + slot * (s + 0.5), mean, sd, n = 0;

		if (jnum(side, "mean", &mean)) {
			double y = axis_pos(&ax, mean, y0, y1);
			sb_addf(out, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"><title>%s mean: ", cx - bw / 2, y < zero ? y : zero, bw,
				dabs(zero - y), colors[s], s ? "B" : "A");
			add_value(out, mean);
			unit_suffix(out, m);
			sb_addf(out, "</title></rect><text class=\"val\" x=\"%.1f\" y=\"%.1f\" "
				"text-anchor=\"start\">", cx + bw / 2 + 6, y + 4);
			add_value(out, mean);
			sb_adds(out, "</text>\n");
			jnum(side, "n", &n);
			if (n > 1 && jnum(side, "sd", &sd) && sd != 0) {
				double ya = axis_pos(&ax, mean - dabs(sd), y0, y1);
				double yb = axis_pos(&ax, mean + dabs(sd), y0, y1);
				sb_addf(out, "<line class=\"err\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
					"<line class=\"err\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
					"<line class=\"err\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
					cx, ya, cx, yb, cx - 8, ya, cx + 8, ya, cx - 8, yb, cx + 8, yb);
			}
		} else {
			sb_addf(out, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">n/a</text>\n",
				cx, (y0 + y1) / 2);
		}
		for (size_t i = 0; i < alen(vals); i++) {
			if (!jnum(aget(vals, i), "", &v))
				continue;
			double dx = alen(vals) > 1 ? ((double)i / (double)(alen(vals) - 1) - 0.5) * 30 : 0;
			sb_addf(out, "<circle class=\"run\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#fff\" "
				"stroke=\"#222\" stroke-width=\"1.2\"/>", cx + dx, axis_pos(&ax, v, y0, y1));
		}
		sb_addf(out, "<text class=\"cat\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s: ",
			cx, y0 + 18, s ? "B" : "A");
		html_escape_cut(out, jstr(jget(cmp, sides[s]), "label", sides[s]), 22);
		sb_adds(out, "</text>\n");
	}
	sb_addf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		ml, zero, W - mr, zero);
	sb_addf(out, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\">bars: mean; whiskers: one sd; "
		"dots: runs</text>\n", ml, H - 8);
	sb_adds(out, "</svg>\n");
}

struct slab_change {
	const char *cache;
	double a, b, change;
	int ha, hb;
};

static int by_abs_change(const void *x, const void *y)
{
	double a = dabs(((const struct slab_change *)x)->change);
	double b = dabs(((const struct slab_change *)y)->change);

	return a < b ? 1 : a > b ? -1 : 0;
}


static void slab_changes(struct strbuf *out, json_object *cmp)
{
	json_object *sl = jarr(cmp, "slab");
	size_t n = 0;
	struct slab_change *c;
	struct hbar b[SLAB_SHOWN];

	if (!alen(sl))
		return;
	c = xcalloc(alen(sl), sizeof(*c));
	for (size_t i = 0; i < alen(sl); i++) {
		json_object *e = aget(sl, i);
		c[n].cache = jstr(e, "cache", "?");
		c[n].ha = jnum(e, "a_kb", &c[n].a);
		c[n].hb = jnum(e, "b_kb", &c[n].b);
		if (!jnum(e, "change_kb", &c[n].change)) {
			if (!c[n].ha || !c[n].hb)
				continue;
			c[n].change = c[n].b - c[n].a;
		}
		if (dround(c[n].change) == 0)
			continue;
		n++;
	}
	qsort(c, n, sizeof(*c), by_abs_change);
	if (n > SLAB_SHOWN)
		n = SLAB_SHOWN;
	if (!n) {
		sb_adds(out, "<h2 id=\"slab\">Slab caches that changed most</h2>\n"
			"<p class=\"note\">No slab cache changed.</p>\n");
		free(c);
		return;
	}
	sb_adds(out, "<h2 id=\"slab\">Slab caches that changed most</h2>\n"
		"<p class=\"note\">Each cache&#39;s growth at insmod, in kB (the mean of a side&#39;s runs), "
		"and B minus A: red where B takes more, green where it takes less.</p>\n");
	for (size_t i = 0; i < n; i++) {
		b[i].label = c[i].cache;
		b[i].v = c[i].change;
	}
	chart_hbars(out, "slab caches that changed most, B against A, kB", b, n, "#e15759", "#59a14f");
	sb_adds(out, "<table class=\"slab\">\n<tr><th>cache</th><th class=\"n\">A growth</th>"
		"<th class=\"n\">B growth</th><th class=\"n\">B minus A</th></tr>\n");
	for (size_t i = 0; i < n; i++) {
		sb_adds(out, "<tr><td>");
		html_escape(out, c[i].cache);
		sb_adds(out, "</td><td class=\"n\">");
		if (c[i].ha)
			add_kb(out, c[i].a);
		else
			sb_adds(out, "n/a");
		sb_adds(out, "</td><td class=\"n\">");
		if (c[i].hb)
			add_kb(out, c[i].b);
		else
			sb_adds(out, "n/a");
		sb_adds(out, "</td><td class=\"n\">");
		add_signed_kb(out, c[i].change);
		sb_adds(out, "</td></tr>\n");
	}
	sb_adds(out, "</table>\n");
	free(c);
}

void report_html_compare(json_object *cmp, struct strbuf *out)
{
	const char *verdict = jstr(cmp, "verdict", "n/a");
	json_object *ms = jarr(cmp, "metrics");
	struct strbuf title = STRBUF_INIT;
	int charts = 0;

	sb_adds(&title, jstr(jget(cmp, "a"), "label", "A"));
	sb_adds(&title, " vs ");
	sb_adds(&title, jstr(jget(cmp, "b"), "label", "B"));
	page_begin(out, title.buf, verdict);
	sb_release(&title);

	sb_adds(out, "<h1>scaletest comparison: <span class=\"side\">");
	html_escape(out, jstr(jget(cmp, "a"), "label", "A"));
	sb_adds(out, "</span> against <span class=\"side\">");
	html_escape(out, jstr(jget(cmp, "b"), "label", "B"));
	sb_addf(out, "</span></h1>\n<p class=\"verdict v-%s\">Verdict: ", verdict_class(verdict));
	verdict_text(out, verdict);
	sb_adds(out, "</p>\n");
	mismatch_block(out, cmp);
	rule_line(out, cmp);
	sides_table(out, cmp);
	differences_table(out, cmp);
	metrics_table(out, cmp);
	for (size_t i = 0; i < alen(ms); i++) {
		json_object *m = aget(ms, i);
		double ma, mb;
		if (!jbool(m, "gating") || (!jnum(m, "a.mean", &ma) && !jnum(m, "b.mean", &mb)))
			continue;
		if (!charts++)
			sb_adds(out, "<h2 id=\"gating\">Gating metrics</h2>\n<div class=\"charts\">\n");
		chart_metric(out, m, cmp);
	}
	if (charts)
		sb_adds(out, "</div>\n");
	slab_changes(out, cmp);
	page_end(out, NULL);
}
