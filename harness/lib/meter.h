/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meter: a count moving toward a target, shown while it moves.
 *
 * A long step (insmod making 4000 disks, rmmod removing them, the points
 * of a sweep) feeds the meter (time, count) samples; the meter says how
 * far the step is, how fast it goes and how long it has run, in one line:
 *
 *	insmod: 1234/4000 disks present (30%), 56.1 disks/s, 22 s
 *
 * The counts are the caller's numbers (a guest's, already parsed as
 * numbers): the line holds the label, unit and verb the caller gave and
 * numbers formatted here, nothing else.  Times are the caller's clock
 * (a guest's uptime, say), so the same samples always give the same text.
 *
 * Modes, chosen by meter_mode_for(fd 2, quiet):
 *   METER_TTY    the line is rewritten in place ("\r", erase to the end of
 *                the line) at every sample and erased at the end; while it
 *                is shown, util.c's messages erase it first
 *   METER_LINES  (stderr is a file or a pipe) a plain line when another
 *                tenth of the way is done or, if the count moved,
 *                METER_EVERY_S have passed since the last line; and one
 *                at the end
 *   METER_OFF    nothing (--quiet)
 *
 * What to write is appended to a strbuf, so tests see it; meter_write()
 * puts it on stderr.
 *
 *	struct meter m;
 *	meter_start(&m, METER_LINES, "insmod", "disks", "present", 0, 4000, t0);
 *	meter_update(&m, t, count, &out);	// any number of times
 *	meter_finish(&m, t, count, &out);	// the last line, or the erase
 *	meter_write(&out);			// to stderr, then emptied
 *
 * meter_line() is the text alone, for tests and for the final line.
 */
#ifndef SCALETEST_METER_H
#define SCALETEST_METER_H

#include "lib/strbuf.h"

enum meter_mode { METER_OFF, METER_TTY, METER_LINES };

/* Without a new tenth, a plain line at most this often (METER_LINES). */
#define METER_EVERY_S 10.0

struct meter {
	enum meter_mode mode;
	int active;		/* started and not finished */
	char label[24], unit[16], verb[16];
	long long from, to;	/* count at the start, count wanted */
	double t0;		/* the start, on the caller's clock */
	double t;		/* the last sample */
	long long count;
	double printed_t;	/* METER_LINES: the last line's time */
	int printed_tenth;	/* and its tenth of the way */
	long long printed_count;	/* and its count */
	int shown;		/* METER_TTY: a line is on the terminal */
};

/* METER_OFF when quiet, METER_TTY when fd is a terminal, else METER_LINES. */
enum meter_mode meter_mode_for(int fd, int quiet);

void meter_start(struct meter *m, enum meter_mode mode, const char *label,
		 const char *unit, const char *verb, long long from, long long to,
		 double t0);
void meter_update(struct meter *m, double t, long long count, struct strbuf *out);
/* The step ended (count is where it ended); does nothing if not active. */
void meter_finish(struct meter *m, double t, long long count, struct strbuf *out);
/* "insmod: 1234/4000 disks present (30%), 56.1 disks/s, 22 s" */
void meter_line(const struct meter *m, struct strbuf *out);
/* Write out on stderr (loops on short writes) and empty it. */
void meter_write(struct strbuf *out);

#endif
