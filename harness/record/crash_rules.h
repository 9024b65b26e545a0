/* SPDX-License-Identifier: Apache-2.0 */
/*
 * crash_rules: the shape of the crash rules, which are data, and what the
 * engine (crash.c) needs to apply them.  The rules live in two files:
 *
 *   crash_syzkaller.c  syzkaller's rules (google/syzkaller pkg/report/
 *                      linux.go and pkg/report/crash), ported row by row:
 *                      the oops table, the stack patterns, the frames
 *                      never named in a title, the stall and hang anchors,
 *                      the crash types of titles, what varies in a title;
 *   crash_own.c        the harness's own rows, which syzkaller has not
 *                      (an OOM, a page allocation failure, a second boot
 *                      banner, a hard lockup, a lone Oops), tried after
 *                      syzkaller's.
 *
 * Both say a report's class by its id in the class table (crash_class.h).
 * Patterns are POSIX extended regular expressions (regcomp), with (?:...)
 * for a group that is no argument of the title, as syzkaller writes them;
 * R("...") makes one (crash_re.h).
 *
 * A line starts a report of the first oops row (syzkaller's, then the
 * harness's) whose header it holds and whose suppressions it does not
 * match.  The report's title comes from the row's formats: the format
 * whose title pattern is found first in the report; its report patterns
 * on later lines; its stack: the parts walked in turn over the report's
 * lines, frames matching crash_skip[] or the stack's own skip passed
 * over, the extractor picking one frame among the rest.
 */
#ifndef SCALETEST_CRASH_RULES_H
#define SCALETEST_CRASH_RULES_H

#include <stddef.h>

#include "record/crash_class.h"
#include "record/crash_re.h"

#define CRASH_OOPS_MAX 64		/* crash_line.heads has 64 bits */
#define CRASH_OOPS_SYZKALLER_MAX 48
#define CRASH_OOPS_OWN_MAX (CRASH_OOPS_MAX - CRASH_OOPS_SYZKALLER_MAX)

/* syzkaller's (crash_syzkaller.c): the marker of a stack's parts, walk a
 * stack trace here; the RIP line; "Call Trace:". */
extern struct re crash_re_parse;
#define PARSE (&crash_re_parse)
extern struct re crash_re_rip, crash_re_call_trace;
#define RIP (&crash_re_rip)
#define CALLTRACE (&crash_re_call_trace)

/* How the frame that names a stack is picked among those not skipped:
 * the first; a stall's (the frame before the first dispatcher, a syscall
 * entry, work item or timer); a hung task's (the first that is not
 * waiting). */
enum extractor { EX_FIRST, EX_STALL, EX_HANG };

/* Where a title's frame comes from: parts matched on the report's lines in
 * turn (PARSE walks a stack trace), parts2 when parts find none (and, the
 * harness's own, parts3 when neither does, rather than a title "in
 * corrupted"); frames matching skip (and crash_skip[]) are passed over;
 * the extractor picks one among the rest. */
struct stack {
	struct re *parts[4];
	struct re *parts2[4];
	struct re *parts3[4];		/* the harness's own last try */
	struct re *skip;
	enum extractor ex;
};
#define STACK(...) (&(const struct stack){ __VA_ARGS__ })
#define RIP_STACK STACK(.parts = { RIP, CALLTRACE, PARSE })
#define TRACE_STACK STACK(.parts = { CALLTRACE, PARSE })

/*
 * A format: the title pattern, found on a line of the report (title2, when
 * set, on a later line too); report patterns on later and later lines,
 * whose arguments replace the title's; the title, "%[N]v" being the Nth
 * argument (the patterns' groups, then the stack's frame); the class when
 * not the row's.  Among a row's formats the one whose title is found
 * first in the report wins, the earlier in the table on a tie; a format
 * whose report patterns are not found gives way to the next.
 */
struct crash_format {
	struct re *title, *title2;
	int title2_next;		/* title2 on the very next line */
	struct re *report[4];
	const char *fmt;
	const struct stack *stack;
	enum crash_class_id cls;	/* or C_NONE for the row's */
};

struct oops {
	const char *header;		/* a line holding it starts a report ... */
	struct re *suppress[12];	/* ... unless it matches one of these */
	enum crash_group group;
	enum crash_class_id cls;
	unsigned nth;			/* the nth such line (0 means 1) */
	int after_kernel;		/* only after a line with a timestamp */
	int harness;			/* the harness's: ends no report, titles kept as made */
	const struct crash_format *formats;	/* ended by a row without fmt */
};

#define F(...) { __VA_ARGS__ }
#define FORMATS(...) ((const struct crash_format[]){ __VA_ARGS__, { .fmt = NULL } })

/* The oops rows: syzkaller's, then the harness's; the engine numbers them
 * in that order. */
extern const struct oops crash_syzkaller_oopses[];
extern const size_t crash_syzkaller_noopses;
extern const struct oops crash_own_oopses[];
extern const size_t crash_own_noopses;

/* syzkaller's tables (crash_syzkaller.c); the lists end with NULL. */
extern struct re *const crash_stack_starts[];	/* a stack trace starts here */
extern struct re *const crash_frame_res[];	/* a frame on a line of a trace */
extern struct re *const crash_corrupted_lines[];	/* the report is unreliable */
extern const char *const crash_skip[];		/* frames never named in a title */
extern const char *const crash_strip_prefixes[];	/* syscall entry prefixes */
extern const char *const crash_stall_anchors[];	/* dispatchers a stall loops under */
struct crash_hang_anchor {
	const char *frame, *as;	/* a frame that names a hung task, as itself or as */
};
extern const struct crash_hang_anchor crash_hang_anchors[];	/* ends with frame NULL */
extern const char *const crash_hang_skip[];	/* frames that wait, not hang */
extern const char *const crash_start_ignores[];	/* a header that starts no new report */
extern const char *const crash_info_with_stack[];	/* no bug, but ends a report */
struct crash_type {
	const char *type;
	const char *prefixes[20];
};
extern const struct crash_type crash_types[];	/* ends with type NULL */
struct crash_replacement {
	struct re *re;
	const char *with;
};
extern const struct crash_replacement crash_replacements[];	/* ends with re NULL */

/* The harness's (crash_own.c): the task a report's first line names, its
 * pid the first argument. */
extern struct re crash_re_task;

#endif
