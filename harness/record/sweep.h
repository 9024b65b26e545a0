/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep: the guest's "point" records, one per step of a sweep (the sweep
 * key; initramfs/lib/sweep.sh sweep_run), sent once the step's disks all exist:
 *
 *	@@@ point I DISKS UPTIME
 *	@@@ timing
 *	add_cs=N		the write to add_host, in centiseconds
 *	enumerate_cs=N		from that write until DISKS were there
 *	@@@ meminfo
 *	<the text of /proc/meminfo>
 *	@@@ slabinfo
 *	<the text of /proc/slabinfo>
 *
 * I counts steps from 1 and DISKS is the step's scsi_debug disk count;
 * records.c accepts a point only as the next step of the scenario's list
 * with that step's count.  sweep_point_parse() turns one into the object
 * result.json's sweep.points keeps (result/sweep.h adds the figures):
 *
 *	{"step": 2, "disks": 250, "t": 41.5, "add_s": 0.2,
 *	 "enumerate_s": 12.31, "meminfo": {...all fields...}, "slab_kb": 5321}
 */
#ifndef SCALETEST_SWEEP_H
#define SCALETEST_SWEEP_H

#include <json.h>
#include <stddef.h>

#include "lib/strbuf.h"

/* 0 with *out (a new object), *step and *disks; -1 with err. */
int sweep_point_parse(const char *buf, size_t len, long page_size, json_object **out,
		      long *step, long long *disks, struct strbuf *err);

#endif
