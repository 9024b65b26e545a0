/* SPDX-License-Identifier: Apache-2.0 */
/*
 * accel: choosing the accelerator by behaviour, not by /dev/kvm's presence.
 *
 * On some hosts /dev/kvm exists but a KVM guest hangs (nested
 * virtualisation).  With accel=auto the harness boots the run's own kernel
 * and initramfs once under KVM with "scaletest_probe=1"; the guest's /init
 * answers with a "mark probe" record and reboots.  If that record arrives
 * within the deadline KVM is used, else TCG.  The verdict is cached per
 * host kernel, QEMU version and guest arch (cache/accel/), so the probe
 * costs once.
 *
 *	struct accel_result a;
 *	if (accel_choose(backend, &scenario, uri, kernel_image, initrd,
 *			 virtio_channel, probe_log, &a) < 0)
 *		...;			// the probe VM could not even start
 *					// (or the cache cannot be used)
 *	use a.accel ("kvm" / "tcg"); report a.reason
 *
 * The probe boots through the run's own VM backend (vm.h) (libvirt: at uri,
 * NULL for the default) and waits in the
 * one watch loop (watch.h).
 */
#ifndef SCALETEST_ACCEL_H
#define SCALETEST_ACCEL_H

#include "scenario/scenario.h"

struct accel_result {
	char accel[8];
	char reason[200];
};

#define ACCEL_PROBE_SECONDS 30

struct vm_backend;

/* virtio_channel: the record channel the initramfs expects (guest.h). */
int accel_choose(const struct vm_backend *be, const struct scenario *s,
		 const char *uri, const char *kernel, const char *initrd, int virtio_channel,
		 const char *log, struct accel_result *out);
/* The choice when no probe boot is needed (run --dry-run, and the first
 * step of accel_choose): 1 and out filled when the scenario, the lack of
 * /dev/kvm or this host's cached verdict decides; 0 when only a probe
 * boot can; ERR_ENV (said) when the cache cannot be used. */
int accel_known(const struct vm_backend *be, const struct scenario *s,
		struct accel_result *out);

#endif
