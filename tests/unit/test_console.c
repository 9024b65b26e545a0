#include <stdlib.h>
#include <string.h>

#include "guest/phase.h"
#include "record/console.h"
#include "test.h"
#include "lib/util.h"

/* Scan text (fed whole, then finished) and return the scanner. */
static void scan(struct console_scan *cs, const char *text)
{
	console_scan_init(cs);
	console_scan_feed(cs, text, strlen(text));
	console_scan_finish(cs);
}

static int classify(const char *line)
{
	return console_classify(line, strlen(line));
}

TEST(console_classify_crashes)
{
	static const char *const crash[] = {
		"[    2.345678] Kernel panic - not syncing: VFS: Unable to mount root fs",
		"Kernel panic - not syncing: sysrq triggered crash",
		"[   10.000001] Oops: 0002 [#1] PREEMPT SMP PTI",
		"Oops - BUG: 0 [#1]",
		"[    5.1] BUG: unable to handle page fault for address: 0000000000001234",
		"[    5.1] BUG: kernel NULL pointer dereference, address: 0000000000000008",
		"kernel BUG at mm/slub.c:4321!",
		"[  101.2] general protection fault, probably for non-canonical address 0xdead: 0000 [#1]",
		"[    0.9] Unable to handle kernel paging request at virtual address ffff0000",
		"double fault: 0000 [#1] SMP",
		"Kernel panic - not syncing: stack-protector: Kernel stack is corrupted in: foo",
	};

	for (size_t i = 0; i < ARRAY_SIZE(crash); i++)
		if (classify(crash[i]) != 1)
			test_fail(__FILE__, __LINE__, "'%s' classified %d, not 1 (crash)",
				  crash[i], classify(crash[i]));
}

TEST(console_classify_oom)
{
	static const char *const oom[] = {
		"[   33.1] Out of memory: Killed process 123 (dd) total-vm:1234kB",
		"[   33.0] dd invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0",
		"[   33.2] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0",
	};

	for (size_t i = 0; i < ARRAY_SIZE(oom); i++)
		if (classify(oom[i]) != 2)
			test_fail(__FILE__, __LINE__, "'%s' classified %d, not 2 (oom)",
				  oom[i], classify(oom[i]));
}

TEST(console_normal_lines_not_classified)
{
	static const char *const normal[] = {
		"",
		"[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org)",
		"[    1.234567] scsi host0: scsi_debug: version 0191 [20210520]",
		"[    1.5] sd 0:0:0:0: [sda] Attached SCSI disk",
		"[    1.6] sd 0:0:3999:0: [sdewv] 8192 512-byte logical blocks: (4.19 MB/4.00 MiB)",
		"scaletest: phase after-insmod",
		"Run /init as init process",
		"[    0.1] Memory: 1987654K/2096696K available (12288K kernel code, 2000K rwdata)",
		"[    3.0] virtio_blk virtio1: [vda] 131072 512-byte logical blocks (67.1 MB/64.0 MiB)",
		"[    0.2] panic=-1 in the command line",
		"oops, no BUG here",
	};

	for (size_t i = 0; i < ARRAY_SIZE(normal); i++)
		if (classify(normal[i]) != 0)
			test_fail(__FILE__, __LINE__, "'%s' classified %d, not 0",
				  normal[i], classify(normal[i]));
}

TEST(console_title_timestamp_and_cr_stripped)
{
	struct console_scan cs;

	scan(&cs, "[    0.000000] Linux version 6.1.0\r\n"
		  "[    1.234] Kernel panic - not syncing: VFS: Unable to mount root fs\r\n"
		  "[    1.235] CPU: 0 PID: 1 Comm: swapper\r\n");
	CHECK_EQ_INT(cs.crash, 1);
	CHECK_EQ_INT(cs.oom, 0);
	CHECK_STR(cs.crash_line, "Kernel panic - not syncing: VFS: Unable to mount root fs");
	CHECK_STR(cs.oom_line, "");
	CHECK_EQ_INT(cs.lines, 3);
	console_scan_release(&cs);

	/* A line without a timestamp keeps its whole text. */
	scan(&cs, "Kernel panic - not syncing: Attempted to kill init!\n");
	CHECK_STR(cs.crash_line, "Kernel panic - not syncing: Attempted to kill init!");
	console_scan_release(&cs);
}

TEST(console_first_title_kept)
{
	struct console_scan cs;

	scan(&cs, "[    5.0] BUG: unable to handle page fault for address: 0000000000001234\n"
		  "[    5.1] Oops: 0000 [#1] SMP\n"
		  "[    5.2] Kernel panic - not syncing: Fatal exception\n");
	CHECK_EQ_INT(cs.crash, 1);
	CHECK_STR(cs.crash_line, "BUG: unable to handle page fault for address: 0000000000001234");
	console_scan_release(&cs);
}

TEST(console_oom_has_its_own_class)
{
	struct console_scan cs;

	scan(&cs, "[   30.0] dd invoked oom-killer: gfp_mask=0x0, order=0\n"
		  "[   30.1] Out of memory: Killed process 99 (dd)\n"
		  "[   31.0] Kernel panic - not syncing: Fatal exception\n");
	CHECK_EQ_INT(cs.oom, 1);
	CHECK_STR(cs.oom_line, "dd invoked oom-killer: gfp_mask=0x0, order=0");
	CHECK_EQ_INT(cs.crash, 1);
	CHECK_STR(cs.crash_line, "Kernel panic - not syncing: Fatal exception");
	console_scan_release(&cs);

	scan(&cs, "[   30.1] Out of memory: Killed process 99 (dd)\n");
	CHECK_EQ_INT(cs.oom, 1);
	CHECK_EQ_INT(cs.crash, 0);
	CHECK_STR(cs.crash_line, "");
	console_scan_release(&cs);
}

TEST(console_lines_split_across_feeds)
{
	static const char text[] =
		"[    1.0] sd 0:0:0:0: [sda] Attached SCSI disk\r\n"
		"[    2.5] Kernel panic - not syncing: sysrq triggered crash\r\n"
		"[    2.6] ---[ end Kernel panic ]---";
	size_t n = sizeof(text) - 1;

	/* Every split point, and byte by byte. */
	for (size_t cut = 0; cut <= n; cut++) {
		struct console_scan cs;

		console_scan_init(&cs);
		console_scan_feed(&cs, text, cut);
		console_scan_feed(&cs, text + cut, n - cut);
		console_scan_finish(&cs);
		if (strcmp(cs.crash_line, "Kernel panic - not syncing: sysrq triggered crash") ||
		    cs.lines != 3) {
			test_fail(__FILE__, __LINE__, "split at %zu: title '%s', %lu lines",
				  cut, cs.crash_line, cs.lines);
			console_scan_release(&cs);
			break;
		}
		console_scan_release(&cs);
	}
	{
		struct console_scan cs;

		console_scan_init(&cs);
		for (size_t i = 0; i < n; i++)
			console_scan_feed(&cs, text + i, 1);
		CHECK_EQ_INT(cs.lines, 2);	/* the last has no '\n' yet */
		console_scan_finish(&cs);
		CHECK_EQ_INT(cs.lines, 3);
		CHECK_STR(cs.crash_line, "Kernel panic - not syncing: sysrq triggered crash");
		console_scan_release(&cs);
	}
}

TEST(console_last_line_needs_finish)
{
	struct console_scan cs;
	static const char text[] = "[ 9.9] Kernel panic - not syncing: no newline";

	console_scan_init(&cs);
	console_scan_feed(&cs, text, sizeof(text) - 1);
	CHECK_EQ_INT(cs.crash, 0);
	console_scan_finish(&cs);
	CHECK_EQ_INT(cs.crash, 1);
	CHECK_STR(cs.crash_line, "Kernel panic - not syncing: no newline");
	console_scan_release(&cs);
}

TEST(console_overlong_lines)
{
	struct console_scan cs;
	struct strbuf sb = STRBUF_INIT;

	/* 3 * CONSOLE_LINE_MAX of noise with no newline, then a crash line:
	 * the scanner holds no more than a line's worth and still finds it. */
	console_scan_init(&cs);
	for (int i = 0; i < 3 * CONSOLE_LINE_MAX; i++)
		console_scan_feed(&cs, "x", 1);
	CHECK(cs.partial.len <= CONSOLE_LINE_MAX);
	console_scan_feed(&cs, "\n[ 1.0] general protection fault: 0000 [#1]\n", 44);
	CHECK_EQ_INT(cs.crash, 1);
	CHECK_STR(cs.crash_line, "general protection fault: 0000 [#1]");
	console_scan_release(&cs);

	/* A crash line that is itself overlong: the title is cut to fit. */
	sb_adds(&sb, "[    7.7] Kernel panic - not syncing: ");
	for (int i = 0; i < 5000; i++)
		sb_addch(&sb, (char)('a' + i % 26));
	sb_addch(&sb, '\n');
	console_scan_init(&cs);
	console_scan_feed(&cs, sb.buf, sb.len);
	console_scan_finish(&cs);
	CHECK_EQ_INT(cs.crash, 1);
	CHECK_EQ_INT(strlen(cs.crash_line), CONSOLE_TITLE_MAX - 1);
	CHECK(!strncmp(cs.crash_line, "Kernel panic - not syncing: abcdef", 34));
	CHECK(cs.partial.len == 0);
	console_scan_release(&cs);
	sb_release(&sb);
}

TEST(console_control_bytes_become_question_marks)
{
	struct console_scan cs;

	scan(&cs, "[ 3.0] Kernel panic - not syncing: \x1b[31mred\x07\tx\x7f\xc3\xa9\r\n");
	CHECK_EQ_INT(cs.crash, 1);
	CHECK_STR(cs.crash_line, "Kernel panic - not syncing: ?[31mred??x???");
	for (const char *p = cs.crash_line; *p; p++)
		CHECK((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f);
	console_scan_release(&cs);
}

TEST(console_nul_bytes_do_not_hide_lines)
{
	struct console_scan cs;
	static const char text[] = "\0\0garbage\0\n[ 1.0] Oops: 0000 [#1]\0 SMP\n";

	console_scan_init(&cs);
	console_scan_feed(&cs, text, sizeof(text) - 1);
	console_scan_finish(&cs);
	CHECK_EQ_INT(cs.crash, 1);
	CHECK_EQ_INT(cs.lines, 2);
	CHECK_STR(cs.crash_line, "Oops: 0000 [#1]? SMP");
	console_scan_release(&cs);
}


/* ---- linear work --------------------------------------------------------- */

/* Bytes the scanner looks at for text fed whole (pieces 0) or in pieces of
 * that size. */
static unsigned long long examined(const char *text, size_t len, size_t pieces)
{
	struct console_scan cs;
	unsigned long long n;

	console_scan_init(&cs);
	for (size_t off = 0; off < len; off += pieces ? pieces : len)
		console_scan_feed(&cs, text + off, pieces && len - off > pieces ? pieces : len - off);
	console_scan_finish(&cs);
	n = cs.examined;
	console_scan_release(&cs);
	return n;
}

/* text repeated times times. */
static char *repeat(const char *text, size_t times, size_t *len)
{
	size_t n = strlen(text);
	char *buf = malloc(n * times + 1);

	REQUIRE(buf);
	for (size_t i = 0; i < times; i++)
		memcpy(buf + i * n, text, n);
	buf[n * times] = '\0';
	*len = n * times;
	return buf;
}

/*
 * The work grows with the input as the input does: four times the console,
 * four times the bytes looked at (and no fewer than the console's own),
 * whatever the shape: one huge line (issue 25: report --replay fed a
 * 100 MB line in one buffer and looked for its newline again after every
 * cut), many short lines, a report with its trace, lines that hold a
 * header and are suppressed; whole, and in pieces.
 */
TEST(console_scan_is_linear)
{
	static const struct {
		const char *unit;
		size_t times;
	} shapes[] = {
		{ "x", 1 << 20 },
		{ "[   1.000000] sd 0:0:1:0: [sdb] Attached SCSI disk\n", 20000 },
		{ "[ 25.0] INFO: task dd:246 blocked for more than 5 seconds.\n"
		  "[ 25.0] Call Trace:\n[ 25.0]  __schedule+0x399/0xaa0\n"
		  "[ 25.0]  blkdev_put+0xde/0x1d0\n", 5000 },
		{ "[ 1.0] WARNING: /etc/ssh/moduli does not exist, using fixed modulus\n", 10000 },
		{ "[ 1.0] XFS (sda1): WARNING: no such thing\n", 10000 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(shapes); i++) {
		for (size_t pieces = 0; pieces <= 4096; pieces += 4096) {
			size_t len1, len4;
			char *one = repeat(shapes[i].unit, shapes[i].times, &len1);
			char *four = repeat(shapes[i].unit, 4 * shapes[i].times, &len4);
			unsigned long long e1 = examined(one, len1, pieces);
			unsigned long long e4 = examined(four, len4, pieces);

			if (e1 < len1 || e4 > 4 * e1 + 4 * CONSOLE_LINE_MAX)
				test_fail(__FILE__, __LINE__,
					  "shape %zu, pieces %zu: %llu bytes looked at for %zu, %llu for %zu",
					  i, pieces, e1, len1, e4, len4);
			free(one);
			free(four);
		}
	}
}

/* Issue 25, item 5: one 4 MiB line in one buffer is looked at about twice
 * (once for its newline, once as cut lines by the classifier),
 * not once per CONSOLE_LINE_MAX cut (which was 2 GiB of looking). */
TEST(console_huge_line_looked_at_once)
{
	size_t len;
	char *line = repeat("y", 4 << 20, &len);

	CHECK(examined(line, len, 0) <= 3 * (unsigned long long)len);
	free(line);
}

/* ---- the crash classes -------------------------------------------------- */

/* Classify text (the console alone) and check class and title. */
static void expect_class(const char *file, int line, const char *text,
			 const char *cls, const char *title)
{
	struct console_scan cs;
	struct crash c = CRASH_INIT;

	scan(&cs, text);
	if (!crash_classify(&cs, NULL, &c))
		test_fail(file, line, "no class found, expected %s", cls);
	else if (strcmp(c.cls->name, cls) || strcmp(c.title.buf, title))
		test_fail(file, line, "got %s '%s', expected %s '%s'", c.cls->name,
			  c.title.buf, cls, title);
	crash_release(&c);
	console_scan_release(&cs);
}
#define EXPECT_CLASS(text, cls, title) expect_class(__FILE__, __LINE__, text, cls, title)

TEST(crash_table_is_well_formed)
{
	size_t n;
	const struct crash_class *t = crash_classes(&n);

	CHECK(n <= CONSOLE_CLASSES_MAX);
	for (size_t i = 0; i < n; i++) {
		CHECK(t[i].name && *t[i].name && t[i].title);
		/* A row is found either by marks on the console or by the host. */
		CHECK(!t[i].host != !t[i].marks[0]);
		if (t[i].fmt)
			CHECK(strstr(t[i].fmt, "%s") && t[i].fallback);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(t[i].name, t[j].name))
				test_fail(__FILE__, __LINE__, "class '%s' twice", t[i].name);
	}
}

/*
 * The report shapes the captured consoles (crash_fixtures below) do not
 * cover: classes Debian's kernels cannot show (no KASAN, KFENCE or UBSAN
 * in their config, no NMI watchdog under TCG), the generic BUG and Oops
 * rows, and other kernels' forms (i386 EIP, no RIP line, an old "WARNING:
 * at", no kallsyms), with the parts that vary (pids, addresses, offsets,
 * timestamps) varied between two copies where that matters.
 */
TEST(crash_class_page_fault_names_the_rip)
{
	EXPECT_CLASS("[   12.1] BUG: unable to handle page fault for address: ffffc90000a3f000\n"
		     "[   12.1] #PF: supervisor write access in kernel mode\n"
		     "[   12.1] Oops: 0002 [#1] PREEMPT SMP NOPTI\n"
		     "[   12.1] CPU: 1 PID: 4242 Comm: insmod Not tainted 6.1.0 #1\n"
		     "[   12.1] RIP: 0010:sdebug_add_store.cold+0x1c/0x80 [scsi_debug]\n"
		     "[   12.1] Call Trace:\n"
		     "[   12.1]  <TASK>\n"
		     "[   12.1]  scsi_debug_init+0x2f0/0x1000 [scsi_debug]\n",
		     "page-fault", "BUG: unable to handle page fault in sdebug_add_store");
	/* i386: EIP, no code segment; and a paging request on an older kernel. */
	EXPECT_CLASS("BUG: unable to handle kernel paging request at f8a3c000\n"
		     "*pde = 00000000\n"
		     "Oops: 0002 [#1] SMP\n"
		     "EIP: sdebug_add_store+0x1c/0x80 [scsi_debug]\n",
		     "page-fault", "BUG: unable to handle page fault in sdebug_add_store");
	/* No RIP line at all: the first frame that is not machinery. */
	EXPECT_CLASS("BUG: unable to handle page fault for address: 0000000000001234\n"
		     "Call Trace:\n"
		     " ? __die+0x20/0x70\n"
		     " page_fault_oops+0x15d/0x470\n"
		     " exc_page_fault+0x70/0x170\n"
		     " asm_exc_page_fault+0x22/0x30\n"
		     " blk_mq_alloc_rqs+0x1a/0x2c0\n",
		     "page-fault", "BUG: unable to handle page fault in blk_mq_alloc_rqs");
}

TEST(crash_class_null_gpf_bug_oops)
{
	EXPECT_CLASS("[    3.3] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
		     "[    3.3] RIP: 0010:blk_mq_free_rqs+0x44/0x1d0\n",
		     "null-deref", "BUG: kernel NULL pointer dereference in blk_mq_free_rqs");
	EXPECT_CLASS("[  101.2] general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#1] SMP\n"
		     "[  101.2] CPU: 0 PID: 77 Comm: kworker/0:2 Not tainted 6.1.0 #1\n"
		     "[  101.2] RIP: 0010:[<ffffffff81234567>]  [<ffffffff81234567>] list_del+0x9/0x40\n",
		     "gpf", "general protection fault in list_del");
	EXPECT_CLASS("[    7.0] kernel BUG at block/blk-mq.c:1234!\n"
		     "[    7.0] invalid opcode: 0000 [#1] PREEMPT SMP\n"
		     "[    7.0] RIP: 0010:blk_mq_start_request+0x1c0/0x1d0\n",
		     "kernel-bug", "kernel BUG in blk_mq_start_request");
	EXPECT_CLASS("Oops: 0000 [#1] SMP\nRIP: 0010:0xdeadbeef\n", "oops", "Oops");
	EXPECT_CLASS("[    9.0] BUG: scheduling while atomic: insmod/4242/0x00000002\n"
		     "[    9.0] Call Trace:\n"
		     "[    9.0]  <TASK>\n"
		     "[    9.0]  dump_stack_lvl+0x44/0x5c\n"
		     "[    9.0]  __schedule_bug.cold+0x4b/0x58\n"
		     "[    9.0]  __schedule+0x6b0/0xa00\n"
		     "[    9.0]  sdebug_q_cmd_complete+0x10/0x90 [scsi_debug]\n",
		     "bug", "BUG: scheduling while atomic in sdebug_q_cmd_complete");
	EXPECT_CLASS("BUG: Bad page state in process dd  pfn:1a2b3\n",
		     "bug", "BUG: Bad page state");
}

TEST(crash_class_sanitizers)
{
	EXPECT_CLASS("[   20.0] ==================================================================\n"
		     "[   20.0] BUG: KASAN: use-after-free in blk_mq_free_request+0x2f/0x330\n"
		     "[   20.0] Read of size 8 at addr ffff88800abc1858 by task kworker/0:1/30\n",
		     "kasan", "KASAN: use-after-free in blk_mq_free_request");
	EXPECT_CLASS("[   20.0] BUG: KFENCE: out-of-bounds read in sd_probe+0x12/0x400\n",
		     "kfence", "KFENCE: out-of-bounds read in sd_probe");
	EXPECT_CLASS("[    5.0] UBSAN: shift-out-of-bounds in drivers/scsi/scsi_debug.c:5123:20\n"
		     "[    5.0] shift exponent 64 is too large for 64-bit type 'long unsigned int'\n"
		     "[    5.0] Call Trace:\n"
		     "[    5.0]  <TASK>\n"
		     "[    5.0]  dump_stack_lvl+0x44/0x5c\n"
		     "[    5.0]  __ubsan_handle_shift_out_of_bounds.cold+0x61/0xef\n"
		     "[    5.0]  sdebug_build_parts+0x1d1/0x220 [scsi_debug]\n",
		     "ubsan", "UBSAN: shift-out-of-bounds in sdebug_build_parts");
	/* Without a trace: the file, no line or column. */
	EXPECT_CLASS("UBSAN: array-index-out-of-bounds in block/genhd.c:99:3\n",
		     "ubsan", "UBSAN: array-index-out-of-bounds in block/genhd.c");
}

TEST(crash_class_lockups_and_stalls)
{
	EXPECT_CLASS("[   44.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [insmod:312]\n"
		     "[   44.0] Modules linked in: scsi_debug\n"
		     "[   44.0] RIP: 0010:sdebug_add_host_helper+0x88/0x300 [scsi_debug]\n",
		     "soft-lockup", "BUG: soft lockup in sdebug_add_host_helper");
	EXPECT_CLASS("[   61.0] NMI watchdog: Watchdog detected hard LOCKUP on cpu 1\n"
		     "[   61.0] RIP: 0010:native_queued_spin_lock_slowpath+0x5d/0x1d0\n",
		     "hard-lockup", "hard lockup in native_queued_spin_lock_slowpath");
	EXPECT_CLASS("[   80.0] rcu: INFO: rcu_preempt self-detected stall on CPU\n"
		     "[   80.0] rcu: \t0-....: (21002 ticks this GP)\n"
		     "[   80.0] RIP: 0010:scsi_remove_host+0x40/0x120\n",
		     "rcu-stall", "INFO: rcu detected stall in scsi_remove_host");
	EXPECT_CLASS("rcu: INFO: rcu_sched detected stalls on CPUs/tasks:\n",
		     "rcu-stall", "INFO: rcu detected stall");
}

TEST(crash_class_warning_names_its_function)
{
	EXPECT_CLASS("[   12.0] ------------[ cut here ]------------\n"
		     "[   12.0] WARNING: CPU: 1 PID: 4242 at block/blk-mq-tag.c:590 blk_mq_tag_update_depth+0x1a/0x1c0\n"
		     "[   12.0] Modules linked in: scsi_debug\n",
		     "warning", "WARNING in blk_mq_tag_update_depth");
	/* Another CPU, pid, line and module suffix: the same title. */
	EXPECT_CLASS("[ 1012.5] WARNING: CPU: 0 PID: 17 at block/blk-mq-tag.c:591 blk_mq_tag_update_depth.part.0+0x2b/0x1d0 [mod]\n",
		     "warning", "WARNING in blk_mq_tag_update_depth");
	/* An old kernel's "WARNING: at", and one without kallsyms (RIP then). */
	EXPECT_CLASS("WARNING: at fs/sysfs/dir.c:31 sysfs_warn_dup+0x5e/0x70()\n",
		     "warning", "WARNING in sysfs_warn_dup");
	EXPECT_CLASS("WARNING: CPU: 0 PID: 1 at 0xffffffffc0123456\n"
		     "RIP: 0010:0xffffffffc0123456\n",
		     "warning", "WARNING");
}

TEST(crash_class_memory)
{
	EXPECT_CLASS("[   33.0] insmod: page allocation failure: order:5, mode:0x40dc0(GFP_KERNEL|__GFP_COMP|__GFP_ZERO), nodemask=(null)\n"
		     "[   33.0] CPU: 0 PID: 312 Comm: insmod Not tainted 6.1.0 #1\n"
		     "[   33.0] Call Trace:\n"
		     "[   33.0]  dump_stack_lvl+0x44/0x5c\n"
		     "[   33.0]  warn_alloc+0x137/0x160\n"
		     "[   33.0]  __alloc_pages_slowpath.constprop.0+0xc5e/0xe70\n"
		     "[   33.0]  __alloc_pages+0x305/0x330\n"
		     "[   33.0]  blk_mq_alloc_rqs+0x11d/0x2c0\n",
		     "alloc-failure", "page allocation failure: order:5 in blk_mq_alloc_rqs");
	EXPECT_CLASS("[   34.0] Out of memory: Killed process 99 (dd) total-vm:3284kB\n",
		     "oom", "Out of memory");
	EXPECT_CLASS("[   34.0] Kernel panic - not syncing: Out of memory and no killable processes...\n",
		     "oom", "Out of memory: no killable processes");
}

TEST(crash_title_strips_what_varies)
{
	EXPECT_CLASS("[    1.0] Kernel panic - not syncing: Fatal exception in interrupt\n",
		     "panic", "Kernel panic - not syncing: Fatal exception in interrupt");
	EXPECT_CLASS("Kernel panic - not syncing: stack-protector: Kernel stack is corrupted in: sd_probe+0x5e/0x70\n",
		     "panic", "Kernel panic - not syncing: stack-protector: Kernel stack is corrupted in: sd_probe");
	EXPECT_CLASS("Kernel panic - not syncing: bad page at ffff888003abc000 on CPU: 3 (pid 4242)\n",
		     "panic", "Kernel panic - not syncing: bad page at ADDR on CPU: N (pid N)");
	EXPECT_CLASS("Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000009\n",
		     "panic", "Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000009");
	EXPECT_CLASS("Kernel panic - not syncing: \n", "panic", "Kernel panic - not syncing:");
}

/* The first report wins within a group; an OOM report over a crash one. */
TEST(crash_precedence_first_report_and_oom)
{
	EXPECT_CLASS("WARNING: CPU: 0 PID: 1 at block/genhd.c:1 add_disk+0x1/0x2\n"
		     "Kernel panic - not syncing: panic_on_warn set ...\n",
		     "warning", "WARNING in add_disk");
	EXPECT_CLASS("Kernel panic - not syncing: Fatal exception\n"
		     "Out of memory: Killed process 1 (init)\n",
		     "oom", "Out of memory");
}

TEST(crash_reboot_is_a_second_banner)
{
	static const char banner[] = "[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org)\n";
	struct console_scan cs;
	struct crash c = CRASH_INIT;
	struct strbuf sb = STRBUF_INIT;

	scan(&cs, banner);
	CHECK_EQ_INT(crash_classify(&cs, NULL, &c), 0);
	console_scan_release(&cs);
	sb_adds(&sb, banner);
	sb_adds(&sb, "[    2.0] reboot: Restarting system\n");
	sb_adds(&sb, banner);
	EXPECT_CLASS(sb.buf, "reboot", "unexpected reboot");
	scan(&cs, sb.buf);
	CHECK_EQ_INT(crash_classify(&cs, NULL, &c), 1);
	CHECK_EQ_INT(c.line, 3);
	crash_release(&c);
	console_scan_release(&cs);
	sb_release(&sb);
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

/* Hostile console bytes never reach a title or the context unprintable. */
TEST(crash_title_and_context_printable)
{
	struct console_scan cs;
	struct crash c = CRASH_INIT;

	scan(&cs, "\x1b]0;x\x07 [ 1.0] WARNING: CPU: 0 PID: 1 at a.c:1 f\x1b+0x1/0x2\n"
		  "[ 1.1] BUG: soft lockup\xff\xfe in \x01\n");
	REQUIRE(crash_classify(&cs, NULL, &c));
	for (const char *p = c.title.buf; *p; p++)
		CHECK((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f);
	for (const char *p = c.context.buf; *p; p++)
		CHECK(*p == '\n' || ((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f));
	CHECK(strlen(c.title.buf) < CONSOLE_TITLE_MAX);
	crash_release(&c);
	console_scan_release(&cs);
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
 * fixtures' own consoles too), with its class and exact title; NULL: the
 * console alone shows nothing wrong. */
static const struct {
	const char *file, *cls, *title;
} crash_fixtures[] = {
	{ "replay/crash/console.log", "panic", "Kernel panic - not syncing: sysrq triggered crash" },
	{ "console/panic-i386.log", "panic", "Kernel panic - not syncing: sysrq triggered crash" },
	{ "replay/oom/console.log", "oom", "Out of memory: System is deadlocked on memory" },
	{ "console/oom-lowmem-i386.log", "oom", "Out of memory: System is deadlocked on memory" },
	{ "replay/hung-task/console.log", "hung-task", "INFO: task hung in __filemap_fdatawait_range" },
	{ "console/hung-task-i386.log", "hung-task", "INFO: task hung in __filemap_fdatawait_range" },
	{ "console/reboot-x86_64.log", "reboot", "unexpected reboot" },
	{ "console/warning-x86_64.log", "warning", "WARNING in crashmod_init" },
	{ "console/soft-lockup-x86_64.log", "soft-lockup", "BUG: soft lockup in crashmod_spin" },
	{ "console/soft-lockup-2-x86_64.log", "soft-lockup", "BUG: soft lockup in crashmod_spin" },
	{ "console/rcu-stall-x86_64.log", "rcu-stall", "INFO: rcu detected stall in crashmod_spin" },
	{ "console/null-deref-x86_64.log", "null-deref", "BUG: kernel NULL pointer dereference in crashmod_poke" },
	{ "console/gpf-x86_64.log", "gpf", "general protection fault in crashmod_poke" },
	{ "console/page-fault-x86_64.log", "page-fault", "BUG: unable to handle page fault in crashmod_poke" },
	{ "console/kernel-bug-x86_64.log", "kernel-bug", "kernel BUG in crashmod_init" },
	{ "console/alloc-failure-x86_64.log", "alloc-failure", "page allocation failure: order:9 in crashmod_alloc_until_failure" },
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
			if (found)
				test_fail(__FILE__, __LINE__, "%s: found %s '%s', expected nothing",
					  crash_fixtures[i].file, c.cls->name, c.title.buf);
		} else if (!found) {
			test_fail(__FILE__, __LINE__, "%s: nothing found, expected %s",
				  crash_fixtures[i].file, crash_fixtures[i].cls);
		} else {
			if (strcmp(c.cls->name, crash_fixtures[i].cls) ||
			    strcmp(c.title.buf, crash_fixtures[i].title))
				test_fail(__FILE__, __LINE__, "%s: %s '%s', expected %s '%s'",
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
 * timestamps and call traces): the same title, different consoles. */
TEST(crash_fixtures_same_bug_same_title)
{
	static const char *const pairs[][2] = {
		{ "replay/crash/console.log", "console/panic-i386.log" },
		{ "replay/hung-task/console.log", "console/hung-task-i386.log" },
		{ "console/soft-lockup-x86_64.log", "console/soft-lockup-2-x86_64.log" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++) {
		struct crash a = CRASH_INIT, b = CRASH_INIT;

		REQUIRE(classify_fixture(pairs[i][0], &a, NULL));
		REQUIRE(classify_fixture(pairs[i][1], &b, NULL));
		CHECK_STR(a.title.buf, b.title.buf);
		CHECK(strcmp(a.context.buf, b.context.buf) != 0);
		crash_release(&a);
		crash_release(&b);
	}
}
