// SPDX-License-Identifier: Apache-2.0
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare/baseline.h"
#include "compare/compare.h"
#include "campaign/nightly.h"
#include "report/html.h"
#include "report/junit.h"
#include "report/svg.h"
#include "report/markdown.h"
#include "report/model.h"
#include "result/result.h"
#include "result/timecurve.h"
#include "lib/stats.h"
#include "test.h"
#include "lib/util.h"

static long long count_of(const char *s, const char *needle)
{
	long long n = 0;

	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* What "scaletest compare" prints, through the model. */
static void compare_md(json_object *cmp, struct strbuf *md)
{
	struct compare_model m;

	compare_model_from_json(cmp, &m);
	markdown_compare(&m, md);
	compare_model_release(&m);
}

TEST(stats_mean_and_sample_sd)
{
	static const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct stats st;

	stats_of(v, 8, &st);
	CHECK(fabs(st.mean - 5.0) < 1e-12);
	CHECK(fabs(st.sd - 2.138089935) < 1e-6);	/* sample sd, n - 1 */
	stats_of(v, 1, &st);
	CHECK(st.sd == 0 && st.n == 1);
	stats_of(v, 0, &st);
	CHECK(st.n == 0);
}

TEST(incbeta_known_values)
{
	/* I_x(1, 1) = x; I_x(a, b) = 1 - I_{1-x}(b, a); I_0.5(2, 2) = 0.5 */
	CHECK(fabs(incbeta(1, 1, 0.3) - 0.3) < 1e-10);
	CHECK(fabs(incbeta(2, 2, 0.5) - 0.5) < 1e-10);
	CHECK(fabs(incbeta(2.5, 0.5, 0.2) + incbeta(0.5, 2.5, 0.8) - 1) < 1e-10);
	CHECK(incbeta(3, 4, 0) == 0 && incbeta(3, 4, 1) == 1);
}

TEST(welch_p_matches_published_values)
{
	/* Two-sided Welch test for t = 2 with 10 degrees of freedom is
	 * p = 0.0734 (Student's t tables); build samples with that t. */
	struct stats a = { 0, 1, 6 }, b;

	/* sd 1 on both sides, n = 6: df = 10, se = sqrt(2/6) */
	b.sd = 1;
	b.n = 6;
	b.mean = 2 * sqrt(2.0 / 6);
	CHECK(fabs(welch_p(&a, &b) - 0.07339) < 2e-4);
	b.mean = 0;
	CHECK(fabs(welch_p(&a, &b) - 1) < 1e-9);
	/* No spread: equal means p = 1, different p = 0; 1 vs 1: no test. */
	struct stats c = { 5, 0, 3 }, d = { 5, 0, 3 }, e = { 6, 0, 3 }, f = { 1, 0, 1 };
	CHECK(welch_p(&c, &d) == 1);
	CHECK(welch_p(&c, &e) == 0);
	CHECK(welch_p(&f, &f) == -1);
	CHECK(welch_p(&c, &f) == 0);
	CHECK(welch_p(&f, &(struct stats){ 1, 0, 4 }) == 1);
	/* One run against a group of 3 with sd 1: t = x / sqrt(1 + 1/3) and
	 * df = 2; t = 2 with df = 2 is p = 0.1835 (t tables), either order. */
	struct stats g = { 0, 1, 3 }, one = { 2 * sqrt(4.0 / 3), 0, 1 };
	CHECK(fabs(welch_p(&g, &one) - 0.18350) < 2e-4);
	CHECK(fabs(welch_p(&one, &g) - 0.18350) < 2e-4);
}

/* A run directory with a result.json from a template and a figure. */
static char *make_run(const char *dir, const char *name, long long per_disk,
		      const char *status, const char *qemu)
{
	char *d = xstrfmt("%s/%s", dir, name);
	char *p = xstrfmt("%s/result.json", d);
	char *text = xstrfmt(
		"{\"schema\": 1, \"run_id\": \"r-%s\", \"status\": \"%s\", \"scenario\": {\"name\": \"s\"},"
		" \"settings\": {\"disks\": 100, \"memory_mb\": 512, \"cpus\": 1},"
		" \"kernel\": {\"version\": \"6.1\", \"arch\": \"x86_64\", \"source\": \"debian\"},"
		" \"vm\": {\"accel\": \"tcg\", \"qemu_version\": \"%s\", \"memory_mb\": 512, \"cpus\": 1},"
		" \"deltas\": {\"insmod\": {\"MemFree_kb\": -1000,"
		" \"per_disk_bytes\": {\"MemFree\": %lld}}},"
		" \"slab_growth\": [{\"cache\": \"kmalloc-1k\", \"kb\": %lld}],"
		" \"timings\": {\"enumerate_s\": 1.5}}",
		name, status, qemu, per_disk, per_disk / 100);

	REQUIRE(mkdir(d, 0755) == 0);
	REQUIRE(write_file(p, text, strlen(text)) == 0);
	free(p);
	free(text);
	return d;
}

static json_object *metric(json_object *cmp, const char *name)
{
	json_object *ms = jget(cmp, "metrics");

	for (size_t i = 0; ms && i < json_object_array_length(ms); i++) {
		json_object *m = json_object_array_get_idx(ms, i);
		if (!strcmp(jstr(m, "name", ""), name))
			return m;
	}
	return NULL;
}

/* Side k of a metric in a comparison's JSON. */
static json_object *mside(json_object *m, size_t k)
{
	json_object *a = jget(m, "sides");

	return a && json_object_is_type(a, json_type_array) && k < json_object_array_length(a)
	       ? json_object_array_get_idx(a, k) : NULL;
}

TEST(compare_single_runs_use_the_threshold)
{
	const char *t = test_tmpdir();
	char *a = make_run(t, "a", 100000, "pass", "7.2.22");
	char *b = make_run(t, "b", 110000, "pass", "7.2.22");
	char *c = make_run(t, "c", 102000, "pass", "7.2.22");
	struct side sa, sb, sc;
	struct strbuf err = STRBUF_INIT, md = STRBUF_INIT;
	struct compare_opts o = COMPARE_OPTS_INIT;
	json_object *cmp;

	REQUIRE(side_load(&sa, a, &err) == 0);
	REQUIRE(side_load(&sb, b, &err) == 0);
	REQUIRE(side_load(&sc, c, &err) == 0);
	REQUIRE(compare_sides(&sa, &sb, &o, &cmp, &err) == 0);
	CHECK_STR(jstr(cmp, "verdict", ""), "regression");	/* +10% > 5% */
	json_object *m = metric(cmp, "MemFree per disk");
	REQUIRE(m);
	CHECK_STR(jstr(m, "verdict", ""), "regression");
	CHECK_STR(jstr(mside(m, 1), "verdict", ""), "regression");
	CHECK(fabs(jdouble(mside(m, 1), "change_pct", 0) - 10) < 1e-9);
	CHECK(jget(mside(m, 1), "p") == NULL);	/* no test with one run a side */
	CHECK(jget(mside(m, 0), "verdict") == NULL);	/* the base is not judged */
	compare_md(cmp, &md);
	CHECK_CONTAINS(md.buf, "| MemFree per disk (B) | 100,000 | 110,000 | +10,000 | +10.0% |");
	CHECK_CONTAINS(md.buf, "**regression**");
	json_object_put(cmp);

	REQUIRE(compare_sides(&sb, &sa, &o, &cmp, &err) == 0);
	CHECK_STR(jstr(cmp, "verdict", ""), "improvement");
	json_object_put(cmp);

	REQUIRE(compare_sides(&sa, &sc, &o, &cmp, &err) == 0);
	CHECK_STR(jstr(cmp, "verdict", ""), "no change");	/* +2% < 5% */
	json_object_put(cmp);

	/* Time is shown but does not gate by default. */
	m = NULL;
	side_release(&sa);
	side_release(&sb);
	side_release(&sc);
	sb_release(&err);
	sb_release(&md);
	free(a);
	free(b);
	free(c);
}

TEST(compare_groups_use_welch)
{
	const char *t = test_tmpdir();
	char *ga = xstrfmt("%s/ga", t), *gb = xstrfmt("%s/gb", t), *gc = xstrfmt("%s/gc", t);
	static const long long va[] = { 100000, 100400, 99800 };
	static const long long vb[] = { 110000, 110300, 109900 };	/* clearly more */
	static const long long vc[] = { 94000, 106000, 100000 };	/* mean 100000: noise */
	struct side a, b, c;
	struct strbuf err = STRBUF_INIT;
	struct compare_opts o = COMPARE_OPTS_INIT;
	json_object *cmp;

	REQUIRE(mkdir(ga, 0755) == 0 && mkdir(gb, 0755) == 0 && mkdir(gc, 0755) == 0);
	for (int i = 0; i < 3; i++) {
		char name[8];
		snprintf(name, sizeof(name), "r%d", i);
		free(make_run(ga, name, va[i], "pass", "7.2.22"));
		free(make_run(gb, name, vb[i], "pass", "7.2.22"));
		free(make_run(gc, name, vc[i], "pass", "7.2.22"));
	}
	REQUIRE(side_load(&a, ga, &err) == 0);
	REQUIRE(side_load(&b, gb, &err) == 0);
	REQUIRE(side_load(&c, gc, &err) == 0);
	CHECK_EQ_INT((long long)a.n, 3);
	REQUIRE(compare_sides(&a, &b, &o, &cmp, &err) == 0);
	json_object *m = metric(cmp, "MemFree per disk");
	REQUIRE(m);
	CHECK(jdouble(mside(m, 1), "p", 1) < 0.001);
	CHECK_STR(jstr(m, "verdict", ""), "regression");
	CHECK_EQ_INT(jint(mside(m, 0), "n", 0), 3);
	json_object_put(cmp);

	/* A 5%+ change of the mean is not enough when the spread makes it
	 * insignificant: make side c's mean 6% lower with a wide spread. */
	REQUIRE(compare_sides(&a, &c, &o, &cmp, &err) == 0);
	m = metric(cmp, "MemFree per disk");
	CHECK_STR(jstr(m, "verdict", ""), "no change");
	json_object_put(cmp);
	side_release(&a);
	side_release(&b);
	side_release(&c);
	sb_release(&err);
	free(ga);
	free(gb);
	free(gc);
}

/* Three sides and more: each against the first, one verdict a side, the
 * overall one a regression when any side has one. */
TEST(compare_n_judges_each_side_against_the_base)
{
	const char *t = test_tmpdir();
	char *d[4] = {
		make_run(t, "a", 100000, "pass", "7.2.22"),
		make_run(t, "b", 110000, "pass", "7.2.22"),	/* +10%: regression */
		make_run(t, "c", 102000, "pass", "7.2.22"),	/* +2%: noise */
		make_run(t, "d", 90000, "pass", "7.2.22"),	/* -10%: improvement */
	};
	struct side s[4];
	const struct side *v[4];
	struct strbuf err = STRBUF_INIT, md = STRBUF_INIT;
	struct compare_opts o = COMPARE_OPTS_INIT;
	json_object *cmp, *m, *sides;

	for (int i = 0; i < 4; i++) {
		REQUIRE(side_load(&s[i], d[i], &err) == 0);
		v[i] = &s[i];
	}
	REQUIRE(compare_n(v, 4, &o, &cmp, &err) == 0);
	CHECK_EQ_INT(jint(cmp, "schema", 0), COMPARE_SCHEMA);
	CHECK_STR(jstr(cmp, "verdict", ""), "regression");
	sides = jget(cmp, "sides");
	REQUIRE(sides && json_object_array_length(sides) == 4);
	CHECK(jget(json_object_array_get_idx(sides, 0), "verdict") == NULL);
	CHECK_STR(jstr(json_object_array_get_idx(sides, 1), "verdict", ""), "regression");
	CHECK_STR(jstr(json_object_array_get_idx(sides, 2), "verdict", ""), "no change");
	CHECK_STR(jstr(json_object_array_get_idx(sides, 3), "verdict", ""), "improvement");
	/* labelled by run id, the scenario put in front as the id lacks it */
	CHECK_STR(jstr(json_object_array_get_idx(sides, 2), "label", ""), "s r-c");
	m = metric(cmp, "MemFree per disk");
	REQUIRE(m);
	CHECK_STR(jstr(m, "verdict", ""), "regression");	/* the worst side's */
	CHECK(jdouble(mside(m, 1), "change", 0) > 0);
	CHECK(jdouble(mside(m, 3), "change", 0) < 0);
	CHECK(fabs(jdouble(mside(m, 3), "change_pct", 0) + 10) < 1e-9);
	CHECK_EQ_INT(jint(mside(m, 2), "n", 0), 1);
	/* the same base against each side alone agrees with the N-side verdicts */
	for (int k = 1; k < 4; k++) {
		json_object *pair;
		REQUIRE(compare_sides(&s[0], &s[k], &o, &pair, &err) == 0);
		CHECK_STR(jstr(pair, "verdict", ""),
			  jstr(json_object_array_get_idx(sides, (size_t)k), "verdict", "?"));
		json_object_put(pair);
	}
	/* enumeration time does not gate: a change there is worse or better */
	m = metric(cmp, "enumeration time");
	REQUIRE(m);
	CHECK(!jget(m, "gating") || !json_object_get_boolean(jget(m, "gating")));
	CHECK(strcmp(jstr(mside(m, 1), "verdict", ""), "regression"));
	/* the markdown: a column per side and a change, p and verdict per side */
	compare_md(cmp, &md);
	CHECK_CONTAINS(md.buf, "| metric | A | B | B change | B change % | B p | B verdict | C |");
	CHECK_CONTAINS(md.buf, "| D change | D change % | D p | D verdict |");
	CHECK_CONTAINS(md.buf, "- D: s r-d (1 run, s, kernel 6.1 (debian)): improvement");
	/* (p is "n/a": one run a side has none) */
	CHECK_CONTAINS(md.buf, "| MemFree per disk (B) | 100,000 | 110,000 | +10,000 | +10.0% | n/a | **regression** |"
		       " 102,000 | +2,000 | +2.0% | n/a | no change | 90,000 | -10,000 | -10.0% | n/a | improvement |");
	json_object_put(cmp);

	/* Without the regressing side: an improvement. */
	const struct side *w[3] = { &s[0], &s[2], &s[3] };
	REQUIRE(compare_n(w, 3, &o, &cmp, &err) == 0);
	CHECK_STR(jstr(cmp, "verdict", ""), "improvement");
	json_object_put(cmp);

	/* One side, or more than the most, is refused. */
	CHECK_EQ_INT(compare_n(v, 1, &o, &cmp, &err), -1);
	CHECK_CONTAINS(err.buf, "a comparison takes 2 to");
	for (int i = 0; i < 4; i++) {
		side_release(&s[i]);
		free(d[i]);
	}
	sb_release(&err);
	sb_release(&md);
}

/* A side's label: its run id, its group's directory, "baseline <dir>";
 * made unique when two sides share one. */
TEST(compare_labels_sides)
{
	const char *t = test_tmpdir();
	char *a = make_run(t, "a", 100000, "pass", "7.2.22");
	char *g = xstrfmt("%s/20260101-s-x2", t), *bl = xstrfmt("%s/s--0123", t), *key;
	struct side s[4];
	struct strbuf err = STRBUF_INIT;
	struct compare_opts o = COMPARE_OPTS_INIT;
	json_object *cmp, *sides;

	REQUIRE(mkdir(g, 0755) == 0 && mkdir(bl, 0755) == 0);
	free(make_run(g, "r1", 100000, "pass", "7.2.22"));
	free(make_run(g, "r2", 100100, "pass", "7.2.22"));
	free(make_run(bl, "1", 100000, "pass", "7.2.22"));
	key = xstrfmt("%s/key.json", bl);
	REQUIRE(write_file(key, "{}\n", 3) == 0);
	REQUIRE(side_load(&s[0], a, &err) == 0);
	REQUIRE(side_load(&s[1], g, &err) == 0);
	REQUIRE(side_load(&s[2], bl, &err) == 0);
	CHECK_STR(s[0].label, "s r-a");
	CHECK_STR(s[1].label, "20260101-s-x2");
	CHECK_STR(s[2].label, "baseline s--0123");
	/* a baseline's run alone is named by its run id, not "1" */
	char *one = xstrfmt("%s/1", bl);
	REQUIRE(side_load(&s[3], one, &err) == 0);
	CHECK_STR(s[3].label, "s r-1");
	side_release(&s[3]);
	/* the same side twice: numbered */
	REQUIRE(side_load(&s[3], a, &err) == 0);
	const struct side *v[3] = { &s[0], &s[1], &s[3] };
	REQUIRE(compare_n(v, 3, &o, &cmp, &err) == 0);
	sides = jget(cmp, "sides");
	CHECK_STR(jstr(json_object_array_get_idx(sides, 0), "label", ""), "s r-a #1");
	CHECK_STR(jstr(json_object_array_get_idx(sides, 1), "label", ""), "20260101-s-x2");
	CHECK_STR(jstr(json_object_array_get_idx(sides, 2), "label", ""), "s r-a #3");
	json_object_put(cmp);
	for (int i = 0; i < 4; i++)
		side_release(&s[i]);
	sb_release(&err);
	free(a);
	free(g);
	free(bl);
	free(key);
	free(one);
}

/* The page's overlays: a line per side for memory by phase and during
 * insmod, from the phases and monitor samples the comparison carries. */
TEST(compare_overlays_have_a_line_per_side)
{
	static const char *const ids[] = { "20260101-000000-s", "20260101-000001-s", "20260101-000002-s" };
	const char *t = test_tmpdir();
	struct side s[3];
	const struct side *v[3];
	struct strbuf err = STRBUF_INIT, page = STRBUF_INIT;
	struct compare_opts o = COMPARE_OPTS_INIT;
	struct compare_model cm;
	json_object *cmp;

	for (int i = 0; i < 3; i++) {
		char *d = xstrfmt("%s/o%d", t, i), *p = xstrfmt("%s/result.json", d);
		char *text = xstrfmt(
			"{\"schema\": 1, \"run_id\": \"%s\", \"status\": \"pass\","
			" \"scenario\": {\"name\": \"s\"}, \"settings\": {\"disks\": 100},"
			" \"kernel\": {\"version\": \"6.1\", \"arch\": \"i386\", \"highmem\": true},"
			" \"deltas\": {\"insmod\": {\"per_disk_bytes\": {\"LowFree\": %d}}},"
			" \"phases\": [{\"name\": \"before-insmod\", \"meminfo\": {\"MemFree\": 9000, \"LowFree\": 8000}},"
			" {\"name\": \"after-insmod\", \"meminfo\": {\"MemFree\": %d, \"LowFree\": %d}}],"
			" \"monitor\": {\"samples\": [{\"n\": 1, \"t\": 10, \"step\": \"insmod\","
			" \"meminfo\": {\"LowFree\": 8000}, \"slab_kb\": 100},"
			" {\"n\": 2, \"t\": 11, \"step\": \"insmod\", \"meminfo\": {\"LowFree\": %d}, \"slab_kb\": 200},"
			" {\"n\": 3, \"t\": 12, \"step\": \"io\", \"meminfo\": {\"LowFree\": 1}, \"slab_kb\": 1}]}}",
			ids[i], 1000 + i, 5000 - i * 100, 4000 - i * 100, 6000 - i * 100);
		REQUIRE(mkdir(d, 0755) == 0);
		REQUIRE(write_file(p, text, strlen(text)) == 0);
		REQUIRE(side_load(&s[i], d, &err) == 0);
		v[i] = &s[i];
		free(d);
		free(p);
		free(text);
	}
	REQUIRE(compare_n(v, 3, &o, &cmp, &err) == 0);
	json_object *side2 = json_object_array_get_idx(jget(cmp, "sides"), 2);
	/* only the insmod samples, their time from the first */
	CHECK_EQ_INT((long long)jlen(jget(side2, "monitor.samples")), 2);
	CHECK(jdouble(json_object_array_get_idx(jget(side2, "monitor.samples"), 1), "t", 0) == 1);
	CHECK(jdouble(json_object_array_get_idx(jget(side2, "phases"), 1), "LowFree_kb", 0) == 3800);
	compare_model_from_json(cmp, &cm);
	html_compare(&cm, &page);
	compare_model_release(&cm);
	/* HIGHMEM on every side: LowFree is drawn */
	CHECK_CONTAINS(page.buf, "aria-label=\"LowFree by phase, kB, one line per side\"");
	CHECK_EQ_INT(count_of(page.buf, "<polyline class=\"series side\""), 3);
	/* during insmod: free memory and slab, a line each per side */
	const char *mon = strstr(page.buf, "class=\"chart overlay monitor\"");
	REQUIRE(mon);
	CHECK_EQ_INT(count_of(mon, "<polyline class=\"series\""), 3 * 2);
	for (int i = 0; i < 3; i++)
		CHECK_CONTAINS(mon, svg_side_color((size_t)i));
	CHECK_CONTAINS(mon, ">B: 20260101-000001-s</text>");	/* the legend */
	json_object_put(cmp);
	for (int i = 0; i < 3; i++)
		side_release(&s[i]);
	sb_release(&err);
	sb_release(&page);
}

TEST(compare_refuses_failed_incomplete_and_mismatched)
{
	const char *t = test_tmpdir();
	char *a = make_run(t, "a", 100000, "pass", "7.2.22");
	char *f = make_run(t, "f", 100000, "crash", "7.2.22");
	char *q = make_run(t, "q", 100000, "pass", "8.0.0");
	char *empty = xstrfmt("%s/empty", t);
	struct side sa, sf, sq, se;
	struct strbuf err = STRBUF_INIT;
	struct compare_opts o = COMPARE_OPTS_INIT;
	json_object *cmp = NULL;

	REQUIRE(side_load(&sa, a, &err) == 0);
	CHECK_EQ_INT(side_load(&sf, f, &err), -1);
	CHECK_CONTAINS(err.buf, "has status crash");
	CHECK_CONTAINS(err.buf, "only runs that passed are compared");
	sb_reset(&err);
	REQUIRE(mkdir(empty, 0755) == 0);
	CHECK_EQ_INT(side_load(&se, empty, &err), -1);
	CHECK_CONTAINS(err.buf, "holds no result.json");
	sb_reset(&err);
	REQUIRE(side_load(&sq, q, &err) == 0);
	CHECK_EQ_INT(compare_sides(&sa, &sq, &o, &cmp, &err), -1);
	CHECK_CONTAINS(err.buf, "vm.qemu_version: 7.2.22 vs 8.0.0");
	o.allow_mismatch = 1;
	REQUIRE(compare_sides(&sa, &sq, &o, &cmp, &err) == 0);
	CHECK_STR(jstr(json_object_array_get_idx(jget(cmp, "mismatch"), 0), "key", ""), "vm.qemu_version");
	struct strbuf md = STRBUF_INIT;
	compare_md(cmp, &md);
	CHECK_CONTAINS(md.buf, "WARNING: different environments");
	sb_release(&md);
	json_object_put(cmp);
	side_release(&sa);
	side_release(&sf);
	side_release(&sq);
	side_release(&se);
	sb_release(&err);
	free(a);
	free(f);
	free(q);
	free(empty);
}

/* A second update of the same key replaces the baseline in one swap: the
 * new figures are there, nothing of the old or of the swap is left, and
 * the lock is a hidden file of the directory. */
TEST(baseline_update_replaces_in_one_swap)
{
	const char *t = test_tmpdir();
	char *bdir = xstrfmt("%s/baselines", t);
	char *a = make_run(t, "a", 100000, "pass", "7.2.22");
	char *b = make_run(t, "b", 120000, "pass", "7.2.22");
	char *p1 = NULL, *p2 = NULL, *rj;
	json_object *root = NULL;
	struct strbuf err = STRBUF_INIT;
	DIR *d;
	struct dirent *de;
	int entries = 0;

	util_quiet = 1;
	REQUIRE(baseline_update(bdir, a, &p1) == 0);
	REQUIRE(baseline_update(bdir, b, &p2) == 0);
	util_quiet = 0;
	CHECK_STR(p1, p2);
	rj = xstrfmt("%s/1/result.json", p2);
	REQUIRE(json_load_object(rj, &root, &err) == 0);
	CHECK_STR(jstr(root, "run_id", ""), "r-b");
	REQUIRE((d = opendir(bdir)) != NULL);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			entries++;
			CHECK(!strcmp(de->d_name, path_basename(p2)) ||
			      !strcmp(de->d_name, ".update.lock"));
		}
	closedir(d);
	CHECK_EQ_INT(entries, 2);
	json_object_put(root);
	sb_release(&err);
	free(rj);
	free(p1);
	free(p2);
	free(a);
	free(b);
	free(bdir);
}

TEST(baseline_update_find_and_refuse)
{
	const char *t = test_tmpdir();
	char *bdir = xstrfmt("%s/baselines", t);
	char *a = make_run(t, "a", 100000, "pass", "7.2.22");
	char *f = make_run(t, "f", 100000, "fail", "7.2.22");
	char *q = make_run(t, "q", 100000, "pass", "8.0.0");
	char *path = NULL;
	struct strbuf why = STRBUF_INIT, err = STRBUF_INIT;
	struct side s;

	REQUIRE(mkdir(bdir, 0755) == 0);
	REQUIRE(side_load(&s, a, &err) == 0);
	CHECK_EQ_INT(baseline_find(bdir, s.roots[0], &path, &why), 0);
	CHECK_CONTAINS(why.buf, "no baseline for scenario 's'");
	sb_reset(&why);

	util_quiet = 1;
	CHECK_EQ_INT(baseline_update(bdir, f, &path), -1);	/* failed run refused */
	REQUIRE(baseline_update(bdir, a, &path) == 0);
	CHECK_CONTAINS(path, "/s--");
	char *first = xstrfmt("%s/1/result.json", path);
	CHECK(path_exists(first));
	free(first);
	free(path);
	path = NULL;

	CHECK_EQ_INT(baseline_find(bdir, s.roots[0], &path, &why), 1);
	REQUIRE(path);
	free(path);
	path = NULL;
	side_release(&s);

	/* Same scenario, another QEMU: refused, with the key named. */
	REQUIRE(side_load(&s, q, &err) == 0);
	CHECK_EQ_INT(baseline_find(bdir, s.roots[0], &path, &why), -1);
	CHECK_CONTAINS(why.buf, "vm.qemu_version: baseline 7.2.22, run 8.0.0");
	side_release(&s);

	/* Every key compare requires to match is in the baseline's key: a
	 * run of the scenario with another disk count (a matrix override)
	 * finds no baseline instead of one compare would then refuse. */
	REQUIRE(side_load(&s, a, &err) == 0);
	json_object_object_add(json_object_object_get(s.roots[0], "settings"), "disks",
			       json_object_new_int(1000));
	sb_reset(&why);
	CHECK_EQ_INT(baseline_find(bdir, s.roots[0], &path, &why), -1);
	CHECK_CONTAINS(why.buf, "settings.disks: baseline ");
	CHECK_CONTAINS(why.buf, ", run 1000");
	side_release(&s);
	sb_release(&why);
	sb_release(&err);
	free(bdir);
	free(a);
	free(f);
	free(q);
}

/* A night judged run by run, without booting: a run with no baseline on
 * this runner counts (and says what to do), the first-night mode records
 * one, and the next night is compared with it and names the regression. */
TEST(nightly_judge_missing_recorded_then_compared)
{
	const char *t = test_tmpdir();
	char *bdir = xstrfmt("%s/night-baselines", t);
	char *a = make_run(t, "na", 100000, "pass", "7.2.22");
	char *b = make_run(t, "nb", 110000, "pass", "7.2.22");
	char *q = make_run(t, "nq", 100000, "pass", "8.0.0");
	char *f = make_run(t, "nf", 100000, "fail", "7.2.22");
	struct nightly_opts o = NIGHTLY_OPTS_INIT;
	struct nightly_result res;
	json_object *sum = json_object_new_object(), *rows = json_object_new_array(), *r;
	struct nightly_model m;
	struct strbuf md = STRBUF_INIT, xml = STRBUF_INIT;

	memset(&res, 0, sizeof(res));
	o.baselines = bdir;
	util_quiet = 1;

	/* No baseline (the directory does not even exist): counted. */
	r = nightly_judge("s", 1, a, &o, &res);
	CHECK_EQ_INT(res.without_baseline, 1);
	CHECK_STR(jstr(r, "verdict", ""), "no baseline");
	CHECK(json_object_get_boolean(jget(r, "without_baseline")));
	CHECK_STR(jstr(r, "accel", ""), "tcg");
	CHECK_STR(jstr(r, "qemu", ""), "7.2.22");
	json_object_array_add(rows, r);

	/* The first night: recorded, not counted as missing. */
	o.record = 1;
	r = nightly_judge("s", 1, a, &o, &res);
	CHECK_EQ_INT(res.recorded, 1);
	CHECK_EQ_INT(res.without_baseline, 1);
	CHECK_STR(jstr(r, "verdict", ""), "baseline recorded");
	CHECK_CONTAINS(jstr(r, "baseline", ""), "/s--");
	CHECK(!json_object_get_boolean(jget(r, "without_baseline")));
	json_object_put(r);

	/* Recording again does not replace it: a run with a baseline is
	 * compared, first-night mode or not. */
	r = nightly_judge("s", 1, b, &o, &res);
	CHECK_EQ_INT(res.recorded, 1);
	CHECK_EQ_INT(res.regressed, 1);
	CHECK_STR(jstr(r, "verdict", ""), "regression");
	json_object_array_add(rows, r);
	char *cj = xstrfmt("%s/compare.json", b);
	CHECK(path_exists(cj));
	free(cj);

	/* Another QEMU on the runner: the committed baseline is not its. */
	o.record = 0;
	r = nightly_judge("s", 1, q, &o, &res);
	CHECK_EQ_INT(res.without_baseline, 2);
	CHECK_STR(jstr(r, "verdict", ""), "baseline for another environment");
	CHECK_STR(jstr(r, "qemu", ""), "8.0.0");
	json_object_array_add(rows, r);

	/* A failed run is a failure, not a missing baseline. */
	r = nightly_judge("s", 0, f, &o, &res);
	CHECK_EQ_INT(res.failed, 1);
	CHECK_EQ_INT(res.without_baseline, 2);
	CHECK(!json_object_get_boolean(jget(r, "without_baseline")));
	json_object_put(r);

	/* The summary names the regression's metric, both figures and the
	 * change, and each missing baseline with the runner and the fix. */
	json_object_object_add(sum, "stamp", json_object_new_string("x"));
	json_object_object_add(sum, "runs", rows);
	json_object_object_add(sum, "without_baseline", json_object_new_int(res.without_baseline));
	nightly_model_from_json(sum, t, &m);
	markdown_nightly(&m, &md);
	junit_nightly(&m, &xml);
	CHECK_CONTAINS(md.buf, "- s: MemFree per disk (B): baseline 100,000, tonight 110,000, "
			       "change +10,000 (+10.0%)");
	CHECK_CONTAINS(md.buf, "- no baseline for s on this runner (accel tcg, qemu 7.2.22): run "
			       "`make nightly-first` / `scaletest nightly --record-baselines`");
	CHECK_CONTAINS(md.buf, "- no baseline for s on this runner (accel tcg, qemu 8.0.0)");
	/* Each run's suites named for the run, so none merge in CI. */
	CHECK_CONTAINS(xml.buf, "<testsuite name=\"scaletest.baseline.s.na\" tests=\"1\" failures=\"1\" errors=\"0\">");
	CHECK_CONTAINS(xml.buf, "<testsuite name=\"scaletest.baseline.s.nq\" tests=\"1\" failures=\"1\" errors=\"0\">");
	CHECK_CONTAINS(xml.buf, "<testsuite name=\"scaletest.compare.s.nb\"");
	nightly_model_release(&m);
	json_object_put(sum);
	sb_release(&md);
	sb_release(&xml);
	free(bdir);
	free(a);
	free(b);
	free(q);
	free(f);
}

TEST(junit_escapes_and_counts)
{
	json_object *root = json_tokener_parse(
		"{\"status\": \"fail\", \"reason\": \"<b>\\u0001bad</b>\","
		" \"scenario\": {\"name\": \"x&y\"},"
		" \"checks\": [{\"name\": \"a \\\"quoted\\\" check\", \"pass\": false, \"detail\": \"sd<script>\"},"
		" {\"name\": \"ok\", \"pass\": true, \"detail\": \"\"}]}");
	struct strbuf x = STRBUF_INIT;

	REQUIRE(root);
	struct report_model rm;
	report_model_from_json(root, &rm);
	junit_run(&rm, &x);
	report_model_release(&rm);
	/* status fail and the failed check: two <failure>, both counted. */
	CHECK_CONTAINS(x.buf, "<testsuites tests=\"3\" failures=\"2\" errors=\"0\">");
	CHECK_CONTAINS(x.buf, "<testsuite name=\"scaletest.x&amp;y\" tests=\"3\" failures=\"2\" errors=\"0\"");
	CHECK_CONTAINS(x.buf, "name=\"a &quot;quoted&quot; check\"");
	/* The reason as the message, and in the text CI shows. */
	CHECK_CONTAINS(x.buf, "<failure message=\"sd&lt;script&gt;\" type=\"check\">"
		       "check failed: a &quot;quoted&quot; check\nreason: sd&lt;script&gt;\n</failure>");
	CHECK_CONTAINS(x.buf, "<failure message=\"fail: &lt;b&gt;?bad&lt;/b&gt;\" type=\"fail\">");
	CHECK_CONTAINS(x.buf, "<system-out>scaletest ?: fail (&lt;b&gt;?bad&lt;/b&gt;)\n");
	CHECK(!strstr(x.buf, "<error"));
	CHECK(!strstr(x.buf, "<script>"));
	CHECK(!memchr(x.buf, '\001', x.len));
	json_object_put(root);
	sb_release(&x);
}

/* A crash of the kernel is a <failure> on the run's status, of the
 * crash's class (outcome.h: the kernel failed, the test did not break);
 * a check the crash kept from running is <skipped>, counted in skipped,
 * its text with the class, the title and the console; "]]>" or markup in
 * a console line stays text.  The suite is named for the run. */
TEST(junit_crash_is_a_failure_with_the_console)
{
	json_object *root = json_tokener_parse(
		"{\"run_id\": \"20261203-162316-smoke\", \"status\": \"crash\","
		" \"reason\": \"BUG: KASAN: use-after-free in f\","
		" \"started\": \"2026-12-03T16:23:16Z\", \"hostname\": \"h<1>\","
		" \"timings\": {\"total_s\": 12.5},"
		" \"crash\": {\"class\": \"kasan\", \"blame\": \"kernel\","
		"  \"title\": \"KASAN: use-after-free in f\", \"line\": 7,"
		"  \"context\": \"[ 1.0] ]]> <![CDATA[ x\\n[ 1.1] BUG: KASAN\"},"
		" \"checks\": [{\"name\": \"disks\", \"pass\": false, \"detail\": \"0 of 4\"}]}");
	struct strbuf x = STRBUF_INIT;
	struct report_model rm;

	REQUIRE(root);
	report_model_from_json(root, &rm);
	junit_run(&rm, &x);
	report_model_release(&rm);
	CHECK_CONTAINS(x.buf, "<testsuites tests=\"2\" failures=\"1\" errors=\"0\">");
	CHECK_CONTAINS(x.buf, "<testsuite name=\"scaletest.run.20261203-162316-smoke\" tests=\"2\" "
		       "failures=\"1\" errors=\"0\" skipped=\"1\" time=\"12.50\" timestamp=\"2026-12-03T16:23:16Z\" hostname=\"h&lt;1&gt;\">");
	CHECK_CONTAINS(x.buf, "name=\"run status\" time=\"12.50\">\n      <failure message=\"crash: BUG: "
		       "KASAN: use-after-free in f\" type=\"kasan\">status: crash\n");
	CHECK(!strstr(x.buf, "<error"));
	CHECK_CONTAINS(x.buf, "name=\"disks\" time=\"0.00\">\n      <skipped message=\"not judged: "
		       "the run ended early (crash: BUG: KASAN: use-after-free in f)\">"
		       "check not judged: disks\nwhat it found: 0 of 4\n"
		       "the run ended with status crash: BUG: KASAN: use-after-free in f\n"
		       "crash: kasan (blamed on the kernel): KASAN: use-after-free in f\n"
		       "console.log around line 7, where the report starts:\n"
		       "[ 1.0] ]]&gt; &lt;![CDATA[ x\n[ 1.1] BUG: KASAN\n</skipped>");
	CHECK(!strstr(x.buf, "]]>"));
	CHECK(!strstr(x.buf, "<![CDATA["));
	json_object_put(root);
	sb_release(&x);
}

/* A sweep run: MemFree per disk fitted from POINTS points with standard
 * error SE (the single-point figure the same for every run). */
static char *make_sweep_run(const char *dir, const char *name, long long bpd, long long se,
			    long long points)
{
	char *d = xstrfmt("%s/%s", dir, name);
	char *p = xstrfmt("%s/result.json", d);
	char *text = xstrfmt(
		"{\"schema\": 1, \"run_id\": \"r-%s\", \"status\": \"pass\", \"scenario\": {\"name\": \"s\"},"
		" \"settings\": {\"disks\": 100, \"memory_mb\": 512, \"cpus\": 1},"
		" \"kernel\": {\"version\": \"6.1\", \"arch\": \"x86_64\", \"source\": \"debian\"},"
		" \"vm\": {\"accel\": \"tcg\", \"qemu_version\": \"7.2.22\", \"memory_mb\": 512, \"cpus\": 1},"
		" \"deltas\": {\"insmod\": {\"per_disk_bytes\": {\"MemFree\": 350000}}},"
		" \"sweep\": {\"fit\": {\"MemFree\": {\"points\": %lld, \"bytes_per_disk\": %lld,"
		" \"bytes_per_disk_se\": %lld, \"fixed_kb\": 4000}}}}",
		name, points, bpd, se);

	REQUIRE(mkdir(d, 0755) == 0);
	REQUIRE(write_file(p, text, strlen(text)) == 0);
	free(p);
	free(text);
	return d;
}

/* One sweep against one: the fits' standard errors make a t-test of the
 * two slopes, so a 10% change is significant with tight fits and not
 * with loose ones; comparisons without a sweep do not list its metrics. */
TEST(compare_sweeps_test_the_fitted_slopes)
{
	const char *t = test_tmpdir();
	char *a = make_sweep_run(t, "sa", 350000, 1000, 6);
	char *b = make_sweep_run(t, "sb", 315000, 1000, 6);
	char *c = make_sweep_run(t, "sc", 315000, 40000, 6);
	char *d = make_run(t, "plain-a", 100000, "pass", "7.2.22");
	char *e = make_run(t, "plain-b", 100000, "pass", "7.2.22");
	struct side sa, sb, sc, sd, se;
	struct strbuf err = STRBUF_INIT;
	struct compare_opts o = COMPARE_OPTS_INIT;
	json_object *cmp, *m;

	REQUIRE(side_load(&sa, a, &err) == 0);
	REQUIRE(side_load(&sb, b, &err) == 0);
	REQUIRE(side_load(&sc, c, &err) == 0);
	REQUIRE(compare_sides(&sa, &sb, &o, &cmp, &err) == 0);
	m = metric(cmp, "MemFree per disk, fitted");
	REQUIRE(m);
	CHECK(jdouble(mside(m, 1), "p", 1) < 0.001);
	CHECK_STR(jstr(mside(m, 1), "verdict", ""), "improvement");
	CHECK(jdouble(mside(m, 0), "se", 0) == 1000);
	CHECK_EQ_INT(jint(mside(m, 0), "fit_points", 0), 6);
	CHECK_STR(jstr(cmp, "verdict", ""), "improvement");
	CHECK_STR(jstr(metric(cmp, "MemFree per disk"), "verdict", ""), "no change");
	json_object_put(cmp);

	REQUIRE(compare_sides(&sa, &sc, &o, &cmp, &err) == 0);
	m = metric(cmp, "MemFree per disk, fitted");
	REQUIRE(m);
	CHECK(jdouble(mside(m, 1), "p", 0) > 0.05);	/* -10%, but within the noise */
	CHECK_STR(jstr(mside(m, 1), "verdict", ""), "no change");
	json_object_put(cmp);

	REQUIRE(side_load(&sd, d, &err) == 0);
	REQUIRE(side_load(&se, e, &err) == 0);
	REQUIRE(compare_sides(&sd, &se, &o, &cmp, &err) == 0);
	CHECK(metric(cmp, "MemFree per disk, fitted") == NULL);
	CHECK(metric(cmp, "MemFree per disk") != NULL);
	json_object_put(cmp);
	side_release(&sa);
	side_release(&sb);
	side_release(&sc);
	side_release(&sd);
	side_release(&se);
	sb_release(&err);
	free(a);
	free(b);
	free(c);
	free(d);
	free(e);
}

/* A run whose insmod made 1600 disks on the curve t(d): quadratic (each
 * disk costs more than the last, a glue-directory walk) or linear. */
static char *curve_run(const char *dir, const char *name, int quadratic, double scale)
{
	char *d = xstrfmt("%s/%s", dir, name), *p = xstrfmt("%s/result.json", d);
	struct strbuf pts = STRBUF_INIT;
	char *text;

	for (int k = 0; k <= 40; k++) {
		double x = 40.0 * k, t = quadratic ? scale * x * x / 1e5 : scale * x / 50;
		sb_addf(&pts, "%s[%.0f, %.3f]", k ? ", " : "", x, t);
	}
	text = xstrfmt(
		"{\"schema\": 1, \"run_id\": \"r-%s\", \"status\": \"pass\", \"scenario\": {\"name\": \"s\"},"
		" \"settings\": {\"disks\": 1600, \"memory_mb\": 512, \"cpus\": 2},"
		" \"disks\": {\"requested\": 1600},"
		" \"kernel\": {\"version\": \"6.12\", \"arch\": \"x86_64\", \"source\": \"build\"},"
		" \"vm\": {\"accel\": \"tcg\", \"qemu_version\": \"7.2.22\", \"memory_mb\": 512, \"cpus\": 2},"
		" \"deltas\": {\"insmod\": {\"MemFree_kb\": -1000, \"per_disk_bytes\": {\"MemFree\": 120000}}},"
		" \"timings\": {\"enumerate_s\": 30},"
		" \"time_curves\": {\"insmod\": {\"disks\": 1600, \"wall_s\": 30, \"points\": [%s]}}}",
		name, pts.buf);
	REQUIRE(mkdir(d, 0755) == 0);
	REQUIRE(write_file(p, text, strlen(text)) == 0);
	sb_release(&pts);
	free(p);
	free(text);
	return d;
}

TEST(compare_series_time_per_disk_against_the_disks)
{
	const char *t = test_tmpdir();
	char *ga = xstrfmt("%s/stock", t), *gb = xstrfmt("%s/patched", t);
	struct side a, b;
	const struct side *v[2] = { &a, &b };
	struct strbuf err = STRBUF_INIT, md = STRBUF_INIT, page = STRBUF_INIT;
	struct compare_opts o = COMPARE_OPTS_INIT;
	struct compare_model cm;
	json_object *cmp;

	REQUIRE(mkdir(ga, 0755) == 0 && mkdir(gb, 0755) == 0);
	free(curve_run(ga, "1", 1, 1.0));
	free(curve_run(ga, "2", 1, 1.1));
	free(curve_run(gb, "1", 0, 1.0));
	free(curve_run(gb, "2", 0, 1.1));
	REQUIRE(side_load(&a, ga, &err) == 0);
	REQUIRE(side_load(&b, gb, &err) == 0);

	/* Without --series: none of it. */
	REQUIRE(compare_n(v, 2, &o, &cmp, &err) == 0);
	CHECK(!metric(cmp, "insmod per disk, last quarter"));
	CHECK(!jget(json_object_array_get_idx(jget(cmp, "sides"), 0), "insmod_curve"));
	CHECK(!jget(cmp, "command"));
	json_object_put(cmp);

	o.series = 1;
	o.threshold_pct = 2;
	REQUIRE(compare_n(v, 2, &o, &cmp, &err) == 0);
	/* The quarters: t = d^2/1e5 costs 4 ms a disk over the first 400,
	 * 28 over the last (times 1.1 in the second run); the line 20 and 20. */
	json_object *first = metric(cmp, "insmod per disk, first quarter");
	json_object *last = metric(cmp, "insmod per disk, last quarter");
	REQUIRE(first && last);
	CHECK(fabs(jdouble(mside(first, 0), "mean", 0) - 4.2) < 1e-6);
	CHECK(fabs(jdouble(mside(last, 0), "mean", 0) - 29.4) < 1e-6);
	CHECK(jdouble(mside(last, 0), "sd", 0) > 0);
	CHECK(fabs(jdouble(mside(first, 1), "mean", 0) - 21) < 1e-6);
	CHECK(fabs(jdouble(mside(last, 1), "mean", 0) - 21) < 1e-6);
	/* The curve: 16 ranges of 100 disks, rising on A, flat on B. */
	json_object *ca = jget(json_object_array_get_idx(jget(cmp, "sides"), 0), "insmod_curve.bins");
	json_object *cb = jget(json_object_array_get_idx(jget(cmp, "sides"), 1), "insmod_curve.bins");
	REQUIRE(ca && cb);
	CHECK_EQ_INT((long long)jlen(ca), 16);
	CHECK_EQ_INT(jint(json_object_array_get_idx(ca, 15), "from", 0), 1500);
	CHECK_EQ_INT(jint(json_object_array_get_idx(ca, 15), "n", 0), 2);
	for (size_t i = 1; i < 16; i++) {
		CHECK(jdouble(json_object_array_get_idx(ca, i), "ms_per_disk", 0) >
		      jdouble(json_object_array_get_idx(ca, i - 1), "ms_per_disk", 0));
		CHECK(fabs(jdouble(json_object_array_get_idx(cb, i), "ms_per_disk", 0) - 21) < 1e-6);
	}
	/* The command that makes the page, the paths quoted for a shell. */
	CHECK_CONTAINS(jstr(cmp, "command", ""), "bin/scaletest compare --series --threshold 2 ");
	CHECK_CONTAINS(jstr(cmp, "command", ""), "/stock ");
	compare_md(cmp, &md);
	CHECK_CONTAINS(md.buf, "## Time per disk against the disks present");
	/* 1500 between the points at 1480 and 1520, interpolated: 30.96 and
	 * 34.06 ms a disk (the points have three decimals) */
	CHECK(fabs(jdouble(json_object_array_get_idx(ca, 15), "ms_per_disk", 0) - 32.51) < 1e-6);
	CHECK(fabs(jdouble(json_object_array_get_idx(ca, 15), "sd", 0) - 3.1 / sqrt(2)) < 1e-6);
	CHECK_CONTAINS(md.buf, "| 1,500 to 1,600 | 32.5 \xc2\xb1 2.19 | 21 \xc2\xb1 1.41 |");
	CHECK_CONTAINS(md.buf, "insmod per disk, last quarter (ms)");
	CHECK_CONTAINS(md.buf, "## Reproduce");
	CHECK_CONTAINS(md.buf, " --out DIR\n");
	compare_model_from_json(cmp, &cm);
	html_compare(&cm, &page);
	compare_model_release(&cm);
	const char *chart = strstr(page.buf, "class=\"chart overlay curve\"");
	REQUIRE(chart);
	CHECK_EQ_INT(count_of(chart, "<polyline class=\"series side\""), 2);
	json_object_put(cmp);
	side_release(&a);
	side_release(&b);
	sb_release(&err);
	sb_release(&md);
	sb_release(&page);
	free(ga);
	free(gb);
}


/* A series of three sides of one kernel (one class each, say): each is
 * named by its directory too, the third as well as the first two. */
TEST(compare_series_labels_three_sides_of_one_kernel)
{
	const char *t = test_tmpdir();
	const char *names[3] = { "scsi_debug-6.12", "null_blk-6.12", "nvme_loop-6.12" };
	struct side s[3];
	const struct side *v[3] = { &s[0], &s[1], &s[2] };
	struct strbuf err = STRBUF_INIT;
	char **l;

	for (size_t i = 0; i < 3; i++) {
		char *g = xstrfmt("%s/%s", t, names[i]);
		REQUIRE(mkdir(g, 0755) == 0);
		free(curve_run(g, "1", 0, 1.0));
		REQUIRE(side_load(&s[i], g, &err) == 0);
		free(g);
	}
	l = side_labels(v, 3, 1);
	for (size_t i = 0; i < 3; i++) {
		CHECK_CONTAINS(l[i], "6.12, build");
		CHECK_CONTAINS(l[i], names[i]);
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(l[i], l[j]) != 0);
	}
	for (size_t i = 0; i < 3; i++) {
		free(l[i]);
		side_release(&s[i]);
	}
	free(l);
	sb_release(&err);
}
TEST(timecurve_time_at_interpolates_and_refuses_time_going_back)
{
	json_object *c = json_tokener_parse(
		"{\"points\": [[0, 0], [10, 1], [10, 2], [30, 4], \"junk\", [40, 5]]}");
	json_object *bad = json_tokener_parse("{\"points\": [[0, 0], [10, 3], [20, 2]]}");
	double t = -1;

	REQUIRE(c && bad);
	CHECK(timecurve_time_at(c, 0, &t) == 0 && t == 0);
	CHECK(timecurve_time_at(c, 5, &t) == 0 && fabs(t - 0.5) < 1e-12);
	CHECK(timecurve_time_at(c, 10, &t) == 0 && t == 1);	/* the first time it got there */
	CHECK(timecurve_time_at(c, 20, &t) == 0 && fabs(t - 3) < 1e-12);
	CHECK(timecurve_time_at(c, 40, &t) == 0 && t == 5);
	CHECK(timecurve_time_at(c, 41, &t) == -1);		/* never reached */
	CHECK(timecurve_time_at(bad, 15, &t) == -1);		/* not a curve */
	CHECK(timecurve_time_at(NULL, 1, &t) == -1);
	json_object_put(c);
	json_object_put(bad);
}

/* Runs made with one --out directory leave a "latest" link beside them:
 * a group is its run directories, the link is not one more run. */
TEST(compare_group_ignores_links)
{
	const char *t = test_tmpdir();
	char *g = xstrfmt("%s/g", t), *l = xstrfmt("%s/g/latest", t);
	struct side s;
	struct strbuf err = STRBUF_INIT;

	REQUIRE(mkdir(g, 0755) == 0);
	free(make_run(g, "20260101-000000-s", 100000, "pass", "7.2.22"));
	free(make_run(g, "20260101-000100-s", 100100, "pass", "7.2.22"));
	REQUIRE(symlink("20260101-000100-s", l) == 0);
	REQUIRE(side_load(&s, g, &err) == 0);
	CHECK_EQ_INT((long long)s.n, 2);
	side_release(&s);
	sb_release(&err);
	free(g);
	free(l);
}
