/* SPDX-License-Identifier: Apache-2.0 */
/*
 * child: running other programs, with deadlines, and never leaving one behind.
 *
 * Every program the harness runs (apt-get, dpkg-deb, depmod, make, QEMU) is
 * started here, by fork/exec with an argv built before fork(): there is no
 * shell between the harness and its children.  Each child gets its own
 * process group, is recorded in a list of live children, and that list is
 * killed (SIGTERM, then SIGKILL, to the whole group) from atexit() and from
 * the SIGINT/SIGTERM/SIGHUP handlers; and each child is told to die with
 * the harness (PR_SET_PDEATHSIG, and a watcher process that kills the
 * child's group when the harness is gone, for the children that drop the
 * former by changing their credentials, as apt-get does), so even a
 * SIGKILLed harness, which runs no handler, leaves no QEMU or apt-get
 * behind.  An exec failure's errno comes back to
 * the parent through a close-on-exec pipe, so "qemu not found" is an error
 * from child_start(), not a mysterious exit status 127.
 *
 * Calling sequence for a simple command with a deadline:
 *
 *	const char *argv[] = { "dpkg-deb", "-x", deb, dir, NULL };
 *	struct child_opts o = CHILD_OPTS_INIT;
 *	o.timeout = 300;
 *	o.log = "build.log";			// stdout+stderr appended here
 *	struct child_result res;
 *	if (child_run(argv, &o, &res) < 0 || !child_ok(&res))
 *		return error("dpkg-deb failed: %s", child_describe(&res));
 *
 * For a long-lived child whose output the caller polls itself (QEMU):
 *
 *	struct child c = CHILD_INIT;
 *	c.argv = argv; c.out = fd; c.keep[0] = sock; c.nkeep = 1;
 *	child_start(&c);
 *	... poll(fds, child_signal_fd() ...) ...
 *	child_stop(&c, 2.0, &res);		// TERM, grace, KILL, reap
 *
 * child_signals_init() must be called once at start-up; afterwards
 * child_interrupted() returns the signal that asked the harness to stop (0 if
 * none) and child_signal_fd() is readable once such a signal arrived, for use
 * in poll().  A second signal kills the harness at once (after killing the
 * children).
 */
#ifndef SCALETEST_CHILD_H
#define SCALETEST_CHILD_H

#include <sys/types.h>

#include "lib/strbuf.h"

#define CHILD_MAX_KEEP 4
/* child_stop waits at most this long for a SIGKILLed child to be reaped. */
#define CHILD_REAP_SECONDS 10

struct child {
	const char *const *argv;	/* argv[0] is looked up in $PATH */
	const char *const *env;		/* extra "NAME=value" entries, or NULL */
	const char *dir;		/* working directory, or NULL */
	int in;				/* fd for stdin; -1: /dev/null */
	int out;			/* fd for stdout; -1: /dev/null; -2: inherit */
	int err;			/* fd for stderr; same codes as out */
	int keep[CHILD_MAX_KEEP];	/* fds the child inherits at the same number */
	int nkeep;
	pid_t pid;			/* set by child_start, 0 once reaped */
};
#define CHILD_INIT { NULL, NULL, NULL, -1, -2, -2, { -1, -1, -1, -1 }, 0, 0 }

enum child_outcome {
	CHILD_EXITED,		/* status = exit code */
	CHILD_SIGNALLED,	/* status = signal number */
	CHILD_TIMEDOUT,		/* killed by us after its deadline */
	CHILD_INTERRUPTED,	/* killed by us because the harness was asked to stop */
};

struct child_result {
	enum child_outcome outcome;
	int status;
	double seconds;
};

/* 0, or < 0 (said): ERR_ENV for a program that is not there. */
int child_start(struct child *c);
/* Reap without waiting: 1 if it has ended (res filled), 0 if still running. */
int child_poll(struct child *c, struct child_result *res);
/* SIGTERM to the group, up to grace seconds, then SIGKILL; reaps. */
void child_stop(struct child *c, double grace, struct child_result *res);
int child_ok(const struct child_result *res);
/* "exit status 2", "killed by signal 9", "timed out after 30 s"; static. */
const char *child_describe(const struct child_result *res);

struct child_opts {
	const char *dir;
	const char *const *env;
	double timeout;		/* seconds; 0 = none */
	const char *log;	/* append stdout+stderr here, or NULL */
	struct strbuf *capture;	/* and/or capture them (stdout and stderr) here */
	int show;		/* also copy output to our stderr */
	/* A label: on a terminal, keep one line on stderr showing the latest
	 * output line; elsewhere, say every minute that it is still running. */
	const char *progress;
};
#define CHILD_OPTS_INIT { NULL, NULL, 0, NULL, NULL, 0, NULL }

/* Run to completion.  < 0 only when the program could not be started:
 * ERR_ENV when it is not there (not found in PATH). */
int child_run(const char *const *argv, const struct child_opts *o,
		struct child_result *res);
/* One step of a build: child_run with its output appended to log; a
 * failure (or an interruption) is an error() naming what, quoting the end
 * of the log.  0 or -1. */
int child_step(const char *const *argv, const char *dir, const char *const *env,
	     const char *log, double timeout, const char *progress, const char *what);

/* 0, or ERR_ENV (said) when the harness cannot make its signal pipe. */
int child_signals_init(void);
int child_interrupted(void);
int child_signal_fd(void);

#endif
