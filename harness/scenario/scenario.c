#include "scenario/scenario.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strvec.h"
#include "lib/textscan.h"
#include "lib/util.h"

static const char *const arch_choices[] = { "x86_64", "i386", NULL };
static const char *const kernel_choices[] = { "debian", "files", "build", NULL };
static const char *const config_choices[] = { "tinyconfig", "defconfig", NULL };
static const char *const bus_choices[] = { "scsi", "blk", NULL };
static const char *const channel_choices[] = { "auto", "uart", "virtio", NULL };
static const char *const accel_choices[] = { "auto", "tcg", "kvm", NULL };
static const char *const compress_choices[] = { "none", "gzip", NULL };
static const char *const sched_choices[] = { "default", "none", "mq-deadline", "kyber", "bfq", NULL };
static const char *const backend_choices[] = { "qemu", "libvirt", NULL };

#define OFF(f) offsetof(struct scenario, f)
#define INT(n, d, lo, hi, u, h) { #n, KT_INT, OFF(n), d, lo, hi, u, NULL, h }
#define BOOL(n, d, h) { #n, KT_BOOL, OFF(n), d, 0, 1, NULL, NULL, h }
#define ENUM(n, d, c, h) { #n, KT_ENUM, OFF(n), d, 0, 0, NULL, c, h }
#define STR(n, d, h) { #n, KT_STRING, OFF(n), d, 0, 0, NULL, NULL, h }
#define PATH(n, h) { #n, KT_PATH, OFF(n), "", 0, 0, NULL, NULL, h }

/* The per-disk memory defaults (disk_cost_kb): disk_costs[] below. */
const struct scenario_key scenario_keys[] = {
	STR(name, "", "Run name; defaults to the scenario file's name. Letters, digits, '.', '_', '-'."),
	STR(description, "", "One line saying what the scenario is for."),
	ENUM(arch, "x86_64", arch_choices, "Guest architecture: x86_64 (amd64 kernel) or i386 (686-pae kernel, HIGHMEM, so LowFree exists)."),
	ENUM(kernel, "debian", kernel_choices, "Where the kernel comes from: debian (a prebuilt Debian package, fetched and cached), files (kernel_image and kernel_modules) or build (built from kernel_source with kernel_patches and config fragments, cached)."),
	STR(kernel_package, "", "Debian kernel package, or a metapackage that depends on one; default linux-image-amd64 or linux-image-686-pae by arch."),
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
	INT(sd_hosts, "1", 1, 64, "hosts", "scsi_debug hosts (add_host); disks must be a multiple of it."),
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

#define FIELD(s, k, T) ((T *)((char *)(s) + (k)->offset))

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

static size_t key_index(const struct scenario_key *k)
{
	return (size_t)(k - scenario_keys);
}

/* Check and store one value; returns NULL or the reason it is bad. */
static const char *store(struct scenario *s, const struct scenario_key *k,
			 const char *v, struct strbuf *why)
{
	int64_t n;

	switch (k->type) {
	case KT_INT:
		if (parse_i64(v, &n) < 0) {
			sb_addf(why, "'%s' is not a whole number", v);
			return why->buf;
		}
		if (n < k->min || n > k->max) {
			sb_addf(why, "%lld is out of range %lld..%lld", (long long)n,
				k->min, k->max);
			return why->buf;
		}
		*FIELD(s, k, long long) = n;
		return NULL;
	case KT_BOOL:
		if (!strcmp(v, "1") || !strcmp(v, "yes") || !strcmp(v, "true") ||
		    !strcmp(v, "on"))
			*FIELD(s, k, int) = 1;
		else if (!strcmp(v, "0") || !strcmp(v, "no") ||
			 !strcmp(v, "false") || !strcmp(v, "off"))
			*FIELD(s, k, int) = 0;
		else {
			sb_addf(why, "'%s' is not a boolean (yes/no, 1/0, true/false, on/off)", v);
			return why->buf;
		}
		return NULL;
	case KT_ENUM:
		for (int i = 0; k->choices[i]; i++)
			if (!strcmp(v, k->choices[i])) {
				*FIELD(s, k, int) = i;
				return NULL;
			}
		sb_addf(why, "'%s' is not one of", v);
		for (int i = 0; k->choices[i]; i++)
			sb_addf(why, "%s %s", i ? "," : "", k->choices[i]);
		return why->buf;
	case KT_STRING:
	case KT_PATH:
		for (const char *p = v; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f) {
				sb_adds(why, "control character in value");
				return why->buf;
			}
		if (strlen(v) > 4096) {
			sb_adds(why, "value too long");
			return why->buf;
		}
		char **dst = FIELD(s, k, char *);
		free(*dst);
		if (k->type == KT_PATH && *v && v[0] != '/' && s->dir)
			*dst = xstrfmt("%s/%s", s->dir, v);
		else
			*dst = xstrdup(v);
		return NULL;
	}
	return "bad key type";
}

void scenario_init(struct scenario *s)
{
	struct strbuf why = STRBUF_INIT;

	memset(s, 0, sizeof(*s));
	s->origin = xcalloc(scenario_nkeys, sizeof(*s->origin));
	for (size_t i = 0; i < scenario_nkeys; i++) {
		if (store(s, &scenario_keys[i], scenario_keys[i].def, &why))
			die("bad default for key '%s': %s", scenario_keys[i].name,
			    why.buf);
	}
	sb_release(&why);
}

void scenario_release(struct scenario *s)
{
	for (size_t i = 0; i < scenario_nkeys; i++) {
		const struct scenario_key *k = &scenario_keys[i];
		if (k->type == KT_STRING || k->type == KT_PATH)
			free(*FIELD(s, k, char *));
	}
	free(s->origin);
	free(s->file);
	free(s->dir);
	memset(s, 0, sizeof(*s));
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[64];

	if (lb >= ARRAY_SIZE(row) || la >= 64)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cur = row[j];
			size_t best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = cur;
		}
	}
	return row[lb];
}

static void unknown_key(struct strbuf *err, const char *key)
{
	const char *best = NULL;
	size_t bd = 3;

	sb_addf(err, "unknown key '%s'", key);
	for (size_t i = 0; i < scenario_nkeys; i++) {
		size_t d = edit_distance(key, scenario_keys[i].name);
		if (d < bd) {
			bd = d;
			best = scenario_keys[i].name;
		}
	}
	if (best)
		sb_addf(err, " (did you mean '%s'?)", best);
}

static int apply(struct scenario *s, const char *key, const char *val,
		 int origin, const char *where, struct strbuf *err)
{
	const struct scenario_key *k = scenario_key_find(key);
	struct strbuf why = STRBUF_INIT;
	const char *bad;

	if (!k) {
		sb_addf(err, "%s: ", where);
		unknown_key(err, key);
		return -1;
	}
	if (origin > 0 && s->origin[key_index(k)] > 0) {
		sb_addf(err, "%s: duplicate key '%s' (first set on line %d)", where,
			key, s->origin[key_index(k)]);
		return -1;
	}
	bad = store(s, k, val, &why);
	if (bad) {
		sb_addf(err, "%s: %s: %s", where, key, bad);
		sb_release(&why);
		return -1;
	}
	sb_release(&why);
	s->origin[key_index(k)] = origin;
	return 0;
}

static int valid_key_char(int c)
{
	return islower(c) || isdigit(c) || c == '_';
}

/* Split "key = value  # comment" into key and value (unquoted). */
static int split_assignment(char *line, char **key, char **val,
			    const char **why)
{
	char *p = line, *eq, *end;

	while (*p == ' ' || *p == '\t')
		p++;
	*key = p;
	while (valid_key_char((unsigned char)*p))
		p++;
	end = p;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '=' || end == *key) {
		*why = end == *key ? "expected 'key = value'" : "expected '=' after the key";
		return -1;
	}
	eq = p;
	*end = '\0';
	p = eq + 1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '"') {
		/* Inside the quotes \" is a quote and \\ a backslash; any
		 * other backslash stands for itself. */
		char *q = p + 1, *w = p + 1;

		for (; *q && *q != '"'; q++) {
			if (*q == '\\' && (q[1] == '"' || q[1] == '\\'))
				q++;
			*w++ = *q;
		}
		if (!*q) {
			*why = "unterminated quote";
			return -1;
		}
		*w = '\0';
		*val = p + 1;
		for (q++; *q == ' ' || *q == '\t'; q++)
			;
		if (*q && *q != '#') {
			*why = "text after the closing quote";
			return -1;
		}
		return 0;
	}
	*val = p;
	/* A comment starts at '#' preceded by a blank (or at the value's start). */
	for (char *c = p; *c; c++)
		if (*c == '#' && (c == p || c[-1] == ' ' || c[-1] == '\t')) {
			*c = '\0';
			break;
		}
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return 0;
}

int scenario_parse(struct scenario *s, const char *file, const char *buf,
		   size_t len, struct strbuf *err)
{
	struct line_iter it;
	struct strbuf line = STRBUF_INIT;
	char where[512];
	int r = 0;

	if (!s->file && file)
		s->file = xstrdup(file);
	line_iter_init(&it, buf, len);
	while (line_next(&it)) {
		char *key, *val, *p;
		const char *why = NULL;

		snprintf(where, sizeof(where), "%s:%u", file, it.lineno);
		if (line_has_nul(it.line, it.len)) {
			sb_addf(err, "%s: NUL byte in line", where);
			r = -1;
			break;
		}
		sb_reset(&line);
		sb_add(&line, it.line, it.len);
		if (line.len && line.buf[line.len - 1] == '\r')
			sb_setlen(&line, line.len - 1);
		for (p = line.buf; *p == ' ' || *p == '\t'; p++)
			;
		if (!*p || *p == '#')
			continue;
		if (split_assignment(line.buf, &key, &val, &why) < 0) {
			sb_addf(err, "%s: %s", where, why);
			r = -1;
			break;
		}
		if (apply(s, key, val, (int)it.lineno, where, err) < 0) {
			r = -1;
			break;
		}
	}
	sb_release(&line);
	if (!r && !*s->name && file) {
		/* Default name: the file's base name, made safe. */
		struct strbuf n = STRBUF_INIT;
		for (const char *c = path_basename(file); *c; c++)
			sb_addch(&n, isalnum((unsigned char)*c) || *c == '.' ||
					     *c == '-' || *c == '_' ? *c : '_');
		if (n.len > 4 && !strcmp(n.buf + n.len - 4, ".scn"))
			sb_setlen(&n, n.len - 4);
		free(s->name);
		s->name = sb_detach(&n, NULL);
	}
	return r;
}

int scenario_load(struct scenario *s, const char *path, struct strbuf *err)
{
	struct strbuf buf = STRBUF_INIT;
	char *abs;
	int r;

	if (sb_read_file(&buf, path) < 0) {
		sb_addf(err, "cannot read '%s': %s", path, strerror(errno));
		sb_release(&buf);
		return -1;
	}
	free(s->file);
	free(s->dir);
	s->file = xstrdup(path);
	abs = absolute_path(path);
	*strrchr(abs, '/') = '\0';
	s->dir = abs;
	r = scenario_parse(s, path, buf.buf, buf.len, err);
	sb_release(&buf);
	return r;
}

int scenario_set(struct scenario *s, const char *assignment, const char *where,
		 struct strbuf *err)
{
	const char *eq = strchr(assignment, '=');
	char *key;
	int r;

	if (!eq || eq == assignment) {
		sb_addf(err, "%s: expected key=value, got '%s'", where, assignment);
		return -1;
	}
	key = xstrndup(assignment, (size_t)(eq - assignment));
	char *w = xstrfmt("%s %s", where, assignment);
	/* Paths given on the command line are relative to the cwd. */
	char *dir = s->dir;
	s->dir = NULL;
	r = apply(s, key, eq + 1, -1, w, err);
	s->dir = dir;
	free(w);
	free(key);
	return r;
}

static void where_key(const struct scenario *s, const char *name,
		      struct strbuf *err)
{
	const struct scenario_key *k = scenario_key_find(name);
	int o = s->origin[key_index(k)];

	if (o > 0)
		sb_addf(err, "%s:%d: ", s->file ? s->file : "scenario", o);
	else if (o < 0)
		sb_addf(err, "--set %s: ", name);
	else
		sb_addf(err, "%s: ", s->file ? s->file : "scenario");
}

static int valid_name(const char *n)
{
	if (!*n || strlen(n) > 64)
		return 0;
	for (; *n; n++)
		if (!isalnum((unsigned char)*n) && *n != '.' && *n != '_' && *n != '-')
			return 0;
	return 1;
}

static int valid_package(const char *p)
{
	/* Debian package names, optionally with ":arch". */
	if (!*p || strlen(p) > 100 || !isalnum((unsigned char)*p))
		return 0;
	for (; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) &&
		    !strchr(".+-:", *p))
			return 0;
	return 1;
}

static int valid_cmdline(const char *c)
{
	for (; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr(" _.,=:/+-", *c))
			return 0;
	return 1;
}

const char *scenario_kernel_package(const struct scenario *s)
{
	if (*s->kernel_package)
		return s->kernel_package;
	return s->arch == ARCH_I386 ? "linux-image-686-pae" : "linux-image-amd64";
}

int scenario_debian_source(const char *source, char *series, size_t n)
{
	const char *v = source + 7;
	size_t major, minor;

	if (series && n)
		*series = '\0';
	if (!strcmp(source, "debian"))
		return 1;
	if (strncmp(source, "debian:", 7))
		return 0;
	/* "debian:6.12": digits, a dot, digits; nothing else. */
	major = strspn(v, "0123456789");
	if (!major || major > 3 || v[major] != '.')
		return 0;
	minor = strspn(v + major + 1, "0123456789");
	if (!minor || minor > 3 || v[major + 1 + minor])
		return 0;
	if (series && n > major + 1 + minor)
		memcpy(series, v, major + 1 + minor + 1);
	return 1;
}

const char *scenario_disk_scheduler(const struct scenario *s)
{
	if (s->scheduler)
		return scenario_scheduler(s);
	/* The kernel's default (elevator_get_default()): none for a queue of
	 * several hardware queues, and scsi_debug trims submit_queues to the
	 * CPUs; else mq-deadline. */
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
} disk_costs[] = {
	{ ARCH_I386, 0, 180 }, { ARCH_I386, 1, 80 },
	{ ARCH_X86_64, 0, 360 }, { ARCH_X86_64, 1, 130 },
};

long long scenario_disk_cost_kb(const struct scenario *s)
{
	int none = !strcmp(scenario_disk_scheduler(s), "none");

	if (s->disk_cost_kb)
		return s->disk_cost_kb;
	for (size_t i = 0; i < ARRAY_SIZE(disk_costs); i++)
		if (disk_costs[i].arch == s->arch && disk_costs[i].none == none)
			return disk_costs[i].kb;
	return 360;
}

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

/* The steps of a sweep list; -1 with why on a bad one. */
static int sweep_parse(const char *list, long long **steps, size_t *n,
		       struct strbuf *why)
{
	const char *p = list;
	size_t alloc = 0, peak = 0;

	*steps = NULL;
	*n = 0;
	while (*p) {
		char num[24];
		size_t l = strcspn(p, ", ");
		uint64_t v;

		if (l) {
			if (l >= sizeof(num) || (memcpy(num, p, l), num[l] = '\0',
			    parse_u64(num, &v) < 0) || v > SD_MAX_DISKS) {
				sb_addf(why, "'%.*s' is not a disk count (0..1048576)",
					(int)(l > 24 ? 24 : l), p);
				goto bad;
			}
			if (*n == SWEEP_MAX_STEPS) {
				sb_addf(why, "more than %d steps", SWEEP_MAX_STEPS);
				goto bad;
			}
			ALLOC_GROW(*steps, *n + 1, alloc);
			(*steps)[(*n)++] = (long long)v;
		}
		p += l;
		while (*p == ',' || *p == ' ')
			p++;
	}
	if (*n < 2) {
		sb_adds(why, "a sweep needs at least two steps");
		goto bad;
	}
	while (peak + 1 < *n && (*steps)[peak + 1] > (*steps)[peak])
		peak++;
	if (peak == 0) {
		sb_addf(why, "the counts must rise first (%lld, then %lld)", (*steps)[0], (*steps)[1]);
		goto bad;
	}
	for (size_t i = 1; i < *n; i++) {
		long long a = (*steps)[i - 1], b = (*steps)[i];
		if (i <= peak ? b > a : b < a)
			continue;
		if (a == b)
			sb_addf(why, "step %zu repeats %lld", i + 1, b);
		else
			sb_addf(why, "step %zu (%lld) rises again after falling from the peak %lld: "
				"the counts rise strictly to one peak, then may fall",
				i + 1, b, (*steps)[peak]);
		goto bad;
	}
	if ((*steps)[*n - 1] == 0) {
		sb_adds(why, "the last step must be more than 0 disks (it is the run's disks; "
			"rmmod measures the way back to 0)");
		goto bad;
	}
	return 0;
bad:
	free(*steps);
	*steps = NULL;
	*n = 0;
	return -1;
}

static long long gcd_ll(long long a, long long b)
{
	while (b) {
		long long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

void scenario_sweep(const struct scenario *s, long long **steps, size_t *n)
{
	struct strbuf why = STRBUF_INIT;

	if (!*s->sweep || sweep_parse(s->sweep, steps, n, &why) < 0) {
		*steps = NULL;
		*n = 0;
	}
	sb_release(&why);
}

long long scenario_sweep_peak(const struct scenario *s)
{
	long long *st, peak = s->disks;
	size_t n;

	scenario_sweep(s, &st, &n);
	for (size_t i = 0; i < n; i++)
		if (st[i] > peak)
			peak = st[i];
	free(st);
	return peak;
}

long long scenario_sd_host_disks(const struct scenario *s)
{
	long long *st, g = 0;
	size_t n;

	scenario_sweep(s, &st, &n);
	for (size_t i = 0; i < n; i++)
		g = gcd_ll(st[i], g);
	free(st);
	return n ? g : s->disks / s->sd_hosts;
}

/*
 * "even" or "even:N": N + 1 evenly spaced counts from 0 to disks, written
 * out in place, so that result.json, scenario.scn and reproduce.sh carry
 * the list itself.  Without N, the largest N from 8 down that divides
 * disks.  Even spacing suits the fitted line (no end of the range holds
 * most of the points) and keeps the one-boot ladder well ahead of one
 * boot per point: the boots enumerate (N + 1) / 2 times as many disks.
 * 0: not this form; 1: expanded; -1 with the error said.
 */
static int sweep_even(struct scenario *s, struct strbuf *err)
{
	const char *spec = s->sweep;
	struct strbuf list = STRBUF_INIT;
	uint64_t v = 0;
	long long n = 0;

	if (strcmp(spec, "even") && strncmp(spec, "even:", 5))
		return 0;
	if (spec[4] == ':' && (parse_u64(spec + 5, &v) < 0 || v < 1 || v >= SWEEP_MAX_STEPS)) {
		where_key(s, "sweep", err);
		sb_addf(err, "sweep '%s': even:N needs N from 1 to %d (the steps after 0)",
			spec, SWEEP_MAX_STEPS - 1);
		return -1;
	}
	if (s->disks <= 0) {
		where_key(s, "sweep", err);
		sb_addf(err, "sweep '%s' spaces its steps up to disks, which is %lld", spec, s->disks);
		return -1;
	}
	n = (long long)v;
	if (!n)
		for (n = 8; s->disks % n; n--)
			;
	if (s->disks % n) {
		where_key(s, "sweep", err);
		sb_addf(err, "sweep '%s': disks (%lld) is not a multiple of %lld, so the steps "
			"cannot be even (give the counts, or another N)", spec, s->disks, n);
		return -1;
	}
	for (long long i = 0; i <= n; i++)
		sb_addf(&list, "%s%lld", i ? "," : "", s->disks / n * i);
	free(s->sweep);
	s->sweep = sb_detach(&list, NULL);
	return 1;
}

/* The sweep's rules across keys: disks is its last step, the hosts come
 * from the steps' gcd. */
static int check_sweep(struct scenario *s, struct strbuf *err)
{
	const struct scenario_key *kd = scenario_key_find("disks");
	struct strbuf why = STRBUF_INIT;
	long long *st, last, g, peak;
	size_t n;

	if (!*s->sweep && s->sweep_floor_mb) {
		where_key(s, "sweep_floor_mb", err);
		sb_adds(err, "sweep_floor_mb needs a sweep (the sweep key)");
		return -1;
	}
	if (!*s->sweep)
		return 0;
	if (sweep_even(s, err) < 0)
		return -1;
	if (sweep_parse(s->sweep, &st, &n, &why) < 0) {
		where_key(s, "sweep", err);
		sb_addf(err, "sweep '%s': %s", s->sweep, why.buf);
		sb_release(&why);
		return -1;
	}
	sb_release(&why);
	last = st[n - 1];
	free(st);
	/* A sweep given on the command line replaces the file's disks. */
	int od = s->origin[key_index(kd)], os = s->origin[key_index(scenario_key_find("sweep"))];
	if (od && !(od > 0 && os < 0) && s->disks != last) {
		where_key(s, "disks", err);
		sb_addf(err, "disks (%lld) must be the sweep's last step (%lld), or be left out",
			s->disks, last);
		return -1;
	}
	if (od > 0 && os < 0)
		s->origin[key_index(kd)] = os;
	if (s->sd_hosts != 1) {
		where_key(s, "sd_hosts", err);
		sb_adds(err, "sd_hosts cannot be set with a sweep: it adds hosts of as many "
			"disks as the greatest common divisor of its steps");
		return -1;
	}
	s->disks = last;
	g = scenario_sd_host_disks(s);
	peak = scenario_sweep_peak(s);
	if (peak / g > SWEEP_MAX_HOSTS) {
		where_key(s, "sweep", err);
		sb_addf(err, "no host layout reaches these counts: their greatest common divisor "
			"is %lld, so %lld disks need %lld scsi_debug hosts (at most %d; "
			"use counts with a larger common divisor)",
			g, peak, peak / g, SWEEP_MAX_HOSTS);
		return -1;
	}
	if (s->sweep_floor_mb) {
		long long one = g * scenario_disk_cost_kb(s);

		if (peak != last) {
			where_key(s, "sweep_floor_mb", err);
			sb_adds(err, "sweep_floor_mb extends a rising sweep: the list may not fall "
				"(it comes back to its last step by itself)");
			return -1;
		}
		if (one >= s->sweep_floor_mb * 1024) {
			where_key(s, "sweep_floor_mb", err);
			sb_addf(err, "one host of %lld disks costs about %lld MiB (%lld kB each), "
				"not less than the floor of %lld MiB: a step could run out of memory "
				"before the floor is seen (raise sweep_floor_mb, or use counts with a "
				"smaller common divisor)", g, (one + 1023) / 1024,
				scenario_disk_cost_kb(s), s->sweep_floor_mb);
			return -1;
		}
	}
	return 0;
}

static int sample_indexes(const char *list, long **idx, size_t *n, size_t *alloc,
			  const char **bad);

int scenario_check(struct scenario *s, struct strbuf *err)
{
	if (*s->name && !valid_name(s->name)) {
		where_key(s, "name", err);
		sb_addf(err, "name '%s' must be letters, digits, '.', '_' or '-' (at most 64)", s->name);
		return -1;
	}
	if (*s->kernel_package && !valid_package(s->kernel_package)) {
		where_key(s, "kernel_package", err);
		sb_addf(err, "'%s' is not a Debian package name", s->kernel_package);
		return -1;
	}
	if (!valid_cmdline(s->cmdline)) {
		where_key(s, "cmdline", err);
		sb_adds(err, "cmdline may hold only letters, digits, spaces and _.,=:/+-");
		return -1;
	}
	if (s->kernel == KERNEL_FILES && (!*s->kernel_image || !*s->kernel_modules)) {
		where_key(s, "kernel", err);
		sb_adds(err, "kernel=files needs kernel_image and kernel_modules");
		return -1;
	}
	if (s->kernel != KERNEL_FILES && (*s->kernel_image || *s->kernel_modules)) {
		where_key(s, *s->kernel_image ? "kernel_image" : "kernel_modules", err);
		sb_adds(err, "kernel_image and kernel_modules need kernel=files");
		return -1;
	}
	if (s->kernel == KERNEL_BUILD && !strncmp(s->kernel_source, "debian:", 7) &&
	    !scenario_debian_source(s->kernel_source, NULL, 0)) {
		where_key(s, "kernel_source", err);
		sb_addf(err, "kernel_source '%s': Debian's source is 'debian' or 'debian:X.Y' "
			"(linux-source-X.Y, e.g. debian:6.12)", s->kernel_source);
		return -1;
	}
	if (s->kernel == KERNEL_BUILD && !scenario_debian_source(s->kernel_source, NULL, 0)) {
		char *src = s->kernel_source[0] == '/' || !s->dir
			? xstrdup(s->kernel_source)
			: xstrfmt("%s/%s", s->dir, s->kernel_source);
		int ok = is_dir(src);

		free(src);
		if (!ok) {
			where_key(s, "kernel_source", err);
			sb_addf(err, "kernel_source '%s' is neither 'debian' nor a directory",
				s->kernel_source);
			return -1;
		}
	}
	if (*s->kernel_patches && !path_exists(s->kernel_patches)) {
		where_key(s, "kernel_patches", err);
		sb_addf(err, "kernel_patches '%s' does not exist", s->kernel_patches);
		return -1;
	}
	if (*s->kernel_rev && (s->kernel != KERNEL_BUILD ||
			       scenario_debian_source(s->kernel_source, NULL, 0))) {
		where_key(s, "kernel_rev", err);
		sb_adds(err, "kernel_rev needs kernel=build and kernel_source a git repository");
		return -1;
	}
	if (s->kernel != KERNEL_BUILD && (*s->kernel_patches || *s->kernel_fragments)) {
		where_key(s, *s->kernel_patches ? "kernel_patches" : "kernel_fragments", err);
		sb_adds(err, "kernel_patches and kernel_fragments need kernel=build");
		return -1;
	}
	if (check_sweep(s, err) < 0)
		return -1;
	if (s->disks % s->sd_hosts) {
		where_key(s, "disks", err);
		sb_addf(err, "%lld disks cannot be spread evenly over %lld hosts (sd_hosts)",
			s->disks, s->sd_hosts);
		return -1;
	}
	if (scenario_sweep_peak(s) + (s->virtio_bus == VIRTIO_SCSI ? s->virtio_disks : 0) >
	    SD_MAX_DISKS) {
		where_key(s, *s->sweep ? "sweep" : "disks", err);
		sb_addf(err, "%lld scsi_debug disks and %lld virtio-scsi disks after them are more "
			"than the %d that sd names (its 20-bit index)", scenario_sweep_peak(s),
			s->virtio_bus == VIRTIO_SCSI ? s->virtio_disks : 0, SD_MAX_DISKS);
		return -1;
	}
	if (s->disks + s->virtio_disks == 0) {
		where_key(s, "disks", err);
		sb_adds(err, "nothing to test: disks and virtio_disks are both 0");
		return -1;
	}
	if (*s->fio_sample_indexes) {
		long *idx = NULL;
		size_t n = 0, alloc = 0;
		const char *bad = NULL;
		int r = sample_indexes(s->fio_sample_indexes, &idx, &n, &alloc, &bad);

		for (size_t i = 0; !r && i < n; i++)
			if (idx[i] >= s->disks) {
				where_key(s, "fio_sample_indexes", err);
				sb_addf(err, "disk index %ld does not exist (disks = %lld: 0..%lld)",
					idx[i], s->disks, s->disks - 1);
				free(idx);
				return -1;
			}
		free(idx);
		if (r) {
			where_key(s, "fio_sample_indexes", err);
			sb_addf(err, "'%.*s' is not a disk index", (int)strcspn(bad, ", "), bad);
			return -1;
		}
	}
	if (s->io_mb > s->virtio_disk_mb) {
		where_key(s, "io_mb", err);
		sb_addf(err, "io_mb (%lld) is larger than virtio_disk_mb (%lld)",
			s->io_mb, s->virtio_disk_mb);
		return -1;
	}

	/* Will the disks fit?  On i386 they must fit in lowmem. */
	long long cost = scenario_disk_cost_kb(s);
	long long peak = scenario_sweep_peak(s);
	long long need_kb = peak * cost;
	long long have_mb, have_kb;
	const char *what;

	if (s->arch == ARCH_I386) {
		have_mb = (s->memory_mb < 896 ? s->memory_mb : 896) - 64;
		what = "low memory";
	} else {
		have_mb = s->memory_mb - 192;
		what = "memory";
	}
	have_kb = have_mb * 1024;
	if (need_kb > have_kb) {
		where_key(s, *s->sweep ? "sweep" : "disks", err);
		sb_addf(err, "%lld disks need about %lld MiB of %s at %lld kB each "
			"(scheduler %s%s), but a %lld MiB %s guest has about %lld MiB "
			"(raise memory_mb, lower disks, or set disk_cost_kb%s)",
			peak, need_kb / 1024, what, cost, scenario_disk_scheduler(s),
			s->disk_cost_kb ? ", disk_cost_kb" : "", s->memory_mb,
			arch_name(s->arch), have_mb < 0 ? 0 : have_mb,
			strcmp(scenario_disk_scheduler(s), "none") ?
			"; scheduler none costs far less a disk: sd_submit_queues = cpus, "
			"cpus > 1" : "");
		return -1;
	}
	return 0;
}

void scenario_value(const struct scenario *s, const struct scenario_key *k,
		    struct strbuf *out)
{
	switch (k->type) {
	case KT_INT:
		sb_addf(out, "%lld", *FIELD(s, k, long long));
		break;
	case KT_BOOL:
		sb_adds(out, *FIELD(s, k, int) ? "1" : "0");
		break;
	case KT_ENUM:
		sb_adds(out, k->choices[*FIELD(s, k, int)]);
		break;
	case KT_STRING:
	case KT_PATH:
		sb_adds(out, *FIELD(s, k, char *));
		break;
	}
}

void scenario_quote(const char *v, struct strbuf *out)
{
	size_t n = strlen(v);

	if (n && !strpbrk(v, " \t#\"\\")) {
		sb_adds(out, v);
		return;
	}
	sb_addch(out, '"');
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			sb_addch(out, '\\');
		sb_addch(out, *v);
	}
	sb_addch(out, '"');
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

int scenario_open(struct scenario *s, const char *path, const struct strvec *sets)
{
	struct strbuf err = STRBUF_INIT;
	int r = -1;

	scenario_init(s);
	if (scenario_load(s, path, &err) < 0)
		goto out;
	for (size_t i = 0; i < sets->n; i++)
		if (scenario_set(s, sets->v[i], "--set", &err) < 0)
			goto out;
	r = scenario_check(s, &err);
out:
	if (r)
		error("%s", err.buf);
	sb_release(&err);
	return r;
}

const char *scenario_scheduler(const struct scenario *s)
{
	const struct scenario_key *k = scenario_key_find("scheduler");

	return s->scheduler ? k->choices[s->scheduler] : "";
}

/* The explicit indexes of fio_sample_indexes; -1 and *bad on a bad one. */
static int sample_indexes(const char *list, long **idx, size_t *n, size_t *alloc,
			  const char **bad)
{
	const char *p = list;

	while (*p) {
		char num[24];
		size_t l = strcspn(p, ", ");
		uint64_t v;

		if (l && l < sizeof(num)) {
			memcpy(num, p, l);
			num[l] = '\0';
			if (parse_u64(num, &v) < 0 || v >= SD_MAX_DISKS) {
				*bad = p;
				return -1;
			}
			ALLOC_GROW(*idx, *n + 1, *alloc);
			(*idx)[(*n)++] = (long)v;
		} else if (l) {
			*bad = p;
			return -1;
		}
		p += l;
		while (*p == ',' || *p == ' ')
			p++;
	}
	return 0;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

void scenario_fio_sample(const struct scenario *s, long **idx, size_t *n)
{
	size_t alloc = 0, out = 0;
	const char *bad;
	long d = s->disks;

	*idx = NULL;
	*n = 0;
	if (!s->fio || d <= 0)
		return;
	ALLOC_GROW(*idx, 3 + (size_t)s->fio_sample_disks, alloc);
	(*idx)[(*n)++] = 0;
	(*idx)[(*n)++] = d / 2;
	(*idx)[(*n)++] = d - 1;
	for (long i = 1; i <= s->fio_sample_disks; i++) {
		ALLOC_GROW(*idx, *n + 1, alloc);
		(*idx)[(*n)++] = (long)((long long)i * d / (s->fio_sample_disks + 1));
	}
	sample_indexes(s->fio_sample_indexes, idx, n, &alloc, &bad);
	qsort(*idx, *n, sizeof(**idx), cmp_long);
	for (size_t i = 0; i < *n; i++)
		if ((!out || (*idx)[out - 1] != (*idx)[i]) && (*idx)[i] < d)
			(*idx)[out++] = (*idx)[i];
	*n = out;
}

void scenario_copy(struct scenario *dst, const struct scenario *src)
{
	struct strbuf v = STRBUF_INIT, why = STRBUF_INIT;

	scenario_init(dst);
	dst->file = src->file ? xstrdup(src->file) : NULL;
	for (size_t i = 0; i < scenario_nkeys; i++) {
		const struct scenario_key *k = &scenario_keys[i];

		sb_reset(&v);
		scenario_value(src, k, &v);
		/* The values were checked once; paths are already resolved. */
		if (store(dst, k, v.buf, &why))
			die("scenario_copy: key '%s': %s", k->name, why.buf);
		dst->origin[i] = src->origin[i];
	}
	dst->dir = src->dir ? xstrdup(src->dir) : NULL;
	sb_release(&v);
	sb_release(&why);
}
