/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hung: the kernel stacks of the tasks a hung-task report may name, as the
 * guest read them (initramfs/lib/hung.sh), one "hung" record parsed.
 *
 * At the default loglevel (4) the console shows a hung-task report's
 * first line ("INFO: task insmod:139 blocked for more than 1 seconds.")
 * but not the stack the kernel prints after it, at KERN_INFO: the report
 * cannot say where the task waits ("INFO: task hung in corrupted").  So
 * the guest watches the detector's own count and, when it moves, reads
 * /proc/PID/stack of every task in D state and sends them; the host
 * titles the report with the stack of the task it names (console.c,
 * crash_of_report_trace()).  A record:
 *
 *	hung 1 UPTIME
 *	t PID COMM
 *	 async_synchronize_cookie_domain+0x9d/0x130
 *	 do_init_module+0x1b4/0x1f0
 *	 ...
 *	t PID COMM
 *	 ...
 *
 * UPTIME the guest's when it read them; "t": a task's pid and comm (the
 * rest of the line); then its frames, innermost first, one a line with a
 * leading blank, as /proc/PID/stack gives them without the "[<0>]".
 *
 *	struct hung_tasks h = HUNG_TASKS_INIT;
 *	struct strbuf err = STRBUF_INIT;
 *	if (hung_parse(&h, buf, len, &err) < 0)	// appends a record's tasks
 *		reject("%s", err.buf);		// "line 3: ...": nothing appended
 *	const struct hung_task *t = hung_find(&h, 139);	// the first read of 139
 *	hung_release(&h);
 *
 * Everything is checked and bounded (HUNG_MAX_*); strings are kept as
 * sent (the classifier reads frames by pattern, as it reads a console).
 */
#ifndef SCALETEST_HUNG_H
#define SCALETEST_HUNG_H

#include <stddef.h>

#include "lib/strbuf.h"

#define HUNG_MAX_TASKS 64	/* in all records together */
#define HUNG_MAX_FRAMES 64	/* /proc/PID/stack's own limit */
#define HUNG_FRAME_MAX 256
#define HUNG_COMM_MAX 64
#define HUNG_MAX_PID 4194304	/* PID_MAX_LIMIT */

struct hung_task {
	long long pid;
	double t;		/* the guest's uptime when the stack was read */
	char *comm;
	char **frames;		/* innermost first */
	size_t nframes;
};

struct hung_tasks {
	struct hung_task *v;
	size_t n, alloc;
};
#define HUNG_TASKS_INIT { NULL, 0, 0 }

int hung_parse(struct hung_tasks *h, const char *buf, size_t len, struct strbuf *err);
/* The first task read with that pid, or NULL. */
const struct hung_task *hung_find(const struct hung_tasks *h, long long pid);
void hung_release(struct hung_tasks *h);

#endif
