/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fanout: many runs spread over libvirt connections, at most N at a time
 * on each (run --repeat, nightly).
 *
 * Each run is its own harness process: "scaletest run SCENARIO --connect
 * URI --out SLOT --quiet [--set K=V]..." started through lib/child.h (own
 * process group, dies with us, killed on SIGINT/SIGTERM), so runs share
 * nothing but the caches, and a run that dies takes nothing else with it.
 * When it ends its run directory is moved from its private SLOT into out/
 * with its stderr as harness.log, and its result.json says where it ran
 * (vm.uri).  A run that lost its libvirt connection (vm.connection_lost)
 * is run once more on another connection, when there is one; the lost
 * attempt is kept in out/.retried/ (hidden from compare's group loader).
 *
 *	struct fanout f = FANOUT_INIT;
 *	if (fanout_add(&f, "qemu+ssh://h2/system,slots=2", &err) < 0)
 *		usage error (err.buf)
 *	struct fanout_job jobs[2] = { { .scenario = path, .sets = &sets }, ... };
 *	json_object *placements = json_object_new_array();
 *	fanout_run(&f, jobs, 2, "results/group", placements);
 *	... jobs[i].dir (NULL if the run made none), jobs[i].status,
 *	    jobs[i].err (RUN_ERROR's class, from the child's exit code) ...
 *	fanout_jobs_release(jobs, 2);
 *	fanout_release(&f);
 *
 * placements gets one object per attempt: {"run", "uri", "job" (0-based),
 * "start", "end" (seconds since fanout_run began), "status",
 * "connection_lost", "attempt" (1, or 2 for the retry)}.
 */
#ifndef SCALETEST_FANOUT_H
#define SCALETEST_FANOUT_H

#include <json.h>

#include "lib/child.h"
#include "lib/strvec.h"
#include "result/verdict.h"

struct fanout_conn {
	char *uri;
	int slots;		/* at most this many runs at once */
	int upload;		/* ",upload": stage files through the storage API */
	int busy;
	int lost;		/* a run lost this connection: no more runs here */
};

struct fanout {
	struct fanout_conn *c;
	size_t n, alloc;
};
#define FANOUT_INIT { NULL, 0, 0 }

/* "URI[,slots=N][,upload]"; -1 with the reason in err on a bad spec. */
int fanout_add(struct fanout *f, const char *spec, struct strbuf *err);
void fanout_release(struct fanout *f);

struct fanout_job {
	const char *scenario;		/* the scenario file */
	const struct strvec *sets;	/* its KEY=VALUE overrides, or NULL */
	char *dir;			/* out: the run directory, or NULL */
	enum run_status status;		/* out */
	int err;			/* out: RUN_ERROR's class (lib/util.h), or 0 */
	/* private */
	struct child child;
	struct strvec argv;
	char *slot;
	char *log;
	int conn, tries, exclude, state;
	double start;
};

/* Runs every job; 0, or -1 if out/ cannot be made.  Stops starting runs
 * once the harness is interrupted (the runs in flight are stopped). */
int fanout_run(struct fanout *f, struct fanout_job *jobs, size_t n, const char *out,
	       json_object *placements);
void fanout_jobs_release(struct fanout_job *jobs, size_t n);

#endif
