/* SPDX-License-Identifier: Apache-2.0 */
/*
 * runname: what a run is called in a document that can hold several: the
 * ids of a KCIDB document (kcidb.h: "scaletest:NAME", "scaletest:NAME:PATH")
 * and the suite names of a JUnit one (junit.h: "scaletest.SCENARIO.NAME").
 * Both formats name a run the same way: result.json's run_id for a run
 * given alone, the run directory's name for a night's runs (unique in the
 * night, where several runs may carry one run_id).
 *
 *	struct run_names names;
 *	run_names_init(&names);
 *	char *a = run_name_take(&names, "20261203-054926-smoke");
 *	char *b = run_name_take(&names, "20261203-054926-smoke");
 *		// a "20261203-054926-smoke", b "20261203-054926-smoke~2"
 *	free(a); free(b);
 *	run_names_release(&names);
 *
 * A name is made of [A-Za-z0-9_+-] (anything else, '.', ':', '/' and
 * spaces included, becomes '_', so that a JUnit class name splits at the
 * dots the writer put there and a KCIDB id splits at its colons), at most
 * RUN_NAME_MAX bytes, "run" when nothing is left.  A name already taken in
 * the document gets "~2", "~3"...: '~' is never in a name otherwise, so a
 * run from elsewhere that claims another's run_id can neither take the
 * other's ids nor collide with them, whichever comes first.
 */
#ifndef SCALETEST_REPORT_RUNNAME_H
#define SCALETEST_REPORT_RUNNAME_H

#include "lib/strvec.h"
#include "report/model.h"

#define RUN_NAME_MAX 100

struct run_names {
	struct strvec taken;
};

void run_names_init(struct run_names *names);
void run_names_release(struct run_names *names);
/* want's name, unique among those taken so far (malloc'd). */
char *run_name_take(struct run_names *names, const char *want);
/* A night's row i: its run directory's name, or "nightly-STAMP-SCENARIO"
 * for a row whose run left nothing (the same name in KCIDB and JUnit). */
char *run_name_night_row(struct run_names *names, const struct nightly_model *m, size_t i);

#endif
