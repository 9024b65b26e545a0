/*
 * html: report.html, a run's report as one self-contained web page with
 * plots, and compare.html, the page of a comparison of two sides of runs.
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
 * (svg.h), no JavaScript, no fonts, images or other files fetched.
 *
 * A run's page: the run id, status and reason; the environment line; the
 * memory-at-insmod table (the model's figures, per-disk bytes included;
 * LowFree only on HIGHMEM kernels); plots of memory by phase, the slab
 * caches that grew most at insmod and, when the monitor ran, free memory
 * and slab against guest uptime; the fio jobs, the checks, the disks and
 * the rejected channel records.
 *
 * A comparison's page: the verdict, a warning for every environment
 * mismatch, the rule, the two sides, what differs, the metrics with both
 * sides' mean and sd, the change and its verdict (regressions marked), a
 * chart per gating metric and the slab caches that changed most.
 *
 * Neither fails: what the model lacks is shown as "n/a" or its plot left
 * out, and the page is still a whole page.  Every string goes through
 * html_escape() (format.h), safe in text and quoted attributes alike.
 */
#ifndef SCALETEST_REPORT_HTML_H
#define SCALETEST_REPORT_HTML_H

#include "report/model.h"
#include "lib/strbuf.h"

void html_run(const struct report_model *m, struct strbuf *out);
void html_compare(const struct compare_model *m, struct strbuf *out);

#endif
