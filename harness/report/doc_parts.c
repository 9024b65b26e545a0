// SPDX-License-Identifier: Apache-2.0
#include "report/doc_parts.h"

void doc_heading(struct doc *d, enum mk_block level, const char *id, const char *title)
{
	mk_lit_block(d, level, NULL, id, title);
}

void doc_note(struct doc *d, const char *s)
{
	mk_lit_block(d, MK_P, "note", NULL, s);
}

void doc_num(struct doc *d, void (*fmt)(struct strbuf *, struct num), struct num v)
{
	struct strbuf sb = STRBUF_INIT;

	fmt(&sb, v);
	mk_text(d, sb.buf ? sb.buf : "");
	sb_release(&sb);
}

void doc_num_cell(struct doc *d, void (*fmt)(struct strbuf *, struct num), struct num v)
{
	mk_cell(d, NULL, 0);
	doc_num(d, fmt, v);
	mk_cell_end(d);
}

void doc_labelled(struct doc *d, const char *label, const char *s)
{
	mk_lit_inline(d, MK_STRONG, NULL, label);
	mk_lit(d, " ");
	mk_text(d, s);
}
