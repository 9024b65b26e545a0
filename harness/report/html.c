// SPDX-License-Identifier: Apache-2.0
#include "report/html.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "report/document.h"

/* ---- the style of every page: inline, nothing fetched ---- */

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
	".v-worse{background:#fff4e0;color:#8a4b00}.v-better{background:#eef6ee;color:#2e5e30}\n"
	"table.metrics{display:block;overflow-x:auto}\n"
	"td.v-regression,td.v-improvement,td.v-worse,td.v-better,td.v-nochange,td.v-na{white-space:nowrap}\n"
	".gating{font-size:11px;border:1px solid #999;border-radius:3px;padding:0 4px;color:#555}\n"
	".charts{display:flex;flex-wrap:wrap;gap:8px 16px}\n"
	"svg.chart{display:block;margin:8px 0;max-width:100%;height:auto;overflow:visible}\n"
	"svg text{font-family:\"DejaVu Sans\",sans-serif;font-size:11px;fill:#333}\n"
	"svg text.axt{font-size:12px;fill:#555}svg text.val{font-size:10.5px;fill:#222}\n"
	"svg text.title{font-size:12.5px;font-weight:600}\n"
	"svg text.ice{font-size:10px;fill:#111;pointer-events:none}\n"
	"svg text.steplabel{font-size:10.5px;fill:#666}svg text.gaplabel{font-size:10px;fill:#b71c1c}\n"
	"svg line.grid{stroke:#e4e4e4;stroke-width:1}svg line.grid.zero,svg line.axis{stroke:#666;stroke-width:1}\n"
	"svg rect.frame{fill:none;stroke:#bbb}svg line.err{stroke:#222;stroke-width:1.5}\n"
	"code{font-family:\"DejaVu Sans Mono\",monospace;font-size:13px}\n"
	"pre{font:12px/1.4 \"DejaVu Sans Mono\",monospace;background:#f7f7f8;border:1px solid #e4e4e4;"
	"padding:8px 10px;margin:6px 0 10px;white-space:pre-wrap;overflow-wrap:anywhere}\n"
	".overridden{background:#fff4e5;border:1px solid #f0a040;border-radius:3px;padding:0 6px}\n"
	"footer{margin-top:30px;color:#777;font-size:12px}\n";

/* ---- the markup ---- */

/* ' class="cls" id="id"', each when given. */
static void attrs(struct strbuf *out, const char *cls, const char *id)
{
	if (cls) {
		sb_adds(out, " class=\"");
		html_escape(out, cls);
		sb_addch(out, '"');
	}
	if (id) {
		sb_adds(out, " id=\"");
		html_escape(out, id);
		sb_addch(out, '"');
	}
}

static const char *const block_tag[] = {
	[MK_H1] = "h1", [MK_H2] = "h2", [MK_P] = "p", [MK_BOX] = "div",
	[MK_LIST] = "ul", [MK_ITEM] = "li",
};

static void html_block(struct doc *d, enum mk_block what, const char *cls, const char *id)
{
	sb_addf(d->out, "<%s", block_tag[what]);
	attrs(d->out, cls, id);
	sb_adds(d->out, what == MK_LIST ? ">\n" : ">");
}

static void html_block_end(struct doc *d, enum mk_block what)
{
	sb_addf(d->out, "</%s>\n", block_tag[what]);
}

static const char *const inline_tag[] = {
	[MK_STRONG] = "b", [MK_EM] = "i", [MK_SPAN] = "span", [MK_CODE] = "code",
};

static void html_inline(struct doc *d, enum mk_inline what, const char *cls)
{
	sb_addf(d->out, "<%s", inline_tag[what]);
	attrs(d->out, cls, NULL);
	sb_addch(d->out, '>');
}

static void html_inline_end(struct doc *d, enum mk_inline what)
{
	sb_addf(d->out, "</%s>", inline_tag[what]);
}

static void html_br(struct doc *d)
{
	sb_adds(d->out, "<br>");
}

/* Lines of text (a console's), each escaped on its own so that the line
 * breaks stay (html_escape makes a newline '?', as in an attribute), and
 * wrapped by the style: a long console line never widens the page. */
static void html_pre(struct doc *d, const char *text)
{
	sb_adds(d->out, "<pre>");
	while (*text) {
		size_t n = strcspn(text, "\n");
		char *line = xstrndup(text, n);

		html_escape(d->out, line);
		free(line);
		text += n;
		if (*text == '\n') {
			sb_addch(d->out, '\n');
			text++;
		}
	}
	sb_adds(d->out, "</pre>\n");
}

/* A cell's classes: "n" for a number (right-aligned), then its own. */
static void cell_open(struct doc *d, const char *tag, size_t col, const char *cls)
{
	int n = col < d->ncols && d->cols[col].align == MK_RIGHT;

	sb_addf(d->out, "<%s", tag);
	if (n || cls)
		sb_addf(d->out, " class=\"%s%s%s\"", n ? "n" : "", n && cls ? " " : "", cls ? cls : "");
	sb_addch(d->out, '>');
}

static void html_table(struct doc *d, const char *cls)
{
	sb_adds(d->out, "<table");
	attrs(d->out, cls, NULL);
	sb_adds(d->out, ">\n<tr>");
	for (size_t i = 0; i < d->ncols; i++) {
		cell_open(d, "th", i, NULL);
		sb_addf(d->out, "%s</th>", d->cols[i].head);
	}
	sb_adds(d->out, "</tr>\n");
}

static void html_row(struct doc *d, const char *cls)
{
	sb_adds(d->out, "<tr");
	attrs(d->out, cls, NULL);
	sb_addch(d->out, '>');
}

/* A cell that stands out has a class that says so; CSS makes it bold. */
static void html_cell(struct doc *d, const char *cls, int strong)
{
	(void)strong;
	cell_open(d, "td", d->col, cls);
}

static void html_cell_end(struct doc *d)
{
	sb_adds(d->out, "</td>");
}

static void html_row_end(struct doc *d)
{
	sb_adds(d->out, "</tr>\n");
}

static void html_table_end(struct doc *d)
{
	sb_adds(d->out, "</table>\n");
}

static const struct markup html_markup = {
	.page = 1, .escape = html_escape, .br = html_br, .pre = html_pre,
	.block = html_block, .block_end = html_block_end,
	.inline_begin = html_inline, .inline_end = html_inline_end,
	.table = html_table, .row = html_row, .cell = html_cell,
	.cell_end = html_cell_end, .row_end = html_row_end, .table_end = html_table_end,
};

/* ---- the page shell ---- */

static void page_begin(struct strbuf *out, const char *title, const char *sub)
{
	sb_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	html_escape(out, title);
	sb_adds(out, ": ");
	html_escape(out, sub);
	sb_addf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", css);
}

static void page_end(struct strbuf *out, const char *tool, const char *started,
		     const char *finished)
{
	sb_adds(out, "<footer>");
	html_escape(out, fmt_or(tool, "scaletest"));
	if (started) {
		sb_adds(out, ", started ");
		html_escape(out, started);
	}
	if (finished) {
		sb_adds(out, ", finished ");
		html_escape(out, finished);
	}
	sb_adds(out, ". Generated from the JSON alone; no scripts, nothing fetched.</footer>\n"
		"</body>\n</html>\n");
}

void html_run(const struct report_model *m, struct strbuf *out)
{
	page_begin(out, fmt_or(m->run_id, "scaletest run"), fmt_or(m->status, "?"));
	document_run(&html_markup, m, out);
	page_end(out, m->tool, m->started, m->finished);
}

void html_compare(const struct compare_model *m, struct strbuf *out)
{
	struct strbuf title = STRBUF_INIT;

	for (size_t k = 0; k < m->nsides; k++)
		sb_addf(&title, "%s%s", k ? " vs " : "", fmt_or(m->sides[k].label, "?"));
	page_begin(out, title.buf, fmt_or(m->verdict, "n/a"));
	sb_release(&title);
	document_compare(&html_markup, m, out);
	page_end(out, NULL, NULL, NULL);
}
