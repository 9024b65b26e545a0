// SPDX-License-Identifier: Apache-2.0
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "helpers.h"
#include "lib/strbuf.h"
#include "record/records.h"
#include "result/analysis.h"
#include "result/build.h"
#include "result/result.h"
#include "report/html.h"
#include "report/junit.h"
#include "report/markdown.h"
#include "report/model.h"
#include "report/text.h"
#include "lib/util.h"
#include "test.h"

struct seen {
	int phases, ends, last_phase;
	int progress;
	double t;
	long long blocks, queues;
};

static void saw_phase(void *ctx, int phase, double up)
{
	struct seen *s = ctx;

	(void)up;
	s->phases++;
	s->last_phase = phase;
}

static void saw_end(void *ctx)
{
	((struct seen *)ctx)->ends++;
}

static void saw_progress(void *ctx, double t, long long blocks, long long queues)
{
	struct seen *s = ctx;

	s->progress++;
	s->t = t;
	s->blocks = blocks;
	s->queues = queues;
}

static const struct records_ops ops = {
	.phase = saw_phase, .progress = saw_progress, .end = saw_end,
};

/* A default scenario's records and the frames to feed them; what the
 * records call (with ops, NULL: nothing) is counted in seen. */
struct feed {
	struct scenario s;
	struct records rs;
	struct seen seen;
	struct strbuf sb;
};

static void feed_start(struct feed *f, const struct records_ops *o)
{
	f->seen = (struct seen){ 0, 0, -1, 0, 0, 0, 0 };
	f->sb = (struct strbuf)STRBUF_INIT;
	scenario_init(&f->s);
	records_init(&f->rs, &f->s, NULL, o, o ? &f->seen : NULL);
}

static void feed_release(struct feed *f)
{
	records_release(&f->rs);
	scenario_release(&f->s);
	sb_release(&f->sb);
}

static void frame(struct strbuf *sb, unsigned long seq, const char *type,
		  const char *phase, const char *payload)
{
	channel_frame(sb, seq, type, phase, payload, strlen(payload));
}

/* frame() of a payload made as printf makes it. */
static void framef(struct strbuf *sb, unsigned long seq, const char *type,
		   const char *phase, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void framef(struct strbuf *sb, unsigned long seq, const char *type,
		   const char *phase, const char *fmt, ...)
{
	struct strbuf p = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(&p, fmt, ap);
	va_end(ap);
	frame(sb, seq, type, phase, p.buf);
	sb_release(&p);
}

/* A monitor sample's block count is kept with its memory (and a bad one
 * rejected), but the live line comes from progress records only: each good
 * one reaches the callback and counts, with the cost it carries; malformed
 * ones are rejected with their reason and reach nothing. */
TEST(records_progress_reaches_ops_samples_do_not)
{
	static const char body[] = "@@@ meminfo\nMemFree: 1000 kB\n@@@ slabinfo\n"
		"slabinfo - version: 2.1\n# name <active_objs> <num_objs> <objsize> "
		"<objperslab> <pagesperslab> : tunables <limit> <batchcount> "
		"<sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n"
		"@@@ vmstat\nnr_free_pages 10\n";
	static const struct {
		const char *payload, *why;
	} bad[] = {
		{ "7.50 1x 3\n", "bad block device count '1x'" },
		{ "7.50 10\n", "not UPTIME BLOCKS CPU [QUEUES]" },
		{ "7.50 10 2 9 1\n", "not UPTIME BLOCKS CPU [QUEUES]" },
		{ "7.50 10 2 -2\n", "bad request queue count '-2'" },
		{ "7.50 10 2 4q\n", "bad request queue count '4q'" },
		{ "8.0 10 2\nextra\n", "not one line" },
		{ "8.0 10 2", "not one line" },
		{ "", "not one line" },
		{ "-1 10 0\n", "bad uptime '-1'" },
		{ "nan 10 0\n", "bad uptime 'nan'" },
		{ "9.0 10 -1\n", "bad CPU ticks '-1'" },
		{ "9.0 99999999999 0\n", "bad block device count '99999999999'" },
	};
	struct scenario s;
	struct records rs;
	struct seen seen = { 0, 0, -1, 0, 0, -1, 0 };
	struct strbuf sb = STRBUF_INIT, p = STRBUF_INIT;
	unsigned long seq = 0;
	const char *rej;

	scenario_init(&s);
	records_init(&rs, &s, NULL, &ops, &seen);
	sb_addf(&p, "@@@ sample 1 5.50 insmod\n%s", body);
	frame(&sb, ++seq, "sample", "monitor", p.buf);
	sb_reset(&p);
	sb_addf(&p, "@@@ sample 2 6.50 insmod 1042\n%s", body);
	frame(&sb, ++seq, "sample", "monitor", p.buf);
	sb_reset(&p);
	sb_addf(&p, "@@@ sample 3 7.50 insmod 1x\n%s", body);
	frame(&sb, ++seq, "sample", "monitor", p.buf);
	frame(&sb, ++seq, "progress", "after-insmod", "6.25 1000 0\n");
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		frame(&sb, ++seq, "progress", "after-insmod", bad[i].payload);
	frame(&sb, ++seq, "progress", "after-insmod", "9.75 1100 7\n");
	/* A guest since the scan's count: the request queues made, 0 block
	 * devices yet. */
	frame(&sb, ++seq, "progress", "after-insmod", "10.5 2 9 30000\n");
	records_feed_all(&rs, sb.buf, sb.len);
	CHECK_EQ_INT((long long)json_object_array_length(rs.samples), 2);
	CHECK_EQ_INT(json_object_get_int64(json_object_object_get(
		json_object_array_get_idx(rs.samples, 1), "blocks")), 1042);
	CHECK_EQ_INT(seen.progress, 3);
	CHECK(seen.t > 10.4 && seen.t < 10.6);
	CHECK_EQ_INT(seen.blocks, 2);
	CHECK_EQ_INT(seen.queues, 30000);
	CHECK_EQ_INT(rs.progress_records, 3);
	CHECK_EQ_INT(rs.progress_cpu, 9);
	CHECK_EQ_INT((long long)rs.nrejections, (long long)ARRAY_SIZE(bad) + 1);
	rej = json_object_to_json_string(rs.rejections);
	CHECK_CONTAINS(rej, "monitor sample: bad block device count");
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK_CONTAINS(rej, bad[i].why);
	records_release(&rs);
	scenario_release(&s);
	sb_release(&sb);
	sb_release(&p);
}

/* Each 'end' record used to move the deadline on: only the first counts. */
TEST(records_only_the_first_end_counts)
{
	struct feed f;

	feed_start(&f, &ops);
	frame(&f.sb, 1, "mark", "boot", "3.10\n");
	frame(&f.sb, 2, "end", "boot", "status=fail\nreason=first\n");
	frame(&f.sb, 3, "end", "boot", "status=pass\n");
	frame(&f.sb, 4, "end", "boot", "status=pass\n");
	records_feed_all(&f.rs, f.sb.buf, f.sb.len);
	CHECK_EQ_INT(f.seen.phases, 1);
	CHECK_EQ_INT(f.seen.ends, 1);
	CHECK(f.rs.got_end);
	CHECK_STR(f.rs.end_status, "fail");
	CHECK_STR(f.rs.end_reason, "first");
	CHECK_EQ_INT(f.rs.nrejections, 2);
	CHECK_CONTAINS(records_rejection(&f.rs, 0), "a second end record");
	feed_release(&f);
}

TEST(records_reject_unknown_types_and_phases_out_of_order)
{
	struct feed f;

	feed_start(&f, &ops);
	frame(&f.sb, 1, "mark", "before-insmod", "5.00\n");
	frame(&f.sb, 2, "mark", "boot", "6.00\n");		/* backwards */
	frame(&f.sb, 3, "bogus", "boot", "x");
	frame(&f.sb, 4, "meminfo", "after-io", "MemFree: 1 kB\n");	/* not this phase */
	frame(&f.sb, 5, "mark", "after-insmod", "-1\n");		/* bad uptime */
	records_feed_all(&f.rs, f.sb.buf, f.sb.len);
	CHECK_EQ_INT(f.seen.phases, 1);
	CHECK_EQ_INT(f.seen.last_phase, PHASE_BEFORE_INSMOD);
	CHECK_EQ_INT(f.rs.phase, PHASE_BEFORE_INSMOD);
	CHECK_EQ_INT(f.rs.nrejections, 4);
	CHECK_CONTAINS(records_rejection(&f.rs, 0), "unexpected phase 'boot'");
	CHECK_CONTAINS(records_rejection(&f.rs, 1), "unknown type 'bogus'");
	CHECK_CONTAINS(records_rejection(&f.rs, 2), "outside that phase");
	CHECK_CONTAINS(records_rejection(&f.rs, 3), "bad uptime");
	feed_release(&f);
}

/* A run that ended at a deadline: the status says which phase was late,
 * whatever the checks say; the host's clock lands in each phase. */
TEST(result_build_timeout_names_the_late_phase)
{
	struct feed f;
	struct console_scan cs;
	json_object *host = host_new(), *root;
	enum run_status st;

	feed_start(&f, NULL);
	frame(&f.sb, 1, "mark", "boot", "3.10\n");
	frame(&f.sb, 2, "mark", "before-insmod", "4.20\n");
	records_feed(&f.rs, f.sb.buf, f.sb.len);
	records_finish(&f.rs);
	console_scan_init(&cs);
	host_phase(host, "boot", 7.5);
	json_object_object_add(host, "booted", json_object_new_boolean(1));
	json_object_object_add(host, "timed_out", json_object_new_boolean(1));
	root = result_build(&f.s, &f.rs, &cs, host, &st);
	CHECK_EQ_INT(st, RUN_TIMEOUT);
	CHECK_STR(jstr(root, "status", ""), "timeout");
	CHECK_CONTAINS(jstr(root, "reason", ""), "phase 'after-insmod' not reached in time");
	CHECK_CONTAINS(jstr(root, "reason", ""), "last reached: 'before-insmod'");
	CHECK(jdouble(root, "timings.boot_s", -1) == 7.5);
	CHECK(jget(json_object_array_get_idx(jget(root, "phases"), 1), "host_s") == NULL);
	json_object_put(root);
	json_object_put(host);
	console_scan_release(&cs);
	feed_release(&f);
}

/* Invalid UTF-8 and C0/C1 controls from the guest: a kv value, an end
 * reason, an io error, fio's first line, fio's job name, a rejection that
 * quotes the guest.  They used to reach result.json as they came, making it,
 * report.md/html and junit.xml invalid UTF-8 (xmllint refused the JUnit),
 * and a C1 CSI reached the terminal summary. */
TEST(records_hostile_bytes_are_cleaned)
{
	static const char hostile[] = "a\xc2\x9b" "31mred\xff\xfe\xed\xa0\x80z\xc3\xa9";
	struct feed f;
	struct console_scan cs;
	enum run_status st;
	json_object *host, *root;
	const char *text;

	feed_start(&f, NULL);
	frame(&f.sb, 1, "mark", "boot", "3.10\n");
	framef(&f.sb, 2, "info", "boot", "kernel=%s\nnote=x\n", hostile);
	framef(&f.sb, 3, "io", "boot", "disk=vd%s ok=0 error=%s\n", hostile, hostile);
	framef(&f.sb, 4, "fiolog", "sample", "fio: %s\x1b[2J\nmore\n", hostile);
	framef(&f.sb, 5, "fio", "sample",
	       "{\"jobs\": [{\"jobname\": \"%s\\u0085\\u009b\", \"error\": 0}]}", hostile);
	framef(&f.sb, 6, "io", "boot", "bad=%s word\xc2\x85=1\n", hostile);
	framef(&f.sb, 7, "end", "boot", "status=fail\nreason=%s\n", hostile);
	stderr_capture_begin();
	records_feed(&f.rs, f.sb.buf, f.sb.len);
	records_finish(&f.rs);
	char *warnings = stderr_capture_end();
	CHECK(text_is_clean(warnings, strlen(warnings), 1));
	free(warnings);

	CHECK_STR(f.rs.end_reason, "a?31mred?????z\xc3\xa9");
	console_scan_init(&cs);
	console_scan_finish(&cs);
	host = host_new();
	root = result_build(&f.s, &f.rs, &cs, host, &st);
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY);
	CHECK(text_is_clean(text, strlen(text), 1));
	CHECK_STR(jstr(root, "guest.kernel", NULL), "a?31mred?????z\xc3\xa9");
	CHECK_STR(jstr(f.rs.fio_groups, "sample.message", NULL), "fio: a?31mred?????z\xc3\xa9?[2J");
	CHECK_STR(jstr(json_object_array_get_idx(f.rs.fio_jobs, 0), "job", NULL),
		  "a?31mred?????z\xc3\xa9??");
	text = json_object_to_json_string(f.rs.rejections);
	CHECK(text_is_clean(text, strlen(text), 0));
	CHECK_CONTAINS(text, "word?=1");	/* U+0085, a C1 control */
	text = json_object_to_json_string(f.rs.io);
	CHECK_CONTAINS(text, "vda?31mred?????z\xc3\xa9");

	/* And every report of it (report/model.c cleans a damaged tree too). */
	json_object_put(root);
	json_object_put(host);
	console_scan_release(&cs);
	feed_release(&f);
}

/* The same bytes written straight into a result.json (damaged, edited by
 * hand or made by another tool): the model reads a cleaned copy, so no
 * writer prints them. */
TEST(records_report_of_hostile_result_is_clean)
{
	static const char hostile[] = "a\xc2\x9b" "31mred\xff\xfe\xed\xa0\x80z\x01";
	json_object *root = result_new(), *guest = json_object_new_object();
	struct report_model m;
	struct strbuf sb = STRBUF_INIT;

	json_object_object_add(root, "status", json_object_new_string("fail"));
	json_object_object_add(root, "reason", json_object_new_string(hostile));
	json_object_object_add(root, "run_id", json_object_new_string(hostile));
	json_object_object_add(guest, hostile, json_object_new_string(hostile));
	json_object_object_add(root, "guest", guest);
	report_model_from_json(root, &m);
	CHECK_STR(m.reason, "a?31mred?????z?");
	text_run(&m, &sb);
	CHECK(text_is_clean(sb.buf, sb.len, 1));
	sb_reset(&sb);
	markdown_run(&m, &sb);
	CHECK(text_is_clean(sb.buf, sb.len, 1));
	sb_reset(&sb);
	html_run(&m, &sb);
	CHECK(text_is_clean(sb.buf, sb.len, 1));
	sb_reset(&sb);
	junit_run(&m, &sb);
	CHECK(text_is_clean(sb.buf, sb.len, 1));
	CHECK_CONTAINS(sb.buf, "a?31mred?????z?");
	report_model_release(&m);
	/* The caller's tree is left as it was. */
	CHECK_STR(jstr(root, "reason", NULL), hostile);
	json_object_put(root);
	sb_release(&sb);
}

/* pageowner records: before then after makes attribution.sources.page_owner;
 * a second one, an after without a before, a malformed one or an unknown
 * phase are rejected by name; the attr record's page_owner=unavailable
 * gives the source a status and the guest's reason. */
TEST(records_pageowner)
{
	static const char before[] = "pageowner 1 page_owner\n1 0\n post_alloc_hook+0x1/0x2\n"
		" sd_probe+0x1/0x2 [sd_mod]\nend 1\n";
	static const char after[] = "pageowner 1 page_owner\n4 0\n post_alloc_hook+0x1/0x2\n"
		" sd_probe+0x1/0x2 [sd_mod]\nend 1\n";
	struct feed f;
	const char *rej;

	feed_start(&f, &ops);
	frame(&f.sb, 1, "pageowner", "after-insmod", after);
	frame(&f.sb, 2, "pageowner", "before-insmod", before);
	frame(&f.sb, 3, "pageowner", "before-insmod", before);
	frame(&f.sb, 4, "pageowner", "after-io", after);
	frame(&f.sb, 5, "pageowner", "after-insmod", after);
	frame(&f.sb, 6, "attr", "after-insmod", "status=unavailable\nreason=no tracefs\n"
	      "page_owner=ok\npage_owner_file=page_owner\npage_owner_before_cs=150\n"
	      "page_owner_after_cs=210\n");
	records_feed_all(&f.rs, f.sb.buf, f.sb.len);
	rej = json_object_to_json_string(f.rs.rejections);
	CHECK_EQ_INT(f.rs.nrejections, 3);
	CHECK_CONTAINS(rej, "record 1: pageowner after insmod without one before");
	CHECK_CONTAINS(rej, "record 3: a second pageowner for 'before-insmod'");
	CHECK_CONTAINS(rej, "record 4: pageowner for an unknown phase 'after-io'");
	CHECK_STR(jstr(f.rs.attribution, "sources.page_owner.status", ""), "ok");
	CHECK_EQ_INT(jint(f.rs.attribution, "sources.page_owner.bytes", -1), 3 * 4096);
	CHECK_STR(jstr(json_object_array_get_idx(jget(f.rs.attribution, "sources.page_owner.sites"), 0), "site", ""), "sd_probe [sd_mod]");
	CHECK(jget(f.rs.attribution, "sources.page_owner.read_after_s") != NULL);
	records_release(&f.rs);

	/* Malformed, then the guest saying why there is none. */
	sb_reset(&f.sb);
	records_init(&f.rs, &f.s, NULL, &ops, &f.seen);
	frame(&f.sb, 1, "pageowner", "before-insmod", "pageowner 1 page_owner\n1 0\n");
	frame(&f.sb, 2, "attr", "after-insmod", "status=ok\nkey=stacktrace\n"
	      "page_owner=unavailable\npage_owner_reason=no /sys/kernel/debug/page_owner\n");
	records_feed_all(&f.rs, f.sb.buf, f.sb.len);
	CHECK_EQ_INT(f.rs.nrejections, 1);
	CHECK_CONTAINS(json_object_to_json_string(f.rs.rejections),
		       "record 1: pageowner for 'before-insmod': line 2: cut off (no end line)");
	CHECK_STR(jstr(f.rs.attribution, "sources.page_owner.status", ""), "unavailable");
	CHECK_STR(jstr(f.rs.attribution, "sources.page_owner.reason", ""),
		  "no /sys/kernel/debug/page_owner");
	feed_release(&f);
}

/* A sweep with attribution: each step's stephist records (captured from a
 * real smoke run, 0 then 20 disks) after its point make attribution.steps;
 * one for a step whose point has not come, a second one, an unknown source
 * or step and a malformed hist are rejected by name, and the good ones
 * still count.  The analysis then fits each site over the steps. */
TEST(records_stephist)
{
	static const char *const sets[] = { "disks=20", "sweep=0,20", "attribution=1" };
	struct scenario s;
	struct records rs;
	struct seen seen = { 0, 0, -1, 0, 0, 0, 0 };
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	size_t n[6];
	char *f[6] = {
		fixture("sweep/x86_64-step1-0disks.txt", &n[0]),
		fixture("attribution/amd64-step1-page-alloc.hist", &n[1]),
		fixture("attribution/amd64-step1-page-free.hist", &n[2]),
		fixture("sweep/x86_64-step2-20disks.txt", &n[3]),
		fixture("attribution/amd64-step2-page-alloc.hist", &n[4]),
		fixture("attribution/amd64-step2-page-free.hist", &n[5]),
	};
	json_object *root, *st, *fit, *blk = NULL;
	const char *rej;

	scenario_init(&s);
	for (size_t i = 0; i < ARRAY_SIZE(sets); i++)
		REQUIRE(scenario_set(&s, sets[i], "--set", &err) == 0);
	records_init(&rs, &s, NULL, &ops, &seen);
	frame(&sb, 1, "mark", "before-insmod", "3.1\n");
	frame(&sb, 2, "stephist", "page-alloc-1", "");	/* before its point */
	channel_frame(&sb, 3, "point", "sweep", f[0], n[0]);
	channel_frame(&sb, 4, "stephist", "page-alloc-1", f[1], n[1]);
	channel_frame(&sb, 5, "stephist", "page-free-1", f[2], n[2]);
	channel_frame(&sb, 6, "stephist", "page-free-1", f[2], n[2]);
	channel_frame(&sb, 7, "point", "sweep", f[3], n[3]);
	channel_frame(&sb, 8, "stephist", "page-alloc-1", f[1], n[1]);	/* late */
	frame(&sb, 9, "stephist", "page-free-2", "{ order: 0 } hitcount: x\n");
	channel_frame(&sb, 10, "stephist", "page-alloc-2", f[4], n[4]);
	channel_frame(&sb, 11, "stephist", "page-free-2", f[5], n[5]);
	channel_frame(&sb, 12, "stephist", "kmalloc-2", f[5], n[5]);
	channel_frame(&sb, 13, "stephist", "page-alloc-x", f[5], n[5]);
	channel_frame(&sb, 14, "stephist", "page-alloc-99", f[5], n[5]);
	frame(&sb, 15, "attr", "after-insmod", "status=ok\nkey=stacktrace\nstart_cs=39\n"
	      "collect_cs=907\nsteps_cs=412\n");
	records_feed_all(&rs, sb.buf, sb.len);
	rej = json_object_to_json_string(rs.rejections);
	CHECK_EQ_INT(rs.nrejections, 7);
	CHECK_CONTAINS(rej, "record 2: stephist for step 1, not right after its point");
	CHECK_CONTAINS(rej, "record 6: a second stephist 'page-free-1'");
	CHECK_CONTAINS(rej, "record 8: stephist for step 1, not right after its point");
	CHECK_CONTAINS(rej, "record 9: stephist 'page-free-2': line 1:");
	CHECK_CONTAINS(rej, "record 12: stephist for an unknown source or step 'kmalloc-2'");
	CHECK_CONTAINS(rej, "record 13: stephist for an unknown source or step 'page-alloc-x'");
	CHECK_CONTAINS(rej, "record 14: stephist for an unknown source or step 'page-alloc-99'");
	st = jget(rs.attribution, "steps");
	REQUIRE(jlen(st) == 2);
	CHECK_EQ_INT(jint(json_object_array_get_idx(st, 0), "disks", -1), 0);
	CHECK_EQ_INT(jint(json_object_array_get_idx(st, 1), "disks", -1), 20);
	CHECK_EQ_INT(jint(json_object_array_get_idx(st, 0), "page_alloc_bytes", -1), 5652480);
	CHECK_EQ_INT(jint(json_object_array_get_idx(st, 1), "page_free_bytes", -1), 12169216);
	CHECK(jdouble(rs.attribution, "steps_read_s", 0) > 4.119 &&
	      jdouble(rs.attribution, "steps_read_s", 0) < 4.121);

	root = json_object_new_object();
	json_object_object_add(root, "deltas", json_tokener_parse(
		"{\"insmod\": {\"MemFree_kb\": -10000, \"VmallocUsed_kb\": 0}}"));
	analysis_attribution(root, &s, rs.attribution);
	st = jget(root, "attribution.steps");
	REQUIRE(jlen(st) == 2);
	CHECK_EQ_INT(jint(json_object_array_get_idx(st, 1), "net_bytes", -1),
		     18288640 - 12169216);
	CHECK_EQ_INT(jlen(jget(json_object_array_get_idx(st, 1), "sites")), ATTR_STEP_SITES);
	CHECK_STR(jstr(json_object_array_get_idx(jget(json_object_array_get_idx(st, 1), "sites"), 0),
		       "site", ""), "blk_mq_alloc_map_and_rqs");
	fit = jget(root, "attribution.step_fit");
	REQUIRE(jlen(fit) > 0 && jlen(fit) <= ATTR_STEP_FIT_SITES);
	for (size_t i = 0; i < jlen(fit); i++) {
		json_object *o = json_object_array_get_idx(fit, i);
		if (!strcmp(jstr(o, "site", ""), "blk_mq_alloc_map_and_rqs"))
			blk = o;
	}
	REQUIRE(blk);
	/* Two points: the line through them, no R². */
	CHECK_EQ_INT(jint(blk, "points", 0), 2);
	CHECK_EQ_INT(jint(blk, "bytes_per_disk", 0), 4096000 / 20);
	CHECK_EQ_INT(jint(blk, "fixed_bytes", -1), 0);
	CHECK(jget(blk, "r2") == NULL);
	json_object_put(root);
	records_release(&rs);
	scenario_release(&s);
	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		free(f[i]);
	sb_release(&sb);
	sb_release(&err);
}

/* A "snapshot" record (lib/channel.sh's snapshot) gives a phase what its three
 * older records, mark, meminfo and slabinfo, gave; one missing a section,
 * or out of order, is rejected once and leaves nothing behind. */
TEST(records_snapshot_is_its_three_records)
{
	static const char mem[] = "MemTotal: 2000 kB\nMemFree: 1000 kB\nSlab: 300 kB\n";
	static const char slab[] = "slabinfo - version: 2.1\n# name <active_objs> <num_objs> "
		"<objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> "
		"<sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n"
		"dentry 100 120 192 21 1 : tunables 0 0 0 : slabdata 6 6 0\n";
	static const struct {
		const char *phase, *payload, *why;
	} bad[] = {
		{ "after-insmod", "@@@ meminfo\nMemFree: 1 kB\n@@@ slabinfo\n", "has no mark section" },
		{ "after-insmod", "@@@ mark\n9.0\n@@@ slabinfo\n", "has no meminfo section" },
		{ "after-insmod", "@@@ mark\n9.0\n@@@ meminfo\nMemFree: 1 kB\n", "has no slabinfo section" },
		{ "boot", "@@@ mark\n9.0\n@@@ meminfo\nMemFree: 1 kB\n@@@ slabinfo\n", "unexpected phase 'boot'" },
		{ "after-insmod", "@@@ mark\nsoon\n@@@ meminfo\nMemFree: 1 kB\n@@@ slabinfo\n", "bad uptime" },
	};
	struct scenario s;
	struct records old, now;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, p = STRBUF_INIT;
	unsigned long seq = 0;

	scenario_init(&s);
	records_init(&old, &s, NULL, NULL, NULL);
	records_init(&now, &s, NULL, NULL, NULL);
	frame(&a, 1, "mark", "boot", "3.10\n");
	frame(&a, 2, "meminfo", "boot", mem);
	frame(&a, 3, "slabinfo", "boot", slab);
	frame(&a, 4, "mark", "before-insmod", "4.20\n");
	frame(&a, 5, "meminfo", "before-insmod", mem);
	frame(&a, 6, "slabinfo", "before-insmod", "");
	sb_addf(&p, "@@@ mark\n3.10\n@@@ meminfo\n%s@@@ slabinfo\n%s", mem, slab);
	frame(&b, ++seq, "snapshot", "boot", p.buf);
	sb_reset(&p);
	sb_addf(&p, "@@@ mark\n4.20\n@@@ meminfo\n%s@@@ slabinfo\n", mem);
	frame(&b, ++seq, "snapshot", "before-insmod", p.buf);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		frame(&b, ++seq, "snapshot", bad[i].phase, bad[i].payload);
	stderr_capture_begin();
	records_feed(&old, a.buf, a.len);
	records_finish(&old);
	records_feed(&now, b.buf, b.len);
	records_finish(&now);
	free(stderr_capture_end());
	CHECK_EQ_INT(old.nrejections, 0);
	CHECK_EQ_INT((long long)json_object_array_length(now.phases), 2);
	CHECK_STR(json_object_to_json_string(now.phases), json_object_to_json_string(old.phases));
	CHECK_CONTAINS(json_object_to_json_string(now.phases), "\"MemFree\"");
	CHECK_EQ_INT(now.phase, PHASE_BEFORE_INSMOD);
	CHECK_EQ_INT((long long)now.nrejections, (long long)ARRAY_SIZE(bad));
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK_CONTAINS(records_rejection(&now, i),
			       bad[i].why);
	records_release(&old);
	records_release(&now);
	scenario_release(&s);
	sb_release(&a);
	sb_release(&b);
	sb_release(&p);
}

/* Guest output is validated before it touches the disk, and bounded: 2,000
 * fio records under phase names of the guest's own made 2,000 files
 * (196 MB); a second snapshot of a phase overwrote the first; past the
 * run's byte budget nothing more is kept. */
TEST(records_guest_output_is_bounded)
{
	struct scenario s;
	struct records rs;
	struct strbuf sb = STRBUF_INIT, p = STRBUF_INIT;
	char *dir = xstrfmt("%s/bounded", test_tmpdir()), *sub;
	unsigned long seq = 1;
	struct stat st;

	CHECK_EQ_INT(mkdir_p(dir, 0755), 0);
	sub = xstrfmt("%s/snapshots", dir);
	CHECK_EQ_INT(mkdir_p(sub, 0755), 0);
	free(sub);
	scenario_init(&s);
	records_init(&rs, &s, dir, NULL, NULL);
	frame(&sb, seq++, "mark", "boot", "3.10\n");
	for (int i = 0; i < 2000; i++) {
		char ph[16];

		snprintf(ph, sizeof(ph), "g%d", i);
		frame(&sb, seq++, "fio", ph, "not json at all");
		frame(&sb, seq++, "fiolog", ph, "fio: x\n");
	}
	/* a group the guest runs, twice: the second is refused */
	frame(&sb, seq++, "fiolog", "sample", "fio: first\n");
	frame(&sb, seq++, "fiolog", "sample", "fio: second\n");
	frame(&sb, seq++, "meminfo", "boot", "MemTotal: 10 kB\nMemFree: 5 kB\n");
	frame(&sb, seq++, "meminfo", "boot", "MemTotal: 99 kB\nMemFree: 1 kB\n");
	records_feed(&rs, sb.buf, sb.len);
	CHECK_EQ_INT(rs.nrejections, 4002);
	CHECK_EQ_INT(json_object_object_length(rs.fio_groups), 1);
	CHECK_STR(jstr(rs.fio_groups, "sample.message", NULL), "fio: first");
	CHECK_EQ_INT(jint(json_object_array_get_idx(rs.phases, 0), "meminfo.MemTotal", -1), 10);
	sub = xstrfmt("%s/fio", dir);
	CHECK(stat(sub, &st) == 0);	/* fio/sample.log only */
	free(sub);
	sub = xstrfmt("%s/fio/g7.json", dir);
	CHECK(!path_exists(sub));
	free(sub);
	sub = xstrfmt("%s/fio/sample.log", dir);
	CHECK(path_exists(sub));
	free(sub);
	CHECK_EQ_INT(rs.kept_files, 2);	/* fio/sample.log, the first meminfo */

	/* Past the byte budget: rejected as not kept, and said so. */
	sb_reset(&sb);
	rs.max_kept_bytes = rs.kept_bytes + 10;
	frame(&sb, seq++, "mark", "before-insmod", "4.00\n");
	frame(&sb, seq++, "meminfo", "before-insmod", "MemTotal: 10 kB\nMemFree: 4 kB\n");
	records_feed(&rs, sb.buf, sb.len);
	CHECK_EQ_INT(rs.kept_files, 2);
	CHECK_EQ_INT(rs.nrejections, 4003);
	sub = xstrfmt("%s/snapshots/01-before-insmod.meminfo", dir);
	CHECK(!path_exists(sub));
	free(sub);
	records_release(&rs);
	scenario_release(&s);
	sb_release(&sb);
	sb_release(&p);
	free(dir);
}
