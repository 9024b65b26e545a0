// SPDX-License-Identifier: Apache-2.0
/*
 * The libvirt backend's streams (libvirt_int.h, struct pump): the console
 * and the record channel, each a libvirt stream carried into a socketpair
 * the watch loop reads, in the event-loop thread, never dropping a byte.
 */
#include "vm/libvirt_int.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"

#ifdef HAVE_LIBVIRT

static void pump_unref(void *opaque)
{
	lv_unref(((struct pump *)opaque)->lv);
}

/* The rest of this section runs with lv->mu held. */

/* Done with the stream: at its EOF (finished), given up (aborted), or on
 * a connection that is gone (nothing more asked of libvirt). */
void pump_end(struct pump *p, enum pump_end how)
{
	if (p->ended)
		return;
	if (p->watching) {
		if (how != END_DROP)
			virStreamEventRemoveCallback(p->st);
		p->watching = 0;
	}
	if (p->st && how == END_EOF)
		virStreamFinish(p->st);
	else if (p->st && how == END_ABORT)
		virStreamAbort(p->st);
	p->ended = 1;
	p->complete = how == END_EOF;
	pthread_cond_broadcast(&p->lv->cv);
}

void pump_close(struct pump *p)
{
	if (p->wh >= 0) {
		virEventRemoveHandle(p->wh);
		p->wh = -1;
	}
	if (p->fd >= 0) {
		close(p->fd);
		p->fd = -1;
	}
	sb_release(&p->q);
	p->qoff = 0;
	pthread_cond_broadcast(&p->lv->cv);
}

void pump_events(struct pump *p, int on)
{
	if (!p->watching || p->ended || p->paused == !on)
		return;
	virStreamEventUpdateCallback(p->st, on ? PUMP_EVENTS : 0);
	p->paused = !on;
}

static void on_writable(int watch, int fd, int events, void *opaque);

/* Sends what the queue holds, as far as the socket takes it. */
void pump_flush(struct pump *p)
{
	while (p->fd >= 0 && p->qoff < p->q.len) {
		ssize_t n = send(p->fd, p->q.buf + p->qoff, p->q.len - p->qoff, MSG_NOSIGNAL);

		if (n > 0) {
			p->qoff += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (p->wh < 0) {
				p->lv->refs++;
				p->wh = virEventAddHandle(p->fd, VIR_EVENT_HANDLE_WRITABLE,
							  on_writable, p, pump_unref);
				if (p->wh >= 0)
					return;
				p->lv->refs--;
				break;		/* cannot wait: give up below */
			}
			if (p->qoff > (1 << 20)) {
				sb_consume(&p->q, p->qoff);
				p->qoff = 0;
			}
			return;
		}
		break;			/* the watch loop closed its end */
	}
	if (p->fd >= 0 && p->qoff < p->q.len) {
		pump_end(p, p->lv->lost ? END_DROP : END_ABORT);
		pump_close(p);
		return;
	}
	if (p->fd < 0)
		return;
	sb_reset(&p->q);
	p->qoff = 0;
	if (p->wh >= 0) {
		virEventRemoveHandle(p->wh);
		p->wh = -1;
	}
	if (p->ended)
		pump_close(p);
	else
		pump_events(p, 1);
}

static void on_writable(int watch, int fd, int events, void *opaque)
{
	struct pump *p = opaque;

	(void)watch;
	(void)fd;
	(void)events;
	pthread_mutex_lock(&p->lv->mu);
	if (p->wh >= 0)
		pump_flush(p);
	pthread_mutex_unlock(&p->lv->mu);
}

static void on_stream(virStreamPtr st, int events, void *opaque)
{
	struct pump *p = opaque;
	struct lv *lv = p->lv;
	char buf[65536];

	pthread_mutex_lock(&lv->mu);
	if (p->ended) {
		pthread_mutex_unlock(&lv->mu);
		return;
	}
	while (!p->ended && (lv->stopping || p->q.len - p->qoff < PUMP_QUEUE_MAX)) {
		int n = virStreamRecv(st, buf, sizeof(buf));

		if (n == -2)
			break;			/* drained for now */
		if (n <= 0) {
			pump_end(p, n == 0 ? END_EOF : END_ABORT);
			break;
		}
		sb_add(&p->q, buf, (size_t)n);
	}
	if (!p->ended && !lv->stopping && p->q.len - p->qoff >= PUMP_QUEUE_MAX)
		pump_events(p, 0);	/* the flush turns them on again */
	/* Drained, and nothing more will come. */
	if (!p->ended && (events & (VIR_STREAM_EVENT_ERROR | VIR_STREAM_EVENT_HANGUP)) &&
	    !(events & VIR_STREAM_EVENT_READABLE))
		pump_end(p, END_ABORT);
	pump_flush(p);
	pthread_mutex_unlock(&lv->mu);
}

int pump_open(struct lv *lv, struct pump *p, const char *dev, int channel,
	      int *harness_fd)
{
	int sv[2];

	p->st = virStreamNew(lv->conn, VIR_STREAM_NONBLOCK);
	if (!p->st)
		return error("cannot make a libvirt stream: %s", lv_last_error());
	if ((channel ? virDomainOpenChannel(lv->dom, dev, p->st, VIR_DOMAIN_CHANNEL_FORCE)
		     : virDomainOpenConsole(lv->dom, dev, p->st, VIR_DOMAIN_CONSOLE_FORCE)) < 0)
		return error("cannot open the domain's %s: %s", dev, lv_last_error());
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return error_errno("cannot create a socket pair");
	/* Ours nonblocking: the event thread never waits on the watch loop. */
	if (fcntl(sv[1], F_SETFL, fcntl(sv[1], F_GETFL) | O_NONBLOCK) < 0) {
		close(sv[0]);
		close(sv[1]);
		return error_errno("cannot make a socket nonblocking");
	}
	if (lv->fault == LV_FAULT_STALL) {
		int small = 1;	/* the kernel makes it its minimum */

		setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &small, sizeof(small));
		setsockopt(sv[0], SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	}
	pthread_mutex_lock(&lv->mu);
	p->fd = sv[1];
	lv->refs++;
	if (virStreamEventAddCallback(p->st, PUMP_EVENTS, on_stream, p, pump_unref) < 0) {
		lv->refs--;
		close(sv[1]);
		p->fd = -1;
		pthread_mutex_unlock(&lv->mu);
		close(sv[0]);
		return error("cannot watch the domain's %s: %s", dev, lv_last_error());
	}
	p->watching = 1;
	pthread_mutex_unlock(&lv->mu);
	*harness_fd = sv[0];
	return 0;
}

#endif
