/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan: what a run would do, said without doing it (scaletest run
 * --dry-run).
 *
 * The plan is the resolved scenario (every key, its value and where it
 * came from), the kernel the run would boot (or what it would fetch or
 * build first, when the cache does not have it: kernel_find()), the
 * initramfs, the disks, memory and CPUs, the accelerator (accel_known():
 * when only a probe boot could tell, it says so and assumes KVM), and
 * what the backend would start: QEMU's argv, shell-quoted, from the same
 * code that starts it, or libvirt's domain XML (vm.h, describe).
 *
 * Nothing is created: no run directory, no download, no build, no VM.
 * Looking the kernel up may ask apt-cache (remembered) and, for a kernel
 * tree, read the tree's names, sizes and times.  Paths that only a run
 * makes are shown as what they will be: the run directory as
 * OUT/.tmp-RUN_ID, the initramfs as CACHE/initramfs/SHA256.cpio.
 *
 *	struct strbuf plan = STRBUF_INIT;
 *	if (run_plan(&scenario, &rc, &plan) < 0) ...	// said; the failure's
 *						// class (ERR_ENV, ERR_USAGE: a
 *						// layout the kernel cannot hold)
 *	fputs(plan.buf, stdout);
 */
#ifndef SCALETEST_PLAN_H
#define SCALETEST_PLAN_H

#include "lib/strbuf.h"
#include "run/run.h"

int run_plan(const struct scenario *s, const struct run_config *rc, struct strbuf *out);

#endif
