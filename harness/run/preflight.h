/* SPDX-License-Identifier: Apache-2.0 */
/*
 * preflight: what a run checks before anything is fetched, built or
 * booted, so that a run the host or the kernel cannot hold ends at once,
 * said once, with nothing made:
 *
 *	the backend		usable for the scenario's arch (and, for
 *				libvirt, its connection answers): be->check()
 *	the host's memory	MemAvailable holds the guest and QEMU's own
 *	the kernel's limits	a layout past them (kernel/limits.h), when
 *				the kernel is at hand (cached, or files)
 *	the results directory	made, writable, with room for the virtio
 *				disks' images and the logs
 *
 *	if ((err = preflight_check(&scenario, backend, uri, out)) < 0)
 *		return err;		// ERR_ENV, or ERR_USAGE for a layout
 *	... once the kernel is obtained (fetched or built):
 *	if (preflight_layout(&scenario, &kernel, &why) < 0) ...	// said; why.buf
 */
#ifndef SCALETEST_RUN_PREFLIGHT_H
#define SCALETEST_RUN_PREFLIGHT_H

#include "kernel/kernel.h"
#include "lib/strbuf.h"
#include "scenario/scenario.h"
#include "vm/vm.h"

/* 0, or the class of the first check that failed (said). */
int preflight_check(const struct scenario *s, const struct vm_backend *be, const char *uri,
		    const char *out);
/* The scenario against the kernel's limits (kernel/limits.h): 0, or
 * ERR_USAGE (said, and why in why): the scenario asks what this kernel
 * cannot hold. */
int preflight_layout(const struct scenario *s, const struct kernel_artifact *k,
		     struct strbuf *why);

#endif
