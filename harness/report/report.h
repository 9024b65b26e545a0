/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report: every report file, written from its JSON alone.
 *
 * Because nothing here reads anything but JSON documents (result.json, a
 * comparison's compare.json, a night's summary.json), every report can be
 * regenerated ("scaletest report") or produced for a run made by an older
 * harness, without booting anything.  Each function builds the model
 * once (model.h) and hands it to the writers (text.h, markdown.h, html.h,
 * junit.h); files are written atomically (write_file_atomic).
 *
 *	report_write_dir("results/RUN", stdout);
 *		// run.c, at the end of a run: read RUN/result.json, write
 *		// RUN/report.md, report.html and junit.xml, print the summary
 *	report_write_run(root, "DIR", stdout);
 *		// the same for a result.json already read, into DIR
 *	report_write_compare(cmp, "DIR", stdout);
 *		// DIR/compare.md, compare.html, compare.xml (DIR may be
 *		// NULL: nothing written); prints compare.md
 *	report_print_compare(cmp, "text", stdout);
 *		// the comparison in one format on out: "md" (compare.md),
 *		// "text" (text.h's terminal table) or "json" (the same text
 *		// as compare.json); report_compare_format("x") is -1 for a
 *		// format that is none of these
 *	report_write_nightly("results/nightly-X", "DIR", stdout);
 *		// read the night's summary.json and its runs' result.json
 *		// and compare.json; write DIR/summary.md and summary.xml;
 *		// print summary.md
 *	report_kcidb_runs(dirs, n, NULL, NULL, stdout);
 *		// one KCIDB document (kcidb.h) of the runs, on out or into
 *		// DIR/kcidb.json; report_kcidb_nightly(night, NULL, NULL, stdout)
 *		// the same of a night
 *
 * out may be NULL (print nothing).  Each returns 0, or -1 with a message
 * when a document cannot be read or a file not written; it writes what it
 * can either way.
 */
#ifndef SCALETEST_REPORT_H
#define SCALETEST_REPORT_H

#include <json.h>
#include <stddef.h>
#include <stdio.h>

int report_write_dir(const char *dir, FILE *out);
int report_write_run(json_object *root, const char *dir, FILE *out);
int report_write_compare(json_object *cmp, const char *dir, FILE *out);
int report_compare_format(const char *name);
int report_print_compare(json_object *cmp, const char *format, FILE *out);
int report_write_nightly(const char *night_dir, const char *dir, FILE *out);
/* A bisect's document (report/bisect.h) into DIR/bisect.md, printed on out. */
int report_write_bisect(json_object *bisect, const char *dir, FILE *out);
/* A KCIDB document (kcidb.h): of the runs (their directories), or of a
 * night, its ids those of origin (NULL: "scaletest"), printed on out, or
 * written to dir/kcidb.json when dir is given (then nothing is printed);
 * a run whose result.json cannot be read is said and left out, and the
 * call returns -1. */
int report_kcidb_runs(char *const *runs, size_t n, const char *origin, const char *dir,
		      FILE *out);
int report_kcidb_nightly(const char *night_dir, const char *origin, const char *dir, FILE *out);

#endif
