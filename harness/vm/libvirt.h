/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libvirt: the libvirt VM backend's face.  The backend itself is
 * vm_backend_libvirt (vm.h, libvirt.c); this header also hands on its
 * parts' names that tests and commands reach without a VM, so that the unit
 * tests can drive them against libvirt's built-in test driver
 * (test:///default), which needs no daemon: the domain XML writer
 * (libvirt_xml.h), the connection check and the leftover sweep
 * (libvirt_conn.h).
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
 *
 * The parts stand below the backend and never call back up into it:
 *
 *	libvirt.c		the backend: start, poll, stop
 *	libvirt_storage.c	uploads and volumes for a remote host
 *	libvirt_stream.c	the console and channel streams
 *	libvirt_conn.c		the event loop, connections, the sweep
 *	libvirt_xml.c		the domain XML and the owner element
 *
 * (tests/includes.sh checks it, calls included.)
 */
#ifndef SCALETEST_VM_LIBVIRT_H
#define SCALETEST_VM_LIBVIRT_H

#include "vm/libvirt_conn.h"
#include "vm/libvirt_xml.h"

#endif
