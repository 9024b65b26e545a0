/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kcidb: KCIDB documents, the kernel CI results database's exchange format
 * (kcidb-io schema v5.3: version, checkouts, builds, tests), so that a
 * run's or a night's results can be submitted to KernelCI's dashboard
 * (kcidb-submit reads the document on its standard input).
 *
 *	struct kcidb k;
 *	kcidb_init(&k);
 *	kcidb_add_run(&k, "20261203-054926-smoke", &run_model);
 *	kcidb_add_nightly(&k, &nightly_model);	// each of its runs, and their
 *						// comparisons with the baselines
 *	kcidb_write(&k, &sb);			// the document, pretty JSON;
 *						// k is released
 *
 * What goes where:
 *
 *   - the kernel is a checkout (where its source came from: a Debian
 *     package, a git commit of a tree, Debian's source package; patches in
 *     misc) and a build of it (architecture, config base and fragments);
 *     one of each per run, both with the id "scaletest:RUN" (RUN the run's
 *     id), origin "scaletest";
 *   - the run as a whole is the test "scaletest" (id "scaletest:RUN:scaletest"),
 *     each check "scaletest.checks.NAME", each headline figure a test with
 *     a number (value, unit, prefix) and status DONE: memory per disk and
 *     its change at insmod (B), what came back after rmmod (%), the
 *     unaccounted memory (B), the largest slab caches per disk (B), the
 *     timings (s), a sweep's fitted costs per disk, fio's IOPS and p99
 *     latency per group, attribution's unexplained bytes per disk;
 *   - a night adds, per run compared with its baseline, a test per gating
 *     metric ("scaletest.compare.KEY": FAIL on a regression, else PASS)
 *     and, for a run that passed without a baseline on this runner, a
 *     "scaletest.baseline" test with status MISS.
 *
 * Statuses, as v5 defines them (the tested code failing, then the test,
 * then the harness):
 *
 *   run pass                      PASS
 *   run fail (a check failed)     FAIL: the kernel did not do what was asked
 *   crash, oom, timeout with a    FAIL when result.json blames the kernel
 *     crash class                 (panic, oops, hung task, OOM...), ERROR
 *                                 when it blames the harness (hang,
 *                                 channel-lost, qemu-exited)
 *   timeout without a class,      ERROR: the run did not complete, the
 *     error, interrupted          kernel's status is unknown
 *   a check that passed           PASS
 *   a check that failed           FAIL when the run finished (pass, fail),
 *                                 or when the check reads the whole console
 *                                 (no crash, no OOM); otherwise MISS: the
 *                                 run ended before it had what it checks
 *   a figure                      DONE
 *
 * Every string comes from a JSON document (result.json, summary.json) and
 * is written through json-c and cleaned (json_clean_strings: valid UTF-8,
 * no control characters); values that the schema constrains (ids' origin,
 * paths, architecture, times) are checked or made to fit before they are
 * written, and a time that is not RFC 3339 is left out.  make check
 * validates the golden documents against the vendored kcidb-io schema
 * (tests/kcidb/).
 */
#ifndef SCALETEST_REPORT_KCIDB_H
#define SCALETEST_REPORT_KCIDB_H

#include <json.h>

#include "report/model.h"
#include "lib/strbuf.h"

#define KCIDB_ORIGIN "scaletest"
#define KCIDB_MAJOR 5
#define KCIDB_MINOR 3

struct kcidb {
	json_object *doc, *checkouts, *builds, *tests;
};

void kcidb_init(struct kcidb *k);
/* A run: run_id names it in the ids (result.json's run_id, or its
 * directory's name when it has none). */
void kcidb_add_run(struct kcidb *k, const char *run_id, const struct report_model *m);
/* A night: each row's run, named by its directory's name (unique in the
 * night), and its comparison with the baseline. */
void kcidb_add_nightly(struct kcidb *k, const struct nightly_model *m);
void kcidb_write(struct kcidb *k, struct strbuf *out);

#endif
