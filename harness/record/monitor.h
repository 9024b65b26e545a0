/* SPDX-License-Identifier: Apache-2.0 */
/*
 * monitor: the guest's memory samples, taken while insmod, I/O and rmmod
 * run, streamed as "sample" records:
 *
 *	@@@ sample N UPTIME STEP [BLOCKS [CPU]]
 *	@@@ meminfo
 *	<the text of /proc/meminfo>
 *	@@@ slab
 *	<the slab total in kB, summed by the guest from /proc/slabinfo>
 *	@@@ vmstat
 *	<the lines of /proc/vmstat named in guest_vmstat[] (guest/contract.h)>
 *
 * (Guests before the slim monitor sent all of /proc/slabinfo, as
 * "@@@ slabinfo", and all of /proc/vmstat: 27 kB a sample over the
 * emulated UART; both are still read, so old channel logs replay.  An
 * empty slab section, a guest without /proc/slabinfo, is a null slab_kb.)
 *
 * N counts samples from 1 (a missing N is a lost sample: a gap); STEP is
 * what the guest was doing ("insmod", "virtio", "io", "rmmod"); BLOCKS,
 * when there (guests since the live progress meter), is how many entries
 * /sys/block had, the disk count of the sample's memory (the live line
 * itself now comes from "progress" records, below).  CPU, when there (guests since the duty cycle),
 * is the monitor's own CPU time before this sample, in ticks of 1/100 s:
 * result.json's monitor.cpu_pct comes from it (result/build.c).  monitor_sample() parses one into the object
 * result.json keeps per sample:
 *
 *	{"n": 3, "t": 12.34, "step": "insmod", "blocks": 1042, "cpu_s": 0.21,
 *	 "meminfo": {...all fields...}, "slab_kb": 12345,
 *	 "vmstat": {...the counters in guest_vmstat[] (guest/contract.h)...}}
 *
 * vmstat_parse() reads /proc/vmstat ("name value" lines) on its own.
 */
#ifndef SCALETEST_MONITOR_H
#define SCALETEST_MONITOR_H

#include <json.h>
#include <stddef.h>

#include "lib/strbuf.h"

struct vmstat_field {
	char name[48];
	long long value;
};

struct vmstat {
	struct vmstat_field *f;
	size_t n, alloc;
};
#define VMSTAT_INIT { NULL, 0, 0 }

int vmstat_parse(struct vmstat *v, const char *buf, size_t len, struct strbuf *err);
long long vmstat_get(const struct vmstat *v, const char *name);	/* -1 if absent */
void vmstat_release(struct vmstat *v);

/* The most block devices a sample may claim (more is a bad header). */
#define MONITOR_MAX_BLOCKS 10000000
/* The largest slab total a sample may claim, kB (1 TiB). */
#define MONITOR_MAX_SLAB_KB (1LL << 30)
/* The most CPU ticks a sample may claim (more is a bad header). */
#define MONITOR_MAX_CPU_TICKS 1000000000LL

/* 0 and *out (a new object) and *n, or -1 with err. */
int monitor_sample(const char *buf, size_t len, long page_size, json_object **out,
		   long *n, struct strbuf *err);

/*
 * A "progress" record: the block device count that /init's own wait loop
 * (lib/wait.sh wait_blocks) just took, sent when it moved and a second has
 * passed since the last one, whatever the monitor does:
 *
 *	UPTIME BLOCKS CPU [QUEUES]\n
 *
 * UPTIME the guest's, BLOCKS the entries of /sys/block, CPU what the
 * progress records sent before this one cost /init, in ticks of 1/100 s,
 * and QUEUES (guests since the SCSI scan's count) the request queues made
 * since before insmod: the "request_queue" slab's active objects, one per
 * SCSI device the scan allocates, which the kernel makes for minutes
 * before the first block device appears at tens of thousands of disks
 * (an asynchronous scan adds the devices to sysfs only when it is done);
 * -1 when the guest sent none or its kernel has no such slab.  The run's
 * live progress line comes from these (run.c); result.json keeps only
 * their number and cost (progress.records, progress.cpu_s).
 */
struct progress {
	double t;
	long long blocks, cpu, queues;
};

/* 0 and *p, or -1 with err (one line of three or four numbers, nothing
 * else). */
int progress_parse(const char *buf, size_t len, struct progress *p, struct strbuf *err);

#endif
