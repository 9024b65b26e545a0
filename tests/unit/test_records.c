#include <string.h>

#include "lib/strbuf.h"
#include "record/records.h"
#include "result/build.h"
#include "result/result.h"
#include "test.h"

struct seen {
	int phases, ends, last_phase;
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

static const struct records_ops ops = { saw_phase, saw_end };

static void frame(struct strbuf *sb, unsigned long seq, const char *type,
		  const char *phase, const char *payload)
{
	channel_frame(sb, seq, type, phase, payload, strlen(payload));
}

/* Each 'end' record used to move the deadline on: only the first counts. */
TEST(records_only_the_first_end_counts)
{
	struct scenario s;
	struct records rs;
	struct seen seen = { 0, 0, -1 };
	struct strbuf sb = STRBUF_INIT;

	scenario_init(&s);
	records_init(&rs, &s, NULL, &ops, &seen);
	frame(&sb, 1, "mark", "boot", "3.10\n");
	frame(&sb, 2, "end", "boot", "status=fail\nreason=first\n");
	frame(&sb, 3, "end", "boot", "status=pass\n");
	frame(&sb, 4, "end", "boot", "status=pass\n");
	stderr_capture_begin();
	records_feed(&rs, sb.buf, sb.len);
	records_finish(&rs);
	free(stderr_capture_end());
	CHECK_EQ_INT(seen.phases, 1);
	CHECK_EQ_INT(seen.ends, 1);
	CHECK(rs.got_end);
	CHECK_STR(rs.end_status, "fail");
	CHECK_STR(rs.end_reason, "first");
	CHECK_EQ_INT(rs.nrejections, 2);
	CHECK_CONTAINS(json_object_get_string(json_object_array_get_idx(rs.rejections, 0)),
		       "a second end record");
	records_release(&rs);
	scenario_release(&s);
	sb_release(&sb);
}

TEST(records_reject_unknown_types_and_phases_out_of_order)
{
	struct scenario s;
	struct records rs;
	struct seen seen = { 0, 0, -1 };
	struct strbuf sb = STRBUF_INIT;

	scenario_init(&s);
	records_init(&rs, &s, NULL, &ops, &seen);
	frame(&sb, 1, "mark", "before-insmod", "5.00\n");
	frame(&sb, 2, "mark", "boot", "6.00\n");		/* backwards */
	frame(&sb, 3, "bogus", "boot", "x");
	frame(&sb, 4, "meminfo", "after-io", "MemFree: 1 kB\n");	/* not this phase */
	frame(&sb, 5, "mark", "after-insmod", "-1\n");		/* bad uptime */
	stderr_capture_begin();
	records_feed(&rs, sb.buf, sb.len);
	records_finish(&rs);
	free(stderr_capture_end());
	CHECK_EQ_INT(seen.phases, 1);
	CHECK_EQ_INT(seen.last_phase, PHASE_BEFORE_INSMOD);
	CHECK_EQ_INT(rs.phase, PHASE_BEFORE_INSMOD);
	CHECK_EQ_INT(rs.nrejections, 4);
	CHECK_CONTAINS(json_object_get_string(json_object_array_get_idx(rs.rejections, 0)),
		       "unexpected phase 'boot'");
	CHECK_CONTAINS(json_object_get_string(json_object_array_get_idx(rs.rejections, 1)),
		       "unknown type 'bogus'");
	CHECK_CONTAINS(json_object_get_string(json_object_array_get_idx(rs.rejections, 2)),
		       "outside that phase");
	CHECK_CONTAINS(json_object_get_string(json_object_array_get_idx(rs.rejections, 3)),
		       "bad uptime");
	records_release(&rs);
	scenario_release(&s);
	sb_release(&sb);
}

/* A run that ended at a deadline: the status says which phase was late,
 * whatever the checks say; the host's clock lands in each phase. */
TEST(result_build_timeout_names_the_late_phase)
{
	struct scenario s;
	struct records rs;
	struct console_scan cs;
	struct strbuf sb = STRBUF_INIT;
	json_object *host = host_new(), *root;
	enum run_status st;

	scenario_init(&s);
	records_init(&rs, &s, NULL, NULL, NULL);
	frame(&sb, 1, "mark", "boot", "3.10\n");
	frame(&sb, 2, "mark", "before-insmod", "4.20\n");
	records_feed(&rs, sb.buf, sb.len);
	records_finish(&rs);
	console_scan_init(&cs);
	host_phase(host, "boot", 7.5);
	json_object_object_add(host, "booted", json_object_new_boolean(1));
	json_object_object_add(host, "timed_out", json_object_new_boolean(1));
	root = result_build(&s, &rs, &cs, host, &st);
	CHECK_EQ_INT(st, RUN_TIMEOUT);
	CHECK_STR(jstr(root, "status", ""), "timeout");
	CHECK_CONTAINS(jstr(root, "reason", ""), "phase 'after-insmod' not reached in time");
	CHECK_CONTAINS(jstr(root, "reason", ""), "last reached: 'before-insmod'");
	CHECK(jdouble(root, "timings.boot_s", -1) == 7.5);
	CHECK(jget(json_object_array_get_idx(jget(root, "phases"), 1), "host_s") == NULL);
	json_object_put(root);
	json_object_put(host);
	console_scan_release(&cs);
	records_release(&rs);
	scenario_release(&s);
	sb_release(&sb);
}
