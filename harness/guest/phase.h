/* SPDX-License-Identifier: Apache-2.0 */
/*
 * phase: the phases of a run, the one host-side list of them.
 *
 * The guest (initramfs/init) walks these in order and marks each with a
 * "snapshot" record (older guests: a "mark" record); the harness names a
 * phase only through this enum, so no other C file spells a phase's name
 * (tests/unit/test_phase.c checks that, and that initramfs/init has the
 * same list in the same order).
 *
 *	int i = phase_index(rec->phase);	// -1 when not a phase
 *	phase_name(PHASE_AFTER_INSMOD);		// its name, as the guest spells it
 *	deadline = now + phase_timeout(i + 1, s);	// to reach the next one
 */
#ifndef SCALETEST_PHASE_H
#define SCALETEST_PHASE_H

#include "scenario/scenario.h"

enum phase {
	PHASE_BOOT,		/* /init runs, base modules loaded */
	PHASE_BEFORE_INSMOD,	/* caches dropped, before insmod scsi_debug */
	PHASE_AFTER_INSMOD,	/* every scsi_debug disk present, knobs set */
	PHASE_AFTER_VIRTIO,	/* the virtio disks after the range */
	PHASE_AFTER_IO,		/* fio (or the dd check) done */
	PHASE_AFTER_RMMOD,	/* scsi_debug removed, caches dropped (rmmod on) */
	PHASE_COUNT
};

const char *phase_name(enum phase p);
/* The phase of that name, or -1. */
int phase_index(const char *name);
/* Seconds the scenario allows for reaching phase p from the one before. */
long long phase_timeout(enum phase p, const struct scenario *s);

#endif
