/* SPDX-License-Identifier: Apache-2.0 */
/*
 * outcome: one verdict model for the two formats CI systems read.  What a
 * run's status and each of its checks come to, as a JUnit element
 * (junit.h) and a KCIDB status (kcidb.h), is looked up in one table that
 * both writers use, so that Jenkins, GitLab and KernelCI's dashboard tell
 * the same story about one run.
 *
 *	enum run_end e = outcome_run_end(m);		// how the run ended
 *	const struct outcome *o = outcome_run(m);	// the run as a whole
 *	const struct outcome *c = outcome_check(m, &m->checks[i]);
 *	o->junit	OUTCOME_PASS, OUTCOME_FAILURE, OUTCOME_ERROR, OUTCOME_SKIPPED
 *	o->kcidb	"PASS", "FAIL", "ERROR", "SKIP" or "MISS"
 *
 * How the run ended (the table's columns):
 *
 *   pass     status pass
 *   fail     status fail: the guest reported a failure or a check failed
 *   kernel   the kernel ended it: status crash or oom, or a timeout, whose
 *            crash class result.json blames on the kernel (a panic, an
 *            Oops, a hung task, an OOM...; crash and oom without a class,
 *            from an older harness, too)
 *   harness  the harness ended it or could not finish it: a crash class
 *            blamed on the harness (channel-lost, qemu-exited), a timeout
 *            without a class (the kernel's state is unknown), error,
 *            interrupted, or a status this harness does not write
 *
 * What is judged (the rows) and what it comes to, JUnit / KCIDB:
 *
 *                        pass           fail           kernel          harness
 *   the run              pass/PASS      failure/FAIL   failure/FAIL    error/ERROR
 *   a check that passed  pass/PASS      pass/PASS      pass/PASS       pass/PASS
 *   a failed check that  failure/FAIL   failure/FAIL   failure/FAIL    failure/FAIL
 *     judged the whole run
 *   any other failed     failure/FAIL   failure/FAIL   skipped/SKIP    skipped/MISS
 *     check
 *
 * A kernel crash is a failure of the kernel in both (never JUnit's
 * <error>, which says the test itself broke).  A check judges the whole
 * run when it reads the whole console (no crash, no OOM), or when the run
 * measured every phase ("all phases measured" passed: a WARNING that let
 * the guest go on); any other check that failed in a run that ended early
 * never had what it checks, so it is skipped: SKIP in KCIDB when the
 * kernel ended the run (MISS would blame the harness for the kernel's
 * crash), MISS when the harness did, JUnit's <skipped> either way.
 *
 * The formats agree row by row: pass and PASS, failure and FAIL, error
 * and ERROR, skipped and SKIP or MISS (tests/unit/test_outcome.c walks
 * every cell and every status, crash class and check the model can hold,
 * through both writers).
 */
#ifndef SCALETEST_REPORT_OUTCOME_H
#define SCALETEST_REPORT_OUTCOME_H

#include "report/model.h"

enum run_end { RUN_END_PASS, RUN_END_FAIL, RUN_END_KERNEL, RUN_END_HARNESS, RUN_ENDS };

enum outcome_subject {
	OUTCOME_RUN,			/* the run as a whole */
	OUTCOME_CHECK_PASSED,
	OUTCOME_CHECK_FAILED_WHOLE,	/* failed, having judged the whole run */
	OUTCOME_CHECK_FAILED,		/* failed, maybe for want of what it checks */
	OUTCOME_SUBJECTS
};

/* A JUnit test case's element: none (passed), <failure>, <error>, <skipped>. */
enum outcome_junit { OUTCOME_PASS, OUTCOME_FAILURE, OUTCOME_ERROR, OUTCOME_SKIPPED };

struct outcome {
	enum outcome_junit junit;
	const char *kcidb;
};

extern const struct outcome outcome_table[OUTCOME_SUBJECTS][RUN_ENDS];

enum run_end outcome_run_end(const struct report_model *m);
/* What c is: passed, failed having judged the whole run, failed. */
enum outcome_subject outcome_check_subject(const struct report_model *m,
					   const struct report_check *c);
const struct outcome *outcome_run(const struct report_model *m);
const struct outcome *outcome_check(const struct report_model *m, const struct report_check *c);
/* "pass", "fail", "kernel", "harness": for the words around a verdict. */
const char *outcome_end_name(enum run_end e);

#endif
