/* SPDX-License-Identifier: Apache-2.0 */
/*
 * guard: a run's watch over its guest, from the VM's start to its end.
 * vm_watch() (vm/watch.h) is the loop; the records (record/records.h) and
 * the console scan (record/console.h) decode what the guest sends; this is
 * what the run does with each, its policy while the guest runs:
 *
 *   deadlines		each phase's timeout (guest/phase.h), from the host's
 *			clock when the guest reached the phase before, with
 *			slack so that the guest's own waits (which report
 *			more precisely) expire first; a sweep's step has the
 *			insmod deadline again; after the end record the VM
 *			may take EXIT_GRACE_S to exit
 *   a report that ends the run	the guest may go on printing it for
 *			CRASH_GRACE_S; a hung-task report (its class a finding
 *			if the guest survives, record/crash_class.h) while
 *			insmod or rmmod still makes or removes disks waits
 *			until the count stops moving for the step's deadline
 *   the guest's output	at most guest_output_mb on each stream: past it
 *			nothing more is kept or decoded, the VM is stopped,
 *			and the run fails with the reason
 *   the streams	console.log and channel.log keep every byte kept
 *   the live line	run/progress.h
 *   host.json		each phase's host time, how the watch ended
 *			(result/host.h)
 *
 *	struct guard g;
 *	guard_init(&g, &scenario, run_dir, host, quiet);	// the scan and records
 *	g.con_log = open("console.log"), g.chan_log = open("channel.log");
 *	... the VM started at t_vm (now_monotonic()) ...
 *	guard_watch(&g, &vm, t_vm);		// returns when the VM has ended
 *	if (g.error) ...			// the watch's own failure
 *	result_build(&scenario, &g.rs, &g.cs, host, &status);
 *	guard_release(&g);
 */
#ifndef SCALETEST_RUN_GUARD_H
#define SCALETEST_RUN_GUARD_H

#include <json.h>

#include "record/console.h"
#include "record/records.h"
#include "run/progress.h"
#include "scenario/scenario.h"
#include "vm/vm.h"

struct guard {
	const struct scenario *s;
	json_object *host;		/* host.json: what only the host saw */
	int con_log, chan_log;		/* console.log, channel.log (-1: none) */
	unsigned long long con_bytes, chan_bytes;	/* what the guest wrote on each */
	int over_budget;		/* past guest_output_mb: stop the VM */
	struct console_scan cs;
	struct records rs;
	struct progress progress;	/* the live progress line */
	double t_vm, deadline, crash_at;
	char *error;			/* the watch's own failure, or NULL */
	/* A hung-task report while the step's count still moved: a finding
	 * (result/build.c), and the run goes on; crash_at then is when it
	 * ends on the report if nothing moves (see on_console). */
	const struct console_report *deferred;
	const struct console_report *asked;	/* the report is_hung_task() last classified */
	int asked_hung;			/* and its answer */
};

/* The console scan and the records ready (their files under dir), for a
 * guest that runs s; host is the run's host.json. */
void guard_init(struct guard *g, const struct scenario *s, const char *dir, json_object *host,
		int quiet);
/* Watches the VM started at t_vm until it has ended (vm_watch(), then
 * the records and the scan finished): g->error set if the watch itself
 * failed, host.json told how it ended. */
void guard_watch(struct guard *g, struct vm *vm, double t_vm);
void guard_release(struct guard *g);

#endif
