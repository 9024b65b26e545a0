/* SPDX-License-Identifier: Apache-2.0 */
/*
 * crash: the crash classifier.  Which console line starts a kernel report,
 * which of the lines after it belong to it, and the report's class, type
 * and title: the titles syzkaller gives (google/syzkaller pkg/report/
 * linux.go, ported rule by rule), so that the same bug gets the same
 * title on two nights and the title a kernel developer already knows.  The
 * console scanner (console.h) feeds it.
 *
 * The rules are data, apart from the engine that applies them (crash.c):
 *   crash_class.c      the harness's classes (result.json crash.class): who
 *                      is to blame, the run status each gives, whether a
 *                      live run stops the VM for it, whether a report of
 *                      it is a finding the run goes on past; the host-side
 *                      ones (channel-lost, hang, qemu-exited), decided from
 *                      what the host saw;
 *   crash_syzkaller.c  syzkaller's oops table: a header (a plain string a
 *                      line must hold to start a report), suppressions
 *                      (lines that hold it and are no report), and the
 *                      formats tried on the report's lines: a title
 *                      pattern, report patterns on later lines, the title
 *                      template, and a stack extractor (which parts of the
 *                      report to walk, which frames to skip, how to pick
 *                      the frame among the rest); the frames never named in
 *                      a title (locking, list and string helpers,
 *                      allocators, sanitizer and reporting machinery);
 *                      syzkaller's crash type of a title (HANG, WARNING,
 *                      LOCKDEP, KASAN-READ, DoS, ...), kept apart from it;
 *   crash_own.c        the harness's own rows, tried after syzkaller's (an
 *                      OOM, a page allocation failure, a second boot
 *                      banner, a hard lockup, a lone Oops).
 * crash_rules.h says the shape of the rules; crash_re.c compiles and runs
 * their patterns.
 *
 * A title has no pid, address, offset, line number or timestamp: numbers
 * become NUM, addresses ADDR, source lines LINE, as syzkaller's
 * replacements do, and at most CRASH_TITLE_MAX bytes are kept.
 *
 * Calling sequence (the scanner does the first part for every line):
 *
 *	struct crash_line l;
 *	crash_line_parse(&l, text, len);	// timestamp, caller id, message
 *	int k = crash_line_oops(&l, group);	// >= 0: the line starts a report
 *	if (k >= 0 && crash_oops_counts(k, seen[k], stamped)) {
 *		struct crash_report r;
 *		crash_report_init(&r);
 *		crash_report_start(&r, k, &l);
 *		while (crash_report_add(&r, &next))	// its next lines
 *			...;
 *		struct crash c = CRASH_INIT;
 *		crash_of_report(&r, &c);	// c.cls, c.type, c.title
 *		crash_release(&c);
 *		crash_report_release(&r);
 *	}
 *
 * and, when the console holds no report, crash_of_host() tries the
 * host-side classes.
 */
#ifndef SCALETEST_CRASH_H
#define SCALETEST_CRASH_H

#include <stddef.h>

#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "record/crash_class.h"

#define CRASH_TITLE_MAX 120	/* syzkaller's maxTitleLen */
#define CRASH_BODY_MAX 2000	/* lines a report's title is looked for in */

/* One console line (no '\n'), split the way the kernel prints it:
 * [<N>][ 12.345678][  T1042] message.  The caller id ("T1042", "C1") is
 * there when the kernel has CONFIG_PRINTK_CALLER; kind is 0 for a line
 * without a timestamp, 'S' for one with a timestamp only, 'T' or 'C' with
 * a caller id.  The text is a C string: s[len] is '\0' (the patterns are
 * POSIX regular expressions, which run on C strings). */
struct crash_line {
	const char *s;		/* the line */
	size_t len;
	const char *msg;	/* the message, past timestamp and caller id */
	size_t msglen;
	char kind;
	unsigned long id;	/* the caller id's number */
	unsigned long long heads;	/* bit k: the line holds the header of oops row k */
};

/* A report: its first line and the lines its title is taken from.  The
 * body keeps, as syzkaller does, the lines of the report's own context
 * (the same caller id, when the kernel prints one), messages only,
 * without the stale frames ("? func+0x..") and without the SCSI stack's
 * per-disk chatter; it ends at the next report (unless caller ids tell the
 * two apart) or at CRASH_BODY_MAX lines. */
struct crash_report {
	const struct crash_class *cls;	/* NULL: none started */
	int oops;			/* the oopses[] row that started it */
	struct strvec body;
	char kind;			/* the first line's context */
	unsigned long id;
	int open;			/* still taking lines */
	int cpu_traceback;		/* "Sending NMI from CPU": all CPUs' lines */
	int skip_rest;			/* a panic after the report: the rest is its */
	unsigned text_lines;
};

struct crash {
	const struct crash_class *cls;	/* NULL: nothing wrong */
	const char *type;		/* syzkaller's crash type, "UNKNOWN" if none */
	struct strbuf title;		/* stable */
	struct strbuf detail;		/* host-side classes: what varies, or "" */
	unsigned long line;		/* console line of the report, 0 host-side */
	struct strbuf context;		/* the console lines around it */
};
#define CRASH_INIT { NULL, NULL, STRBUF_INIT, STRBUF_INIT, 0, STRBUF_INIT }

void crash_line_parse(struct crash_line *l, const char *s, size_t len);

/* The first oopses[] row of group g whose report the line starts, or -1. */
int crash_line_oops(const struct crash_line *l, enum crash_group g);
/* Whether the seen-th line (1-based) of row k starts a report: a reboot is
 * the second boot banner, or the boot loader's line after the kernel had
 * printed (stamped: a line with a timestamp came before). */
int crash_oops_counts(int k, unsigned seen, int stamped);
size_t crash_oops_count(void);

void crash_report_init(struct crash_report *r);
void crash_report_release(struct crash_report *r);
void crash_report_start(struct crash_report *r, int k, const struct crash_line *first);
/* Offer the report the next console line; 0 once it takes no more. */
int crash_report_add(struct crash_report *r, const struct crash_line *l);

/* Classify and title a report (1), or the run from the host's facts (1 if
 * it ended one of the host-side ways, 0 if not).  c->context and c->line
 * are the caller's. */
int crash_of_report(const struct crash_report *r, struct crash *c);
/* The same, with frames (innermost first, as /proc/PID/stack gives them)
 * as the report's call trace when it has none of its own: a hung-task
 * report at the default loglevel reaches the console without its stack,
 * and the guest read the blocked task's (record/hung.h). */
int crash_of_report_trace(const struct crash_report *r, char *const *frames, size_t n,
			  struct crash *c);
/* The pid of the task a report's first line names ("INFO: task
 * insmod:139 blocked for more than ..." names 139), or -1. */
long long crash_report_task(const struct crash_report *r);
/* The class crash_of_report() gives a report, NULL when none started: its
 * title can refine the oops row's (an "INFO:" row titled "INFO: task hung
 * in ..." is a hung task).  The run loop asks it of a report that would
 * end the run; the verdict, of the one that did. */
const struct crash_class *crash_report_class(const struct crash_report *r);
int crash_of_host(const struct crash_guest *g, const struct crash_host *h, struct crash *c);

/* syzkaller's crash type of a title: "HANG", "KASAN-READ", ... "UNKNOWN". */
const char *crash_title_type(const char *title);

/* For tests: compile every pattern of the rules; the number that do not
 * compile (each named on stderr). */
int crash_check_patterns(void);

/* "title" or "title (detail)": the run's reason. malloc'd. */
char *crash_reason(const struct crash *c);
void crash_reset(struct crash *c);
void crash_release(struct crash *c);

#endif
