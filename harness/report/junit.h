/*
 * junit: JUnit XML, so that Jenkins and GitLab show results natively.
 *
 *	junit_run(&run_model, &sb);	  // junit.xml: one test case per check
 *					  // and one for the run's status, the
 *					  // headline figures as properties
 *	junit_compare(&compare_model, &sb);  // compare.xml: one test case per
 *					  // gating metric, failing on regression
 *	junit_nightly(&nightly_model, &sb);  // summary.xml: every run's suite
 *					  // and every comparison's, in order,
 *					  // and a failing one per run without
 *					  // a baseline on this runner
 *
 * The models are model.h's.  Every string that came from a run (check
 * details, device and cache names, reasons) is escaped with xml_escape()
 * (format.h), which also replaces bytes XML 1.0 cannot carry.
 */
#ifndef SCALETEST_REPORT_JUNIT_H
#define SCALETEST_REPORT_JUNIT_H

#include "report/model.h"
#include "lib/strbuf.h"

void junit_run(const struct report_model *m, struct strbuf *out);
void junit_compare(const struct compare_model *m, struct strbuf *out);
void junit_nightly(const struct nightly_model *m, struct strbuf *out);

#endif
