// SPDX-License-Identifier: Apache-2.0
/*
 * The harness's own crash rules: reports syzkaller's table (crash_
 * syzkaller.c) does not have, tried after its rows.  Their shape is
 * crash_rules.h; rows marked harness end no report of syzkaller's and
 * keep their titles as made (no NUM, ADDR).
 */
#include "record/crash_rules.h"

#include "lib/util.h"

/* The OOM killer's report, and the kernel's panic for lack of memory. */
static const struct crash_format oom_formats[] = {
	F(.title = R("."), .report = { R("System is deadlocked on memory") },
	  .fmt = "Out of memory: System is deadlocked on memory"),
	F(.title = R("."), .report = { R("no killable processes") },
	  .fmt = "Out of memory: no killable processes"),
	F(.title = R("."), .fmt = "Out of memory"),
	{ .fmt = NULL },
};

const struct oops crash_own_oopses[] = {
	/* A second boot banner: the kernel rebooted (a panic with panic=N,
	 * a triple fault). */
	{ "Linux version ", { NULL }, CRASH_GROUP_CRASH, C_REBOOT, 2, 0, 0, FORMATS(
	F(.title = R("Linux version "), .fmt = "unexpected kernel reboot")) },
	/* A double fault as die() prints it ("double fault: 0000 [#1]");
	 * syzkaller's row has the older "PANIC: double fault". */
	{ "double fault: ", { NULL }, CRASH_GROUP_CRASH, C_OOPS, 0, 0, 1, FORMATS(
	F(.title = R("double fault: "), .fmt = "PANIC: double fault in %[1]v", .stack = STACK(.parts = { RIP }))) },
	/* The NMI watchdog: a CPU that takes no interrupt. */
	{ "Watchdog detected hard LOCKUP", { NULL }, CRASH_GROUP_CRASH, C_HARD_LOCKUP, 0, 0, 1, FORMATS(
	F(.title = R("Watchdog detected hard LOCKUP"), .fmt = "hard lockup in %[1]v",
	  .stack = STACK(.parts = { RIP, CALLTRACE, PARSE }, .ex = EX_STALL))) },
	/* die()'s line of an Oops that holds no header of syzkaller's
	 * ("Oops: 0002 [#1]" without the BUG line before it, powerpc's
	 * "Oops: Kernel access of bad area, sig: 11 [#1]").  die() numbers
	 * it ("[#1]"): a line without the number is a message that says
	 * "Oops", no report (x86 EFI's "Oops: efitime: can't read time!"). */
	{ "Oops: ", { R("Oops: (?:[^[]|\\[[^#])*$"), NULL }, CRASH_GROUP_CRASH, C_OOPS, 0, 0, 1, FORMATS(
	F(.title = R("Oops: "), .fmt = "Oops in %[1]v", .stack = RIP_STACK)) },
	/* The OOM killer ran, or the kernel panicked for lack of memory. */
	{ "invoked oom-killer", { NULL }, CRASH_GROUP_OOM, C_OOM, 0, 0, 1, oom_formats },
	{ "Out of memory: Kill", { NULL }, CRASH_GROUP_OOM, C_OOM, 0, 0, 1, oom_formats },
	{ "oom-kill:", { NULL }, CRASH_GROUP_OOM, C_OOM, 0, 0, 1, oom_formats },
	{ "System is deadlocked on memory", { NULL }, CRASH_GROUP_OOM, C_OOM, 0, 0, 1, oom_formats },
	{ "Out of memory and no killable processes", { NULL }, CRASH_GROUP_OOM, C_OOM, 0, 0, 1,
	  oom_formats },
	/* An allocation that failed (warn_alloc), which the kernel survives: a
	 * finding, not a crash; the caller below the allocator names it. */
	{ "page allocation failure", { NULL }, CRASH_GROUP_FINDING, C_ALLOC_FAILURE, 0, 0, 1, FORMATS(
	F(.title = R("page allocation failure: order:([0-9]+)"),
	  .fmt = "page allocation failure: order:%[1]v in %[2]v", .stack = TRACE_STACK),
	F(.title = R("page allocation failure"), .fmt = "page allocation failure")) },
};

const size_t crash_own_noopses = ARRAY_SIZE(crash_own_oopses);
_Static_assert(ARRAY_SIZE(crash_own_oopses) <= CRASH_OOPS_OWN_MAX,
	       "more of the harness's rows than crash_rules.h has room for");

/* The task a hung-task report names ("INFO: task kworker/u4:1:139 blocked
 * for more than 1 seconds.", "INFO: task dd:246 can't die ..."): its pid,
 * after the last colon of the comm, is the one whose stack the guest read
 * (record/hung.h). */
struct re crash_re_task = { .src = "task .{0,100}:([0-9]+) " };
