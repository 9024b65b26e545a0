/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scenario: what one run asks for, read from a scenario file.
 *
 * A scenario file is lines of "key = value"; '#' starts a comment (outside
 * double quotes); blank lines are ignored; a value may be double-quoted to
 * keep spaces or '#', and inside the quotes \" is a quote and \\ a backslash
 * (scenario_quote() writes a value so).  Every key is one row of
 * scenario_keys[] (keys.c) with its type, range, default, unit and help:
 * the same table validates files and --set overrides, fills result.json's
 * "settings", and prints the key reference of docs/scenarios.md (scaletest keys).
 *
 * The scenario file is untrusted input: it is parsed here, never sourced by
 * a shell, and every value is checked against its row before anything runs.
 * Errors point at the input: "scenarios/x:12: unknown key 'dsks' (did you
 * mean 'disks'?)".
 *
 * Calling sequence:
 *
 *	struct scenario s;
 *	scenario_init(&s);				// all defaults
 *	if (scenario_load(&s, path, &err) < 0 ||	// read and parse
 *	    scenario_set(&s, "disks=200", "--set", &err) < 0 ||
 *	    scenario_check(&s, &err) < 0)		// rules across keys
 *		fail with err.buf (exit 2)
 *	... s.disks, s.arch ...
 *	scenario_release(&s);
 *
 * scenario_parse() does the same as scenario_load() from a buffer, for tests.
 * Commands call scenario_open(&s, path, &sets), which does all of the above
 * with each "key=value" of sets as --set and prints the error.
 */
#ifndef SCALETEST_SCENARIO_H
#define SCALETEST_SCENARIO_H

#include <stddef.h>

#include "lib/strbuf.h"
#include "lib/strvec.h"

enum arch { ARCH_X86_64, ARCH_I386 };
enum kernel_kind { KERNEL_DEBIAN, KERNEL_FILES, KERNEL_BUILD };
enum virtio_bus { VIRTIO_SCSI, VIRTIO_BLK };
enum channel_kind { CHANNEL_AUTO, CHANNEL_UART, CHANNEL_VIRTIO };
enum accel_choice { ACCEL_AUTO, ACCEL_TCG, ACCEL_KVM };

struct scenario {
	char *file;		/* where it was loaded from, or NULL */
	char *dir;		/* relative paths in the file are taken from here */

	char *name;
	char *description;
	int arch;		/* enum arch */
	int kernel;		/* enum kernel_kind */
	char *kernel_package;	/* "" = the arch's default */
	char *kernel_suite;	/* "" = the host's apt (kernel/apt.h) */
	char *kernel_image;
	char *kernel_modules;
	char *kernel_source;	/* "debian", "debian:X.Y" or a path */
	char *kernel_rev;		/* a commit of kernel_source, or "" */
	char *kernel_patches;
	int kernel_config_base;	/* 0 tinyconfig, 1 defconfig */
	char *kernel_fragments;
	long long kernel_build_timeout;
	long long build_jobs;
	long long memory_mb;
	long long cpus;
	int accel;		/* enum accel_choice */
	int backend;		/* 0 qemu, 1 libvirt: vm_backend_find(scenario_backend(s)) */
	long long disks;
	char *sweep;		/* "" or the disk counts of a sweep: scenario_sweep() */
	long long sweep_floor_mb;	/* 0, or go on past the list to the knee */
	long long sd_hosts;
	long long sd_dev_size_mb;
	int sd_fake_rw;
	long long virtio_disks;
	int virtio_bus;		/* enum virtio_bus */
	int channel;		/* enum channel_kind: the record channel */
	long long virtio_disk_mb;
	long long io_mb;
	int rmmod;
	int rmmod_rcu_expedited;
	long long rmmod_tolerance_pct;
	long long rmmod_tolerance_kb;
	long long sd_max_queue;
	long long sd_submit_queues;
	int scheduler;		/* index into the choices; 0 = default */
	long long nr_requests;
	int fio;
	long long fio_runtime;
	long long fio_bs_kb;
	long long fio_sample_disks;
	char *fio_sample_indexes;
	int fio_all;
	long long monitor_interval_ms;
	long long monitor_max_cpu_pct;
	int attribution;
	int time_attribution;
	long long time_attribution_max_cpu_pct;
	int slab_nomerge;
	int initramfs_compress;	/* INITRAMFS_NONE, INITRAMFS_GZIP */
	long long loglevel;
	char *cmdline;
	long long guest_output_mb;	/* console and channel, each */
	long long disk_cost_kb;	/* 0 = the arch's measured default */
	long long timeout_boot;
	long long timeout_insmod;
	long long timeout_io;
	long long timeout_rmmod;

	/* Where each key was set: line in file (> 0), -1 for --set, 0 default. */
	int *origin;
};

enum key_type { KT_INT, KT_BOOL, KT_ENUM, KT_STRING, KT_PATH };

struct scenario_key {
	const char *name;
	enum key_type type;
	size_t offset;
	const char *def;		/* default, as it would be written */
	long long min, max;		/* KT_INT */
	const char *unit;
	const char *const *choices;	/* KT_ENUM, NULL-terminated */
	const char *help;
};

extern const struct scenario_key scenario_keys[];
extern const size_t scenario_nkeys;

void scenario_init(struct scenario *s);
void scenario_release(struct scenario *s);
/* A deep copy (values, origins, file and dir) to change and run apart. */
void scenario_copy(struct scenario *dst, const struct scenario *src);
int scenario_load(struct scenario *s, const char *path, struct strbuf *err);
int scenario_parse(struct scenario *s, const char *file, const char *buf,
		   size_t len, struct strbuf *err);
/* Apply "key=value"; where names the source in messages ("--set"). */
int scenario_set(struct scenario *s, const char *assignment, const char *where,
		 struct strbuf *err);
int scenario_check(struct scenario *s, struct strbuf *err);
/* All of the above for the command line: init, load path, apply each
 * "key=value" of sets as --set, check; on error prints it and returns -1
 * (the caller still calls scenario_release). */
int scenario_open(struct scenario *s, const char *path, const struct strvec *sets);

const struct scenario_key *scenario_key_find(const char *name);
/* The value of a key as text (enum names, 0/1 for bools). */
void scenario_value(const struct scenario *s, const struct scenario_key *k,
		    struct strbuf *out);
/* A value as a scenario file writes it: bare, or double-quoted with \" and
 * \\ when it is empty or holds a blank, '#', '"' or a backslash, so that
 * reading the line back gives the value again. */
void scenario_quote(const char *v, struct strbuf *out);
/* The key reference of docs/scenarios.md, as a Markdown table. */
void scenario_keys_markdown(struct strbuf *out);
/* The same as the key list of scaletest-scenario(5): an mdoc .Bl list. */
void scenario_keys_mdoc(struct strbuf *out);

/* Derived facts. */
const char *arch_name(int arch);		/* "x86_64", "i386" */
const char *arch_debian(int arch);		/* "amd64", "i386" */
const char *scenario_backend(const struct scenario *s);	/* "qemu", "libvirt" */
const char *scenario_kernel_package(const struct scenario *s);
/* Whether a kernel_source value names Debian's source: "debian" (the
 * linux-source package of the prebuilt kernel's version; *series = "")
 * or "debian:6.12" (linux-source-6.12, whatever the prebuilt kernels are;
 * *series = "6.12").  1 or 0; series (at least 16 bytes) may be NULL. */
int scenario_debian_source(const char *source, char *series, size_t n);
/* The I/O scheduler the scsi_debug disks get: the scheduler key, or what
 * the kernel picks ("none" with several hardware queues, else
 * "mq-deadline"). */
const char *scenario_disk_scheduler(const struct scenario *s);
/* disk_cost_kb, or the measured cost of a disk with that scheduler. */
long long scenario_disk_cost_kb(const struct scenario *s);
/* The scheduler's name, or "" for the kernel's default. */
const char *scenario_scheduler(const struct scenario *s);
/* The scsi_debug disk indexes of fio's sample job, sorted, unique. */
void scenario_fio_sample(const struct scenario *s, long **idx, size_t *n);
/*
 * A sweep (the sweep key, "0,250,500,1000"): one boot that loads scsi_debug
 * without hosts, then adds (or removes) hosts of scenario_sd_host_disks()
 * disks each until each step's count, with a snapshot after each.  The
 * list rises strictly to its peak, then may fall strictly; its last step
 * (> 0) is the run's disks.  scenario_sweep() gives the steps (a new array,
 * *n = 0 and NULL without a sweep); scenario_check() has validated them.
 */
#define SWEEP_MAX_STEPS 64
/* sd's 20-bit disk index: the most disks it names (sdbgqcv the last). */
#define SD_MAX_DISKS 1048576
#define SWEEP_MAX_HOSTS 1024
/* The steps of a sweep list ("0,250,500"); -1 with why on a bad one. */
int scenario_sweep_parse(const char *list, long long **steps, size_t *n,
			 struct strbuf *why);
void scenario_sweep(const struct scenario *s, long long **steps, size_t *n);
long long scenario_sweep_peak(const struct scenario *s);	/* disks without a sweep */
/* Disks per scsi_debug host: disks / sd_hosts, or the gcd of a sweep's
 * non-zero steps. */
long long scenario_sd_host_disks(const struct scenario *s);
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
 * else 0.
 */
#define SD_HOSTS_MAX 1024
#define SD_HOST_CROWDED 4096
#define SD_HOST_SPREAD 1024
int scenario_sd_crowded(const struct scenario *s, struct strbuf *why);

#endif
