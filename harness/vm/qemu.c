// SPDX-License-Identifier: Apache-2.0
#include "vm/vm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/util.h"
#include "scenario/scenario.h"

static const char *qemu_binary(int arch)
{
	return arch == ARCH_I386 ? "qemu-system-i386" : "qemu-system-x86_64";
}

static int qemu_check(int arch, const char *uri)
{
	char *p = find_in_path(qemu_binary(arch));

	(void)uri;
	if (!p)
		return error_env("%s not found: install the Debian package "
				 "qemu-system-x86 (make deps)", qemu_binary(arch));
	free(p);
	return 0;
}

static const char *qemu_version(int arch)
{
	static char ver[2][32];
	const char *argv[] = { qemu_binary(arch), "--version", NULL };
	struct child_opts o = CHILD_OPTS_INIT;
	struct strbuf out = STRBUF_INIT;
	struct child_result res;
	char *slot = ver[arch == ARCH_I386];
	const char *p;

	if (*slot)
		return slot;
	snprintf(slot, sizeof(ver[0]), "unknown");
	o.capture = &out;
	o.timeout = 30;
	if (child_run(argv, &o, &res) == 0 && child_ok(&res) &&
	    (p = strstr(out.buf, "version "))) {
		size_t n = strspn(p + 8, "0123456789.");
		if (n && n < sizeof(ver[0]))
			snprintf(slot, sizeof(ver[0]), "%.*s", (int)n, p + 8);
	}
	sb_release(&out);
	return slot;
}

/* QEMU option values separate fields with ','; a literal ',' is ",,". */
static char *qemu_escape(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++) {
		if (*s == ',')
			sb_addch(&sb, ',');
		sb_addch(&sb, *s);
	}
	return sb_detach(&sb, NULL);
}

/* A socket chardev on an inherited fd; describe() has none (fd < 0). */
static void chardev(struct strvec *av, const char *id, int fd, const char *placeholder)
{
	strvec_push(av, "-chardev");
	if (fd >= 0)
		strvec_pushf(av, "socket,id=%s,fd=%d", id, fd);
	else
		strvec_pushf(av, "socket,id=%s,fd=%s", id, placeholder);
}

static void build_argv(struct strvec *av, const struct vm_config *c,
		       int con_fd, int rec_fd)
{
	char *cmdline;

	strvec_push(av, qemu_binary(c->arch));
	strvec_push(av, "-name");
	strvec_push(av, "scaletest");
	strvec_push(av, "-nodefaults");
	strvec_push(av, "-no-user-config");
	strvec_push(av, "-display");
	strvec_push(av, "none");
	strvec_push(av, "-no-reboot");
	strvec_push(av, "-machine");
	strvec_pushf(av, "pc,accel=%s", c->accel);
	if (!strcmp(c->accel, "kvm")) {
		strvec_push(av, "-cpu");
		strvec_push(av, "host");
	}
	strvec_push(av, "-m");
	strvec_pushf(av, "%lld", c->memory_mb);
	strvec_push(av, "-smp");
	strvec_pushf(av, "%lld", c->cpus);
	strvec_push(av, "-kernel");
	strvec_push(av, c->kernel);
	strvec_push(av, "-initrd");
	strvec_push(av, c->initrd);
	strvec_push(av, "-append");
	cmdline = vm_cmdline(c);
	strvec_push(av, cmdline);
	free(cmdline);
	chardev(av, "con", con_fd, "CONSOLE_FD");
	strvec_push(av, "-serial");
	strvec_push(av, "chardev:con");
	chardev(av, "rec", rec_fd, "CHANNEL_FD");
	if (c->virtio_channel) {
		strvec_push(av, "-device");
		strvec_push(av, "virtio-serial-pci,id=vser");
		strvec_push(av, "-device");
		strvec_push(av, "virtserialport,bus=vser.0,chardev=rec,name=" VM_CHANNEL_NAME);
	} else {
		strvec_push(av, "-serial");
		strvec_push(av, "chardev:rec");
	}
	if (c->disks && c->disks->n && c->virtio_bus == VIRTIO_SCSI) {
		strvec_push(av, "-device");
		strvec_push(av, "virtio-scsi-pci,id=vscsi");
	}
	/* One NVMe controller, a namespace a disk (nsid 1, 2 ...). */
	if (c->disks && c->disks->n && c->virtio_bus == VIRTIO_NVME) {
		strvec_push(av, "-device");
		strvec_push(av, "nvme,id=nvme0,serial=scaletest0");
	}
	for (size_t i = 0; c->disks && i < c->disks->n; i++) {
		char *f = qemu_escape(c->disks->v[i]);
		strvec_push(av, "-drive");
		/* A failed write is the guest's I/O error, not a VM paused for good. */
		strvec_pushf(av, "if=none,id=vd%zu,file=%s,format=raw,cache=unsafe,"
			     "werror=report,rerror=report", i, f);
		strvec_push(av, "-device");
		if (c->virtio_bus == VIRTIO_SCSI)
			strvec_pushf(av, "scsi-hd,drive=vd%zu,bus=vscsi.0,channel=0,scsi-id=%zu,lun=0", i, i);
		else if (c->virtio_bus == VIRTIO_NVME)
			strvec_pushf(av, "nvme-ns,drive=vd%zu,bus=nvme0,nsid=%zu", i, i + 1);
		else
			strvec_pushf(av, "virtio-blk-pci,drive=vd%zu", i);
		free(f);
	}
}

static int qemu_start(struct vm *vm, const struct vm_config *c)
{
	int con[2], rec[2], logfd;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, con) < 0)
		return error_errno("cannot create a socket pair");
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, rec) < 0) {
		close(con[0]);
		close(con[1]);
		return error_errno("cannot create a socket pair");
	}
	logfd = open(c->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (logfd < 0) {
		error_errno("cannot open '%s'", c->log);
		goto fail;
	}
	vm->backend = &vm_backend_qemu;
	build_argv(&vm->argv, c, con[1], rec[1]);
	vm->child = (struct child)CHILD_INIT;
	vm->child.argv = (const char *const *)vm->argv.v;
	vm->child.in = -1;
	vm->child.out = logfd;
	vm->child.err = logfd;
	vm->child.keep[0] = con[1];
	vm->child.keep[1] = rec[1];
	vm->child.nkeep = 2;
	if (child_start(&vm->child) < 0) {
		close(logfd);
		goto fail;
	}
	close(logfd);
	close(con[1]);
	close(rec[1]);
	vm->console_fd = con[0];
	vm->channel_fd = rec[0];
	return 0;
fail:
	close(con[0]);
	close(con[1]);
	close(rec[0]);
	close(rec[1]);
	return -1;
}

static int qemu_poll_exit(struct vm *vm, struct child_result *res)
{
	return child_poll(&vm->child, res);
}

static void qemu_stop(struct vm *vm, double grace, struct child_result *res)
{
	child_stop(&vm->child, grace, res);
}

static int qemu_describe(const struct vm_config *c, struct strbuf *out)
{
	struct strvec av = STRVEC_INIT;

	build_argv(&av, c, -1, -1);
	for (size_t i = 0; i < av.n; i++) {
		if (i)
			sb_addch(out, ' ');
		shell_quote(out, av.v[i]);
	}
	sb_addch(out, '\n');
	strvec_clear(&av);
	return 0;
}

const struct vm_backend vm_backend_qemu = {
	.name = "qemu",
	.check = qemu_check,
	.version = qemu_version,
	.start = qemu_start,
	.poll_exit = qemu_poll_exit,
	.stop = qemu_stop,
	.describe = qemu_describe,
};
