// SPDX-License-Identifier: Apache-2.0
#include "guest/guest.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/cache.h"
#include "kernel/apt.h"
#include "kernel/deb.h"
#include "kernel/layout.h"
#include "guest/contract.h"
#include "guest/fio.h"
#include "guest/moddep.h"
#include "guest/modfile.h"
#include "lib/util.h"

int guest_status_valid(const char *status)
{
	return !strcmp(status, "pass") || !strcmp(status, "fail") ||
	       !strcmp(status, "timeout");
}

const char *const guest_scripts[] = {
	"channel.sh", "clock.sh", "blocks.sh", "wait.sh", "sweep.sh",
	"inventory.sh", "io.sh", "monitor.sh", "hung.sh", "phase.sh", "faults.sh",
	"attribution.sh", "timeattr.sh", NULL,
};

const char *guest_data_dir(void)
{
	static char *dir;

	if (!dir)
		dir = xstrfmt("%s/initramfs", scaletest_root());
	return dir;
}

static int guest_busybox(int arch, const char *log, char **path)
{
	struct deb_pkg p = DEB_PKG_INIT;
	struct cache_txn txn;
	char *entry;
	int r;

	if ((r = apt_use_userland(log)) < 0 ||
	    (r = deb_resolve("busybox-static", arch_debian(arch), 0, &p)) < 0)
		return r;
	if (!(entry = cache_path("debs/%s_%s_%s", p.name, p.version, p.arch))) {
		deb_pkg_release(&p);
		return ERR_ENV;
	}
	r = cache_begin(&txn, entry);
	if (r == 0 && (r = deb_fetch_extract(&p, txn.tmp, log)) == 0)
		r = cache_commit(&txn);
	cache_end(&txn);
	if (r >= 0) {
		/* bin/busybox until bookworm, usr/bin/busybox from trixie on. */
		r = 0;
		*path = layout_find_program(entry, "busybox");
		if (!*path)
			r = error("neither bin/busybox nor usr/bin/busybox is in the busybox-static "
				  "package %s %s (%s)", p.name, p.version, entry);
	}
	free(entry);
	deb_pkg_release(&p);
	return r;
}

static int read_moddep(const struct kernel_artifact *k, struct moddep *d)
{
	struct strbuf err = STRBUF_INIT;
	int r = moddep_open(d, k->modules, &err);

	if (r < 0)
		r = error_env("kernel %s: %s", k->version, err.buf);
	sb_release(&err);
	return r;
}

/* Append "path [params]" lines for the closure of names to list, adding
 * each new file to the archive, decompressed (modfile.h) under its name
 * without the suffix. */
static int add_modules(struct initramfs *ir, const struct kernel_artifact *k,
		       struct moddep *d, struct strvec *loaded, struct strvec *soft,
		       const char *const *names, const char *last_params,
		       struct strbuf *list)
{
	struct strbuf err = STRBUF_INIT, ko = STRBUF_INIT;
	size_t before = loaded->n;
	int r = -1;

	for (const char *const *n = names; *n; n++)
		if (moddep_closure(d, *n, loaded, soft, &err) < 0) {
			r = error_env("kernel %s: %s", k->version, err.buf);
			goto out;
		}
	for (size_t i = before; i < loaded->n; i++) {
		char *src = xstrfmt("%s/%s", k->modules, loaded->v[i]);
		char *plain = modfile_plain_name(loaded->v[i]);
		char *dst = xstrfmt("lib/modules/%s/%s", k->version, plain);

		sb_reset(&ko);
		if (!path_exists(src)) {
			r = error_env("module file '%s' is missing (its modules.dep names it): "
				      "index the tree again with depmod", src);
		} else if (modfile_read(src, &ko, &err) < 0) {
			r = error_env("%s", err.buf);
		} else {
			initramfs_add_data(ir, dst, ko.buf, ko.len, 0644);
			/* "?": a soft dependency, which may fail to load. */
			sb_addf(list, "%s/%s", strvec_find(soft, loaded->v[i]) >= 0 ? "?" : "", dst);
			if (i + 1 == loaded->n && last_params)
				sb_addf(list, " %s", last_params);
			sb_addch(list, '\n');
			free(src);
			free(plain);
			free(dst);
			continue;
		}
		free(src);
		free(plain);
		free(dst);
		goto out;
	}
	r = 0;
out:
	sb_release(&err);
	sb_release(&ko);
	return r;
}

/* Whether the kernel has a module, as a file or built in. */
static int have_module(struct moddep *d, const char *name)
{
	return moddep_have(d, name);
}

/* Directories leading to every module file. */
static void add_module_dirs(struct initramfs *ir, const struct strvec *loaded,
			    const char *version)
{
	struct strvec dirs = STRVEC_INIT;

	for (size_t i = 0; i < loaded->n; i++) {
		char *plain = modfile_plain_name(loaded->v[i]);
		char *p = xstrfmt("lib/modules/%s/%s", version, plain);

		free(plain);
		for (char *s = strchr(p, '/'); s; s = strchr(s + 1, '/')) {
			*s = '\0';
			if (strvec_find(&dirs, p) < 0)
				strvec_push(&dirs, p);
			*s = '/';
		}
		free(p);
	}
	for (size_t i = 0; i < dirs.n; i++)
		if (strcmp(dirs.v[i], "lib"))
			initramfs_add_dir(ir, dirs.v[i], 0755);
	strvec_clear(&dirs);
}

int guest_debug_fragment(const struct scenario *s)
{
	char *list, *tok, *save = NULL;
	int found = 0;

	if (s->kernel != KERNEL_BUILD)
		return 0;
	list = xstrdup(s->kernel_fragments);
	for (tok = strtok_r(list, ", ", &save); tok && !found;
	     tok = strtok_r(NULL, ", ", &save)) {
		const char *b = path_basename(tok);
		found = !strcmp(b, "debug") || !strcmp(b, "debug.config");
	}
	free(list);
	return found;
}

char *guest_cmdline(const struct scenario *s)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "console=ttyS0,115200 panic=-1 loglevel=%lld rdinit=/init",
		s->loglevel);
	if (s->slab_nomerge)
		sb_adds(&sb, " slab_nomerge");
	/* page_owner costs a page_ext per page from boot, and stack depot
	 * pages at every new stack: only when attribution asks for it. */
	if (s->attribution && guest_debug_fragment(s))
		sb_adds(&sb, " page_owner=on");
	/* The time attribution's sampler must preempt the task it samples
	 * where it runs (docs/time.md); a kernel without
	 * PREEMPT_DYNAMIC ignores it.  Before the scenario's cmdline, which
	 * may say otherwise. */
	if (s->time_attribution)
		sb_adds(&sb, " preempt=full");
	if (*s->cmdline)
		sb_addf(&sb, " %s", s->cmdline);
	return sb_detach(&sb, NULL);
}

int guest_compose(const struct scenario *s, const struct kernel_artifact *k,
		  const char *log, struct initramfs *ir, int *virtio_channel)
{
	static const char *const chan[] = { "virtio_pci", "virtio_console", NULL };
	static const char *const base[] = { "virtio_pci", "sd_mod", NULL };
	static const char *const disk[] = { "scsi_debug", NULL };
	static const char *const vscsi[] = { "virtio_scsi", NULL };
	static const char *const vblk[] = { "virtio_blk", NULL };
	struct moddep d = MODDEP_INIT;
	struct strvec loaded = STRVEC_INIT, soft = STRVEC_INIT;
	struct strbuf lb = STRBUF_INIT, ld = STRBUF_INIT, lv = STRBUF_INIT, lc = STRBUF_INIT;
	struct strbuf conf = STRBUF_INIT, sdp = STRBUF_INIT;
	char *busybox = NULL, *init = NULL, *fio = NULL;
	struct strvec libs = STRVEC_INIT;
	long long tgts, luns;
	int r = -1, missing;

	*virtio_channel = 0;
	if ((r = guest_busybox(s->arch, log, &busybox)) < 0)
		goto out;
	r = -1;
	init = xstrfmt("%s/init", guest_data_dir());
	missing = !path_exists(init);
	for (size_t i = 0; guest_scripts[i]; i++) {
		strvec_pushf(&libs, "%s/lib/%s", guest_data_dir(), guest_scripts[i]);
		missing |= !path_exists(libs.v[i]);
	}
	if (missing) {
		error("guest scripts not found in '%s' (set SCALETEST_ROOT)",
		      guest_data_dir());
		goto out;
	}
	if ((r = read_moddep(k, &d)) < 0)
		goto out;
	r = -1;
	*virtio_channel = s->channel != CHANNEL_UART && have_module(&d, "virtio_console");
	if (s->channel == CHANNEL_VIRTIO && !*virtio_channel) {
		error("kernel %s has no virtio_console (neither a module nor built in), "
		      "which channel = virtio needs: use channel = uart or auto", k->version);
		goto out;
	}

	scenario_sd_layout(s, &tgts, &luns);
	sb_addf(&sdp, "add_host=%lld num_tgts=%lld max_luns=%lld delay=0 "
		"dev_size_mb=%lld fake_rw=%d",
		*s->sweep ? 0 : s->sd_hosts, tgts, luns, s->sd_dev_size_mb, s->sd_fake_rw);
	if (s->sd_max_queue)
		sb_addf(&sdp, " max_queue=%lld", s->sd_max_queue);
	if (s->sd_submit_queues)
		sb_addf(&sdp, " submit_queues=%lld", s->sd_submit_queues);

	static const char *const dirs[] = {
		"bin", "sbin", "usr", "usr/bin", "usr/sbin", "etc", "lib",
		"lib/scaletest", "lib/modules",
		"dev", "proc", "sys", "tmp",
	};
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		initramfs_add_dir(ir, dirs[i], 0755);
	ir->compress = s->initramfs_compress;
	initramfs_add_chardev(ir, "dev/console", 5, 1, 0600);
	initramfs_add_file(ir, "bin/busybox", busybox, 0755);
	initramfs_add_file(ir, "init", init, 0755);
	for (size_t i = 0; guest_scripts[i]; i++) {
		char *dst = xstrfmt("lib/scaletest/%s", guest_scripts[i]);

		initramfs_add_file(ir, dst, libs.v[i], 0644);
		free(dst);
	}

	/* Load every module file we might need before listing them, so that
	 * the directory entries precede the files in the archive. */
	if ((*virtio_channel &&
	     (r = add_modules(ir, k, &d, &loaded, &soft, chan, NULL, &lc)) < 0) ||
	    (r = add_modules(ir, k, &d, &loaded, &soft, base, NULL, &lb)) < 0 ||
	    (s->disks && (r = add_modules(ir, k, &d, &loaded, &soft, disk, sdp.buf, &ld)) < 0) ||
	    (s->virtio_disks &&
	     (r = add_modules(ir, k, &d, &loaded, &soft,
			      s->virtio_bus == VIRTIO_BLK ? vblk : vscsi, NULL, &lv)) < 0))
		goto out;
	r = -1;
	add_module_dirs(ir, &loaded, k->version);
	initramfs_add_data(ir, "etc/modules.base", lb.buf, lb.len, 0644);
	initramfs_add_data(ir, "etc/modules.disk", ld.buf, ld.len, 0644);
	initramfs_add_data(ir, "etc/modules.virtio", lv.buf, lv.len, 0644);
	initramfs_add_data(ir, "etc/modules.channel", lc.buf, lc.len, 0644);

	/* Only numbers and fixed words: this file is sourced by the guest. */
	sb_addf(&conf, "CHANNEL=%s\nDISKS=%lld\nVIRTIO_DISKS=%lld\n"
		"TIMEOUT_INSMOD=%lld\nTIMEOUT_RMMOD=%lld\nRMMOD=%d\nIO_MB=%lld\n",
		*virtio_channel ? "virtio" : "/dev/ttyS1", s->disks, s->virtio_disks,
		s->timeout_insmod, s->timeout_rmmod, s->rmmod, s->io_mb);
	sb_addf(&conf, "SCHEDULER=%s\nNR_REQUESTS=%lld\nMONITOR_MS=%lld\nMONITOR_PCT=%lld\nFIO=%d\n"
		"FIO_RUNTIME=%lld\nFIO_BS_KB=%lld\nFIO_ALL=%d\nATTRIBUTION=%d\n",
		scenario_scheduler(s), s->nr_requests, s->monitor_interval_ms, s->monitor_max_cpu_pct,
		s->fio, s->fio_runtime, s->fio_bs_kb, s->fio_all, s->attribution);
	sb_addf(&conf, "TIME_ATTR=%d\nTA_PCT=%lld\nTA_MS=100\n", s->time_attribution,
		s->time_attribution_max_cpu_pct);
	sb_addf(&conf, "RMMOD_EXPEDITED=%d\n", s->rmmod_rcu_expedited);
	{
		long *idx;
		size_t n;
		char name[32];

		/* The vmstat counters the monitor sends: those the host keeps. */
		sb_adds(&conf, "MONITOR_VMSTAT=\"");
		for (int i = 0; guest_vmstat[i]; i++)
			sb_addf(&conf, "%s%s", i ? "|" : "", guest_vmstat[i]);
		sb_adds(&conf, "\"\n");
		scenario_fio_sample(s, &idx, &n);
		sb_adds(&conf, "FIO_SAMPLE=\"");
		for (size_t i = 0; i < n; i++)
			if (disk_name("sd", idx[i], name, sizeof(name)) == 0)
				sb_addf(&conf, "%s%s", i ? " " : "", name);
		sb_adds(&conf, "\"\n");
		free(idx);
	}
	{
		long long *st;
		size_t n;

		/* A sweep: the counts in order, and the disks of one host. */
		scenario_sweep(s, &st, &n);
		sb_adds(&conf, "SWEEP=\"");
		for (size_t i = 0; i < n; i++)
			sb_addf(&conf, "%s%lld", i ? " " : "", st[i]);
		sb_addf(&conf, "\"\nHOST_DISKS=%lld\nFLOOR_KB=%lld\nSWEEP_MAX_STEPS=%d\n",
			scenario_sd_host_disks(s), s->sweep_floor_mb * 1024, SWEEP_MAX_STEPS);
		free(st);
	}
	if (s->fio) {
		if ((r = fio_obtain(s->arch, log, &fio)) < 0)
			goto out;
		r = -1;
		initramfs_add_file(ir, "bin/fio", fio, 0755);
	}
	initramfs_add_data(ir, "etc/scaletest.conf", conf.buf, conf.len, 0644);
	r = 0;
out:
	moddep_release(&d);
	strvec_clear(&loaded);
	strvec_clear(&soft);
	sb_release(&lb);
	sb_release(&ld);
	sb_release(&lv);
	sb_release(&lc);
	sb_release(&conf);
	sb_release(&sdp);
	free(busybox);
	free(init);
	strvec_clear(&libs);
	free(fio);
	return r;
}
