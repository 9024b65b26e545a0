// SPDX-License-Identifier: Apache-2.0
#include "report/markdown.h"

#include "report/document.h"

/*
 * Markdown has no state of its own but one: blocks are kept apart by a
 * blank line, written when the next block begins, so that a document
 * ends with its last line and no blank one.
 */
static void separate(struct doc *d)
{
	if (d->blank)
		sb_addch(d->out, '\n');
	d->blank = 0;
}

static void md_block(struct doc *d, enum mk_block what, const char *cls, const char *id)
{
	static const char *const open[] = {
		[MK_H1] = "# ", [MK_H2] = "## ", [MK_P] = "", [MK_BOX] = NULL,
		[MK_LIST] = "", [MK_ITEM] = "- ",
	};

	(void)cls, (void)id;
	if (what != MK_BOX && what != MK_ITEM)
		separate(d);
	if (open[what])
		sb_adds(d->out, open[what]);
}

static void md_block_end(struct doc *d, enum mk_block what)
{
	if (what == MK_H1 || what == MK_H2 || what == MK_P || what == MK_ITEM)
		sb_addch(d->out, '\n');
	if (what != MK_ITEM && what != MK_BOX)
		d->blank = 1;
}

static void md_inline(struct doc *d, enum mk_inline what, const char *cls)
{
	(void)cls;
	if (what == MK_STRONG)
		sb_adds(d->out, "**");
}

static void md_inline_end(struct doc *d, enum mk_inline what)
{
	md_inline(d, what, NULL);
}

/* No line break inside a table cell or a list item: a space. */
static void md_br(struct doc *d)
{
	sb_addch(d->out, ' ');
}

/* A fenced block.  Inside a fence nothing is markup, but a fence line
 * could end it: a backquote becomes a quote. */
static void md_pre(struct doc *d, const char *text)
{
	separate(d);
	sb_adds(d->out, "```\n");
	for (const char *p = text; *p; p++)
		sb_addch(d->out, *p == '`' ? '\'' : *p);
	sb_adds(d->out, "```\n");
	d->blank = 1;
}

static void md_table(struct doc *d, const char *cls)
{
	(void)cls;
	separate(d);
	sb_addch(d->out, '|');
	for (size_t i = 0; i < d->ncols; i++)
		sb_addf(d->out, " %s |", d->cols[i].head);
	sb_adds(d->out, "\n|");
	for (size_t i = 0; i < d->ncols; i++)
		sb_adds(d->out, d->cols[i].align == MK_RIGHT ? "---:|" : "---|");
	sb_addch(d->out, '\n');
}

static void md_row(struct doc *d, const char *cls)
{
	(void)cls;
	sb_addch(d->out, '|');
}

static void md_cell(struct doc *d, const char *cls, int strong)
{
	(void)cls;
	sb_adds(d->out, strong ? " **" : " ");
}

static void md_cell_end(struct doc *d)
{
	sb_adds(d->out, d->strong ? "** |" : " |");
}

static void md_row_end(struct doc *d)
{
	sb_addch(d->out, '\n');
}

static void md_table_end(struct doc *d)
{
	d->blank = 1;
}

/* Not a page (.page 0): it quotes the summary, draws no chart. */
const struct markup markdown_markup = {
	.escape = md_escape, .br = md_br, .pre = md_pre,
	.block = md_block, .block_end = md_block_end,
	.inline_begin = md_inline, .inline_end = md_inline_end,
	.table = md_table, .row = md_row, .cell = md_cell,
	.cell_end = md_cell_end, .row_end = md_row_end, .table_end = md_table_end,
};

void markdown_run(const struct report_model *m, struct strbuf *out)
{
	document_run(&markdown_markup, m, out);
}

void markdown_compare(const struct compare_model *m, struct strbuf *out)
{
	document_compare(&markdown_markup, m, out);
}

void markdown_nightly(const struct nightly_model *m, struct strbuf *out)
{
	document_nightly(&markdown_markup, m, out);
}
