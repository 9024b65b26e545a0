// SPDX-License-Identifier: Apache-2.0
#include "report/text.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

static void disk(struct strbuf *out, const struct report_disk *d)
{
	text_clean(out, fmt_or(d->name, "?"));
	sb_adds(out, " (");
	text_clean(out, fmt_or(d->dev, "?"));
	sb_adds(out, ")");
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

/* " (12.3%" then tail: a share in parentheses. */
static void percent_paren(struct strbuf *out, struct num pct, const char *tail)
{
	sb_adds(out, " (");
	fmt_percent(out, pct);
	sb_adds(out, tail);
}

/* A fit that bends: ", NOT LINEAR (p = 0.004)", ", NOT LINEAR (p < 0.001)". */
static void not_linear(struct strbuf *out, struct num p)
{
	sb_adds(out, ", NOT LINEAR (");
	fmt_p_is(out, p);
	sb_addch(out, ')');
}

static void fio_groups(const struct report_model *m, struct strbuf *out)
{
	for (size_t i = 0; i < m->ngroups; i++) {
		const struct report_fio_group *g = &m->groups[i];
		sb_adds(out, i ? "; " : "  fio: ");
		text_clean(out, g->name);
		sb_addf(out, " %ld job%s ", g->jobs, g->jobs == 1 ? "" : "s");
		fmt_count(out, (struct num){ g->iops, 1 });
		sb_adds(out, " IOPS p99 ");
		fmt_us(out, (struct num){ g->p99, 1 });
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
	sb_adds(out, ", ");
	fmt_whole(out, m->memory_mb);
	sb_adds(out, " MiB, ");
	fmt_whole(out, m->cpus);
	sb_adds(out, " CPU, QEMU ");
	text_clean(out, fmt_or(m->qemu_version, "?"));
	sb_addch(out, '\n');

	sb_adds(out, "  disks: ");
	fmt_whole(out, m->disks_present);
	sb_adds(out, " of ");
	fmt_whole(out, m->disks_requested);
	sb_adds(out, " scsi_debug");
	if (m->have_first && m->have_last) {
		sb_adds(out, ", ");
		disk(out, &m->first);
		sb_adds(out, " .. ");
		disk(out, &m->last);
	}
	sb_adds(out, "; ");
	fmt_whole(out, m->virtio_present);
	sb_adds(out, " of ");
	fmt_whole(out, m->virtio_requested);
	sb_adds(out, " virtio-");
	text_clean(out, fmt_or(m->virtio_bus, "?"));
	for (size_t i = 0; i < m->nvirtio; i++) {
		sb_adds(out, i ? ", " : ": ");
		disk(out, &m->virtio[i]);
	}
	sb_addch(out, '\n');

	sb_adds(out, "  time: enumeration ");
	fmt_seconds(out, m->enumerate_s);
	sb_adds(out, ", boot ");
	fmt_seconds(out, m->boot_s);
	if (m->inventory_s.have) {
		sb_adds(out, ", inventory ");
		fmt_seconds(out, m->inventory_s);
	}
	sb_adds(out, ", rmmod ");
	fmt_seconds(out, m->rmmod_s);
	if (m->rmmod_rcu && !strcmp(m->rmmod_rcu, "on"))
		sb_adds(out, " (RCU expedited)");
	sb_adds(out, ", total ");
	fmt_seconds(out, m->total_s);
	sb_adds(out, " (setup ");
	fmt_seconds(out, m->setup_s);
	sb_adds(out, ")\n");
	for (size_t i = 0; i < m->nfindings; i++) {
		sb_adds(out, "  finding (the run went on): ");
		text_clean(out, fmt_or(m->findings[i].cls, "?"));
		sb_adds(out, ": ");
		text_clean(out, fmt_or(m->findings[i].title, "?"));
		if (m->findings[i].line.have)
			sb_addf(out, " (console.log line %lld)", fmt_round(m->findings[i].line.v));
		sb_addch(out, '\n');
	}
	{
		size_t shown = 0;

		for (size_t i = 0; i < m->ncurves; i++) {
			const struct report_time_curve *c = &m->curves[i];

			if (!c->have || !c->per_disk.have)
				continue;
			sb_adds(out, shown++ ? "; " : "  per disk: ");
			text_clean(out, c->what);
			sb_addch(out, ' ');
			fmt_ms(out, c->per_disk);
			if (c->fixed.have) {
				sb_adds(out, " + ");
				fmt_seconds(out, c->fixed);
				sb_adds(out, " fixed");
			}
			if (c->nonlinear) {
				sb_adds(out, ", NOT LINEAR (");
				fmt_ms(out, c->marginal_first);
				sb_adds(out, " at the first disk, ");
				fmt_ms(out, c->marginal_last);
				sb_adds(out, " at the last)");
			}
		}
		if (shown)
			sb_addch(out, '\n');
	}
	if (m->ta_status && strcmp(m->ta_status, "ok")) {
		sb_adds(out, "  time attribution unavailable: ");
		text_clean(out, fmt_or(m->ta_reason, "no reason given"));
		sb_addch(out, '\n');
	}
	for (size_t i = 0; m->ta_status && i < m->nta_phases; i++) {
		const struct report_ta_phase *p = &m->ta_phases[i];

		sb_adds(out, "  where the time goes, ");
		text_clean(out, fmt_or(p->phase, "?"));
		if (p->closure_pct.have)
		{
			sb_adds(out, " (");
			fmt_percent(out, p->closure_pct);
			sb_adds(out, p->closes ? " attributed)" : " attributed, CLOSURE DOES NOT HOLD)");
		}
		sb_addch(out, ':');
		for (size_t k = 0; k < p->nsites && k < 3; k++) {
			sb_adds(out, "\n    ");
			text_clean(out, fmt_or(p->sites[k].site, "?"));
			if (p->sites[k].ms_per_disk.have)
			{
				sb_addch(out, ' ');
				fmt_ms(out, p->sites[k].ms_per_disk);
				sb_adds(out, "/disk");
			}
			if (p->sites[k].share_pct.have)
				percent_paren(out, p->sites[k].share_pct, ")");
		}
		sb_addch(out, '\n');
	}
	if (m->ta_growing_fn || m->ta_growing) {
		sb_adds(out, "  time per disk grew most in ");
		text_clean(out, fmt_or(m->ta_growing_fn, "?"));
		sb_adds(out, ", at ");
		text_clean(out, fmt_or(m->ta_growing, "?"));
		sb_addch(out, '\n');
	}

	if (m->have_insmod) {
		sb_addf(out, "  memory at insmod scsi_debug (%s):\n",
			m->highmem ? "LowFree is the headline: a HIGHMEM kernel's disks live in lowmem"
				   : "MemFree is the headline: a 64-bit kernel has no LowFree");
		mem_table(m, out);
		if (m->pcp_counted)
			sb_addf(out, "    per disk counts the free pages on the per-CPU lists as free (%s leaves them out)\n",
				m->highmem ? "LowFree" : "MemFree");
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
	if (m->have_sweep) {
		static const char *const what[] = { "MemFree", "LowFree", "Slab", "unaccounted" };

		sb_addf(out, "  sweep: %zu of ", m->nsweep);
		fmt_whole(out, m->sweep_steps);
		sb_adds(out, " steps");
		for (size_t i = 0; i < m->nsweep; i++) {
			sb_adds(out, i ? ", " : " at ");
			fmt_count(out, m->sweep[i].disks);
		}
		sb_adds(out, m->nsweep ? " disks" : "");
		sb_adds(out, m->sweep_complete ? "" : ", stopped early");
		sb_adds(out, "; fitted per disk:");
		for (size_t k = 0; k < ARRAY_SIZE(what); k++) {
			const struct report_sweep_fit *f = &m->sweep_fit[k];
			if (!f->have || !f->per_disk.have)
				continue;
			sb_addf(out, "\n    %-12s ", what[k]);
			fmt_per_disk(out, f->per_disk);
			if (f->per_disk_se.have) {
				sb_adds(out, " ± ");
				fmt_per_disk(out, f->per_disk_se);
			}
			if (f->r2.have)
			{
				sb_adds(out, ", R² ");
				fmt_r2(out, f->r2);
			}
			if (f->nonlinear)
				not_linear(out, f->p);
		}
		if (m->have_knee) {
			sb_adds(out, "\n    knee:        ");
			if (m->knee_max.have)
				sb_addf(out, "%lld disks with %s at or above the floor (", fmt_round(m->knee_max.v),
					fmt_or(m->knee_field, "?"));
			else
				sb_addf(out, "no step above the floor (");
			fmt_kb(out, m->knee_floor);
			sb_adds(out, m->knee_reached ? ")" : "), never reached: the knee is further");
		}
		if (m->sweep_fit[4].have && m->sweep_fit[4].per_disk.have) {
			sb_addf(out, "\n    %-12s ", "enumeration");
			fmt_ms(out, m->sweep_fit[4].per_disk);
			sb_adds(out, " per disk");
			if (m->sweep_fit[4].nonlinear)
				not_linear(out, m->sweep_fit[4].p);
		}
		sb_addch(out, '\n');
	}
	if (m->attr_status && !strcmp(m->attr_status, "ok")) {
		size_t shown = 0;

		sb_adds(out, "  where each disk's bytes go (page allocations at insmod by call site):");
		for (size_t i = 0; i < m->nsites && shown < 6; i++) {
			if (strcmp(m->sites[i].source, "page_alloc"))
				continue;
			sb_adds(out, shown++ % 2 ? ", " : "\n    ");
			text_clean(out, fmt_or(m->sites[i].site, "?"));
			sb_adds(out, " ");
			fmt_per_disk(out, m->sites[i].per_disk);
			if (m->sites[i].share_pct.have)
				percent_paren(out, m->sites[i].share_pct, ")");
		}
		sb_addch(out, '\n');
		if (m->attr_explained_pct.have) {
			sb_adds(out, "    traced pages less frees, plus vmalloc: ");
			fmt_percent(out, m->attr_explained_pct);
			sb_adds(out, " of the MemFree drop, ");
			fmt_per_disk(out, m->attr_unexplained_per_disk);
			sb_addf(out, " per disk unexplained; closure %s (tolerance %lld%%)\n",
				m->attr_closes == 1 ? "holds" : "DOES NOT HOLD",
				(long long)m->attr_tolerance_pct.v);
		}
	} else if (m->attr_status && strcmp(m->attr_status, "off")) {
		sb_adds(out, "  attribution unavailable: ");
		text_clean(out, fmt_or(m->attr_reason, "no reason given"));
		sb_addch(out, '\n');
	}
	if (m->po_status && !strcmp(m->po_status, "ok")) {
		size_t shown = 0;

		sb_adds(out, "  page_owner (pages still held after insmod, net): ");
		fmt_per_disk(out, m->po_net_per_disk);
		sb_adds(out, " per disk");
		if (m->po_net_share_pct.have)
			percent_paren(out, m->po_net_share_pct, " of the MemFree drop)");
		sb_addch(out, ':');
		for (size_t i = 0; i < m->nsites && shown < 6; i++) {
			if (strcmp(m->sites[i].source, "page_owner"))
				continue;
			sb_adds(out, shown++ % 2 ? ", " : "\n    ");
			text_clean(out, fmt_or(m->sites[i].site, "?"));
			sb_adds(out, " ");
			fmt_per_disk(out, m->sites[i].per_disk);
		}
		sb_addch(out, '\n');
	} else if (m->po_status) {
		sb_adds(out, "  page_owner unavailable: ");
		text_clean(out, fmt_or(m->po_reason, "no reason given"));
		sb_addch(out, '\n');
	}
	if (m->returned_pct.have) {
		sb_adds(out, "  after rmmod: ");
		fmt_percent(out, m->returned_pct);
		sb_adds(out, " of the MemFree taken at insmod came back (");
		fmt_signed_kb(out, m->rmmod_memfree_kb);
		sb_adds(out, ")\n");
	}
	if (m->lowmem_unaccounted_kb.have) {
		sb_adds(out, "  LowFree drop not in Slab/PageTables/KernelStack/Percpu: ");
		fmt_kb(out, m->lowmem_unaccounted_kb);
		sb_addch(out, '\n');
	}
	if (m->have_peak) {
		sb_adds(out, "  monitor: ");
		fmt_whole(out, m->received);
		sb_adds(out, " samples every ");
		fmt_whole(out, m->interval_ms);
		sb_adds(out, " ms");
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
		sb_adds(out, "  inventory: ");
		fmt_whole(out, m->inventory_devices);
		sb_adds(out, " devices; schedulers");
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

/* ---- a comparison ---- */

/*
 * A table for the terminal: cells filled row by row, then written with
 * each column as wide as its widest cell (in characters), the first and
 * the verdict columns to the left, figures to the right.
 */
struct ttable {
	struct strbuf *cell;
	int *left;		/* per column */
	size_t cols, rows, alloc;
};

static void tt_init(struct ttable *t, size_t cols)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->left = xcalloc(cols, sizeof(*t->left));
	t->left[0] = 1;
}

/* A new row's cells, empty. */
static struct strbuf *tt_row(struct ttable *t)
{
	ALLOC_GROW(t->cell, (t->rows + 1) * t->cols, t->alloc);
	for (size_t c = 0; c < t->cols; c++)
		sb_init(&t->cell[t->rows * t->cols + c]);
	return &t->cell[t->rows++ * t->cols];
}

static void tt_write(struct ttable *t, struct strbuf *out)
{
	size_t *w = xcalloc(t->cols, sizeof(*w));

	for (size_t r = 0; r < t->rows; r++)
		for (size_t c = 0; c < t->cols; c++) {
			size_t n = utf8_len(t->cell[r * t->cols + c].buf);
			w[c] = n > w[c] ? n : w[c];
		}
	for (size_t r = 0; r < t->rows; r++) {
		struct strbuf line = STRBUF_INIT;
		sb_adds(&line, "  ");
		for (size_t c = 0; c < t->cols; c++) {
			const struct strbuf *s = &t->cell[r * t->cols + c];
			int pad = (int)(w[c] - utf8_len(s->buf));
			if (c)
				sb_adds(&line, "  ");
			if (!t->left[c])
				sb_addf(&line, "%*s", pad, "");
			sb_add(&line, s->buf, s->len);
			if (t->left[c] && c + 1 < t->cols)
				sb_addf(&line, "%*s", pad, "");
		}
		while (line.len && line.buf[line.len - 1] == ' ')
			sb_setlen(&line, line.len - 1);
		sb_add(out, line.buf, line.len);
		sb_addch(out, '\n');
		sb_release(&line);
	}
	for (size_t i = 0; i < t->rows * t->cols; i++)
		sb_release(&t->cell[i]);
	free(t->cell);
	free(t->left);
	free(w);
}

/* A verdict for the terminal: only a regression (of a gating metric) in
 * capitals. */
static void verdict_text(struct strbuf *out, const char *v)
{
	if (v && !strcmp(v, "regression"))
		sb_adds(out, "REGRESSION");
	else
		text_clean(out, fmt_or(v, "n/a"));
}

/* "+16,832 (+12.7%)". */
static void change_text(struct strbuf *out, const struct compare_stat *s)
{
	fmt_change(out, s->change);
	if (s->change.have && s->change_pct.have) {
		sb_adds(out, " (");
		fmt_signed_percent(out, s->change_pct);
		sb_addch(out, ')');
	}
}

static void compare_metrics_text(const struct compare_model *m, struct strbuf *out)
{
	size_t cols = 1 + m->nsides + 3 * (m->nsides - 1);
	struct ttable t;
	struct strbuf *row;

	tt_init(&t, cols);
	row = tt_row(&t);
	sb_adds(&row[0], "metric");
	for (size_t k = 0, c = 1; k < m->nsides; k++) {
		sb_addf(&row[c++], "%c", fmt_side_letter(k));
		if (!k)
			continue;
		sb_addf(&row[c++], "%c change", fmt_side_letter(k));
		sb_addf(&row[c++], "%c p", fmt_side_letter(k));
		t.left[c] = 1;
		sb_addf(&row[c++], "%c verdict", fmt_side_letter(k));
	}
	for (size_t i = 0; i < m->nmetrics; i++) {
		const struct compare_metric *x = &m->metrics[i];

		row = tt_row(&t);
		text_clean(&row[0], fmt_or(x->name, "?"));
		sb_adds(&row[0], " (");
		text_clean(&row[0], fmt_or(x->unit, ""));
		sb_adds(&row[0], x->gating ? ")" : ") \xc2\xb7");
		for (size_t k = 0, c = 1; k < m->nsides; k++) {
			const struct compare_stat *s = &x->sides[k];
			fmt_mean_sd(&row[c++], s->mean, s->sd, s->n);
			if (!k)
				continue;
			change_text(&row[c++], s);
			fmt_p(&row[c++], s->p);
			verdict_text(&row[c++], s->verdict);
		}
	}
	tt_write(&t, out);
	sb_adds(out, "  \xc2\xb7 not gating: shown, but does not decide the verdict (worse or better, never a regression)\n");
}

static void compare_slab_text(const struct compare_model *m, struct strbuf *out)
{
	size_t n = m->nchanged < 10 ? m->nchanged : 10;
	struct ttable t;
	struct strbuf *row;

	if (!n)
		return;
	sb_adds(out, "slab caches that changed most (growth at insmod, the mean of a side's runs):\n");
	tt_init(&t, 2 * m->nsides);
	row = tt_row(&t);
	sb_adds(&row[0], "cache");
	for (size_t k = 0; k < m->nsides; k++)
		sb_addf(&row[1 + k], "%c", fmt_side_letter(k));
	for (size_t k = 1; k < m->nsides; k++)
		sb_addf(&row[m->nsides + k], "%c - A", fmt_side_letter(k));
	for (size_t i = 0; i < n; i++) {
		const struct compare_slab *c = &m->changed[i];
		row = tt_row(&t);
		text_clean(&row[0], fmt_or(c->cache, "?"));
		for (size_t k = 0; k < m->nsides; k++)
			fmt_kb(&row[1 + k], c->kb[k]);
		for (size_t k = 1; k < m->nsides; k++)
			fmt_signed_kb(&row[m->nsides + k], c->change[k]);
	}
	tt_write(&t, out);
}

static void compare_sites_text(const struct compare_model *m, struct strbuf *out)
{
	struct ttable t;
	struct strbuf *row;

	if (!m->nsites)
		return;
	sb_adds(out, "page-allocation call sites that changed most (bytes per disk at insmod, the mean of a side's runs):\n");
	tt_init(&t, 2 * m->nsides);
	row = tt_row(&t);
	sb_adds(&row[0], "call site");
	for (size_t k = 0; k < m->nsides; k++)
		sb_addf(&row[1 + k], "%c", fmt_side_letter(k));
	for (size_t k = 1; k < m->nsides; k++)
		sb_addf(&row[m->nsides + k], "%c - A", fmt_side_letter(k));
	for (size_t i = 0; i < m->nsites; i++) {
		const struct compare_site *c = &m->sites[i];
		row = tt_row(&t);
		text_clean(&row[0], fmt_or(c->site, "?"));
		for (size_t k = 0; k < m->nsides; k++)
			fmt_per_disk(&row[1 + k], c->per_disk[k]);
		for (size_t k = 1; k < m->nsides; k++) {
			if (c->change[k].have) {
				sb_adds(&row[m->nsides + k], c->change[k].v >= 0 ? "+" : "");
				fmt_per_disk(&row[m->nsides + k], c->change[k]);
			} else {
				sb_adds(&row[m->nsides + k], "n/a");
			}
		}
	}
	tt_write(&t, out);
}

void text_compare(const struct compare_model *m, struct strbuf *out)
{
	sb_adds(out, "scaletest compare: ");
	verdict_text(out, m->verdict);
	sb_addch(out, '\n');
	for (size_t k = 0; k < m->nsides; k++) {
		const struct compare_side_model *s = &m->sides[k];
		long long n = fmt_round(s->n.v);

		sb_addf(out, "  %c: ", fmt_side_letter(k));
		text_clean(out, fmt_or(s->label, "?"));
		sb_addf(out, " (%lld run%s, ", n, n == 1 ? "" : "s");
		text_clean(out, fmt_or(s->scenario, "?"));
		sb_adds(out, ", kernel ");
		text_clean(out, fmt_or(s->kernel, "?"));
		sb_adds(out, ")");
		if (!k) {
			sb_adds(out, ": the base\n");
			continue;
		}
		sb_adds(out, ": ");
		verdict_text(out, s->verdict);
		sb_addch(out, '\n');
	}
	if (m->nmismatch) {
		sb_adds(out, "  WARNING: different environments (compared with --allow-mismatch):");
		for (size_t i = 0; i < m->nmismatch; i++) {
			sb_adds(out, i ? ";" : "");
			sb_addch(out, ' ');
			text_clean(out, fmt_or(m->mismatch[i].key, "?"));
			for (size_t k = 0; k < m->nsides; k++) {
				sb_adds(out, k ? " vs " : " ");
				const char *v = m->mismatch[i].values[k];
				text_clean(out, v && *v ? v : "(none)");
			}
		}
		sb_addch(out, '\n');
	}
	for (size_t i = 0; i < m->ndifferences; i++) {
		sb_adds(out, i ? "; " : "  differs: ");
		text_clean(out, fmt_or(m->differences[i].key, "?"));
		for (size_t k = 0; k < m->nsides; k++) {
			const char *v = m->differences[i].values[k];
			sb_adds(out, k ? " -> " : " ");
			text_clean(out, v && *v ? v : "(none)");
		}
		if (i + 1 == m->ndifferences)
			sb_addch(out, '\n');
	}
	sb_addf(out, "  rule: a change of at least %g%% of A's mean with p < %g "
		"(Welch's t-test, or a group's prediction interval for one run); "
		"only gating metrics decide the verdict\n", m->threshold_pct.v, m->alpha.v);
	if (!m->nsides)
		return;
	compare_metrics_text(m, out);
	compare_slab_text(m, out);
	compare_sites_text(m, out);
}
