/* SPDX-License-Identifier: Apache-2.0 */
/*
 * limits: what a kernel can hold, checked before it boots.
 *
 * Linux before 6.5 gives bsg (CONFIG_BLK_DEV_BSG), which registers a
 * character device for every SCSI device, 32,768 minors (BSG_MAX_DEVS);
 * the SCSI devices past them never appear ("bsg: too many bsg devices"),
 * after minutes of enumeration.  6.5 raised bsg's and sg's limits to 2^20
 * (commits 9077fb2ab78c "scsi: bsg: Increase number of devices" and
 * 37c918e03ef7 "scsi: sg: Increase number of devices").  sd's own limit
 * is its 20-bit index (1,048,576 disks, disks.h).  The SCSI devices of a
 * run are its scsi_debug disks and, with virtio_bus = scsi, the virtio
 * disks after them (virtio-blk disks are no SCSI devices).
 *
 *	struct strbuf why = STRBUF_INIT;
 *	if (kernel_check_layout(&scenario, &artifact, &why) < 0)
 *		... refuse the run (exit 2): why names the limit and the fix
 *
 * Before that, the disk class's needs (scenario/diskclass.h): each .config
 * option (or, without a .config, the module in the tree's modules.dep or
 * modules.builtin) the class cannot do without, refused with what to use
 * instead ("disk_class = nvme_loop needs the NVMe target's loop transport
 * (CONFIG_NVME_TARGET_LOOP), and kernel 6.1.0-57-amd64 has it neither
 * built in nor as a module: ...").
 *
 * The kernel's version is its uname -r ("6.1.0-57-amd64", "6.12.118+");
 * its .config says whether it has BLK_DEV_BSG.  A kernel whose .config is
 * unknown is not refused (nothing is known of its bsg).
 */
#ifndef SCALETEST_LIMITS_H
#define SCALETEST_LIMITS_H

#include "kernel/kernel.h"
#include "lib/strbuf.h"
#include "scenario/scenario.h"

/* bsg's and sg's minors before Linux 6.5. */
#define KERNEL_BSG_MAX_OLD 32768

/* "6.12.118+deb12-amd64" -> 6, 12: 0, or -1 when it does not start so. */
int kernel_version_parse(const char *version, int *major, int *minor);
/* Whether a .config's text sets CONFIG_name=y (or =m). */
int kernel_config_enabled(const char *config, const char *name);
/* The SCSI devices a run makes at most: its largest count of a SCSI class
 * (scsi_debug; a sweep's peak), or its last count and the virtio-scsi
 * disks after them. */
long long scenario_scsi_devices(const struct scenario *s);
/* Whether kernel_check_layout() might refuse s on some kernel (more SCSI
 * devices than bsg's old limit, or a class beyond scsi_debug, whose
 * needs a kernel may lack): worth finding the kernel before anything is
 * made. */
int kernel_layout_may_refuse(const struct scenario *s);
/* 0, or -1 with the reason in why (the limit, the count, the kernels
 * that lift it, what else to do). */
int kernel_check_layout(const struct scenario *s, const struct kernel_artifact *k,
			struct strbuf *why);

#endif
