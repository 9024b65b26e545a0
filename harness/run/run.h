/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run: one scale-test run, from a checked scenario to a results directory.
 *
 * run.c sequences the stages, each its own module:
 *
 *   rundir_create()        run/rundir.h: <out>/.tmp-<id>, scenario.scn
 *   kernel_obtain()        kernel/: the kernel artifact (Debian package,
 *                          files, or built from source)
 *   guest_compose()        guest/: the initramfs contents, then
 *   initramfs_build_cached()  the archive
 *   accel_choose()         vm/accel.h: KVM only if a probe boot proves it
 *   backend->start()       vm/vm.h: the VM with its console and channel
 *   vm_watch()             vm/watch.h: the one watch loop; console ->
 *                          console.log + crash scan (record/console.h),
 *                          channel -> channel.log + records
 *                          (record/records.h); phase deadlines, signals
 *   result_build()         result/build.h: host.json + records + console ->
 *                          result.json, with the checks and the status
 *                          (result/verdict.h)
 *   report_write_dir()     report/: the reports, from result.json alone
 *   rundir_finish()        renamed to <out>/<id>; <out>/latest if it passed
 *
 * Beside the sequence it holds what the run itself decides: the checks
 * before anything is fetched or booted (the host's memory, the results
 * directory's room, the layout against the kernel's limits), the watch's
 * callbacks (the live progress line, the grace after a crash, the budget
 * of guest output, which hung-task reports stop the run), and host.json.
 *
 * Because result.json is built from the saved channel.log, console.log,
 * scenario.scn and host.json only, result_replay() (result/replay.h)
 * rebuilds it without QEMU.
 *
 *	struct run_config rc = { .out = "results" };
 *	int err;
 *	enum run_status st = run_execute(&scenario, &rc, &run_dir, &err);	// RUN_PASS, ...
 *	return run_exit_code(st, err);
 */
#ifndef SCALETEST_RUN_H
#define SCALETEST_RUN_H

#include "result/verdict.h"
#include "scenario/scenario.h"

struct fanout;
struct strvec;

/* The command line's exit status for a run's status and, for RUN_ERROR,
 * its failure's class (util.h EXIT_*, docs/statuses.md). */
int run_exit_code(enum run_status st, int err);

struct run_config {
	const char *out;	/* results directory */
	int quiet;		/* no summary on stdout */
	int no_latest;		/* leave <out>/latest alone (a group's runs) */
	const char *backend;	/* VM backend name; NULL: the scenario's backend key */
	const char *uri;	/* libvirt connection URI; NULL: qemu:///system */
	int upload;		/* libvirt: stage files through the storage API */
	/* run --repeat and nightly: spread the runs over these connections
	 * (run/fanout.h), each a child harness given the scenario file and
	 * sets; NULL or empty: one after another in this process. */
	struct fanout *fanout;
	const struct strvec *sets;
};

/*
 * Runs everything; returns the status (and *dir, malloc'd, the run
 * directory, or NULL if none was created).  For RUN_ERROR, *err (if err
 * is not NULL) is its failure's class (lib/util.h), 0 for any other
 * status: ERR_ENV when a tool or package is missing or the environment
 * cannot hold the run (before anything is fetched: the host's memory, the
 * results directory), ERR_USAGE when the scenario asks for a layout past
 * the kernel's limits (kernel/limits.h; before the run directory is made
 * when the kernel is at hand, cached or files, else once it is fetched or
 * built, in a run directory of status error), ERR_FAIL otherwise.  Each
 * call's class is its own: a loop of runs judges each by it.
 */
enum run_status run_execute(const struct scenario *s, const struct run_config *rc,
			    char **dir, int *err);

#endif
