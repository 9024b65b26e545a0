// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "lib/util.h"
#include "record/channel.h"
#include "record/console.h"
#include "record/hung.h"
#include "record/records.h"
#include "test.h"

/* What the guest sent when the detector spoke (initramfs/lib/hung.sh; the
 * channel.log of tests/fixtures/replay/hung-task-finding), and a task
 * added after it. */
static const char record[] =
	"hung 1 7.45\n"
	"t 139 insmod\n"
	" async_synchronize_cookie_domain+0x114/0x150\n"
	" do_init_module+0x17a/0x1f0\n"
	" __do_sys_finit_module+0xac/0x120\n"
	" do_syscall_64+0x5d/0xb0\n"
	" entry_SYSCALL_64_after_hwframe+0x6e/0xd8\n"
	"t 7 kworker/u2:0 (events)\n";

TEST(hung_parse)
{
	static const char more[] = "hung 1 9.0\nt 139 insmod\n later+0x1/0x2\n";
	struct hung_tasks h = HUNG_TASKS_INIT;
	struct strbuf err = STRBUF_INIT;
	const struct hung_task *t;

	CHECK_EQ_INT(hung_parse(&h, record, strlen(record), &err), 0);
	CHECK_STR(err.buf, "");
	CHECK_EQ_INT(h.n, 2);
	REQUIRE((t = hung_find(&h, 139)) != NULL);
	CHECK_STR(t->comm, "insmod");
	CHECK(t->t > 7.44 && t->t < 7.46);
	CHECK_EQ_INT(t->nframes, 5);
	CHECK_STR(t->frames[1], "do_init_module+0x17a/0x1f0");
	REQUIRE((t = hung_find(&h, 7)) != NULL);
	CHECK_STR(t->comm, "kworker/u2:0 (events)");
	CHECK_EQ_INT(t->nframes, 0);
	CHECK(hung_find(&h, 140) == NULL);
	/* A second record adds to the first; the first read of a pid is
	 * the one found. */
	CHECK_EQ_INT(hung_parse(&h, more, strlen(more), &err), 0);
	CHECK_EQ_INT(h.n, 3);
	CHECK_STR(hung_find(&h, 139)->frames[0], "async_synchronize_cookie_domain+0x114/0x150");
	hung_release(&h);
	sb_release(&err);
}

/* A record that must be rejected: nothing of it is kept; the message. */
static const char *bad(const char *text, size_t len)
{
	static char msg[256];
	struct hung_tasks h = HUNG_TASKS_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(hung_parse(&h, "hung 1 1.0\nt 1 init\n", 20, &err), 0);
	CHECK_EQ_INT(hung_parse(&h, text, len, &err), -1);
	CHECK_EQ_INT(h.n, 1);
	snprintf(msg, sizeof(msg), "%s", err.buf);
	hung_release(&h);
	sb_release(&err);
	return msg;
}
#define BAD(text) bad(text, strlen(text))

TEST(hung_malformed)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK_CONTAINS(BAD(""), "no 'hung 1 UPTIME' header");
	CHECK_CONTAINS(BAD("hung 2 1.0\n"), "line 1: expected 'hung 1 UPTIME'");
	CHECK_CONTAINS(BAD("hung 1 -1\n"), "line 1: expected 'hung 1 UPTIME'");
	CHECK_CONTAINS(BAD("hung 1 nan\n"), "line 1: expected 'hung 1 UPTIME'");
	CHECK_CONTAINS(BAD("t 5 x\n"), "line 1: expected 'hung 1 UPTIME'");
	CHECK_CONTAINS(BAD("hung 1 1.0\n f+0x1/0x2\n"), "line 2: a frame before any task");
	CHECK_CONTAINS(BAD("hung 1 1.0\nt 5\n"), "line 2: expected 't PID COMM'");
	CHECK_CONTAINS(BAD("hung 1 1.0\nt x y\n"), "line 2: expected 't PID COMM'");
	CHECK_CONTAINS(BAD("hung 1 1.0\nt 0 y\n"), "line 2: pid out of range");
	CHECK_CONTAINS(BAD("hung 1 1.0\nt 99999999 y\n"), "line 2: pid out of range");
	CHECK_CONTAINS(BAD("hung 1 1.0\nt 5 a\nt 5 b\n"), "line 3: a task twice");
	CHECK_CONTAINS(BAD("hung 1 1.0\nt 5 a\n \n"), "line 3: an empty frame");
	CHECK_CONTAINS(BAD("hung 1 1.0\nhello\n"), "line 2: expected a task 't' or a frame");
	{
		static const char nul[] = "hung 1 1.0\nt 5 a\n f\0g\n";

		CHECK_CONTAINS(bad(nul, sizeof(nul) - 1), "line 3: a NUL byte");
	}
	sb_addf(&sb, "hung 1 1.0\nt 5 %0*d\n", HUNG_COMM_MAX + 1, 0);
	CHECK_CONTAINS(BAD(sb.buf), "line 2: comm too long");
	sb_reset(&sb);
	sb_addf(&sb, "hung 1 1.0\nt 5 a\n %0*d\n", HUNG_FRAME_MAX, 0);
	CHECK_CONTAINS(BAD(sb.buf), "line 3: frame too long");
	sb_reset(&sb);
	sb_adds(&sb, "hung 1 1.0\nt 5 a\n");
	for (int i = 0; i <= HUNG_MAX_FRAMES; i++)
		sb_adds(&sb, " f+0x1/0x2\n");
	CHECK_CONTAINS(BAD(sb.buf), "too many frames");
	sb_reset(&sb);
	sb_adds(&sb, "hung 1 1.0\n");
	for (int i = 0; i < HUNG_MAX_TASKS; i++)
		sb_addf(&sb, "t %d a\n", i + 2);
	CHECK_CONTAINS(BAD(sb.buf), "too many tasks");
	sb_release(&sb);
}

/* The first line of a hung-task report as the console shows it at the
 * default loglevel (tests/fixtures/replay/hung-task-finding): no stack. */
static const char console_4[] =
	"scaletest[3.97]: phase before-insmod\n"
	"[    5.821878] INFO: task insmod:139 blocked for more than 1 seconds.\n"
	"[    5.824537]       Not tainted 6.1.0-57-amd64 #1 Debian 6.1.192-3\n"
	"[    5.825005] \"echo 0 > /proc/sys/kernel/hung_task_timeout_secs\" disables this message.\n"
	"scaletest[34.11]: phase after-insmod\n";

static int classify(const char *text, const struct hung_tasks *h, struct crash *c)
{
	struct console_scan cs;
	struct crash_host host = CRASH_HOST_INIT;
	int found;

	host.hung = h;
	console_scan_init(&cs);
	console_scan_feed(&cs, text, strlen(text));
	console_scan_finish(&cs);
	found = crash_classify(&cs, &host, c);
	console_scan_release(&cs);
	return found;
}

/* Issue 40: "INFO: task hung in corrupted" at loglevel 4.  With the stack
 * the guest read of the task the report names, the title names where it
 * waits; the stack of another task, or none, changes nothing; a report
 * that brought its own stack keeps it. */
TEST(hung_titles_the_report)
{
	static const char sh[] = "hung 1 4.0\nt 140 sh\n do_wait+0x1/0x2\n";
	struct hung_tasks h = HUNG_TASKS_INIT, other = HUNG_TASKS_INIT;
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	struct crash c = CRASH_INIT;

	REQUIRE(classify(console_4, NULL, &c));
	CHECK_STR(c.title.buf, "INFO: task hung in corrupted");
	CHECK_EQ_INT(hung_parse(&h, record, strlen(record), &err), 0);
	REQUIRE(classify(console_4, &h, &c));
	CHECK_STR(c.cls->name, "hung-task");
	CHECK_STR(c.type, "HANG");
	CHECK_STR(c.title.buf, "INFO: task hung in do_init_module");
	/* The context is still the console's. */
	CHECK(strstr(c.context.buf, "do_init_module") == NULL);

	CHECK_EQ_INT(hung_parse(&other, sh, strlen(sh), &err), 0);
	REQUIRE(classify(console_4, &other, &c));
	CHECK_STR(c.title.buf, "INFO: task hung in corrupted");

	sb_adds(&sb, console_4);
	sb_adds(&sb, "[    3.857600] Call Trace:\n"
		     "[    3.857610]  <TASK>\n"
		     "[    3.857620]  __schedule+0x34d/0x9e0\n"
		     "[    3.857630]  schedule+0x5a/0xd0\n"
		     "[    3.857640]  blkdev_put+0x1f/0x1a0\n");
	REQUIRE(classify(sb.buf, &h, &c));
	CHECK_STR(c.title.buf, "INFO: task hung in blkdev_put");
	crash_release(&c);
	hung_release(&h);
	hung_release(&other);
	sb_release(&err);
	sb_release(&sb);
}

/* The pid a report's first line names. */
TEST(hung_report_task)
{
	static const struct {
		const char *line;
		long long pid;
	} lines[] = {
		{ "[ 3.8] INFO: task insmod:139 blocked for more than 1 seconds.\n", 139 },
		{ "[ 3.8] INFO: task kworker/u4:1:88 blocked for more than 120 seconds.\n", 88 },
		{ "[ 3.8] INFO: task dd:246 blocked in I/O wait for more than 5 seconds.\n", 246 },
		{ "[ 3.8] Kernel panic - not syncing: Fatal exception\n", -1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		struct console_scan cs;

		console_scan_init(&cs);
		console_scan_feed(&cs, lines[i].line, strlen(lines[i].line));
		console_scan_finish(&cs);
		CHECKF(crash_report_task(&cs.rep[CRASH_GROUP_CRASH].r) == lines[i].pid,
		       "'%s': pid %lld, expected %lld", lines[i].line,
		       crash_report_task(&cs.rep[CRASH_GROUP_CRASH].r), lines[i].pid);
		console_scan_release(&cs);
	}
}

static void frame(struct strbuf *sb, unsigned long seq, const char *type,
		  const char *phase, const char *payload)
{
	channel_frame(sb, seq, type, phase, payload, strlen(payload));
}

/* The record in a run: kept, parsed into rs.hung; a bad one rejected with
 * its reason. */
TEST(records_hung)
{
	struct scenario s;
	struct records rs;
	struct strbuf sb = STRBUF_INIT;
	const char *rej;

	scenario_init(&s);
	records_init(&rs, &s, NULL, NULL, NULL);
	frame(&sb, 1, "hung", "monitor", record);
	frame(&sb, 2, "hung", "monitor", "hung 1 5.0\nt x\n");
	util_quiet = 1;
	records_feed(&rs, sb.buf, sb.len);
	records_finish(&rs);
	util_quiet = 0;
	rej = json_object_to_json_string(rs.rejections);
	CHECK_EQ_INT(rs.nrejections, 1);
	CHECK_CONTAINS(rej, "record 2: hung: line 2: expected 't PID COMM'");
	CHECK_EQ_INT(rs.hung.n, 2);
	CHECK(hung_find(&rs.hung, 139) != NULL);
	records_release(&rs);
	scenario_release(&s);
	sb_release(&sb);
}
