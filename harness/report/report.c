#include "report/report.h"

#include <stdlib.h>
#include <string.h>

#include "report/junit.h"
#include "report/html.h"
#include "result/result.h"
#include "guest/phase.h"
#include "lib/util.h"

void fmt_thousands(struct strbuf *out, long long v)
{
	char digits[32];
	int n, lead;

	unsigned long long mag = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;

	if (v < 0)
		sb_addch(out, '-');
	n = snprintf(digits, sizeof(digits), "%llu", mag);
	lead = n % 3 ? n % 3 : 3;
	sb_add(out, digits, (size_t)lead);
	for (int i = lead; i < n; i += 3) {
		sb_addch(out, ',');
		sb_add(out, digits + i, 3);
	}
}

void text_clean(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		sb_addch(out, c < 0x20 || c == 0x7f ? '?' : (char)c);
	}
}

void md_escape(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			sb_addch(out, '?');
		else if (c == '<')
			sb_adds(out, "&lt;");
		else if (c == '>')
			sb_adds(out, "&gt;");
		else if (c == '&')
			sb_adds(out, "&amp;");
		/* Mid-line, only these make markup (list markers and headings need a
		 * line start, which these strings never have). */
		else if (strchr("\\`*_[]|~", c))
			sb_addf(out, "\\%c", c);
		else
			sb_addch(out, (char)c);
	}
}

static void kb(struct strbuf *out, json_object *v)
{
	if (!v) {
		sb_adds(out, "n/a");
		return;
	}
	fmt_thousands(out, json_object_get_int64(v));
	sb_adds(out, " kB");
}

static void signed_kb(struct strbuf *out, json_object *v)
{
	if (!v) {
		sb_adds(out, "n/a");
		return;
	}
	if (json_object_get_int64(v) > 0)
		sb_addch(out, '+');
	kb(out, v);
}

/* The rows of the before/after table: field, and whether it is a cost
 * when it falls (free memory) or when it grows (slab). */
static const struct {
	const char *field;
	int falls;
} mem_rows[] = {
	{ "LowFree", 1 },
	{ "MemFree", 1 },
	{ "MemAvailable", 1 },
	{ "Slab", 0 },
	{ "SUnreclaim", 0 },
};

struct table {
	struct strbuf cell[16][6];
	int rows, cols;
	int right[6];
};

static void table_init(struct table *t, int cols)
{
	memset(t, 0, sizeof(*t));
	for (int r = 0; r < 16; r++)
		for (int c = 0; c < 6; c++)
			sb_init(&t->cell[r][c]);
	t->cols = cols;
}

static void table_free(struct table *t)
{
	for (int r = 0; r < 16; r++)
		for (int c = 0; c < 6; c++)
			sb_release(&t->cell[r][c]);
}

static void table_text(struct table *t, struct strbuf *out, const char *indent)
{
	size_t w[6] = { 0 };

	for (int r = 0; r < t->rows; r++)
		for (int c = 0; c < t->cols; c++)
			if (t->cell[r][c].len > w[c])
				w[c] = t->cell[r][c].len;
	for (int r = 0; r < t->rows; r++) {
		sb_adds(out, indent);
		for (int c = 0; c < t->cols; c++) {
			int pad = (int)(w[c] - t->cell[r][c].len);
			if (c)
				sb_adds(out, "  ");
			if (t->right[c])
				sb_addf(out, "%*s%s", pad, "", t->cell[r][c].buf);
			else
				sb_addf(out, "%s%*s", t->cell[r][c].buf,
					c + 1 < t->cols ? pad : 0, "");
		}
		sb_addch(out, '\n');
	}
}

static void mem_table(json_object *root, struct table *t)
{
	json_object *b = result_phase(root, phase_name(PHASE_BEFORE_INSMOD)), *a = result_phase(root, phase_name(PHASE_AFTER_INSMOD));
	long long disks = jint(root, "settings.disks", 0);
	int hm = result_highmem(root);

	table_init(t, 5);
	t->right[1] = t->right[2] = t->right[3] = t->right[4] = 1;
	sb_adds(&t->cell[0][0], "");
	sb_adds(&t->cell[0][1], "before insmod");
	sb_adds(&t->cell[0][2], "after insmod");
	sb_adds(&t->cell[0][3], "change");
	sb_adds(&t->cell[0][4], "per disk");
	t->rows = 1;
	for (size_t i = 0; i < ARRAY_SIZE(mem_rows); i++) {
		const char *f = mem_rows[i].field;
		char path[64];
		int r = t->rows;

		if (!strcmp(f, "LowFree") && !hm)
			continue;
		snprintf(path, sizeof(path), "meminfo.%s", f);
		sb_adds(&t->cell[r][0], f);
		kb(&t->cell[r][1], jget(b, path));
		kb(&t->cell[r][2], jget(a, path));
		snprintf(path, sizeof(path), "deltas.insmod.%s_kb", f);
		json_object *d = jget(root, path);
		signed_kb(&t->cell[r][3], d);
		if (d && disks) {
			long long v = json_object_get_int64(d);
			long long cost = mem_rows[i].falls ? -v : v;
			fmt_thousands(&t->cell[r][4], cost * 1024 / disks);
			sb_adds(&t->cell[r][4], " B");
		} else {
			sb_adds(&t->cell[r][4], "n/a");
		}
		t->rows++;
	}
}

static void disk_line(struct strbuf *out, json_object *d)
{
	text_clean(out, jstr(d, "name", "?"));
	sb_adds(out, " (");
	text_clean(out, jstr(d, "dev", "?"));
	sb_adds(out, ")");
}

/* Per group: jobs, total IOPS (reads + writes), worst p99 latency. */
struct fio_group {
	const char *name;
	long jobs, errors;
	double iops, p99;
};

static void fio_groups(json_object *root, struct fio_group *g, size_t max, size_t *n)
{
	json_object *jobs = jget(root, "fio.jobs");

	*n = 0;
	for (size_t i = 0; jobs && i < json_object_array_length(jobs); i++) {
		json_object *j = json_object_array_get_idx(jobs, i);
		const char *name = jstr(j, "group", "?");
		size_t k;

		for (k = 0; k < *n && strcmp(g[k].name, name); k++)
			;
		if (k == *n) {
			if (*n == max)
				continue;
			memset(&g[k], 0, sizeof(g[k]));
			g[k].name = name;
			(*n)++;
		}
		g[k].jobs++;
		g[k].errors += jint(j, "error", 0) != 0;
		static const char *const dirs[] = { "read", "write" };
		for (int d = 0; d < 2; d++) {
			char path[64];
			snprintf(path, sizeof(path), "%s.iops", dirs[d]);
			g[k].iops += jdouble(j, path, 0);
			snprintf(path, sizeof(path), "%s.clat_p99_us", dirs[d]);
			if (jdouble(j, path, 0) > g[k].p99)
				g[k].p99 = jdouble(j, path, 0);
		}
	}
}

void report_fio_summary(json_object *root, struct strbuf *out)
{
	struct fio_group g[8];
	size_t n;

	fio_groups(root, g, ARRAY_SIZE(g), &n);
	for (size_t i = 0; i < n; i++) {
		sb_adds(out, i ? "; " : "  fio: ");
		text_clean(out, g[i].name);
		sb_addf(out, " %ld job%s %.0f IOPS p99 %.0f us", g[i].jobs,
			g[i].jobs == 1 ? "" : "s", g[i].iops, g[i].p99);
		if (g[i].errors)
			sb_addf(out, " (%ld FAILED)", g[i].errors);
	}
	if (n)
		sb_addch(out, '\n');
}

void report_summary(json_object *root, struct strbuf *out)
{
	struct table t;
	json_object *v;
	int hm = result_highmem(root);

	sb_adds(out, "scaletest ");
	text_clean(out, jstr(root, "run_id", "?"));
	sb_adds(out, ": ");
	text_clean(out, jstr(root, "status", "?"));
	if (jstr(root, "reason", NULL)) {
		sb_adds(out, " (");
		text_clean(out, jstr(root, "reason", ""));
		sb_adds(out, ")");
	}
	sb_adds(out, "\n  kernel ");
	text_clean(out, jstr(root, "kernel.version", "?"));
	sb_addf(out, " %s, %s, %lld MiB, %lld CPU, QEMU %s\n",
		jstr(root, "kernel.arch", "?"), jstr(root, "vm.accel", "?"),
		jint(root, "vm.memory_mb", 0), jint(root, "vm.cpus", 0),
		jstr(root, "vm.qemu_version", "?"));

	sb_addf(out, "  disks: %lld of %lld scsi_debug", jint(root, "disks.present", 0),
		jint(root, "disks.requested", 0));
	if ((v = jget(root, "disks.last")) && jget(root, "disks.first")) {
		sb_adds(out, ", ");
		disk_line(out, jget(root, "disks.first"));
		sb_adds(out, " .. ");
		disk_line(out, v);
	}
	sb_addf(out, "; %lld of %lld virtio-%s", jint(root, "disks.virtio_present", 0),
		jint(root, "disks.virtio_requested", 0), jstr(root, "disks.virtio_bus", "?"));
	v = jget(root, "disks.virtio");
	for (size_t i = 0; v && i < json_object_array_length(v); i++) {
		sb_adds(out, i ? ", " : ": ");
		disk_line(out, json_object_array_get_idx(v, i));
	}
	sb_addch(out, '\n');

	sb_adds(out, "  time: enumeration ");
	if ((v = jget(root, "timings.enumerate_s")))
		sb_addf(out, "%.1f s", json_object_get_double(v));
	else
		sb_adds(out, "n/a");
	sb_addf(out, ", boot %.1f s", jdouble(root, "timings.boot_s", 0));
	if ((v = jget(root, "timings.inventory_s")))
		sb_addf(out, ", inventory %.1f s", json_object_get_double(v));
	sb_adds(out, ", rmmod ");
	if ((v = jget(root, "timings.rmmod_s")))
		sb_addf(out, "%.1f s", json_object_get_double(v));
	else
		sb_adds(out, "n/a");
	sb_addf(out, ", total %.1f s (setup %.1f s)\n", jdouble(root, "timings.total_s", 0),
		jdouble(root, "timings.setup_s", 0));

	if (result_phase(root, phase_name(PHASE_BEFORE_INSMOD)) && result_phase(root, phase_name(PHASE_AFTER_INSMOD))) {
		sb_addf(out, "  memory at insmod scsi_debug (%s):\n",
			hm ? "LowFree is the headline: a HIGHMEM kernel's disks live in lowmem"
			   : "MemFree is the headline: a 64-bit kernel has no LowFree");
		mem_table(root, &t);
		table_text(&t, out, "    ");
		table_free(&t);
		if ((v = jget(root, "deltas.insmod.unaccounted_kb"))) {
			sb_adds(out, "    MemFree drop not in Slab/PageTables/KernelStack/VmallocUsed/Percpu: ");
			kb(out, v);
			sb_addch(out, '\n');
		}
	}
	v = jget(root, "slab_growth");
	if (v && json_object_array_length(v)) {
		sb_adds(out, "  slab caches that grew most:");
		for (size_t i = 0; i < json_object_array_length(v) && i < 10; i++) {
			json_object *g = json_object_array_get_idx(v, i);
			sb_adds(out, i % 3 ? ", " : "\n    ");
			text_clean(out, jstr(g, "cache", "?"));
			sb_adds(out, " +");
			fmt_thousands(out, jint(g, "kb", 0));
			sb_adds(out, " kB");
		}
		sb_addch(out, '\n');
	}
	if ((v = jget(root, "deltas.rmmod.returned_pct"))) {
		sb_addf(out, "  after rmmod: %.0f%% of the MemFree taken at insmod came back (",
			json_object_get_double(v));
		signed_kb(out, jget(root, "deltas.rmmod.MemFree_kb"));
		sb_adds(out, ")\n");
	}
	if ((v = jget(root, "deltas.insmod.lowmem_unaccounted_kb"))) {
		sb_adds(out, "  LowFree drop not in Slab/PageTables/KernelStack/Percpu: ");
		kb(out, v);
		sb_addch(out, '\n');
	}
	if ((v = jget(root, "monitor.peak"))) {
		sb_addf(out, "  monitor: %lld samples every %lld ms",
			jint(root, "monitor.received", 0), jint(root, "monitor.interval_ms", 0));
		json_object *gaps = jget(root, "monitor.gaps");
		if (gaps && json_object_array_length(gaps))
			sb_addf(out, " (%zu gaps)", json_object_array_length(gaps));
		if (jget(v, "io_extra_kb")) {
			sb_adds(out, "; I/O peak took ");
			kb(out, jget(v, "io_extra_kb"));
			sb_adds(out, " of MemFree beyond the steady state after insmod");
		}
		sb_addch(out, '\n');
	}
	report_fio_summary(root, out);
	if ((v = jget(root, "inventory"))) {
		sb_addf(out, "  inventory: %lld devices; schedulers", jint(v, "devices", 0));
		json_object *sc = jget(v, "schedulers");
		if (sc) {
			json_object_object_foreach(sc, name, count) {
				sb_adds(out, " ");
				text_clean(out, name);
				sb_addf(out, " %lld", (long long)json_object_get_int64(count));
			}
		}
		sb_addch(out, '\n');
	}
	v = jget(root, "checks");
	for (size_t i = 0; v && i < json_object_array_length(v); i++) {
		json_object *c = json_object_array_get_idx(v, i);
		if (json_object_get_boolean(jget(c, "pass")))
			continue;
		sb_adds(out, "  FAILED: ");
		text_clean(out, jstr(c, "name", "?"));
		sb_adds(out, ": ");
		text_clean(out, jstr(c, "detail", ""));
		sb_addch(out, '\n');
	}
}

static void md_table_row(struct strbuf *out, struct table *t, int r)
{
	sb_adds(out, "|");
	for (int c = 0; c < t->cols; c++) {
		sb_addch(out, ' ');
		md_escape(out, t->cell[r][c].buf);
		sb_adds(out, " |");
	}
	sb_addch(out, '\n');
}

static void md_table(struct strbuf *out, struct table *t)
{
	md_table_row(out, t, 0);
	sb_adds(out, "|");
	for (int c = 0; c < t->cols; c++)
		sb_adds(out, t->right[c] ? "---:|" : "---|");
	sb_addch(out, '\n');
	for (int r = 1; r < t->rows; r++)
		md_table_row(out, t, r);
}

static void md_monitor(json_object *root, struct strbuf *out)
{
	json_object *p = jget(root, "monitor.peak");

	if (!p)
		return;
	sb_addf(out, "## Memory while it ran\n\n%lld samples, one every %lld ms",
		jint(root, "monitor.received", 0), jint(root, "monitor.interval_ms", 0));
	json_object *gaps = jget(root, "monitor.gaps");
	for (size_t i = 0; gaps && i < json_object_array_length(gaps); i++) {
		json_object *g = json_object_array_get_idx(gaps, i);
		sb_addf(out, "%s%lld..%lld", i ? ", " : "; lost: ",
			(long long)json_object_get_int64(json_object_array_get_idx(g, 0)),
			(long long)json_object_get_int64(json_object_array_get_idx(g, 1)));
	}
	sb_adds(out, ".\n\n| | steady after insmod | during I/O |\n|---|---:|---:|\n| MemFree (lowest during I/O) | ");
	kb(out, jget(p, "steady_after_insmod.MemFree"));
	sb_adds(out, " | ");
	kb(out, jget(p, "during_io.MemFree_min"));
	sb_adds(out, " |\n| LowFree (lowest) | ");
	kb(out, jget(p, "steady_after_insmod.LowFree"));
	sb_adds(out, " | ");
	kb(out, jget(p, "during_io.LowFree_min"));
	sb_adds(out, " |\n| Slab (highest) | ");
	kb(out, jget(p, "steady_after_insmod.Slab"));
	sb_adds(out, " | ");
	kb(out, jget(p, "during_io.Slab_max"));
	sb_adds(out, " |\n\n");
}

static void md_fio(json_object *root, struct strbuf *out)
{
	json_object *jobs = jget(root, "fio.jobs");

	if (!jobs || !json_object_array_length(jobs))
		return;
	sb_adds(out, "## fio\n\n| group | job | read IOPS | write IOPS | read p50 / p99 | write p50 / p99 | error |\n|---|---|---:|---:|---:|---:|---:|\n");
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		json_object *j = json_object_array_get_idx(jobs, i);
		sb_adds(out, "| ");
		md_escape(out, jstr(j, "group", "?"));
		sb_adds(out, " | ");
		md_escape(out, jstr(j, "job", "?"));
		sb_addf(out, " | %.0f | %.0f | ", jdouble(j, "read.iops", 0), jdouble(j, "write.iops", 0));
		if (jget(j, "read"))
			sb_addf(out, "%.1f / %.1f us", jdouble(j, "read.clat_p50_us", 0), jdouble(j, "read.clat_p99_us", 0));
		sb_adds(out, " | ");
		if (jget(j, "write"))
			sb_addf(out, "%.1f / %.1f us", jdouble(j, "write.clat_p50_us", 0), jdouble(j, "write.clat_p99_us", 0));
		sb_addf(out, " | %lld |\n", jint(j, "error", 0));
	}
	sb_adds(out, "\nfio's own JSON for each group is in fio/ in the run directory.\n\n");
}

static void disk_row(struct strbuf *out, const char *what, json_object *d)
{
	if (!d)
		return;
	sb_addf(out, "| %s | ", what);
	md_escape(out, jstr(d, "name", "?"));
	sb_adds(out, " | ");
	md_escape(out, jstr(d, "dev", "?"));
	sb_adds(out, " |\n");
}

void report_markdown(json_object *root, struct strbuf *out)
{
	struct strbuf sum = STRBUF_INIT;
	struct table t;
	json_object *v;

	sb_adds(out, "# scaletest run ");
	md_escape(out, jstr(root, "run_id", "?"));
	sb_adds(out, ": ");
	md_escape(out, jstr(root, "status", "?"));
	sb_adds(out, "\n\n");
	if (jstr(root, "reason", NULL)) {
		sb_adds(out, "**Reason:** ");
		md_escape(out, jstr(root, "reason", ""));
		sb_adds(out, "\n\n");
	}
	sb_adds(out, "Scenario **");
	md_escape(out, jstr(root, "scenario.name", "?"));
	sb_adds(out, "**");
	if (*jstr(root, "scenario.description", "")) {
		sb_adds(out, ": ");
		md_escape(out, jstr(root, "scenario.description", ""));
	}
	sb_adds(out, "\n\n");

	report_summary(root, &sum);
	sb_adds(out, "```\n");
	/* Inside a fence nothing is markup, but a fence line could end it. */
	for (char *p = sum.buf; *p; p++)
		sb_addch(out, *p == '`' ? '\'' : *p);
	sb_adds(out, "```\n\n");
	sb_release(&sum);

	if (result_phase(root, phase_name(PHASE_BEFORE_INSMOD)) && result_phase(root, phase_name(PHASE_AFTER_INSMOD))) {
		sb_adds(out, "## Memory at insmod\n\n");
		mem_table(root, &t);
		md_table(out, &t);
		table_free(&t);
		sb_addch(out, '\n');
	}

	sb_adds(out, "## Disks\n\n| disk | name | dev_t |\n|---|---|---|\n");
	disk_row(out, "first scsi_debug", jget(root, "disks.first"));
	disk_row(out, "last scsi_debug", jget(root, "disks.last"));
	v = jget(root, "disks.virtio");
	for (size_t i = 0; v && i < json_object_array_length(v); i++)
		disk_row(out, "virtio", json_object_array_get_idx(v, i));
	sb_addch(out, '\n');

	sb_adds(out, "## Memory by phase\n\n| phase | uptime | LowFree | MemFree | MemAvailable | Slab |\n|---|---:|---:|---:|---:|---:|\n");
	v = jget(root, "phases");
	for (size_t i = 0; v && i < json_object_array_length(v); i++) {
		json_object *p = json_object_array_get_idx(v, i);
		sb_adds(out, "| ");
		md_escape(out, jstr(p, "name", "?"));
		sb_addf(out, " | %.2f s | ", jdouble(p, "uptime_s", 0));
		kb(out, jget(p, "meminfo.LowFree"));
		sb_adds(out, " | ");
		kb(out, jget(p, "meminfo.MemFree"));
		sb_adds(out, " | ");
		kb(out, jget(p, "meminfo.MemAvailable"));
		sb_adds(out, " | ");
		kb(out, jget(p, "meminfo.Slab"));
		sb_adds(out, " |\n");
	}
	sb_addch(out, '\n');

	v = jget(root, "slab_growth");
	if (v && json_object_array_length(v)) {
		sb_adds(out, "## Slab caches that grew most at insmod\n\n| cache | growth | objects | per disk |\n|---|---:|---:|---:|\n");
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			json_object *g = json_object_array_get_idx(v, i);
			sb_adds(out, "| ");
			md_escape(out, jstr(g, "cache", "?"));
			sb_adds(out, " | ");
			signed_kb(out, jget(g, "kb"));
			sb_adds(out, " | ");
			fmt_thousands(out, jint(g, "objs", 0));
			sb_adds(out, " | ");
			if (jget(g, "bytes_per_disk")) {
				fmt_thousands(out, jint(g, "bytes_per_disk", 0));
				sb_adds(out, " B");
			} else {
				sb_adds(out, "n/a");
			}
			sb_adds(out, " |\n");
		}
		sb_addch(out, '\n');
	}

	md_monitor(root, out);
	md_fio(root, out);

	v = jget(root, "checks");
	if (v && json_object_array_length(v)) {
		sb_adds(out, "## Checks\n\n| check | result | detail |\n|---|---|---|\n");
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			json_object *c = json_object_array_get_idx(v, i);
			sb_adds(out, "| ");
			md_escape(out, jstr(c, "name", "?"));
			sb_addf(out, " | %s | ", json_object_get_boolean(jget(c, "pass")) ? "pass" : "**FAIL**");
			md_escape(out, jstr(c, "detail", ""));
			sb_adds(out, " |\n");
		}
		sb_addch(out, '\n');
	}

	v = jget(root, "channel.rejections");
	if (v && json_object_array_length(v)) {
		sb_addf(out, "## Rejected channel records (%lld)\n\n",
			jint(root, "channel.rejected", 0));
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			sb_adds(out, "- ");
			md_escape(out, json_object_get_string(json_object_array_get_idx(v, i)));
			sb_addch(out, '\n');
		}
		sb_addch(out, '\n');
	}

	sb_adds(out, "## Environment\n\n");
	sb_adds(out, "- kernel: ");
	md_escape(out, jstr(root, "kernel.version", "?"));
	sb_adds(out, " (");
	md_escape(out, jstr(root, "kernel.source", "?"));
	if (jstr(root, "kernel.package", NULL)) {
		sb_adds(out, " ");
		md_escape(out, jstr(root, "kernel.package", ""));
		sb_adds(out, " ");
		md_escape(out, jstr(root, "kernel.package_version", ""));
	}
	sb_adds(out, ")\n- accelerator: ");
	md_escape(out, jstr(root, "vm.accel", "?"));
	sb_adds(out, " (");
	md_escape(out, jstr(root, "vm.accel_reason", ""));
	sb_adds(out, ")\n- QEMU ");
	md_escape(out, jstr(root, "vm.qemu_version", "?"));
	sb_addf(out, ", %lld MiB, %lld CPU\n- ", jint(root, "vm.memory_mb", 0),
		jint(root, "vm.cpus", 0));
	md_escape(out, jstr(root, "tool", "scaletest"));
	sb_adds(out, ", started ");
	md_escape(out, jstr(root, "started", "?"));
	sb_adds(out, "\n");
}

int report_write_dir(const char *dir, FILE *out)
{
	struct strbuf err = STRBUF_INIT, md = STRBUF_INIT;
	json_object *root;
	char *path;
	int r;

	if (result_load(dir, &root, &err) < 0) {
		error("%s", err.buf);
		sb_release(&err);
		return -1;
	}
	report_markdown(root, &md);
	path = xstrfmt("%s/report.md", dir);
	r = write_file_atomic(path, md.buf, md.len);
	free(path);
	sb_reset(&md);
	report_html(root, &md);
	path = xstrfmt("%s/report.html", dir);
	if (write_file_atomic(path, md.buf, md.len) < 0)
		r = -1;
	free(path);
	sb_reset(&md);
	junit_run(root, &md);
	path = xstrfmt("%s/junit.xml", dir);
	if (write_file_atomic(path, md.buf, md.len) < 0)
		r = -1;
	free(path);
	if (out) {
		struct strbuf sum = STRBUF_INIT;
		report_summary(root, &sum);
		fputs(sum.buf, out);
		sb_release(&sum);
	}
	json_object_put(root);
	sb_release(&md);
	sb_release(&err);
	return r;
}
