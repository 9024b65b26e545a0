/*
 * The libvirt backend (vm.h, libvirt.h).
 *
 * One connection per VM: the domain is created with
 * VIR_DOMAIN_START_AUTODESTROY, which ties it to that connection, so when
 * the harness goes (even by SIGKILL: the kernel closes the socket) libvirtd
 * destroys the domain.  It is also created with VIR_DOMAIN_START_PAUSED:
 * the console and the record channel (a virtio channel, or the second
 * serial port) are opened as libvirt streams before the first guest
 * instruction runs (virDomainResume comes after), so nothing
 * the guest prints is lost.
 *
 * The watch loop (watch.h) wants two fds.  libvirt's default event loop
 * runs in one thread of the harness; each console stream has a readable
 * callback there that copies what arrives into one end of a socketpair
 * whose other end is vm->console_fd or vm->channel_fd.  A stream's end
 * (the domain went) closes its socketpair end: the watch loop sees EOF as
 * it does when QEMU exits.  The same thread watches the connection: a
 * connection that closes (libvirtd killed, network gone) is a fault of
 * the harness's side, vm->fault, never blamed on the guest.
 *
 * For a URI naming another machine the kernel and initramfs are uploaded
 * into a storage pool the harness names ("scaletest", a directory pool,
 * created transient when absent) with virStorageVolUpload, and the virtio
 * disks are created there empty; all are deleted when the VM stops.
 */
#include "vm/libvirt.h"

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
#include "scenario/scenario.h"

#ifdef HAVE_LIBVIRT
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>
#endif

void libvirt_disk_name(const char *prefix, size_t i, char *out, size_t n)
{
	char tmp[16];
	size_t k = sizeof(tmp);

	tmp[--k] = '\0';
	i++;
	while (i && k) {
		tmp[--k] = (char)('a' + (i - 1) % 26);
		i = (i - 1) / 26;
	}
	snprintf(out, n, "%s%s", prefix, tmp + k);
}

void libvirt_version_string(unsigned long v, char *out, size_t n)
{
	snprintf(out, n, "%lu.%lu.%lu", v / 1000000, v / 1000 % 1000, v % 1000);
}

int libvirt_uri_is_remote(const char *uri)
{
	const char *p = strstr(uri, "://");

	return p && p[3] && p[3] != '/';
}

#ifdef HAVE_LIBVIRT

const int libvirt_built = 1;

static const char *last_error(void)
{
	const char *m = virGetLastErrorMessage();

	return m && *m ? m : "unknown libvirt error";
}

/* libvirt prints every error on stderr by default; ours are reported once,
 * with the fix, by the caller. */
static void quiet_errors(void *opaque, virErrorPtr err)
{
	(void)opaque;
	(void)err;
}

/* ---- the domain XML ----------------------------------------------------- */

#define W(call) do { if ((call) < 0) goto fail; } while (0)

static int elem_text(xmlTextWriterPtr w, const char *name, const char *text)
{
	return xmlTextWriterWriteElement(w, BAD_CAST name, BAD_CAST text);
}

static int attr(xmlTextWriterPtr w, const char *name, const char *value)
{
	return xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST value);
}

static int attrf(xmlTextWriterPtr w, const char *name, long long v)
{
	return xmlTextWriterWriteFormatAttribute(w, BAD_CAST name, "%lld", v);
}

static int start(xmlTextWriterPtr w, const char *name)
{
	return xmlTextWriterStartElement(w, BAD_CAST name);
}

static int end(xmlTextWriterPtr w)
{
	return xmlTextWriterEndElement(w);
}

/* A file's path as the libvirt host must read it: libvirtd resolves a
 * relative path from its own directory, never the harness's, so every
 * path in the XML is absolute (the harness's directory in front). */
static int attr_path(xmlTextWriterPtr w, const char *name, const char *path)
{
	char *abs = absolute_path(path);
	int r = attr(w, name, abs);

	free(abs);
	return r;
}

static int elem_path(xmlTextWriterPtr w, const char *name, const char *path)
{
	char *abs = absolute_path(path);
	int r = elem_text(w, name, abs);

	free(abs);
	return r;
}

static int write_disks(xmlTextWriterPtr w, const struct vm_config *c)
{
	int scsi = c->virtio_bus == VIRTIO_SCSI;

	if (!c->disks || !c->disks->n)
		return 0;
	if (scsi) {
		W(start(w, "controller"));
		W(attr(w, "type", "scsi"));
		W(attr(w, "index", "0"));
		W(attr(w, "model", "virtio-scsi"));
		W(end(w));
	}
	/* In probe order, as qemu.c: virtio-scsi target i, lun 0; or one
	 * virtio-blk PCI device each, in order. */
	for (size_t i = 0; i < c->disks->n; i++) {
		char dev[16];

		libvirt_disk_name(scsi ? "sd" : "vd", i, dev, sizeof(dev));
		W(start(w, "disk"));
		W(attr(w, "type", "file"));
		W(attr(w, "device", "disk"));
		W(start(w, "driver"));
		W(attr(w, "name", "qemu"));
		W(attr(w, "type", "raw"));
		W(attr(w, "cache", "unsafe"));
		W(attr(w, "error_policy", "report"));	/* as the qemu backend */
		W(attr(w, "rerror_policy", "report"));
		W(end(w));
		W(start(w, "source"));
		W(attr_path(w, "file", c->disks->v[i]));
		W(end(w));
		W(start(w, "target"));
		W(attr(w, "dev", dev));
		W(attr(w, "bus", scsi ? "scsi" : "virtio"));
		W(end(w));
		if (scsi) {
			W(start(w, "address"));
			W(attr(w, "type", "drive"));
			W(attr(w, "controller", "0"));
			W(attr(w, "bus", "0"));
			W(attrf(w, "target", (long long)i));
			W(attr(w, "unit", "0"));
			W(end(w));
		}
		W(end(w));
	}
	return 0;
fail:
	return -1;
}

int libvirt_domain_xml(const struct vm_config *c, const char *type, const char *name,
		       const struct owner *owner, struct strbuf *out)
{
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	int r = -1;
	char *cmdline;
	int e;

	if (!w)
		goto fail;
	xmlTextWriterSetIndent(w, 1);
	xmlTextWriterSetIndentString(w, BAD_CAST "  ");
	W(start(w, "domain"));
	W(attr(w, "type", type));
	W(elem_text(w, "name", name));
	W(start(w, "metadata"));
	W(xmlTextWriterStartElementNS(w, BAD_CAST "scaletest", BAD_CAST "owner",
				      BAD_CAST LIBVIRT_OWNER_NS));
	W(attr(w, "host", owner->host));
	W(attrf(w, "pid", owner->pid));
	W(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "start", "%llu", owner->start));
	W(end(w));
	W(end(w));
	W(start(w, "memory"));
	W(attr(w, "unit", "MiB"));
	W(xmlTextWriterWriteFormatString(w, "%lld", c->memory_mb));
	W(end(w));
	W(xmlTextWriterWriteFormatElement(w, BAD_CAST "vcpu", "%lld", c->cpus));
	W(start(w, "os"));
	W(start(w, "type"));
	W(attr(w, "arch", c->arch == ARCH_I386 ? "i686" : "x86_64"));
	W(attr(w, "machine", "pc"));
	W(xmlTextWriterWriteString(w, BAD_CAST "hvm"));
	W(end(w));
	W(elem_path(w, "kernel", c->kernel));
	W(elem_path(w, "initrd", c->initrd));
	cmdline = vm_cmdline(c);
	e = elem_text(w, "cmdline", cmdline);
	free(cmdline);
	W(e);
	W(end(w));
	if (!strcmp(type, "kvm")) {
		W(start(w, "cpu"));
		W(attr(w, "mode", "host-passthrough"));
		W(end(w));
	}
	/* No ACPI: the guest ends with "reboot -f", and every way out ends
	 * the (transient) domain. */
	W(elem_text(w, "on_poweroff", "destroy"));
	W(elem_text(w, "on_reboot", "destroy"));
	W(elem_text(w, "on_crash", "destroy"));
	W(start(w, "devices"));
	/* As qemu.c's -nodefaults: no USB, no balloon, no network, no
	 * graphics, no host filesystem. */
	W(start(w, "controller"));
	W(attr(w, "type", "usb"));
	W(attr(w, "model", "none"));
	W(end(w));
	W(write_disks(w, c));
	/* The console, then the record channel: the second serial port, or
	 * a virtio-serial port (libvirt adds its controller). */
	for (int port = 0; port < (c->virtio_channel ? 1 : 2); port++) {
		W(start(w, "serial"));
		W(attr(w, "type", "pty"));
		W(start(w, "target"));
		W(attrf(w, "port", port));
		W(end(w));
		W(end(w));
	}
	if (c->virtio_channel) {
		/* virDomainOpenChannel wants a UNIX socket; libvirt picks
		 * its path under its own state directory. */
		W(start(w, "channel"));
		W(attr(w, "type", "unix"));
		W(start(w, "source"));
		W(attr(w, "mode", "bind"));
		W(end(w));
		W(start(w, "target"));
		W(attr(w, "type", "virtio"));
		W(attr(w, "name", VM_CHANNEL_NAME));
		W(end(w));
		W(end(w));
	}
	W(start(w, "memballoon"));
	W(attr(w, "model", "none"));
	W(end(w));
	W(end(w));
	if (strcmp(type, "test")) {
		/* QEMU runs as root without relabelling, as the qemu backend
		 * does: the harness's files (a cache under /root, run
		 * directories shared by concurrent runs) keep their owners. */
		W(start(w, "seclabel"));
		W(attr(w, "type", "static"));
		W(attr(w, "model", "dac"));
		W(attr(w, "relabel", "no"));
		W(elem_text(w, "label", "+0:+0"));
		W(end(w));
	}
	W(end(w));
	W(xmlTextWriterEndDocument(w));
	xmlFreeTextWriter(w);
	w = NULL;
	sb_add(out, (const char *)xmlBufferContent(buf), (size_t)xmlBufferLength(buf));
	r = 0;
fail:
	if (w)
		xmlFreeTextWriter(w);
	if (buf)
		xmlBufferFree(buf);
	if (r < 0)
		error("cannot write the domain XML");
	return r;
}

int libvirt_owner_parse(const char *xml, struct owner *o)
{
	xmlDocPtr doc = xmlReadMemory(xml, (int)strlen(xml), "owner.xml", NULL,
				      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	xmlNodePtr n = doc ? xmlDocGetRootElement(doc) : NULL;
	xmlChar *host = NULL, *pid = NULL, *st = NULL;
	int r = -1;

	memset(o, 0, sizeof(*o));
	if (n && !xmlStrcmp(n->name, BAD_CAST "owner")) {
		host = xmlGetProp(n, BAD_CAST "host");
		pid = xmlGetProp(n, BAD_CAST "pid");
		st = xmlGetProp(n, BAD_CAST "start");
	}
	if (host && pid && st) {
		snprintf(o->host, sizeof(o->host), "%s", (const char *)host);
		o->pid = strtoll((const char *)pid, NULL, 10);
		o->start = strtoull((const char *)st, NULL, 10);
		r = 0;
	}
	xmlFree(host);
	xmlFree(pid);
	xmlFree(st);
	if (doc)
		xmlFreeDoc(doc);
	return r;
}

/* ---- the event loop thread ---------------------------------------------- */

static pthread_once_t events_once = PTHREAD_ONCE_INIT;
static int events_ok;

static void *event_loop(void *arg)
{
	(void)arg;
	for (;;)
		if (virEventRunDefaultImpl() < 0)
			usleep(100000);
	return NULL;
}

static void events_start(void)
{
	pthread_t t;
	sigset_t all, old;

	virSetErrorFunc(NULL, quiet_errors);
	if (virInitialize() < 0 || virEventRegisterDefaultImpl() < 0)
		return;
	/* The thread takes no signals: the harness's handlers run in the
	 * main thread, which polls their fd. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (pthread_create(&t, NULL, event_loop, NULL) == 0) {
		pthread_detach(t);
		events_ok = 1;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static int events_init(void)
{
	pthread_once(&events_once, events_start);
	if (!events_ok)
		return error("cannot start libvirt's event loop: %s", last_error());
	return 0;
}

/* ---- connections ------------------------------------------------------- */

static const char *uri_or_default(const char *uri)
{
	return uri && *uri ? uri : LIBVIRT_DEFAULT_URI;
}

/* The fix for a connection that failed, by what libvirt said. */
static int connect_error(const char *uri)
{
	virErrorPtr e = virGetLastError();
	const char *m = last_error();
	int code = e ? e->code : 0;
	char *libvirtd;

	if (code == VIR_ERR_AUTH_FAILED || code == VIR_ERR_AUTH_CANCELLED ||
	    code == VIR_ERR_AUTH_UNAVAILABLE || code == VIR_ERR_OPERATION_DENIED ||
	    code == VIR_ERR_ACCESS_DENIED || strstr(m, "ermission denied") ||
	    strstr(m, "polkit") || strstr(m, "system bus"))
		return error_env("cannot connect to libvirt at '%s': permission denied (%s); "
				 "run as root, or add the user to the group libvirt", uri, m);
	if (libvirt_uri_is_remote(uri))
		return error_env("cannot connect to libvirt at '%s': %s; check that the host "
				 "answers ('ssh HOST true' without a password for qemu+ssh) and "
				 "runs libvirtd (README: libvirt, qemu+ssh)", uri, m);
	if (code == VIR_ERR_NO_CONNECT && strstr(m, "no connection driver"))
		return error_env("cannot connect to libvirt at '%s': %s; is the URI right "
				 "(qemu:///system)?", uri, m);
	libvirtd = find_in_path("libvirtd");
	if (!libvirtd && !path_exists("/usr/sbin/libvirtd")) {
		return error_env("cannot connect to libvirt at '%s': libvirt is not installed: "
				 "install libvirt-daemon-system (make deps-libvirt)", uri);
	}
	free(libvirtd);
	return error_env("cannot connect to libvirt at '%s': %s; is libvirtd running? "
			 "start it with 'make libvirt-start' (tests/libvirt/daemons.sh start; or "
			 "'virtlogd -d; libvirtd -d')", uri, m);
}

/* The hypervisor drivers a run can use: QEMU guests, and libvirt's test
 * driver for the unit tests.  Any other scheme is a mistyped URI, said so
 * before libvirt answers it in a way that depends on whether a daemon runs. */
static int known_driver(const char *uri)
{
	static const char *const drivers[] = { "qemu", "test" };
	size_t n = strcspn(uri, "+:");

	for (size_t i = 0; i < ARRAY_SIZE(drivers); i++)
		if (n == strlen(drivers[i]) && !strncmp(uri, drivers[i], n))
			return 1;
	return 0;
}

static virConnectPtr lv_open(const char *uri)
{
	virConnectPtr conn;

	if (!known_driver(uri)) {
		error_env("cannot connect to libvirt at '%s': not a QEMU connection; "
			  "is the URI right (qemu:///system, qemu+ssh://HOST/system)?", uri);
		return NULL;
	}
	if (events_init() < 0)
		return NULL;
	conn = virConnectOpen(uri);
	if (!conn)
		connect_error(uri);
	return conn;
}

static char hv_version[32] = "unknown";

int libvirt_connect_check(const char *uri)
{
	virConnectPtr conn;
	unsigned long v = 0;

	uri = uri_or_default(uri);
	conn = lv_open(uri);
	if (!conn)
		return -1;
	if (virConnectGetVersion(conn, &v) < 0) {
		error_env("libvirt at '%s' does not say its hypervisor's version: %s", uri,
			  last_error());
		virConnectClose(conn);
		return -1;
	}
	libvirt_version_string(v, hv_version, sizeof(hv_version));
	virConnectClose(conn);
	return 0;
}

#define POOL_NAME "scaletest"
#define POOL_DIR "/var/lib/libvirt/images/scaletest"

/* Volume names: DOMAIN+HOST+PID+START.WHAT, the owner in the name since a
 * volume has no metadata.  Parses one back; -1 if it is not ours. */
static int volume_owner(const char *vname, char *dom, size_t n, struct owner *o)
{
	const char *p1 = strchr(vname, '+'), *p2, *dot;
	struct strbuf line = STRBUF_INIT;
	int r;

	if (strncmp(vname, LIBVIRT_PREFIX, strlen(LIBVIRT_PREFIX)) || !p1 ||
	    (size_t)(p1 - vname) >= n || !(p2 = strchr(p1 + 1, '+')) ||
	    !(dot = strchr(p2 + 1, '.')))
		return -1;
	memcpy(dom, vname, (size_t)(p1 - vname));
	dom[p1 - vname] = '\0';
	/* "HOST+PID+START" -> "HOST PID START" */
	sb_add(&line, p1 + 1, (size_t)(dot - p1 - 1));
	for (size_t i = 0; i < line.len; i++)
		if (line.buf[i] == '+')
			line.buf[i] = ' ';
	r = owner_parse(line.buf, o);
	sb_release(&line);
	return r;
}

/* Deletes the volumes of this host's dead harnesses whose domain is gone
 * (a harness killed during or after an upload; AUTODESTROY covers only
 * the domain).  Returns how many. */
static int sweep_volumes(virConnectPtr conn)
{
	virStoragePoolPtr pool = virStoragePoolLookupByName(conn, POOL_NAME);
	virStorageVolPtr *vols = NULL;
	int n, deleted = 0;

	if (!pool)
		return 0;
	if (virStoragePoolIsActive(pool) != 1) {
		virStoragePoolFree(pool);
		return 0;
	}
	virStoragePoolRefresh(pool, 0);
	n = virStoragePoolListAllVolumes(pool, &vols, 0);
	for (int i = 0; i < n; i++) {
		const char *vname = virStorageVolGetName(vols[i]);
		char dom[256];
		struct owner o;
		virDomainPtr d;

		if (vname && volume_owner(vname, dom, sizeof(dom), &o) == 0 &&
		    owner_alive(&o) == 0) {
			d = virDomainLookupByName(conn, dom);
			if (!d || virDomainIsActive(d) != 1) {
				if (virStorageVolDelete(vols[i], 0) == 0) {
					note("deleted the leftover volume '%s' of a harness that is gone "
					     "(pid %lld)", vname, o.pid);
					deleted++;
				} else {
					warning("cannot delete the leftover volume '%s': %s", vname,
						last_error());
				}
			}
			if (d)
				virDomainFree(d);
		}
		virStorageVolFree(vols[i]);
	}
	free(vols);
	virStoragePoolFree(pool);
	return deleted;
}

static int sweep(virConnectPtr conn)
{
	virDomainPtr *doms = NULL;
	int n = virConnectListAllDomains(conn, &doms, VIR_CONNECT_LIST_DOMAINS_ACTIVE);
	int destroyed = 0;

	if (n < 0)
		return error("cannot list libvirt's domains: %s", last_error());
	for (int i = 0; i < n; i++) {
		const char *name = virDomainGetName(doms[i]);
		struct owner o;
		char *meta = NULL;

		if (name && !strncmp(name, LIBVIRT_PREFIX, strlen(LIBVIRT_PREFIX)) &&
		    (meta = virDomainGetMetadata(doms[i], VIR_DOMAIN_METADATA_ELEMENT,
						 LIBVIRT_OWNER_NS, 0)) &&
		    libvirt_owner_parse(meta, &o) == 0 && owner_alive(&o) == 0) {
			if (virDomainDestroy(doms[i]) == 0) {
				note("destroyed the leftover domain '%s' of a harness that is gone (pid %lld)",
				     name, o.pid);
				destroyed++;
			}
		}
		free(meta);
		virDomainFree(doms[i]);
	}
	free(doms);
	/* After the domains: a volume is left only once its domain is gone. */
	return destroyed + sweep_volumes(conn);
}

int libvirt_sweep(const char *uri)
{
	virConnectPtr conn = lv_open(uri_or_default(uri));
	int n;

	if (!conn)
		return -1;
	n = sweep(conn);
	virConnectClose(conn);
	return n;
}

/* ---- a running VM ------------------------------------------------------ */

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
 * Fault injection for the harness's own tests (README "Fault injection"),
 * from the environment: SCALETEST_FAULT=
 *	libvirt-stall:S		start() returns only once the domain has ended
 *				and S seconds more have passed, the socketpairs
 *				as small as the kernel allows: the watch loop
 *				reads nothing while the guest runs (a libvirt
 *				call that took a minute while the guest ran)
 */
enum lv_fault { LV_FAULT_NONE, LV_FAULT_STALL };

static const struct {
	const char *name;
	enum lv_fault kind;
} lv_faults[] = {
	{ "libvirt-stall", LV_FAULT_STALL },
};

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

/* SCALETEST_FAULT's libvirt faults; other values are other layers'. */
static int fault_parse(struct lv *lv)
{
	const char *e = getenv("SCALETEST_FAULT");

	if (!e || !*e)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(lv_faults); i++) {
		size_t n = strlen(lv_faults[i].name);
		char *end;

		if (strncmp(e, lv_faults[i].name, n) || e[n] != ':')
			continue;
		errno = 0;
		lv->fault_s = strtol(e + n + 1, &end, 10);
		if (errno || end == e + n + 1 || *end || lv->fault_s < 0 || lv->fault_s > 3600)
			return error("SCALETEST_FAULT '%s': the seconds after '%s:' must be "
				     "0 to 3600", e, lv_faults[i].name);
		lv->fault = lv_faults[i].kind;
		return 0;
	}
	return 0;
}

static void lv_unref(struct lv *lv)
{
	int left;

	pthread_mutex_lock(&lv->mu);
	left = --lv->refs;
	pthread_mutex_unlock(&lv->mu);
	if (left)
		return;
	pthread_mutex_destroy(&lv->mu);
	pthread_cond_destroy(&lv->cv);
	for (int i = 0; i < 2; i++)
		sb_release(&lv->pumps[i].q);
	free(lv->uri);
	free(lv->name);
	free(lv->volbase);
	free(lv);
}

static void pump_unref(void *opaque)
{
	lv_unref(((struct pump *)opaque)->lv);
}

static void close_unref(void *opaque)
{
	lv_unref(opaque);
}

/* The rest of this section runs with lv->mu held. */

/* Done with the stream: at its EOF (finished), given up (aborted), or on
 * a connection that is gone (nothing more asked of libvirt). */
static void pump_end(struct pump *p, enum pump_end how)
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

static void pump_close(struct pump *p)
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

static void pump_events(struct pump *p, int on)
{
	if (!p->watching || p->ended || p->paused == !on)
		return;
	virStreamEventUpdateCallback(p->st, on ? PUMP_EVENTS : 0);
	p->paused = !on;
}

static void on_writable(int watch, int fd, int events, void *opaque);

/* Sends what the queue holds, as far as the socket takes it. */
static void pump_flush(struct pump *p)
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

static void on_close(virConnectPtr conn, int reason, void *opaque)
{
	struct lv *lv = opaque;

	(void)conn;
	pthread_mutex_lock(&lv->mu);
	lv->lost = reason == VIR_CONNECT_CLOSE_REASON_CLIENT ? 0 : reason + 100;
	/* The streams may never hear of it: end both here; the watch loop
	 * gets what they delivered, then EOF. */
	for (int i = 0; lv->lost && i < 2; i++) {
		pump_end(&lv->pumps[i], END_DROP);
		pump_flush(&lv->pumps[i]);
	}
	pthread_cond_broadcast(&lv->cv);
	pthread_mutex_unlock(&lv->mu);
}

static const char *close_reason(int lost)
{
	switch (lost - 100) {
	case VIR_CONNECT_CLOSE_REASON_ERROR:
		return "a socket error";
	case VIR_CONNECT_CLOSE_REASON_EOF:
		return "the other side closed it";
	case VIR_CONNECT_CLOSE_REASON_KEEPALIVE:
		return "no keepalive answer";
	default:
		return "closed";
	}
}

/* dev: a console ("serial0") or, with channel, a channel's name. */
static int pump_open(struct lv *lv, struct pump *p, const char *dev, int channel,
		     int *harness_fd)
{
	int sv[2];

	p->st = virStreamNew(lv->conn, VIR_STREAM_NONBLOCK);
	if (!p->st)
		return error("cannot make a libvirt stream: %s", last_error());
	if ((channel ? virDomainOpenChannel(lv->dom, dev, p->st, VIR_DOMAIN_CHANNEL_FORCE)
		     : virDomainOpenConsole(lv->dom, dev, p->st, VIR_DOMAIN_CONSOLE_FORCE)) < 0)
		return error("cannot open the domain's %s: %s", dev, last_error());
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
		return error("cannot watch the domain's %s: %s", dev, last_error());
	}
	p->watching = 1;
	pthread_mutex_unlock(&lv->mu);
	*harness_fd = sv[0];
	return 0;
}

/* ---- storage: files for a remote host ---------------------------------- */


static int pool_open(struct lv *lv)
{
	struct strbuf x = STRBUF_INIT;

	lv->pool = virStoragePoolLookupByName(lv->conn, POOL_NAME);
	if (lv->pool) {
		if (!virStoragePoolIsActive(lv->pool) && virStoragePoolCreate(lv->pool, 0) < 0)
			return error("cannot start the storage pool '%s': %s", POOL_NAME, last_error());
		return 0;
	}
	sb_addf(&x, "<pool type='dir'><name>%s</name><target><path>%s</path></target></pool>",
		POOL_NAME, POOL_DIR);
	lv->pool = virStoragePoolCreateXML(lv->conn, x.buf, VIR_STORAGE_POOL_CREATE_WITH_BUILD);
	sb_release(&x);
	if (!lv->pool)
		return error("cannot create the storage pool '%s' at '%s': %s", POOL_NAME,
			     POOL_DIR, last_error());
	return 0;
}

static int send_file(virStreamPtr st, char *data, size_t n, void *opaque)
{
	ssize_t r = read(*(int *)opaque, data, n);

	(void)st;
	return r < 0 ? -1 : (int)r;
}

/* A volume of the file's size named NAME.what; uploads the file unless
 * empty is set (a new sparse disk).  *path: the volume's path there. */
static int volume_make(struct lv *lv, const char *file, const char *what, int empty,
		       char **path)
{
	struct stat st;
	xmlBufferPtr buf = NULL;
	xmlTextWriterPtr w = NULL;
	virStorageVolPtr vol = NULL;
	virStreamPtr s = NULL;
	char *vname = xstrfmt("%s.%s", lv->volbase, what);
	int fd = -1, r = -1;

	if (stat(file, &st) < 0) {
		error_errno("cannot stat '%s'", file);
		goto out;
	}
	buf = xmlBufferCreate();
	w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	if (!w)
		goto xml_fail;
	W(start(w, "volume"));
	W(elem_text(w, "name", vname));
	W(start(w, "capacity"));
	W(attr(w, "unit", "bytes"));
	W(xmlTextWriterWriteFormatString(w, "%lld", (long long)st.st_size));
	W(end(w));
	W(start(w, "allocation"));
	W(xmlTextWriterWriteString(w, BAD_CAST "0"));
	W(end(w));
	W(start(w, "target"));
	W(start(w, "format"));
	W(attr(w, "type", "raw"));
	W(end(w));
	W(end(w));
	W(end(w));
	W(xmlTextWriterEndDocument(w));
	xmlFreeTextWriter(w);
	w = NULL;
	vol = virStorageVolCreateXML(lv->pool, (const char *)xmlBufferContent(buf), 0);
	if (!vol) {
		error("cannot create the volume '%s': %s", vname, last_error());
		goto out;
	}
	strvec_push(&lv->vols, vname);
	if (!empty) {
		fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			error_errno("cannot open '%s'", file);
			goto out;
		}
		s = virStreamNew(lv->conn, 0);
		if (!s || virStorageVolUpload(vol, s, 0, (unsigned long long)st.st_size, 0) < 0 ||
		    virStreamSendAll(s, send_file, &fd) < 0 || virStreamFinish(s) < 0) {
			error("cannot upload '%s' to the volume '%s': %s", file, vname, last_error());
			if (s)
				virStreamAbort(s);
			goto out;
		}
	}
	*path = virStorageVolGetPath(vol);
	if (!*path) {
		error("cannot find the path of the volume '%s': %s", vname, last_error());
		goto out;
	}
	r = 0;
	goto out;
fail:
xml_fail:
	error("cannot write the volume XML");
out:
	if (w)
		xmlFreeTextWriter(w);
	if (buf)
		xmlBufferFree(buf);
	if (s)
		virStreamFree(s);
	if (vol)
		virStorageVolFree(vol);
	if (fd >= 0)
		close(fd);
	free(vname);
	return r;
}

static void volumes_delete(struct lv *lv)
{
	for (size_t i = 0; lv->pool && i < lv->vols.n; i++) {
		virStorageVolPtr v = virStorageVolLookupByName(lv->pool, lv->vols.v[i]);

		if (!v || virStorageVolDelete(v, 0) < 0)
			warning("cannot delete the volume '%s' from the pool '%s': %s",
				lv->vols.v[i], POOL_NAME, last_error());
		if (v)
			virStorageVolFree(v);
	}
	strvec_clear(&lv->vols);
}

/* The files of c on the libvirt host: uploaded (remote) or as they are. */
static int stage_files(struct lv *lv, const struct vm_config *c, struct vm_config *there,
		       struct strvec *disks, char **kernel, char **initrd)
{
	*there = *c;
	if (!c->upload && !libvirt_uri_is_remote(lv->uri))
		return 0;
	if (pool_open(lv) < 0 ||
	    volume_make(lv, c->kernel, "kernel", 0, kernel) < 0 ||
	    volume_make(lv, c->initrd, "initrd", 0, initrd) < 0)
		return -1;
	there->kernel = *kernel;
	there->initrd = *initrd;
	for (size_t i = 0; c->disks && i < c->disks->n; i++) {
		char what[32], *p = NULL;

		snprintf(what, sizeof(what), "disk%zu", i);
		if (volume_make(lv, c->disks->v[i], what, 1, &p) < 0)
			return -1;
		strvec_push(disks, p);
		free(p);
	}
	there->disks = disks;
	note("uploaded the kernel and initramfs to the pool '%s' at '%s'", POOL_NAME, lv->uri);
	return 0;
}

/* ---- the backend ------------------------------------------------------- */

static void lv_free(struct lv *lv)
{
	for (int i = 0; i < 2; i++)
		if (lv->pumps[i].st) {
			virStreamFree(lv->pumps[i].st);
			lv->pumps[i].st = NULL;
		}
	volumes_delete(lv);
	if (lv->pool)
		virStoragePoolFree(lv->pool);
	if (lv->dom)
		virDomainFree(lv->dom);
	if (lv->conn) {
		if (lv->close_cb)
			virConnectUnregisterCloseCallback(lv->conn, on_close);
		virConnectClose(lv->conn);
	}
	lv_unref(lv);
}

static int lv_check(int arch, const char *uri)
{
	(void)arch;
	return libvirt_connect_check(uri);
}

static const char *lv_version(int arch)
{
	(void)arch;
	return hv_version;
}

static char *domain_name(const char *id)
{
	unsigned char r[4] = { 0 };

	if (getrandom(r, sizeof(r), 0) != sizeof(r)) {
		unsigned long long t = (unsigned long long)time(NULL) ^ (unsigned long long)getpid();
		memcpy(r, &t, sizeof(r));
	}
	return xstrfmt(LIBVIRT_PREFIX "%s-%02x%02x%02x%02x", id && *id ? id : "vm",
		       r[0], r[1], r[2], r[3]);
}

/* NAME+HOST+PID+START: a volume carries its owner in its name. */
static char *volume_base(const char *name, const struct owner *me)
{
	/* owner_self() made the host name safe for a file name */
	return xstrfmt("%s+%s+%lld+%llu", name, me->host, me->pid, me->start);
}

static void record_facts(struct strvec *facts, struct lv *lv)
{
	unsigned long v = 0;
	char buf[32], *s;
	const char *type;

	s = virConnectGetURI(lv->conn);
	strvec_pushf(facts, "uri=%s", s ? s : lv->uri);
	free(s);
	s = virConnectGetHostname(lv->conn);
	if (s)
		strvec_pushf(facts, "host=%s", s);
	free(s);
	if (virConnectGetLibVersion(lv->conn, &v) == 0) {
		libvirt_version_string(v, buf, sizeof(buf));
		strvec_pushf(facts, "libvirt_version=%s", buf);
	}
	type = virConnectGetType(lv->conn);
	if (type)
		strvec_pushf(facts, "hypervisor=%s", type);
	if (virConnectGetVersion(lv->conn, &v) == 0) {
		libvirt_version_string(v, buf, sizeof(buf));
		strvec_pushf(facts, "hypervisor_version=%s", buf);
	}
	strvec_pushf(facts, "domain=%s", lv->name);
}

static int kill_local_qemu(const char *name);
static void fault_stall(struct lv *lv);

/* libvirt checks /dev/kvm as its QEMU user (libvirt-qemu, group kvm on
 * Debian).  Where nothing gave the device to that group (no udev: 0600
 * root:root) but libvirt's probe found KVM, it takes its cached QEMU
 * capabilities for stale and probes QEMU again on every call: a domain
 * start takes about a minute instead of a fraction of a second (measured
 * here: 64 s against 0.3 s).  Say so when a local start was that slow. */
static void kvm_hint(double took)
{
	struct stat st;

	if (took < 10 || stat("/dev/kvm", &st) < 0 || !S_ISCHR(st.st_mode) ||
	    (st.st_mode & 0060) == 0060)
		return;
	warning("libvirt took %.0f s to start the domain; /dev/kvm is mode %03o, "
		"closed to libvirt's QEMU user, so libvirt probes QEMU again on every call: "
		"'chgrp kvm /dev/kvm; chmod 0660 /dev/kvm' (what udev does)",
		took, (unsigned)(st.st_mode & 0777));
}

static int lv_start(struct vm *vm, const struct vm_config *c)
{
	struct lv *lv = xcalloc(1, sizeof(*lv));
	struct owner me;
	struct strbuf xml = STRBUF_INIT;
	struct strvec disks = STRVEC_INIT;
	struct vm_config there;
	struct strvec facts = STRVEC_INIT, argv = STRVEC_INIT;
	char *kernel = NULL, *initrd = NULL, *native;
	int con = -1, rec = -1, logfd;
	int created = 0;
	double t0;

	pthread_mutex_init(&lv->mu, NULL);
	lv->refs = 1;
	pthread_cond_init(&lv->cv, NULL);
	strvec_init(&lv->vols);
	for (int i = 0; i < 2; i++) {
		lv->pumps[i].lv = lv;	/* pump_close needs it even if never opened */
		lv->pumps[i].what = i ? "record channel" : "console";
		lv->pumps[i].fd = -1;
		lv->pumps[i].wh = -1;
		sb_init(&lv->pumps[i].q);
	}
	if (fault_parse(lv) < 0)
		goto fail;
	lv->uri = xstrdup(uri_or_default(c->uri));
	lv->name = domain_name(c->name);
	owner_self(&me);
	lv->volbase = volume_base(lv->name, &me);
	lv->conn = lv_open(lv->uri);
	if (!lv->conn)
		goto fail;
	lv->refs++;
	if (virConnectRegisterCloseCallback(lv->conn, on_close, lv, close_unref) == 0)
		lv->close_cb = 1;
	else
		lv->refs--;
	/* Notice a dead libvirtd within about 20 s, even if it sends nothing. */
	virConnectSetKeepAlive(lv->conn, 5, 3);
	sweep(lv->conn);
	if (stage_files(lv, c, &there, &disks, &kernel, &initrd) < 0)
		goto fail;
	if (libvirt_domain_xml(&there, !strcmp(c->accel, "kvm") ? "kvm" : "qemu",
			       lv->name, &me, &xml) < 0)
		goto fail;
	if (c->domain_xml && write_file(c->domain_xml, xml.buf, xml.len) < 0)
		goto fail;
	/* What libvirt says of itself, asked before the domain exists: a call
	 * that takes a minute (see kvm_hint) then delays the start, not a
	 * running guest's deadlines. */
	record_facts(&facts, lv);
	native = virConnectDomainXMLToNative(lv->conn, "qemu-argv", xml.buf, 0);
	strvec_pushf(&argv, "# libvirt domain '%s' at '%s' (see domain.xml); "
		     "QEMU's own log is /var/log/libvirt/qemu/%s.log there", lv->name,
		     lv->uri, lv->name);
	if (native)
		strvec_push(&argv, native);
	free(native);
	created = 1;
	t0 = now_monotonic();
	lv->dom = virDomainCreateXML(lv->conn, xml.buf,
				     VIR_DOMAIN_START_PAUSED | VIR_DOMAIN_START_AUTODESTROY);
	if (!libvirt_uri_is_remote(lv->uri))
		kvm_hint(now_monotonic() - t0);
	if (!lv->dom) {
		error("libvirt at '%s' cannot start the domain '%s': %s", lv->uri, lv->name,
		      last_error());
		goto fail;
	}
	/* Paused: both streams are attached before the guest's first byte. */
	if (pump_open(lv, &lv->pumps[0], "serial0", 0, &con) < 0 ||
	    pump_open(lv, &lv->pumps[1], c->virtio_channel ? VM_CHANNEL_NAME : "serial1",
		      c->virtio_channel, &rec) < 0)
		goto fail;
	if (virDomainResume(lv->dom) < 0) {
		error("libvirt cannot resume the domain '%s': %s", lv->name, last_error());
		goto fail;
	}
	vm->backend = &vm_backend_libvirt;
	vm->priv = lv;
	vm->console_fd = con;
	vm->channel_fd = rec;
	for (size_t i = 0; i < facts.n; i++)
		strvec_push(&vm->facts, facts.v[i]);
	for (size_t i = 0; i < argv.n; i++)
		strvec_push(&vm->argv, argv.v[i]);
	logfd = open(c->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (logfd >= 0) {
		char *line = xstrfmt("libvirt: domain '%s' at '%s'; QEMU's stderr is in "
				     "/var/log/libvirt/qemu/%s.log on that host\n",
				     lv->name, lv->uri, lv->name);
		(void)write_all(logfd, line, strlen(line));
		free(line);
		close(logfd);
	}
	if (lv->fault == LV_FAULT_STALL)
		fault_stall(lv);
	sb_release(&xml);
	strvec_clear(&disks);
	strvec_clear(&facts);
	strvec_clear(&argv);
	free(kernel);
	free(initrd);
	return 0;
fail:
	if (con >= 0)
		close(con);
	if (rec >= 0)
		close(rec);
	if (lv->dom)
		virDomainDestroy(lv->dom);
	/* A libvirtd that died while it started the domain leaves its QEMU
	 * behind (AUTODESTROY died with it): on a local host, find it by its
	 * exact name.  It may still be between fork and exec: look a while. */
	if (created && !virConnectIsAlive(lv->conn) && !libvirt_uri_is_remote(lv->uri))
		for (int i = 0; i < 20 && !kill_local_qemu(lv->name); i++)
			nanosleep(&(struct timespec){ 0, 100 * 1000 * 1000 }, NULL);
	pthread_mutex_lock(&lv->mu);
	for (int i = 0; i < 2; i++) {
		pump_end(&lv->pumps[i], virConnectIsAlive(lv->conn) == 1 ? END_ABORT : END_DROP);
		pump_close(&lv->pumps[i]);
	}
	pthread_mutex_unlock(&lv->mu);
	lv_free(lv);
	sb_release(&xml);
	strvec_clear(&disks);
	strvec_clear(&facts);
	strvec_clear(&argv);
	free(kernel);
	free(initrd);
	return -1;
}

/* 1 if the domain is gone or stopped, 0 if it runs, -1 if libvirt cannot say. */
static int domain_ended(struct lv *lv)
{
	int a = virDomainIsActive(lv->dom);
	virErrorPtr e;

	if (a == 1)
		return 0;
	if (a == 0)
		return 1;
	e = virGetLastError();
	return e && e->code == VIR_ERR_NO_DOMAIN ? 1 : -1;
}

static int lv_poll_exit(struct vm *vm, struct child_result *res)
{
	struct lv *lv = vm->priv;

	if (!lv || domain_ended(lv) != 0) {
		res->outcome = CHILD_EXITED;
		res->status = 0;
		res->seconds = 0;
		return 1;
	}
	return 0;
}

/*
 * libvirtd gone under a running domain: its QEMU lives on, and a libvirtd
 * started again may not take it back.  On a local host the harness ends
 * it itself: the QEMU whose -name is exactly this domain's (the random
 * suffix makes it ours and only ours).  1 if one was killed.
 */
static int kill_local_qemu(const char *name)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	char *want = xstrfmt("guest=%s,", name);
	int killed = 0;

	while (d && (de = readdir(d))) {
		struct strbuf cmd = STRBUF_INIT;
		char *path;
		long pid = strtol(de->d_name, NULL, 10);

		if (pid <= 0)
			continue;
		path = xstrfmt("/proc/%ld/cmdline", pid);
		if (sb_read_file(&cmd, path) == 0) {
			for (size_t i = 0; i + 1 < cmd.len; i += strlen(cmd.buf + i) + 1)
				if (!strcmp(cmd.buf + i, "-name") &&
				    !strncmp(cmd.buf + i + 6, want, strlen(want)) &&
				    kill((pid_t)pid, SIGKILL) == 0) {
					killed = 1;
					break;
				}
		}
		free(path);
		sb_release(&cmd);
	}
	if (d)
		closedir(d);
	free(want);
	return killed;
}

static void nap(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* LV_FAULT_STALL: the watch loop reads nothing until the domain has ended
 * and fault_s seconds more have passed. */
static void fault_stall(struct lv *lv)
{
	note("fault: reading nothing until the domain has ended, then %ld s more", lv->fault_s);
	while (domain_ended(lv) == 0 && !child_interrupted())
		nap(0.2);
	nap((double)lv->fault_s);
}

static void lv_stop(struct vm *vm, double grace, struct child_result *res)
{
	struct lv *lv = vm->priv;
	struct timespec until;
	int ended, cut = 0;

	(void)grace;	/* libvirt ends the domain at once: nothing to wait for */
	memset(res, 0, sizeof(*res));
	res->outcome = CHILD_EXITED;
	if (!lv)
		return;
	ended = lv->lost ? -1 : domain_ended(lv);
	if (ended == 0) {
		/* No ACPI in the guest: nothing to ask politely. */
		virDomainDestroy(lv->dom);
		res->outcome = child_interrupted() ? CHILD_INTERRUPTED : CHILD_SIGNALLED;
		res->status = 9;
	}
	/*
	 * The domain has ended: each stream delivers what it still holds, then
	 * its EOF.  Wait for both ends however long a slow libvirt takes, while
	 * the connection lives (its keepalive notices a dead libvirtd in
	 * ~20 s); the queues take everything now, and the watch loop reads
	 * them after this returns.
	 */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += STREAM_END_S;
	pthread_mutex_lock(&lv->mu);
	lv->stopping = 1;
	for (int i = 0; i < 2; i++)
		pump_events(&lv->pumps[i], 1);
	while ((!lv->pumps[0].ended || !lv->pumps[1].ended) && !lv->lost &&
	       pthread_cond_timedwait(&lv->cv, &lv->mu, &until) == 0)
		;
	for (int i = 0; i < 2; i++) {
		struct pump *p = &lv->pumps[i];

		if (!p->ended && !lv->lost) {
			free(vm->fault);
			vm->fault = xstrfmt("libvirt's %s stream did not end within %d s of the "
					    "domain's end; what it still held is lost", p->what,
					    STREAM_END_S);
			cut = 1;
		}
		pump_end(p, lv->lost ? END_DROP : END_ABORT);
		pump_flush(p);	/* closes our end once the queue is sent */
	}
	pthread_mutex_unlock(&lv->mu);
	if (!lv->lost && !virConnectIsAlive(lv->conn))
		lv->lost = 100 + VIR_CONNECT_CLOSE_REASON_EOF;
	if (lv->lost || ended < 0) {
		int killed = !libvirt_uri_is_remote(lv->uri) && kill_local_qemu(lv->name);

		free(vm->fault);
		vm->fault = xstrfmt("lost the connection to libvirt at '%s' (%s) while the "
				    "guest ran; %s", lv->uri,
				    lv->lost ? close_reason(lv->lost) : last_error(),
				    killed ? "its QEMU was killed here" :
				    "the domain may still run there (a later run from this "
				    "host destroys it once libvirtd is back)");
		strvec_push(&vm->facts, "connection_lost=true");
		res->outcome = CHILD_SIGNALLED;
		res->status = 9;
	} else if (cut) {
		res->outcome = CHILD_SIGNALLED;
		res->status = 9;
	}
	vm->priv = NULL;
	lv_free(lv);
}

#else	/* !HAVE_LIBVIRT */

const int libvirt_built = 0;

static int lv_check(int arch, const char *uri)
{
	(void)arch;
	(void)uri;
	return error_env("this scaletest was built without libvirt: install libvirt-dev "
			 "and libxml2-dev (make deps-libvirt), then rebuild");
}

static const char *lv_version(int arch)
{
	(void)arch;
	return "unknown";
}

static int lv_start(struct vm *vm, const struct vm_config *c)
{
	(void)vm;
	(void)c;
	return lv_check(0, NULL);
}

static int lv_poll_exit(struct vm *vm, struct child_result *res)
{
	(void)vm;
	memset(res, 0, sizeof(*res));
	return 1;
}

static void lv_stop(struct vm *vm, double grace, struct child_result *res)
{
	(void)vm;
	(void)grace;
	memset(res, 0, sizeof(*res));
}

int libvirt_connect_check(const char *uri)
{
	return lv_check(0, uri);
}

int libvirt_sweep(const char *uri)
{
	return lv_check(0, uri);
}

int libvirt_domain_xml(const struct vm_config *c, const char *type, const char *name,
		       const struct owner *owner, struct strbuf *out)
{
	(void)c;
	(void)type;
	(void)name;
	(void)owner;
	(void)out;
	return lv_check(0, NULL);
}

int libvirt_owner_parse(const char *xml, struct owner *o)
{
	(void)xml;
	memset(o, 0, sizeof(*o));
	return -1;
}

#endif

/* The domain start() would create; the name's random part as XXXXXXXX. */
static int lv_describe(const struct vm_config *c, struct strbuf *out)
{
	struct owner me;
	char *name = xstrfmt(LIBVIRT_PREFIX "%s-XXXXXXXX", c->name && *c->name ? c->name : "vm");
	int r;

	owner_self(&me);
	r = libvirt_domain_xml(c, !strcmp(c->accel, "kvm") ? "kvm" : "qemu", name, &me, out);
	free(name);
	return r;
}

const struct vm_backend vm_backend_libvirt = {
	.name = "libvirt",
	.check = lv_check,
	.version = lv_version,
	.start = lv_start,
	.poll_exit = lv_poll_exit,
	.stop = lv_stop,
	.describe = lv_describe,
};
