// SPDX-License-Identifier: Apache-2.0
/*
 * The domain XML of the libvirt backend (libvirt_xml.h): written with
 * libxml2's writer, so every value is escaped as XML wants, and every path
 * in it absolute (libvirtd resolves a relative one from its own
 * directory); the owner element in <metadata>, and its parser.
 */
#include "vm/libvirt_xml.h"
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

#include "guest/contract.h"
#include "scenario/scenario.h"
#include "lib/util.h"

#ifdef HAVE_LIBVIRT
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
	int r = abs ? attr(w, name, abs) : error_errno("cannot resolve '%s'", path);

	free(abs);
	return r;
}

static int elem_path(xmlTextWriterPtr w, const char *name, const char *path)
{
	char *abs = absolute_path(path);
	int r = abs ? elem_text(w, name, abs) : error_errno("cannot resolve '%s'", path);

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

		disk_name(scsi ? "sd" : "vd", (long)i, dev, sizeof(dev));
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


int lv_volume_xml(const char *vname, long long bytes, struct strbuf *out)
{
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	int r = -1;

	if (!w)
		goto fail;
	W(start(w, "volume"));
	W(elem_text(w, "name", vname));
	W(start(w, "capacity"));
	W(attr(w, "unit", "bytes"));
	W(xmlTextWriterWriteFormatString(w, "%lld", bytes));
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
	sb_adds(out, (const char *)xmlBufferContent(buf));
	r = 0;
fail:
	if (r < 0)
		error("cannot write the volume XML");
	if (w)
		xmlFreeTextWriter(w);
	if (buf)
		xmlBufferFree(buf);
	return r;
}
#else	/* !HAVE_LIBVIRT */

int libvirt_domain_xml(const struct vm_config *c, const char *type, const char *name,
		       const struct owner *owner, struct strbuf *out)
{
	(void)c;
	(void)type;
	(void)name;
	(void)owner;
	(void)out;
	return error_env(LIBVIRT_NOT_BUILT);
}

int libvirt_owner_parse(const char *xml, struct owner *o)
{
	(void)xml;
	memset(o, 0, sizeof(*o));
	return -1;
}

#endif
