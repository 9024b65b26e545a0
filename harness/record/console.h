/*
 * console: the guest's serial console, and what went wrong in a run.
 *
 * The console is untrusted text.  The scanner splits it into lines (CR
 * stripped, lines longer than CONSOLE_LINE_MAX cut), makes them printable
 * (control and non-ASCII bytes become '?'), and looks in each, with the
 * kernel's "[ 12.345678] " timestamp dropped, for the marks of the crash
 * classes: one table in console.c, a row per class with its blame, the
 * status it gives, its marks and how its title is derived.
 *
 *   kernel, from the console: panic, page-fault, null-deref, gpf, bug,
 *	kasan, kfence, ubsan, soft-lockup, hard-lockup, hung-task, rcu-stall,
 *	warning, oops, reboot (a second boot banner); and, giving status
 *	oom: oom (the OOM killer, "System is deadlocked on memory"),
 *	alloc-failure (page allocation failure);
 *   host-side, from how the run ended: channel-lost (the console shows the
 *	guest went on, the records stopped), hang (a phase deadline passed),
 *	qemu-exited (the VM ended before the guest did).
 *
 * The first report of the crash group and the first of the OOM group are
 * each kept with CONSOLE_BEFORE lines before and up to CONSOLE_AFTER lines
 * from their first line; the last CONSOLE_TAIL lines are kept for the
 * host-side classes.  crash_classify() then picks one: an OOM report wins
 * over a crash report (an OOM often ends in a panic), a kernel report over
 * the host-side classes, and among those the table's order.
 *
 * Titles are stable: the same bug gets the same title on two nights.  They
 * name the faulting function (the RIP:/EIP: line, the WARNING's own "at
 * FILE:LINE FUNC", or the first call-trace frame that is not scheduler,
 * allocator or reporting machinery) and drop pids, addresses, timestamps,
 * offsets (+0x12/0x40) and CPU numbers.
 *
 *	struct console_scan cs;
 *	console_scan_init(&cs);
 *	console_scan_feed(&cs, buf, n);		// any split
 *	if (console_scan_stop(&cs)) ...		// a report that ends the run
 *	console_scan_finish(&cs);		// the last line, if it had no '\n'
 *
 *	struct crash_host h = CRASH_HOST_INIT;	// what only the host saw
 *	struct crash c = CRASH_INIT;
 *	if (crash_classify(&cs, &h, &c))	// 1: c.cls, c.title, c.context
 *		... crash_reason(&c) ...
 *	crash_release(&c);
 *	console_scan_release(&cs);
 *
 * cs.crash_line and cs.oom_line keep the first line of each group's first
 * report (result.json's console.crash and console.oom).  The scan is
 * linear in its input however it is split, one huge line included:
 * cs.examined counts the bytes it looked at, for the tests that hold it
 * to that.
 */
#ifndef SCALETEST_CONSOLE_H
#define SCALETEST_CONSOLE_H

#include <stddef.h>

#include "lib/strbuf.h"
#include "lib/strvec.h"

#define CONSOLE_LINE_MAX 1024
#define CONSOLE_TITLE_MAX 200
#define CONSOLE_BEFORE 20
#define CONSOLE_AFTER 80
#define CONSOLE_TAIL 100
#define CONSOLE_CLASSES_MAX 32

enum crash_blame { BLAME_KERNEL, BLAME_HARNESS };
enum crash_status { CRASH_STATUS_CRASH, CRASH_STATUS_OOM, CRASH_STATUS_TIMEOUT,
		    CRASH_STATUS_ERROR };
enum crash_group { CRASH_GROUP_CRASH, CRASH_GROUP_OOM, CRASH_GROUP_HOST };

/* One report found on the console. */
struct console_report {
	const struct crash_class *cls;	/* NULL: none found */
	unsigned long line;		/* 1-based line number of its first line */
	struct strvec ctx;		/* context lines, printable, timestamps kept */
	size_t at;			/* ctx.v[at] is the first line */
};

struct console_scan {
	int crash, oom;
	char crash_line[CONSOLE_TITLE_MAX];
	char oom_line[CONSOLE_TITLE_MAX];
	struct console_report rep[2];	/* [CRASH_GROUP_CRASH], [CRASH_GROUP_OOM] */
	char *tail[CONSOLE_TAIL];	/* the last lines, a ring */
	size_t tail_n, tail_next;
	unsigned seen[CONSOLE_CLASSES_MAX];	/* lines with each class's marks */
	char guest_phase[32];		/* the last "phase NAME" the guest said */
	int guest_end;			/* the guest said "end: ..." */
	unsigned long lines;
	unsigned long long examined;	/* bytes looked at, each counted once a look */
	struct strbuf partial;
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
};
#define CRASH_HOST_INIT { 0, 0, 0, NULL, 0, -1 }

struct crash_class {
	const char *name;		/* result.json's crash.class */
	enum crash_blame blame;
	enum crash_status status;
	int stop;			/* a live run stops the VM after a grace */
	const char *marks[5];		/* a line with any of these starts a report */
	unsigned nth;			/* ... the nth such line (0 means 1) */
	int (*host)(const struct console_scan *cs, const struct crash_host *h);
	/* The title: from the report's lines (cs and h for host rows). */
	void (*title)(const struct crash_class *c, const struct console_report *r,
		      const struct console_scan *cs, const struct crash_host *h,
		      struct strbuf *title, struct strbuf *detail);
	int from;			/* where title_func finds FUNC */
	const char *fmt;		/* the title, "%s" for FUNC */
	const char *fallback;		/* the title when no FUNC is found */
};

struct crash {
	const struct crash_class *cls;	/* NULL: nothing wrong */
	struct strbuf title;		/* stable */
	struct strbuf detail;		/* host-side classes: what varies, or "" */
	unsigned long line;		/* console line of the report, 0 host-side */
	struct strbuf context;		/* the console lines around it */
};
#define CRASH_INIT { NULL, STRBUF_INIT, STRBUF_INIT, 0, STRBUF_INIT }

void console_scan_init(struct console_scan *cs);
void console_scan_feed(struct console_scan *cs, const char *buf, size_t n);
void console_scan_finish(struct console_scan *cs);
void console_scan_release(struct console_scan *cs);
/* The first report whose class stops a run, or NULL. */
const struct console_report *console_scan_stop(const struct console_scan *cs);

/* Classify one line (no '\n'): 0 nothing, 1 crash group, 2 OOM group
 * (a class that needs a second line, like reboot, is never matched). */
int console_classify(const char *line, size_t len);

/* The table, for tests and documentation. */
const struct crash_class *crash_classes(size_t *n);
const char *crash_blame_name(enum crash_blame b);

/* Picks the class of a run (h may be NULL: the console alone); returns 1
 * and fills c when something went wrong, 0 when nothing did. */
int crash_classify(const struct console_scan *cs, const struct crash_host *h,
		   struct crash *c);
/* "title" or "title (detail)": the run's reason. malloc'd. */
char *crash_reason(const struct crash *c);
void crash_release(struct crash *c);

#endif
