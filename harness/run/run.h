/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run: one scale-test run, from a checked scenario to a results directory.
 *
 * run.c sequences the stages, each one call into the module that holds
 * its work and its policy:
 *
 *   preflight_check()      run/preflight.h: the backend, the host's memory,
 *                          the kernel's limits (when the kernel is at
 *                          hand), the results directory's room; nothing
 *                          fetched or booted before they pass
 *   rundir_create()        run/rundir.h: <out>/.tmp-<id>, scenario.scn
 *   host_start()           result/host.h: host.json, the host's own facts
 *   kernel_obtain()        kernel/: the kernel artifact (Debian package,
 *                          files, or built from source), then
 *   preflight_layout()     the layout against that kernel's limits
 *   guest_compose()        guest/: the initramfs contents, then
 *   initramfs_build_cached()  the archive
 *   rundir_make_disks()    the virtio disks' images
 *   accel_choose()         vm/accel.h: KVM only if a probe boot proves it
 *   backend->start()       vm/vm.h: the VM with its console and channel
 *   guard_watch()          run/guard.h: the watch until the VM has ended
 *                          (vm/watch.h's loop; console -> console.log +
 *                          crash scan, channel -> channel.log + records;
 *                          each phase's deadline, the grace after a crash,
 *                          the hung-task reports that wait, the budget of
 *                          guest output; the live progress line,
 *                          run/progress.h)
 *   host_kernel(), host_vm()  what ran, into host.json
 *   result_build()         result/build.h: host.json + records + console ->
 *                          result.json, with the checks and the status
 *                          (result/verdict.h)
 *   report_write_dir()     report/: the reports, from result.json alone
 *   rundir_finish()        renamed to <out>/<id>; <out>/latest if it passed
 *
 * Beside the sequence run.c holds only the thread between the stages: the
 * run's state; the VM's configuration, from the scenario and what setup
 * chose; the files it writes itself (console.log and channel.log opened
 * for the watch, qemu-argv.txt, host.json and result.json saved); the
 * first failure met (its message into host.json, its class to the
 * caller); and the release of everything at the end.
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
