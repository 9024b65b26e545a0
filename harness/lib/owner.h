/* SPDX-License-Identifier: Apache-2.0 */
/*
 * owner: which harness process made a thing (a libvirt domain, an uploaded
 * volume, a run directory in progress), so that a later harness can tell
 * whether that process is gone and the thing is a leftover.
 *
 * A pid alone is not enough (pids are reused), so the owner is the host
 * name, the pid and the pid's start time (field 22 of /proc/PID/stat).
 *
 *	struct owner me;
 *	owner_self(&me);
 *	owner_format(&me, &sb);			// "host pid start\n"
 *	...
 *	if (owner_parse(buf, &o) == 0 && owner_alive(&o) == 0)
 *		the thing is abandoned: its harness ran here and is gone
 */
#ifndef SCALETEST_OWNER_H
#define SCALETEST_OWNER_H

#include "lib/strbuf.h"

struct owner {
	char host[256];
	long long pid;
	unsigned long long start;	/* /proc/PID/stat starttime */
};

void owner_self(struct owner *o);
/* 1: a live process of this host; 0: gone; -1: of another host (not ours
 * to judge). */
int owner_alive(const struct owner *o);
/* One line "HOST PID START\n"; owner_parse reads it back (0, or -1 when
 * the text is not such a line). */
void owner_format(const struct owner *o, struct strbuf *out);
int owner_parse(const char *text, struct owner *o);

/* The owner file of a run directory in progress (run/rundir.c). */
#define OWNER_FILE "owner"

#endif
