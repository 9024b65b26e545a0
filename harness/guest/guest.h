/* SPDX-License-Identifier: Apache-2.0 */
/*
 * guest: the contract between the harness and initramfs/init.
 *
 * The guest runs the phases of phase.h in order; at each it sends one
 * "snapshot" record, in sections (lib/channel.sh's snapshot): the phase's mark
 * (/proc/uptime's first field), /proc/meminfo and /proc/slabinfo.
 * (Guests before it sent them as three records, "mark", "meminfo" and
 * "slabinfo", which the harness still reads.)  Between phases it sends
 * the other record types (records.h lists them all, with the table of
 * their handlers in records.c: blocks, timing, info, io, inventory, the fio
 * records, monitor samples and progress counts, sweep points, attribution
 * hists, page_owner, kmemleak), and at the end one "end" record
 * (status=..., phase=..., reason=...).  See initramfs/init for the guest
 * side, record/channel.h for the framing and guest/contract.h for the
 * names both sides use.
 *
 * guest_compose() turns a scenario and a kernel into the initramfs that
 * carries this protocol: busybox for the guest's architecture, the guest
 * scripts, the modules with their modules.dep closure in load order, and
 * /etc/scaletest.conf with the scenario's validated numbers.
 *
 *	struct initramfs ir = INITRAMFS_INIT;
 *	if (guest_compose(&s, &k, log, &ir, &virtio_channel) < 0) ...
 *	initramfs_build_cached(&ir, &path, &hit);	// cache/initramfs/<hash>.cpio
 *	initramfs_release(&ir);
 *
 * The static busybox that guest_compose() puts in is Debian's
 * busybox-static, unpacked once into the cache.
 *
 * The record channel: a virtio-serial port (vm.h's VM_CHANNEL_NAME) when
 * the scenario's channel key is virtio, or auto and the kernel has
 * virtio_console (a module, loaded with virtio_pci before the first
 * record, or built in); else the second serial port, /dev/ttyS1.
 * guest_compose() says which in *virtio_channel, for the VM's devices;
 * channel = virtio on a kernel without virtio_console is an error.
 */
#ifndef SCALETEST_GUEST_H
#define SCALETEST_GUEST_H

#include "guest/initramfs.h"
#include "kernel/kernel.h"
#include "scenario/scenario.h"

/* Statuses the guest may report in its "end" record. */
int guest_status_valid(const char *status);

/* The directory holding init and its shell library (lib/):
 * <scaletest_root()>/initramfs. */
const char *guest_data_dir(void);

/* The guest's shell library, by topic: initramfs/lib/NAME, which goes into
 * the guest as /lib/scaletest/NAME and which initramfs/init sources, in
 * this order (the last, timeattr.sh, after /etc/scaletest.conf).  NULL ends
 * the list. */
extern const char *const guest_scripts[];


int guest_compose(const struct scenario *s, const struct kernel_artifact *k,
		  const char *log, struct initramfs *ir, int *virtio_channel);

/* The kernel command line for a scenario: with attribution on a kernel
 * built with the debug fragment (kernel-configs/debug.config, which has
 * CONFIG_PAGE_OWNER), "page_owner=on" too; with time_attribution,
 * "preempt=full". */
char *guest_cmdline(const struct scenario *s);

/* Whether s builds its kernel with the debug fragment (kernel = build and
 * "debug" or a path ending in debug.config in kernel_fragments). */
int guest_debug_fragment(const struct scenario *s);

#endif
