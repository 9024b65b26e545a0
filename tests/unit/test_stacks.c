// SPDX-License-Identifier: Apache-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "record/records.h"
#include "record/stacks.h"
#include "record/timeattr.h"
#include "result/build.h"
#include "result/result.h"
#include "lib/util.h"
#include "test.h"

static void parse_ok(const char *rel, struct stk_chunk *c)
{
	size_t len;
	char *buf = fixture(rel, &len);
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(stk_chunk_parse(c, buf, len, &err), 0);
	CHECK_STR(err.buf, "");
	sb_release(&err);
	free(buf);
}

/* A chunk that must be rejected: nothing partial comes back; returns the
 * message (static). */
static const char *bad(const char *text)
{
	static char msg[256];
	struct stk_chunk c = STK_CHUNK_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(stk_chunk_parse(&c, text, strlen(text), &err), -1);
	CHECK_EQ_INT(c.n, 0);
	CHECK(c.s == NULL && c.label == NULL);
	snprintf(msg, sizeof(msg), "%s", err.buf);
	stk_chunk_release(&c);
	sb_release(&err);
	return msg;
}

/* The guest's first rmmod chunk (Debian 6.1 amd64, x86_64-4000): samples
 * in order, each with rmmod (the job's child) among its tasks, waiting in
 * del_gendisk's teardown; no end yet.  Its third and last chunk ends with
 * the samples' count and the sampler's cost. */
TEST(stacks_parse_captured_chunks)
{
	struct stk_chunk c = STK_CHUNK_INIT;
	size_t with_rmmod = 0, in_del_gendisk = 0;

	parse_ok("stacks/amd64-rmmod-001.stacks", &c);
	CHECK_STR(c.label, "rmmod");
	CHECK_EQ_INT(c.chunk, 1);
	CHECK_STR(c.tasks, "sched-debug");
	CHECK(!c.has_end);
	REQUIRE(c.n > 10);
	for (size_t i = 0; i < c.n; i++) {
		const struct stk_sample *s = &c.s[i];

		if (i) {
			CHECK(s->n > c.s[i - 1].n);
			CHECK(s->t >= c.s[i - 1].t);
			CHECK(s->cost_us >= c.s[i - 1].cost_us);
		}
		for (size_t k = 0; k < s->ntasks; k++) {
			const struct stk_task *t = &s->tasks[k];

			CHECK(t->nframes <= STK_MAX_FRAMES);
			if (strcmp(t->comm, "rmmod") || t->ppid != s->job)
				continue;
			with_rmmod++;
			for (size_t f = 0; f < t->nframes; f++)
				if (!strncmp(t->frames[f], "del_gendisk+", 12)) {
					in_del_gendisk++;
					break;
				}
		}
	}
	CHECK(with_rmmod >= c.n - 1);
	CHECK(in_del_gendisk * 2 > with_rmmod);
	stk_chunk_release(&c);
	CHECK(c.s == NULL);

	/* i386 (686-pae, seed-i386-4000): the same teardown */
	parse_ok("stacks/i386-rmmod-001.stacks", &c);
	CHECK_STR(c.label, "rmmod");
	REQUIRE(c.n > 0);
	CHECK(c.s[0].job > 0);
	stk_chunk_release(&c);

	parse_ok("stacks/amd64-rmmod-003.stacks", &c);
	CHECK_EQ_INT(c.chunk, 3);
	REQUIRE(c.has_end && c.n > 0);
	CHECK_EQ_INT(c.end_n, c.s[c.n - 1].n);
	CHECK(c.end_t >= c.s[c.n - 1].t);
	CHECK(c.end_ticks > 0);
	stk_chunk_release(&c);
}

TEST(stacks_site_names)
{
	static char *waits[] = {
		"__schedule+0x2c5/0x8a0", "schedule+0x5a/0xd0",
		"blk_mq_freeze_queue_wait+0x92/0xd0", "del_gendisk+0x1d8/0x2e0",
		"sd_remove+0x2b/0x60 [sd_mod]", "device_release_driver_internal+0x1b2/0x230",
	};
	static char *rcu[] = {
		"__wait_rcu_gp+0x12b/0x140", "synchronize_rcu+0x71/0xb0",
		"del_gendisk+0x1fd/0x2e0", "sd_remove+0x2b/0x60 [sd_mod]",
	};
	static char *suffix[] = {
		"preempt_schedule_irq+0x1/0x2", "sd_revalidate_disk.isra.0+0x1/0x2 [sd_mod]",
		"do_syscall_64+0x5d/0xb0", "sd_probe.cold+0x9/0x10 [sd_mod]",
	};
	static char *user[] = {
		"exit_to_user_mode_prepare+0x17c/0x240", "syscall_exit_to_user_mode+0x17/0x40",
		"do_syscall_64+0x69/0xb0", "entry_SYSCALL_64_after_hwframe+0x6e/0xd8",
	};
	/* i386: preempted at an interrupt's return, in a retpoline thunk */
	static char *i386[] = {
		"raw_irqentry_exit_cond_resched+0x2c/0x30", "irqentry_exit+0x1f/0x40",
		"sysvec_apic_timer_interrupt+0x30/0x40", "handle_exception+0x133/0x133",
		"__x86_indirect_thunk_esi+0x20/0x20", "iterate_dir+0x17c/0x1d0",
		"__ia32_sys_getdents64+0x59/0xf0", "ia32_sys_call+0x1f45/0x28a0",
		"__do_fast_syscall_32+0x67/0xb0", "entry_SYSENTER_32+0x98/0xfb",
	};
	struct strbuf sb = STRBUF_INIT;

	stk_site(waits, ARRAY_SIZE(waits), &sb);
	CHECK_STR(sb.buf, "blk_mq_freeze_queue_wait <- del_gendisk <- sd_remove [sd_mod]");
	sb_reset(&sb);
	stk_site(rcu, ARRAY_SIZE(rcu), &sb);
	CHECK_STR(sb.buf, "synchronize_rcu <- del_gendisk <- sd_remove [sd_mod]");
	/* Suffixes cut; primitives between callers passed over. */
	sb_reset(&sb);
	stk_site(suffix, ARRAY_SIZE(suffix), &sb);
	CHECK_STR(sb.buf, "sd_revalidate_disk [sd_mod] <- sd_probe [sd_mod]");
	sb_reset(&sb);
	stk_site(user, ARRAY_SIZE(user), &sb);
	CHECK_STR(sb.buf, "(user space)");
	sb_reset(&sb);
	stk_site(NULL, 0, &sb);
	CHECK_STR(sb.buf, "(no stack)");
	sb_reset(&sb);
	stk_site(i386, ARRAY_SIZE(i386), &sb);
	CHECK_STR(sb.buf, "iterate_dir <- __ia32_sys_getdents64");
	CHECK_EQ_INT(stk_fold(user, ARRAY_SIZE(user)), ARRAY_SIZE(user));
	CHECK_EQ_INT(stk_fold(waits, ARRAY_SIZE(waits)), 2);
	sb_release(&sb);
}

TEST(stacks_malformed)
{
	CHECK_CONTAINS(bad(""), "no 'stacks 1 LABEL CHUNK TASKS' header");
	CHECK_CONTAINS(bad("stacks 2 rmmod 1 proc\n"), "line 1: expected 'stacks 1");
	CHECK_CONTAINS(bad("stacks 1 modprobe 1 proc\n"), "line 1: the label is not");
	CHECK_CONTAINS(bad("stacks 1 step-x 1 proc\n"), "line 1: the label is not");
	CHECK_CONTAINS(bad("stacks 1 rmmod 0 proc\n"), "line 1: bad chunk number");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 perf\n"), "line 1: the tasks' source");
	CHECK_CONTAINS(bad("s 1 1.0 0 -1\n"), "line 1: expected 'stacks 1");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 proc\nt 5 1 R 10 x\n"), "line 2: a task before any sample");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 proc\ns 1 1.0 0 -1\n frame+0x1/0x2\n"),
		       "line 3: a frame before any task");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 proc\ns 1 1.0 0 -1\ns 1 2.0 0 -1\n"),
		       "line 3: a sample out of order");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 proc\ns 1 2.0 0 -1\ns 2 1.0 0 -1\n"),
		       "line 3: a sample out of order");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 proc\ns 1 nan 0 -1\n"), "line 2: expected 's N");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 proc\ns 1 1.0 0 0\n"), "line 2: expected 's N");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 proc\ns 1 1.0 0 -1\nt 5 1 RR 10 x\n"),
		       "line 3: expected 't PID");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 proc\ns 1 1.0 0 -1\nt 0 1 R 10 x\n"),
		       "line 3: expected 't PID");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 proc\ns 1 1.0 0 -1\nt 5 1 R ten x\n"),
		       "line 3: bad schedstat");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 proc\ns 1 1.0 0 -1\nt 5 1 R 10\n"),
		       "line 3: expected 't PID");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 proc\ns 1 1.0 0 -1\nt 5 1 R 10 a\nt 5 1 R 10 b\n"),
		       "line 4: a task twice");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 proc\ns 1 1.0 5 -1\nend 1 0.5 5 1\n"),
		       "line 3: end does not follow");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 proc\ns 1 1.0 5 -1\nend 1 1.5 5 1\ns 2 2.0 5 -1\n"),
		       "line 4: a line after 'end'");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 proc\nhello\n"), "line 2: expected a sample");
	CHECK_CONTAINS(bad("stacks 1 rmmod 2 proc\nb 1.0\n"), "line 2: 'b' only once");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 proc\ns 1 1.0 0 -1\nb 0.5\n"), "line 3: 'b' only once");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 proc\nb 2.0\ns 1 1.0 0 -1\n"), "line 3: a sample before the sampler began");
	CHECK_CONTAINS(bad("stacks 1 rmmod 1 proc\nb x\n"), "line 2: expected 'b UPTIME'");
	{
		static const char nul[] = "stacks 1 rmmod 1 proc\ns 1 1.0 0 -1\nt 5 1 R 10 x\n f\0g\n";
		struct stk_chunk c = STK_CHUNK_INIT;
		struct strbuf err = STRBUF_INIT;

		CHECK_EQ_INT(stk_chunk_parse(&c, nul, sizeof(nul) - 1, &err), -1);
		CHECK_CONTAINS(err.buf, "line 4: a NUL byte");
		CHECK(c.s == NULL);
		sb_release(&err);
	}
	{
		/* 65 frames: one more than /proc/PID/stack ever gives. */
		struct strbuf sb = STRBUF_INIT;

		sb_adds(&sb, "stacks 1 rmmod 1 proc\ns 1 1.0 0 -1\nt 5 1 R 10 x\n");
		for (int i = 0; i <= STK_MAX_FRAMES; i++)
			sb_addf(&sb, " f%d+0x1/0x2\n", i);
		CHECK_CONTAINS(bad(sb.buf), "too many frames");
		sb_reset(&sb);
		sb_adds(&sb, "stacks 1 rmmod 1 proc\ns 1 1.0 0 -1\nt 5 1 R 10 ");
		for (int i = 0; i <= STK_COMM_MAX; i++)
			sb_addch(&sb, 'c');
		CHECK_CONTAINS(bad(sb.buf), "comm too long");
		sb_release(&sb);
	}
}

static void add_text(struct ta_run *r, const char *text, int want)
{
	struct stk_chunk c = STK_CHUNK_INIT;
	struct strbuf err = STRBUF_INIT;

	REQUIRE(stk_chunk_parse(&c, text, strlen(text), &err) == 0);
	CHECK_EQ_INT(ta_add(r, &c, &err), want);
	if (want < 0)
		CHECK(err.len > 0);
	stk_chunk_release(&c);
	sb_release(&err);
}

static json_object *site_of(json_object *label, const char *cls, const char *site)
{
	json_object *sites = jget(label, "sites");

	for (size_t i = 0; i < jlen(sites); i++) {
		json_object *s = json_object_array_get_idx(sites, i);

		if (!strcmp(jstr(s, "class", ""), cls) && !strcmp(jstr(s, "site", ""), site))
			return s;
	}
	return NULL;
}

/* The wall view: a sample's time until the next goes to the tasks in R
 * (shared), else those in D, else the command, else idle; its class from
 * its parent (the job's children are the command, kthreadd's the
 * kthreads). */
TEST(timeattr_wall_view)
{
	static const char chunk[] =
		"stacks 1 rmmod 1 proc\n"
		/* the sampler began at 9.5: its first sample stands for 0.5 s more */
		"b 9.5\n"
		/* t=10: kworker R and rmmod D: 1.5 s on the CPU to the kworker */
		"s 1 10.0 0 40\n"
		"t 7 2 R 100 kworker/0:1\n scsi_remove_host+0x1/0x2 [scsi_mod]\n kthread+0x1/0x2\n"
		"t 41 40 D 1000000000 rmmod\n __schedule+0x1/0x2\n synchronize_rcu+0x1/0x2\n"
		" del_gendisk+0x1/0x2\n"
		/* t=11: rmmod D alone: 2 s waiting; it ran 0.5 s meanwhile */
		"s 2 11.0 10 40\n"
		"t 41 40 D 1500000000 rmmod\n __schedule+0x1/0x2\n synchronize_rcu+0x1/0x2\n"
		" del_gendisk+0x1/0x2\n"
		/* t=13: rmmod S: 1 s to it, waiting */
		"s 3 13.0 20 40\n"
		"t 41 40 S 1500000000 rmmod\n __schedule+0x1/0x2\n do_wait+0x1/0x2\n";
	static const char chunk2[] =
		"stacks 1 rmmod 2 proc\n"
		/* t=14: nothing: 0.5 s idle, until the end */
		"s 4 14.0 30 40\n"
		"end 4 14.5 40000 7\n";
	struct ta_run r;
	json_object *o, *l, *s;

	ta_init(&r);
	add_text(&r, chunk, 0);
	add_text(&r, chunk2, 0);
	o = ta_json(&r);
	REQUIRE(o != NULL);
	CHECK_STR(jstr(o, "status", ""), "ok");
	l = json_object_array_get_idx(jget(o, "labels"), 0);
	CHECK_STR(jstr(l, "label", ""), "rmmod");
	CHECK(json_object_get_boolean(jget(l, "complete")));
	CHECK_EQ_INT(jint(l, "samples", 0), 4);
	CHECK(fabs(jdouble(l, "span_s", 0) - 5) < 1e-9);
	CHECK(fabs(jdouble(l, "on_cpu_s", 0) - 1.5) < 1e-9);
	CHECK(fabs(jdouble(l, "wait_s", 0) - 3) < 1e-9);
	CHECK(fabs(jdouble(l, "idle_s", 0) - 0.5) < 1e-9);
	CHECK(fabs(jdouble(l, "cost_s", 0) - 0.04) < 1e-9);
	CHECK(fabs(jdouble(l, "command_cpu_s", 0) - 0.5) < 1e-9);
	s = site_of(l, "kthread", "scsi_remove_host [scsi_mod] <- kthread");
	REQUIRE(s != NULL);
	CHECK(fabs(jdouble(s, "on_cpu_s", 0) - 1.5) < 1e-9);
	CHECK_STR(jstr(s, "comm", ""), "kworker/N:N");
	s = site_of(l, "command", "synchronize_rcu <- del_gendisk");
	REQUIRE(s != NULL);
	CHECK(fabs(jdouble(s, "wait_s", 0) - 2) < 1e-9);
	s = site_of(l, "command", "do_wait");
	REQUIRE(s != NULL);
	CHECK(fabs(jdouble(s, "wait_s", 0) - 1) < 1e-9);
	CHECK(site_of(l, "none", "(idle)") != NULL);
	/* The flame graph's stacks, outermost first, with the class. */
	CHECK_STR(jstr(json_object_array_get_idx(jget(l, "stacks"), 0), "stack", ""),
		  "command;del_gendisk;synchronize_rcu;__schedule");
	json_object_put(o);
	ta_release(&r);
}

/* Order: a label's first chunk first, its chunks in turn, nothing after
 * its end, never back in time; a bad chunk changes nothing. */
TEST(timeattr_order)
{
	struct ta_run r;
	json_object *o;

	ta_init(&r);
	add_text(&r, "stacks 1 rmmod 2 proc\ns 1 1.0 0 -1\n", -1);
	add_text(&r, "stacks 1 rmmod 1 proc\ns 1 1.0 0 -1\n", 0);
	add_text(&r, "stacks 1 rmmod 3 proc\ns 2 2.0 0 -1\n", -1);
	add_text(&r, "stacks 1 rmmod 2 proc\ns 1 2.0 0 -1\n", -1);
	add_text(&r, "stacks 1 rmmod 2 proc\ns 2 0.5 0 -1\n", -1);
	add_text(&r, "stacks 1 rmmod 2 proc\ns 2 2.0 0 -1\nend 2 3.0 0 1\n", 0);
	add_text(&r, "stacks 1 rmmod 3 proc\ns 3 4.0 0 -1\n", -1);
	add_text(&r, "stacks 1 insmod 1 proc\nend 0 5.0 0 1\n", 0);
	o = ta_json(&r);
	CHECK_EQ_INT(jlen(jget(o, "labels")), 2);
	CHECK_EQ_INT(jint(json_object_array_get_idx(jget(o, "labels"), 0), "samples", 0), 2);
	CHECK(fabs(jdouble(json_object_array_get_idx(jget(o, "labels"), 0), "span_s", 0) - 2) < 1e-9);
	json_object_put(o);
	ta_release(&r);

	/* Samples that found nothing before the first that found a task: the
	 * command was starting; their time goes to what that one found. */
	ta_init(&r);
	add_text(&r, "stacks 1 insmod 1 proc\nb 1.0\ns 1 1.2 0 9\ns 2 1.5 0 9\nt 10 9 R 5 insmod\n"
		 "end 2 2.0 0 1\n", 0);
	o = ta_json(&r);
	CHECK(fabs(jdouble(json_object_array_get_idx(jget(o, "labels"), 0), "on_cpu_s", 0) - 1) < 1e-9);
	CHECK(fabs(jdouble(json_object_array_get_idx(jget(o, "labels"), 0), "idle_s", -1)) < 1e-9);
	json_object_put(o);
	ta_release(&r);

	/* Nothing sent: no section; only the reason: unavailable. */
	ta_init(&r);
	CHECK(ta_json(&r) == NULL);
	ta_unavailable(&r, "no /proc/PID/stack");
	o = ta_json(&r);
	CHECK_STR(jstr(o, "status", ""), "unavailable");
	CHECK_STR(jstr(o, "reason", ""), "no /proc/PID/stack");
	json_object_put(o);
	ta_release(&r);
}

/* The three captured rmmod chunks in order: the label is complete, its
 * sites and idle time add up to its span, rmmod's own CPU time from
 * schedstat is there, and the largest site is the command's. */
TEST(timeattr_captured_rmmod)
{
	static const char *const files[] = {
		"stacks/amd64-rmmod-001.stacks", "stacks/amd64-rmmod-002.stacks",
		"stacks/amd64-rmmod-003.stacks",
	};
	struct ta_run r;
	json_object *o, *l, *sites;
	double sum;

	ta_init(&r);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		struct stk_chunk c = STK_CHUNK_INIT;
		struct strbuf err = STRBUF_INIT;

		parse_ok(files[i], &c);
		CHECK_EQ_INT(ta_add(&r, &c, &err), 0);
		CHECK_STR(err.buf, "");
		stk_chunk_release(&c);
		sb_release(&err);
	}
	o = ta_json(&r);
	l = json_object_array_get_idx(jget(o, "labels"), 0);
	CHECK(json_object_get_boolean(jget(l, "complete")));
	sum = jdouble(l, "other_s", 0);
	sites = jget(l, "sites");
	for (size_t i = 0; i < jlen(sites); i++)
		sum += jdouble(json_object_array_get_idx(sites, i), "s", 0);
	/* each figure rounded to 1 ms */
	CHECK(fabs(sum - jdouble(l, "span_s", -1)) < 0.001 * (double)(jlen(sites) + 3));
	CHECK(fabs(jdouble(l, "on_cpu_s", 0) + jdouble(l, "wait_s", 0) + jdouble(l, "idle_s", 0) -
		   jdouble(l, "span_s", -1)) < 0.005);
	CHECK(jdouble(l, "command_cpu_s", 0) > 0);
	CHECK_STR(jstr(json_object_array_get_idx(sites, 0), "class", ""), "command");
	CHECK(jdouble(json_object_array_get_idx(sites, 0), "wait_s", 0) >
	      jdouble(json_object_array_get_idx(sites, 0), "on_cpu_s", 0));
	json_object_put(o);
	ta_release(&r);
}

static void frame(struct strbuf *sb, unsigned long seq, const char *type,
		  const char *phase, const char *payload)
{
	channel_frame(sb, seq, type, phase, payload, strlen(payload));
}

/* In a run: stacks only in their phase (rmmod after the I/O, insmod
 * before after-insmod, a sweep's step during its step), labelled as their
 * record; the guest's setup record names the preemption or why there is
 * none; what is rejected is said. */
TEST(records_stacks)
{
	static const char rm[] = "stacks 1 rmmod 1 sched-debug\ns 1 1.0 0 -1\nend 1 2.0 5 1\n";
	static const char ins[] = "stacks 1 insmod 1 proc\ns 1 1.0 0 -1\nend 1 2.0 5 1\n";
	struct scenario s;
	struct records rs;
	struct strbuf sb = STRBUF_INIT;
	const char *rej;
	json_object *o;

	scenario_init(&s);
	records_init(&rs, &s, NULL, NULL, NULL);
	frame(&sb, 1, "timeattr", "before-insmod", "status=ok\ntasks=sched-debug\npreempt=full\n");
	frame(&sb, 2, "mark", "boot", "1.0\n");
	frame(&sb, 3, "mark", "before-insmod", "2.0\n");
	frame(&sb, 4, "stacks", "rmmod", rm);		/* too early */
	frame(&sb, 5, "stacks", "insmod", rm);		/* labelled rmmod */
	frame(&sb, 6, "stacks", "insmod", ins);
	frame(&sb, 7, "stacks", "step-1", "stacks 1 step-1 1 proc\n");	/* no sweep */
	frame(&sb, 8, "stacks", "insmod", "stacks 1 insmod 1 proc\ns x\n");
	frame(&sb, 9, "timeattr", "before-insmod", "status=unavailable\nreason=twice\n");
	util_quiet = 1;
	records_feed(&rs, sb.buf, sb.len);
	records_finish(&rs);
	util_quiet = 0;
	rej = json_object_to_json_string(rs.rejections);
	CHECK_EQ_INT(rs.nrejections, 5);
	CHECK_CONTAINS(rej, "record 4: stacks for 'rmmod' outside its phase");
	CHECK_CONTAINS(rej, "record 5: stacks for 'insmod' labelled 'rmmod'");
	CHECK_CONTAINS(rej, "record 7: stacks for 'step-1' outside its phase");
	CHECK_CONTAINS(rej, "record 8: stacks for 'insmod': line 2:");
	CHECK_CONTAINS(rej, "record 9: timeattr: a second timeattr record");
	o = ta_json(&rs.ta);
	CHECK_STR(jstr(o, "preempt", ""), "full");
	CHECK_EQ_INT(jlen(jget(o, "labels")), 1);
	json_object_put(o);
	records_release(&rs);

	/* Unavailable: the reason, cleaned. */
	sb_reset(&sb);
	records_init(&rs, &s, NULL, NULL, NULL);
	frame(&sb, 1, "timeattr", "before-insmod", "status=unavailable\nreason=no \xc2\x9b stack\n");
	records_feed(&rs, sb.buf, sb.len);
	records_finish(&rs);
	o = ta_json(&rs.ta);
	CHECK_STR(jstr(o, "status", ""), "unavailable");
	CHECK_STR(jstr(o, "reason", ""), "no ? stack");
	json_object_put(o);
	records_release(&rs);
	scenario_release(&s);
	sb_release(&sb);
}
