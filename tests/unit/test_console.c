// SPDX-License-Identifier: Apache-2.0
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
		"[    7.1][  T1042] BUG: KASAN: use-after-free in blk_mq_free_request+0x2f/0x330",
		"<4>[ 3024.981314][    C1] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
		"[   30.1] INFO: task dd:246 blocked in I/O wait for more than 5 seconds.",
		"[   12.0] WARNING: fs/ext4/inode.c:123 at ext4_evict_inode+0x1a/0x2b0, CPU#1: rm/4242",
		"Kernel panic - not syncing: stack-protector: Kernel stack is corrupted in: foo",
	};

	for (size_t i = 0; i < ARRAY_SIZE(crash); i++)
		CHECKF(classify(crash[i]) == 1, "'%s' classified %d, not 1 (crash)",
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
		CHECKF(classify(oom[i]) == 2, "'%s' classified %d, not 2 (oom)",
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
		"[  404.700173] ODEBUG: Out of memory. ODEBUG disabled",
		"[   12.1] traps: fio[4242] general protection fault ip:7f3a sp:7ffd error:0 in libc.so.6[7f3a+155000]",
		"[    1.0] WARNING: /etc/ssh/moduli does not exist, using fixed modulus",
		"[    2.0] EXT4-fs (sda): WARNING: mounting fs with errors",
		"[    3.0] Booting the kernel.",
		"[    0.1] INFO: lockdep is turned off.",
		/* die() numbers an Oops ("[#1]"): this is a message (issue 36). */
		"[  662.412008] Oops: efitime: can't read time!",
		/* A finding, not a crash or an OOM (issue 36). */
		"[   33.0] insmod: page allocation failure: order:5, mode:0x40dc0(GFP_KERNEL), nodemask=(null)",
	};

	for (size_t i = 0; i < ARRAY_SIZE(normal); i++)
		CHECKF(classify(normal[i]) == 0, "'%s' classified %d, not 0",
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


/* The kernel's caller id (CONFIG_PRINTK_CALLER) is no part of the line
 * kept, nor is a loglevel prefix. */
TEST(console_caller_id_dropped)
{
	struct console_scan cs;

	scan(&cs, "<0>[  147.467058][T10579] Kernel panic - not syncing: sysrq triggered crash\n"
		  "[  147.5][    C1] Out of memory: Killed process 99 (dd)\n");
	CHECK_STR(cs.crash_line, "Kernel panic - not syncing: sysrq triggered crash");
	CHECK_STR(cs.oom_line, "Out of memory: Killed process 99 (dd)");
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

			CHECKF(e1 >= len1 && e4 <= 4 * e1 + 4 * CONSOLE_LINE_MAX,
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
