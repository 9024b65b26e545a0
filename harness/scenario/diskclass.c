// SPDX-License-Identifier: Apache-2.0
/*
 * diskclass: the rows of disk_classes[] (diskclass.h), each with the
 * few functions that are its own.
 */
#include "scenario/diskclass.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* ---- scsi_debug ---------------------------------------------------------- */

void scenario_sd_layout(const struct scenario *s, long long *tgts,
			long long *luns)
{
	long long per_host = scenario_sd_host_disks(s);
	long long l = per_host < 64 ? per_host : 64;

	/* The largest LUN count <= 64 that divides the per-host count. */
	while (l > 1 && per_host % l)
		l--;
	if (l < 1)
		l = 1;
	*luns = l;
	*tgts = per_host / l;
}

/* The kernel's default (elevator_get_default()): none for a queue of
 * several hardware queues, and scsi_debug trims submit_queues to the
 * CPUs; else mq-deadline. */
static const char *sd_scheduler(const struct scenario *s)
{
	return s->sd_submit_queues > 1 && s->cpus > 1 ? "none" : "mq-deadline";
}

/*
 * What a disk costs, by the scheduler it gets and what memory holds it
 * (lowmem on i386).  A scheduler preallocates a request pool per hardware
 * queue (2 x min(queue_depth, 128) requests, each with the driver's
 * per-command data and a sense buffer); none has none.  Measured at 4000
 * disks on Debian's kernels (docs/many-disks.md), some headroom
 * added: mq-deadline 178 kB of LowFree on 686-pae 6.1, 355-357 kB of
 * MemFree on amd64 6.1 and 6.12; none (submit_queues = CPUs = 2) 73.6 kB
 * of LowFree on 686-pae, 121.4 kB of MemFree on amd64 6.12 (127 kB on 6.1,
 * DESIGN.md).  kyber and bfq get mq-deadline's figure: they preallocate
 * the same pool.
 */
static const struct {
	int arch;
	int none;
	long long kb;
} sd_costs[] = {
	{ ARCH_I386, 0, 180 }, { ARCH_I386, 1, 80 },
	{ ARCH_X86_64, 0, 360 }, { ARCH_X86_64, 1, 130 },
};

static long long sd_cost_kb(const struct scenario *s)
{
	int none = !strcmp(scenario_disk_scheduler(s), "none");

	for (size_t i = 0; i < ARRAY_SIZE(sd_costs); i++)
		if (sd_costs[i].arch == s->arch && sd_costs[i].none == none)
			return sd_costs[i].kb;
	return 360;
}

/* add_host x num_tgts x max_luns = disks (a sweep adds its hosts later),
 * no delay, one shared store. */
static void sd_params(const struct scenario *s, struct strbuf *out)
{
	long long tgts, luns;

	scenario_sd_layout(s, &tgts, &luns);
	sb_addf(out, "add_host=%lld num_tgts=%lld max_luns=%lld delay=0 "
		"dev_size_mb=%lld fake_rw=%d",
		*s->sweep ? 0 : s->sd_hosts, tgts, luns, s->sd_dev_size_mb, s->sd_fake_rw);
	if (s->sd_max_queue)
		sb_addf(out, " max_queue=%lld", s->sd_max_queue);
	if (s->sd_submit_queues)
		sb_addf(out, " submit_queues=%lld", s->sd_submit_queues);
}

static void sd_layout(const struct scenario *s, struct strvec *out)
{
	long long tgts, luns;

	scenario_sd_layout(s, &tgts, &luns);
	strvec_pushf(out, "add_host=%lld", s->sd_hosts);
	strvec_pushf(out, "num_tgts=%lld", tgts);
	strvec_pushf(out, "max_luns=%lld", luns);
}

/* What the plan (run --dry-run) says of the disks. */
static void sd_describe(const struct scenario *s, struct strbuf *out)
{
	long long tgts, luns;

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
	} else {
		scenario_sd_layout(s, &tgts, &luns);
		sb_addf(out, "  %lld scsi_debug (%lld host%s x %lld targets x %lld LUNs, "
			"%lld MiB each%s)\n", s->disks, s->sd_hosts, s->sd_hosts > 1 ? "s" : "",
			tgts, luns, s->sd_dev_size_mb, s->sd_fake_rw ? ", fake_rw" : ", one shared store");
	}
}


static const char *const sd_make[] = { "scsi_debug", NULL };

/* ---- null_blk ------------------------------------------------------------ */

/* bio mode has no scheduler at all; mq the kernel's default: none with
 * several hardware queues (null_blk trims submit_queues to the CPUs),
 * else mq-deadline. */
static const char *nullb_scheduler(const struct scenario *s)
{
	if (s->nullb_queue_mode == 1)
		return "none";
	return s->nullb_submit_queues > 1 && s->cpus > 1 ? "none" : "mq-deadline";
}

/* Not measured yet: scsi_debug's figures, which hold a request pool of
 * the same shape (2 x min(queue_depth, 128) requests a hardware queue)
 * with larger per-command data. */
static long long nullb_cost_kb(const struct scenario *s)
{
	int none = !strcmp(scenario_disk_scheduler(s), "none");

	return s->arch == ARCH_I386 ? (none ? 80 : 180) : (none ? 130 : 360);
}

/* nr_devices of them at load (none for a sweep: its steps make them in
 * null_blk's configfs, with these as their defaults). */
static void nullb_params(const struct scenario *s, struct strbuf *out)
{
	sb_addf(out, "nr_devices=%lld queue_mode=%d memory_backed=%d shared_tags=%d",
		*s->sweep ? 0 : s->disks, s->nullb_queue_mode == 1 ? 0 : 2,
		s->nullb_memory_backed, s->nullb_shared_tags);
	if (s->nullb_submit_queues)
		sb_addf(out, " submit_queues=%lld", s->nullb_submit_queues);
}

static void nullb_layout(const struct scenario *s, struct strvec *out)
{
	strvec_pushf(out, "nr_devices=%lld", s->disks);
	strvec_pushf(out, "queue_mode=%s", s->nullb_queue_mode == 1 ? "bio" : "mq");
	strvec_pushf(out, "submit_queues=%lld", s->nullb_submit_queues ? s->nullb_submit_queues : 1);
	strvec_pushf(out, "shared_tags=%d", s->nullb_shared_tags);
	strvec_pushf(out, "memory_backed=%d", s->nullb_memory_backed);
}

static void nullb_describe(const struct scenario *s, struct strbuf *out)
{
	struct strbuf p = STRBUF_INIT;

	nullb_params(s, &p);
	if (*s->sweep) {
		long long *st;
		size_t n;

		scenario_sweep(s, &st, &n);
		sb_adds(out, "  sweep of null_blk devices in one boot:");
		for (size_t i = 0; i < n; i++)
			sb_addf(out, "%s %lld", i ? "," : "", st[i]);
		sb_addf(out, "\n  steps of %lld devices made in null_blk's configfs (insmod null_blk %s)\n",
			scenario_sd_host_disks(s), p.buf);
		free(st);
	} else {
		sb_addf(out, "  %lld null_blk (insmod null_blk %s), scheduler %s\n", s->disks, p.buf,
			scenario_disk_scheduler(s));
	}
	sb_release(&p);
}

static int is_sweep(const struct scenario *s)
{
	return *s->sweep != '\0';
}

static const char *const nullb_make[] = { "null_blk", NULL };
static const struct disk_class_need nullb_needs[] = {
	{ "BLK_DEV_NULL_BLK", "null_blk", "null_blk (the block layer's test device)", NULL },
	{ "CONFIGFS_FS", "configfs", "configfs (a sweep makes its null_blk devices there)", is_sweep },
	{ NULL, NULL, NULL, NULL },
};

/* ---- nvme_loop ----------------------------------------------------------- */

/* Subsystems of nvme_ns_per_subsys namespaces, the last perhaps fewer. */
static long long nvme_subsystems(const struct scenario *s)
{
	long long n = scenario_sweep_peak(s);

	return (n + s->nvme_ns_per_subsys - 1) / s->nvme_ns_per_subsys;
}

static int nvme_tcp(const struct scenario *s)
{
	return s->nvme_transport == 1;
}

static int nvme_loop(const struct scenario *s)
{
	return s->nvme_transport == 0;
}

/* A controller's I/O queues (one a CPU by default): several make the
 * path devices' scheduler none, one mq-deadline.  The namespaces the
 * host shows are the multipath heads, bio-based, with no scheduler. */
static const char *nvme_scheduler(const struct scenario *s)
{
	long long q = s->nvme_io_queues ? s->nvme_io_queues : s->cpus;

	return q > 1 && s->cpus > 1 ? "none" : "mq-deadline";
}

/* Not measured yet: scsi_debug's figures and the target's side. */
static long long nvme_cost_kb(const struct scenario *s)
{
	int none = !strcmp(scenario_disk_scheduler(s), "none");

	return s->arch == ARCH_I386 ? (none ? 120 : 220) : (none ? 200 : 420);
}

/* The backing device of every namespace (one null_blk device that keeps
 * no data), then the target and its transport. */
static void nvme_prepare(const struct scenario *s, struct strvec *out)
{
	strvec_push(out, "null_blk nr_devices=1 memory_backed=0 queue_mode=2");
	strvec_push(out, "nvmet");
	strvec_push(out, nvme_tcp(s) ? "nvmet_tcp" : "nvme_loop");
	if (nvme_tcp(s))
		strvec_push(out, "nvme_tcp");
}

/* The guest's settings: numbers and fixed words only. */
static void nvme_conf(const struct scenario *s, struct strbuf *out)
{
	sb_addf(out, "NVME_PER=%lld\nNVME_SUBSYS=%lld\nNVME_TRANSPORT=%s\nNVME_IOQ=%lld\n",
		s->nvme_ns_per_subsys, nvme_subsystems(s), nvme_tcp(s) ? "tcp" : "loop",
		s->nvme_io_queues);
}

static void nvme_layout(const struct scenario *s, struct strvec *out)
{
	strvec_pushf(out, "subsystems=%lld", nvme_subsystems(s));
	strvec_pushf(out, "namespaces_per_subsystem=%lld", s->nvme_ns_per_subsys);
	strvec_pushf(out, "transport=%s", nvme_tcp(s) ? "tcp" : "loop");
	strvec_pushf(out, "io_queues=%lld", s->nvme_io_queues);
	strvec_push(out, "backing=null_blk");
}

static void nvme_describe(const struct scenario *s, struct strbuf *out)
{
	sb_addf(out, "  %lld nvme_loop namespaces: %lld NVMe target subsystem%s of %lld "
		"namespaces, each a controller over nvme-%s, all backed by one null_blk device "
		"(memory_backed=0), made before the before-insmod snapshot; the connects are "
		"measured\n", scenario_sweep_peak(s), nvme_subsystems(s),
		nvme_subsystems(s) > 1 ? "s" : "",
		scenario_sweep_peak(s) < s->nvme_ns_per_subsys ? scenario_sweep_peak(s) : s->nvme_ns_per_subsys,
		nvme_tcp(s) ? "tcp over 127.0.0.1" : "loop");
}
/* A sweep connects whole subsystems, and has no more than it made. */
static int nvme_check(const struct scenario *s, const char **key, struct strbuf *err)
{
	if (s->nvme_ns_per_subsys > NVME_NS_PER_SUBSYS_MAX) {
		*key = "nvme_ns_per_subsys";
		sb_addf(err, "%lld namespaces a subsystem are more than the %d the kernel's NVMe "
			"target holds (NVMET_MAX_NAMESPACES, drivers/nvme/target/nvmet.h, 6.1 to 7.x): "
			"the disks fill more subsystems of at most %d", s->nvme_ns_per_subsys,
			NVME_NS_PER_SUBSYS_MAX, NVME_NS_PER_SUBSYS_MAX);
		return -1;
	}
	if (*s->sweep && scenario_sd_host_disks(s) % s->nvme_ns_per_subsys) {
		*key = "sweep";
		sb_addf(err, "a sweep of nvme_loop namespaces connects whole subsystems of "
			"nvme_ns_per_subsys (%lld): every step must be a multiple of it",
			s->nvme_ns_per_subsys);
		return -1;
	}
	if (s->sweep_floor_mb) {
		*key = "sweep_floor_mb";
		sb_adds(err, "sweep_floor_mb goes past the sweep's last step, and nvme_loop's target "
			"has only the subsystems of its peak");
		return -1;
	}
	if (s->scheduler || s->nr_requests) {
		*key = s->scheduler ? "scheduler" : "nr_requests";
		sb_adds(err, "scheduler and nr_requests are not set on nvme_loop namespaces: the "
			"host's devices are bio-based multipath heads (their paths are hidden)");
		return -1;
	}
	return 0;
}

static const char *const nvme_probe[] = { "nvme_ns_per_subsys=256", NULL };

static const struct disk_class_need nvme_needs[] = {
	{ "CONFIGFS_FS", "configfs", "configfs (the NVMe target is set up there)", NULL },
	{ "BLK_DEV_NULL_BLK", "null_blk", "null_blk (the namespaces' backing device)", NULL },
	{ "NVME_TARGET", "nvmet", "the NVMe target (nvmet)", NULL },
	{ "NVME_TARGET_LOOP", "nvme-loop", "the NVMe target's loop transport (nvme-loop)",
	  nvme_loop },
	{ "NVME_TARGET_TCP", "nvmet-tcp", "the NVMe target's TCP transport (nvmet-tcp)", nvme_tcp },
	{ "NVME_TCP", "nvme-tcp", "the NVMe host's TCP transport (nvme-tcp)", nvme_tcp },
	{ NULL, NULL, NULL, NULL },
};

/* ---- what the class decides for a scenario -------------------------------- */

const char *scenario_disk_scheduler(const struct scenario *s)
{
	if (s->scheduler)
		return scenario_key_find("scheduler")->choices[s->scheduler];
	return disk_class_of(s)->scheduler(s);
}

/* disk_cost_kb, or the class's measured cost of a device. */
long long scenario_disk_cost_kb(const struct scenario *s)
{
	if (s->disk_cost_kb)
		return s->disk_cost_kb;
	return disk_class_of(s)->cost_kb(s);
}


int scenario_sd_crowded(const struct scenario *s, struct strbuf *why)
{
	long long per = scenario_sd_host_disks(s), n = scenario_sweep_peak(s), h;
	struct strbuf way = STRBUF_INIT;

	if (disk_class_of(s) != disk_classes || per <= SD_HOST_CROWDED)
		return 0;
	for (h = *s->sweep ? 2 : s->sd_hosts + 1; h <= SD_HOSTS_MAX; h++)
		if (n % h == 0 && n / h <= SD_HOST_SPREAD)
			break;
	if (h <= SD_HOSTS_MAX)
		sb_addf(&way, "sd_hosts = %lld (%lld disks a host)", h, n / h);
	else
		sb_addf(&way, "no sd_hosts up to %d divides %lld disks into hosts of at most %d",
			SD_HOSTS_MAX, n, SD_HOST_SPREAD);
	sb_addf(why, "%lld disks a scsi_debug host: insmod returns long after the last "
		"of them appears (32,768 disks on one host took 20%% longer than over 32 hosts: "
		"docs/many-disks.md); ", per);
	if (*s->sweep)
		sb_addf(why, "a sweep adds hosts of its steps' greatest common divisor and "
			"cannot spread them; a run of its peak can: %s", way.buf);
	else
		sb_addf(why, "spread them: %s", way.buf);
	sb_release(&way);
	return 1;
}

/* ---- the table ----------------------------------------------------------- */

const struct disk_class disk_classes[] = {
	{
		.name = "scsi_debug",
		.devices = "scsi_debug disks",
		.device = "scsi_debug disk",
		.making = "insmod scsi_debug",
		.unit = "scsi_debug hosts",
		.script = "class-scsi_debug.sh",
		.make = sd_make,
		.params = sd_params,
		.naming = NAMING_SD,
		.scsi = 1,
		.max_devices = SD_MAX_DISKS,
		.max_why = "the sd driver names (its 20-bit index)",
		.none_hint = "sd_submit_queues = cpus, cpus > 1",
		.scheduler = sd_scheduler,
		.cost_kb = sd_cost_kb,
		.layout = sd_layout,
		.describe = sd_describe,
	},
	{
		.name = "null_blk",
		.devices = "null_blk devices",
		.device = "null_blk device",
		.making = "insmod null_blk",
		.unit = "units (configfs devices)",
		.script = "class-null_blk.sh",
		.make = nullb_make,
		.params = nullb_params,
		.naming = NAMING_NULLB,
		.max_devices = NULLB_MAX_DEVICES,
		.none_hint = "nullb_submit_queues = cpus, cpus > 1, or nullb_queue_mode = bio",
		.max_why = "null_blk gives each device one minor of its own major, its index "
			   "(MINORBITS: 20 bits)",
		.needs = nullb_needs,
		.instead = "use a kernel with CONFIG_BLK_DEV_NULL_BLK (and CONFIGFS_FS for a "
			   "sweep; Debian's have both as modules, 6.1 on), or disk_class = scsi_debug",
		.scheduler = nullb_scheduler,
		.cost_kb = nullb_cost_kb,
		.layout = nullb_layout,
		.describe = nullb_describe,
	},
	{
		.name = "nvme_loop",
		.devices = "nvme_loop namespaces",
		.device = "nvme_loop namespace",
		.making = "nvme_loop connect",
		.unit = "NVMe subsystems",
		.script = "class-nvme_loop.sh",
		.prepare = nvme_prepare,
		.conf = nvme_conf,
		.naming = NAMING_NVME,
		.max_devices = NVME_MAX_NAMESPACES,
		.max_why = "each namespace takes two of the 2^20 minors of the block layer's "
			   "extended major (its multipath head and its path) and two of NVMe's "
			   "2^20 generic character devices",
		.none_hint = "nvme_io_queues = 0 (one a CPU) and cpus > 1",
		.needs = nvme_needs,
		.check = nvme_check,
		.probe = nvme_probe,
		.instead = "Debian builds nvme-loop from 6.12 on (kernel_package = "
			   "linux-image-6.12-amd64, or kernel_source = debian:6.12), and 6.1 has "
			   "nvmet-tcp and nvme-tcp: nvme_transport = tcp",
		.scheduler = nvme_scheduler,
		.cost_kb = nvme_cost_kb,
		.layout = nvme_layout,
		.describe = nvme_describe,
	},
};
const size_t disk_nclasses = ARRAY_SIZE(disk_classes);

const struct disk_class *disk_class_of(const struct scenario *s)
{
	return s->disk_class > 0 && (size_t)s->disk_class < disk_nclasses
	       ? &disk_classes[s->disk_class] : &disk_classes[0];
}

const struct disk_class *disk_class_find(const char *name)
{
	for (size_t i = 0; i < disk_nclasses; i++)
		if (!strcmp(disk_classes[i].name, name))
			return &disk_classes[i];
	return NULL;
}

int disk_class_key_applies(const struct scenario *s, const struct scenario_key *k)
{
	/* The class itself is said when it is not the first (results before
	 * classes have none, and are scsi_debug's). */
	if (k->offset == offsetof(struct scenario, disk_class))
		return disk_class_of(s) != disk_classes;
	return !k->cls || !strcmp(k->cls, disk_class_of(s)->name);
}
