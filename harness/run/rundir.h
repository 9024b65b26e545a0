/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rundir: the life of a run's directory.
 *
 * A run is written into <out>/.tmp-<id> and renamed to <out>/<id> when it
 * ends, whatever its status, so that a directory without the .tmp- prefix
 * is always a finished run.  <out>/latest then points at it when it passed
 * (swapped atomically through a temporary link of this process's own).
 * The id is <UTC stamp>-<scenario name>, with -2, -3 ... when two runs
 * start in the same second.
 *
 *	struct rundir d = RUNDIR_INIT;
 *	if (rundir_create(&d, "results", scenario.name) < 0) ...
 *	rundir_write_scenario(&d, &scenario);	// scenario.scn
 *	rundir_make_disks(&d, &scenario, &images);	// sparse virtio images
 *	char *p = rundir_path(&d, "console.log");	// malloc'd
 *	...
 *	rundir_finish(&d, passed, &final_dir);	// drops disks/, renames, latest
 *	rundir_release(&d);
 */
#ifndef SCALETEST_RUNDIR_H
#define SCALETEST_RUNDIR_H

#include "lib/strvec.h"
#include "scenario/scenario.h"

struct rundir {
	char id[160];
	char *out;	/* the results directory */
	char *tmp;	/* <out>/.tmp-<id> while the run goes on */
};
#define RUNDIR_INIT { "", NULL, NULL }

int rundir_create(struct rundir *d, const char *out, const char *name);
char *rundir_path(const struct rundir *d, const char *name);
/* scenario.scn: every resolved setting, runnable again with scaletest run. */
int rundir_write_scenario(const struct rundir *d, const struct scenario *s);
/* disks/vdN.img, one sparse file per virtio disk, pushed onto images. */
int rundir_make_disks(const struct rundir *d, const struct scenario *s,
		      struct strvec *images);
/* *final: the directory the run now lives in (malloc'd); with passed,
 * <out>/latest points at it. */
void rundir_finish(struct rundir *d, int passed, char **final);
/* <out>/latest -> id, swapped atomically (a group points it at itself). */
int rundir_link_latest(const char *out, const char *id);
void rundir_release(struct rundir *d);

/*
 * Run directories in progress (.tmp-*) under out, and up to depth-1 levels
 * below it (groups, fan-out slots), each handed to fn with what its owner
 * file says: RUNDIR_ABANDONED when its harness ran on this host and is
 * gone (killed: nothing will ever finish it).  Returns how many were seen.
 * Such a directory never becomes latest and never counts as a baseline
 * (neither looks at .tmp-*); scaletest gc removes it.
 */
enum rundir_owner_state {
	RUNDIR_LIVE,		/* its harness runs */
	RUNDIR_ABANDONED,	/* its harness is gone */
	RUNDIR_ELSEWHERE,	/* its harness ran on another host */
	RUNDIR_UNOWNED,		/* no owner file (an older harness, or a broken one) */
};
struct owner;
typedef void (*rundir_scan_fn)(const char *path, enum rundir_owner_state st,
			       const struct owner *o, void *arg);
int rundir_scan(const char *out, int depth, rundir_scan_fn fn, void *arg);

#endif
