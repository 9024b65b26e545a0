/*
 * junit: JUnit XML, so that Jenkins and GitLab show results natively.
 *
 *	junit_run(root, &sb);		// a run: one test case per check,
 *					// headline figures as properties
 *	junit_compare(cmp, &sb);	// a comparison: one test case per
 *					// gating metric, failing on regression
 *	junit_open(&sb); junit_suite_run(...); ... junit_close(&sb);
 *					// several suites in one document
 *
 * Every string that came from a run (check details, device and cache
 * names, reasons) is escaped with xml_escape(), which also replaces bytes
 * XML 1.0 cannot carry.
 */
#ifndef SCALETEST_JUNIT_H
#define SCALETEST_JUNIT_H

#include <json.h>

#include "lib/strbuf.h"

void xml_escape(struct strbuf *out, const char *s);
void junit_open(struct strbuf *out);
void junit_close(struct strbuf *out);
void junit_suite_run(json_object *root, struct strbuf *out);
void junit_suite_compare(json_object *cmp, const char *name, struct strbuf *out);
void junit_run(json_object *root, struct strbuf *out);
void junit_compare(json_object *cmp, struct strbuf *out);

#endif
