/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stacks: the guest's kernel stack samples (initramfs/lib/timeattr.sh), one
 * "stacks" record (a chunk of a label's samples) parsed.
 *
 * The guest's sampler reads, a few times a second while the disks come
 * or go, /proc/PID/stat of every task and the stack and schedstat of the
 * tasks it keeps (the insmod or rmmod command in any state, every other
 * task in state R or D).  A chunk:
 *
 *	stacks 1 LABEL CHUNK TASKS
 *	b UPTIME
 *	s N UPTIME COST_US JOB
 *	t PID PPID STATE EXEC_NS COMM
 *	 __wait_rcu_gp+0x12b/0x140
 *	 synchronize_rcu+0x71/0xb0
 *	 sd_remove+0x2b/0x60 [sd_mod]
 *	...
 *	end N UPTIME COST_US TICKS
 *
 * The first chunk may start (after its header) with "b UPTIME": when the
 * sampler began, before its first sample (which waits up to 0.2 s for the
 * command to start).
 * LABEL insmod, rmmod or step-K; CHUNK counts from 1; TASKS where the
 * sampler found the tasks in R and D: "sched-debug" (the scheduler's list
 * in debugfs, one read) or "proc" (every /proc/PID/stat).  A sample "s": its
 * number N (from 1, rising), the guest's uptime in seconds, what the
 * sampler had cost before it (CPU microseconds) and the pid of bg_wait's
 * job (-1: none), whose children are the command.  A task "t": pid, parent
 * pid, state letter, on-CPU nanoseconds from schedstat ("-" without it),
 * the rest of the line its comm; then its frames, innermost first, one a
 * line with a leading blank.  "end", the last line of a label's last
 * chunk: the samples taken, the uptime when the sampler stopped, its CPU
 * microseconds and its CPU ticks (1/100 s, children included).
 *
 *	struct stk_chunk c = STK_CHUNK_INIT;
 *	struct strbuf err = STRBUF_INIT;
 *	if (stk_chunk_parse(&c, buf, len, &err) < 0)
 *		reject("%s", err.buf);		// "line 7: ..."
 *	for (size_t i = 0; i < c.n; i++) use(&c.s[i]);
 *	stk_chunk_release(&c);
 *
 * Everything is checked and bounded (the STK_MAX_* below); a line that fits
 * nowhere, a number out of range, samples out of order, an uptime going
 * back, anything after "end" is an error naming the line, and nothing
 * partial is returned.  Strings are kept as sent (the caller cleans what it
 * keeps).
 *
 * Folding (stk_site): a stack's call site is its first frame that is not
 * a scheduling or waiting primitive (__schedule, schedule_timeout,
 * __wait_for_common, __wait_rcu_gp, preempt_schedule_irq, the interrupt
 * and system call entries, and the wake-ups and unlocks where a task that
 * wakes another is preempted by it...: a table in stacks.c), with the frames that
 * called it (primitives again passed over), up to STK_SITE_FRAMES in all, written "synchronize_rcu <-
 * del_gendisk <- sd_remove [sd_mod]": what a task waits in, or where it
 * ran when it was preempted.  Names lose their offsets and the compiler's
 * suffixes (.isra.0, .constprop.0, .part.0, .cold), so a site has one name
 * across kernel versions.
 */
#ifndef SCALETEST_STACKS_H
#define SCALETEST_STACKS_H

#include <stddef.h>

#include "lib/strbuf.h"

#define STK_MAX_FRAMES 64		/* /proc/PID/stack's own limit */
#define STK_FRAME_MAX 256
#define STK_COMM_MAX 64
#define STK_MAX_TASKS 4096		/* per sample */
#define STK_MAX_CHUNK 1000000
#define STK_MAX_PID 4194304		/* PID_MAX_LIMIT */
#define STK_MAX_COST_US (1LL << 50)
#define STK_MAX_EXEC_NS (1LL << 62)
#define STK_SITE_FRAMES 3

struct stk_task {
	long long pid, ppid;
	long long exec_ns;	/* -1: no schedstat */
	char state;		/* 'R', 'D', 'S', ... */
	char *comm;
	char **frames;		/* innermost first */
	size_t nframes;
};

struct stk_sample {
	long long n, cost_us, job;	/* job -1: none */
	double t;
	struct stk_task *tasks;
	size_t ntasks, alloc;
};

struct stk_chunk {
	char *label;
	long long chunk;
	const char *tasks;	/* "sched-debug" or "proc" (static) */
	struct stk_sample *s;
	size_t n, alloc;
	int has_end;
	long long end_n, end_cost_us, end_ticks;
	double end_t;
	double begin_t;		/* "b": -1 when absent */
};
#define STK_CHUNK_INIT { NULL, 0, NULL, NULL, 0, 0, 0, 0, 0, 0, 0, -1 }

int stk_chunk_parse(struct stk_chunk *c, const char *buf, size_t len, struct strbuf *err);
void stk_chunk_release(struct stk_chunk *c);

/* The index of the first frame that is not a scheduling or waiting
 * primitive or an entry path; n when every frame is. */
size_t stk_fold(char *const *frames, size_t n);
/* "func+0x1/0x2 [mod]" -> "func [mod]" (suffixes cut), appended to sb. */
void stk_frame_name(const char *frame, struct strbuf *sb);
/* The call site of a stack (see above), into sb (appended): "(no stack)"
 * for an empty one, "(user space)" when every frame is a primitive or an
 * entry path (a task preempted in user space). */
void stk_site(char *const *frames, size_t n, struct strbuf *sb);

#endif
