// SPDX-License-Identifier: Apache-2.0
#include "vm/vm.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"

void vm_release(struct vm *vm)
{
	struct child_result res;

	if (vm->backend && (vm->child.pid || vm->priv))
		vm->backend->stop(vm, 1.0, &res);
	if (vm->console_fd >= 0)
		close(vm->console_fd);
	if (vm->channel_fd >= 0)
		close(vm->channel_fd);
	strvec_clear(&vm->argv);
	strvec_clear(&vm->facts);
	free(vm->fault);
	vm->fault = NULL;
	vm->console_fd = vm->channel_fd = -1;
}

char *vm_cmdline(const struct vm_config *c)
{
	if (c->accel && !strcmp(c->accel, "tcg"))
		return xstrfmt("%s no_timer_check", c->cmdline);
	return xstrdup(c->cmdline);
}
