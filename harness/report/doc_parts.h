/* SPDX-License-Identifier: Apache-2.0 */
/*
 * doc_parts: the pieces every report document (doc_run.c, doc_compare.c,
 * doc_nightly.c) is written with, over markup.h's elements; for those
 * files only (document.h is what the writers call).
 *
 *	doc_heading(d, MK_H2, "slab", "Slab caches that grew most");
 *	doc_note(d, "Bytes per disk are the change divided by the disks.");
 *	mk_table(d, "slab", cols, ARRAY_SIZE(cols));
 *	mk_row(d, NULL);
 *	doc_num_cell(d, fmt_signed_kb, c->kb);		// a figure, format.h's
 *	mk_row_end(d);
 *	mk_table_end(d);
 *	doc_labelled(d, "Reason:", m->reason);		// "**Reason:** text"
 *
 * Headings and notes are the report's own words (mk_lit); a labelled
 * value is data (mk_text).
 */
#ifndef SCALETEST_REPORT_DOC_PARTS_H
#define SCALETEST_REPORT_DOC_PARTS_H

#include "report/format.h"
#include "report/markup.h"

void doc_heading(struct doc *d, enum mk_block level, const char *id, const char *title);
/* A paragraph of class "note". */
void doc_note(struct doc *d, const char *s);
/* A figure formatted by format.h (fmt_kb, fmt_p...), escaped as text;
 * the _cell form puts it in a cell of its own. */
void doc_num(struct doc *d, void (*fmt)(struct strbuf *, struct num), struct num v);
void doc_num_cell(struct doc *d, void (*fmt)(struct strbuf *, struct num), struct num v);
/* "label value" as a strong label and data: "**Reason:** text". */
void doc_labelled(struct doc *d, const char *label, const char *s);

#endif
