/*
 * report: human-readable reports (and junit.xml), derived from result.json
 * alone.
 *
 * Because nothing here reads anything but result.json, a report can be
 * regenerated (scaletest report RUN_DIR) or produced for a run made by an
 * older harness, without booting anything.
 *
 *	report_summary(root, &sb);	// the plain-text summary (stdout)
 *	report_markdown(root, &sb);	// report.md: the summary plus tables
 *	report_write_dir(dir, stdout);	// load; write report.md, report.html
 *					// (report_html.h) and junit.xml
 *					// (junit.h); print the summary
 *
 * Every string that came from the guest or the scenario is escaped for the
 * format it lands in (md_escape); the summary replaces control bytes.
 */
#ifndef SCALETEST_REPORT_H
#define SCALETEST_REPORT_H

#include <json.h>
#include <stdio.h>

#include "lib/strbuf.h"

void report_summary(json_object *root, struct strbuf *out);
void report_markdown(json_object *root, struct strbuf *out);
/* One line per fio group: jobs, IOPS, worst p99; nothing without fio. */
void report_fio_summary(json_object *root, struct strbuf *out);
/* Writes <dir>/report.md; prints the summary on out if not NULL. */
int report_write_dir(const char *dir, FILE *out);

/* Escapers (also used by tests). */
void md_escape(struct strbuf *out, const char *s);
void text_clean(struct strbuf *out, const char *s);
/* 1234567 -> "1,234,567"; negative numbers keep their sign. */
void fmt_thousands(struct strbuf *out, long long v);

#endif
