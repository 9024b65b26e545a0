/* SPDX-License-Identifier: Apache-2.0 */
/*
 * markdown: report.md of a run, compare.md of a comparison (also what
 * "scaletest compare" prints), and summary.md of a night: the documents
 * of document.h, drawn in markdown.
 *
 *	markdown_run(&run_model, &sb);		// model.h: report_model
 *	markdown_compare(&compare_model, &sb);	// model.h: compare_model
 *	markdown_nightly(&nightly_model, &sb);	// model.h: nightly_model
 *
 * markdown_markup (markup.h) draws headings as '#', paragraphs and blocks
 * apart by one blank line (none after the last), tables as pipe tables
 * with their alignment row, list items as "- ", strong text as **, and
 * drops what markdown has no place for (classes, ids, boxes, charts).
 * A run's terminal summary (text.h) is quoted in a fenced block, where a
 * backquote becomes a quote so that no line can end the fence.  Every
 * string of data goes through md_escape() (format.h).
 */
#ifndef SCALETEST_REPORT_MARKDOWN_H
#define SCALETEST_REPORT_MARKDOWN_H

#include "report/markup.h"
#include "report/model.h"
#include "lib/strbuf.h"

extern const struct markup markdown_markup;

void markdown_run(const struct report_model *m, struct strbuf *out);
void markdown_compare(const struct compare_model *m, struct strbuf *out);
void markdown_nightly(const struct nightly_model *m, struct strbuf *out);

#endif
