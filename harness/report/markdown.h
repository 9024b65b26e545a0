/*
 * markdown: report.md of a run, compare.md of a comparison (also what
 * "scaletest compare" prints), and summary.md of a night.
 *
 *	markdown_run(&run_model, &sb);		// model.h: report_model
 *	markdown_compare(&compare_model, &sb);	// model.h: compare_model
 *	markdown_nightly(&nightly_model, &sb);	// model.h: nightly_model
 *
 * A run's report is its summary (text.h) in a code block, then tables:
 * memory at insmod, disks, memory by phase, slab growth, the monitor, fio,
 * checks, rejected records, environment.  Every string from the JSON goes
 * through md_escape() (format.h); inside the code block a backquote
 * becomes a quote, so no line can end the block.
 */
#ifndef SCALETEST_REPORT_MARKDOWN_H
#define SCALETEST_REPORT_MARKDOWN_H

#include "report/model.h"
#include "lib/strbuf.h"

void markdown_run(const struct report_model *m, struct strbuf *out);
void markdown_compare(const struct compare_model *m, struct strbuf *out);
void markdown_nightly(const struct nightly_model *m, struct strbuf *out);

#endif
