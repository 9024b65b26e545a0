/* SPDX-License-Identifier: Apache-2.0 */
/*
 * nightly: the nightly run: every scenario of a matrix run, each compared
 * with the baseline that matches it (baseline.h, compare.h), and one
 * summary of the night.
 *
 *	struct nightly_matrix mx;
 *	if (nightly_matrix_load(&mx, "scenarios/nightly/default") < 0)
 *		...				// a bad line: exit 2, nothing ran
 *	struct nightly_opts o = NIGHTLY_OPTS_INIT;	// out, baselines, compare
 *	struct nightly_result res;
 *	if (nightly_run(&mx, &o, &res) < 0)	// the night's directory (then
 *		...				// res.dir is NULL) or its summary
 *						// could not be written
 *	... res.dir, res.failed (res.env_failed of them for the environment),
 *	    res.regressed, res.without_baseline, res.recorded, res.interrupted ...
 *	nightly_result_release(&res);
 *	nightly_matrix_release(&mx);
 *
 * A matrix is lines of "SCENARIO [KEY=VALUE]...", paths relative to the
 * matrix file, '#' comments; every line's scenario is opened (and so
 * checked) by nightly_matrix_load, before anything runs.
 *
 * nightly_run makes <out>/nightly-<stamp>/ and runs each scenario there
 * (run_execute, run.h); a run that passed is compared with its baseline
 * and the comparison kept as compare.json in the run's directory; a run
 * that passed with no baseline on this runner (none for its key: another
 * accelerator or QEMU version is another key) counts as without one,
 * or, with o.record (the first night on a runner), becomes its baseline.
 * It stops after an interrupted run.  Then it writes summary.json (the
 * summary model: "stamp", "scenarios", "runs": per run {scenario, status,
 * reason, per_disk {field, bytes}, run, baseline, verdict,
 * without_baseline (true or false), accel, qemu},
 * "failed", "regressed", "without_baseline", "recorded", "seconds") and,
 * from it and the runs' files, summary.md and summary.xml
 * (report_write_nightly, report.h), printing summary.md on stdout.
 */
#ifndef SCALETEST_NIGHTLY_H
#define SCALETEST_NIGHTLY_H

#include <stddef.h>

#include "compare/compare.h"
#include "scenario/scenario.h"
#include "lib/strvec.h"

struct fanout;

struct nightly_entry {
	char *scenario;			/* the scenario file's path */
	struct strvec sets;		/* its KEY=VALUE overrides */
	unsigned line;
};

struct nightly_matrix {
	struct nightly_entry *entries;
	struct scenario *scenarios;	/* one per entry, opened */
	size_t n;
};

int nightly_matrix_load(struct nightly_matrix *mx, const char *path);
void nightly_matrix_release(struct nightly_matrix *mx);

struct nightly_opts {
	const char *out;		/* results directory */
	const char *baselines;
	struct compare_opts compare;
	/* Spread the matrix over libvirt connections (run/fanout.h); NULL:
	 * one run after another in this process. */
	struct fanout *fanout;
	/* The first night on a runner: a run that passed and has no
	 * baseline for its key becomes one (baseline_update) instead of
	 * counting as without one; runs that have one are compared. */
	int record;
};
#define NIGHTLY_OPTS_INIT { "results", "results/baselines", COMPARE_OPTS_INIT, NULL, 0 }

struct nightly_result {
	char *dir;			/* the night's directory */
	int failed, regressed, without_baseline, recorded, interrupted;
	/* Of the failed, those whose error was the environment's (run.h:
	 * ERR_ENV; each run's own, never an earlier run's). */
	int env_failed;
};

int nightly_run(const struct nightly_matrix *mx, const struct nightly_opts *o,
		struct nightly_result *res);
void nightly_result_release(struct nightly_result *res);

/* One run of the night judged, as nightly_run does for each: DIR (NULL
 * when the run left none) compared with its baseline, or recorded as one,
 * counted into res; returns its row of summary.json.  Tests call it on
 * fixture runs, without booting anything. */
json_object *nightly_judge(const char *scenario, int passed, const char *dir,
			   const struct nightly_opts *o, struct nightly_result *res);

#endif
