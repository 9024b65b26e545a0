/* SPDX-License-Identifier: Apache-2.0 */
/*
 * text: a run's summary for a terminal, the lines "scaletest run" and
 * "scaletest report" print (and report.md quotes in a code block); and a
 * comparison for a terminal ("scaletest compare --format text").
 *
 *	struct report_model m;
 *	report_model_from_json(root, &m);	// model.h
 *	text_run(&m, &sb);			// a dozen lines, each ending '\n'
 *	report_model_release(&m);
 *
 *	text_compare(&compare_model, &sb);	// the verdict, the sides, what
 *						// differs, the metrics and the
 *						// slab caches, columns aligned
 *
 * Strings from the guest or the scenario go through text_clean(), so no
 * control byte reaches the terminal.
 */
#ifndef SCALETEST_REPORT_TEXT_H
#define SCALETEST_REPORT_TEXT_H

#include "report/model.h"
#include "lib/strbuf.h"

void text_run(const struct report_model *m, struct strbuf *out);
void text_compare(const struct compare_model *m, struct strbuf *out);

#endif
