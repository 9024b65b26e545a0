// SPDX-License-Identifier: Apache-2.0
#include "run/plan.h"

#include <stdlib.h>
#include <string.h>

#include "guest/guest.h"
#include "kernel/kbuild.h"
#include "kernel/kernel.h"
#include "kernel/limits.h"
#include "lib/cache.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "vm/accel.h"
#include "vm/backends.h"
#include "vm/libvirt.h"
#include "vm/vm.h"

static void plan_scenario(const struct scenario *s, struct strbuf *out)
{
	struct strbuf v = STRBUF_INIT;

	sb_addf(out, "scenario %s, resolved (key = value  # where it was set):\n",
		s->file ? s->file : "(defaults)");
	for (size_t i = 0; i < scenario_nkeys; i++) {
		const struct scenario_key *k = &scenario_keys[i];
		int o = s->origin[i];
		size_t col;

		sb_reset(&v);
		scenario_value(s, k, &v);
		col = out->len;
		sb_addf(out, "  %s = ", k->name);
		scenario_quote(v.buf, out);
		col = out->len - col;
		sb_addf(out, "%*s# ", col < 40 ? (int)(40 - col) : 1, "");
		if (o > 0)
			sb_addf(out, "%s:%d\n", s->file ? s->file : "scenario", o);
		else if (o < 0)
			sb_adds(out, "command line\n");
		else if (!strcmp(k->name, "name") && s->file)
			sb_adds(out, "the file's name\n");
		else
			sb_adds(out, "default\n");
	}
	sb_release(&v);
}

/* The kernel section; *image is what -kernel would get (malloc'd). */
static int plan_kernel(const struct scenario *s, struct strbuf *out, char **image)
{
	static const char *const kinds[] = { "debian", "files", "build" };
	struct kernel_artifact k = KERNEL_ARTIFACT_INIT;
	struct strbuf what = STRBUF_INIT;
	int r = kernel_find(s, kbuild_find, &k, &what);

	if (r < 0)
		goto out;
	sb_addf(out, "kernel (kernel = %s):\n", kinds[s->kernel]);
	if (r == 1) {
		struct strbuf why = STRBUF_INIT;

		if (kernel_check_layout(s, &k, &why) < 0) {
			error("%s: %s", s->file ? s->file : "scenario", why.buf);
			r = ERR_USAGE;
			sb_release(&why);
			goto out;
		}
		sb_release(&why);
		sb_addf(out, "  version  %s%s\n  image    %s\n  modules  %s\n", k.version,
			k.highmem == 1 ? " (HIGHMEM)" : "", k.image, k.modules);
		if (k.package) {
			sb_addf(out, "  package  %s %s (cached)", k.package, k.package_version);
			if (k.suite)
				sb_addf(out, ", suite %s", k.suite);
			sb_addch(out, '\n');
			for (size_t i = 0; i < k.package_parts.n; i++)
				sb_addf(out, "  part     %s\n", k.package_parts.v[i]);
		}
		if (k.build_key)
			sb_addf(out, "  build    %s (cached)\n", k.build_key);
		*image = xstrdup(k.image);
	} else {
		sb_addf(out, "  %s\n", what.buf);
		*image = xstrdup("KERNEL_IMAGE");
	}
	r = 0;
out:
	kernel_release(&k);
	sb_release(&what);
	return r;
}

static void plan_disks(const struct scenario *s, const struct run_config *rc,
		       struct strvec *images, struct strbuf *out)
{
	long long tgts, luns;
	struct strbuf why = STRBUF_INIT;

	sb_adds(out, "disks:\n");
	if (*s->sweep) {
		long long *st, g = scenario_sd_host_disks(s);
		size_t n;

		scenario_sd_layout(s, &tgts, &luns);
		scenario_sweep(s, &st, &n);
		sb_adds(out, "  sweep of scsi_debug disks in one boot:");
		for (size_t i = 0; i < n; i++)
			sb_addf(out, "%s %lld", i ? "," : "", st[i]);
		sb_addf(out, "\n  hosts of %lld disks (%lld targets x %lld LUNs, %lld MiB each%s), "
			"up to %lld hosts\n", g, tgts, luns, s->sd_dev_size_mb,
			s->sd_fake_rw ? ", fake_rw" : ", one shared store",
			scenario_sweep_peak(s) / g);
		free(st);
	} else if (s->disks) {
		scenario_sd_layout(s, &tgts, &luns);
		sb_addf(out, "  %lld scsi_debug (%lld host%s x %lld targets x %lld LUNs, "
			"%lld MiB each%s)\n", s->disks, s->sd_hosts, s->sd_hosts > 1 ? "s" : "",
			tgts, luns, s->sd_dev_size_mb, s->sd_fake_rw ? ", fake_rw" : ", one shared store");
	} else {
		sb_adds(out, "  no scsi_debug disks\n");
	}
	if (scenario_sd_crowded(s, &why))
		sb_addf(out, "  note: %s\n", why.buf);
	sb_release(&why);
	for (long long i = 0; i < s->virtio_disks; i++)
		strvec_pushf(images, "%s/.tmp-RUN_ID/disks/vd%lld.img", rc->out, i);
	if (s->virtio_disks)
		sb_addf(out, "  %lld virtio (%s, %lld MiB sparse files: %s/.tmp-RUN_ID/disks/vd*.img)\n",
			s->virtio_disks, s->virtio_bus == VIRTIO_BLK ? "virtio-blk" : "virtio-scsi",
			s->virtio_disk_mb, rc->out);
}

int run_plan(const struct scenario *s, const struct run_config *rc, struct strbuf *out)
{
	const char *bname = rc->backend ? rc->backend : scenario_backend(s);
	const struct vm_backend *be = vm_backend_find(bname);
	struct strvec images = STRVEC_INIT;
	struct accel_result acc;
	struct vm_config c;
	char *image = NULL, *initrd = NULL, *cmdline = NULL;
	const char *cache;
	int r, vc;

	if (!be)
		return error("unknown VM backend '%s'", bname);
	sb_adds(out, "dry run: nothing was booted, built or downloaded\n\n");
	plan_scenario(s, out);
	sb_addch(out, '\n');
	if ((r = plan_kernel(s, out, &image)) < 0)
		goto out;
	if (!(cache = cache_root())) {
		r = ERR_ENV;
		goto out;
	}
	initrd = xstrfmt("%s/initramfs/SHA256.cpio%s", cache,
			 s->initramfs_compress == INITRAMFS_GZIP ? ".gz" : "");
	sb_addf(out, "\ninitramfs: made by the run (or found in the cache, named by its "
		"SHA-256) from busybox-static for %s, %s/init and lib/*.sh, and the modules "
		"the disks need from the kernel's modules tree:\n  %s\n\n",
		arch_debian(s->arch), guest_data_dir(), initrd);
	plan_disks(s, rc, &images, out);
	if ((r = accel_known(be, s, &acc)) < 0)
		goto out;
	if (!r) {
		snprintf(acc.accel, sizeof(acc.accel), "kvm");
		snprintf(acc.reason, sizeof(acc.reason), "/dev/kvm is there: a run first "
			 "boots a KVM probe (at most %d s) and falls back to tcg; kvm assumed below",
			 ACCEL_PROBE_SECONDS);
	}
	sb_addf(out, "\nmemory %lld MiB, %lld CPU%s, accelerator %s (%s)\n", s->memory_mb,
		s->cpus, s->cpus > 1 ? "s" : "", acc.accel, acc.reason);

	/* guest_compose() decides from the kernel's modules; Debian's kernels
	 * have virtio_console as a module, those built from kernel-configs/
	 * (tinyconfig) do not. */
	vc = s->channel == CHANNEL_VIRTIO ||
	     (s->channel == CHANNEL_AUTO && s->kernel == KERNEL_DEBIAN);
	sb_addf(out, "record channel: %s%s\n",
		vc ? "a virtio-serial port (" VM_CHANNEL_NAME ")" : "the second serial port",
		s->channel != CHANNEL_AUTO ? "" : vc
			? " (channel = auto: Debian's kernels have virtio_console)"
			: " (channel = auto: a virtio-serial port if the kernel turns out to have "
			  "virtio_console)");
	cmdline = guest_cmdline(s);
	memset(&c, 0, sizeof(c));
	c.virtio_channel = vc;
	c.arch = s->arch;
	c.kernel = image;
	c.initrd = initrd;
	c.cmdline = cmdline;
	c.memory_mb = s->memory_mb;
	c.cpus = s->cpus;
	c.accel = acc.accel;
	c.disks = &images;
	c.virtio_bus = s->virtio_bus;
	c.uri = rc->uri;
	c.upload = rc->upload;
	c.name = "RUN_ID";
	if (!strcmp(be->name, "qemu")) {
		sb_adds(out, "\nqemu command line (the console and record channel are socket "
			"pairs the harness passes as CONSOLE_FD and CHANNEL_FD):\n");
	} else {
		sb_addf(out, "\nlibvirt domain at %s (the name's last part is random%s):\n",
			rc->uri ? rc->uri : LIBVIRT_DEFAULT_URI,
			rc->upload || (rc->uri && libvirt_uri_is_remote(rc->uri))
				? "; the files are uploaded to the 'scaletest' storage pool there "
				  "and the paths become the pool's" : "");
	}
	r = be->describe(&c, out);
out:
	strvec_clear(&images);
	free(image);
	free(initrd);
	free(cmdline);
	return r;
}
