// SPDX-License-Identifier: Apache-2.0
#include "guest/phase.h"

#include <string.h>

static long long t_boot(const struct scenario *s) { return s->timeout_boot; }
static long long t_insmod(const struct scenario *s) { return s->timeout_insmod; }
static long long t_io(const struct scenario *s) { return s->timeout_io; }
static long long t_rmmod(const struct scenario *s) { return s->timeout_rmmod; }

static const struct {
	const char *name;
	/* Which of the scenario's deadlines covers reaching this phase. */
	long long (*timeout)(const struct scenario *s);
} phases[PHASE_COUNT] = {
	[PHASE_BOOT] = { "boot", t_boot },
	[PHASE_BEFORE_INSMOD] = { "before-insmod", t_boot },
	[PHASE_AFTER_INSMOD] = { "after-insmod", t_insmod },
	[PHASE_AFTER_VIRTIO] = { "after-virtio", t_insmod },
	[PHASE_AFTER_IO] = { "after-io", t_io },
	[PHASE_AFTER_RMMOD] = { "after-rmmod", t_rmmod },
};

const char *phase_name(enum phase p)
{
	return (unsigned)p < PHASE_COUNT ? phases[p].name : "end";
}

int phase_index(const char *name)
{
	for (int i = 0; i < PHASE_COUNT; i++)
		if (!strcmp(phases[i].name, name))
			return i;
	return -1;
}

long long phase_timeout(enum phase p, const struct scenario *s)
{
	return (unsigned)p < PHASE_COUNT ? phases[p].timeout(s) : 60;
}
