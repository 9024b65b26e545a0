/* SPDX-License-Identifier: Apache-2.0 */
/*
 * diskclass: the kinds of scaled disk a run can make, one row each
 * (disk_classes[] in diskclass.c, as vm.c's backends[] holds the VM
 * backends): scsi_debug first, the default.  A row says everything the
 * harness knows of its class:
 *
 *	how N are made		the modules loaded before the before-insmod
 *				snapshot (prepare: not counted), the module
 *				whose load makes them (make) and its
 *				parameters (params), and the guest script
 *				that makes, counts and removes them
 *				(initramfs/lib/class-NAME.sh)
 *	their names and dev_t	naming (the sd sequence, nullb0.., nvmeSnN)
 *	what the kernel must	needs: the .config options and modules, with
 *	have			what to use instead (kernel/limits.c checks
 *				them before boot)
 *	their limits		max_devices and why (scenario_check)
 *	what one costs		cost_kb: the memory check's expected cost
 *				per device (scenario_check, run/sizing.c)
 *	its own keys		the rows of scenario_keys[] whose cls names it
 *
 * The guest script defines the functions /init and lib/sweep.sh call
 * (initramfs/lib/class-scsi_debug.sh is the model): class_prepare,
 * class_make, class_count_v, class_names, class_remove, and for a sweep
 * class_sweep_start and class_step.  A new class is one row here, its
 * script, and its keys' rows in keys.c; docs/internals.md "Where to add
 * things".
 *
 *	const struct disk_class *c = disk_class_of(&s);
 *	c->params(&s, &sb);		// "add_host=1 num_tgts=..."
 */
#ifndef SCALETEST_DISKCLASS_H
#define SCALETEST_DISKCLASS_H

#include <stddef.h>

#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "scenario/keys.h"
#include "scenario/sweep.h"

/* How a class names its devices, index i from 0. */
enum disk_naming {

	NAMING_SD,		/* the sd sequence: sda .. sdz, sdaa .. (contract.h) */
	NAMING_NULLB,		/* nullb0, nullb1 ..: "nullb" and the index */
	NAMING_NVME,		/* nvme0n1 .. nvme0n1024, nvme1n1 ..: subsystem, namespace */
};

/* One thing the kernel must provide: a .config option (without CONFIG_)
 * and the module it builds (NULL: built in or nothing to load), in words. */
struct disk_class_need {
	const char *config;
	const char *module;
	const char *what;
	int (*when)(const struct scenario *s);	/* needed only when it says so, or NULL */
};

/* null_blk: one minor of its own major a device, the index (MINORBITS). */
#define NULLB_MAX_DEVICES 1048576
/* NVMe namespaces: two extended block minors each (head and path). */
#define NVME_MAX_NAMESPACES 524288

struct disk_class {
	const char *name;		/* the disk_class value; result.json's disks.class */
	const char *devices;		/* "scsi_debug disks": the reports' noun */
	const char *device;		/* "scsi_debug disk": one of them */
	const char *making;		/* "insmod scsi_debug": what makes them, in words */
	const char *unit;		/* "scsi_debug hosts": what a sweep step adds */
	const char *script;		/* initramfs/lib/NAME: the guest's side */
	/* The modules loaded before before-insmod (not counted), in order: "NAME"
	 * or "NAME PARAMS" each; NULL: none. */
	void (*prepare)(const struct scenario *s, struct strvec *out);
	const char *const *make;	/* modules whose load makes the devices; the
					 * last gets params() */
	void (*params)(const struct scenario *s, struct strbuf *out);
	/* More of the guest's settings (/etc/scaletest.conf): "KEY=value" lines
	 * of numbers and fixed words; NULL: none. */
	void (*conf)(const struct scenario *s, struct strbuf *out);
	int naming;			/* enum disk_naming */
	int scsi;			/* SCSI devices: bsg's minors, virtio-scsi
					 * disks named after them */
	long long max_devices;		/* the most one boot may make */
	const char *max_why;		/* what sets max_devices */
	const struct disk_class_need *needs;	/* NULL-terminated by config */
	/* Its own rules across keys (scenario_check), or NULL: 0, or -1 with
	 * why and, in *key, the key to blame. */
	int (*check)(const struct scenario *s, const char **key, struct strbuf *why);
	const char *instead;		/* what to use where the kernel lacks a need */
	/* The scheduler its devices get by default, and what one costs. */
	const char *(*scheduler)(const struct scenario *s);
	long long (*cost_kb)(const struct scenario *s);
	/* How its devices get scheduler none, for the memory check's refusal. */
	const char *none_hint;
	/* The layout result.json keeps under disks.NAME: "key=value" pairs,
	 * the values whole numbers or words. */
	void (*layout)(const struct scenario *s, struct strvec *out);
	/* What run --dry-run says of the devices, a line or two (disks > 0). */
	void (*describe)(const struct scenario *s, struct strbuf *out);
	/* More settings for run/sizing.c's probe (a sweep of 0, 256 and 512
	 * devices), NULL-terminated, or NULL. */
	const char *const *probe;
};

extern const struct disk_class disk_classes[];
extern const size_t disk_nclasses;

/* The scenario's class (scsi_debug until the disk_class key says
 * otherwise). */
const struct disk_class *disk_class_of(const struct scenario *s);
/* The row of that name, or NULL. */
const struct disk_class *disk_class_find(const char *name);
/* Whether key k is one of s: every key but another disk class's own
 * (scenario_key.cls).  result.json's settings, the run's scenario.scn and
 * the plan hold only these. */
int disk_class_key_applies(const struct scenario *s, const struct scenario_key *k);

/* The I/O scheduler the disks get: the scheduler key, or what the kernel
 * picks for the disk class ("none" with several hardware queues, else
 * "mq-deadline"; the row's scheduler()). */
const char *scenario_disk_scheduler(const struct scenario *s);
/* disk_cost_kb, or the class's measured cost of a disk with that
 * scheduler (the row's cost_kb()). */
long long scenario_disk_cost_kb(const struct scenario *s);

/* scsi_debug layout of one host: scenario_sd_host_disks() = tgts * luns. */
void scenario_sd_layout(const struct scenario *s, long long *tgts,
			long long *luns);
/*
 * Disks per scsi_debug host.  scsi_debug makes, with each host, the state
 * of every device the host may have (num_tgts * max_luns entries in one
 * list) and walks the whole list for each device that has no state yet
 * (find_build_dev_info), and the scan of one host is one task.  Measured
 * on Debian's 6.12 under TCG (docs/many-disks.md): the disks appear at the
 * same pace on one host as over many, but insmod returns a fifth later on
 * one (8,192 disks: 34.3 s against 28.4 over 8 hosts; 32,768: 473 s
 * against 393 over 32), at the same memory per disk and rmmod time.
 * scenario_sd_crowded(): 1, with that and the way out added to why, when
 * a host has more than SD_HOST_CROWDED disks (the fewest sd_hosts, up to
 * SD_HOSTS_MAX, that make hosts of at most SD_HOST_SPREAD, as measured),
 * else 0 (always 0 for a class but scsi_debug).
 */
#define SD_HOST_CROWDED 4096
#define SD_HOST_SPREAD 1024
int scenario_sd_crowded(const struct scenario *s, struct strbuf *why);

#endif
