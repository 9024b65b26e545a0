/* SPDX-License-Identifier: Apache-2.0 */
/*
 * crash_class: the harness's crash classes, one row each in classes[]
 * (crash_class.c): result.json's crash.class, who is to blame, the run
 * status it gives, whether a live run stops the VM for it, and what a
 * report of it is to a run (an ending, or a finding the run goes on
 * past).  The rules that name a report's class (crash_rules.h) point at
 * these rows by their id; the host-side rows (channel-lost, hang,
 * qemu-exited) are decided from what the host saw, and title themselves.
 *
 *	size_t n;
 *	const struct crash_class *all = crash_classes(&n);	// for docs and tests
 *	const struct crash_class *c = crash_class_at(C_OOM);	// a rule's class
 *	if (c->finding == FINDING_IF_SURVIVED) ...		// the run's policy
 *	c = crash_host_class(&guest, &host);			// NULL: none applies
 *	c->title(&guest, &host, &title, &detail);
 *
 * A new class: an id below, its row in classes[], and the rules that name
 * it (docs/internals.md, "Where to add things").
 */
#ifndef SCALETEST_CRASH_CLASS_H
#define SCALETEST_CRASH_CLASS_H

#include "lib/strbuf.h"

struct hung_tasks;		/* record/hung.h */

enum crash_blame { BLAME_KERNEL, BLAME_HARNESS };
enum crash_status { CRASH_STATUS_CRASH, CRASH_STATUS_OOM, CRASH_STATUS_TIMEOUT,
		    CRASH_STATUS_ERROR };
/* The console scanner keeps the first report of each group: a crash, an
 * OOM, a finding (a report of a FINDING_ALWAYS class). */
enum crash_group { CRASH_GROUP_CRASH, CRASH_GROUP_OOM, CRASH_GROUP_FINDING, CRASH_GROUP_COUNT };

/* The rows of classes[], in its order; C_NONE is no class. */
enum crash_class_id {
	C_NONE, C_PANIC, C_PAGE_FAULT, C_NULL_DEREF, C_GPF, C_KERNEL_BUG, C_KASAN, C_KFENCE,
	C_KMSAN, C_KCSAN, C_UBSAN, C_SOFT_LOCKUP, C_HARD_LOCKUP, C_HUNG_TASK,
	C_RCU_STALL, C_WARNING, C_LOCKDEP, C_MEMORY_LEAK, C_BUG, C_OOPS, C_REBOOT,
	C_OOM, C_ALLOC_FAILURE, C_CHANNEL_LOST, C_HANG, C_QEMU_EXITED, C_COUNT
};

/* What a report of the class is to a run. */
enum crash_finding {
	FINDING_NEVER,		/* an ending: the run's crash, its status the class's */
	/* A finding, not an ending, while the run goes on: a hung-task
	 * report while insmod or rmmod still makes or removes disks is the
	 * detector's verdict on a long wait.  The live run waits while the
	 * step's count moves; a guest that then finishes makes it a finding
	 * (result.json's findings), else it is the run's crash. */
	FINDING_IF_SURVIVED,
	/* A finding always: the kernel prints it and goes on (a page
	 * allocation failure, which its caller copes with).  Its reports are
	 * kept apart (CRASH_GROUP_FINDING): never a run's crash, never a
	 * reason to stop, never in the way of a later crash. */
	FINDING_ALWAYS,
};

/* What only the host saw of a run's end (result.json is built from the
 * same facts, saved in host.json). */
struct crash_host {
	int booted;		/* a VM was started */
	int timed_out;		/* a phase deadline passed */
	int vm_exited;		/* the VM ended by itself, not stopped by us */
	const char *vm_exit;	/* how, e.g. "exited with status 1"; or NULL */
	int got_end;		/* the guest's end record arrived */
	int last_phase;		/* the last phase received on the channel, -1 none */
	/* The stacks the guest read when the hung-task detector spoke, or
	 * NULL: a hung-task report whose own stack did not reach the console
	 * is titled with its task's (record/hung.h). */
	const struct hung_tasks *hung;
};
#define CRASH_HOST_INIT { 0, 0, 0, NULL, 0, -1, NULL }

/* What the guest said of itself on the console (scaletest[...] lines). */
struct crash_guest {
	const char *phase;	/* the last "phase NAME", or "" */
	int ended;		/* it said "end: ..." */
};

struct crash_class {
	const char *name;	/* result.json's crash.class */
	enum crash_blame blame;
	enum crash_status status;
	int stop;		/* a live run stops the VM after a grace */
	const char *type;	/* the type when the title has none, or NULL */
	/* Host-side rows: whether the run ended this way, and its title. */
	int (*host)(const struct crash_guest *g, const struct crash_host *h);
	void (*title)(const struct crash_guest *g, const struct crash_host *h,
		      struct strbuf *title, struct strbuf *detail);
	enum crash_finding finding;
	/* The boot's end rather than a bug of its own: after an OOM report it
	 * is the OOM's doing (init killed, then a panic), and the OOM names
	 * the run's end; after no OOM, it is the crash. */
	int boot_end;
};

/* The row of an id (C_NONE: a row without a name). */
const struct crash_class *crash_class_at(enum crash_class_id id);
/* The first host-side row whose run ended its way, or NULL. */
const struct crash_class *crash_host_class(const struct crash_guest *g, const struct crash_host *h);
/* Every row but C_NONE, for tests and documentation. */
const struct crash_class *crash_classes(size_t *n);
const char *crash_blame_name(enum crash_blame b);

#endif
