/* SPDX-License-Identifier: Apache-2.0 */
/*
 * inventory: every block device of a run, and the checks on it.
 *
 * The guest sends one "inventory" record after the virtio disks appear,
 * one device per line:
 *
 *	NAME MAJ:MIN SECTORS NR_REQUESTS SCHEDULER HW_QUEUES READ_OK
 *
 * (NR_REQUESTS and SCHEDULER are "-" for a bio-based device, which has
 * neither: NVMe's multipath heads on 7.x.)
 *
 * (SCHEDULER is the active one, "none" or "mq-deadline"...; READ_OK is 1 if
 * the device's first block could be read).  inventory_parse() reads it;
 * the checks compare it with what the sd driver must have done:
 *
 *   sd_devt(i)        the dev_t the sd driver gives disk index i:
 *                     major 8, 65-71, 128-135 by (i & 0xf0) >> 4, minor
 *                     ((i & 0xf) << 4) | (i & 0xfff00); index 3999 is
 *                     sdewv, 129:4080;
 *   unique dev_t      no two devices share one;
 *   sd sequence       the N scsi_debug disks are exactly sda .. the name
 *                     of index N-1, each with sd_devt(index);
 *   after the range   the virtio disks (when sd-named) have indexes N, N+1,
 *                     ... and the matching dev_t;
 *   readable          every device's first block was read.
 *
 *	struct inventory inv = INVENTORY_INIT;
 *	if (inventory_parse(&inv, buf, len, &err) < 0) ...
 *	ok = inventory_check_unique_devt(&inv, &why);
 *	ok = inventory_check_sd_sequence(&inv, &sd_names, n, &why);
 *	ok = inventory_check_after_range(&inv, &virtio_names, n, &why);
 *	ok = inventory_check_readable(&inv, &why);	// 1 pass, 0 fail + why
 *	inventory_release(&inv);
 */
#ifndef SCALETEST_INVENTORY_H
#define SCALETEST_INVENTORY_H

#include <stddef.h>

#include "lib/strbuf.h"
#include "lib/strvec.h"

struct inv_row {
	char name[32];
	unsigned major, minor;
	long long sectors;
	long nr_requests;
	char sched[32];
	int hw_queues;
	int read_ok;
};

struct inventory {
	struct inv_row *r;
	size_t n, alloc;
};
#define INVENTORY_INIT { NULL, 0, 0 }

int inventory_parse(struct inventory *inv, const char *buf, size_t len,
		    struct strbuf *err);
const struct inv_row *inventory_find(const struct inventory *inv, const char *name);
void inventory_release(struct inventory *inv);

/* The dev_t the sd driver gives disk index i; -1 if i is out of its range. */
int sd_devt(long index, unsigned *major, unsigned *minor);

/* Each returns 1 (pass) or 0 (fail, with the first problem in why). */
int inventory_check_unique_devt(const struct inventory *inv, struct strbuf *why);
/* names: the disks that appeared with scsi_debug; n: how many were asked for. */
int inventory_check_sd_sequence(const struct inventory *inv, const struct strvec *names,
				long n, struct strbuf *why);
/* virtio: the disks that appeared after; first: the index they must start at. */
int inventory_check_after_range(const struct inventory *inv, const struct strvec *virtio,
				long first, struct strbuf *why);
int inventory_check_readable(const struct inventory *inv, struct strbuf *why);

#endif
