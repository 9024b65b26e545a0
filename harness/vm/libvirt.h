/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libvirt: the libvirt VM backend's parts that tests reach without a VM.
 * The backend itself is vm_backend_libvirt (vm.h); this header exposes the
 * domain XML writer, the connection check and the leftover sweep so that
 * the unit tests can drive them against libvirt's built-in test driver
 * (test:///default), which needs no daemon.
 *
 *	struct strbuf xml = STRBUF_INIT;
 *	struct owner me;
 *	owner_self(&me);
 *	libvirt_domain_xml(&config, "qemu", "scaletest-RUNID-1a2b3c4d", &me, &xml);
 *	... virDomainCreateXML(conn, xml.buf, ...) ...
 *
 *	if (libvirt_connect_check("qemu:///system") < 0)	// error_env()
 *		exit 3: the message names the fix (start libvirtd, root, ssh)
 *
 *	int n = libvirt_sweep("qemu:///system");	// leftover domains of
 *							// this host's dead harnesses
 *
 * Every domain the harness starts is named LIBVIRT_PREFIX + run id + a
 * random suffix, and carries its owner (host name, pid, the pid's start
 * time) in its <metadata>: two harnesses on one libvirt host never clash,
 * and a sweep destroys only domains whose owner ran on this host and is
 * gone (AUTODESTROY already covers a harness that dies while libvirtd
 * lives; the sweep covers a libvirtd restarted under a running domain).
 */
#ifndef SCALETEST_VM_LIBVIRT_H
#define SCALETEST_VM_LIBVIRT_H

#include "lib/owner.h"
#include "lib/strbuf.h"
#include "vm/vm.h"

#define LIBVIRT_PREFIX "scaletest-"
#define LIBVIRT_DEFAULT_URI "qemu:///system"
#define LIBVIRT_OWNER_NS "https://scaletest.invalid/libvirt/owner/1"

/* 1 when libvirt support was built in (pkg-config found libvirt, libxml2). */
extern const int libvirt_built;

/* Parse the <owner .../> element libvirt_domain_xml() writes. */
int libvirt_owner_parse(const char *xml, struct owner *o);

/* The domain XML of c: type "qemu", "kvm" (or "test" for the test driver). */
int libvirt_domain_xml(const struct vm_config *c, const char *type, const char *name,
		       const struct owner *owner, struct strbuf *out);

int libvirt_connect_check(const char *uri);
/* Destroys this host's leftover domains; the number destroyed, or -1. */
int libvirt_sweep(const char *uri);
/* "9.0.0" from libvirt's 9000000; out must hold 32 bytes. */
void libvirt_version_string(unsigned long v, char *out, size_t n);
/* Whether a URI names another machine (a host part): its files must then
 * be uploaded.  "qemu:///system" 0, "qemu+ssh://h/system" 1. */
int libvirt_uri_is_remote(const char *uri);

#endif
