/*
 * report_html: report.html, a run's report as one self-contained web page
 * with plots, and the page of a comparison of two sides of runs.
 *
 * Like report.md, a page is derived from its JSON alone (result.json, or
 * the comparison's JSON), so it can be regenerated at any time.  The page
 * needs nothing but itself: inline CSS, plots drawn here as inline SVG, no
 * JavaScript, no fonts, images or other files fetched from anywhere.
 *
 *	struct strbuf sb = STRBUF_INIT;
 *	report_html(root, &sb);			// a run: result.json's tree
 *	write_file_atomic("RUN/report.html", sb.buf, sb.len);
 *
 *	sb_reset(&sb);
 *	report_html_compare(cmp, &sb);		// a comparison's tree
 *	sb_release(&sb);
 *
 * report_write_dir() (report.h) writes report.html next to report.md.
 *
 * A run's page: the run id, status and reason; the environment line; the
 * memory-at-insmod table (the figures of report.md's, per-disk bytes
 * included; LowFree only on HIGHMEM kernels); plots of memory by phase
 * (grouped bars), the slab caches that grew most at insmod (horizontal
 * bars) and, when the monitor ran, free memory and slab against guest
 * uptime with the steps (insmod, virtio, io, rmmod) shaded and lost samples
 * marked; the fio jobs, the checks and the disks.
 *
 * A comparison's page (the comparison's JSON: schema, a, b, mismatch,
 * differences, rule, metrics, slab, verdict): the verdict, the two sides,
 * the rule, a warning for every environment mismatch, what differs, the
 * metrics with both sides' mean and sd, the change and its verdict
 * (regressions marked), a bar chart per gating metric (error bars of one
 * sd when a side has more than one run) and the slab caches that changed
 * most.
 *
 * Neither function fails: a field that is missing, null or of the wrong
 * type is shown as "n/a" or its plot is left out, and the page is still a
 * whole page.  Every string from the JSON goes through html_escape(),
 * which is safe in text and in quoted attribute values alike; numbers
 * carry thousands separators where report.md's do (fmt_thousands).
 */
#ifndef SCALETEST_REPORT_HTML_H
#define SCALETEST_REPORT_HTML_H

#include <json.h>

#include "lib/strbuf.h"

void report_html(json_object *root, struct strbuf *out);
void report_html_compare(json_object *cmp, struct strbuf *out);

/* Appends s with & < > " ' as entities and control bytes (0x00-0x1f,
 * 0x7f) as '?'.  NULL appends nothing. */
void html_escape(struct strbuf *out, const char *s);

#endif
