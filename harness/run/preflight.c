// SPDX-License-Identifier: Apache-2.0
#include "run/preflight.h"

#include <errno.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "kernel/kbuild.h"
#include "kernel/limits.h"
#include "lib/util.h"

static int check_host_memory(const struct scenario *s)
{
	long long avail = host_mem_available_kb();
	long long need = (s->memory_mb + 256) * 1024;

	if (avail >= 0 && avail < need)
		return error_env("the host has %lld MiB available, the guest needs "
				 "%lld MiB plus QEMU's own; lower memory_mb or free memory",
				 avail / 1024, s->memory_mb);
	return 0;
}

/* Room for the run before anything starts: the virtio disks' images are
 * sparse but fio may fill them, and the logs of a 4000-disk run take tens
 * of MB.  On a full file system QEMU would pause the guest at its first
 * failed write (or the guest would see I/O errors) and the run's own
 * files could not be written: say so now, exit 3, nothing booted. */
#define RUN_LOG_ROOM_MB 64

static int check_results_space(const struct scenario *s, const char *out)
{
	struct statvfs fs;
	long long need_mb = s->virtio_disks * s->virtio_disk_mb + RUN_LOG_ROOM_MB;
	long long free_mb;

	if (mkdir_p(out, 0755) < 0)
		return error_env("cannot create the results directory '%s'", out);
	if (access(out, W_OK) < 0)
		return error_env("the results directory '%s' is not writable: %s", out,
				 strerror(errno));
	if (statvfs(out, &fs) < 0)
		return 0;	/* cannot tell: let the writes say */
	free_mb = (long long)(fs.f_bavail * fs.f_frsize / (1024 * 1024));
	if (free_mb < need_mb)
		return error_env("the results directory '%s' has %lld MiB free; this run needs "
				 "about %lld MiB (%lld virtio disks of %lld MiB, and %d MiB for "
				 "its logs): free space, or give --out on another file system",
				 out, free_mb, need_mb, s->virtio_disks, s->virtio_disk_mb,
				 RUN_LOG_ROOM_MB);
	return 0;
}

/* The scenario against the kernel's limits (kernel/limits.h): 0, or
 * ERR_USAGE (said): the scenario asks what this kernel cannot hold. */
int preflight_layout(const struct scenario *s, const struct kernel_artifact *k,
		     struct strbuf *why)
{
	if (kernel_check_layout(s, k, why) == 0)
		return 0;
	error("%s: %s", s->file ? s->file : "scenario", why->buf);
	return ERR_USAGE;
}

int preflight_check(const struct scenario *s, const struct vm_backend *be, const char *uri,
		    const char *out)
{
	int e;

	if ((e = be->check(s->arch, uri)) < 0 || (e = check_host_memory(s)) < 0)
		return e;
	/* A layout the kernel cannot hold, when the kernel is at hand: said
	 * before anything is made (kernel_find() fetches and builds nothing;
	 * what it does not find at hand is checked once obtained, and what it
	 * cannot find at all ends the run here, said once). */
	if (scenario_scsi_devices(s) > KERNEL_BSG_MAX_OLD) {
		struct kernel_artifact k = KERNEL_ARTIFACT_INIT;
		struct strbuf what = STRBUF_INIT, why = STRBUF_INIT;

		e = kernel_find(s, kbuild_find, &k, &what);
		if (e == 1)
			e = preflight_layout(s, &k, &why);
		kernel_release(&k);
		sb_release(&what);
		sb_release(&why);
		if (e < 0)
			return e;
	}
	return check_results_space(s, out);
}
