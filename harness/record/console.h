/* SPDX-License-Identifier: Apache-2.0 */
/*
 * console: the scanner of the guest's serial console.
 *
 * The console is untrusted text.  The scanner splits it into lines (CR
 * stripped, lines longer than CONSOLE_LINE_MAX cut), makes them printable
 * (control and non-ASCII bytes become '?'), splits each into timestamp,
 * caller id and message (crash.h), and asks the crash classifier (crash.h)
 * whether the line starts a report.  The first report of each group (a
 * crash, an OOM, a finding the kernel goes on past) is kept:
 * CONSOLE_BEFORE lines before and up to CONSOLE_AFTER lines from its
 * first line (the context shown to people), and the lines its title is
 * taken from (the classifier's choice).  The last CONSOLE_TAIL lines are
 * kept for the host-side classes, and the guest's own "scaletest[...]:
 * phase NAME" and "end:" lines are noted.
 *
 * crash_classify() then names what went wrong: the earlier of the crash
 * and the OOM report (on the same line, the OOM report: a panic that says
 * "Out of memory" is an OOM), except that an OOM gives way to a later
 * crash unless that crash is the boot's end it brought (a panic after
 * init was killed); titled by the classifier; else, from what the host
 * saw, one of the host-side classes.  crash_finding() names the finding,
 * which is never what went wrong.
 *
 *	struct console_scan cs;
 *	console_scan_init(&cs);
 *	console_scan_feed(&cs, buf, n);		// any split
 *	if (console_scan_stop(&cs)) ...		// a report that ends the run
 *	console_scan_finish(&cs);		// the last line, if it had no '\n'
 *
 *	struct crash_host h = CRASH_HOST_INIT;	// what only the host saw
 *	struct crash c = CRASH_INIT;
 *	if (crash_classify(&cs, &h, &c))	// 1: c.cls, c.type, c.title, c.context
 *		... crash_reason(&c) ...
 *	if (crash_finding(&cs, &f))		// 1: a finding, as c
 *		...
 *	crash_release(&c);
 *	console_scan_release(&cs);
 *
 * cs.crash_line and cs.oom_line keep the first line of the first crash
 * and OOM report (result.json's console.crash and console.oom).  The scan is
 * linear in its input however it is split, one huge line included:
 * cs.examined counts the bytes it looked at, for the tests that hold it
 * to that.
 */
#ifndef SCALETEST_CONSOLE_H
#define SCALETEST_CONSOLE_H

#include <stddef.h>

#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "record/crash.h"

#define CONSOLE_LINE_MAX 1024
#define CONSOLE_TITLE_MAX 200
#define CONSOLE_BEFORE 20
#define CONSOLE_AFTER 80
#define CONSOLE_TAIL 100

/* One report found on the console. */
struct console_report {
	struct crash_report r;		/* r.cls NULL: none found */
	unsigned long line;		/* 1-based line number of its first line */
	struct strvec ctx;		/* context lines, printable, timestamps kept */
	size_t at;			/* ctx.v[at] is the first line */
};

struct console_scan {
	int crash, oom;
	char crash_line[CONSOLE_TITLE_MAX];
	char oom_line[CONSOLE_TITLE_MAX];
	struct console_report rep[CRASH_GROUP_COUNT];	/* the first of each group */
	char *tail[CONSOLE_TAIL];	/* the last lines, a ring */
	size_t tail_n, tail_next;
	unsigned *seen;			/* lines with each oops row's header */
	int stamped;			/* a line with a kernel timestamp came */
	char guest_phase[32];		/* the last "phase NAME" the guest said */
	int guest_end;			/* the guest said "end: ..." */
	unsigned long lines;
	unsigned long long examined;	/* bytes looked at, each counted once a look */
	struct strbuf partial;
};

void console_scan_init(struct console_scan *cs);
void console_scan_feed(struct console_scan *cs, const char *buf, size_t n);
void console_scan_finish(struct console_scan *cs);
void console_scan_release(struct console_scan *cs);
/* The first report whose class stops a run, or NULL. */
const struct console_report *console_scan_stop(const struct console_scan *cs);

/* Classify one line (no '\n'): 0 nothing (a finding, like a page allocation
 * failure, included), 1 crash group, 2 OOM group (a report that needs an
 * earlier line, like a reboot, is never matched). */
int console_classify(const char *line, size_t len);

/* Picks what went wrong in a run (h may be NULL: the console alone);
 * returns 1 and fills c when something did, 0 when nothing did. */
int crash_classify(const struct console_scan *cs, const struct crash_host *h,
		   struct crash *c);
/* The first report that is a finding whatever the run (a class of
 * FINDING_ALWAYS: a page allocation failure): 1 and c filled as
 * crash_classify() fills it, or 0. */
int crash_finding(const struct console_scan *cs, struct crash *c);

#endif
