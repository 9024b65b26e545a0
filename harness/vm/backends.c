// SPDX-License-Identifier: Apache-2.0
#include "vm/backends.h"

#include <string.h>

#include "lib/util.h"

/* Every backend, the default first. */
static const struct vm_backend *const backends[] = {
	&vm_backend_qemu,
	&vm_backend_libvirt,
};

const struct vm_backend *vm_backend_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(backends); i++)
		if (!name || !strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
}
