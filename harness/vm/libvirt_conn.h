/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libvirt_conn: the libvirt backend's connections (libvirt.h is its face):
 * opening one with an error that names the fix, the check that one
 * answers, and the sweep of what dead harnesses of this host left there.
 * Above libvirt_xml.c (the owner element it reads back), below the streams,
 * the storage and the backend itself; libvirt_int.h declares the calls
 * those make into it (lv_open(), lv_last_error(), lv_unref(), the event
 * loop).
 *
 *	if (libvirt_connect_check("qemu:///system") < 0)	// error_env()
 *		exit 3: the message names the fix (start libvirtd, root, ssh)
 *	int n = libvirt_sweep("qemu:///system");	// leftover domains of
 *							// this host's dead harnesses
 */
#ifndef SCALETEST_VM_LIBVIRT_CONN_H
#define SCALETEST_VM_LIBVIRT_CONN_H

#include <stddef.h>

#define LIBVIRT_DEFAULT_URI "qemu:///system"

/* 0 when uri (NULL: the default) answers; else ERR_ENV (error_env(),
 * naming the fix), or -1 for libvirt's own failure. */
int libvirt_connect_check(const char *uri);
/* Destroys this host's leftover domains; the number destroyed, or -1. */
int libvirt_sweep(const char *uri);
/* "9.0.0" from libvirt's 9000000; out must hold 32 bytes. */
void libvirt_version_string(unsigned long v, char *out, size_t n);
/* Whether a URI names another machine (a host part): its files must then
 * be uploaded.  "qemu:///system" 0, "qemu+ssh://h/system" 1. */
int libvirt_uri_is_remote(const char *uri);

#endif
