#include "report/text.h"

#include <string.h>

#include "lib/util.h"

static long long int_or0(struct num v)
{
	return v.have ? fmt_round(v.v) : 0;
}

static void disk(struct strbuf *out, const struct report_disk *d)
{
	text_clean(out, fmt_or(d->name, "?"));
	sb_adds(out, " (");
	text_clean(out, fmt_or(d->dev, "?"));
	sb_adds(out, ")");
}

static void seconds(struct strbuf *out, struct num v)
{
	if (v.have)
		sb_addf(out, "%.1f s", v.v);
	else
		sb_adds(out, "n/a");
}

/* The memory-at-insmod table, its columns aligned: names left, figures
 * right. */
static void mem_table(const struct report_model *m, struct strbuf *out)
{
	enum { COLS = 5 };
	struct strbuf cell[ARRAY_SIZE(m->mem) + 1][COLS];
	static const char *const head[COLS] = {
		"", "before insmod", "after insmod", "change", "per disk",
	};
	size_t w[COLS] = { 0 }, rows = m->nmem + 1;

	for (size_t r = 0; r < rows; r++)
		for (int c = 0; c < COLS; c++)
			sb_init(&cell[r][c]);
	for (int c = 0; c < COLS; c++)
		sb_adds(&cell[0][c], head[c]);
	for (size_t i = 0; i < m->nmem; i++) {
		const struct report_mem_row *r = &m->mem[i];
		sb_adds(&cell[i + 1][0], r->field);
		fmt_kb(&cell[i + 1][1], r->before);
		fmt_kb(&cell[i + 1][2], r->after);
		fmt_signed_kb(&cell[i + 1][3], r->change);
		fmt_per_disk(&cell[i + 1][4], r->per_disk);
	}
	for (size_t r = 0; r < rows; r++)
		for (int c = 0; c < COLS; c++)
			if (cell[r][c].len > w[c])
				w[c] = cell[r][c].len;
	for (size_t r = 0; r < rows; r++) {
		sb_adds(out, "    ");
		for (int c = 0; c < COLS; c++) {
			int pad = (int)(w[c] - cell[r][c].len);
			if (c)
				sb_adds(out, "  ");
			if (c)
				sb_addf(out, "%*s%s", pad, "", cell[r][c].buf);
			else
				sb_addf(out, "%s%*s", cell[r][c].buf, pad, "");
		}
		sb_addch(out, '\n');
	}
	for (size_t r = 0; r < rows; r++)
		for (int c = 0; c < COLS; c++)
			sb_release(&cell[r][c]);
}

static void fio_groups(const struct report_model *m, struct strbuf *out)
{
	for (size_t i = 0; i < m->ngroups; i++) {
		const struct report_fio_group *g = &m->groups[i];
		sb_adds(out, i ? "; " : "  fio: ");
		text_clean(out, g->name);
		sb_addf(out, " %ld job%s %.0f IOPS p99 %.0f us", g->jobs,
			g->jobs == 1 ? "" : "s", g->iops, g->p99);
		if (g->errors)
			sb_addf(out, " (%ld FAILED)", g->errors);
	}
	if (m->ngroups)
		sb_addch(out, '\n');
}

void text_run(const struct report_model *m, struct strbuf *out)
{
	sb_adds(out, "scaletest ");
	text_clean(out, fmt_or(m->run_id, "?"));
	sb_adds(out, ": ");
	text_clean(out, fmt_or(m->status, "?"));
	if (m->reason) {
		sb_adds(out, " (");
		text_clean(out, m->reason);
		sb_adds(out, ")");
	}
	sb_adds(out, "\n  kernel ");
	text_clean(out, fmt_or(m->kernel_version, "?"));
	sb_addch(out, ' ');
	text_clean(out, fmt_or(m->kernel_arch, "?"));
	sb_adds(out, ", ");
	text_clean(out, fmt_or(m->accel, "?"));
	sb_addf(out, ", %lld MiB, %lld CPU, QEMU ", int_or0(m->memory_mb), int_or0(m->cpus));
	text_clean(out, fmt_or(m->qemu_version, "?"));
	sb_addch(out, '\n');

	sb_addf(out, "  disks: %lld of %lld scsi_debug", int_or0(m->disks_present),
		int_or0(m->disks_requested));
	if (m->have_first && m->have_last) {
		sb_adds(out, ", ");
		disk(out, &m->first);
		sb_adds(out, " .. ");
		disk(out, &m->last);
	}
	sb_addf(out, "; %lld of %lld virtio-", int_or0(m->virtio_present),
		int_or0(m->virtio_requested));
	text_clean(out, fmt_or(m->virtio_bus, "?"));
	for (size_t i = 0; i < m->nvirtio; i++) {
		sb_adds(out, i ? ", " : ": ");
		disk(out, &m->virtio[i]);
	}
	sb_addch(out, '\n');

	sb_adds(out, "  time: enumeration ");
	seconds(out, m->enumerate_s);
	sb_addf(out, ", boot %.1f s", m->boot_s.v);
	if (m->inventory_s.have)
		sb_addf(out, ", inventory %.1f s", m->inventory_s.v);
	sb_adds(out, ", rmmod ");
	seconds(out, m->rmmod_s);
	sb_addf(out, ", total %.1f s (setup %.1f s)\n", m->total_s.v, m->setup_s.v);

	if (m->have_insmod) {
		sb_addf(out, "  memory at insmod scsi_debug (%s):\n",
			m->highmem ? "LowFree is the headline: a HIGHMEM kernel's disks live in lowmem"
				   : "MemFree is the headline: a 64-bit kernel has no LowFree");
		mem_table(m, out);
		if (m->unaccounted_kb.have) {
			sb_adds(out, "    MemFree drop not in Slab/PageTables/KernelStack/VmallocUsed/Percpu: ");
			fmt_kb(out, m->unaccounted_kb);
			sb_addch(out, '\n');
		}
	}
	if (m->nslab) {
		sb_adds(out, "  slab caches that grew most:");
		for (size_t i = 0; i < m->nslab && i < 10; i++) {
			sb_adds(out, i % 3 ? ", " : "\n    ");
			text_clean(out, fmt_or(m->slab[i].cache, "?"));
			sb_adds(out, " +");
			fmt_thousands_d(out, m->slab[i].kb.v);
			sb_adds(out, " kB");
		}
		sb_addch(out, '\n');
	}
	if (m->returned_pct.have) {
		sb_addf(out, "  after rmmod: %.0f%% of the MemFree taken at insmod came back (",
			m->returned_pct.v);
		fmt_signed_kb(out, m->rmmod_memfree_kb);
		sb_adds(out, ")\n");
	}
	if (m->lowmem_unaccounted_kb.have) {
		sb_adds(out, "  LowFree drop not in Slab/PageTables/KernelStack/Percpu: ");
		fmt_kb(out, m->lowmem_unaccounted_kb);
		sb_addch(out, '\n');
	}
	if (m->have_peak) {
		sb_addf(out, "  monitor: %lld samples every %lld ms", int_or0(m->received),
			int_or0(m->interval_ms));
		if (m->ngaps)
			sb_addf(out, " (%zu gaps)", m->ngaps);
		if (m->io_extra_kb.have) {
			sb_adds(out, "; I/O peak took ");
			fmt_kb(out, m->io_extra_kb);
			sb_adds(out, " of MemFree beyond the steady state after insmod");
		}
		sb_addch(out, '\n');
	}
	fio_groups(m, out);
	if (m->have_inventory) {
		sb_addf(out, "  inventory: %lld devices; schedulers", int_or0(m->inventory_devices));
		for (size_t i = 0; i < m->nschedulers; i++) {
			sb_adds(out, " ");
			text_clean(out, m->schedulers[i].name);
			sb_addf(out, " %lld", m->schedulers[i].count);
		}
		sb_addch(out, '\n');
	}
	for (size_t i = 0; i < m->nchecks; i++) {
		if (m->checks[i].pass)
			continue;
		sb_adds(out, "  FAILED: ");
		text_clean(out, fmt_or(m->checks[i].name, "?"));
		sb_adds(out, ": ");
		text_clean(out, fmt_or(m->checks[i].detail, ""));
		sb_addch(out, '\n');
	}
}
