// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "guest/phase.h"
#include "lib/util.h"
#include "record/console.h"
#include "record/crash.h"
#include "record/crash_rules.h"
#include "test.h"

/* Scan text (fed whole, then finished). */
static void scan(struct console_scan *cs, const char *text)
{
	console_scan_init(cs);
	console_scan_feed(cs, text, strlen(text));
	console_scan_finish(cs);
}

/* Classify text (the console alone) and check class, type and title. */
static void expect_class(const char *file, int line, const char *text, const char *cls,
			 const char *type, const char *title)
{
	struct console_scan cs;
	struct crash c = CRASH_INIT;

	scan(&cs, text);
	if (!crash_classify(&cs, NULL, &c))
		test_fail(file, line, "no class found, expected %s", cls);
	else
		CHECKF_AT(file, line, !strcmp(c.cls->name, cls) && !strcmp(c.type, type) &&
			  !strcmp(c.title.buf, title), "got %s %s '%s', expected %s %s '%s'",
			  c.cls->name, c.type, c.title.buf, cls, type, title);
	crash_release(&c);
	console_scan_release(&cs);
}
#define EXPECT_CLASS(text, cls, type, title) \
	expect_class(__FILE__, __LINE__, text, cls, type, title)

static void expect_nothing(const char *file, int line, const char *text)
{
	struct console_scan cs;
	struct crash c = CRASH_INIT;

	scan(&cs, text);
	CHECKF_AT(file, line, !crash_classify(&cs, NULL, &c), "found %s '%s', expected nothing",
		  c.cls->name, c.title.buf);
	crash_release(&c);
	console_scan_release(&cs);
}
#define EXPECT_NOTHING(text) expect_nothing(__FILE__, __LINE__, text)

/* Nothing wrong, and the first finding: class, type and title. */
static void expect_finding(const char *file, int line, const char *text, const char *cls,
			   const char *type, const char *title)
{
	struct console_scan cs;
	struct crash c = CRASH_INIT;

	scan(&cs, text);
	if (crash_classify(&cs, NULL, &c))
		test_fail(file, line, "found %s '%s', expected nothing", c.cls->name, c.title.buf);
	else if (!crash_finding(&cs, &c))
		test_fail(file, line, "no finding, expected %s", cls);
	else if (strcmp(c.cls->name, cls) || strcmp(c.type, type) || strcmp(c.title.buf, title))
		test_fail(file, line, "got %s %s '%s', expected %s %s '%s'", c.cls->name, c.type,
			  c.title.buf, cls, type, title);
	crash_release(&c);
	console_scan_release(&cs);
}
#define EXPECT_FINDING(text, cls, type, title) \
	expect_finding(__FILE__, __LINE__, text, cls, type, title)

/* ---- the tables ---------------------------------------------------------- */

TEST(crash_tables_are_well_formed)
{
	size_t n;
	const struct crash_class *t = crash_classes(&n);

	CHECK(n > 0);
	CHECK(crash_oops_count() > 0);
	for (size_t i = 0; i < n; i++) {
		CHECK(t[i].name && *t[i].name);
		/* A host-side row says when it applies and titles itself. */
		CHECK(!t[i].host == !t[i].title);
		if (t[i].host) {
			CHECK(t[i].type != NULL);
			CHECK_EQ_INT(t[i].finding, FINDING_NEVER);
		}
		for (size_t j = 0; j < i; j++)
			CHECKF(strcmp(t[i].name, t[j].name), "class '%s' twice", t[i].name);
	}
	/* Every pattern of every table compiles. */
	CHECK_EQ_INT(crash_check_patterns(), 0);
	/* A row whose class is a finding whatever the run keeps its reports
	 * apart, and only such a row does; its formats name no other class. */
	for (size_t k = 0; k < crash_syzkaller_noopses + crash_own_noopses; k++) {
		const struct oops *o = k < crash_syzkaller_noopses ? &crash_syzkaller_oopses[k] :
				       &crash_own_oopses[k - crash_syzkaller_noopses];
		int finding = crash_class_at(o->cls)->finding == FINDING_ALWAYS;

		if (finding != (o->group == CRASH_GROUP_FINDING))
			test_fail(__FILE__, __LINE__, "row '%s': group %d, class %s", o->header,
				  o->group, crash_class_at(o->cls)->name);
		for (const struct crash_format *f = o->formats; f->fmt; f++)
			if (f->cls != C_NONE &&
			    (crash_class_at(f->cls)->finding == FINDING_ALWAYS) != finding)
				test_fail(__FILE__, __LINE__, "format '%s': class %s in row '%s'",
					  f->fmt, crash_class_at(f->cls)->name, o->header);
	}
}

/* syzkaller's TitleToType: the first row with a prefix of the title. */
TEST(crash_types_from_titles)
{
	static const char *const pairs[][2] = {
		{ "INFO: task hung in blkdev_put", "HANG" },
		{ "BUG: soft lockup in finit_module", "HANG" },
		{ "KASAN: use-after-free Read in blk_mq_free_request", "KASAN-USE-AFTER-FREE-READ" },
		{ "KASAN: slab-out-of-bounds Write in sd_probe", "KASAN-WRITE" },
		{ "KASAN: something new", "KASAN-UNKNOWN" },
		{ "possible deadlock in blk_mq_freeze_queue", "LOCKDEP" },
		{ "WARNING in crashmod_init", "WARNING" },
		{ "WARNING: refcount bug in sd_release", "REFCOUNT_WARNING" },
		{ "WARNING: ODEBUG bug in x", "WARNING" },
		{ "BUG: unable to handle kernel NULL pointer dereference in x", "NULL-POINTER-DEREFERENCE" },
		{ "BUG: unable to handle kernel paging request in x", "MEMORY_SAFETY_BUG" },
		{ "kernel BUG in blk_mq_start_request", "BUG" },
		{ "general protection fault in list_del", "DoS" },
		{ "kernel panic: sysrq triggered crash", "DoS" },
		{ "UBSAN: shift-out-of-bounds in x", "UBSAN" },
		{ "unexpected kernel reboot", "REBOOT" },
		{ "memory leak in x", "LEAK" },
		{ "BUG: Bad page state in x", "UNKNOWN" },
		{ "Out of memory", "UNKNOWN" },
		{ "", "UNKNOWN" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++)
		CHECK_STR(crash_title_type(pairs[i][0]), pairs[i][1]);
}

/* ---- lines --------------------------------------------------------------- */

TEST(crash_line_prefixes)
{
	static const struct {
		const char *line, *msg;
		char kind;
		unsigned long id;
	} lines[] = {
		{ "[   12.345678] BUG: x", "BUG: x", 'S', 0 },
		{ "[  147.467058][T10579] BUG: x", "BUG: x", 'T', 10579 },
		{ "[ 1052.080846][   T41]  func+0x1/0x2", " func+0x1/0x2", 'T', 41 },
		{ "[ 3239.542037][    C1] rcu: INFO: x", "rcu: INFO: x", 'C', 1 },
		{ "<4>[    1.0] WARNING: x", "WARNING: x", 'S', 0 },
		{ "** 12 printk messages dropped ** [    1.0] BUG: x", "BUG: x", 'S', 0 },
		{ "syzkaller login: [   60.1] BUG: x", "BUG: x", 'S', 0 },
		{ "a login: b login: [ 1.0][  T2] x", "x", 'T', 2 },
		{ "scaletest[2.74]: phase boot", "scaletest[2.74]: phase boot", 0, 0 },
		{ "[   12.3]BUG: no blank", "[   12.3]BUG: no blank", 0, 0 },
		{ "[ 12] not a timestamp", "[ 12] not a timestamp", 0, 0 },
		{ "[ 1.0][ X7] not a caller id", "[ 1.0][ X7] not a caller id", 0, 0 },
		{ "[ 1.0][  T] no number", "[ 1.0][  T] no number", 0, 0 },
		{ "", "", 0, 0 },
		{ "<", "<", 0, 0 },
		{ "[", "[", 0, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		struct crash_line l;

		crash_line_parse(&l, lines[i].line, strlen(lines[i].line));
		CHECKF(l.msglen == strlen(lines[i].msg) && !memcmp(l.msg, lines[i].msg, l.msglen) &&
		       l.kind == lines[i].kind && l.id == lines[i].id,
		       "'%s': '%.*s' %c %lu, expected '%s' %c %lu",
		       lines[i].line, (int)l.msglen, l.msg, l.kind ? l.kind : '0', l.id,
		       lines[i].msg, lines[i].kind ? lines[i].kind : '0', lines[i].id);
	}
}

/* Lines that hold a header and are no report: syzkaller's suppressions. */
TEST(crash_suppressed_lines)
{
	EXPECT_NOTHING("[  404.700173] ODEBUG: Out of memory. ODEBUG disabled\n");
	EXPECT_NOTHING("[   12.0] DEBUG: something\n");
	/* A user-space fault, as a crashing fio would make one. */
	EXPECT_NOTHING("[   12.1] traps: fio[4242] general protection fault ip:7f3a sp:7ffd error:0 in libc.so.6[7f3a+155000]\n");
	EXPECT_NOTHING("[    2.0] EXT4-fs (sda): WARNING: mounting fs with errors, running e2fsck is recommended\n");
	EXPECT_NOTHING("[    2.0] XFS (sdb1): WARNING: Reset corrupted AGFL\n");
	EXPECT_NOTHING("[    2.0] INFO: lockdep is turned off.\n");
	EXPECT_NOTHING("[    2.0] foo: WARNING: x uses wireless extensions\n");
	EXPECT_NOTHING("[    2.0] foo: Warning: x uses Wireless Extensions\n");
}

/* ---- report shapes ------------------------------------------------------- */

/*
 * The shapes the captured consoles (crash_fixtures below) do not cover:
 * classes Debian's kernels cannot show (no KASAN, KMSAN or lockdep in
 * their config), and other kernels' forms; each titled as syzkaller
 * titles it (pkg/report/linux.go).
 */
TEST(crash_class_faults_name_the_rip)
{
	EXPECT_CLASS("[   12.1] BUG: unable to handle page fault for address: ffffc90000a3f000\n"
		     "[   12.1] #PF: supervisor write access in kernel mode\n"
		     "[   12.1] Oops: 0002 [#1] PREEMPT SMP NOPTI\n"
		     "[   12.1] CPU: 1 PID: 4242 Comm: insmod Not tainted 6.1.0 #1\n"
		     "[   12.1] RIP: 0010:sdebug_add_store.cold+0x1c/0x80 [scsi_debug]\n"
		     "[   12.1] Call Trace:\n"
		     "[   12.1]  <TASK>\n"
		     "[   12.1]  scsi_debug_init+0x2f0/0x1000 [scsi_debug]\n",
		     "page-fault", "MEMORY_SAFETY_BUG",
		     "BUG: unable to handle kernel paging request in sdebug_add_store");
	/* i386: EIP, no code segment; an older kernel's paging request. */
	EXPECT_CLASS("BUG: unable to handle kernel paging request at f8a3c000\n"
		     "*pde = 00000000\n"
		     "Oops: 0002 [#1] SMP\n"
		     "EIP: sdebug_add_store+0x1c/0x80 [scsi_debug]\n",
		     "page-fault", "MEMORY_SAFETY_BUG",
		     "BUG: unable to handle kernel paging request in sdebug_add_store");
	/* A faulting function that is plumbing: the first caller that is not. */
	EXPECT_CLASS("[  101.2] general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#1] SMP\n"
		     "[  101.2] CPU: 0 PID: 77 Comm: kworker/0:2 Not tainted 6.1.0 #1\n"
		     "[  101.2] RIP: 0010:__list_del_entry_valid+0x9/0x40\n"
		     "[  101.2] Call Trace:\n"
		     "[  101.2]  <TASK>\n"
		     "[  101.2]  ? die_addr+0x36/0x90\n"
		     "[  101.2]  list_del+0x9/0x40\n"
		     "[  101.2]  blk_mq_free_rqs+0x44/0x1d0\n",
		     "gpf", "DoS", "general protection fault in blk_mq_free_rqs");
	/* No RIP line at all: syzkaller cannot tell, and says so. */
	EXPECT_CLASS("BUG: kernel NULL pointer dereference, address: 0000000000000008\n",
		     "null-deref", "NULL-POINTER-DEREFERENCE",
		     "BUG: unable to handle kernel NULL pointer dereference in corrupted");
	EXPECT_CLASS("[    7.0] kernel BUG at block/blk-mq.c:1234!\n"
		     "[    7.0] invalid opcode: 0000 [#1] PREEMPT SMP\n"
		     "[    7.0] RIP: 0010:blk_mq_start_request+0x1c0/0x1d0\n"
		     "[    7.0] Call Trace:\n"
		     "[    7.0]  blk_mq_dispatch_rq_list+0x1c0/0x1d0\n",
		     "kernel-bug", "BUG", "kernel BUG in blk_mq_start_request");
	EXPECT_CLASS("[    7.0] kernel BUG at lib/list_debug.c:56!\n"
		     "[    7.0] Call Trace:\n"
		     "[    7.0]  sd_remove+0x10/0x90\n",
		     "kernel-bug", "MEMORY_SAFETY_BUG", "BUG: corrupted list in sd_remove");
	EXPECT_CLASS("Oops: 0000 [#1] SMP\nRIP: 0010:0xdeadbeef\n", "oops", "DoS", "Oops in corrupted");
}

TEST(crash_class_bugs)
{
	EXPECT_CLASS("[    9.0] BUG: scheduling while atomic: insmod/4242/0x00000002\n"
		     "[    9.0] Call Trace:\n"
		     "[    9.0]  <TASK>\n"
		     "[    9.0]  dump_stack_lvl+0x44/0x5c\n"
		     "[    9.0]  __schedule_bug.cold+0x4b/0x58\n"
		     "[    9.0]  __schedule+0x6b0/0xa00\n"
		     "[    9.0]  sdebug_q_cmd_complete+0x10/0x90 [scsi_debug]\n",
		     "bug", "ATOMIC_SLEEP", "BUG: scheduling while atomic in sdebug_q_cmd_complete");
	EXPECT_CLASS("[    9.0] BUG: sleeping function called from invalid context at mm/slab.h:123\n"
		     "[    9.0] in_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid: 4242, name: insmod\n"
		     "[    9.0] Call Trace:\n"
		     "[    9.0]  dump_stack_lvl+0x44/0x5c\n"
		     "[    9.0]  __might_resched+0x10/0x90\n"
		     "[    9.0]  kmem_cache_alloc+0x10/0x90\n"
		     "[    9.0]  scsi_alloc_sdev+0x10/0x90\n",
		     "bug", "ATOMIC_SLEEP", "BUG: sleeping function called from invalid context in scsi_alloc_sdev");
	EXPECT_CLASS("BUG: Bad page state in process dd  pfn:1a2b3\n", "bug", "UNKNOWN",
		     "BUG: Bad page state in corrupted");
	/* No format: the line, what varies made NUM and ADDR. */
	EXPECT_CLASS("[    1.0] BUG: something new at ffff888003abc000 for pid 4242\n", "bug", "UNKNOWN",
		     "BUG: something new at ADDR for pid NUM");
}

TEST(crash_class_sanitizers)
{
	EXPECT_CLASS("[   20.0] ==================================================================\n"
		     "[   20.0] BUG: KASAN: use-after-free in blk_mq_free_request+0x2f/0x330\n"
		     "[   20.0] Read of size 8 at addr ffff88800abc1858 by task kworker/0:1/30\n"
		     "[   20.0] Call Trace:\n"
		     "[   20.0]  dump_stack_lvl+0x44/0x5c\n"
		     "[   20.0]  print_report+0x17/0x20\n"
		     "[   20.0]  kasan_report+0xbe/0xf0\n"
		     "[   20.0]  blk_mq_free_request+0x2f/0x330\n",
		     "kasan", "KASAN-USE-AFTER-FREE-READ",
		     "KASAN: use-after-free Read in blk_mq_free_request");
	/* The function that reads is string plumbing: its caller is named. */
	EXPECT_CLASS("[   20.0] BUG: KASAN: slab-out-of-bounds in memcmp+0x1a/0x90\n"
		     "[   20.0] Write of size 4 at addr ffff88800abc1858 by task insmod/30\n"
		     "[   20.0] Call Trace:\n"
		     "[   20.0]  memcmp+0x1a/0x90\n"
		     "[   20.0]  sd_read_capacity+0x10/0x90\n",
		     "kasan", "KASAN-WRITE", "KASAN: slab-out-of-bounds Write in sd_read_capacity");
	EXPECT_CLASS("[   20.0] BUG: KFENCE: out-of-bounds read in sd_probe+0x12/0x400\n"
		     "[   20.0] \n"
		     "[   20.0] Out-of-bounds read at 0xffff8c3f2e291fff (1B left of kfence-#72):\n"
		     "[   20.0]  sd_probe+0x12/0x400\n",
		     "kfence", "KFENCE-READ", "KFENCE: out-of-bounds read in sd_probe");
	EXPECT_CLASS("[    5.0] UBSAN: shift-out-of-bounds in drivers/scsi/scsi_debug.c:5123:20\n"
		     "[    5.0] shift exponent 64 is too large for 64-bit type 'long unsigned int'\n"
		     "[    5.0] Call Trace:\n"
		     "[    5.0]  <TASK>\n"
		     "[    5.0]  dump_stack_lvl+0x44/0x5c\n"
		     "[    5.0]  __ubsan_handle_shift_out_of_bounds.cold+0x61/0xef\n"
		     "[    5.0]  sdebug_build_parts+0x1d1/0x220 [scsi_debug]\n",
		     "ubsan", "UBSAN", "UBSAN: shift-out-of-bounds in sdebug_build_parts");
	/* KMSAN and KCSAN titles are not cut at the first colon. */
	EXPECT_CLASS("[   20.0] BUG: KMSAN: uninit-value in sd_probe+0x12/0x400\n"
		     "[   20.0]  sd_probe+0x12/0x400\n"
		     "[   20.0]  really_probe+0x12/0x400\n"
		     "[   20.0] Uninit was created at:\n"
		     "[   20.0]  kmem_cache_alloc+0x12/0x400\n"
		     "[   20.0]  scsi_alloc_sdev+0x12/0x400\n",
		     "kmsan", "KMSAN-UNINIT-VALUE", "KMSAN: uninit-value in sd_probe");
	EXPECT_CLASS("[   20.0] BUG: KCSAN: data-race in blk_mq_run_hw_queue / blk_mq_sched_insert_request\n",
		     "kcsan", "KCSAN-DATARACE",
		     "KCSAN: data-race in blk_mq_run_hw_queue / blk_mq_sched_insert_request");
}

TEST(crash_class_lockdep)
{
	EXPECT_CLASS("[   30.0] ======================================================\n"
		     "[   30.0] WARNING: possible circular locking dependency detected\n"
		     "[   30.0] 6.1.0 #1 Not tainted\n"
		     "[   30.0] ------------------------------------------------------\n"
		     "[   30.0] insmod/4242 is trying to acquire lock:\n"
		     "[   30.0] ffff888003abc000 (&q->sysfs_lock){+.+.}-{3:3}, at: blk_mq_freeze_queue+0x12/0x40\n"
		     "[   30.0] \n"
		     "[   30.0] but task is already holding lock:\n"
		     "[   30.0] ffff888003abd000 (&set->tag_list_lock){+.+.}-{3:3}, at: blk_mq_update_nr_hw_queues+0x12/0x40\n",
		     "lockdep", "LOCKDEP", "possible deadlock in blk_mq_freeze_queue");
	EXPECT_CLASS("[   30.0] ================================\n"
		     "[   30.0] WARNING: inconsistent lock state\n"
		     "[   30.0] --------------------------------\n"
		     "[   30.0] inconsistent {SOFTIRQ-ON-W} -> {IN-SOFTIRQ-W} usage.\n"
		     "[   30.0] swapper/0/0 [HC0[0]:SC1[1]:HE1:SE0] takes:\n"
		     "[   30.0] ffff888003abc000 (&sdev->list_lock){+.?.}-{2:2}, at: scsi_end_request+0x12/0x40\n"
		     "[   30.0] {SOFTIRQ-ON-W} state was registered at:\n"
		     "[   30.0]   lock_acquire+0x12/0x40\n"
		     "[   30.0]   sd_probe+0x12/0x40\n"
		     "[   30.0] Call Trace:\n"
		     "[   30.0]  dump_stack_lvl+0x12/0x40\n"
		     "[   30.0]  mark_lock+0x12/0x40\n"
		     "[   30.0]  scsi_end_request+0x12/0x40\n",
		     "lockdep", "LOCKDEP", "inconsistent lock state in scsi_end_request");
}

TEST(crash_class_lockups_and_stalls)
{
	/* A soft lockup is named by the function before the dispatcher it
	 * loops under (here the syscall), as syzkaller names stalls. */
	EXPECT_CLASS("[   44.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [insmod:312]\n"
		     "[   44.0] Modules linked in: scsi_debug\n"
		     "[   44.0] RIP: 0010:sdebug_add_host_helper+0x88/0x300 [scsi_debug]\n"
		     "[   44.0] Call Trace:\n"
		     "[   44.0]  scsi_debug_init+0x88/0x300 [scsi_debug]\n"
		     "[   44.0]  do_one_initcall+0x59/0x220\n"
		     "[   44.0]  __x64_sys_finit_module+0xac/0x120\n"
		     "[   44.0]  do_syscall_64+0x5d/0xb0\n",
		     "soft-lockup", "HANG", "BUG: soft lockup in sys_finit_module");
	EXPECT_CLASS("[   61.0] NMI watchdog: Watchdog detected hard LOCKUP on cpu 1\n"
		     "[   61.0] RIP: 0010:native_queued_spin_lock_slowpath+0x5d/0x1d0\n"
		     "[   61.0] Call Trace:\n"
		     "[   61.0]  _raw_spin_lock+0x5d/0x1d0\n"
		     "[   61.0]  scsi_remove_host+0x40/0x120\n"
		     "[   61.0]  process_one_work+0x40/0x120\n",
		     "hard-lockup", "HANG", "hard lockup in scsi_remove_host");
	EXPECT_CLASS("[   80.0] rcu: INFO: rcu_preempt self-detected stall on CPU\n"
		     "[   80.0] rcu: \t0-....: (21002 ticks this GP)\n"
		     "[   80.0]  <IRQ>\n"
		     "[   80.0]  rcu_sched_clock_irq+0x40/0x120\n"
		     "[   80.0]  sysvec_apic_timer_interrupt+0x40/0x120\n"
		     "[   80.0]  </IRQ>\n"
		     "[   80.0] RIP: 0010:scsi_remove_host+0x40/0x120\n"
		     "[   80.0]  sdebug_do_remove_host+0x40/0x120\n"
		     "[   80.0]  process_one_work+0x40/0x120\n",
		     "rcu-stall", "HANG", "INFO: rcu detected stall in sdebug_do_remove_host");
	/* No trace at all: syzkaller's "corrupted". */
	EXPECT_CLASS("rcu: INFO: rcu_sched detected stalls on CPUs/tasks:\n",
		     "rcu-stall", "HANG", "INFO: rcu detected stall in corrupted");
}

TEST(crash_class_warnings)
{
	EXPECT_CLASS("[   12.0] ------------[ cut here ]------------\n"
		     "[   12.0] WARNING: CPU: 1 PID: 4242 at block/blk-mq-tag.c:590 blk_mq_tag_update_depth+0x1a/0x1c0\n"
		     "[   12.0] Modules linked in: scsi_debug\n"
		     "[   12.0] RIP: 0010:blk_mq_tag_update_depth+0x1a/0x1c0\n",
		     "warning", "WARNING", "WARNING in blk_mq_tag_update_depth");
	/* Another CPU, pid, line and module suffix: the same title. */
	EXPECT_CLASS("[ 1012.5] WARNING: CPU: 0 PID: 17 at block/blk-mq-tag.c:591 blk_mq_tag_update_depth.part.0+0x2b/0x1d0 [mod]\n"
		     "[ 1012.5] RIP: 0010:blk_mq_tag_update_depth.part.0+0x2b/0x1d0 [mod]\n",
		     "warning", "WARNING", "WARNING in blk_mq_tag_update_depth");
	/* The format of recent kernels: FILE:LINE at FUNC, CPU#N: COMM/PID. */
	EXPECT_CLASS("[ 1012.5][ T4242] WARNING: block/blk-mq-tag.c:591 at blk_mq_tag_update_depth+0x2b/0x1d0, CPU#1: insmod/4242\n"
		     "[ 1012.5][ T4242] RIP: 0010:blk_mq_tag_update_depth+0x2b/0x1d0\n",
		     "warning", "WARNING", "WARNING in blk_mq_tag_update_depth");
	/* The WARNING is in a refcount helper: its own format, its caller. */
	EXPECT_CLASS("[   12.0] WARNING: CPU: 1 PID: 1 at lib/refcount.c:28 refcount_warn_saturate+0x1a/0x1c0\n"
		     "[   12.0] RIP: 0010:refcount_warn_saturate+0x1a/0x1c0\n"
		     "[   12.0] Call Trace:\n"
		     "[   12.0]  kref_put+0x1a/0x1c0\n"
		     "[   12.0]  scsi_device_put+0x1a/0x1c0\n",
		     "warning", "REFCOUNT_WARNING", "WARNING: refcount bug in scsi_device_put");
	EXPECT_CLASS("WARNING: CPU: 0 PID: 1 at 0xffffffffc0123456\n"
		     "RIP: 0010:0xffffffffc0123456\n",
		     "warning", "WARNING", "WARNING: CPU: NUM PID: NUM at ADDR");
}

TEST(crash_class_memory)
{
	EXPECT_FINDING("[   33.0] insmod: page allocation failure: order:5, mode:0x40dc0(GFP_KERNEL|__GFP_COMP|__GFP_ZERO), nodemask=(null)\n"
		     "[   33.0] CPU: 0 PID: 312 Comm: insmod Not tainted 6.1.0 #1\n"
		     "[   33.0] Call Trace:\n"
		     "[   33.0]  dump_stack_lvl+0x44/0x5c\n"
		     "[   33.0]  warn_alloc+0x137/0x160\n"
		     "[   33.0]  __alloc_pages_slowpath.constprop.0+0xc5e/0xe70\n"
		     "[   33.0]  __alloc_pages+0x305/0x330\n"
		     "[   33.0]  blk_mq_alloc_rqs+0x11d/0x2c0\n",
		     "alloc-failure", "OOM", "page allocation failure: order:5 in blk_mq_alloc_rqs");
	EXPECT_CLASS("[   34.0] Out of memory: Killed process 99 (dd) total-vm:3284kB\n",
		     "oom", "OOM", "Out of memory");
	EXPECT_CLASS("[   34.0] Kernel panic - not syncing: Out of memory and no killable processes...\n",
		     "oom", "OOM", "Out of memory: no killable processes");
	EXPECT_CLASS("[   20.0] BUG: memory leak\n"
		     "[   20.0] unreferenced object 0xffff888003abc000 (size 64):\n"
		     "[   20.0]   backtrace:\n"
		     "[   20.0]     kmem_cache_alloc+0x10/0x90\n"
		     "[   20.0]     sdebug_add_store+0x10/0x90\n",
		     "memory-leak", "LEAK", "memory leak in sdebug_add_store");
}

TEST(crash_title_strips_what_varies)
{
	EXPECT_CLASS("[    1.0] Kernel panic - not syncing: Fatal exception in interrupt\n",
		     "panic", "DoS", "kernel panic: Fatal exception");
	EXPECT_CLASS("Kernel panic - not syncing: stack-protector: Kernel stack is corrupted in: sd_probe+0x5e/0x70\n",
		     "panic", "DoS", "kernel panic: stack is corrupted in sd_probe");
	EXPECT_CLASS("Kernel panic - not syncing: bad page at ffff888003abc000 on CPU: 3 (pid 4242)\n",
		     "panic", "DoS", "kernel panic: bad page at ADDR on CPU: NUM (pid NUM)");
	EXPECT_CLASS("Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000009\n",
		     "panic", "DoS", "kernel panic: Attempted to kill init!");
	EXPECT_CLASS("Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(8,1)\n",
		     "panic", "DoS", "kernel panic: VFS: Unable to mount root fs on unknown-block(NUM,NUM)");
	EXPECT_CLASS("Kernel panic - not syncing: \n", "panic", "DoS", "kernel panic:");
	/* A hung task named by a line of a source file, made LINE. */
	EXPECT_CLASS("Kernel panic - not syncing: BUG at fs/inode.c:612 in 13s\n", "panic", "DoS",
		     "kernel panic: BUG at fs/inode.c:LINE in 13s");
}

/* ---- which report, and which of its lines -------------------------------- */

/* The first report wins, an OOM's among them; on one line, the OOM. */
TEST(crash_precedence_first_report)
{
	EXPECT_CLASS("WARNING: CPU: 0 PID: 1 at block/genhd.c:1 add_disk+0x1/0x2\n"
		     "RIP: 0010:add_disk+0x1/0x2\n"
		     "Kernel panic - not syncing: panic_on_warn set ...\n",
		     "warning", "WARNING", "WARNING in add_disk");
	EXPECT_CLASS("Kernel panic - not syncing: Fatal exception\n"
		     "Out of memory: Killed process 1 (init)\n",
		     "panic", "DoS", "kernel panic: Fatal exception");
	EXPECT_CLASS("Out of memory: Killed process 1 (init)\n"
		     "Kernel panic - not syncing: Attempted to kill init!\n",
		     "oom", "OOM", "Out of memory");
	/* An OOM the kernel survived, then a WARNING: the WARNING (issue 36:
	 * an OOM at 8.5 s hid a WARNING at 16.2 s). */
	EXPECT_CLASS("[    8.5] dd invoked oom-killer: gfp_mask=0x0, order=0\n"
		     "[    8.6] Out of memory: Killed process 99 (dd)\n"
		     "[   16.2] WARNING: CPU: 0 PID: 1 at block/genhd.c:1 add_disk+0x1/0x2\n"
		     "[   16.2] RIP: 0010:add_disk+0x1/0x2\n",
		     "warning", "WARNING", "WARNING in add_disk");
	/* ... and the reboot it brought: the OOM. */
	EXPECT_CLASS("[    0.0] Linux version 6.1.0\n"
		     "[    8.6] Out of memory: Killed process 1 (init)\n"
		     "[    0.0] Linux version 6.1.0\n",
		     "oom", "OOM", "Out of memory");
	/* A KASAN report, then an OOM: the KASAN report. */
	EXPECT_CLASS("BUG: KASAN: use-after-free in blk_mq_free_request+0x2f/0x330\n"
		     "Read of size 8 at addr ffff88800abc1858 by task kworker/0:1/30\n"
		     "Call Trace:\n blk_mq_free_request+0x2f/0x330\n"
		     "dd invoked oom-killer: gfp_mask=0x0, order=0\n",
		     "kasan", "KASAN-USE-AFTER-FREE-READ", "KASAN: use-after-free Read in blk_mq_free_request");
}

/* A panic after a long report is the report's end (panic_on_warn): its
 * own stack is not the bug's. */
TEST(crash_panic_after_report_ends_it)
{
	struct strbuf sb = STRBUF_INIT;

	sb_adds(&sb, "[ 1.0] BUG: scheduling while atomic: insmod/4242/0x00000002\n");
	for (int i = 0; i < 25; i++)
		sb_addf(&sb, "[ 1.0] line %d\n", i);
	sb_adds(&sb, "[ 1.0] Kernel panic - not syncing: scheduling while atomic\n"
		     "[ 1.0] Call Trace:\n[ 1.0]  panic_caller+0x1/0x2\n");
	EXPECT_CLASS(sb.buf, "bug", "ATOMIC_SLEEP", "BUG: scheduling while atomic in corrupted");
	sb_release(&sb);
}

TEST(crash_reboot)
{
	static const char banner[] = "[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org)\n";
	struct console_scan cs;
	struct crash c = CRASH_INIT;
	struct strbuf sb = STRBUF_INIT;

	EXPECT_NOTHING(banner);
	sb_adds(&sb, banner);
	sb_adds(&sb, "[    2.0] reboot: Restarting system\n");
	sb_adds(&sb, banner);
	EXPECT_CLASS(sb.buf, "reboot", "REBOOT", "unexpected kernel reboot");
	scan(&cs, sb.buf);
	CHECK_EQ_INT(crash_classify(&cs, NULL, &c), 1);
	CHECK_EQ_INT(c.line, 3);
	crash_release(&c);
	console_scan_release(&cs);
	/* The boot loader's line: a reboot once the kernel has printed, not
	 * on the first boot. */
	EXPECT_NOTHING("Decompressing Linux... Parsing ELF... done.\nBooting the kernel.\n");
	EXPECT_NOTHING("Booting the kernel.\n");
	EXPECT_CLASS("[  500.720639] EFER = 0x0000000000000d01\nSeaBIOS (version 1.8.2)\nBooting the kernel.\n",
		     "reboot", "REBOOT", "unexpected kernel reboot");
	sb_release(&sb);
}

/* A scale test's console: the SCSI stack's chatter between the report's
 * lines, by the thousand, does not push the trace out of reach; caller
 * ids keep other tasks' frames out of it. */
TEST(crash_interleaved_lines_and_caller_ids)
{
	static const char *const trace[] = {
		"INFO: task dd:246 blocked for more than 5 seconds.",
		"      Not tainted 6.1.0-57-686-pae #1 Debian 6.1.192-3",
		"task:dd              state:D stack:0     pid:246   ppid:1      flags:0x00004002",
		"Call Trace:",
		" __schedule+0x399/0xaa0",
		" io_schedule+0x41/0x70",
		" folio_wait_bit_common+0x10b/0x330",
		" ? folio_unlock+0x20/0x20",
		" __filemap_fdatawait_range+0x9b/0xf0",
		" filemap_write_and_wait_range+0xb3/0xd0",
		" blkdev_put+0xde/0x1d0",
		" blkdev_close+0x18/0x20",
	};
	struct strbuf plain = STRBUF_INIT, mixed = STRBUF_INIT, ids = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(trace); i++) {
		sb_addf(&plain, "[ 25.0] %s\n", trace[i]);
		sb_addf(&mixed, "[ 25.0] %s\n", trace[i]);
		sb_addf(&ids, "[ 25.0][   T30] %s\n", trace[i]);
		for (int k = 0; k < 300; k++) {
			sb_addf(&mixed, "[ 25.0] sd 0:0:%d:0: [sd%c%c] Attached SCSI disk\n", k,
				'a' + k / 26 % 26, 'a' + k % 26);
			sb_addf(&mixed, "[ 25.0] scsi 0:0:%d:1: Direct-Access     Linux    scsi_debug       0191 PQ: 0 ANSI: 7\n", k);
		}
		/* Another task's frame, between the reporter's lines. */
		sb_addf(&ids, "[ 25.0][    T7] sd 0:0:%zu:0: [sdb] Attached SCSI disk\n", i);
		sb_addf(&ids, "[ 25.0][    C1]  other_tasks_frame+0x1/0x2\n");
	}
	EXPECT_CLASS(plain.buf, "hung-task", "HANG", "INFO: task hung in blkdev_put");
	EXPECT_CLASS(mixed.buf, "hung-task", "HANG", "INFO: task hung in blkdev_put");
	EXPECT_CLASS(ids.buf, "hung-task", "HANG", "INFO: task hung in blkdev_put");
	sb_release(&plain);
	sb_release(&mixed);
	sb_release(&ids);
}

/* ~100 lines around the first report: CONSOLE_BEFORE before it, and from
 * it on up to CONSOLE_AFTER, numbered from 1. */
TEST(crash_context_around_the_report)
{
	struct strbuf sb = STRBUF_INIT;
	struct console_scan cs;
	struct crash c = CRASH_INIT;
	size_t nl = 0;

	for (int i = 1; i <= 50; i++)
		sb_addf(&sb, "[ %d.0] line %d\n", i, i);
	sb_adds(&sb, "[ 51.0] Kernel panic - not syncing: here\n");
	for (int i = 52; i <= 300; i++)
		sb_addf(&sb, "[ %d.0] line %d\n", i, i);
	scan(&cs, sb.buf);
	REQUIRE(crash_classify(&cs, NULL, &c));
	CHECK_EQ_INT(c.line, 51);
	for (const char *p = c.context.buf; *p; p++)
		nl += *p == '\n';
	CHECK_EQ_INT(nl, CONSOLE_BEFORE + CONSOLE_AFTER);
	CHECK(!strncmp(c.context.buf, "[ 31.0] line 31\n", 16));
	CHECK_CONTAINS(c.context.buf, "[ 130.0] line 130\n");
	CHECK(!strstr(c.context.buf, "line 131\n"));
	CHECK(!strstr(c.context.buf, "line 30\n"));
	crash_release(&c);
	console_scan_release(&cs);

	/* A report on the first line has no lines before it. */
	scan(&cs, "Kernel panic - not syncing: first\nnext\n");
	REQUIRE(crash_classify(&cs, NULL, &c));
	CHECK_STR(c.context.buf, "Kernel panic - not syncing: first\nnext\n");
	CHECK_EQ_INT(c.line, 1);
	crash_release(&c);
	console_scan_release(&cs);
	sb_release(&sb);
}

/* Hostile console bytes never reach a title or the context unprintable,
 * and a title is at most CRASH_TITLE_MAX bytes. */
TEST(crash_title_and_context_printable)
{
	struct console_scan cs;
	struct crash c = CRASH_INIT;
	struct strbuf sb = STRBUF_INIT;

	scan(&cs, "\x1b]0;x\x07 [ 1.0] WARNING: CPU: 0 PID: 1 at a.c:1 f\x1b+0x1/0x2\n"
		  "[ 1.1] BUG: soft lockup\xff\xfe in \x01\n");
	REQUIRE(crash_classify(&cs, NULL, &c));
	for (const char *p = c.title.buf; *p; p++)
		CHECK((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f);
	for (const char *p = c.context.buf; *p; p++)
		CHECK(*p == '\n' || ((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f));
	crash_release(&c);
	console_scan_release(&cs);

	sb_adds(&sb, "[ 1.0] Kernel panic - not syncing: ");
	for (int i = 0; i < 5000; i++)
		sb_addch(&sb, (char)('g' + i % 20));
	sb_addch(&sb, '\n');
	scan(&cs, sb.buf);
	REQUIRE(crash_classify(&cs, NULL, &c));
	CHECK(c.title.len <= CRASH_TITLE_MAX);
	CHECK(!strncmp(c.title.buf, "kernel panic: ghijkl", 20));
	crash_release(&c);
	console_scan_release(&cs);
	sb_release(&sb);
}

/* ---- host-side classes -------------------------------------------------- */

static int classify_host(const char *text, const struct crash_host *h, struct crash *c)
{
	struct console_scan cs;
	int found;

	scan(&cs, text);
	found = crash_classify(&cs, h, c);
	console_scan_release(&cs);
	return found;
}

TEST(crash_host_classes)
{
	struct crash_host h = CRASH_HOST_INIT;
	struct crash c = CRASH_INIT;
	char *reason;

	/* Nothing booted, nothing wrong. */
	CHECK_EQ_INT(classify_host("", &h, &c), 0);

	/* The deadline passed: a hang, blamed on the kernel. */
	h.booted = 1;
	h.timed_out = 1;
	h.last_phase = PHASE_BEFORE_INSMOD;
	REQUIRE(classify_host("scaletest[7.0]: phase before-insmod\n", &h, &c));
	CHECK_STR(c.cls->name, "hang");
	CHECK_STR(c.type, "HANG");
	CHECK_EQ_INT(c.cls->blame, BLAME_KERNEL);
	CHECK_EQ_INT(c.cls->status, CRASH_STATUS_TIMEOUT);
	CHECK_STR(c.title.buf, "hang: phase 'after-insmod' not reached in time");
	reason = crash_reason(&c);
	CHECK_STR(reason, "hang: phase 'after-insmod' not reached in time "
			  "(last reached: 'before-insmod')");
	free(reason);
	CHECK_STR(c.context.buf, "scaletest[7.0]: phase before-insmod\n");
	CHECK_EQ_INT(c.line, 0);

	/* The console went on past the records: the channel, not the kernel. */
	REQUIRE(classify_host("scaletest[7.0]: phase before-insmod\n"
			      "scaletest[9.0]: phase after-insmod\n", &h, &c));
	CHECK_STR(c.cls->name, "channel-lost");
	CHECK_STR(c.type, "LOST_CONNECTION");
	CHECK_EQ_INT(c.cls->blame, BLAME_HARNESS);
	CHECK_EQ_INT(c.cls->status, CRASH_STATUS_ERROR);
	CHECK_STR(c.title.buf, "record channel lost: phase 'after-insmod' not received");
	CHECK_STR(c.detail.buf, "the console shows phase 'after-insmod'");

	/* QEMU went away by itself. */
	h.timed_out = 0;
	h.vm_exited = 1;
	h.vm_exit = "killed by signal 9";
	REQUIRE(classify_host("scaletest[7.0]: phase before-insmod\n", &h, &c));
	CHECK_STR(c.cls->name, "qemu-exited");
	CHECK_EQ_INT(c.cls->blame, BLAME_HARNESS);
	CHECK_STR(c.title.buf, "QEMU exited before the guest finished");
	CHECK_CONTAINS(c.detail.buf, "killed by signal 9");

	/* A kernel report explains the exit: it wins. */
	REQUIRE(classify_host("Kernel panic - not syncing: x\n", &h, &c));
	CHECK_STR(c.cls->name, "panic");

	/* The guest's end record came: none of the host-side classes. */
	h.got_end = 1;
	CHECK_EQ_INT(classify_host("scaletest[9.0]: end: pass\n", &h, &c), 0);
	crash_release(&c);
}

/* What a guest says of itself is parsed strictly: names only. */
TEST(console_guest_phase_lines)
{
	struct console_scan cs;

	scan(&cs, "scaletest[1.0]: phase boot\nscaletest[2.0]: phase after-insmod\n"
		  "scaletest[3.0]: phase $(reboot)\nxscaletest[4.0]: phase after-io\n");
	CHECK_STR(cs.guest_phase, "after-insmod");
	CHECK_EQ_INT(cs.guest_end, 0);
	console_scan_release(&cs);
	scan(&cs, "scaletest[5.0]: end: fail: x\n");
	CHECK_EQ_INT(cs.guest_end, 1);
	console_scan_release(&cs);
}

/* ---- consoles captured from real guests ---------------------------------- */

/* Every console log captured from a real guest crashed on purpose
 * (tests/fixtures/console/README says how each was provoked; the replay
 * fixtures' own consoles too), and the variants variants.sh makes of them,
 * with class and exact title; NULL: the console alone shows nothing wrong. */
static const struct {
	const char *file, *cls, *title;
} crash_fixtures[] = {
	{ "replay/crash/console.log", "panic", "kernel panic: sysrq triggered crash" },
	{ "console/panic-i386.log", "panic", "kernel panic: sysrq triggered crash" },
	{ "replay/oom/console.log", "oom", "Out of memory: System is deadlocked on memory" },
	{ "console/oom-lowmem-i386.log", "oom", "Out of memory: System is deadlocked on memory" },
	{ "replay/hung-task/console.log", "hung-task", "INFO: task hung in blkdev_put" },
	{ "console/hung-task-i386.log", "hung-task", "INFO: task hung in blkdev_put" },
	{ "console/hung-task-i386-interleaved.log", "hung-task", "INFO: task hung in blkdev_put" },
	{ "console/hung-task-i386-callerid.log", "hung-task", "INFO: task hung in blkdev_put" },
	{ "console/hung-task-i386-iowait.log", "hung-task", "INFO: task hung in blkdev_put" },
	{ "console/reboot-x86_64.log", "reboot", "unexpected kernel reboot" },
	{ "console/warning-x86_64.log", "warning", "WARNING in crashmod_init" },
	{ "console/warning-x86_64-new-format.log", "warning", "WARNING in crashmod_init" },
	{ "console/soft-lockup-x86_64.log", "soft-lockup", "BUG: soft lockup in finit_module" },
	{ "console/soft-lockup-2-x86_64.log", "soft-lockup", "BUG: soft lockup in finit_module" },
	{ "console/rcu-stall-x86_64.log", "rcu-stall", "INFO: rcu detected stall in finit_module" },
	{ "console/null-deref-x86_64.log", "null-deref", "BUG: unable to handle kernel NULL pointer dereference in crashmod_poke" },
	{ "console/gpf-x86_64.log", "gpf", "general protection fault in crashmod_poke" },
	{ "console/gpf-x86_64-interleaved-callerid.log", "gpf", "general protection fault in crashmod_poke" },
	{ "console/page-fault-x86_64.log", "page-fault", "BUG: unable to handle kernel paging request in crashmod_poke" },
	{ "console/kernel-bug-x86_64.log", "kernel-bug", "kernel BUG in crashmod_init" },
	{ "console/kernel-bug-i386.log", "kernel-bug", "kernel BUG in crashmod_init" },
	{ "console/null-deref-i386.log", "null-deref", "BUG: unable to handle kernel NULL pointer dereference in crashmod_poke" },
	{ "console/warning-i386.log", "warning", "WARNING in crashmod_init" },
	/* A page allocation failure the kernel survives: a finding, no crash
	 * (crash_findings below); a message that says "Oops". */
	{ "console/alloc-failure-x86_64.log", NULL, NULL },
	{ "console/efitime-x86_64.log", NULL, NULL },
	/* An OOM the kernel survived (awk killed), then a WARNING. */
	{ "console/oom-then-warning-x86_64.log", "warning", "WARNING in crashmod_init" },
	{ "replay/timeout/console.log", NULL, NULL },
	{ "replay/channel-lost/console.log", NULL, NULL },
	{ "replay/qemu-exit/console.log", NULL, NULL },
	{ "replay/garble/console.log", NULL, NULL },
	{ "replay/smoke-x86_64/console.log", NULL, NULL },
	{ "replay/smoke-i386/console.log", NULL, NULL },
	{ "replay/seed-i386-4000/console.log", NULL, NULL },
};

static int classify_fixture(const char *file, struct crash *c, unsigned long *lines)
{
	struct console_scan cs;
	size_t len;
	char *buf = fixture(file, &len);
	int found;

	console_scan_init(&cs);
	console_scan_feed(&cs, buf, len);
	console_scan_finish(&cs);
	found = crash_classify(&cs, NULL, c);
	if (lines)
		*lines = cs.lines;
	console_scan_release(&cs);
	free(buf);
	return found;
}

TEST(crash_fixtures_class_and_title)
{
	for (size_t i = 0; i < ARRAY_SIZE(crash_fixtures); i++) {
		struct crash c = CRASH_INIT;
		unsigned long lines;
		int found = classify_fixture(crash_fixtures[i].file, &c, &lines);

		if (!crash_fixtures[i].cls) {
			CHECKF(!found, "%s: found %s '%s', expected nothing",
			       crash_fixtures[i].file, c.cls->name, c.title.buf);
		} else if (!found) {
			test_fail(__FILE__, __LINE__, "%s: nothing found, expected %s",
				  crash_fixtures[i].file, crash_fixtures[i].cls);
		} else {
			CHECKF(!strcmp(c.cls->name, crash_fixtures[i].cls) &&
			       !strcmp(c.title.buf, crash_fixtures[i].title),
			       "%s: %s '%s', expected %s '%s'",
			       crash_fixtures[i].file, c.cls->name, c.title.buf,
			       crash_fixtures[i].cls, crash_fixtures[i].title);
			/* The report's first line is in its context, numbered. */
			CHECK(c.line >= 1 && c.line <= lines);
			CHECK(c.context.len > 0);
		}
		crash_release(&c);
	}
}

/* The same bug from two boots (another arch, other pids, addresses,
 * timestamps and call traces), or as a scale test's console or a newer
 * kernel shows it: the same title, different consoles. */
TEST(crash_fixtures_same_bug_same_title)
{
	static const char *const pairs[][2] = {
		{ "replay/crash/console.log", "console/panic-i386.log" },
		{ "replay/hung-task/console.log", "console/hung-task-i386.log" },
		{ "console/soft-lockup-x86_64.log", "console/soft-lockup-2-x86_64.log" },
		{ "console/hung-task-i386.log", "console/hung-task-i386-interleaved.log" },
		{ "console/hung-task-i386.log", "console/hung-task-i386-callerid.log" },
		{ "console/hung-task-i386.log", "console/hung-task-i386-iowait.log" },
		{ "console/warning-x86_64.log", "console/warning-x86_64-new-format.log" },
		{ "console/gpf-x86_64.log", "console/gpf-x86_64-interleaved-callerid.log" },
		{ "console/null-deref-x86_64.log", "console/null-deref-i386.log" },
		{ "console/warning-x86_64.log", "console/warning-i386.log" },
		{ "console/kernel-bug-x86_64.log", "console/kernel-bug-i386.log" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++) {
		struct crash a = CRASH_INIT, b = CRASH_INIT;

		REQUIRE(classify_fixture(pairs[i][0], &a, NULL));
		REQUIRE(classify_fixture(pairs[i][1], &b, NULL));
		CHECK_STR(a.title.buf, b.title.buf);
		CHECK_STR(a.type, b.type);
		CHECK(strcmp(a.context.buf, b.context.buf) != 0);
		crash_release(&a);
		crash_release(&b);
	}
}

/* What a report is to a run is its class's: a hung task is a finding while
 * the run goes on (run.c and result/build.c ask the class, not its name);
 * a panic is an ending. */
TEST(crash_class_says_what_a_report_is_to_a_run)
{
	struct crash c = CRASH_INIT;

	REQUIRE(classify_fixture("replay/hung-task/console.log", &c, NULL));
	CHECK_EQ_INT(c.cls->finding, FINDING_IF_SURVIVED);
	crash_release(&c);
	REQUIRE(classify_fixture("replay/crash/console.log", &c, NULL));
	CHECK_EQ_INT(c.cls->finding, FINDING_NEVER);
	crash_release(&c);
}

/* A report the kernel survives is a finding: never the crash, never in
 * the way of one (issue 36: page allocation failures were reported as
 * crashes, and hid the crash after them). */
TEST(crash_findings)
{
	struct console_scan cs;
	struct crash c = CRASH_INIT, f = CRASH_INIT;
	size_t len;
	char *buf = fixture("console/alloc-failure-x86_64.log", &len);

	console_scan_init(&cs);
	console_scan_feed(&cs, buf, len);
	console_scan_finish(&cs);
	CHECK_EQ_INT(crash_classify(&cs, NULL, &c), 0);
	CHECK_EQ_INT(cs.oom, 0);
	REQUIRE(crash_finding(&cs, &f));
	CHECK_STR(f.cls->name, "alloc-failure");
	CHECK_EQ_INT(f.cls->finding, FINDING_ALWAYS);
	CHECK_STR(f.title.buf, "page allocation failure: order:9 in crashmod_alloc_until_failure");
	CHECK_EQ_INT(f.line, 341);
	CHECK_CONTAINS(f.context.buf, "insmod: page allocation failure: order:9");
	console_scan_release(&cs);
	free(buf);

	/* A page allocation failure, then a crash: the crash. */
	scan(&cs, "[   33.0] insmod: page allocation failure: order:5, mode:0x40dc0(GFP_KERNEL), nodemask=(null)\n"
		  "[   33.0] Call Trace:\n"
		  "[   33.0]  warn_alloc+0x137/0x160\n"
		  "[   33.0]  blk_mq_alloc_rqs+0x11d/0x2c0\n"
		  "[   40.0] Kernel panic - not syncing: Fatal exception\n");
	REQUIRE(crash_classify(&cs, NULL, &c));
	CHECK_STR(c.cls->name, "panic");
	REQUIRE(crash_finding(&cs, &f));
	CHECK_STR(f.title.buf, "page allocation failure: order:5 in blk_mq_alloc_rqs");
	console_scan_release(&cs);

	/* A crash holds no finding. */
	scan(&cs, "[    1.0] Kernel panic - not syncing: Fatal exception\n");
	CHECK_EQ_INT(crash_finding(&cs, &f), 0);
	console_scan_release(&cs);
	crash_release(&c);
	crash_release(&f);
}
