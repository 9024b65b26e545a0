/* SPDX-License-Identifier: Apache-2.0 */
/*
 * watch: the one loop that supervises a running VM.
 *
 * Every place that waits for a guest (a scale-test run, the KVM probe)
 * uses this loop: it polls the VM's two byte streams (the serial console
 * and the record channel) and the harness's signal fd, hands every byte
 * read to the caller's callbacks, and ends on the first of:
 *
 *	both streams at EOF (the VM ended)	VM_WATCH_EXITED
 *	the caller's deadline passed		VM_WATCH_DEADLINE
 *	the caller says it has seen enough	VM_WATCH_DONE
 *	SIGINT/SIGTERM/SIGHUP to the harness	VM_WATCH_SIGNAL
 *
 * The deadline is asked for again on every turn, so a callback may move it
 * (a new phase brings its own deadline).  Whatever the ending, the VM is
 * then stopped (SIGTERM, grace seconds, SIGKILL, reap: the backend's stop)
 * and both streams are read to EOF, so nothing the guest wrote before it
 * went is lost.
 *
 *	struct vm_watch w = {
 *		.ctx = r, .console = on_console, .channel = on_channel,
 *		.deadline = next_deadline,		// now_monotonic() scale
 *		.done = NULL,				// optional
 *	};
 *	enum vm_watch_end end = vm_watch(&vm, &w, 3.0, &res);
 *
 * The backend (vm.h) is whatever started the VM; this loop knows only its
 * two fds and its stop().
 */
#ifndef SCALETEST_VM_WATCH_H
#define SCALETEST_VM_WATCH_H

#include <stddef.h>

#include "vm/vm.h"

enum vm_watch_end {
	VM_WATCH_EXITED,
	VM_WATCH_DEADLINE,
	VM_WATCH_DONE,
	VM_WATCH_SIGNAL,
};

struct vm_watch {
	void *ctx;
	void (*console)(void *ctx, const char *buf, size_t len);
	void (*channel)(void *ctx, const char *buf, size_t len);
	double (*deadline)(void *ctx);
	int (*done)(void *ctx);
};

enum vm_watch_end vm_watch(struct vm *vm, const struct vm_watch *w, double grace,
			   struct child_result *res);

#endif
