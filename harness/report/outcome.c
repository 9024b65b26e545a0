// SPDX-License-Identifier: Apache-2.0
#include "report/outcome.h"

#include <string.h>

#include "lib/util.h"

#define PASS_ { OUTCOME_PASS, "PASS" }
#define FAIL_ { OUTCOME_FAILURE, "FAIL" }

/* The table outcome.h draws: [what is judged][how the run ended]. */
const struct outcome outcome_table[OUTCOME_SUBJECTS][RUN_ENDS] = {
	/*                          pass   fail   kernel  harness */
	[OUTCOME_RUN] =            { PASS_, FAIL_, FAIL_, { OUTCOME_ERROR, "ERROR" } },
	[OUTCOME_CHECK_PASSED] =   { PASS_, PASS_, PASS_, PASS_ },
	[OUTCOME_CHECK_FAILED_WHOLE] = { FAIL_, FAIL_, FAIL_, FAIL_ },
	[OUTCOME_CHECK_FAILED] =   { FAIL_, FAIL_, { OUTCOME_SKIPPED, "SKIP" },
				     { OUTCOME_SKIPPED, "MISS" } },
};

/* A run status as result.json writes it: how the run ended without a
 * crash class, and whether a crash class's blame decides instead. */
static const struct {
	const char *status;
	enum run_end end;
	int by_blame;
} statuses[] = {
	{ "pass", RUN_END_PASS, 0 },
	{ "fail", RUN_END_FAIL, 0 },
	{ "crash", RUN_END_KERNEL, 1 },
	{ "oom", RUN_END_KERNEL, 1 },
	{ "timeout", RUN_END_HARNESS, 1 },
	{ "error", RUN_END_HARNESS, 0 },
	{ "interrupted", RUN_END_HARNESS, 0 },
};

/* Checks that read the whole console: judged even when a run ended early. */
static const char *const whole_console[] = { "no crash", "no OOM" };
/* The check that says the guest went through every phase: then every
 * check had what it checks, whatever the status. */
#define ALL_PHASES "all phases measured"

static const char *const end_names[RUN_ENDS] = { "pass", "fail", "kernel", "harness" };

enum run_end outcome_run_end(const struct report_model *m)
{
	for (size_t i = 0; m->status && i < ARRAY_SIZE(statuses); i++) {
		if (strcmp(m->status, statuses[i].status))
			continue;
		if (statuses[i].by_blame && m->crash_class)
			return m->crash_blame && !strcmp(m->crash_blame, "kernel") ? RUN_END_KERNEL
										  : RUN_END_HARNESS;
		return statuses[i].end;
	}
	return RUN_END_HARNESS;	/* a status this harness does not write */
}

static int all_phases_measured(const struct report_model *m)
{
	for (size_t i = 0; i < m->nchecks; i++)
		if (m->checks[i].name && !strcmp(m->checks[i].name, ALL_PHASES))
			return m->checks[i].pass;
	return 0;
}

enum outcome_subject outcome_check_subject(const struct report_model *m,
					   const struct report_check *c)
{
	if (c->pass)
		return OUTCOME_CHECK_PASSED;
	for (size_t i = 0; c->name && i < ARRAY_SIZE(whole_console); i++)
		if (!strcmp(c->name, whole_console[i]))
			return OUTCOME_CHECK_FAILED_WHOLE;
	return all_phases_measured(m) ? OUTCOME_CHECK_FAILED_WHOLE : OUTCOME_CHECK_FAILED;
}

const struct outcome *outcome_run(const struct report_model *m)
{
	return &outcome_table[OUTCOME_RUN][outcome_run_end(m)];
}

const struct outcome *outcome_check(const struct report_model *m, const struct report_check *c)
{
	return &outcome_table[outcome_check_subject(m, c)][outcome_run_end(m)];
}

const char *outcome_end_name(enum run_end e)
{
	return e < RUN_ENDS ? end_names[e] : "?";
}
