#include "vm/accel.h"

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/cache.h"
#include "record/channel.h"
#include "guest/guest.h"
#include "lib/util.h"
#include "vm/vm.h"

struct probe_state {
	int seen;
};

static void on_record(void *ctx, const struct record *r)
{
	struct probe_state *ps = ctx;

	if (!strcmp(r->type, "mark") && !strcmp(r->phase, "probe"))
		ps->seen = 1;
}

enum probe_outcome {
	PROBE_FAILED = -1,	/* could not even start QEMU */
	PROBE_OK,		/* KVM reached /init */
	PROBE_HUNG,		/* nothing until the deadline */
	PROBE_DIED,		/* QEMU ended before the kernel printed anything */
	PROBE_BROKEN,		/* the kernel ran but /init never answered: the
				 * guest is broken, which says nothing of KVM */
};

static enum probe_outcome probe_kvm(const struct scenario *s, const char *kernel,
		     const char *initrd, const char *log)
{
	struct vm vm = VM_INIT;
	struct vm_config c;
	struct channel ch;
	struct probe_state ps = { 0 };
	struct child_result res;
	char *cmdline = guest_cmdline(s), *full;
	double deadline;
	int open_fds = 2;
	size_t console_bytes = 0;

	full = xstrfmt("%s scaletest_probe=1", cmdline);
	memset(&c, 0, sizeof(c));
	c.arch = s->arch;
	c.kernel = kernel;
	c.initrd = initrd;
	c.cmdline = full;
	c.memory_mb = s->memory_mb < 512 ? s->memory_mb : 512;
	c.cpus = 1;
	c.accel = "kvm";
	c.log = log;
	note("probing KVM (at most %d s)", ACCEL_PROBE_SECONDS);
	if (vm_backend_qemu.start(&vm, &c) < 0) {
		free(cmdline);
		free(full);
		return PROBE_FAILED;
	}
	channel_init(&ch, on_record, NULL, &ps);
	deadline = now_monotonic() + ACCEL_PROBE_SECONDS;
	while (!ps.seen && open_fds && !child_interrupted()) {
		struct pollfd fds[2] = {
			{ vm.console_fd, POLLIN, 0 },
			{ vm.channel_fd, POLLIN, 0 },
		};
		double left = deadline - now_monotonic();
		char buf[4096];

		if (left <= 0)
			break;
		if (poll(fds, 2, (int)(left * 1000) + 1) <= 0)
			continue;
		for (int i = 0; i < 2; i++) {
			if (!fds[i].revents || fds[i].fd < 0)
				continue;
			ssize_t n = read(fds[i].fd, buf, sizeof(buf));
			if (n <= 0) {
				open_fds--;
				if (i == 0) {
					close(vm.console_fd);
					vm.console_fd = -1;
				} else {
					close(vm.channel_fd);
					vm.channel_fd = -1;
				}
				continue;
			}
			if (i == 1)
				channel_feed(&ch, buf, (size_t)n);
			else
				console_bytes += (size_t)n;
		}
	}
	vm.backend->stop(&vm, 2.0, &res);
	channel_release(&ch);
	vm_release(&vm);
	free(cmdline);
	free(full);
	if (ps.seen)
		return PROBE_OK;
	if (open_fds)
		return PROBE_HUNG;
	return console_bytes ? PROBE_BROKEN : PROBE_DIED;
}

int accel_choose(const struct scenario *s, const char *kernel, const char *initrd,
		 const char *log, struct accel_result *out)
{
	struct utsname u;
	struct strbuf key = STRBUF_INIT, cached = STRBUF_INIT;
	struct hash_ctx *h;
	char hex[65], *entry;
	int fd;

	memset(out, 0, sizeof(*out));
	if (s->accel == ACCEL_TCG || s->accel == ACCEL_KVM) {
		snprintf(out->accel, sizeof(out->accel), "%s",
			 s->accel == ACCEL_TCG ? "tcg" : "kvm");
		snprintf(out->reason, sizeof(out->reason), "the scenario asks for %s",
			 out->accel);
		return 0;
	}
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(out->accel, sizeof(out->accel), "tcg");
		snprintf(out->reason, sizeof(out->reason), "no usable /dev/kvm");
		return 0;
	}
	close(fd);

	uname(&u);
	sb_addf(&key, "%s %s %s %s", u.release, u.machine,
		vm_backend_qemu.version(s->arch), arch_name(s->arch));
	h = hash_new();
	hash_adds(h, key.buf);
	hash_hex(h, hex);
	entry = cache_path("accel/%.16s", hex);
	if (sb_read_file(&cached, entry) == 0 && cached.len > 4) {
		/* "kvm <reason>" or "tcg <reason>" */
		while (cached.len && cached.buf[cached.len - 1] == '\n')
			sb_setlen(&cached, cached.len - 1);
		snprintf(out->accel, sizeof(out->accel), "%.3s", cached.buf);
		snprintf(out->reason, sizeof(out->reason), "%s (cached verdict)",
			 cached.buf + 4);
		if (!strcmp(out->accel, "kvm") || !strcmp(out->accel, "tcg"))
			goto done;
	}
	enum probe_outcome po = probe_kvm(s, kernel, initrd, log);
	const char *why = NULL;

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
	write_file_atomic(entry, cached.buf, cached.len);
done:
	free(entry);
	sb_release(&key);
	sb_release(&cached);
	return 0;
fail:
	free(entry);
	sb_release(&key);
	sb_release(&cached);
	return -1;
}
