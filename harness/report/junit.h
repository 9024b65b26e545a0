/* SPDX-License-Identifier: Apache-2.0 */
/*
 * junit: JUnit XML, so that Jenkins and GitLab show results natively.
 *
 *	junit_run(&run_model, &sb);	  // junit.xml: a test case for the run's
 *					  // status and one per check
 *	junit_compare(&compare_model, &sb);  // compare.xml: one test case per
 *					  // gating metric, failing on regression
 *	junit_nightly(&nightly_model, &sb);  // summary.xml: every run's suite
 *					  // and every comparison's, in order,
 *					  // and a failing one per run without
 *					  // a baseline on this runner
 *
 * The shape is the Jenkins JUnit schema's (tests/junit/junit-10.xsd checks
 * every golden file against it):
 *
 *   - a failed check, a run with status fail and a regressed metric are a
 *     <failure>, counted in failures; a run that could not finish (timeout,
 *     crash, oom, error, interrupted) is an <error> on its "run status"
 *     case, counted in errors; the counts on <testsuite> and <testsuites>
 *     are those of the elements written;
 *   - a failure's or error's text (what CI pages show) says why: the check's
 *     detail, the run's status and reason, and when result.json has a
 *     crash, its class, blame, title and the console around it; the
 *     message attribute is the one-line reason;
 *   - <system-out> of a run's suite is its terminal summary (text.h: disks
 *     present and requested, memory per disk, slab growth, timings), since
 *     Jenkins drops properties and GitLab ignores them; the properties are
 *     kept for tools that read them;
 *   - a run's suite has timestamp (result.json's started) and hostname
 *     (its hostname, when it has one); each test case has a time.
 *
 * The models are model.h's.  Every string that came from a run (check
 * details, console lines, device and cache names, reasons) is written as
 * text through xml_escape() (format.h), never as CDATA, so "]]>" in a
 * console line is plain text; the model has already made every string
 * valid UTF-8 without control characters.
 */
#ifndef SCALETEST_REPORT_JUNIT_H
#define SCALETEST_REPORT_JUNIT_H

#include "report/model.h"
#include "lib/strbuf.h"

void junit_run(const struct report_model *m, struct strbuf *out);
void junit_compare(const struct compare_model *m, struct strbuf *out);
void junit_nightly(const struct nightly_model *m, struct strbuf *out);

#endif
