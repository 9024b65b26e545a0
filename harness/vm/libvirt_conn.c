// SPDX-License-Identifier: Apache-2.0
/*
 * The libvirt backend's connections (libvirt_conn.h): libvirt's event
 * loop in a thread of its own, opening a connection with an error that
 * names the fix, the connection check, the sweep of leftover domains and
 * volumes (scaletest gc), and the last reference to a struct lv (the
 * event loop's callbacks hold some).
 */
#include "vm/libvirt_conn.h"
#include "vm/libvirt_int.h"
#include "vm/libvirt_xml.h"

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

void lv_unref(struct lv *lv)
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

const char *lv_last_error(void)
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

static int lv_events_init(void)
{
	pthread_once(&events_once, events_start);
	if (!events_ok)
		return error("cannot start libvirt's event loop: %s", lv_last_error());
	return 0;
}

/* ---- connections ------------------------------------------------------- */

const char *lv_uri_or_default(const char *uri)
{
	return uri && *uri ? uri : LIBVIRT_DEFAULT_URI;
}

/* The fix for a connection that failed, by what libvirt said. */
static int connect_error(const char *uri)
{
	virErrorPtr e = virGetLastError();
	const char *m = lv_last_error();
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
				 "runs libvirtd (docs/libvirt.md: qemu+ssh)", uri, m);
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

int lv_open(const char *uri, virConnectPtr *conn)
{
	*conn = NULL;
	if (!known_driver(uri))
		return error_env("cannot connect to libvirt at '%s': not a QEMU connection; "
				 "is the URI right (qemu:///system, qemu+ssh://HOST/system)?", uri);
	if (lv_events_init() < 0)
		return -1;
	*conn = virConnectOpen(uri);
	return *conn ? 0 : connect_error(uri);
}

char lv_hv_version[32] = "unknown";

int libvirt_connect_check(const char *uri)
{
	virConnectPtr conn;
	unsigned long v = 0;
	int r;

	uri = lv_uri_or_default(uri);
	if ((r = lv_open(uri, &conn)) < 0)
		return r;
	if (virConnectGetVersion(conn, &v) < 0) {
		r = error_env("libvirt at '%s' does not say its hypervisor's version: %s", uri,
			      lv_last_error());
		virConnectClose(conn);
		return r;
	}
	libvirt_version_string(v, lv_hv_version, sizeof(lv_hv_version));
	virConnectClose(conn);
	return 0;
}


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
						lv_last_error());
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

int lv_sweep_all(virConnectPtr conn)
{
	virDomainPtr *doms = NULL;
	int n = virConnectListAllDomains(conn, &doms, VIR_CONNECT_LIST_DOMAINS_ACTIVE);
	int destroyed = 0;

	if (n < 0)
		return error("cannot list libvirt's domains: %s", lv_last_error());
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
	virConnectPtr conn;
	int n;

	if ((n = lv_open(lv_uri_or_default(uri), &conn)) < 0)
		return n;
	n = lv_sweep_all(conn);
	virConnectClose(conn);
	return n;
}

#else	/* !HAVE_LIBVIRT */

int libvirt_connect_check(const char *uri)
{
	(void)uri;
	return error_env(LIBVIRT_NOT_BUILT);
}

int libvirt_sweep(const char *uri)
{
	(void)uri;
	return error_env(LIBVIRT_NOT_BUILT);
}

#endif
