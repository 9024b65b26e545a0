// SPDX-License-Identifier: Apache-2.0
/*
 * Bars (svg.h): signed horizontal bars, a row per label (a run's slab
 * growth, a comparison's slab changes: svg_hbars), and a comparison's
 * metric, a bar a side with its runs as dots and one sd as whiskers
 * (svg_metric).
 */
#include "report/svg.h"
#include "report/svg_int.h"

#include <string.h>

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

/* ---- chart: a comparison's metric, a bar a side ---- */

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

