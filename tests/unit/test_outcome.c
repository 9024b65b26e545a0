// SPDX-License-Identifier: Apache-2.0
/*
 * One verdict model (report/outcome.h) for JUnit and KCIDB: the table's
 * cells agree across the formats, and both writers, fed every status,
 * crash class and kind of check the model can hold, say the same thing
 * about each check and about the run.
 */
#include <stdlib.h>
#include <string.h>

#include "report/junit.h"
#include "report/kcidb.h"
#include "report/model.h"
#include "report/outcome.h"
#include "test.h"
#include "lib/json.h"
#include "lib/util.h"

/* The KCIDB statuses a JUnit element may stand beside. */
static int formats_agree(enum outcome_junit j, const char *kcidb)
{
	switch (j) {
	case OUTCOME_PASS:
		return !strcmp(kcidb, "PASS");
	case OUTCOME_FAILURE:
		return !strcmp(kcidb, "FAIL");
	case OUTCOME_ERROR:
		return !strcmp(kcidb, "ERROR");
	case OUTCOME_SKIPPED:
		return !strcmp(kcidb, "SKIP") || !strcmp(kcidb, "MISS");
	}
	return 0;
}

TEST(outcome_table_cells_agree)
{
	size_t cells = 0;

	for (int s = 0; s < OUTCOME_SUBJECTS; s++)
		for (int e = 0; e < RUN_ENDS; e++) {
			const struct outcome *o = &outcome_table[s][e];

			cells++;
			REQUIRE(o->kcidb);
			if (!formats_agree(o->junit, o->kcidb))
				test_fail(__FILE__, __LINE__, "cell [%d][%s]: JUnit %d beside KCIDB %s",
					  s, outcome_end_name(e), (int)o->junit, o->kcidb);
			/* The kernel's crash is never blamed on the harness. */
			if (e == RUN_END_KERNEL)
				CHECK(strcmp(o->kcidb, "MISS") && strcmp(o->kcidb, "ERROR") &&
				      o->junit != OUTCOME_ERROR);
		}
	CHECK_EQ_INT(cells, OUTCOME_SUBJECTS * RUN_ENDS);
	/* The run's row: a crash of the kernel is a failure in both. */
	CHECK_EQ_INT(outcome_table[OUTCOME_RUN][RUN_END_KERNEL].junit, OUTCOME_FAILURE);
	CHECK_STR(outcome_table[OUTCOME_RUN][RUN_END_KERNEL].kcidb, "FAIL");
	CHECK_EQ_INT(outcome_table[OUTCOME_RUN][RUN_END_HARNESS].junit, OUTCOME_ERROR);
	/* Checks a crash kept from running are skipped, SKIP not MISS. */
	CHECK_EQ_INT(outcome_table[OUTCOME_CHECK_FAILED][RUN_END_KERNEL].junit, OUTCOME_SKIPPED);
	CHECK_STR(outcome_table[OUTCOME_CHECK_FAILED][RUN_END_KERNEL].kcidb, "SKIP");
	CHECK_STR(outcome_table[OUTCOME_CHECK_FAILED][RUN_END_HARNESS].kcidb, "MISS");
}

/* The element of test case NAME in a JUnit document. */
static enum outcome_junit junit_of(const char *xml, const char *name)
{
	char *want = xstrfmt("name=\"%s\" time=\"", name);
	const char *p = strstr(xml, want), *end;

	free(want);
	if (!p)
		return (enum outcome_junit)-1;
	end = strstr(p, ">");
	if (end && end[-1] == '/')
		return OUTCOME_PASS;
	if (!end)
		return (enum outcome_junit)-1;
	end++;
	while (*end == '\n' || *end == ' ')
		end++;
	if (!strncmp(end, "<failure", 8))
		return OUTCOME_FAILURE;
	if (!strncmp(end, "<error", 6))
		return OUTCOME_ERROR;
	if (!strncmp(end, "<skipped", 8))
		return OUTCOME_SKIPPED;
	return (enum outcome_junit)-1;
}

/* The status of the test at PATH in a KCIDB document ("" if none). */
static const char *kcidb_of(json_object *doc, const char *path)
{
	json_object *tests = jget(doc, "tests");

	for (size_t i = 0; i < jlen(tests); i++) {
		json_object *t = json_object_array_get_idx(tests, i);

		if (!strcmp(jstr(t, "path", ""), path))
			return jstr(t, "status", "");
	}
	return "";
}

/* Every status the harness writes and one it does not, with no crash, a
 * crash class blamed on the kernel and one blamed on the harness, with
 * the run measuring every phase or not: each check and the run, through
 * both writers, agree with each other and with the table. */
TEST(outcome_writers_agree_on_every_combination)
{
	static const char *const statuses[] = {
		"pass", "fail", "crash", "oom", "timeout", "error", "interrupted", "odd", NULL,
	};
	static const char *const crashes[] = {
		"", ", \"crash\": {\"class\": \"panic\", \"blame\": \"kernel\", \"title\": \"t\"}",
		", \"crash\": {\"class\": \"qemu-exited\", \"blame\": \"harness\", \"title\": \"t\"}",
	};
	/* name in result.json, its KCIDB path */
	static const char *const checks[][2] = {
		{ "no crash", "scaletest.checks.no_crash" },
		{ "no OOM", "scaletest.checks.no_OOM" },
		{ "disks present", "scaletest.checks.disks_present" },
		{ "all phases measured", "scaletest.checks.all_phases_measured" },
		{ "io", "scaletest.checks.io" },
	};
	size_t combos = 0, seen[OUTCOME_SUBJECTS][RUN_ENDS];

	memset(seen, 0, sizeof(seen));
	for (size_t s = 0; s < ARRAY_SIZE(statuses); s++)
		for (size_t c = 0; c < ARRAY_SIZE(crashes); c++)
			for (int all = 0; all < 2; all++) {
				struct strbuf js = STRBUF_INIT, xml = STRBUF_INIT, kc = STRBUF_INIT;
				struct report_model m;
				struct kcidb k;
				json_object *root, *doc;

				sb_adds(&js, "{\"run_id\": \"r\"");
				if (statuses[s])
					sb_addf(&js, ", \"status\": \"%s\"", statuses[s]);
				sb_addf(&js, "%s, \"checks\": ["
					"{\"name\": \"no crash\", \"pass\": false, \"detail\": \"d\"},"
					"{\"name\": \"no OOM\", \"pass\": true, \"detail\": \"d\"},"
					"{\"name\": \"disks present\", \"pass\": false, \"detail\": \"d\"},"
					"{\"name\": \"all phases measured\", \"pass\": %s, \"detail\": \"d\"},"
					"{\"name\": \"io\", \"pass\": true, \"detail\": \"d\"}]}",
					crashes[c], all ? "true" : "false");
				root = json_tokener_parse(js.buf);
				REQUIRE(root);
				report_model_from_json(root, &m);
				junit_run(&m, &xml);
				kcidb_init(&k, NULL);
				kcidb_add_run(&k, "r", NULL, &m);
				kcidb_write(&k, &kc);
				doc = json_tokener_parse(kc.buf);
				REQUIRE(doc);

				/* The run. */
				{
					const struct outcome *o = outcome_run(&m);
					enum outcome_junit j = junit_of(xml.buf, "run status");
					const char *st = kcidb_of(doc, "scaletest");

					seen[OUTCOME_RUN][outcome_run_end(&m)]++;
					if (j != o->junit || strcmp(st, o->kcidb) || !formats_agree(j, st))
						test_fail(__FILE__, __LINE__, "%s: the run is JUnit %d, KCIDB %s; "
							  "the table says %d, %s", js.buf, (int)j, st,
							  (int)o->junit, o->kcidb);
				}
				for (size_t i = 0; i < ARRAY_SIZE(checks); i++) {
					const struct report_check *rc = NULL;
					enum outcome_junit j = junit_of(xml.buf, checks[i][0]);
					const char *st = kcidb_of(doc, checks[i][1]);
					const struct outcome *o;

					for (size_t n = 0; n < m.nchecks; n++)
						if (!strcmp(m.checks[n].name, checks[i][0]))
							rc = &m.checks[n];
					REQUIRE(rc);
					o = outcome_check(&m, rc);
					seen[outcome_check_subject(&m, rc)][outcome_run_end(&m)]++;
					if (j != o->junit || strcmp(st, o->kcidb) || !formats_agree(j, st))
						test_fail(__FILE__, __LINE__, "%s: check '%s' is JUnit %d, "
							  "KCIDB %s; the table says %d, %s", js.buf,
							  checks[i][0], (int)j, st, (int)o->junit, o->kcidb);
				}
				combos++;
				json_object_put(doc);
				json_object_put(root);
				report_model_release(&m);
				sb_release(&js);
				sb_release(&xml);
				sb_release(&kc);
			}
	CHECK_EQ_INT(combos, ARRAY_SIZE(statuses) * ARRAY_SIZE(crashes) * 2);
	/* Every cell of the table was reached through the writers. */
	for (int s = 0; s < OUTCOME_SUBJECTS; s++)
		for (int e = 0; e < RUN_ENDS; e++)
			if (!seen[s][e])
				test_fail(__FILE__, __LINE__, "cell [%d][%s] never reached", s,
					  outcome_end_name(e));
}

/* How a run ended, from its status and its crash's blame. */
TEST(outcome_run_end_from_status_and_blame)
{
	static const struct {
		const char *json;
		enum run_end want;
	} cases[] = {
		{ "{\"status\": \"pass\"}", RUN_END_PASS },
		{ "{\"status\": \"fail\"}", RUN_END_FAIL },
		{ "{\"status\": \"crash\"}", RUN_END_KERNEL },
		{ "{\"status\": \"oom\", \"crash\": {\"class\": \"oom\", \"blame\": \"kernel\"}}",
		  RUN_END_KERNEL },
		{ "{\"status\": \"timeout\", \"crash\": {\"class\": \"hung-task\", \"blame\": \"kernel\"}}",
		  RUN_END_KERNEL },
		{ "{\"status\": \"timeout\"}", RUN_END_HARNESS },
		{ "{\"status\": \"timeout\", \"crash\": {\"class\": \"hang\", \"blame\": \"harness\"}}",
		  RUN_END_HARNESS },
		{ "{\"status\": \"error\", \"crash\": {\"class\": \"channel-lost\", \"blame\": \"harness\"}}",
		  RUN_END_HARNESS },
		{ "{\"status\": \"crash\", \"crash\": {\"class\": \"qemu-exited\", \"blame\": \"harness\"}}",
		  RUN_END_HARNESS },
		{ "{\"status\": \"interrupted\"}", RUN_END_HARNESS },
		{ "{\"status\": \"no such status\"}", RUN_END_HARNESS },
		{ "{}", RUN_END_HARNESS },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		json_object *root = json_tokener_parse(cases[i].json);
		struct report_model m;

		REQUIRE(root);
		report_model_from_json(root, &m);
		if (outcome_run_end(&m) != cases[i].want)
			test_fail(__FILE__, __LINE__, "%s ended '%s', want '%s'", cases[i].json,
				  outcome_end_name(outcome_run_end(&m)), outcome_end_name(cases[i].want));
		report_model_release(&m);
		json_object_put(root);
	}
}
