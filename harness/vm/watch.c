// SPDX-License-Identifier: Apache-2.0
#include "vm/watch.h"

#include <errno.h>
#include <poll.h>
#include <unistd.h>

#include "lib/child.h"
#include "lib/util.h"

/* Reads what is there; on EOF or error closes *fd and returns -1. */
static int pump(const struct vm_watch *w, int *fd, int is_channel)
{
	char buf[65536];
	ssize_t n = read(*fd, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		close(*fd);
		*fd = -1;
		return -1;
	}
	if (is_channel)
		w->channel(w->ctx, buf, (size_t)n);
	else
		w->console(w->ctx, buf, (size_t)n);
	return 0;
}

static enum vm_watch_end loop(struct vm *vm, const struct vm_watch *w)
{
	while (vm->console_fd >= 0 || vm->channel_fd >= 0) {
		double now = now_monotonic(), until = w->deadline(w->ctx);
		struct pollfd fds[3];
		int nfds = 0, ic = -1, ih = -1, ms;

		if (child_interrupted())
			return VM_WATCH_SIGNAL;
		if (w->done && w->done(w->ctx))
			return VM_WATCH_DONE;
		if (now >= until)
			return VM_WATCH_DEADLINE;
		if (vm->console_fd >= 0) {
			ic = nfds;
			fds[nfds++] = (struct pollfd){ vm->console_fd, POLLIN, 0 };
		}
		if (vm->channel_fd >= 0) {
			ih = nfds;
			fds[nfds++] = (struct pollfd){ vm->channel_fd, POLLIN, 0 };
		}
		fds[nfds++] = (struct pollfd){ child_signal_fd(), POLLIN, 0 };
		ms = until - now > 1.0 ? 1000 : (int)((until - now) * 1000) + 1;
		if (poll(fds, (nfds_t)nfds, ms) < 0 && errno != EINTR)
			return VM_WATCH_EXITED;
		if (ic >= 0 && fds[ic].revents)
			pump(w, &vm->console_fd, 0);
		if (ih >= 0 && fds[ih].revents)
			pump(w, &vm->channel_fd, 1);
	}
	return w->done && w->done(w->ctx) ? VM_WATCH_DONE : VM_WATCH_EXITED;
}

enum vm_watch_end vm_watch(struct vm *vm, const struct vm_watch *w, double grace,
			   struct child_result *res)
{
	enum vm_watch_end end = loop(vm, w);

	vm->backend->stop(vm, grace, res);
	/* Whatever the guest wrote before it went: read to EOF. */
	while (vm->console_fd >= 0 && pump(w, &vm->console_fd, 0) == 0)
		;
	while (vm->channel_fd >= 0 && pump(w, &vm->channel_fd, 1) == 0)
		;
	return end;
}
