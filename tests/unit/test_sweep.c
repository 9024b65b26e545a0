// SPDX-License-Identifier: Apache-2.0
/* The sweep: its scenario rules, the point records (fixtures captured from
 * a real sweep of smoke on amd64), the records' step order, the fit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "record/channel.h"
#include "record/records.h"
#include "record/sweep.h"
#include "result/build.h"
#include "result/fit.h"
#include "result/result.h"
#include "result/sweep.h"
#include "scenario/scenario.h"
#include "test.h"
#include "lib/util.h"

/* ---- scenario ---- */

/* Parse text and check it; returns check's result, its message in *msg. */
static int sweep_check(const char *text, struct scenario *s, char *msg, size_t n)
{
	struct strbuf err = STRBUF_INIT;
	int r;

	scenario_init(s);
	r = scenario_parse(s, "t.scn", text, strlen(text), &err);
	if (!r)
		r = scenario_check(s, &err);
	snprintf(msg, n, "%s", err.buf);
	sb_release(&err);
	return r;
}

TEST(sweep_scenario_valid_lists)
{
	struct scenario s;
	char msg[512];
	long long *st, tgts, luns;
	size_t n;

	REQUIRE(sweep_check("memory_mb = 4096\nsweep = 0,250,500,1000,2000\n", &s, msg, sizeof(msg)) == 0);
	CHECK_EQ_INT(s.disks, 2000);		/* the last step */
	CHECK_EQ_INT(scenario_sweep_peak(&s), 2000);
	CHECK_EQ_INT(scenario_sd_host_disks(&s), 250);
	scenario_sd_layout(&s, &tgts, &luns);
	CHECK_EQ_INT(tgts * luns, 250);
	CHECK(luns <= 64);
	scenario_sweep(&s, &st, &n);
	REQUIRE(n == 5);
	CHECK_EQ_INT(st[0], 0);
	CHECK_EQ_INT(st[4], 2000);
	free(st);
	scenario_release(&s);

	/* Up, then down: the peak is checked for memory, the last is disks. */
	REQUIRE(sweep_check("memory_mb = 4096\nsweep = 0, 300, 600, 300\n", &s, msg, sizeof(msg)) == 0);
	CHECK_EQ_INT(s.disks, 300);
	CHECK_EQ_INT(scenario_sweep_peak(&s), 600);
	CHECK_EQ_INT(scenario_sd_host_disks(&s), 300);
	scenario_release(&s);

	/* disks in the file agreeing with the last step is fine. */
	REQUIRE(sweep_check("disks = 40\nsweep = 0,20,40\n", &s, msg, sizeof(msg)) == 0);
	scenario_release(&s);

	/* Without a sweep: nothing changes. */
	REQUIRE(sweep_check("disks = 40\nsd_hosts = 4\n", &s, msg, sizeof(msg)) == 0);
	scenario_sweep(&s, &st, &n);
	CHECK(n == 0 && st == NULL);
	CHECK_EQ_INT(scenario_sd_host_disks(&s), 10);
	CHECK_EQ_INT(scenario_sweep_peak(&s), 40);
	scenario_release(&s);
}

TEST(sweep_scenario_bad_lists_point_at_the_line)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "sweep = 40,20\n", "t.scn:1: sweep '40,20': the counts must rise first (40, then 20)" },
		{ "sweep = 0,20,20\n", "t.scn:1: sweep '0,20,20': step 3 repeats 20" },
		{ "sweep = 0,20,10,30\n", "t.scn:1: sweep '0,20,10,30': step 4 (30) rises again after "
		  "falling from the peak 20: the counts rise strictly to one peak, then may fall" },
		{ "sweep = 0,20,0\n", "t.scn:1: sweep '0,20,0': the last step must be more than 0 "
		  "disks (it is the run's disks; rmmod measures the way back to 0)" },
		{ "sweep = 0,x\n", "t.scn:1: sweep '0,x': 'x' is not a disk count (0..1048576)" },
		{ "sweep = 0,-5\n", "t.scn:1: sweep '0,-5': '-5' is not a disk count (0..1048576)" },
		{ "sweep = 0,1048577\n", "t.scn:1: sweep '0,1048577': '1048577' is not a disk count (0..1048576)" },
		{ "sweep = 7\n", "t.scn:1: sweep '7': a sweep needs at least two steps" },
		{ "sweep = ,,\n", "t.scn:1: sweep ',,': a sweep needs at least two steps" },
		{ "memory_mb = 65536\nsweep = 1,2,3,5000\n", "t.scn:2: no host layout reaches these counts: "
		  "their greatest common divisor is 1, so 5000 disks need 5000 scsi_debug hosts "
		  "(at most 1024; use counts with a larger common divisor)" },
		{ "disks = 30\nsweep = 0,20,40\n", "t.scn:1: disks (30) must be the sweep's last "
		  "step (40), or be left out" },
		{ "sd_hosts = 2\nsweep = 0,20,40\n", "t.scn:1: sd_hosts cannot be set with a sweep: "
		  "it adds hosts of as many disks as the greatest common divisor of its steps" },
		{ "memory_mb = 512\nsweep = 0,3000,6000,3000\n", "t.scn:2: 6000 disks need about 2109 MiB "
		  "of memory at 360 kB each (scheduler mq-deadline), but a 512 MiB x86_64 guest "
		  "has about 320 MiB (raise memory_mb, lower disks, or set disk_cost_kb; scheduler "
		  "none costs far less a disk: sd_submit_queues = cpus, cpus > 1)" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct scenario s;
		char msg[512];

		if (sweep_check(cases[i].text, &s, msg, sizeof(msg)) != -1)
			test_fail(__FILE__, __LINE__, "'%s' was accepted", cases[i].text);
		else
			CHECK_STR(msg, cases[i].want);
		scenario_release(&s);
	}
	/* 65 steps: one too many. */
	struct strbuf sb = STRBUF_INIT;
	struct scenario s;
	char msg[512];
	sb_adds(&sb, "memory_mb = 65536\nsweep = ");
	for (int i = 1; i <= SWEEP_MAX_STEPS + 1; i++)
		sb_addf(&sb, "%s%d", i > 1 ? "," : "", i * 10);
	sb_addch(&sb, '\n');
	CHECK_EQ_INT(sweep_check(sb.buf, &s, msg, sizeof(msg)), -1);
	CHECK_CONTAINS(msg, "more than 64 steps");
	scenario_release(&s);
	sb_release(&sb);
}

/* A sweep on the command line replaces the file's disks; disks on the
 * command line must agree with it. */
TEST(sweep_scenario_set_overrides_file_disks)
{
	struct scenario s;
	struct strbuf err = STRBUF_INIT;

	scenario_init(&s);
	REQUIRE(scenario_parse(&s, "t.scn", "disks = 40\n", 11, &err) == 0);
	REQUIRE(scenario_set(&s, "sweep=0,20,60", "--set", &err) == 0);
	CHECK_EQ_INT(scenario_check(&s, &err), 0);
	CHECK_EQ_INT(s.disks, 60);
	scenario_release(&s);

	scenario_init(&s);
	REQUIRE(scenario_set(&s, "disks=20", "--set", &err) == 0);
	REQUIRE(scenario_set(&s, "sweep=0,20,60", "--set", &err) == 0);
	CHECK_EQ_INT(scenario_check(&s, &err), -1);
	CHECK_CONTAINS(err.buf, "--set disks: disks (20) must be the sweep's last step (60)");
	scenario_release(&s);
	sb_release(&err);
}

/* ---- point records ---- */

TEST(sweep_point_parses_a_real_record)
{
	struct strbuf err = STRBUF_INIT;
	json_object *o;
	long step;
	long long disks;
	size_t n;
	char *buf = fixture("sweep/x86_64-step2-20disks.txt", &n);

	REQUIRE(sweep_point_parse(buf, n, 4096, &o, &step, &disks, &err) == 0);
	CHECK_EQ_INT(step, 2);
	CHECK_EQ_INT(disks, 20);
	CHECK_EQ_INT(jint(o, "step", 0), 2);
	CHECK_EQ_INT(jint(o, "disks", 0), 20);
	CHECK(jdouble(o, "t", 0) > 3.3 && jdouble(o, "t", 0) < 3.4);
	CHECK(jdouble(o, "add_s", -1) >= 0);
	CHECK(jdouble(o, "enumerate_s", -1) >= jdouble(o, "add_s", -1));
	CHECK(jint(o, "meminfo.MemFree", -1) > 0);
	CHECK(jint(o, "meminfo.MemFree", -1) < jint(o, "meminfo.MemTotal", -1));
	CHECK(jint(o, "slab_kb", 0) > 0);
	json_object_put(o);
	free(buf);
	sb_release(&err);
}

TEST(sweep_point_rejects_malformed_records)
{
	size_t n;
	char *real = fixture("sweep/x86_64-step1-0disks.txt", &n);
	const char *mi = strstr(real, "@@@ meminfo\n");
	const char *sl = strstr(real, "@@@ slabinfo\n");
	struct {
		char *text;
		const char *want;
	} cases[] = {
		{ xstrdup(""), "no point header" },
		{ xstrdup("@@@ sample 1 2 insmod\n"), "no point header" },
		{ xstrdup("@@@ point 1 2\n"), "bad point header" },
		{ xstrdup("@@@ point 0 0 1.0\n"), "bad step number" },
		{ xstrdup("@@@ point 1 -1 1.0\n"), "bad disk count" },
		{ xstrdup("@@@ point 1 99999999999 1.0\n"), "bad disk count" },
		{ xstrdup("@@@ point 1 0 nan\n"), "bad uptime" },
		{ xstrdup("@@@ point 1 0 1.0\n@@@ meminfo\nMemFree: 1 kB\n"), "no timing section" },
		{ xstrfmt("@@@ point 1 0 1.0\n@@@ timing\nadd_cs=1\n%s", mi),
		  "timing needs add_cs and enumerate_cs" },
		{ xstrfmt("@@@ point 1 0 1.0\n@@@ timing\nadd_cs=1\nenumerate_cs=-3\n%s", mi),
		  "timing needs add_cs and enumerate_cs" },
		{ xstrfmt("@@@ point 1 0 1.0\n@@@ timing\nadd_cs=1\nenumerate_cs=2\n%s", sl),
		  "no meminfo section" },
		{ xstrfmt("@@@ point 1 0 1.0\n@@@ timing\nadd_cs=1\nenumerate_cs=2\n%.*s",
			  (int)(sl - mi), mi), "no slabinfo section" },
		{ xstrfmt("@@@ point 1 0 1.0\n@@@ timing\nadd_cs=1\nenumerate_cs=2\n"
			  "@@@ meminfo\nMemFree: lots\n%s", sl), "line 1" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf err = STRBUF_INIT;
		json_object *o = (json_object *)1;
		long step;
		long long disks;

		if (sweep_point_parse(cases[i].text, strlen(cases[i].text), 4096, &o, &step,
				      &disks, &err) != -1)
			test_fail(__FILE__, __LINE__, "case %zu was accepted", i);
		else
			CHECK_CONTAINS(err.buf, cases[i].want);
		CHECK(o == NULL);
		sb_release(&err);
		free(cases[i].text);
	}
	free(real);
}

/* ---- the records: steps in order, none beyond the list ---- */

struct points_seen {
	int n;
	long last_step;
	long long last_disks;
};

static void saw_point(void *ctx, long step, long long disks)
{
	struct points_seen *p = ctx;

	p->n++;
	p->last_step = step;
	p->last_disks = disks;
}

static const struct records_ops point_ops = { .point = saw_point };

/* A sweep of 0, 20 and 40 disks with one setting more, and its records,
 * the points they take counted in *seen. */
static void sweep_records_start(struct scenario *s, struct records *rs,
				struct points_seen *seen, const char *setting)
{
	struct strbuf err = STRBUF_INIT;

	*seen = (struct points_seen){ 0, 0, 0 };
	scenario_init(s);
	REQUIRE(scenario_set(s, "sweep=0,20,40", "--set", &err) == 0);
	REQUIRE(scenario_set(s, setting, "--set", &err) == 0);
	REQUIRE(scenario_check(s, &err) == 0);
	records_init(rs, s, NULL, &point_ops, seen);
	sb_release(&err);
}

/* A real point record with its header changed to STEP DISKS. */
static void point_frame(struct strbuf *sb, unsigned long seq, long step, long long disks)
{
	size_t n;
	char *real = fixture("sweep/x86_64-step2-20disks.txt", &n);
	char *body = strchr(real, '\n') + 1;
	struct strbuf p = STRBUF_INIT;

	sb_addf(&p, "@@@ point %ld %lld 3.5\n%s", step, disks, body);
	channel_frame(sb, seq, "point", "sweep", p.buf, p.len);
	sb_release(&p);
	free(real);
}

TEST(sweep_records_take_steps_in_order_only)
{
	struct scenario s;
	struct records rs;
	struct points_seen seen;
	struct strbuf sb = STRBUF_INIT;
	unsigned long seq = 1;

	sweep_records_start(&s, &rs, &seen, "memory_mb=1024");
	point_frame(&sb, seq++, 1, 0);			/* before before-insmod */
	channel_frame(&sb, seq++, "mark", "boot", "1.0\n", 4);
	channel_frame(&sb, seq++, "mark", "before-insmod", "2.0\n", 4);
	point_frame(&sb, seq++, 1, 0);
	point_frame(&sb, seq++, 3, 40);			/* skips step 2 */
	point_frame(&sb, seq++, 2, 30);			/* not step 2's count */
	point_frame(&sb, seq++, 2, 20);
	point_frame(&sb, seq++, 3, 40);
	point_frame(&sb, seq++, 4, 60);			/* beyond the list */
	point_frame(&sb, seq++, 3, 40);			/* again */
	records_feed_all(&rs, sb.buf, sb.len);
	CHECK_EQ_INT(seen.n, 3);
	CHECK_EQ_INT(seen.last_step, 3);
	CHECK_EQ_INT(seen.last_disks, 40);
	CHECK_EQ_INT(rs.npoints, 3);
	CHECK_EQ_INT(jlen(rs.points), 3);
	CHECK_EQ_INT(rs.nrejections, 5);
	CHECK_CONTAINS(records_rejection(&rs, 0), "sweep point outside the insmod phase");
	CHECK_CONTAINS(records_rejection(&rs, 1),
		       "sweep point 3 (40 disks) is not the next step (2: 20 disks)");
	CHECK_CONTAINS(records_rejection(&rs, 3), "is beyond the sweep's 3 steps");
	records_release(&rs);
	scenario_release(&s);
	sb_release(&sb);
}

/* ---- the fit ---- */

TEST(fit_exact_line)
{
	double x[] = { 0, 250, 500, 1000, 2000 }, y[5];
	struct fit f;

	for (int i = 0; i < 5; i++)
		y[i] = 3000 + 0.35 * x[i];
	REQUIRE(fit_line(x, y, 5, &f) == 0);
	CHECK(fabs(f.slope - 0.35) < 1e-9);
	CHECK(fabs(f.intercept - 3000) < 1e-6);
	CHECK(fabs(f.r2 - 1) < 1e-12);
	CHECK(f.slope_se >= 0 && f.slope_se < 1e-9);
	for (int i = 0; i < 5; i++)
		CHECK(fabs(f.residual[i]) < 1e-6);
	CHECK(!f.nonlinear);
	fit_release(&f);
}

/* (0,0), (1,1), (2,3): slope 3/2, intercept -1/6, SSE 1/6, so the slope's
 * standard error is sqrt((1/6) / 1 / 2) and R^2 = 1 - (1/6) / (14/3). */
TEST(fit_small_case_by_hand)
{
	double x[] = { 0, 1, 2 }, y[] = { 0, 1, 3 };
	struct fit f;

	REQUIRE(fit_line(x, y, 3, &f) == 0);
	CHECK(fabs(f.slope - 1.5) < 1e-12);
	CHECK(fabs(f.intercept + 1.0 / 6) < 1e-12);
	CHECK(fabs(f.slope_se - sqrt(1.0 / 12)) < 1e-12);
	CHECK(fabs(f.r2 - (1 - (1.0 / 6) / (14.0 / 3))) < 1e-12);
	CHECK(fabs(f.residual[1] + 1.0 / 3) < 1e-12);
	CHECK(f.p_quadratic < 0);		/* three points: no test */
	fit_release(&f);
}

TEST(fit_degenerate_inputs)
{
	double x[] = { 5, 5, 5 }, y[] = { 1, 2, 3 };
	struct fit f;

	CHECK_EQ_INT(fit_line(x, y, 3, &f), -1);	/* one distinct x */
	CHECK_EQ_INT(fit_line(x, y, 1, &f), -1);
	CHECK_EQ_INT(fit_line(x, y, 0, &f), -1);
	double x2[] = { 0, 10 }, y2[] = { 1, 21 };
	REQUIRE(fit_line(x2, y2, 2, &f) == 0);	/* two points: a line, no R^2 */
	CHECK(fabs(f.slope - 2) < 1e-12);
	CHECK(f.r2 < 0 && f.slope_se < 0);
	fit_release(&f);
	double y3[] = { 7, 7, 7, 7 }, x3[] = { 0, 1, 2, 3 };
	REQUIRE(fit_line(x3, y3, 4, &f) == 0);	/* flat: no R^2, no bend */
	CHECK(f.r2 < 0);
	CHECK(!f.nonlinear);
	fit_release(&f);
}

/* A parabola is flagged; the same line with small noise is not, and a
 * tiny real curvature (significant but under 5% of the rise) is not. */
TEST(fit_nonlinear_flag)
{
	double x[8], y[8];
	struct fit f;

	for (int i = 0; i < 8; i++) {
		x[i] = i * 1000;
		y[i] = 1e-4 * x[i] * x[i] + 2 * x[i];	/* superlinear */
	}
	REQUIRE(fit_line(x, y, 8, &f) == 0);
	CHECK(f.nonlinear);
	CHECK(f.p_quadratic >= 0 && f.p_quadratic < FIT_NONLINEAR_P);
	CHECK(f.bend > FIT_NONLINEAR_BEND);
	CHECK(f.r2 > 0.9);		/* a high R^2 alone would hide it */
	fit_release(&f);

	static const double noise[8] = { 3, -2, 1, -4, 2, 0, -1, 2 };
	for (int i = 0; i < 8; i++)
		y[i] = 5000 + 350 * x[i] / 1000 + noise[i];
	REQUIRE(fit_line(x, y, 8, &f) == 0);
	CHECK(!f.nonlinear);
	CHECK(f.r2 > 0.999);
	fit_release(&f);

	for (int i = 0; i < 8; i++)
		y[i] = 5000 + 0.35 * x[i] + 1e-8 * x[i] * x[i];
	REQUIRE(fit_line(x, y, 8, &f) == 0);
	CHECK(f.p_quadratic < FIT_NONLINEAR_P);	/* real, */
	CHECK(f.bend < FIT_NONLINEAR_BEND);	/* but too small to matter */
	CHECK(!f.nonlinear);
	fit_release(&f);
}

/* ---- result.json's sweep section ---- */

TEST(sweep_build_figures_and_fit)
{
	struct scenario s;
	struct strbuf err = STRBUF_INIT;
	json_object *root = json_object_new_object(), *phases = json_object_new_array();
	json_object *before = json_object_new_object(), *bm = json_object_new_object();
	json_object *points = json_object_new_array();
	static const long long disks[] = { 0, 100, 200, 400, 200 };

	scenario_init(&s);
	REQUIRE(scenario_set(&s, "sweep=0,100,200,400,200", "--set", &err) == 0);
	REQUIRE(scenario_set(&s, "memory_mb=1024", "--set", &err) == 0);
	REQUIRE(scenario_check(&s, &err) == 0);
	json_object_object_add(before, "name", json_object_new_string("before-insmod"));
	json_object_object_add(bm, "MemFree", json_object_new_int64(900000));
	json_object_object_add(bm, "Slab", json_object_new_int64(10000));
	json_object_object_add(bm, "PageTables", json_object_new_int64(100));
	json_object_object_add(bm, "KernelStack", json_object_new_int64(100));
	json_object_object_add(bm, "VmallocUsed", json_object_new_int64(100));
	json_object_object_add(before, "meminfo", bm);
	json_object_array_add(phases, before);
	json_object_object_add(root, "phases", phases);
	for (size_t i = 0; i < ARRAY_SIZE(disks); i++) {
		json_object *p = json_object_new_object(), *m = json_object_new_object();
		long long d = disks[i];
		/* 350 kB per disk and 4000 kB fixed, of which slab 150 per disk. */
		json_object_object_add(p, "disks", json_object_new_int64(d));
		json_object_object_add(p, "enumerate_s", json_object_new_double(0.01 * (double)(i ? 100 : 0)));
		json_object_object_add(m, "MemFree", json_object_new_int64(900000 - 4000 - 350 * d));
		json_object_object_add(m, "Slab", json_object_new_int64(10000 + 150 * d));
		json_object_object_add(m, "PageTables", json_object_new_int64(100));
		json_object_object_add(m, "KernelStack", json_object_new_int64(100));
		json_object_object_add(m, "VmallocUsed", json_object_new_int64(100));
		json_object_object_add(p, "meminfo", m);
		json_object_array_add(points, p);
	}
	sweep_build(root, &s, points);
	CHECK(json_object_get_boolean(jget(root, "sweep.complete")));
	CHECK_EQ_INT(jint(root, "sweep.peak", 0), 400);
	CHECK_EQ_INT(jint(root, "sweep.host_disks", 0), 100);
	CHECK_EQ_INT(jint(root, "sweep.fit.MemFree.points", 0), 4);	/* the rising steps */
	CHECK_EQ_INT(jint(root, "sweep.fit.MemFree.bytes_per_disk", 0), 350 * 1024);
	CHECK_EQ_INT(jint(root, "sweep.fit.MemFree.fixed_kb", 0), 4000);
	CHECK_EQ_INT(jint(root, "sweep.fit.Slab.bytes_per_disk", 0), 150 * 1024);
	CHECK_EQ_INT(jint(root, "sweep.fit.unaccounted.bytes_per_disk", 0), 200 * 1024);
	CHECK(jget(root, "sweep.fit.LowFree") == NULL);		/* no LowFree */
	CHECK(jdouble(root, "sweep.fit.MemFree.r2", 0) > 0.999999);
	CHECK(!json_object_get_boolean(jget(root, "sweep.fit.MemFree.nonlinear")));
	CHECK_EQ_INT(jint(root, "sweep.down_fit.MemFree.points", 0), 2);
	CHECK_EQ_INT(jint(root, "sweep.down_fit.MemFree.bytes_per_disk", 0), 350 * 1024);
	CHECK(jget(root, "sweep.fit.enumerate") != NULL);
	/* 1 s per step of 100, 200 or 400... disks: not a constant per disk. */
	CHECK_EQ_INT(jlen(jget(root, "sweep.points")), 5);
	json_object *p2 = json_object_array_get_idx(jget(root, "sweep.points"), 2);
	CHECK_EQ_INT(jint(p2, "memfree_drop_kb", 0), 4000 + 350 * 200);
	CHECK_EQ_INT(jint(p2, "slab_growth_kb", 0), 150 * 200);
	CHECK(jdouble(p2, "rate_disks_per_s", 0) > 99 && jdouble(p2, "rate_disks_per_s", 0) < 101);
	json_object_put(points);
	json_object_put(root);
	scenario_release(&s);
	sb_release(&err);
}

/* A sweep cut short keeps its points, fits them and says it is not complete. */
TEST(sweep_build_incomplete)
{
	struct scenario s;
	struct strbuf err = STRBUF_INIT;
	json_object *root = json_object_new_object(), *points = json_object_new_array();

	scenario_init(&s);
	REQUIRE(scenario_set(&s, "sweep=0,100,200,400", "--set", &err) == 0);
	REQUIRE(scenario_set(&s, "memory_mb=1024", "--set", &err) == 0);
	REQUIRE(scenario_check(&s, &err) == 0);
	sweep_build(root, &s, points);
	CHECK(!json_object_get_boolean(jget(root, "sweep.complete")));
	CHECK(jget(root, "sweep.fit") == NULL);
	CHECK(jget(root, "sweep.down_fit") == NULL);
	CHECK_EQ_INT(jlen(jget(root, "sweep.steps")), 4);
	json_object_put(points);
	json_object_put(root);
	scenario_release(&s);
	sb_release(&err);
}

/* ---- the knee: past the list a host at a time, then back ---- */

TEST(sweep_floor_rules)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "sweep_floor_mb = 64\n", "t.scn:1: sweep_floor_mb needs a sweep (the sweep key)" },
		{ "sweep = 0,20,40,20\nsweep_floor_mb = 64\n", "t.scn:2: sweep_floor_mb extends a "
		  "rising sweep: the list may not fall (it comes back to its last step by itself)" },
		{ "memory_mb = 4096\nsweep = 0,2000,4000\nsweep_floor_mb = 64\n", "t.scn:3: one host of "
		  "2000 disks costs about 704 MiB (360 kB each), not less than the floor of 64 MiB: "
		  "a step could run out of memory before the floor is seen (raise sweep_floor_mb, "
		  "or use counts with a smaller common divisor)" },
	};
	struct scenario s;
	char msg[512];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		if (sweep_check(cases[i].text, &s, msg, sizeof(msg)) != -1)
			test_fail(__FILE__, __LINE__, "'%s' was accepted", cases[i].text);
		else
			CHECK_STR(msg, cases[i].want);
		scenario_release(&s);
	}
	REQUIRE(sweep_check("sweep = 0,20,40\nsweep_floor_mb = 64\n", &s, msg, sizeof(msg)) == 0);
	scenario_release(&s);
}

TEST(sweep_records_take_the_way_to_the_knee_and_back)
{
	struct scenario s;
	struct records rs;
	struct points_seen seen;
	struct strbuf sb = STRBUF_INIT;
	unsigned long seq = 1;

	sweep_records_start(&s, &rs, &seen, "sweep_floor_mb=64");
	channel_frame(&sb, seq++, "mark", "boot", "1.0\n", 4);
	channel_frame(&sb, seq++, "mark", "before-insmod", "2.0\n", 4);
	point_frame(&sb, seq++, 1, 0);
	point_frame(&sb, seq++, 2, 20);
	point_frame(&sb, seq++, 3, 40);
	point_frame(&sb, seq++, 4, 80);		/* two hosts at once: no */
	point_frame(&sb, seq++, 4, 60);		/* one host more */
	point_frame(&sb, seq++, 5, 80);
	point_frame(&sb, seq++, 6, 60);		/* back, but not to the list's end */
	point_frame(&sb, seq++, 6, 40);		/* back to the list's end */
	point_frame(&sb, seq++, 7, 60);		/* nothing after the way back */
	records_feed_all(&rs, sb.buf, sb.len);
	CHECK_EQ_INT(rs.npoints, 6);
	CHECK_EQ_INT(seen.last_disks, 40);
	CHECK(rs.returned);
	CHECK_EQ_INT(rs.nrejections, 3);
	CHECK_CONTAINS(records_rejection(&rs, 0),
		       "sweep point 4 (80 disks) is neither one host more (60 disks) nor the list's last count (40)");
	CHECK_CONTAINS(records_rejection(&rs, 2), "is beyond the sweep's 6 steps");
	records_release(&rs);
	scenario_release(&s);
	sb_release(&sb);
}

/* The knee: the largest rising count still at or above the floor. */
TEST(sweep_build_knee)
{
	struct scenario s;
	struct strbuf err = STRBUF_INIT;
	json_object *root = json_object_new_object(), *phases = json_object_new_array();
	json_object *before = json_object_new_object(), *bm = json_object_new_object();
	json_object *points = json_object_new_array();
	static const long long disks[] = { 0, 250, 500, 750, 1000, 1250, 500 };

	scenario_init(&s);
	REQUIRE(scenario_set(&s, "sweep=0,250,500", "--set", &err) == 0);
	REQUIRE(scenario_set(&s, "arch=i386", "--set", &err) == 0);
	REQUIRE(scenario_set(&s, "sweep_floor_mb=64", "--set", &err) == 0);
	REQUIRE(scenario_check(&s, &err) == 0);
	json_object_object_add(before, "name", json_object_new_string("before-insmod"));
	json_object_object_add(bm, "MemFree", json_object_new_int64(2000000));
	json_object_object_add(bm, "LowFree", json_object_new_int64(300000));
	json_object_object_add(before, "meminfo", bm);
	json_object_array_add(phases, before);
	json_object_object_add(root, "phases", phases);
	for (size_t i = 0; i < ARRAY_SIZE(disks); i++) {
		json_object *p = json_object_new_object(), *m = json_object_new_object();
		json_object_object_add(p, "disks", json_object_new_int64(disks[i]));
		json_object_object_add(p, "enumerate_s", json_object_new_double(1));
		json_object_object_add(m, "MemFree", json_object_new_int64(2000000 - 200 * disks[i]));
		json_object_object_add(m, "LowFree", json_object_new_int64(300000 - 180 * disks[i]));
		json_object_object_add(p, "meminfo", m);
		json_object_array_add(points, p);
	}
	sweep_build(root, &s, points);
	/* LowFree: 300000 - 180 * 1000 = 120000 >= 65536; at 1250: 75000 >= 65536 too;
	 * so the floor was never crossed in these points. */
	CHECK_STR(jstr(root, "sweep.knee.field", ""), "LowFree");
	CHECK_EQ_INT(jint(root, "sweep.knee.floor_kb", 0), 65536);
	CHECK_EQ_INT(jint(root, "sweep.knee.max_disks", 0), 1250);
	CHECK(!json_object_get_boolean(jget(root, "sweep.knee.reached")));
	CHECK_EQ_INT(jint(root, "sweep.knee.steps_beyond_list", 0), 3);
	CHECK_EQ_INT(jint(root, "sweep.knee.per_disk_bytes", 0), 180 * 1024);
	CHECK_EQ_INT(jint(root, "sweep.down_fit.LowFree.points", 0), 2);
	json_object_get(before);	/* for the second root */
	json_object_put(root);

	/* One more rising point below the floor: reached, the knee stays at 1250. */
	root = json_object_new_object();
	phases = json_object_new_array();
	json_object_array_add(phases, before);
	json_object_object_add(root, "phases", phases);
	json_object *pts2 = json_object_new_array();
	for (size_t i = 0; i < 6; i++)
		json_object_array_add(pts2, json_object_get(json_object_array_get_idx(points, i)));
	json_object *p = json_object_new_object(), *m = json_object_new_object();
	json_object_object_add(p, "disks", json_object_new_int64(1500));
	json_object_object_add(m, "MemFree", json_object_new_int64(2000000 - 200 * 1500));
	json_object_object_add(m, "LowFree", json_object_new_int64(300000 - 180 * 1500));
	json_object_object_add(p, "meminfo", m);
	json_object_array_add(pts2, p);
	sweep_build(root, &s, pts2);
	CHECK(json_object_get_boolean(jget(root, "sweep.knee.reached")));
	CHECK_EQ_INT(jint(root, "sweep.knee.max_disks", 0), 1250);
	CHECK_EQ_INT(jint(root, "sweep.knee.free_kb_at_max", 0), 300000 - 180 * 1250);
	json_object_put(pts2);
	json_object_put(points);
	json_object_put(root);
	scenario_release(&s);
	sb_release(&err);
}
