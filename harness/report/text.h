/*
 * text: a run's summary for a terminal, the lines "scaletest run" and
 * "scaletest report" print (and report.md quotes in a code block).
 *
 *	struct report_model m;
 *	report_model_from_json(root, &m);	// model.h
 *	text_run(&m, &sb);			// a dozen lines, each ending '\n'
 *	report_model_release(&m);
 *
 * Strings from the guest or the scenario go through text_clean(), so no
 * control byte reaches the terminal.
 */
#ifndef SCALETEST_REPORT_TEXT_H
#define SCALETEST_REPORT_TEXT_H

#include "report/model.h"
#include "lib/strbuf.h"

void text_run(const struct report_model *m, struct strbuf *out);

#endif
