/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kcidb: KCIDB documents, the kernel CI results database's exchange format
 * (kcidb-io schema v5.3: version, checkouts, builds, tests), so that a
 * run's or a night's results can be submitted to KernelCI's dashboard
 * (kcidb-submit reads the document on its standard input).
 *
 *	struct kcidb k;
 *	kcidb_init(&k, NULL);			// origin "scaletest", or the one
 *						// KernelCI gave the submitter
 *	kcidb_add_run(&k, "20261203-054926-smoke", "results/x", &run_model);
 *						// named by its run_id (or its
 *						// directory's name), read from
 *						// the directory results/x
 *	kcidb_add_nightly(&k, &nightly_model);	// each of its runs, and their
 *						// comparisons with the baselines
 *	kcidb_write(&k, &sb);			// the document, pretty JSON;
 *						// k is released
 *
 * What goes where:
 *
 *   - the kernel is a checkout (where its source came from: a Debian
 *     package, a git commit of a tree with its repository's https URL when
 *     result.json knows it, Debian's source package; the patchset hash of
 *     a kernel built here, "" without patches, so that stock and patched
 *     builds of one commit are two checkouts; the patches' names in misc)
 *     and a build of it (architecture, config base and fragments); one of
 *     each per run, both with the id "ORIGIN:RUN", origin ORIGIN (the
 *     document's: "scaletest" unless kcidb_init() is given the one KCIDB
 *     assigned to the submitting CI system, [a-z0-9_]+, so that every id
 *     is namespaced by who submits it);
 *   - RUN is the run's name in the document (runname.h: result.json's
 *     run_id for runs given alone, the run directory's name for a night's;
 *     "~2", "~3"... on a name another run of the document took), so that
 *     ids are unique in a document even when runs from elsewhere claim
 *     one run_id; the checkout, the build and the run's test say in misc
 *     which run they came from (run_id, run_dir);
 *   - the run as a whole is the test "scaletest" (id "ORIGIN:RUN:scaletest"),
 *     each check "scaletest.checks.NAME", each headline figure a test with
 *     a number (value, unit without prefix, and prefix: B and binary, s
 *     and metric) and status DONE: memory per disk and its change at
 *     insmod (B), what came back after rmmod (%), the unaccounted memory
 *     (B), the largest slab caches per disk (B), the timings (s), a
 *     sweep's fitted costs per disk, the time per disk of insmod's and
 *     rmmod's curves and the cost of one more disk at their last
 *     ("scaletest.time_curve.insmod.per_disk", .marginal_last: s), fio's
 *     IOPS and p99 latency per group, attribution's unexplained bytes per
 *     disk;
 *   - a night adds, per run compared with its baseline, a test per gating
 *     metric ("scaletest.compare.KEY": FAIL on a regression, else PASS,
 *     its number in the same units as the figures: kB as B, ms as s)
 *     and, for a run that passed without a baseline on this runner, a
 *     "scaletest.baseline" test with status MISS.
 *
 * Statuses are outcome.h's, the table junit.c reads too: the run PASS,
 * FAIL when the kernel failed (a check, a crash, an OOM, a hung task
 * blamed on it), ERROR when the harness ended it or could not finish it;
 * a check PASS or FAIL, or, in a run that ended early, SKIP (the kernel
 * ended it) or MISS (the harness did) for a check that never had what it
 * checks; a figure DONE.
 *
 * Every string comes from a JSON document (result.json, summary.json) and
 * is written through json-c and cleaned (json_clean_strings: valid UTF-8,
 * no control characters); values that the schema constrains (ids' origin,
 * paths, architecture, times, the patchset hash, the repository URL,
 * which must be https:// and name no user) are checked or made to fit
 * before they are written, or left out, and a time that is not RFC 3339
 * is left out.  make check validates the golden documents against the
 * vendored kcidb-io schema (tests/kcidb/).
 */
#ifndef SCALETEST_REPORT_KCIDB_H
#define SCALETEST_REPORT_KCIDB_H

#include <json.h>

#include "report/model.h"
#include "report/runname.h"
#include "lib/strbuf.h"

#define KCIDB_ORIGIN "scaletest"
#define KCIDB_ORIGIN_MAX 64
#define KCIDB_MAJOR 5
#define KCIDB_MINOR 3

struct kcidb {
	json_object *doc, *checkouts, *builds, *tests;
	struct run_names names;
	char origin[KCIDB_ORIGIN_MAX + 1];
};

/* 1 for an origin KCIDB takes ([a-z0-9_]+, at most KCIDB_ORIGIN_MAX). */
int kcidb_origin_valid(const char *origin);
/* A document whose ids are origin's (KCIDB_ORIGIN for NULL or one that
 * kcidb_origin_valid() refuses). */
void kcidb_init(struct kcidb *k, const char *origin);
/* A run: name names it in the ids (result.json's run_id, or its
 * directory's name when it has none), dir is where it was read from (or
 * NULL). */
void kcidb_add_run(struct kcidb *k, const char *name, const char *dir,
		   const struct report_model *m);
/* A night: each row's run, named by its directory's name (unique in the
 * night), and its comparison with the baseline. */
void kcidb_add_nightly(struct kcidb *k, const struct nightly_model *m);
void kcidb_write(struct kcidb *k, struct strbuf *out);

#endif
