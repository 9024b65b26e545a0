/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libvirt_int: what the parts of the libvirt backend share, and nothing
 * outside vm/libvirt*.c includes.  The backend is cut at its seams, each
 * part standing on those below it and never calling one above:
 *
 *	libvirt.c		the backend itself: start, poll, stop (vm.h)
 *	libvirt_storage.c	uploads and volumes for a remote host
 *	libvirt_stream.c	the console and channel streams (struct pump)
 *	libvirt_conn.c		the event loop thread, connections, the sweep,
 *				and the last reference to a struct lv
 *	libvirt_xml.c		the domain XML and the owner element
 *
 * A VM is a struct lv: its connection, domain, two pumps and volumes,
 * reference-counted between the main thread and libvirt's callbacks.
 */
#ifndef SCALETEST_VM_LIBVIRT_INT_H
#define SCALETEST_VM_LIBVIRT_INT_H

#include "lib/strbuf.h"
#include "vm/vm.h"

/* What each entry point says in a build without libvirt (error_env()). */
#define LIBVIRT_NOT_BUILT "this scaletest was built without libvirt: install libvirt-dev " \
	"and libxml2-dev (make deps-libvirt), then rebuild"

#ifdef HAVE_LIBVIRT
#include <pthread.h>

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>

#include "lib/strvec.h"


/*
 * A pump carries one libvirt stream (the console, or the record channel)
 * into one end of a socketpair whose other end the watch loop reads.  It
 * runs in the event-loop thread and never drops a byte: what the socket
 * does not take at once waits in the pump's queue, and a writable watch on
 * the socket sends it as the watch loop reads, so a harness that reads
 * late (a libvirt call that took a minute) costs time, never records.
 * While the queue holds PUMP_QUEUE_MAX bytes the stream is not read
 * (libvirt keeps what arrives), except while the VM is being stopped: the
 * watch loop reads again only once both streams have ended.  The socket is
 * closed once its stream has ended (EOF, an error, the connection lost)
 * and the queue is empty, so the watch loop's EOF means "all delivered".
 */
#define PUMP_QUEUE_MAX (4 << 20)
#define PUMP_EVENTS (VIR_STREAM_EVENT_READABLE | VIR_STREAM_EVENT_ERROR | VIR_STREAM_EVENT_HANGUP)
/* How long stop() waits for a stream's end after the domain's, while the
 * connection lives.  Only a stuck libvirt takes that long; the run then
 * says that the stream's tail is lost (an error of the harness's side). */
#define STREAM_END_S 600

enum pump_end { END_EOF, END_ABORT, END_DROP };

struct pump {
	struct lv *lv;
	const char *what;	/* "console", "record channel" */
	virStreamPtr st;
	int fd;			/* our end of the socketpair, nonblocking; -1 once closed */
	int watching;		/* the stream's callback is registered */
	int paused;		/* ... with no events (the queue is full) */
	int ended;		/* the stream is done with: EOF, aborted or dropped */
	int complete;		/* ... at its EOF */
	int wh;			/* the socket's writable watch, or -1 */
	struct strbuf q;	/* received, not yet sent: q.buf + qoff .. q.len */
	size_t qoff;
};

/*
 * Fault injection for the harness's own tests (docs/faults.md, "Fault injection"),
 * from the environment: SCALETEST_FAULT=
 *	libvirt-stall:S		start() returns only once the domain has ended
 *				and S seconds more have passed, the socketpairs
 *				as small as the kernel allows: the watch loop
 *				reads nothing while the guest runs (a libvirt
 *				call that took a minute while the guest ran)
 */
enum lv_fault { LV_FAULT_NONE, LV_FAULT_STALL };

struct lv {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	virConnectPtr conn;
	virDomainPtr dom;
	char *uri;
	char *name;
	char *volbase;		/* volume names: volbase.WHAT (see volume_owner) */
	struct pump pumps[2];	/* serial0 (console); the record channel */
	int lost;		/* the connection closed under us */
	int stopping;		/* stop() has begun: the queues take everything */
	int refs;		/* ours, and each callback libvirt holds (its free function drops it) */
	int close_cb;
	struct strvec vols;	/* uploaded or created volumes, to delete */
	virStoragePoolPtr pool;
	enum lv_fault fault;
	long fault_s;
};

/* The storage pool the harness names (a directory pool, made transient
 * when absent) for the files of a remote host. */
#define POOL_NAME "scaletest"
#define POOL_DIR "/var/lib/libvirt/images/scaletest"

/* libvirt_conn.c */
const char *lv_last_error(void);	/* libvirt's last message, never empty */
const char *lv_uri_or_default(const char *uri);
/* A connection to uri in *conn: 0, or the failure's class (said: the
 * error names the fix; ERR_ENV for libvirt that does not answer). */
int lv_open(const char *uri, virConnectPtr *conn);
/* The hypervisor's version, as libvirt_connect_check() last found it. */
extern char lv_hv_version[32];
/* Destroys this host's leftover domains and volumes on conn: how many, or -1. */
int lv_sweep_all(virConnectPtr conn);
/* Drops a reference; the last frees lv (its pumps' queues, names). */
void lv_unref(struct lv *lv);

/* libvirt_stream.c (with lv->mu held, but pump_open) */
int pump_open(struct lv *lv, struct pump *p, const char *dev, int channel,
	      int *harness_fd);
void pump_end(struct pump *p, enum pump_end how);
void pump_close(struct pump *p);
void pump_events(struct pump *p, int on);
void pump_flush(struct pump *p);

/* libvirt_storage.c */
/* The files of c as volumes of the pool on lv's connection (there: c with
 * their paths); lv_volumes_delete() removes them. */
int lv_stage_files(struct lv *lv, const struct vm_config *c, struct vm_config *there,
		   struct strvec *disks, char **kernel, char **initrd);
void lv_volumes_delete(struct lv *lv);

#endif	/* HAVE_LIBVIRT */
#endif
