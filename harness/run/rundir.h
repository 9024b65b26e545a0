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

#include <sys/stat.h>

#include "lib/owner.h"
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
 *
 * The walk never leaves out (out itself may be a link the user named): it
 * looks at each entry with fstatat(AT_SYMLINK_NOFOLLOW), enters
 * directories with openat(O_NOFOLLOW) from their parent's fd, never a
 * link and never one on another filesystem.  Only a .tmp-* directory of
 * this user's on out's filesystem is judged by its owner file; a link
 * named .tmp-*, another user's and another filesystem's are handed to fn
 * as what they are, to be left.  fn gets the open parent (dirfd, name) to
 * act on the entry without a path (remove_tree_at, renameat) and the lstat
 * of what was judged (remove_tree_at's seen).
 */
enum rundir_owner_state {
	RUNDIR_LIVE,		/* its harness runs */
	RUNDIR_ABANDONED,	/* its harness is gone */
	RUNDIR_ELSEWHERE,	/* its harness ran on another host */
	RUNDIR_UNOWNED,		/* no owner file (an older harness, or a broken one) */
	RUNDIR_LINK,		/* a symbolic link named .tmp-* (never followed) */
	RUNDIR_NOT_MINE,	/* another user's directory (st.st_uid) */
	RUNDIR_OTHER_FS,	/* on another filesystem than out (a mount point) */
};
struct rundir_entry {
	int dirfd;			/* the directory holding it, open */
	const char *name;		/* .tmp-ID */
	const char *path;		/* out/.../.tmp-ID, for messages */
	struct stat st;			/* its lstat when judged */
	enum rundir_owner_state state;
	struct owner owner;		/* with LIVE, ABANDONED, ELSEWHERE */
};
typedef void (*rundir_scan_fn)(const struct rundir_entry *e, void *arg);
int rundir_scan(const char *out, int depth, rundir_scan_fn fn, void *arg);

#endif
