/* SPDX-License-Identifier: Apache-2.0 */
/*
 * timeattr: the guest's stack samples (record/stacks.h), label by label,
 * turned into wall-clock seconds by call site.
 *
 * Each sample stands for the time until the next one (the last, until
 * the sampler stopped: its "end" line; the first, from the sampler's
 * start too: its "b" line).  That time goes to one answer,
 * what the guest was doing then, as a 1-CPU guest does one thing at a
 * time (the wall view):
 *
 *	1. the tasks in state R, shared evenly: on the CPU ("on_cpu"): a
 *	   task the sampler preempted, so its stack is where it ran;
 *	2. else the tasks in state D, shared evenly: waiting ("wait");
 *	3. else the command (insmod, rmmod: bg_wait's job and its children)
 *	   in whatever state it is: waiting;
 *	4. else "(idle)": nothing the sampler keeps was running or waiting.
 *
 * A task's class: "command"; "kthread" (a child of kthreadd, pid 2: the
 * kworkers of async scanning, scsi_eh, ...); or "harness" (the guest's
 * own shells and tools: /init counting the disks, the monitor).  Its
 * time goes to its call site (stk_site) and its whole stack (for the
 * flame graph), both keyed with the class.  On more than one CPU, tasks
 * in R on another CPU show no stack ("(no stack)") and their shares
 * are an approximation.
 *
 * The command's exact CPU time comes from schedstat: the growth of its
 * on-CPU nanoseconds between samples, summed (command_cpu_s), a check
 * on the sampled on-CPU share.
 *
 *	struct ta_run ta;
 *	ta_init(&ta);
 *	if (ta_add(&ta, &chunk, &why) < 0) reject(why);	// order, bounds
 *	ta_unavailable(&ta, "no /proc/PID/stack");		// a guest without
 *	json_object *o = ta_json(&ta);		// {status, reason, labels: [...]}
 *	ta_release(&ta);
 *
 * A label's chunks must come in order (1, 2, ...) and nothing after its
 * end; a label seen before cannot start again; TA_MAX_LABELS labels and
 * TA_MAX_SAMPLES samples in all, TA_MAX_STACKS distinct stacks and as many
 * sites per label (past them, the time goes to "(other)").  ta_json()
 * gives, per label:
 *
 *	{"label", "complete" (its end came), "tasks_from" (stacks.h), "samples",
 *	 "t0", "t1", "span_s",
 *	 "cost_s" (the sampler's CPU: schedstat), "cost_ticks_s" (its CPU
 *	 ticks, its children's included), "on_cpu_s", "wait_s", "idle_s",
 *	 "command_cpu_s" (schedstat; null without it), "sites_total",
 *	 "sites": [{"site", "class", "comm", "s", "on_cpu_s", "wait_s",
 *		    "stack": [frames, innermost first]}] (the TA_TOP_SITES
 *		    largest, then by name), "other_s",
 *	 "stacks": [{"stack": "class;outermost;...;innermost", "on_cpu_s",
 *		     "wait_s"}] (the TA_TOP_STACKS largest; not for steps),
 *	 "other_stacks_s"}
 *
 * and, when steps came, a label "sweep": every step's samples together.
 */
#ifndef SCALETEST_TIMEATTR_H
#define SCALETEST_TIMEATTR_H

#include <stddef.h>

#include <json.h>

#include "record/stacks.h"
#include "lib/strbuf.h"

#define TA_MAX_LABELS 80
#define TA_MAX_SAMPLES 200000
#define TA_MAX_STACKS 4096
#define TA_TOP_SITES 25
#define TA_TOP_STACKS 200

struct ta_entry {
	char *key;
	double on, wait;
	double best;		/* the largest single share, and its stack */
	char *stack;		/* frames joined by '\n', innermost first */
	char *comm;		/* the task's, with that share */
};

struct ta_map {
	struct ta_entry *e;	/* open addressing; key NULL: empty */
	size_t n, cap;
	int full;		/* TA_MAX_STACKS reached: the rest in "(other)" */
};

struct ta_prev {
	long long pid, exec_ns;
};

struct ta_label {
	char *name;
	const char *tasks;	/* the first chunk's source (stacks.h) */
	long long next_chunk;
	int done;
	long long samples, last_n;
	double t0, t_last, t_end;
	long long cost_us, ticks;
	struct stk_sample pending;
	int have_pending;
	int seen;		/* a sample has found a task */
	struct ta_map sites, stacks;
	double on_s, wait_s, idle_s;
	double cmd_exec_s;
	int cmd_exec_known;
	struct ta_prev *prev;
	size_t nprev;
};

struct ta_run {
	struct ta_label *l;
	size_t n, alloc;
	long long samples;
	char *unavailable;	/* the guest's reason, or NULL */
	char *preempt;		/* the preemption model the guest reported, or NULL */
};

void ta_init(struct ta_run *r);
/* Takes c's samples (c is left empty); -1 with why when it does not fit. */
int ta_add(struct ta_run *r, struct stk_chunk *c, struct strbuf *why);
void ta_unavailable(struct ta_run *r, const char *reason);
/* NULL when the guest sent nothing. */
json_object *ta_json(const struct ta_run *r);
void ta_release(struct ta_run *r);

#endif
