/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The bisect document: what scaletest bisect found, drawn from its model
 * (model.h's bisect_model, read from bisect.json: campaign/bisect.h) in
 * any markup (markup.h).
 *
 *	struct bisect_model b;
 *	bisect_model_from_json(doc, &b);
 *	document_bisect(&markdown_markup, &b, &sb);	// bisect.md
 *	bisect_model_release(&b);
 *
 * Sections: the outcome (the first bad commit and its subject, or why
 * there is none), the criterion and the range, then one row per commit
 * tested: role, commit, subject, figure (mean of its runs), verdict, why,
 * build and run seconds.  Subjects and reasons are data (escaped).
 */
#ifndef SCALETEST_REPORT_BISECT_H
#define SCALETEST_REPORT_BISECT_H

#include "lib/strbuf.h"
#include "report/markup.h"
#include "report/model.h"

void document_bisect(const struct markup *mk, const struct bisect_model *m, struct strbuf *out);

#endif
