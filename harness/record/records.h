/* SPDX-License-Identifier: Apache-2.0 */
/*
 * records: what the guest sent over the record channel, decoded.
 *
 * The channel (channel.h) delivers framed, verified records; this module
 * decodes each by its type through one table of handlers (records.c,
 * handlers[]: snapshot, mark, meminfo, slabinfo, blocks, timing, info,
 * end, io, inventory, fio, fiolog, fiorc, sample, progress, kmemleak,
 * point, hist, stephist, attr, pageowner, stacks, timeattr, hung) into the pieces that result.json
 * is assembled from (result/build.h).  A record that does not fit
 * (unknown type, a phase out of order, a payload its parser rejects) is
 * counted and kept as a rejection with its reason; the run goes on.
 *
 * The same code serves a live run and a replay: a run feeds the bytes as
 * they arrive from the VM, a replay feeds channel.log from a run
 * directory, and both end up with the same struct records.
 *
 *	struct records rs;
 *	records_init(&rs, &scenario, run_dir, &ops, ctx);  // dir: where raw
 *				// payloads go (snapshots/, blocks/, fio/,
 *				// inventory.txt, kmemleak.txt), or NULL
 *	records_feed(&rs, buf, n);	// any number of times
 *	records_finish(&rs);		// a frame cut off by EOF is rejected;
 *					// the virtio list is sorted
 *	... result_build(&scenario, &rs, &console, host) ...
 *	records_release(&rs);
 *
 * ops (may be NULL) hears of the run's progress as it happens: a phase
 * reached (to set the next deadline), a progress record's block device
 * count (the live progress line), a sweep's step done (the next deadline:
 * a guest cannot send more steps than the scenario has) and the guest's
 * first "end" record (later ones are rejected, so a guest cannot extend
 * its own deadline).  Any of the callbacks may be NULL.
 *
 * To add a record type: a handler in records.c, a row in handlers[], the
 * guest side in initramfs/lib/, and its field in result/build.c.
 */
#ifndef SCALETEST_RECORDS_H
#define SCALETEST_RECORDS_H

#include <json.h>

#include "guest/phase.h"
#include "record/channel.h"
#include "record/disks.h"
#include "record/hung.h"
#include "record/inventory.h"
#include "record/pageowner.h"
#include "record/timeattr.h"
#include "scenario/scenario.h"

struct records_ops {
	void (*phase)(void *ctx, int phase, double uptime_s);
	void (*progress)(void *ctx, double uptime_s, long long blocks, long long queues);
	void (*point)(void *ctx, long step, long long disks);
	void (*end)(void *ctx);
};

struct records {
	const struct scenario *s;
	const char *dir;
	const struct records_ops *ops;
	void *ctx;
	struct channel ch;

	int phase;			/* last phase reached, -1 before boot */
	json_object *phase_obj[PHASE_COUNT];
	json_object *phases;		/* [{name, uptime_s, host_s, meminfo, slab}] */
	json_object *rejections;	/* the first RECORDS_MAX_REJECTIONS reasons */
	unsigned long nrejections;
	json_object *io;		/* the dd check, per virtio disk */
	json_object *guest;		/* "info" records: what the guest says of itself */
	json_object *timings;		/* "timing" records, by phase */
	json_object *fio_jobs;		/* fiojson summaries, all groups */
	json_object *fio_groups;	/* per group: fio's status and first line */
	json_object *samples;		/* monitor samples */
	long long progress_records;	/* "progress" records accepted */
	long long progress_cpu;		/* the last one's CPU ticks, -1 before */
	struct progress_pt {
		int phase;		/* the record's phase (phase.h) */
		double t;
		long long blocks;
	} *progress_pts;		/* the counts, for the time curves */
	size_t nprogress, progress_alloc;
	json_object *kmemleak;		/* NULL unless the guest sent a report */
	json_object *points;		/* sweep points, in step order */
	long long *steps;		/* the scenario's sweep (scenario_sweep) */
	size_t nsteps, npoints;
	long long host_disks, last_disks;	/* sweep: disks per host, the last point's */
	int returned;			/* a knee sweep came back to its list */
	json_object *attribution;	/* NULL unless the guest sent attr, hist or
					 * stephist records: {status, reason,
					 * stack_key, start_s, collect_s, sources,
					 * and in a sweep steps (each with every
					 * page_alloc site), steps_read_s} */
	struct po_snapshot po_before;	/* page_owner before insmod, until the
					 * after-insmod one comes */
	int have_po_before, have_po_after;

	struct ta_run ta;		/* the time attribution's samples, folded */
	struct hung_tasks hung;		/* the stacks the guest read when the hung-task
					 * detector spoke */

	struct blocklist base, after_sd, virtio;
	int have_base, have_sd, have_virtio;
	struct inventory inv;
	int have_inv;
	char *inv_refused;		/* why the guest's inventory was refused, or NULL */

	size_t kept_files, kept_bytes;	/* what keep() wrote */
	size_t max_kept_bytes;		/* RECORDS_MAX_KEPT_BYTES (tests lower it) */
	unsigned char fio_seen[4];	/* per fio group: which records came */

	int got_end;
	char end_status[16];
	char end_phase[CHANNEL_PHASE_MAX];
	char *end_reason;
};

#define RECORDS_MAX_REJECTIONS 50
/*
 * What the guest may make the harness keep, whatever it sends: every
 * record is bounded by the channel (CHANNEL_MAX_PAYLOAD), and these bound
 * what accepted records add up to.  Files and bytes under the run
 * directory (keep(): snapshots, fio output, hists ...); monitor samples;
 * dd check lines; "info" keys; timing phases, and keys per phase.  Past a
 * bound a record is rejected with its reason, so the run says so.  (The
 * whole stream is bounded by the scenario's guest_output_mb, run.c.)
 * Together they keep a result.json within what the harness reads back
 * (lib/json.h JSON_MAX_*; test_json.c builds one at these bounds):
 * 10,000 monitor samples are 2.8 hours at the default second, against
 * 4,901 s for the 98,304-disk run (docs/trust.md).
 */
#define RECORDS_MAX_KEPT_FILES 1024
#define RECORDS_MAX_KEPT_BYTES ((size_t)512 << 20)
#define RECORDS_MAX_SAMPLES 10000
#define RECORDS_MAX_PROGRESS 100000
#define RECORDS_MAX_IO 1024
#define RECORDS_MAX_INFO 64
#define RECORDS_MAX_TIMING_PHASES 64
#define RECORDS_MAX_TIMING_KEYS 64
/* Call sites kept per attribution source (the rest: other_bytes). */
#define ATTR_TOP_SITES 25

void records_init(struct records *rs, const struct scenario *s, const char *dir,
		  const struct records_ops *ops, void *ctx);
void records_feed(struct records *rs, const char *buf, size_t len);
void records_finish(struct records *rs);
void records_release(struct records *rs);
/* The scsi_debug disks: after-insmod's block devices less before-insmod's,
 * in sd index order (empty unless both lists arrived). */
void records_scsi_debug(const struct records *rs, struct blocklist *sd);

#endif
