// SPDX-License-Identifier: Apache-2.0
/* bisect: the criterion's judgements and the reading of git bisect's
 * output (fixtures captured from git 2.39's bisect in a bare clone). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

#include "campaign/bisect.h"
#include "campaign/criterion.h"

static struct criterion limit(enum crit_kind kind, double at)
{
	struct criterion c = CRITERION_INIT;

	c.metric = bisect_metric_find("memfree_per_disk");
	c.kind = kind;
	c.limit = at;
	return c;
}

static enum judgement judge(const struct criterion *c, const double *v, size_t n)
{
	struct strbuf why = STRBUF_INIT;
	enum judgement j = criterion_judge(c, v, n, &why);

	if (!why.len)
		test_fail(__FILE__, __LINE__, "no reason given");
	sb_release(&why);
	return j;
}

TEST(bisect_metrics_by_name)
{
	CHECK(bisect_metric_find("lowfree_per_disk") != NULL);
	CHECK(bisect_metric_find("nope") == NULL);
	CHECK(bisect_metric_find("") == NULL);
}

TEST(bisect_limit_far_from_the_boundary_decides_at_once)
{
	struct criterion c = limit(CRIT_MAX, 100000);
	double lo = 50000, hi = 150000;

	CHECK_EQ_INT(judge(&c, &lo, 1), JUDGE_GOOD);
	CHECK_EQ_INT(judge(&c, &hi, 1), JUDGE_BAD);
	c = limit(CRIT_MIN, 100000);
	CHECK_EQ_INT(judge(&c, &lo, 1), JUDGE_BAD);
	CHECK_EQ_INT(judge(&c, &hi, 1), JUDGE_GOOD);
}

TEST(bisect_limit_near_the_boundary_repeats_then_tests)
{
	struct criterion c = limit(CRIT_MAX, 100000);
	double above[] = { 101000, 101200, 100900 };	/* 1% above, tight */
	double noisy[] = { 101000, 96000, 106000 };	/* mean above, spread wide */

	CHECK_EQ_INT(judge(&c, above, 1), JUDGE_REPEAT);
	CHECK_EQ_INT(judge(&c, above, 2), JUDGE_REPEAT);
	CHECK_EQ_INT(judge(&c, above, 3), JUDGE_BAD);	/* t-test: clearly above */
	CHECK_EQ_INT(judge(&c, noisy, 3), JUDGE_SKIP);	/* within noise: skip */
	/* --runs 1: no repeats, the side decides */
	c.max_runs = 1;
	CHECK_EQ_INT(judge(&c, above, 1), JUDGE_BAD);
}

TEST(bisect_base_uses_compare_rule)
{
	struct criterion c = limit(CRIT_BASE, 0);
	double base[] = { 100000 };
	double same = 101000, worse = 130000, better = 60000, near[] = { 104000, 104100, 103900 };

	c.base = base;
	c.nbase = 1;
	CHECK_EQ_INT(judge(&c, &same, 1), JUDGE_GOOD);	/* 1%: no change */
	CHECK_EQ_INT(judge(&c, &worse, 1), JUDGE_BAD);	/* 30% worse */
	CHECK_EQ_INT(judge(&c, &better, 1), JUDGE_GOOD);	/* an improvement is good */
	CHECK_EQ_INT(judge(&c, near, 1), JUDGE_REPEAT);	/* 4%: near 5% */
	CHECK_EQ_INT(judge(&c, near, 3), JUDGE_GOOD);	/* below 5% after the runs */
}

TEST(bisect_describe_says_the_rule)
{
	struct criterion c = limit(CRIT_MAX, 150000);
	struct strbuf sb = STRBUF_INIT;

	criterion_describe(&c, &sb);
	CHECK_STR(sb.buf, "memfree_per_disk > 150000 B is bad");
	sb_release(&sb);
}

static int mark(const char *name, struct strbuf *first, json_object *cands)
{
	size_t n;
	char *buf = fixture(name, &n);
	int r = bisect_parse_mark(buf, n, first, cands);

	free(buf);
	return r;
}

TEST(bisect_mark_reads_real_git_output)
{
	struct strbuf first = STRBUF_INIT;
	json_object *cands = json_object_new_array();

	CHECK_EQ_INT(mark("bisect/more.txt", &first, cands), BISECT_MARK_MORE);
	CHECK_EQ_INT(mark("bisect/more2.txt", &first, cands), BISECT_MARK_MORE);
	CHECK_EQ_INT(first.len, 0);
	CHECK_EQ_INT(mark("bisect/found.txt", &first, cands), BISECT_MARK_FOUND);
	CHECK_STR(first.buf, "6da7583c48f3eeea71e385f6ea450a5d53ba5b22");
	sb_reset(&first);
	CHECK_EQ_INT(mark("bisect/skipped.txt", &first, cands), BISECT_MARK_SKIPPED);
	CHECK_EQ_INT(json_object_array_length(cands), 4);
	CHECK_STR(json_object_get_string(json_object_array_get_idx(cands, 0)),
		  "6da7583c48f3eeea71e385f6ea450a5d53ba5b22");
	json_object_put(cands);
	sb_release(&first);
}

TEST(bisect_mark_is_not_fooled_by_a_subject)
{
	struct strbuf first = STRBUF_INIT;
	json_object *cands = json_object_new_array();
	static const char *const bad[] = {
		"", "\n\n", "is the first bad commit\n",
		"6da7583c is the first bad commit\n",
		"6DA7583C48F3EEEA71E385F6EA450A5D53BA5B22 is the first bad commit\n",
		"6da7583c48f3eeea71e385f6ea450a5d53ba5b22 is the first bad commit, maybe\n",
		"The first bad commit could be any of:\n6da7583c48f3eeea71e385f6ea450a5d53ba5b22\n",
	};

	/* The subject of a commit names another as "the first bad commit". */
	CHECK_EQ_INT(mark("bisect/subject-trap.txt", &first, cands), BISECT_MARK_MORE);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		CHECK_EQ_INT(bisect_parse_mark(bad[i], strlen(bad[i]), &first, cands),
			     BISECT_MARK_MORE);
		CHECK_EQ_INT(first.len, 0);
	}
	CHECK_EQ_INT(json_object_array_length(cands), 0);
	/* No newline at the end, NUL bytes inside: whole lines still. */
	static const char nul[] = "x\0y\n6da7583c48f3eeea71e385f6ea450a5d53ba5b22 is the first bad commit";
	CHECK_EQ_INT(bisect_parse_mark(nul, sizeof(nul) - 1, &first, cands), BISECT_MARK_FOUND);
	json_object_put(cands);
	sb_release(&first);
}
