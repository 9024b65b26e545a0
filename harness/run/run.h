/*
 * run: one scale-test run, from a checked scenario to a results directory.
 *
 * The stages, in order (each its own module):
 *
 *   kernel_obtain()      kernel artifact (Debian package or files)
 *   guest_compose()      initramfs contents; initramfs_build_cached()
 *   accel_choose()       KVM only if a probe boot proves it, else TCG
 *   vm backend start     QEMU with the console and record channel
 *   the watch loop       console -> console.log + crash/OOM scanner,
 *                        channel -> channel.log + records -> snapshots,
 *                        phase deadlines, signals
 *   result_*()           result.json, then report_write() from it alone
 *
 * The run directory is built as <out>/.tmp-<id> and renamed to <out>/<id>
 * when complete, whatever the status; <out>/latest is pointed at it only
 * when the status is pass.  A failed, timed-out or interrupted run is kept
 * with its status in result.json.
 *
 *	struct run_config rc = { .out = "results" };
 *	int status = run_execute(&scenario, &rc, &run_dir);	// RUN_PASS, ...
 */
#ifndef SCALETEST_RUN_H
#define SCALETEST_RUN_H

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

const char *run_status_name(enum run_status st);
/* The command line's exit status for a run's status (util.h EXIT_*). */
int run_exit_code(enum run_status st);

struct run_config {
	const char *out;	/* results directory */
	int quiet;		/* no summary on stdout */
};

/* Runs everything; returns the status (and *dir, malloc'd, the run
 * directory, or NULL if none was created). */
enum run_status run_execute(const struct scenario *s, const struct run_config *rc,
			    char **dir);

#endif
