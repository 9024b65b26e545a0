// SPDX-License-Identifier: Apache-2.0
/*
 * diskclass: the rows of disk_classes[] (diskclass.h), each with the
 * few functions that are its own.
 */
#include "scenario/diskclass.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* ---- scsi_debug ---------------------------------------------------------- */

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

/* ---- what scenario.h says through the class ------------------------------- */

const char *scenario_disk_scheduler(const struct scenario *s)
{
	if (s->scheduler)
		return scenario_scheduler(s);
	return disk_class_of(s)->scheduler(s);
}

/* disk_cost_kb, or the class's measured cost of a device (diskclass.c). */
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
		.script = "class-scsi_debug.sh",
		.make = sd_make,
		.params = sd_params,
		.naming = NAMING_SD,
		.scsi = 1,
		.max_devices = SD_MAX_DISKS,
		.max_why = "the sd driver names (its 20-bit index)",
		.scheduler = sd_scheduler,
		.cost_kb = sd_cost_kb,
		.layout = sd_layout,
		.describe = sd_describe,
	},
};
const size_t disk_nclasses = ARRAY_SIZE(disk_classes);

const struct disk_class *disk_class_of(const struct scenario *s)
{
	(void)s;
	return &disk_classes[0];
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
	return !k->cls || !strcmp(k->cls, disk_class_of(s)->name);
}
