// SPDX-License-Identifier: Apache-2.0
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
#include "scenario/scenario.h"

#ifdef HAVE_LIBVIRT

/* SCALETEST_FAULT's libvirt faults (libvirt_int.h); other values are
 * other layers'. */
static const struct {
	const char *name;
	enum lv_fault kind;
} lv_faults[] = {
	{ "libvirt-stall", LV_FAULT_STALL },
};

static int lv_fault_parse(struct lv *lv)
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

static void lv_close_unref(void *opaque)
{
	lv_unref(opaque);
}

static void lv_on_close(virConnectPtr conn, int reason, void *opaque)
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

static const char *lv_close_reason(int lost)
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
/* ---- the backend ------------------------------------------------------- */

static void lv_free(struct lv *lv)
{
	for (int i = 0; i < 2; i++)
		if (lv->pumps[i].st) {
			virStreamFree(lv->pumps[i].st);
			lv->pumps[i].st = NULL;
		}
	lv_volumes_delete(lv);
	if (lv->pool)
		virStoragePoolFree(lv->pool);
	if (lv->dom)
		virDomainFree(lv->dom);
	if (lv->conn) {
		if (lv->close_cb)
			virConnectUnregisterCloseCallback(lv->conn, lv_on_close);
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
	return lv_hv_version;
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
	int ret = -1, r;
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
	if (lv_fault_parse(lv) < 0)
		goto fail;
	lv->uri = xstrdup(lv_uri_or_default(c->uri));
	lv->name = domain_name(c->name);
	owner_self(&me);
	lv->volbase = volume_base(lv->name, &me);
	if ((r = lv_open(lv->uri, &lv->conn)) < 0) {
		ret = r;
		goto fail;
	}
	lv->refs++;
	if (virConnectRegisterCloseCallback(lv->conn, lv_on_close, lv, lv_close_unref) == 0)
		lv->close_cb = 1;
	else
		lv->refs--;
	/* Notice a dead libvirtd within about 20 s, even if it sends nothing. */
	virConnectSetKeepAlive(lv->conn, 5, 3);
	lv_sweep_all(lv->conn);
	if (lv_stage_files(lv, c, &there, &disks, &kernel, &initrd) < 0)
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
		      lv_last_error());
		goto fail;
	}
	/* Paused: both streams are attached before the guest's first byte. */
	if (pump_open(lv, &lv->pumps[0], "serial0", 0, &con) < 0 ||
	    pump_open(lv, &lv->pumps[1], c->virtio_channel ? VM_CHANNEL_NAME : "serial1",
		      c->virtio_channel, &rec) < 0)
		goto fail;
	if (virDomainResume(lv->dom) < 0) {
		error("libvirt cannot resume the domain '%s': %s", lv->name, lv_last_error());
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
	ret = 0;
	goto out;
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
out:
	sb_release(&xml);
	strvec_clear(&disks);
	strvec_clear(&facts);
	strvec_clear(&argv);
	free(kernel);
	free(initrd);
	return ret;
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
				    lv->lost ? lv_close_reason(lv->lost) : lv_last_error(),
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

static int lv_check(int arch, const char *uri)
{
	(void)arch;
	(void)uri;
	return error_env(LIBVIRT_NOT_BUILT);
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
