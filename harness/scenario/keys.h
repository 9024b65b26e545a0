/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keys: what a scenario holds, and the table that describes it.  Each
 * field of struct scenario is one key, and each key one row of
 * scenario_keys[] (keys.c, tmux's options-table.c): its name, type,
 * default, range or choices, unit and help.  An enum key's value is the
 * index of its choice, named by the enum beside it (enum arch, ...), and
 * its choices are written in keys.c in the enum's order.
 *
 * The bottom of scenario/: the parser and the rules across keys
 * (scenario.h) and the sweep's arithmetic (sweep.h) stand on it.
 *
 *	const struct scenario_key *k = scenario_key_find("disks");
 *	long long *v = (long long *)((char *)&s + k->offset);	// KT_INT
 *	scenario_keys_markdown(&sb);	// docs/scenarios.md (scaletest keys)
 */
#ifndef SCALETEST_SCENARIO_KEYS_H
#define SCALETEST_SCENARIO_KEYS_H

#include <stddef.h>

#include "lib/strbuf.h"

/* The most scsi_debug hosts (the sd_hosts key's maximum). */
#define SD_HOSTS_MAX 1024

enum arch { ARCH_X86_64, ARCH_I386 };
enum kernel_kind { KERNEL_DEBIAN, KERNEL_FILES, KERNEL_BUILD };
enum virtio_bus { VIRTIO_SCSI, VIRTIO_BLK };
enum channel_kind { CHANNEL_AUTO, CHANNEL_UART, CHANNEL_VIRTIO };
enum accel_choice { ACCEL_AUTO, ACCEL_TCG, ACCEL_KVM };
enum backend_kind { BACKEND_QEMU, BACKEND_LIBVIRT };	/* vm/backends.h by name */
enum initramfs_compress { INITRAMFS_NONE, INITRAMFS_GZIP };	/* guest/initramfs.h */
enum config_base { CONFIG_TINY, CONFIG_DEF };	/* kernel_config_base */

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
	int kernel_config_base;	/* enum config_base */
	char *kernel_fragments;
	long long kernel_build_timeout;
	long long build_jobs;
	long long memory_mb;
	long long cpus;
	int accel;		/* enum accel_choice */
	int backend;		/* enum backend_kind; vm_backend_find(scenario_backend(s)) */
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
	int initramfs_compress;	/* enum initramfs_compress */
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

const struct scenario_key *scenario_key_find(const char *name);
/* The key reference of docs/scenarios.md, as a Markdown table. */
void scenario_keys_markdown(struct strbuf *out);
/* The same as the key list of scaletest-scenario(5): an mdoc .Bl list. */
void scenario_keys_mdoc(struct strbuf *out);

const char *arch_name(int arch);		/* "x86_64", "i386" */
const char *arch_debian(int arch);		/* "amd64", "i386" */
const char *scenario_backend(const struct scenario *s);	/* "qemu", "libvirt" */

#endif
