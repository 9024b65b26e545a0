/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libvirt_xml: the libvirt backend's XML (libvirt.h is its face), the
 * lowest of its parts, calling none of the others: the domain XML, with
 * its owner element in <metadata>, that element's parser, and a volume's
 * XML.  Written with libxml2's writer, so every value is escaped as XML
 * wants.
 *
 *	struct owner me;
 *	owner_self(&me);
 *	libvirt_domain_xml(&config, "qemu", LIBVIRT_PREFIX "RUNID-1a2b3c4d", &me, &xml);
 *	... virDomainGetMetadata(dom, ..., LIBVIRT_OWNER_NS, 0) ...
 *	libvirt_owner_parse(meta, &owner);	// 0, or -1: not ours
 */
#ifndef SCALETEST_VM_LIBVIRT_XML_H
#define SCALETEST_VM_LIBVIRT_XML_H

#include "lib/owner.h"
#include "lib/strbuf.h"
#include "vm/vm.h"

/* Every domain and volume the harness makes is named so. */
#define LIBVIRT_PREFIX "scaletest-"
/* The namespace of the owner element in a domain's <metadata>. */
#define LIBVIRT_OWNER_NS "https://scaletest.invalid/libvirt/owner/1"

/* The domain XML of c: type "qemu", "kvm" (or "test" for the test driver). */
int libvirt_domain_xml(const struct vm_config *c, const char *type, const char *name,
		       const struct owner *owner, struct strbuf *out);
/* Parse the <owner .../> element libvirt_domain_xml() writes. */
int libvirt_owner_parse(const char *xml, struct owner *o);
/* A raw volume of bytes named vname, as libvirt's XML. */
int lv_volume_xml(const char *vname, long long bytes, struct strbuf *out);

#endif
