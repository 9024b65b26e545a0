// SPDX-License-Identifier: Apache-2.0
#include "run/run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "guest/guest.h"
#include "guest/initramfs.h"
#include "guest/phase.h"
#include "kernel/kbuild.h"
#include "kernel/kernel.h"
#include "kernel/limits.h"
#include "lib/child.h"
#include "lib/meter.h"
#include "lib/util.h"
#include "record/console.h"
#include "record/records.h"
#include "report/report.h"
#include "result/build.h"
#include "result/result.h"
#include "run/rundir.h"
#include "vm/accel.h"
#include "vm/backends.h"
#include "vm/vm.h"
#include "vm/watch.h"

/* After a panic/Oops/OOM line, how long the guest may go on before we stop it. */
#define CRASH_GRACE_S 10.0
/* After the "end" record, how long the VM may take to exit. */
#define EXIT_GRACE_S 30.0

struct run {
	const struct scenario *s;
	const struct run_config *rc;
	const struct vm_backend *be;
	struct rundir dir;
	char *log;			/* build.log */
	struct kernel_artifact k;
	char *initrd;
	int virtio_channel;	/* the record channel: guest_compose() chose */
	struct accel_result accel;
	struct strvec disks;		/* virtio disk images */
	struct vm vm;
	int con_log, chan_log;		/* console.log, channel.log */
	unsigned long long con_bytes, chan_bytes;	/* what the guest wrote on each */
	int over_budget;		/* past guest_output_mb: stop the VM */
	struct console_scan cs;
	struct records rs;
	json_object *host;		/* host.json: what only the host saw */
	double t0, t_vm, deadline, crash_at;
	char *error;			/* the harness's own failure */
	int failure;			/* ... its class (lib/util.h), or 0 */
	struct meter meter;		/* the live progress line */
	int metered;			/* its row in steps[], or -1 */
	int scanning;			/* it counts SCSI devices scanned, not disks */
	long long moved_blocks, moved_queues;	/* the last progress counts */
	/* A hung-task report while the step's count still moved: a finding
	 * (result/build.c), and the run goes on; crash_at then is when it
	 * ends on the report if nothing moves (see on_console). */
	const struct console_report *deferred;
	const struct console_report *asked;	/* the report is_hung_task() last classified */
	int asked_hung;			/* and its answer */
};

static void set_error(struct run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_error(struct run *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (r->error)
		return;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	r->error = sb_detach(&sb, NULL);
}

/* ---- the live progress line (lib/meter.h) ------------------------------- */

/* scsi_debug disks present, from a count of /sys/block: less the devices
 * there before insmod and, once they came, the virtio disks. */
static long long sd_present(const struct run *r, long long blocks, int with_virtio)
{
	long long n = blocks - (long long)r->rs.base.n;

	if (with_virtio)
		n -= r->rs.have_virtio ? (long long)r->rs.virtio.n : r->s->virtio_disks;
	return n < 0 ? 0 : n;
}

/*
 * The steps with a meter: each starts at a phase's mark (the guest sends
 * it just before the step begins), is fed by the guest's progress records
 * (its wait loop's counts, in channel order, so they belong to the step
 * begun last), and ends at the next phase's mark, where the guest has seen the
 * count it waited for.  A future step (a sweep's points) is one more row.
 */
static const struct meter_step {
	const char *step;		/* the line's label */
	int start, end;			/* phases whose marks start and end it */
	const char *verb;
	int with_virtio;		/* the virtio disks are there too */
	int rmmod;			/* only when the scenario removes scsi_debug */
} steps[] = {
	{ "insmod", PHASE_BEFORE_INSMOD, PHASE_AFTER_INSMOD, "present", 0, 0 },
	{ "rmmod", PHASE_AFTER_IO, PHASE_AFTER_RMMOD, "removed", 1, 1 },
};

static void meter_phase(struct run *r, int phase, double uptime)
{
	struct strbuf out = STRBUF_INIT;

	if (r->metered >= 0 && steps[r->metered].end == phase) {
		const struct meter_step *st = &steps[r->metered];
		/* The guest has waited for the exact count: say where it ended. */
		long long end = st->with_virtio ? 0 : r->s->disks;
		if (r->scanning)
			meter_start(&r->meter, r->meter.mode, st->step, "disks", st->verb, 0,
				    scenario_sweep_peak(r->s), r->meter.t0);
		r->scanning = 0;
		meter_finish(&r->meter, uptime, end, &out);
		r->metered = -1;
		/* A deferred hung-task report: the step ended, so did its wait. */
		if (r->deferred)
			r->crash_at = 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		if (steps[i].start != phase || r->s->disks <= 0 ||
		    (steps[i].rmmod && !r->s->rmmod))
			continue;
		meter_start(&r->meter, meter_mode_for(2, r->rc->quiet), steps[i].step,
			    "disks", steps[i].verb, steps[i].with_virtio ? r->s->disks : 0,
			    steps[i].with_virtio ? 0 : scenario_sweep_peak(r->s), uptime);
		r->metered = (int)i;
	}
	meter_write(&out);
	sb_release(&out);
}

/* How long the step may go without its count moving once a hung-task
 * report came: its phase's deadline. */
static double step_patience(const struct run *r)
{
	return (double)phase_timeout(steps[r->metered].end, r->s);
}

static void on_progress(void *ctx, double uptime, long long blocks, long long queues)
{
	struct run *r = ctx;
	struct strbuf out = STRBUF_INIT;
	const struct meter_step *st;
	long long present, peak = scenario_sweep_peak(r->s);

	if (r->metered < 0)
		return;
	st = &steps[r->metered];
	present = sd_present(r, blocks, st->with_virtio);
	if (r->deferred && r->crash_at && (blocks != r->moved_blocks || queues != r->moved_queues))
		r->crash_at = now_monotonic() + step_patience(r);
	r->moved_blocks = blocks;
	r->moved_queues = queues;
	/* The scan makes SCSI devices for minutes before the first block
	 * device (lib/wait.sh queues_v): count those until the disks come. */
	if (!st->with_virtio && !present && queues > 0) {
		if (!r->scanning)
			meter_start(&r->meter, r->meter.mode, st->step, "SCSI devices", "scanned",
				    0, peak, r->meter.t0);
		r->scanning = 1;
		meter_update(&r->meter, uptime, queues < peak ? queues : peak, &out);
	} else {
		if (r->scanning) {
			meter_finish(&r->meter, uptime, r->meter.count, &out);
			meter_start(&r->meter, r->meter.mode, st->step, "disks", st->verb, 0, peak,
				    uptime);
			r->scanning = 0;
		}
		meter_update(&r->meter, uptime, present, &out);
	}
	meter_write(&out);
	sb_release(&out);
}

/* The run ended inside a step: its last line (or the terminal's erased). */
static void meter_stop(struct run *r)
{
	struct strbuf out = STRBUF_INIT;

	if (r->metered >= 0)
		meter_finish(&r->meter, r->meter.t, r->meter.count, &out);
	r->metered = -1;
	meter_write(&out);
	sb_release(&out);
}

/* ---- the watch: callbacks of the records and of vm_watch() -------------- */

static void on_phase(void *ctx, int phase, double uptime)
{
	struct run *r = ctx;
	double now = now_monotonic();

	meter_phase(r, phase, uptime);

	host_phase(r->host, phase_name(phase), now - r->t_vm);
	/* The next phase has its own deadline, with slack so that the guest's
	 * own waits (which report more precisely) expire first. */
	if (phase + 1 < PHASE_COUNT)
		r->deadline = now + (double)phase_timeout(phase + 1, r->s) * 1.1 + 5;
	else
		r->deadline = now + 60;
	note("%7.1fs  %-14s guest uptime %.1f s", now - r->t_vm, phase_name(phase), uptime);
}

static void on_end(void *ctx)
{
	struct run *r = ctx;

	r->deadline = now_monotonic() + EXIT_GRACE_S;
}

/* A sweep's step is done: the next step has the insmod deadline again. */
static void on_point(void *ctx, long step, long long disks)
{
	struct run *r = ctx;
	double now = now_monotonic();

	r->deadline = now + (double)r->s->timeout_insmod * 1.1 + 5;
	note("%7.1fs  sweep step %ld: %lld disks", now - r->t_vm, step, disks);
}

static const struct records_ops run_records_ops = {
	.phase = on_phase,
	.progress = on_progress,
	.point = on_point,
	.end = on_end,
};

/* The guest may write at most guest_output_mb on each stream: past it, no
 * more is kept or decoded, and the watch ends (over_budget). */
static int within_budget(struct run *r, unsigned long long *bytes, size_t n, const char *what)
{
	unsigned long long max = (unsigned long long)r->s->guest_output_mb << 20;

	if (r->over_budget)
		return 0;
	if (*bytes + n > max) {
		set_error(r, "the guest wrote more than %lld MiB on its %s (guest_output_mb): "
			  "the rest was not kept and the VM was stopped", r->s->guest_output_mb, what);
		r->over_budget = 1;
		return 0;
	}
	*bytes += n;
	return 1;
}

/* A hung-task report, by the class its title gives (the oops row is
 * "INFO:"). */
static int is_hung_task(struct run *r, const struct console_report *rep)
{
	const struct crash_class *c;

	/* Once per report, not once per console chunk while it waits. */
	if (rep != r->asked) {
		c = crash_report_class(&rep->r);
		r->asked = rep;
		r->asked_hung = c && c->finding == FINDING_IF_SURVIVED;
	}
	return r->asked_hung;
}

static void on_console(void *ctx, const char *buf, size_t n)
{
	struct run *r = ctx;
	const struct console_report *stop;
	int had = r->cs.crash || r->cs.oom;

	if (!within_budget(r, &r->con_bytes, n, "console"))
		return;
	(void)write_all(r->con_log, buf, n);
	console_scan_feed(&r->cs, buf, n);
	if (!had && (r->cs.crash || r->cs.oom))
		warning("guest console: %s", r->cs.oom ? r->cs.oom_line : r->cs.crash_line);
	/* A report that ends the run: let the guest finish printing it.  A
	 * hung-task report while insmod or rmmod (or a sweep's step) is still
	 * making or removing disks is the detector's verdict on a long wait,
	 * not a hang: the run goes on, and ends on it only when the count
	 * does not move for the step's phase deadline (on_progress moves
	 * crash_at); result/build.c then records it as a finding if the guest
	 * finished.  A later report of another group (an OOM) ends it as any. */
	stop = console_scan_stop(&r->cs);
	if (stop && stop == r->deferred)
		return;
	if (stop && is_hung_task(r, stop) && r->metered >= 0 && !r->deferred) {
		r->deferred = stop;
		r->crash_at = now_monotonic() + step_patience(r);
		warning("a hung-task report while %s goes on: recorded as a finding; the run "
			"ends on it only if the disk count does not move for %.0f s",
			steps[r->metered].step, step_patience(r));
		return;
	}
	if (stop && !r->crash_at)
		r->crash_at = now_monotonic() + CRASH_GRACE_S;
	else if (stop && stop != r->deferred && r->deferred &&
		 r->crash_at > now_monotonic() + CRASH_GRACE_S)
		r->crash_at = now_monotonic() + CRASH_GRACE_S;
}

static void on_channel(void *ctx, const char *buf, size_t n)
{
	struct run *r = ctx;

	if (!within_budget(r, &r->chan_bytes, n, "record channel"))
		return;
	(void)write_all(r->chan_log, buf, n);
	records_feed(&r->rs, buf, n);
}

static int watch_done(void *ctx)
{
	return ((struct run *)ctx)->over_budget;
}

static double next_deadline(void *ctx)
{
	struct run *r = ctx;

	return r->crash_at && r->crash_at < r->deadline ? r->crash_at : r->deadline;
}

static void watch(struct run *r)
{
	struct vm_watch w = {
		.ctx = r, .console = on_console, .channel = on_channel,
		.deadline = next_deadline, .done = watch_done,
	};
	struct child_result res;
	enum vm_watch_end end;
	int timed_out = 0;

	r->deadline = r->t_vm + (double)phase_timeout(PHASE_BOOT, r->s) * 1.1 + 5;
	end = vm_watch(&r->vm, &w, 3.0, &res);
	records_finish(&r->rs);
	meter_stop(r);
	console_scan_finish(&r->cs);
	/* The backend's own failure (a lost libvirt connection) is the
	 * harness's, not the guest's. */
	if (r->vm.fault)
		set_error(r, "%s", r->vm.fault);
	if (end == VM_WATCH_DEADLINE && !(r->crash_at && now_monotonic() >= r->crash_at) &&
	    !r->rs.got_end)
		timed_out = 1;
	json_object_object_add(r->host, "timed_out", json_object_new_boolean(timed_out));
	/* The VM ended on its own before the guest's end: result_build()
	 * names why (a kernel report, the record channel, or QEMU itself).
	 * When the backend lost the VM (its libvirt connection), the VM did
	 * not end: the error above says what happened. */
	json_object_object_add(r->host, "vm_exited",
			       json_object_new_boolean(end == VM_WATCH_EXITED && !r->rs.got_end &&
						       !r->vm.fault));
	json_object_object_add(r->host, "vm_exit", json_object_new_string(child_describe(&res)));
}

/* ---- setup -------------------------------------------------------------- */

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


static json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* The keys given on top of the scenario file (--set, and what run's and
 * sweep's options turn into --set), "key=value" in the table's order:
 * result.json's scenario.overrides, so that a report says the run is
 * not the scenario its description describes. */
static json_object *scenario_overrides(const struct scenario *s)
{
	json_object *a = json_object_new_array();
	struct strbuf kv = STRBUF_INIT;

	for (size_t i = 0; i < scenario_nkeys; i++) {
		if (s->origin[i] >= 0)
			continue;
		sb_reset(&kv);
		sb_addf(&kv, "%s=", scenario_keys[i].name);
		scenario_value(s, &scenario_keys[i], &kv);
		json_object_array_add(a, json_object_new_string(kv.buf));
	}
	sb_release(&kv);
	return a;
}

/* host.json's kernel and vm: what ran. */
static void host_setup(struct run *r)
{
	json_object *k = json_object_new_object(), *vm = json_object_new_object();

	json_object_object_add(k, "version", str_or_null(r->k.version));
	json_object_object_add(k, "arch", json_object_new_string(arch_name(r->s->arch)));
	json_object_object_add(k, "source", str_or_null(r->k.source));
	json_object_object_add(k, "package", str_or_null(r->k.package));
	json_object_object_add(k, "package_version", str_or_null(r->k.package_version));
	json_object_object_add(k, "image", str_or_null(r->k.image));
	json_object_object_add(k, "highmem", r->k.highmem < 0 ? NULL : json_object_new_boolean(r->k.highmem));
	if (r->k.build_key) {
		json_object *b = json_object_new_object(), *p = json_object_new_array();
		json_object *f = json_object_new_array();

		json_object_object_add(b, "source_tree", json_object_new_string(r->k.build_source));
		json_object_object_add(b, "key", json_object_new_string(r->k.build_key));
		json_object_object_add(b, "config_base", json_object_new_string(r->k.build_base));
		for (size_t i = 0; i < r->k.build_patches.n; i++)
			json_object_array_add(p, json_object_new_string(r->k.build_patches.v[i]));
		for (size_t i = 0; i < r->k.build_fragments.n; i++)
			json_object_array_add(f, json_object_new_string(path_basename(r->k.build_fragments.v[i])));
		json_object_object_add(b, "patches", p);
		json_object_object_add(b, "fragments", f);
		if (r->k.build_patchset_hash)
			json_object_object_add(b, "patchset_hash",
					       json_object_new_string(r->k.build_patchset_hash));
		if (r->k.build_git_url)
			json_object_object_add(b, "git_url", json_object_new_string(r->k.build_git_url));
		json_object_object_add(k, "build", b);
	}
	json_object_object_add(r->host, "kernel", k);
	json_object_object_add(vm, "backend", json_object_new_string(r->be->name));
	json_object_object_add(vm, "accel", str_or_null(*r->accel.accel ? r->accel.accel : NULL));
	json_object_object_add(vm, "accel_reason", str_or_null(*r->accel.reason ? r->accel.reason : NULL));
	json_object_object_add(vm, "memory_mb", json_object_new_int64(r->s->memory_mb));
	json_object_object_add(vm, "cpus", json_object_new_int64(r->s->cpus));
	json_object_object_add(vm, "qemu_version", json_object_new_string(r->be->version(r->s->arch)));
	json_object_object_add(vm, "initramfs", str_or_null(r->initrd));
	if (r->initrd)
		json_object_object_add(vm, "channel", json_object_new_string(r->virtio_channel ?
							"virtio-serial" : "uart"));
	if (r->rc->uri)
		json_object_object_add(vm, "uri", json_object_new_string(r->rc->uri));
	/* The backend's own facts (libvirt: uri, host, versions, domain). */
	for (size_t i = 0; i < r->vm.facts.n; i++) {
		const char *f = r->vm.facts.v[i], *eq = strchr(f, '=');
		char *key = eq ? xstrndup(f, (size_t)(eq - f)) : NULL;

		if (key && !strcmp(eq + 1, "true"))
			json_object_object_add(vm, key, json_object_new_boolean(1));
		else if (key)
			json_object_object_add(vm, key, json_object_new_string(eq + 1));
		free(key);
	}
	json_object_object_add(r->host, "vm", vm);
}

static void save_argv(struct run *r)
{
	struct strbuf argv = STRBUF_INIT;
	char *path = rundir_path(&r->dir, "qemu-argv.txt");

	for (size_t i = 0; i < r->vm.argv.n; i++)
		sb_addf(&argv, "%s\n", r->vm.argv.v[i]);
	write_file(path, argv.buf, argv.len);
	free(path);
	sb_release(&argv);
}

/* The scenario against the kernel's limits (kernel/limits.h): 0, or
 * ERR_USAGE (said): the scenario asks what this kernel cannot hold. */
static int refuse_layout(const struct scenario *s, const struct kernel_artifact *k,
			 struct strbuf *why)
{
	if (kernel_check_layout(s, k, why) == 0)
		return 0;
	error("%s: %s", s->file ? s->file : "scenario", why->buf);
	return ERR_USAGE;
}

/* kernel -> initramfs -> disks -> accelerator -> VM started: 0, or the
 * failure's class. */
static int setup_and_boot(struct run *r)
{
	struct initramfs ir = INITRAMFS_INIT;
	struct vm_config c;
	char *cmdline = NULL, *qlog = NULL, *probe_log = NULL, *xml = NULL;
	int hit = 0, ret;

	note("run %s in %s/%s", r->dir.id, r->rc->out, r->dir.id);
	if ((ret = kernel_obtain(r->s, r->log, kbuild_obtain, &r->k)) < 0)
		goto out;
	note("kernel %s (%s%s%s)", r->k.version, r->k.source,
	     r->k.package ? " " : "", r->k.package ? r->k.package : "");
	{
		struct strbuf why = STRBUF_INIT;

		if ((ret = refuse_layout(r->s, &r->k, &why)) < 0)
			set_error(r, "refused before boot: %s", why.buf);
		sb_release(&why);
		if (ret < 0)
			goto out;
	}
	if ((ret = guest_compose(r->s, &r->k, r->log, &ir, &r->virtio_channel)) < 0 ||
	    (ret = initramfs_build_cached(&ir, &r->initrd, &hit)) < 0)
		goto out;
	note("initramfs %s (%s)", path_basename(r->initrd), hit ? "cached" : "built");
	if ((ret = rundir_make_disks(&r->dir, r->s, &r->disks)) < 0)
		goto out;
	probe_log = rundir_path(&r->dir, "accel-probe.log");
	if ((ret = accel_choose(r->be, r->s, r->rc->uri, r->k.image, r->initrd,
				r->virtio_channel, probe_log, &r->accel)) < 0)
		goto out;
	if (child_interrupted()) {
		ret = -1;
		goto out;
	}
	note("accelerator %s: %s", r->accel.accel, r->accel.reason);

	cmdline = guest_cmdline(r->s);
	qlog = rundir_path(&r->dir, "qemu.log");
	if (strcmp(r->be->name, "qemu"))
		xml = rundir_path(&r->dir, "domain.xml");
	memset(&c, 0, sizeof(c));
	c.arch = r->s->arch;
	c.kernel = r->k.image;
	c.initrd = r->initrd;
	c.cmdline = cmdline;
	c.memory_mb = r->s->memory_mb;
	c.cpus = r->s->cpus;
	c.accel = r->accel.accel;
	c.disks = &r->disks;
	c.virtio_bus = r->s->virtio_bus;
	c.virtio_channel = r->virtio_channel;
	c.log = qlog;
	c.uri = r->rc->uri;
	c.upload = r->rc->upload;
	c.name = r->dir.id;
	c.domain_xml = xml;
	if ((ret = r->be->start(&r->vm, &c)) < 0)
		goto out;
	/* The guest runs from here: a backend slow to start it (libvirt on a
	 * host where each call takes a minute) costs setup time, never the
	 * boot deadline. */
	r->t_vm = now_monotonic();
	save_argv(r);
	note("booting %lld disks + %lld virtio (%s, %lld MiB, %lld CPU)",
	     r->s->disks, r->s->virtio_disks, r->accel.accel, r->s->memory_mb,
	     r->s->cpus);
	{
		struct strbuf why = STRBUF_INIT;

		if (scenario_sd_crowded(r->s, &why))
			note("%s", why.buf);
		sb_release(&why);
	}
	ret = 0;
out:
	initramfs_release(&ir);
	free(cmdline);
	free(qlog);
	free(probe_log);
	free(xml);
	return ret;
}

static int open_log(struct run *r, const char *name)
{
	char *p = rundir_path(&r->dir, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	free(p);
	return fd;
}

/* host.json's closing facts, then host.json and result.json. */
static enum run_status write_result(struct run *r)
{
	double now = now_monotonic();
	enum run_status st;
	json_object *root;
	char iso[32], *path;

	timestamp_iso(iso, sizeof(iso));
	json_object_object_add(r->host, "finished", json_object_new_string(iso));
	json_object_object_add(r->host, "booted", json_object_new_boolean(r->vm.backend != NULL));
	json_object_object_add(r->host, "setup_s", json_seconds((r->t_vm ? r->t_vm : now) - r->t0));
	json_object_object_add(r->host, "vm_s", r->t_vm ? json_seconds(now - r->t_vm) : NULL);
	json_object_object_add(r->host, "total_s", json_seconds(now - r->t0));
	json_object_object_add(r->host, "signal", json_object_new_int(child_interrupted()));
	json_object_object_add(r->host, "error", str_or_null(r->error));
	path = rundir_path(&r->dir, "host.json");
	json_save(r->host, path);
	free(path);

	root = result_build(r->s, &r->rs, &r->cs, r->host, &st);
	path = rundir_path(&r->dir, "result.json");
	if (result_save(root, path) < 0)
		st = RUN_ERROR;
	free(path);
	json_object_put(root);
	return st;
}

/* A run that ended before its run directory was made: RUN_ERROR, and
 * the failure's class in *err. */
static enum run_status refused(int *err, int failure)
{
	if (err)
		*err = failure;
	return RUN_ERROR;
}

enum run_status run_execute(const struct scenario *s, const struct run_config *rc,
			    char **dir, int *err)
{
	struct run r;
	enum run_status st;
	char iso[32];
	char host[256];
	int e;

	memset(&r, 0, sizeof(r));
	r.s = s;
	r.rc = rc;
	r.con_log = r.chan_log = -1;
	r.metered = -1;
	r.vm = (struct vm)VM_INIT;
	r.dir = (struct rundir)RUNDIR_INIT;
	strvec_init(&r.disks);
	r.t0 = now_monotonic();
	*dir = NULL;
	if (err)
		*err = 0;

	r.be = vm_backend_find(rc->backend ? rc->backend : scenario_backend(s));
	if (!r.be)
		return refused(err, error("unknown VM backend '%s'",
					  rc->backend ? rc->backend : scenario_backend(s)));
	if ((e = r.be->check(s->arch, rc->uri)) < 0 || (e = check_host_memory(s)) < 0)
		return refused(err, e);
	/* A layout the kernel cannot hold, when the kernel is at hand: said
	 * before anything is made (kernel_find() fetches and builds nothing;
	 * what it does not find at hand is checked once obtained, and what it
	 * cannot find at all ends the run here, said once). */
	if (scenario_scsi_devices(s) > KERNEL_BSG_MAX_OLD) {
		struct kernel_artifact k = KERNEL_ARTIFACT_INIT;
		struct strbuf what = STRBUF_INIT, why = STRBUF_INIT;

		e = kernel_find(s, kbuild_find, &k, &what);
		if (e == 1)
			e = refuse_layout(s, &k, &why);
		kernel_release(&k);
		sb_release(&what);
		sb_release(&why);
		if (e < 0)
			return refused(err, e);
	}
	if ((e = check_results_space(s, rc->out)) < 0)
		return refused(err, e);
	if ((e = rundir_create(&r.dir, rc->out, s->name)) < 0) {
		rundir_release(&r.dir);
		return refused(err, e);
	}
	r.log = rundir_path(&r.dir, "build.log");
	r.host = host_new();
	timestamp_iso(iso, sizeof(iso));
	json_object_object_add(r.host, "run_id", json_object_new_string(r.dir.id));
	json_object_object_add(r.host, "tool", json_object_new_string("scaletest " SCALETEST_VERSION));
	json_object_object_add(r.host, "started", json_object_new_string(iso));
	/* The host scaletest ran on (JUnit's hostname), not the libvirt host. */
	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = 0;
		json_object_object_add(r.host, "hostname", json_object_new_string(host));
	}
	json_object_object_add(r.host, "scenario_file", str_or_null(s->file));
	json_object_object_add(r.host, "scenario_overrides", scenario_overrides(s));
	console_scan_init(&r.cs);
	records_init(&r.rs, s, r.dir.tmp, &run_records_ops, &r);
	rundir_write_scenario(&r.dir, s);

	r.con_log = open_log(&r, "console.log");
	r.chan_log = open_log(&r, "channel.log");
	if (r.con_log < 0 || r.chan_log < 0) {
		set_error(&r, "cannot create the log files in '%s'", r.dir.tmp);
	} else if ((r.failure = setup_and_boot(&r)) < 0) {
		if (!child_interrupted() && r.k.failure)
			set_error(&r, "refused before build: %s; see build.log", r.k.failure);
		else if (!child_interrupted())
			set_error(&r, "setup failed before boot%s; see build.log",
				  r.failure == ERR_ENV ? " (missing package or tool)" : "");
	} else {
		watch(&r);
	}
	host_setup(&r);
	if (r.con_log >= 0)
		close(r.con_log);
	if (r.chan_log >= 0)
		close(r.chan_log);
	st = write_result(&r);

	if (report_write_dir(r.dir.tmp, rc->quiet ? NULL : stdout) < 0) {
		/* A run whose reports are missing is not a pass: say so in
		 * result.json too, if the disk still takes it. */
		set_error(&r, "cannot write the reports in '%s' (disk full or not writable?); "
			  "'scaletest report' writes them again from result.json", r.dir.tmp);
		if (write_result(&r) == RUN_PASS || st == RUN_PASS)
			st = RUN_ERROR;
	}
	rundir_finish(&r.dir, st == RUN_PASS && !rc->no_latest, dir);
	if (err && st == RUN_ERROR)
		*err = r.failure < 0 ? r.failure : ERR_FAIL;

	vm_release(&r.vm);
	kernel_release(&r.k);
	records_release(&r.rs);
	console_scan_release(&r.cs);
	strvec_clear(&r.disks);
	json_object_put(r.host);
	rundir_release(&r.dir);
	free(r.log);
	free(r.initrd);
	free(r.error);
	return st;
}

int run_exit_code(enum run_status st, int err)
{
	switch (st) {
	case RUN_PASS:
		return EXIT_OK;
	case RUN_INTERRUPTED:
		return EXIT_INTERRUPTED;
	case RUN_ERROR:
		return exit_code(err < 0 ? err : ERR_FAIL);
	default:
		return EXIT_RUNFAIL;
	}
}
