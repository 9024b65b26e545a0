// SPDX-License-Identifier: Apache-2.0
/*
 * keys: the scenario key table, one row per key (tmux's options-table.c):
 * its name, type, default, range or choices, unit and help.  Everything
 * about a key that is not a rule across keys is here:
 *
 *	scenario.c	reads a value against its row (store), fills the
 *			defaults, checks the rules across keys
 *	keys.c		the rows; scenario_key_find(); the key reference as
 *			Markdown (scaletest keys, make readme-keys) and as
 *			mdoc (scaletest keys --format mdoc, make man-keys)
 *
 * A new key: a field in struct scenario (keys.h), a row below (the
 * macros name the field after the key), and where it is used.  The key
 * reference (docs/scenarios.md, make docs-keys) and scaletest-scenario(5)
 * are then regenerated from the row; a rule that
 * ties the key to others goes in scenario_check() (scenario.c).
 */
#include "scenario/keys.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include "lib/util.h"

/* An enum key's choices, each at its enum's value (keys.h). */
static const char *const arch_choices[] = { [ARCH_X86_64] = "x86_64", [ARCH_I386] = "i386", NULL };
static const char *const kernel_choices[] = {
	[KERNEL_DEBIAN] = "debian", [KERNEL_FILES] = "files", [KERNEL_BUILD] = "build", NULL };
static const char *const config_choices[] = {
	[CONFIG_TINY] = "tinyconfig", [CONFIG_DEF] = "defconfig", NULL };
static const char *const bus_choices[] = { [VIRTIO_SCSI] = "scsi", [VIRTIO_BLK] = "blk", NULL };
static const char *const channel_choices[] = {
	[CHANNEL_AUTO] = "auto", [CHANNEL_UART] = "uart", [CHANNEL_VIRTIO] = "virtio", NULL };
static const char *const accel_choices[] = {
	[ACCEL_AUTO] = "auto", [ACCEL_TCG] = "tcg", [ACCEL_KVM] = "kvm", NULL };
static const char *const compress_choices[] = {
	[INITRAMFS_NONE] = "none", [INITRAMFS_GZIP] = "gzip", NULL };
/* The scheduler's name itself: 0 ("default") is the kernel's choice. */
static const char *const sched_choices[] = { "default", "none", "mq-deadline", "kyber", "bfq", NULL };
static const char *const backend_choices[] = {
	[BACKEND_QEMU] = "qemu", [BACKEND_LIBVIRT] = "libvirt", NULL };

#define OFF(f) offsetof(struct scenario, f)
#define INT(n, d, lo, hi, u, h) { #n, KT_INT, OFF(n), d, lo, hi, u, NULL, h }
#define BOOL(n, d, h) { #n, KT_BOOL, OFF(n), d, 0, 1, NULL, NULL, h }
#define ENUM(n, d, c, h) { #n, KT_ENUM, OFF(n), d, 0, 0, NULL, c, h }
#define STR(n, d, h) { #n, KT_STRING, OFF(n), d, 0, 0, NULL, NULL, h }
#define PATH(n, h) { #n, KT_PATH, OFF(n), "", 0, 0, NULL, NULL, h }

/* The per-disk memory defaults (disk_cost_kb): disk_costs[] in scenario.c. */
const struct scenario_key scenario_keys[] = {
	STR(name, "", "Run name; defaults to the scenario file's name. Letters, digits, '.', '_', '-'."),
	STR(description, "", "One line saying what the scenario is for."),
	ENUM(arch, "x86_64", arch_choices, "Guest architecture: x86_64 (amd64 kernel) or i386 (686-pae kernel, HIGHMEM, so LowFree exists)."),
	ENUM(kernel, "debian", kernel_choices, "Where the kernel comes from: debian (a prebuilt Debian package, fetched and cached), files (kernel_image and kernel_modules) or build (built from kernel_source with kernel_patches and config fragments, cached)."),
	STR(kernel_package, "", "Debian kernel package, or a metapackage that depends on one; default linux-image-amd64 or linux-image-686-pae by arch."),
	STR(kernel_suite, "", "The Debian suite the kernel comes from (busybox and fio's source then come from bookworm), with scaletest's own apt and package lists in its cache, whatever this host runs and without touching its sources.list: bookworm, bookworm-security, bookworm-backports, trixie, trixie-security, trixie-backports, sid (or unstable) or experimental; signatures are checked against debian-archive-keyring. Empty: this host's apt. i386 kernels exist in bookworm only."),
	PATH(kernel_image, "With kernel=files: the bzImage to boot."),
	PATH(kernel_modules, "With kernel=files: the modules tree, either lib/modules/VERSION or a root directory holding lib/modules/VERSION."),
	STR(kernel_source, "debian", "With kernel=build: debian (Debian's linux-source package of the prebuilt kernel's version), debian:X.Y (Debian's linux-source-X.Y, e.g. debian:6.12 from bookworm-security) or a kernel tree (a path; never modified)."),
	STR(kernel_rev, "", "With kernel=build and kernel_source a git repository: the commit to build (anything git rev-parse names: a hash, tag or branch), checked out in a shared clone (the repository itself is never written); empty builds the tree as it is on disk."),
	PATH(kernel_patches, "With kernel=build: a directory of *.patch/*.diff files applied in name order, or a series file listing patches; empty for none."),
	ENUM(kernel_config_base, "tinyconfig", config_choices, "With kernel=build: the base configuration the fragments are merged onto."),
	STR(kernel_fragments, "", "With kernel=build: extra config fragments (names in kernel-configs/ or paths, comma-separated) on top of base, the arch's fragment and fast-boot."),
	INT(kernel_build_timeout, "3600", 60, 86400, "s", "With kernel=build: deadline for the whole build."),
	INT(build_jobs, "0", 0, 256, "jobs", "With kernel=build: make -j; 0 means one per host CPU."),
	INT(memory_mb, "2048", 128, 65536, "MiB", "Guest memory."),
	INT(cpus, "1", 1, 64, "CPUs", "Guest CPUs."),
	ENUM(accel, "auto", accel_choices, "Accelerator: auto uses KVM only if a probe boot proves it works, else TCG."),
	ENUM(backend, "qemu", backend_choices, "VM backend: qemu (the harness runs QEMU itself) or libvirt (a transient libvirt domain; scaletest run --connect URI picks the connection, default qemu:///system)."),
	INT(disks, "4000", 0, 1048576, "disks", "scsi_debug disks (N), at most sd's 1,048,576 (its 20-bit index) with the virtio-scsi disks after them. 0 runs without scsi_debug."),
	STR(sweep, "", "Disk counts of a sweep in one boot (comma-separated, e.g. 0,250,500,1000): scsi_debug is loaded without hosts, then hosts are added (or removed) step by step, with a snapshot after each; the counts rise strictly to a peak and may then fall; the last (> 0) is the run's disks. \"even\": 0 to disks in the most even steps, up to 8, that divide it (0,500,...,4000 for 4000); \"even:N\": in N steps (both written out as the list in the resolved settings). Empty: one step of disks."),
	INT(sweep_floor_mb, "0", 0, 65536, "MiB", "With a sweep: after its last step, add one host at a time until the headline free memory (LowFree on HIGHMEM kernels, else MemFree) is below this floor, then remove them again down to the last step; the knee, the largest count still above the floor, goes into result.json. 0: off."),
	INT(sd_hosts, "1", 1, SD_HOSTS_MAX, "hosts", "scsi_debug hosts (add_host); disks must be a multiple of it. Insmod took a fifth longer with all disks on one host than spread over many (8,192 and 32,768 disks on Debian's 6.12, at the same memory per disk and rmmod time): past 4096 disks a host the run says how many hosts make hosts of 1024."),
	INT(sd_dev_size_mb, "4", 1, 1024, "MiB", "Size of each scsi_debug disk; all share one store of this size."),
	BOOL(sd_fake_rw, "0", "scsi_debug fake_rw: no backing store at all, reads and writes do nothing."),
	INT(virtio_disks, "4", 0, 64, "disks", "Real disks (M) after the scsi_debug range, backed by sparse files in the run directory."),
	ENUM(virtio_bus, "scsi", bus_choices, "scsi: virtio-scsi disks named after the last scsi_debug disk (sdX); blk: virtio-blk disks (vdX)."),
	ENUM(channel, "auto", channel_choices, "The record channel from the guest to the harness: virtio (a virtio-serial port, about 450 times faster than the UART under TCG; needs virtio_console in the kernel, as a module or built in), uart (the second serial port, any kernel) or auto (virtio when the kernel has virtio_console, else uart)."),
	INT(virtio_disk_mb, "64", 1, 1048576, "MiB", "Size of each virtio disk."),
	INT(io_mb, "4", 1, 1024, "MiB", "Pattern written to and read back from each virtio disk in the after-io phase."),
	BOOL(rmmod, "1", "Remove scsi_debug at the end and measure what memory comes back."),
	BOOL(rmmod_rcu_expedited, "1", "Remove scsi_debug with RCU grace periods expedited (/sys/kernel/rcu_expedited set to 1 for rmmod only, back to 0 after; kernels with TINY_RCU have no such knob and need none): del_gendisk waits a grace period per disk in synchronize_rcu, which this makes short, so rmmod of 4000 disks takes about half as long under TCG; nothing before rmmod changes (docs/time-to-answer.md). 0: rmmod as the kernel does it by default."),
	INT(rmmod_tolerance_pct, "25", 0, 100, "%", "Leak check: after rmmod, this share of the MemFree taken at insmod may stay taken (or rmmod_tolerance_kb, whichever is larger)."),
	INT(rmmod_tolerance_kb, "8192", 0, 16777216, "kB", "Leak check: this much may stay taken after rmmod whatever the share (small runs are dominated by noise such as page cache)."),
	INT(sd_max_queue, "0", 0, 192, "commands", "scsi_debug max_queue (queued commands per submit queue); 0 keeps scsi_debug's default."),
	INT(sd_submit_queues, "0", 0, 64, "queues", "scsi_debug submit_queues (hardware queues); 0 keeps scsi_debug's default of 1."),
	ENUM(scheduler, "default", sched_choices, "I/O scheduler set on every scsi_debug disk right after they appear (before the after-insmod snapshot); default keeps the kernel's choice."),
	INT(nr_requests, "0", 0, 100000, "requests", "queue/nr_requests set on every scsi_debug disk after the scheduler; 0 keeps the default."),
	BOOL(fio, "1", "Run fio in the after-io phase: a verify job on the virtio disks, random reads on a sample of scsi_debug disks, one job over all of them. 0: write and read back a pattern with dd instead."),
	INT(fio_runtime, "5", 1, 3600, "s", "Length of the sample and all jobs."),
	INT(fio_bs_kb, "4", 1, 1024, "KiB", "Block size of the sample and all jobs."),
	INT(fio_sample_disks, "8", 0, 1000, "disks", "scsi_debug disks in the sample job besides the first, middle and last, spread evenly."),
	STR(fio_sample_indexes, "", "More scsi_debug disk indexes (0-based, comma-separated) for the sample job."),
	BOOL(fio_all, "1", "One fio job over every scsi_debug disk at once."),
	INT(monitor_interval_ms, "1000", 0, 60000, "ms", "Memory sampling (meminfo, slabinfo, vmstat) while insmod, I/O and rmmod run; 0 turns the monitor off. The shortest interval: see monitor_max_cpu_pct."),
	INT(monitor_max_cpu_pct, "2", 1, 100, "%", "The most of the guest's CPU the monitor may take: after each sample it waits at least (100 - P) / P times what the sample cost it, so that at thousands of disks, where a sample costs more, the samples spread out rather than slow the enumeration they measure (result.json monitor.cpu_pct says what it took). 100: never stretch the interval."),
	BOOL(attribution, "0", "Trace page and kmalloc allocations during insmod with hist triggers on kmem events, keyed on the kernel stack: result.json says which call sites hold each disk's bytes (needs tracefs and CONFIG_HIST_TRIGGERS; \"unavailable\" otherwise). With page_owner (a kernel built with the debug fragment, booted with page_owner=on, which the harness adds) also the pages still held after insmod by allocating stack, as a second source (attribution.sources.page_owner; \"unavailable\" with its reason otherwise, as on Debian's kernels). Off by default: it makes insmod several times slower and the MemFree drop 3-11% larger on smoke (docs/attribution.md)."),
	BOOL(time_attribution, "0", "Sample the kernel stacks of the tasks making and removing the disks (insmod or rmmod, and every task in state R or D: the kworkers of async scanning) from the guest, by reading /proc/PID/stack, during insmod, each sweep step and rmmod: result.json time_attribution says which call sites the time goes to, on the CPU and waiting apart, with seconds per disk (\"unavailable\" without /proc/PID/stack). The guest boots with preempt=full, so that the sampler preempts a busy task where it runs. Off by default: it slows the enumeration it watches by about 7% (docs/time.md)."),
	INT(time_attribution_max_cpu_pct, "5", 1, 100, "%", "With time_attribution: the most of the guest's CPU the sampler may take: after each sample it waits at least (100 - P) / P times what the sample cost it (and at least 100 ms), so a sample that costs more as tasks accumulate spreads the samples out (result.json time_attribution.cost says what it took)."),
	BOOL(slab_nomerge, "0", "Boot with slab_nomerge, so that caches the kernel would merge are measured apart."),
	ENUM(initramfs_compress, "none", compress_choices, "Initramfs compression: none boots fastest under TCG (docs/measurements.md, \"Initramfs compression\"); gzip makes a smaller file."),
	INT(loglevel, "4", 0, 8, NULL, "Kernel console loglevel; 4 keeps thousands of probe messages off the serial line."),
	STR(cmdline, "", "Extra kernel command line parameters."),
	INT(guest_output_mb, "1024", 16, 1048576, "MiB", "The most the guest may write on its console, and send on the record channel, each: past it the harness keeps no more, stops the VM and calls the run an error naming this key, so a guest gone wild cannot fill the disk or the harness's memory."),
	INT(disk_cost_kb, "0", 0, 1048576, "kB", "Expected memory per disk, used to refuse runs that cannot fit; 0: by the scheduler the disks get (the scheduler key, or the kernel's default: none when sd_submit_queues and cpus are both above 1, else mq-deadline), measured on Debian's kernels: mq-deadline (kyber, bfq) 180 kB of lowmem on i386 and 360 kB on x86_64, none 80 kB and 130 kB."),
	INT(timeout_boot, "120", 5, 86400, "s", "Deadline for the guest to reach /init and load the base modules."),
	INT(timeout_insmod, "900", 5, 86400, "s", "Deadline for insmod scsi_debug and enumeration of all disks."),
	INT(timeout_io, "600", 5, 86400, "s", "Deadline for the I/O phase."),
	INT(timeout_rmmod, "900", 5, 86400, "s", "Deadline for rmmod scsi_debug and the disks to go."),
};
const size_t scenario_nkeys = ARRAY_SIZE(scenario_keys);

const char *arch_name(int arch)
{
	return arch_choices[arch];
}

const char *arch_debian(int arch)
{
	return arch == ARCH_I386 ? "i386" : "amd64";
}

const char *scenario_backend(const struct scenario *s)
{
	return backend_choices[s->backend];
}

const struct scenario_key *scenario_key_find(const char *name)
{
	for (size_t i = 0; i < scenario_nkeys; i++)
		if (!strcmp(scenario_keys[i].name, name))
			return &scenario_keys[i];
	return NULL;
}

void scenario_keys_markdown(struct strbuf *out)
{
	sb_adds(out, "| key | type | default | range / choices | unit | meaning |\n");
	sb_adds(out, "|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < scenario_nkeys; i++) {
		const struct scenario_key *k = &scenario_keys[i];
		static const char *const tn[] = { "int", "bool", "enum", "string", "path" };

		sb_addf(out, "| `%s` | %s | %s%s%s | ", k->name, tn[k->type],
			*k->def ? "`" : "", *k->def ? k->def : "(none)",
			*k->def ? "`" : "");
		if (k->type == KT_INT)
			sb_addf(out, "%lld..%lld", k->min, k->max);
		else if (k->type == KT_BOOL)
			sb_adds(out, "yes/no");
		else if (k->type == KT_ENUM)
			for (int j = 0; k->choices[j]; j++)
				sb_addf(out, "%s`%s`", j ? ", " : "", k->choices[j]);
		sb_addf(out, " | %s | %s |\n", k->unit ? k->unit : "", k->help);
	}
}

/* Text as mdoc lines of at most 80 bytes (a longer word alone): a new
 * line for each sentence (". " before a capital letter), backslashes as
 * \e, and a line starting with '.' or '\'' behind \& so that it is never
 * read as a macro. */
static void mdoc_text(struct strbuf *out, const char *s)
{
	size_t col = 0;

	while (*s) {
		size_t n = strcspn(s, " \n"), need = n;

		for (size_t i = 0; i < n; i++)
			need += s[i] == '\\';
		if (col && col + 1 + need > 80) {
			sb_addch(out, '\n');
			col = 0;
		} else if (col) {
			sb_addch(out, ' ');
			col++;
		}
		if (!col && (*s == '.' || *s == '\'')) {
			sb_adds(out, "\\&");
			col += 2;
		}
		for (size_t i = 0; i < n; i++) {
			if (s[i] == '\\')
				sb_adds(out, "\\e");
			else
				sb_addch(out, s[i]);
		}
		col += need;
		s += n;
		/* the end of a sentence ends the line */
		if (n && strchr(".?!", s[-1]) && *s && isupper((unsigned char)s[1])) {
			sb_addch(out, '\n');
			col = 0;
		}
		while (*s == ' ' || *s == '\n')
			s++;
	}
	sb_addch(out, '\n');
}

void scenario_keys_mdoc(struct strbuf *out)
{
	static const char *const tn[] = { "int", "bool", "enum", "string", "path" };
	struct strbuf line = STRBUF_INIT;

	sb_adds(out, ".Bl -tag -width Ds\n");
	for (size_t i = 0; i < scenario_nkeys; i++) {
		const struct scenario_key *k = &scenario_keys[i];

		sb_addf(out, ".It Cm %s Ns = Ns Ar %s\n", k->name, tn[k->type]);
		mdoc_text(out, k->help);
		sb_reset(&line);
		if (k->type == KT_INT)
			sb_addf(&line, "From %lld to %lld%s%s", k->min, k->max,
				k->unit ? " " : "", k->unit ? k->unit : "");
		else if (k->type == KT_BOOL)
			sb_adds(&line, "yes or no");
		else if (k->type == KT_ENUM)
			for (int j = 0; k->choices[j]; j++)
				sb_addf(&line, "%s%s", j == 0 ? "One of: " : ", ", k->choices[j]);
		if (line.len)
			sb_adds(&line, "; ");
		if (*k->def)
			sb_addf(&line, "%s %s.", line.len ? "default" : "Default",
				k->type != KT_BOOL ? k->def : strcmp(k->def, "0") ? "yes" : "no");
		else
			sb_addf(&line, "%s.", line.len ? "empty by default" : "Empty by default");
		mdoc_text(out, line.buf);
	}
	sb_adds(out, ".El\n");
	sb_release(&line);
}

