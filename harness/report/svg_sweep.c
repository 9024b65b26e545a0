// SPDX-License-Identifier: Apache-2.0
/*
 * A sweep against the disk count (svg.h): the memory taken at each step,
 * or the enumeration time summed over the rising steps, as points with
 * the fitted lines (svg_sweep).
 */
#include "report/svg.h"
#include "report/svg_int.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

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

