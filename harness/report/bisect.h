/*
 * The bisect document: what scaletest bisect found, drawn from its
 * bisect.json alone (campaign/bisect.h) in any markup (markup.h).
 *
 *	document_bisect(&markdown_markup, doc, &sb);	// bisect.md
 *
 * Sections: the outcome (the first bad commit and its subject, or why
 * there is none), the criterion and the range, then one row per commit
 * tested: role, commit, subject, figure (mean of its runs), verdict, why,
 * build and run seconds.  Subjects and reasons are data (escaped).
 */
#ifndef SCALETEST_REPORT_BISECT_H
#define SCALETEST_REPORT_BISECT_H

#include <json.h>

#include "lib/strbuf.h"
#include "report/markup.h"

void document_bisect(const struct markup *mk, json_object *b, struct strbuf *out);

#endif
