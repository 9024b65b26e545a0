/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vm: the VM backends.  A backend boots a kernel and initramfs with the
 * scenario's memory, CPUs and disks, and hands back two byte streams: the
 * serial console and the record channel (a virtio-serial port, or the
 * guest's second serial port on kernels without virtio_console).
 * The one watch loop (watch.c) polls both for the run and the KVM probe;
 * neither knows anything of QEMU.
 *
 *	const struct vm_backend *be = vm_backend_find(NULL);	// backends.h
 *	struct vm vm = VM_INIT;
 *	struct vm_config c = { .arch = ..., .kernel = ..., ... };
 *	if (be->check(arch, uri) < 0 || be->start(&vm, &c) < 0) ...
 *	vm_watch(&vm, &w, 3.0, &res);		// watch.h: the one watch loop,
 *						// which ends with be->stop()
 *	vm_release(&vm);
 *
 * The run and the KVM probe know a backend only through this struct: to add
 * one (libvirt), write vm/NAME.c that fills struct vm_backend and add it to
 * the table in backends.c, which stands above the backends; vm.c, below
 * them, holds what they share (vm_cmdline()) and vm_release().
 *
 * qemu.c: QEMU runs by fork/exec with an argv, in its own process group and
 * dying with the harness (lib/child.h), with -no-reboot so the guest's
 * "reboot -f" ends it; the console and channel are socketpairs handed to
 * QEMU as chardev fds, so nothing is lost before the harness starts
 * reading.
 *
 * libvirt.c: the same VM as a transient libvirt domain through the C API
 * (virDomainCreateXML, started paused and with AUTODESTROY, so a harness
 * that dies leaves no domain); the two serial ports are libvirt console
 * streams pumped into socketpairs by an event-loop thread, opened before
 * the domain is resumed, so nothing is lost there either.  Its facts (URI,
 * versions, domain name) go into vm->facts for host.json.
 */
#ifndef SCALETEST_VM_H
#define SCALETEST_VM_H

#include "lib/child.h"
#include "lib/strvec.h"

struct vm_config {
	int arch;			/* enum arch */
	const char *kernel;
	const char *initrd;
	const char *cmdline;
	long long memory_mb;
	long long cpus;
	const char *accel;		/* "tcg" or "kvm" */
	const struct strvec *disks;	/* image files, in probe order */
	int virtio_bus;			/* enum virtio_bus */
	int virtio_channel;		/* the record channel: a virtio-serial port
					 * named VM_CHANNEL_NAME (1), or the
					 * second serial port (0) */
	const char *log;		/* the backend's own stderr goes here */
	const char *uri;		/* libvirt: the connection; NULL for the default */
	const char *name;		/* a run id, part of the domain name; or NULL */
	const char *domain_xml;		/* libvirt: save the domain XML here, or NULL */
	int upload;			/* libvirt: upload files even to a local host */
};

/* The virtio-serial port of the record channel, as the guest finds it in
 * /sys/class/virtio-ports/PORT/name. */
#define VM_CHANNEL_NAME "org.scaletest.rec"

struct vm_backend;

struct vm {
	const struct vm_backend *backend;
	int console_fd;
	int channel_fd;
	struct child child;
	struct strvec argv;		/* as started, for the record */
	struct strvec facts;		/* "key=value" the backend recorded (host.json) */
	void *priv;			/* the backend's own state */
	char *fault;			/* the backend's own failure while it ran, or NULL */
};
#define VM_INIT { NULL, -1, -1, CHILD_INIT, STRVEC_INIT, STRVEC_INIT, NULL, NULL }

struct vm_backend {
	const char *name;
	/* 0 if usable for arch (and, for libvirt, the connection uri answers,
	 * NULL for the default); else error_env()'s ERR_ENV, naming the fix.
	 * start() returns 0, or its failure's class the same way. */
	int (*check)(int arch, const char *uri);
	/* "7.2.22" (the QEMU that runs the guest; for libvirt that of the
	 * connection check() last opened), or "unknown"; static storage. */
	const char *(*version)(int arch);
	int (*start)(struct vm *vm, const struct vm_config *c);
	/* 1 and res filled once the VM has ended, 0 while it runs. */
	int (*poll_exit)(struct vm *vm, struct child_result *res);
	void (*stop)(struct vm *vm, double grace, struct child_result *res);
	/* What start() would run, without running it (run --dry-run): QEMU's
	 * argv, one shell word each (the two stream fds as CONSOLE_FD and
	 * CHANNEL_FD), or the libvirt domain XML; 0, or -1 (said). */
	int (*describe)(const struct vm_config *c, struct strbuf *out);
};

extern const struct vm_backend vm_backend_qemu;
extern const struct vm_backend vm_backend_libvirt;

/* Stops the VM if it still runs, closes its streams. */
void vm_release(struct vm *vm);
/* The kernel command line the VM boots, malloc'd: c->cmdline, and under
 * TCG no_timer_check: on a host so busy that the emulated CPU falls behind
 * (a CPU hog, two guests on two cores), the guest kernel's check of the
 * IO-APIC timer fails, "IO-APIC + timer doesn't work!", a panic, though
 * nothing is wrong but the host's speed; the check proves nothing a run
 * measures.  Both backends boot this. */
char *vm_cmdline(const struct vm_config *c);

#endif
