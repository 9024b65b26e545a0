/* SPDX-License-Identifier: Apache-2.0 */
/*
 * document: what each report document says, in what order and on what
 * condition, written once for every format through markup.h: a file per
 * document (doc_run.c, doc_compare.c, doc_nightly.c; bisect.h has the
 * bisect's), written with the pieces of doc_parts.h.
 *
 *	document_run(&markdown_markup, &run_model, &sb);	// report.md (markdown.h)
 *	document_run(&html_markup, &run_model, &sb);	// report.html (html.c)
 *	document_compare(mk, &compare_model, &sb);	// compare.md, compare.html
 *	document_nightly(mk, &nightly_model, &sb);	// summary.md
 *
 * The models are model.h's; the figures are formatted here, through
 * format.h, and every string of data goes through mk_text(), which the
 * markup escapes.
 *
 * A run: the run id, status and reason; the scenario; then a page states
 * the environment, disks and times and any console crash or OOM line,
 * where markdown quotes the terminal summary (text.h); memory at insmod
 * (on a page with its note and the figures the counters miss), the disks,
 * memory by phase, the slab caches that grew most, where each disk's bytes go (the attribution's call sites, a chart on a page), memory while it ran,
 * fio's jobs, the checks and the rejected channel records; markdown ends
 * with the environment, a page with its footer.  A page draws a plot
 * beside each table that has one (svg.h).
 *
 * A comparison: the verdict, every environment mismatch, the rule, the
 * sides (A, the base, B, C...) and what differs between them (in markdown
 * one list, on a page a block each), the metrics (a column per side, and
 * per side after A its change, p and verdict; a page gives mean and sd
 * with their unit and the exact p, markdown the terse figures "scaletest
 * compare" prints), a chart per gating metric and the overlays of every
 * side's memory by phase and during insmod (a page), and the slab
 * caches: on a page those that changed most, largest first, a chart per
 * side after A; in markdown every one the comparison lists.  Two sides
 * keep the headings of a plain comparison ("change", "p"); more name the
 * side ("C change").
 *
 * A night: one row a scenario and the night's counts.
 *
 * None fails: what a model lacks is "n/a", "?" or left out, and the
 * document is still whole.
 */
#ifndef SCALETEST_REPORT_DOCUMENT_H
#define SCALETEST_REPORT_DOCUMENT_H

#include "report/markup.h"
#include "report/model.h"

void document_run(const struct markup *mk, const struct report_model *m, struct strbuf *out);
void document_compare(const struct markup *mk, const struct compare_model *m, struct strbuf *out);
void document_nightly(const struct markup *mk, const struct nightly_model *m, struct strbuf *out);

#endif
