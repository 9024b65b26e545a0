/* SPDX-License-Identifier: Apache-2.0 */
/*
 * verdict: a run's checks and its status.
 *
 * The checks are facts about the disks, the inventory, the phases and the
 * console (each a row {name, pass, detail} in result.json's "checks"; the
 * memory checks live in analysis.c).  The status then follows one order of
 * precedence: interrupted > the crash class (console.h: its status, and its
 * title as the reason; an OOM report wins over a crash report, a kernel
 * report over a host-side ending) > timeout > error (the harness's own
 * failure) > what the guest reported > the checks > pass.
 *
 *	json_object *checks = json_object_new_array();
 *	verdict_checks(&scenario, &records, &console, checks);
 *	analysis_fio(...); analysis_leak(...);	// more rows
 *	struct crash crash = CRASH_INIT;	// what went wrong, if anything
 *	crash_classify(&console, &host_facts, &crash);
 *	char *reason;
 *	enum run_status st = verdict_decide(&ended, &records, &crash,
 *					    checks, &reason);	// reason: NULL on pass
 *
 * To add a check: a row appended in verdict_checks() (or in analysis.c for
 * a memory figure); a failed row fails the run with its name and detail.
 */
#ifndef SCALETEST_VERDICT_H
#define SCALETEST_VERDICT_H

#include <json.h>

#include "record/console.h"
#include "record/records.h"
#include "scenario/scenario.h"

enum run_status {
	RUN_PASS,
	RUN_FAIL,
	RUN_TIMEOUT,
	RUN_CRASH,
	RUN_OOM,
	RUN_ERROR,
	RUN_INTERRUPTED,
};

/* "pass", "fail", ...; the names in result.json. */
const char *run_status_name(enum run_status st);

/* How the VM's watch ended, as the host saw it. */
struct run_ending {
	int timed_out;		/* a phase deadline passed */
	int signal;		/* the signal that interrupted the harness, or 0 */
	const char *error;	/* the harness's own failure, or NULL */
};

void verdict_checks(const struct scenario *s, const struct records *rs,
		    const struct console_scan *cs, json_object *checks);
/* Whether the console's crash report is a finding rather than the end of
 * the run: a hung-task report (the detector's verdict on a long wait,
 * insmod or rmmod of tens of thousands of disks) in a run whose guest
 * went on to finish and said pass.  result.json then keeps it under
 * "findings", and neither the "no crash" check nor the status counts it. */
int verdict_crash_is_finding(const struct console_scan *cs, const struct records *rs);
/* checks may be NULL (nothing booted). *reason is malloc'd, NULL on pass. */
enum run_status verdict_decide(const struct run_ending *end, const struct records *rs,
			       const struct crash *crash, json_object *checks,
			       char **reason);

#endif
