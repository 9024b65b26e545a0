/* SPDX-License-Identifier: Apache-2.0 */
/*
 * backends: every VM backend by name, the default first.  The table stands
 * above the backends it lists (qemu.c, libvirt.c), which stand on vm.h's
 * interface and vm.c below them; so a backend never calls up into its own
 * table.
 *
 *	const struct vm_backend *be = vm_backend_find(NULL);	// the default
 *	be = vm_backend_find(scenario_backend(s));		// "libvirt"
 */
#ifndef SCALETEST_VM_BACKENDS_H
#define SCALETEST_VM_BACKENDS_H

#include "vm/vm.h"

/* The backend of that name; NULL names the default (qemu).  NULL if none. */
const struct vm_backend *vm_backend_find(const char *name);

#endif
