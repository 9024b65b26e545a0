// SPDX-License-Identifier: Apache-2.0
#include "vm/accel.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/cache.h"
#include "record/channel.h"
#include "guest/guest.h"
#include "lib/util.h"
#include "vm/vm.h"
#include "vm/watch.h"

struct probe_state {
	struct channel ch;
	int seen;
	size_t console_bytes;
	double deadline;
};

static void on_record(void *ctx, const struct record *r)
{
	struct probe_state *ps = ctx;

	if (!strcmp(r->type, "mark") && !strcmp(r->phase, "probe"))
		ps->seen = 1;
}

static void probe_console(void *ctx, const char *buf, size_t len)
{
	(void)buf;
	((struct probe_state *)ctx)->console_bytes += len;
}

static void probe_channel(void *ctx, const char *buf, size_t len)
{
	channel_feed(&((struct probe_state *)ctx)->ch, buf, len);
}

static double probe_deadline(void *ctx)
{
	return ((struct probe_state *)ctx)->deadline;
}

static int probe_done(void *ctx)
{
	return ((struct probe_state *)ctx)->seen;
}

enum probe_outcome {
	PROBE_FAILED = -1,	/* could not even start QEMU */
	PROBE_OK,		/* KVM reached /init */
	PROBE_HUNG,		/* nothing until the deadline */
	PROBE_DIED,		/* QEMU ended before the kernel printed anything */
	PROBE_BROKEN,		/* the kernel ran but /init never answered: the
				 * guest is broken, which says nothing of KVM */
};

static enum probe_outcome probe_kvm(const struct vm_backend *be,
				    const struct scenario *s, const char *uri, const char *kernel,
				    const char *initrd, int virtio_channel, const char *log)
{
	struct vm vm = VM_INIT;
	struct vm_config c;
	struct probe_state ps = { .seen = 0 };
	struct vm_watch w = {
		.ctx = &ps, .console = probe_console, .channel = probe_channel,
		.deadline = probe_deadline, .done = probe_done,
	};
	struct child_result res;
	char *cmdline = guest_cmdline(s), *full;
	enum vm_watch_end end;

	full = xstrfmt("%s scaletest_probe=1", cmdline);
	memset(&c, 0, sizeof(c));
	c.arch = s->arch;
	c.kernel = kernel;
	c.initrd = initrd;
	c.cmdline = full;
	c.memory_mb = s->memory_mb < 512 ? s->memory_mb : 512;
	c.cpus = 1;
	c.accel = "kvm";
	c.virtio_channel = virtio_channel;
	c.log = log;
	c.uri = uri;
	c.name = "probe";
	note("probing KVM (at most %d s)", ACCEL_PROBE_SECONDS);
	free(cmdline);
	if (be->start(&vm, &c) < 0) {
		free(full);
		return PROBE_FAILED;
	}
	free(full);
	channel_init(&ps.ch, on_record, NULL, &ps);
	ps.deadline = now_monotonic() + ACCEL_PROBE_SECONDS;
	end = vm_watch(&vm, &w, 2.0, &res);
	channel_release(&ps.ch);
	vm_release(&vm);
	if (ps.seen)
		return PROBE_OK;
	if (end == VM_WATCH_DEADLINE || end == VM_WATCH_SIGNAL)
		return PROBE_HUNG;
	return ps.console_bytes ? PROBE_BROKEN : PROBE_DIED;
}

/* The cache entry of this host's verdict for be and the arch; malloc'd,
 * or NULL when the cache cannot be used (said). */
static char *verdict_entry(const struct vm_backend *be, const struct scenario *s)
{
	struct utsname u;
	struct strbuf key = STRBUF_INIT;
	struct hash_ctx *h;
	char hex[65];

	uname(&u);
	sb_addf(&key, "%s %s %s %s", u.release, u.machine,
		be->version(s->arch), arch_name(s->arch));
	h = hash_new();
	hash_adds(h, key.buf);
	hash_hex(h, hex);
	sb_release(&key);
	return cache_path("accel/%.16s", hex);
}

int accel_known(const struct vm_backend *be, const struct scenario *s,
		struct accel_result *out)
{
	struct strbuf cached = STRBUF_INIT;
	char *entry;
	int fd, r = 0;

	memset(out, 0, sizeof(*out));
	if (s->accel == ACCEL_TCG || s->accel == ACCEL_KVM) {
		snprintf(out->accel, sizeof(out->accel), "%s",
			 s->accel == ACCEL_TCG ? "tcg" : "kvm");
		snprintf(out->reason, sizeof(out->reason), "the scenario asks for %s",
			 out->accel);
		return 1;
	}
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(out->accel, sizeof(out->accel), "tcg");
		snprintf(out->reason, sizeof(out->reason), "no usable /dev/kvm");
		return 1;
	}
	close(fd);
	if (!(entry = verdict_entry(be, s)))
		return ERR_ENV;
	if (cache_read_small(entry, &cached, 1024) == 0 && cached.len > 4) {
		/* "kvm <reason>" or "tcg <reason>"; the reason reaches result.json
		 * and the terminal: cleaned */
		char *why;

		while (cached.len && cached.buf[cached.len - 1] == '\n')
			sb_setlen(&cached, cached.len - 1);
		why = xstrclean(cached.buf + 4, cached.len - 4);
		snprintf(out->accel, sizeof(out->accel), "%.3s", cached.buf);
		snprintf(out->reason, sizeof(out->reason), "%s (cached verdict)", why);
		free(why);
		r = !strcmp(out->accel, "kvm") || !strcmp(out->accel, "tcg");
	}
	if (!r)
		memset(out, 0, sizeof(*out));
	free(entry);
	sb_release(&cached);
	return r;
}

int accel_choose(const struct vm_backend *be, const struct scenario *s,
		 const char *uri, const char *kernel, const char *initrd, int virtio_channel, const char *log,
		 struct accel_result *out)
{
	struct strbuf cached = STRBUF_INIT;
	char *entry;
	int known = accel_known(be, s, out);

	if (known)
		return known < 0 ? known : 0;
	if (!(entry = verdict_entry(be, s)))
		return ERR_ENV;
	enum probe_outcome po = probe_kvm(be, s, uri, kernel, initrd, virtio_channel, log);
	const char *why = NULL;

	/* libvirt refuses a kvm domain where the host offers none. */
	if (po == PROBE_FAILED && strcmp(be->name, "qemu") && !child_interrupted()) {
		snprintf(out->accel, sizeof(out->accel), "tcg");
		snprintf(out->reason, sizeof(out->reason),
			 "libvirt could not start a KVM domain; see the error above");
		goto done;
	}
	if (po == PROBE_FAILED || child_interrupted())
		goto fail;
	snprintf(out->accel, sizeof(out->accel), po == PROBE_OK ? "kvm" : "tcg");
	switch (po) {
	case PROBE_OK:
		why = "a KVM probe boot reached /init";
		break;
	case PROBE_HUNG:
		why = "a KVM probe boot did not reach /init in time";
		break;
	case PROBE_DIED:
		why = "QEMU exited under KVM before the kernel printed anything";
		break;
	default:
		/* Not cached: the next run probes again. */
		snprintf(out->reason, sizeof(out->reason),
			 "the KVM probe boot ran but never reached /init; see accel-probe.log");
		goto done;
	}
	snprintf(out->reason, sizeof(out->reason), "%s", why);
	sb_reset(&cached);
	sb_addf(&cached, "%s %s\n", out->accel, out->reason);
	cache_write_small(entry, cached.buf);
done:
	free(entry);
	sb_release(&cached);
	return 0;
fail:
	free(entry);
	sb_release(&cached);
	return -1;
}
