// SPDX-License-Identifier: Apache-2.0
/*
 * Where a phase's time went (svg.h): an icicle of the sampled stacks, the
 * phase on top, each frame under its caller as wide as its seconds,
 * coloured from waiting to on the CPU (svg_icicle).
 */
#include "report/svg.h"
#include "report/svg_int.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

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
