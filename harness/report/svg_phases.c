// SPDX-License-Identifier: Apache-2.0
/*
 * Memory by phase (svg.h): a run's grouped bars, MemFree, LowFree and Slab
 * at each phase (svg_phases), and a comparison's overlay, a line a side
 * through the phases in the order the sides name them (svg_phase_overlay).
 */
#include "report/svg.h"
#include "report/svg_int.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

static const char *name_of(const struct report_phase *p)
{
	return p->name ? p->name : "?";
}

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

/* ---- every side's memory by phase, a line a side ---- */

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
		polyline_end(out, &pts, npts, "side", svg_side_color(s));
	}
	overlay_end(out, ml, keys, knames, ns, per_row);
	free(names);
}

