/* SPDX-License-Identifier: Apache-2.0 */
/*
 * html: report.html, a run's report as one self-contained web page with
 * plots, and compare.html, the page of a comparison of two sides of runs:
 * the documents of document.h, drawn in HTML.
 *
 *	struct report_model m;			// model.h
 *	report_model_from_json(root, &m);
 *	html_run(&m, &sb);
 *	report_model_release(&m);
 *
 *	struct compare_model c;
 *	compare_model_from_json(cmp, &c);
 *	html_compare(&c, &sb);
 *	compare_model_release(&c);
 *
 * A page needs nothing but itself: inline CSS, plots as inline SVG
 * (svg.h), no JavaScript, no fonts, images or other files fetched.  Each
 * is the page shell (doctype, title, style; a footer with the tool and the
 * run's times) around the document that html_markup (markup.h) draws:
 * <h1>/<h2 id>, <p class>, <div class id>, <ul>/<li>, <b>, <i class>,
 * <span class>, <code>, <br>, and tables whose number columns have class
 * "n" (right-aligned) beside the cell's own class.
 *
 * Neither fails: what the model lacks is shown as "n/a" or its plot left
 * out, and the page is still a whole page.  Every string goes through
 * html_escape() (format.h), safe in text and quoted attributes alike.
 */
#ifndef SCALETEST_REPORT_HTML_H
#define SCALETEST_REPORT_HTML_H

#include "report/markup.h"
#include "report/model.h"
#include "lib/strbuf.h"


void html_run(const struct report_model *m, struct strbuf *out);
void html_compare(const struct compare_model *m, struct strbuf *out);

#endif
