/*
 * console: watching the guest's serial console for the end of the world.
 *
 * The console is untrusted text.  The scanner splits it into lines (CR
 * stripped, lines longer than CONSOLE_LINE_MAX cut), drops the kernel's
 * "[ 12.345678] " timestamp, and classifies each line:
 *
 *   crash: "Kernel panic", "Oops", "BUG:", "kernel BUG at",
 *          "general protection fault", "Unable to handle", "double fault";
 *   oom:   "Out of memory", "invoked oom-killer", "oom-kill:".
 *
 * The first line of each class is kept as the title of the failure (made
 * printable: control bytes become '?').
 *
 *	struct console_scan cs;
 *	console_scan_init(&cs);
 *	console_scan_feed(&cs, buf, n);	// any split
 *	console_scan_finish(&cs);	// the last line, if it had no '\n'
 *	if (cs.oom) ... cs.oom_line ...
 *	else if (cs.crash) ... cs.crash_line ...
 *	console_scan_release(&cs);
 */
#ifndef SCALETEST_CONSOLE_H
#define SCALETEST_CONSOLE_H

#include <stddef.h>

#include "lib/strbuf.h"

#define CONSOLE_LINE_MAX 1024
#define CONSOLE_TITLE_MAX 200

struct console_scan {
	int crash, oom;
	char crash_line[CONSOLE_TITLE_MAX];
	char oom_line[CONSOLE_TITLE_MAX];
	unsigned long lines;
	struct strbuf partial;
};

void console_scan_init(struct console_scan *cs);
void console_scan_feed(struct console_scan *cs, const char *buf, size_t n);
void console_scan_finish(struct console_scan *cs);
void console_scan_release(struct console_scan *cs);

/* Classify one line (no '\n'): 0 nothing, 1 crash, 2 oom. */
int console_classify(const char *line, size_t len);

#endif
