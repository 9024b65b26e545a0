/* SPDX-License-Identifier: Apache-2.0 */
/*
 * contract: the names the harness and the guest (initramfs/) agree on,
 * apart from the record types themselves (guest.h, record/records.h).
 *
 * Disk names.  The sd driver names disk index i (0-based) with a bijective
 * base-26 suffix: 0 sda, 25 sdz, 26 sdaa, 701 sdzz, 702 sdaaa, 18,278
 * sdaaaa; index 3999 is sdewv and 32,767 sdavlh.  virtio-blk does the same
 * with "vd".  The harness names the disks it expects this way (the fio
 * sample, libvirt's target devices) and reads the guest's lists back by
 * index:
 *
 *	char name[DISK_NAME_MAX];
 *	disk_name("sd", 3999, name, sizeof(name));	// "sdewv"
 *	disk_index("sdewv", NULL) == 3999;		// -1 for anything else
 *
 * The monitor's counters: the lines of /proc/vmstat the guest sends with
 * each sample (guest_vmstat[], NULL-terminated; guest.c writes them into
 * the guest's config, record/monitor.c keeps them).
 */
#ifndef SCALETEST_GUEST_CONTRACT_H
#define SCALETEST_GUEST_CONTRACT_H

#include <stddef.h>

#include "scenario/diskclass.h"

#define DISK_NAME_MAX 32

/* Name for index i with prefix ("sd", "vd") into buf; -1 if it does not fit. */
int disk_name(const char *prefix, long index, char *buf, size_t n);
/* Index of "sdXXX" / "vdXXX" (prefix returned in pfx[3]), or -1. */
long disk_index(const char *name, char pfx[3]);

/*
 * A disk class's names (scenario/diskclass.h, its naming): the name of
 * device index i (0-based; -1 when it does not fit n), and the index a
 * name has in the class (-1: not one of its devices' names).
 *
 *	class_disk_name(c, s, 3999, name, sizeof(name));	// scsi_debug: "sdewv"
 */
int class_disk_name(const struct disk_class *c, const struct scenario *s, long i,
		    char *buf, size_t n);
long class_disk_index(const struct disk_class *c, const struct scenario *s, const char *name);

extern const char *const guest_vmstat[];

#endif
