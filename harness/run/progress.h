/* SPDX-License-Identifier: Apache-2.0 */
/*
 * progress: the live progress line of a run's long steps (lib/meter.h),
 * fed by the guest's records.
 *
 * The steps with a meter (steps[] in progress.c: insmod making the
 * scsi_debug disks, rmmod removing them; a future step, a sweep's points,
 * is one more row): each starts at a phase's mark (the guest sends it just
 * before the step begins), is fed by the guest's progress records (its
 * wait loop's counts, in channel order, so they belong to the step begun
 * last), and ends at the next phase's mark, where the guest has seen the
 * count it waited for.  While the scan makes SCSI devices and no disk has
 * come yet, the line counts the devices scanned.
 *
 *	struct progress p;
 *	progress_init(&p, &scenario, &records, quiet);	// records: the devices
 *							// there before insmod,
 *							// the virtio disks
 *	... from the records' callbacks (record/records.h):
 *	ended = progress_phase(&p, phase, uptime);	// a step ended at this mark
 *	moved = progress_update(&p, uptime, blocks, queues);	// its count moved
 *	progress_step(&p);		// the step going on ("insmod"), or NULL
 *	progress_patience(&p);		// how long it may go without its count
 *					// moving: its phase's deadline
 *	... the run ended:
 *	progress_stop(&p);		// inside a step: its last line
 */
#ifndef SCALETEST_RUN_PROGRESS_H
#define SCALETEST_RUN_PROGRESS_H

#include "lib/meter.h"
#include "record/records.h"
#include "scenario/scenario.h"

struct progress {
	const struct scenario *s;
	const struct records *rs;
	int quiet;
	struct meter meter;		/* the live progress line */
	int metered;			/* its row in steps[], or -1 */
	int scanning;			/* it counts SCSI devices scanned, not disks */
	long long moved_blocks, moved_queues;	/* the last progress counts */
};

void progress_init(struct progress *p, const struct scenario *s, const struct records *rs,
		   int quiet);
/* The guest reached phase: a step that ends there ends (1), one that
 * starts there starts; 0 when no step ended. */
int progress_phase(struct progress *p, int phase, double uptime);
/* A progress record (the block devices, the SCSI devices): 1 when a step
 * goes on and either count moved since the last record. */
int progress_update(struct progress *p, double uptime, long long blocks, long long queues);
/* The step going on, or NULL; and its phase's deadline, in seconds (only
 * while a step goes on). */
const char *progress_step(const struct progress *p);
double progress_patience(const struct progress *p);
/* The run ended inside a step: its last line (or the terminal's erased). */
void progress_stop(struct progress *p);

#endif
