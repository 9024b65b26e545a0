/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sizing: a sweep's guest memory, sized from a small first sweep (scaletest
 * sweep --size-memory).
 *
 *	long long mb;
 *	if ((r = sizing_probe(&s, &rc, &mb)) < 0)	// said why (the probe
 *		return exit_code(r);		// failed, or the host is too small)
 *	... scenario_set(&s, "memory_mb=MB") and run the sweep ...
 *
 * The probe is an ordinary sweep run into rc.out (kept, not made latest)
 * of the scenario at 0, 256 and 512 disks (hosts of 256; no fio, no
 * rmmod, no virtio disk), in the scenario's own memory_mb.  From it:
 *
 *	memory_mb = (used + fixed + peak x per_disk x 1.1) / 1024 + 256
 *
 * rounded up to 256 MiB, where used is MemTotal - MemFree before insmod
 * (the kernel and the initramfs), fixed and per_disk the probe's MemFree
 * fit (fixed_kb, bytes_per_disk), peak the sweep's largest count; 10% and
 * 256 MiB of headroom for the rest of the run (virtio disks, the
 * inventory, fio).  The figure is refused (ERR_ENV) when the host's
 * MemAvailable cannot hold it and QEMU's own 256 MiB, or when it exceeds
 * memory_mb's range; a probe run that failed gives its own class.
 */
#ifndef SCALETEST_SIZING_H
#define SCALETEST_SIZING_H

#include "run/run.h"

int sizing_probe(const struct scenario *s, const struct run_config *rc, long long *mb);

#endif
