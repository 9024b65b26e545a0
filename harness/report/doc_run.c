// SPDX-License-Identifier: Apache-2.0
#include "report/document.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "report/doc_parts.h"
#include "report/reproduce.h"
#include "report/svg.h"
#include "report/text.h"
#include "lib/util.h"

#define SLAB_SHOWN 15		/* bars in a slab chart; its table has every cache */
#define GAPS_LISTED 20		/* lost samples listed in the text */

static const char *status_class(const char *status)
{
	static const char *const bad[] = { "fail", "timeout", "crash", "oom", "error", "interrupted" };

	if (!strcmp(status, "pass"))
		return "status st-ok";
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (!strcmp(status, bad[i]))
			return "status st-bad";
	return "status st-unknown";
}

static void run_title(struct doc *d, const struct report_model *m)
{
	const char *status = fmt_or(m->status, "?");

	mk_block(d, MK_H1, NULL, NULL);
	mk_lit(d, "scaletest run ");
	mk_inline(d, MK_SPAN, "runid");
	mk_text(d, fmt_or(m->run_id, "?"));
	mk_inline_end(d, MK_SPAN);
	mk_lit(d, ": ");
	mk_inline(d, MK_SPAN, status_class(status));
	mk_text(d, status);
	mk_inline_end(d, MK_SPAN);
	mk_block_end(d, MK_H1);
	if (m->reason) {
		mk_block(d, MK_P, "reason", NULL);
		doc_labelled(d, "Reason:", m->reason);
		mk_block_end(d, MK_P);
	}
	mk_block(d, MK_P, NULL, NULL);
	mk_lit(d, "Scenario ");
	mk_inline(d, MK_STRONG, NULL);
	mk_text(d, fmt_or(m->scenario, "?"));
	mk_inline_end(d, MK_STRONG);
	if (m->description) {
		mk_lit(d, ": ");
		mk_text(d, m->description);
	}
	/* The description is the file's: a run made with --set is not what
	 * it describes, so say what was set, beside it. */
	if (m->noverrides) {
		size_t shown = 0;

		mk_lit(d, "; ");
		mk_inline(d, MK_SPAN, "overridden");
		mk_lit(d, "overridden: ");
		for (size_t i = 0; i < m->noverrides; i++) {
			if (!m->overrides[i])
				continue;
			if (shown++)
				mk_lit(d, ", ");
			mk_inline(d, MK_CODE, NULL);
			mk_text(d, m->overrides[i]);
			mk_inline_end(d, MK_CODE);
		}
		mk_inline_end(d, MK_SPAN);
	}
	mk_block_end(d, MK_P);
}

static void disk_name(struct doc *d, const struct report_disk *disk)
{
	MK_PARTS(d, "", fmt_or(disk->name, "?"), " (", fmt_or(disk->dev, "?"), ")");
}

/* A console line that explains the status: "Console: <line>". */
static void console_line(struct doc *d, const char *label, const char *line)
{
	if (!line)
		return;
	mk_block(d, MK_P, "reason", NULL);
	mk_lit_inline(d, MK_STRONG, NULL, label);
	mk_lit(d, " ");
	mk_inline(d, MK_CODE, NULL);
	mk_text(d, line);
	mk_inline_end(d, MK_CODE);
	mk_block_end(d, MK_P);
}

/* A page's head: the environment, the disks and the times. */
static void run_facts(struct doc *d, const struct report_model *m)
{
	static const struct {
		const char *name;
		size_t offset;
	} times[] = {
		{ "enumeration", offsetof(struct report_model, enumerate_s) },
		{ "boot", offsetof(struct report_model, boot_s) },
		{ "rmmod", offsetof(struct report_model, rmmod_s) },
		{ "total", offsetof(struct report_model, total_s) },
		{ "setup", offsetof(struct report_model, setup_s) },
	};

	mk_block(d, MK_P, "env", NULL);
	MK_PARTS(d, "kernel ", fmt_or(m->kernel_version, "?"), " ", fmt_or(m->kernel_arch, "?"),
		 ", ", fmt_or(m->accel, "?"), ", ");
	doc_num(d, fmt_count, m->memory_mb);
	mk_lit(d, " MiB, ");
	doc_num(d, fmt_whole, m->cpus);
	MK_PARTS(d, " CPU, QEMU ", fmt_or(m->qemu_version, "?"));
	if (m->accel_reason) {
		mk_lit(d, " ");
		mk_inline(d, MK_SPAN, "note");
		MK_PARTS(d, "(", m->accel_reason, ")");
		mk_inline_end(d, MK_SPAN);
	}
	mk_block_end(d, MK_P);

	mk_block(d, MK_P, "env", NULL);
	mk_lit(d, "disks: ");
	doc_num(d, fmt_count, m->disks_present);
	mk_lit(d, " of ");
	doc_num(d, fmt_count, m->disks_requested);
	mk_lit(d, " scsi_debug");
	if (m->have_first && m->have_last) {
		mk_lit(d, ", ");
		disk_name(d, &m->first);
		mk_lit(d, " .. ");
		disk_name(d, &m->last);
	}
	mk_lit(d, "; ");
	doc_num(d, fmt_whole, m->virtio_present);
	mk_lit(d, " of ");
	doc_num(d, fmt_whole, m->virtio_requested);
	mk_lit(d, " virtio-");
	mk_text(d, fmt_or(m->virtio_bus, "?"));
	mk_br(d);
	mk_lit(d, "time:");
	for (size_t i = 0; i < ARRAY_SIZE(times); i++) {
		const struct num *t = (const struct num *)((const char *)m + times[i].offset);
		mk_addf(d, "%s %s ", i ? "," : "", times[i].name);
		doc_num(d, fmt_seconds, *t);
		if (t == &m->rmmod_s && m->rmmod_rcu && !strcmp(m->rmmod_rcu, "on"))
			mk_lit(d, " (RCU expedited)");
	}
	mk_br(d);
	mk_lit(d, "to run it again: ");
	mk_lit_inline(d, MK_CODE, NULL, REPRODUCE_COMMAND);
	mk_lit(d, " in the run's directory");
	mk_block_end(d, MK_P);
	console_line(d, "Console:", m->console_crash);
	console_line(d, "OOM:", m->console_oom);
}

/* Markdown's head: the terminal summary, quoted. */
static void run_summary(struct doc *d, const struct report_model *m)
{
	struct strbuf sum = STRBUF_INIT;

	text_run(m, &sum);
	mk_pre(d, sum.buf);
	sb_release(&sum);
}

/* What ended the run, by class, with the console around its first report. */
static void crash_section(struct doc *d, const struct report_model *m)
{
	if (!m->crash_class)
		return;
	doc_heading(d, MK_H2, "crash", "Crash");
	mk_block(d, MK_P, "reason", NULL);
	MK_PARTS(d, "", m->crash_class, ", blamed on the ", fmt_or(m->crash_blame, "?"), ": ");
	mk_inline(d, MK_CODE, NULL);
	mk_text(d, fmt_or(m->crash_title, "?"));
	mk_inline_end(d, MK_CODE);
	mk_block_end(d, MK_P);
	if (m->crash_context && *m->crash_context) {
		doc_note(d, "The console around the first report (console.log has all of it):");
		mk_pre(d, m->crash_context);
	}
}

/* Kernel reports that did not end the run (result.json's findings). */
static void findings_section(struct doc *d, const struct report_model *m)
{
	if (!m->nfindings)
		return;
	doc_heading(d, MK_H2, "findings", "Findings");
	doc_note(d, "Kernel reports that did not end the run: a hung-task report during a "
		  "long insmod or rmmod whose disk count still moved, in a run the guest "
		  "finished; a page allocation failure, which the kernel survives.");
	for (size_t i = 0; i < m->nfindings; i++) {
		const struct report_finding *f = &m->findings[i];

		mk_block(d, MK_P, "finding", NULL);
		MK_PARTS(d, "", fmt_or(f->cls, "?"), ", blamed on the ", fmt_or(f->blame, "?"), ": ");
		mk_inline(d, MK_CODE, NULL);
		mk_text(d, fmt_or(f->title, "?"));
		mk_inline_end(d, MK_CODE);
		if (f->line.have)
			mk_addf(d, " (console.log line %lld)", fmt_round(f->line.v));
		mk_block_end(d, MK_P);
		if (f->context && *f->context)
			mk_pre(d, f->context);
	}
}

static const struct mk_col mem_cols[] = {
	{ "", MK_LEFT }, { "before insmod", MK_RIGHT }, { "after insmod", MK_RIGHT },
	{ "change", MK_RIGHT }, { "per disk", MK_RIGHT },
};

static void mem_section(struct doc *d, const struct report_model *m)
{
	if (!m->have_insmod)
		return;
	doc_heading(d, MK_H2, "insmod", "Memory at insmod");
	if (d->mk->page) {
		mk_block(d, MK_P, "note", NULL);
		mk_lit(d, m->highmem ? "LowFree is the headline: a HIGHMEM kernel's disks live in lowmem."
				     : "MemFree is the headline: a 64-bit kernel has no LowFree "
				       "(all its memory is directly mapped).");
		mk_lit(d, " Per disk is the change divided by the number of scsi_debug disks, "
		       "with the sign turned so that a cost is positive.");
		if (m->pcp_counted)
			mk_lit(d, m->highmem ? " LowFree's per disk counts the free pages on the per-CPU lists "
					       "of the low zones as free (LowFree leaves them out; they move by "
					       "megabytes between boots on kernels since 6.7)."
					     : " The free measures' per disk counts the free pages on the "
					       "per-CPU lists as free (MemFree leaves them out; they move by "
					       "megabytes between boots on kernels since 6.7).");
		mk_block_end(d, MK_P);
	}
	mk_table(d, "mem", mem_cols, ARRAY_SIZE(mem_cols));
	for (size_t i = 0; i < m->nmem; i++) {
		const struct report_mem_row *r = &m->mem[i];

		mk_row(d, r->headline ? "headline" : NULL);
		mk_lit_cell(d, r->field);
		doc_num_cell(d, fmt_kb, r->before);
		doc_num_cell(d, fmt_kb, r->after);
		doc_num_cell(d, fmt_signed_kb, r->change);
		doc_num_cell(d, fmt_per_disk, r->per_disk);
		mk_row_end(d);
	}
	mk_table_end(d);
	if (!d->mk->page)	/* the summary says the rest */
		return;
	if (m->unaccounted_kb.have) {
		mk_block(d, MK_P, NULL, NULL);
		mk_lit(d, "MemFree drop not in Slab/PageTables/KernelStack/VmallocUsed/Percpu: ");
		fmt_kb(d->out, m->unaccounted_kb);
		mk_lit(d, " ");
		mk_lit_inline(d, MK_SPAN, "note", "(blk-mq request pools and other page "
			      "allocations never appear in slabinfo)");
		mk_block_end(d, MK_P);
	}
	if (m->lowmem_unaccounted_kb.have) {
		mk_block(d, MK_P, NULL, NULL);
		mk_lit(d, "LowFree drop not in Slab/PageTables/KernelStack/Percpu: ");
		fmt_kb(d->out, m->lowmem_unaccounted_kb);
		mk_block_end(d, MK_P);
	}
	if (m->returned_pct.have) {
		mk_block(d, MK_P, NULL, NULL);
		mk_lit(d, "After rmmod: ");
		doc_num(d, fmt_percent, m->returned_pct);
		mk_lit(d, " of the MemFree taken at insmod came back (");
		fmt_signed_kb(d->out, m->rmmod_memfree_kb);
		mk_lit(d, ").");
		mk_block_end(d, MK_P);
	}
}

static const struct mk_col disk_cols[] = {
	{ "disk", MK_LEFT }, { "name", MK_LEFT }, { "dev_t", MK_LEFT },
};

static void disk_row(struct doc *d, const char *what, const struct report_disk *disk)
{
	mk_row(d, NULL);
	mk_lit_cell(d, what);
	mk_text_cell(d, fmt_or(disk->name, "?"));
	mk_text_cell(d, fmt_or(disk->dev, "?"));
	mk_row_end(d);
}

static void disks_section(struct doc *d, const struct report_model *m)
{
	doc_heading(d, MK_H2, "disks", "Disks");
	mk_table(d, "disks", disk_cols, ARRAY_SIZE(disk_cols));
	if (m->have_first)
		disk_row(d, "first scsi_debug", &m->first);
	if (m->have_last)
		disk_row(d, "last scsi_debug", &m->last);
	for (size_t i = 0; i < m->nvirtio; i++)
		disk_row(d, "virtio", &m->virtio[i]);
	mk_table_end(d);
}

static const struct mk_col phase_cols[] = {
	{ "phase", MK_LEFT }, { "uptime", MK_RIGHT }, { "LowFree", MK_RIGHT },
	{ "MemFree", MK_RIGHT }, { "MemAvailable", MK_RIGHT }, { "Slab", MK_RIGHT },
};

static void phases_section(struct doc *d, const struct report_model *m)
{
	doc_heading(d, MK_H2, "phases", "Memory by phase");
	if (!m->nphases) {
		doc_note(d, "No phase was measured.");
		return;
	}
	if (d->mk->page)
		svg_phases(d->out, m->phases, m->nphases);
	mk_table(d, "phases", phase_cols, ARRAY_SIZE(phase_cols));
	for (size_t i = 0; i < m->nphases; i++) {
		const struct report_phase *p = &m->phases[i];

		mk_row(d, NULL);
		mk_text_cell(d, fmt_or(p->name, "?"));
		mk_cell(d, NULL, 0);
		doc_num(d, fmt_seconds, p->uptime_s);
		mk_cell_end(d);
		for (int k = PHASE_LOWFREE; k <= PHASE_SLAB; k++)
			doc_num_cell(d, fmt_kb, p->mem[k]);
		mk_row_end(d);
	}
	mk_table_end(d);
}

static const struct mk_col slab_cols[] = {
	{ "cache", MK_LEFT }, { "growth", MK_RIGHT }, { "objects", MK_RIGHT }, { "per disk", MK_RIGHT },
};

static void slab_chart(struct doc *d, const struct report_model *m)
{
	struct svg_bar b[SLAB_SHOWN];
	size_t k = 0;

	for (size_t i = 0; i < m->nslab && k < SLAB_SHOWN; i++) {
		if (!m->slab[i].kb.have)
			continue;
		b[k].v = m->slab[i].kb.v;
		b[k++].label = fmt_or(m->slab[i].cache, "?");
	}
	if (k)
		svg_hbars(d->out, "slab caches that grew most at insmod, kB", b, k, "#59a14f", "#e15759");
}

static void slab_section(struct doc *d, const struct report_model *m)
{
	if (!m->nslab)
		return;
	doc_heading(d, MK_H2, "slab", "Slab caches that grew most at insmod");
	if (d->mk->page)
		slab_chart(d, m);
	mk_table(d, "slab", slab_cols, ARRAY_SIZE(slab_cols));
	for (size_t i = 0; i < m->nslab; i++) {
		const struct report_slab *c = &m->slab[i];

		mk_row(d, NULL);
		mk_text_cell(d, fmt_or(c->cache, "?"));
		doc_num_cell(d, fmt_signed_kb, c->kb);
		doc_num_cell(d, fmt_count, c->objs);
		doc_num_cell(d, fmt_per_disk, c->bytes_per_disk);
		mk_row_end(d);
	}
	mk_table_end(d);
}

static const struct mk_col site_cols[] = {
	{ "call site", MK_LEFT }, { "source", MK_LEFT }, { "per disk", MK_RIGHT },
	{ "share of the MemFree drop", MK_RIGHT },
	{ "share of the LowFree drop", MK_RIGHT },	/* HIGHMEM kernels only */
};

static void attribution_chart(struct doc *d, const struct report_model *m)
{
	struct svg_bar b[REPORT_SITES_PAGES];
	size_t k = 0;

	for (size_t i = 0; i < m->nsites && k < REPORT_SITES_PAGES; i++) {
		if (strcmp(m->sites[i].source, "page_alloc") || !m->sites[i].per_disk.have)
			continue;
		b[k].v = m->sites[i].per_disk.v / 1024;
		b[k++].label = fmt_or(m->sites[i].site, "?");
	}
	if (k)
		svg_hbars(d->out, "page allocations at insmod by call site, kB per disk", b, k,
			  "#4e79a7", "#e15759");
}

static const struct mk_col step_fit_cols[] = {
	{ "call site", MK_LEFT }, { "bytes per disk", MK_RIGHT }, { "R²", MK_RIGHT },
	{ "steps", MK_RIGHT },
};

/* A sweep's attribution.step_fit: each large page_alloc site's line
 * against the disk count. */
static void step_fit_section(struct doc *d, const struct report_model *m)
{
	if (!m->nstep_fit)
		return;
	doc_heading(d, MK_H2, "attribution-steps",
		"Each call site's bytes per disk, fitted over the sweep's steps");
	mk_block(d, MK_P, NULL, NULL);
	mk_lit(d, "Page allocations counted after each step (cumulative since before-insmod, "
	       "gross), a line by least squares over the rising steps for the largest "
	       "sites at the peak");
	if (m->attr_steps_read_s.have)
	{
		mk_lit(d, "; reading them after the steps took ");
		doc_num(d, fmt_seconds, m->attr_steps_read_s);
		mk_lit(d, " in all");
	}
	mk_lit(d, ".");
	mk_block_end(d, MK_P);
	mk_table(d, "attribution-steps", step_fit_cols, ARRAY_SIZE(step_fit_cols));
	for (size_t i = 0; i < m->nstep_fit; i++) {
		const struct report_step_fit *f = &m->step_fit[i];

		mk_row(d, NULL);
		mk_text_cell(d, fmt_or(f->site, "?"));
		doc_num_cell(d, fmt_per_disk, f->per_disk);
		doc_num_cell(d, fmt_r2, f->r2);
		doc_num_cell(d, fmt_count, f->points);
		mk_row_end(d);
	}
	mk_table_end(d);
}

/* Where each disk's bytes go: result.json's attribution, the top call
 * sites of each source and how much of the MemFree drop the trace
 * explains. */
static void attribution_section(struct doc *d, const struct report_model *m)
{
	if (!m->attr_status || !strcmp(m->attr_status, "off"))
		return;
	int hist_ok = !strcmp(m->attr_status, "ok");
	int po_ok = m->po_status && !strcmp(m->po_status, "ok");

	doc_heading(d, MK_H2, "attribution", "Where each disk's bytes go");
	if (!hist_ok) {
		mk_block(d, MK_P, NULL, NULL);
		mk_lit(d, po_ok ? "Hist triggers unavailable: " : "Attribution unavailable: ");
		mk_text(d, fmt_or(m->attr_reason, "no reason given"));
		mk_block_end(d, MK_P);
		if (!po_ok)
			return;
	} else {
		doc_note(d, "Allocations during insmod by kernel call site (hist triggers on "
			  "kmem events, keyed on the stack): page allocations are gross (what "
			  "was freed again is only known in total); kmalloc and kmem_cache "
			  "allocations are inside the slab pages, not on top of them.");
		if (d->mk->page)
			attribution_chart(d, m);
	}
	if (po_ok) {
		mk_block(d, MK_P, NULL, NULL);
		mk_lit(d, "page_owner: pages still allocated after insmod by the stack that "
		       "allocated them, less those it held before (net): ");
		fmt_per_disk(d->out, m->po_net_per_disk);
		mk_lit(d, " per disk, ");
		fmt_percent(d->out, m->po_net_share_pct);
		mk_lit(d, " of the MemFree drop.");
		mk_block_end(d, MK_P);
	} else if (m->po_status) {
		mk_block(d, MK_P, NULL, NULL);
		mk_lit(d, "page_owner unavailable: ");
		mk_text(d, fmt_or(m->po_reason, "no reason given"));
		mk_block_end(d, MK_P);
	}
	mk_table(d, "attribution", site_cols, ARRAY_SIZE(site_cols) - !m->highmem);
	for (size_t i = 0; i < m->nsites; i++) {
		const struct report_site *s = &m->sites[i];

		mk_row(d, NULL);
		mk_text_cell(d, fmt_or(s->site, "?"));
		mk_text_cell(d, s->source);
		doc_num_cell(d, fmt_per_disk, s->per_disk);
		doc_num_cell(d, fmt_percent, s->share_pct);
		if (m->highmem)
			doc_num_cell(d, fmt_percent, s->lowfree_share_pct);
		mk_row_end(d);
	}
	mk_table_end(d);
	if (!hist_ok)
		return;
	mk_block(d, MK_P, NULL, NULL);
	if (m->attr_explained_pct.have) {
		mk_lit(d, "Traced page allocations less frees, plus VmallocUsed's growth: ");
		doc_num(d, fmt_percent, m->attr_explained_pct);
		mk_lit(d, " of the MemFree drop; unexplained: ");
		fmt_per_disk(d->out, m->attr_unexplained_per_disk);
		mk_addf(d, " per disk. The closure %s (tolerance %lld%% of the drop).",
			m->attr_closes == 1 ? "holds" : "does not hold",
			(long long)m->attr_tolerance_pct.v);
	} else {
		mk_lit(d, "No closure: the MemFree drop or the page totals are missing.");
	}
	mk_block_end(d, MK_P);
	step_fit_section(d, m);
}

static const struct mk_col sweep_fit_cols[] = {
	{ "figure", MK_LEFT }, { "per disk", MK_RIGHT }, { "± (std. error)", MK_RIGHT },
	{ "fixed", MK_RIGHT }, { "R²", MK_RIGHT }, { "points", MK_RIGHT }, { "shape", MK_LEFT },
};

static const struct mk_col sweep_point_cols[] = {
	{ "disks", MK_RIGHT }, { "MemFree taken", MK_RIGHT }, { "LowFree taken", MK_RIGHT },
	{ "Slab growth", MK_RIGHT }, { "unaccounted", MK_RIGHT }, { "step time", MK_RIGHT },
	{ "disks/s", MK_RIGHT },
};

/* A fit's linearity test: "bends (p = 0.004)", "linear (p = 0.412)",
 * "bends (p < 0.001)": fmt_p's "< 0.001" is the relation itself. */
static void fit_p(struct doc *d, const char *shape, struct num p)
{
	mk_lit(d, shape);
	mk_lit(d, " (");
	doc_num(d, fmt_p_is, p);
	mk_lit(d, ")");
}

static void sweep_fit_row(struct doc *d, const char *what, const struct report_sweep_fit *f,
			  int time)
{
	if (!f->have)
		return;
	mk_row(d, f->nonlinear ? "fail" : NULL);
	mk_lit_cell(d, what);
	doc_num_cell(d, time ? fmt_ms : fmt_per_disk, f->per_disk);
	doc_num_cell(d, time ? fmt_ms : fmt_per_disk, f->per_disk_se);
	doc_num_cell(d, time ? fmt_seconds : fmt_signed_kb, f->fixed);
	doc_num_cell(d, fmt_r2, f->r2);
	doc_num_cell(d, fmt_count, f->points);
	mk_cell(d, NULL, 0);
	if (!f->p.have)
		mk_lit(d, "too few points to test");
	else if (f->nonlinear)
		fit_p(d, "bends", f->p);
	else
		fit_p(d, "linear", f->p);
	mk_cell_end(d);
	mk_row_end(d);
}

/* "The knee: 4,750 disks with LowFree at or above the floor of 65,536 kB
 * (71,234 kB left there); 179,514 B of LowFree per disk." */
static void knee_words(struct doc *d, const struct report_model *m)
{
	const char *f = fmt_or(m->knee_field, "free memory");

	mk_block(d, MK_P, NULL, NULL);
	mk_lit(d, "The knee: ");
	if (m->knee_max.have) {
		fmt_thousands_d(d->out, m->knee_max.v);
		mk_lit(d, " disks with ");
		mk_text(d, f);
		mk_lit(d, " at or above the floor of ");
		fmt_kb(d->out, m->knee_floor);
		mk_lit(d, " (");
		fmt_kb(d->out, m->knee_free);
		mk_lit(d, " left there)");
	} else {
		mk_lit(d, "no step kept ");
		mk_text(d, f);
		mk_lit(d, " at or above the floor of ");
		fmt_kb(d->out, m->knee_floor);
	}
	if (!m->knee_reached)
		mk_lit(d, "; the floor was never reached (the steps ran out), so the knee is further");
	if (m->knee_per_disk.have) {
		mk_lit(d, "; ");
		fmt_per_disk(d->out, m->knee_per_disk);
		mk_lit(d, " of ");
		mk_text(d, f);
		mk_lit(d, " per disk");
	}
	mk_lit(d, ".");
	mk_block_end(d, MK_P);
}

static const struct mk_col ta_site_cols[] = {
	{ "call site", MK_LEFT }, { "task", MK_LEFT }, { "on the CPU", MK_RIGHT },
	{ "waiting", MK_RIGHT }, { "per disk", MK_RIGHT }, { "share of the phase", MK_RIGHT },
};

static const struct mk_col ta_growth_cols[] = {
	{ "call site", MK_LEFT }, { "task", MK_LEFT }, { "first step", MK_RIGHT }, { "last step", MK_RIGHT },
	{ "growth", MK_RIGHT }, { "share", MK_RIGHT }, { "fitted per disk", MK_RIGHT },
	{ "at the last disk", MK_RIGHT }, { "shape", MK_LEFT },
};

/* One phase of the time attribution: what it took, how well the samples
 * cover it, its top call sites (and on a page its icicle). */
static void ta_phase_section(struct doc *d, const struct report_model *m,
			     const struct report_ta_phase *p)
{
	mk_block(d, MK_P, NULL, NULL);
	mk_inline(d, MK_STRONG, NULL);
	mk_text(d, fmt_or(p->phase, "?"));
	mk_inline_end(d, MK_STRONG);
	mk_lit(d, ": ");
	fmt_seconds(d->out, p->wall_s);
	if (p->disks.have && p->disks.v > 0) {
		mk_lit(d, " for ");
		fmt_thousands_d(d->out, p->disks.v);
		mk_lit(d, " disks");
		if (p->wall_s.have)
		{
			mk_lit(d, " (");
			doc_num(d, fmt_ms, (struct num){ p->wall_s.v / p->disks.v * 1000, 1 });
			mk_lit(d, " a disk)");
		}
	}
	mk_lit(d, "; ");
	doc_num(d, fmt_count, p->samples);
	mk_lit(d, " samples");
	if (p->interval_s.have)
	{
		mk_lit(d, ", one every ");
		doc_num(d, fmt_seconds, p->interval_s);
	}
	if (p->cost_pct.have)
	{
		mk_lit(d, ", taking ");
		doc_num(d, fmt_percent, p->cost_pct);
		mk_lit(d, " of the guest's CPU");
	}
	if (!p->complete)
		mk_lit(d, " (the sampler's last chunk never came)");
	mk_lit(d, ". On the CPU ");
	fmt_seconds(d->out, p->on_cpu_s);
	mk_lit(d, ", waiting ");
	fmt_seconds(d->out, p->wait_s);
	if (p->idle_s.have && p->idle_s.v > 0) {
		mk_lit(d, ", idle ");
		fmt_seconds(d->out, p->idle_s);
	}
	if (p->closure_pct.have) {
		mk_lit(d, ": ");
		doc_num(d, fmt_percent, p->closure_pct);
		mk_addf(d, " of the wall time attributed, the closure %s (tolerance %lld%%)",
			p->closes ? "holds" : "does not hold", (long long)m->ta_tolerance_pct.v);
	}
	mk_lit(d, ".");
	if (p->command_cpu_s.have) {
		mk_lit(d, " The command's own CPU time: ");
		fmt_seconds(d->out, p->command_cpu_s);
		mk_lit(d, " by schedstat, ");
		fmt_seconds(d->out, p->command_sampled_cpu_s);
		mk_lit(d, " by the samples.");
	}
	mk_block_end(d, MK_P);
	if (d->mk->page && p->nstacks)
		svg_icicle(d->out, fmt_or(p->phase, "?"), p->stacks, p->nstacks);
	if (!p->nsites)
		return;
	mk_table(d, "time-sites", ta_site_cols, ARRAY_SIZE(ta_site_cols));
	for (size_t i = 0; i < p->nsites; i++) {
		const struct report_ta_site *s = &p->sites[i];

		mk_row(d, NULL);
		mk_text_cell(d, fmt_or(s->site, "?"));
		mk_cell(d, NULL, 0);
		mk_text(d, fmt_or(s->cls, "?"));
		if (s->comm) {
			mk_lit(d, ": ");
			mk_text(d, s->comm);
		}
		mk_cell_end(d);
		doc_num_cell(d, fmt_seconds, s->on_cpu_s);
		doc_num_cell(d, fmt_seconds, s->wait_s);
		doc_num_cell(d, fmt_ms, s->ms_per_disk);
		doc_num_cell(d, fmt_percent, s->share_pct);
		mk_row_end(d);
	}
	mk_table_end(d);
}

static void ta_growth_table(struct doc *d, const struct report_ta_growth *g, size_t n,
			    const char *first_col)
{
	struct mk_col cols[ARRAY_SIZE(ta_growth_cols)];

	memcpy(cols, ta_growth_cols, sizeof(cols));
	cols[0].head = first_col;
	mk_table(d, "time-growth", cols, ARRAY_SIZE(cols));
	for (size_t i = 0; i < n; i++) {
		mk_row(d, g[i].nonlinear ? "fail" : NULL);
		mk_text_cell(d, fmt_or(g[i].site, "?"));
		mk_text_cell(d, fmt_or(g[i].cls, "?"));
		doc_num_cell(d, fmt_ms, g[i].first);
		doc_num_cell(d, fmt_ms, g[i].last);
		doc_num_cell(d, fmt_ratio, g[i].growth);
		doc_num_cell(d, fmt_percent, g[i].share_pct);
		doc_num_cell(d, fmt_ms, g[i].per_disk);
		doc_num_cell(d, fmt_ms, g[i].marginal_last);
		mk_lit_cell(d, g[i].nonlinear ? "bends" : "linear");
		mk_row_end(d);
	}
	mk_table_end(d);
}

/* A sweep's sites whose time per disk changed between its rising steps. */
static void ta_growth_section(struct doc *d, const struct report_model *m)
{
	if (!m->nta_growth)
		return;
	doc_heading(d, MK_H2, "time-growth", "Each call site's time per disk over the sweep's steps");
	mk_block(d, MK_P, NULL, NULL);
	mk_lit(d, "Milliseconds per disk added at the first and the last rising step, for the "
	       "largest functions of the rising steps (a call site's first frame, its "
	       "callers summed) and the largest call sites; the fit is least squares of "
	       "the summed seconds against the count, \"bends\" as for the sweep's own "
	       "lines; \"(no stack)\" is a task running on another CPU. ");
	if (m->ta_growing_fn) {
		mk_lit(d, "The function whose time per disk grew most (its call sites summed): ");
		mk_text_inline(d, MK_CODE, NULL, m->ta_growing_fn);
		mk_lit(d, "; ");
	}
	if (m->ta_growing) {
		mk_lit(d, "the call site: ");
		mk_text_inline(d, MK_CODE, NULL, m->ta_growing);
		mk_lit(d, ".");
	} else {
		mk_lit(d, "no large call site's time per disk grew.");
	}
	mk_block_end(d, MK_P);
	if (m->nta_growth_fn)
		ta_growth_table(d, m->ta_growth_fn, m->nta_growth_fn, "function");
	ta_growth_table(d, m->ta_growth, m->nta_growth, "call site");
}

/* Where each disk's time goes: result.json's time_attribution. */
static void timeattr_section(struct doc *d, const struct report_model *m)
{
	if (!m->ta_status)
		return;
	doc_heading(d, MK_H2, "time-attribution", "Where each disk's time goes");
	if (strcmp(m->ta_status, "ok")) {
		mk_block(d, MK_P, NULL, NULL);
		mk_lit(d, "Time attribution unavailable: ");
		mk_text(d, fmt_or(m->ta_reason, "no reason given"));
		mk_block_end(d, MK_P);
		return;
	}
	mk_block(d, MK_P, "note", NULL);
	mk_lit(d, "Kernel stacks of the tasks at work (the command, and every task in state R "
	       "or D), read from the guest's /proc/PID/stack; each sample's time goes to the "
	       "tasks on the CPU, else to those waiting, else to the command. Call sites are "
	       "the first frame past the scheduler's and the waits' own, with its callers");
	if (m->ta_preempt) {
		mk_lit(d, "; preemption ");
		mk_text(d, m->ta_preempt);
	}
	if (m->ta_cost_pct.have) {
		mk_lit(d, "; the sampler took ");
		doc_num(d, fmt_percent, m->ta_cost_pct);
		mk_addf(d, " of the guest's CPU (at most %lld%%)", (long long)m->ta_max_cpu_pct.v);
	}
	if (m->ta_steps)
		mk_addf(d, "; %zu sweep steps, summed as \"sweep\"", m->ta_steps);
	mk_lit(d, ".");
	mk_block_end(d, MK_P);
	for (size_t i = 0; i < m->nta_phases; i++)
		ta_phase_section(d, m, &m->ta_phases[i]);
	ta_growth_section(d, m);
}

static const struct mk_col curve_cols[] = {
	{ "work", MK_LEFT }, { "disks", MK_RIGHT }, { "time", MK_RIGHT },
	{ "per disk (fit)", MK_RIGHT }, { "fixed", MK_RIGHT }, { "R²", MK_RIGHT },
	{ "first disk", MK_RIGHT }, { "last disk", MK_RIGHT }, { "shape", MK_LEFT },
};

/* Seconds per disk: the fitted curves of time against the disks. */
static void curves_section(struct doc *d, const struct report_model *m)
{
	size_t have = 0, pts = 0;

	for (size_t i = 0; i < m->ncurves; i++) {
		have += m->curves[i].have;
		pts += m->curves[i].npts;
	}
	if (!have && !(pts && d->mk->page))
		return;
	doc_heading(d, MK_H2, "time-curves", "Seconds per disk");
	doc_note(d, "Time against the disks made or removed so far (the progress counts of "
		  "insmod and rmmod, a sweep's steps), a line by least squares: its slope is "
		  "the time per disk, its intercept the fixed cost; \"first disk\" and \"last "
		  "disk\" are the cost of one more disk there (a fitted parabola's slope).");
	if (pts && d->mk->page) {
		doc_note(d, "The disks present as each phase went on, and the milliseconds each "
			  "disk took along the way (over stretches of a fortieth of the disks) "
			  "against the disks present then; the dashed line is the fit's cost of "
			  "one more disk, which a probe that slows as disks accumulate bends.");
		svg_run_curves(d->out, m);
	}
	if (!have)
		return;
	mk_table(d, "time-curves", curve_cols, ARRAY_SIZE(curve_cols));
	for (size_t i = 0; i < m->ncurves; i++) {
		const struct report_time_curve *c = &m->curves[i];

		if (!c->have)
			continue;
		mk_row(d, c->nonlinear ? "fail" : NULL);
		mk_lit_cell(d, c->what);
		doc_num_cell(d, fmt_count, c->disks);
		doc_num_cell(d, fmt_seconds, c->wall_s);
		doc_num_cell(d, fmt_ms, c->per_disk);
		doc_num_cell(d, fmt_seconds, c->fixed);
		doc_num_cell(d, fmt_r2, c->r2);
		doc_num_cell(d, fmt_ms, c->marginal_first);
		doc_num_cell(d, fmt_ms, c->marginal_last);
		mk_cell(d, NULL, 0);
		if (!c->p.have)
			mk_lit(d, "too few points to test");
		else if (c->nonlinear)
			fit_p(d, "bends", c->p);
		else
			fit_p(d, "linear", c->p);
		mk_cell_end(d);
		mk_row_end(d);
	}
	mk_table_end(d);
}

static void sweep_section(struct doc *d, const struct report_model *m)
{
	static const char *const what[] = {
		"MemFree taken", "LowFree taken", "Slab growth", "unaccounted", "enumeration",
	};
	int any_down = 0;

	if (!m->have_sweep)
		return;
	doc_heading(d, MK_H2, "sweep", "Sweep: cost against the disk count");
	mk_block(d, MK_P, NULL, NULL);
	fmt_thousands_d(d->out, (double)m->nsweep);
	mk_lit(d, " of ");
	fmt_count(d->out, m->sweep_steps);
	mk_lit(d, " steps measured in one boot, scsi_debug hosts of ");
	fmt_count(d->out, m->host_disks);
	mk_lit(d, " disks added or removed between them");
	mk_lit(d, m->sweep_complete ? "." : "; the sweep stopped early (see the reason above), "
	       "and the lines are fitted to the steps it measured.");
	if (d->mk->page)
		mk_lit(d, " Each figure is taken against before-insmod; the line is least squares "
		       "over the rising steps; \"bends\" means a quadratic term is significant "
		       "(F-test, p < 0.01) and the cost of one more disk differs between the "
		       "smallest and the largest count by more than 10%.");
	mk_block_end(d, MK_P);
	if (d->mk->page && m->nsweep)
		svg_sweep(d->out, m, 0);
	if (m->have_knee)
		knee_words(d, m);
	mk_table(d, "sweep-fit", sweep_fit_cols, ARRAY_SIZE(sweep_fit_cols));
	for (size_t k = 0; k < ARRAY_SIZE(m->sweep_fit); k++)
		sweep_fit_row(d, what[k], &m->sweep_fit[k], k == 4);
	mk_table_end(d);
	for (size_t k = 0; k < ARRAY_SIZE(m->sweep_down); k++)
		any_down |= m->sweep_down[k].have;
	if (any_down) {
		mk_block(d, MK_P, NULL, NULL);
		mk_lit(d, "Falling steps (hosts removed): what each removed disk gave back.");
		mk_block_end(d, MK_P);
		mk_table(d, "sweep-down", sweep_fit_cols, ARRAY_SIZE(sweep_fit_cols));
		for (size_t k = 0; k < ARRAY_SIZE(m->sweep_down); k++)
			sweep_fit_row(d, what[k], &m->sweep_down[k], 0);
		mk_table_end(d);
	}
	if (d->mk->page && m->nsweep)
		svg_sweep(d->out, m, 1);
	mk_table(d, "sweep-points", sweep_point_cols, ARRAY_SIZE(sweep_point_cols));
	for (size_t i = 0; i < m->nsweep; i++) {
		const struct report_sweep_point *p = &m->sweep[i];

		mk_row(d, NULL);
		doc_num_cell(d, fmt_count, p->disks);
		doc_num_cell(d, fmt_kb, p->memfree_kb);
		doc_num_cell(d, fmt_kb, p->lowfree_kb);
		doc_num_cell(d, fmt_signed_kb, p->slab_kb);
		doc_num_cell(d, fmt_signed_kb, p->unaccounted_kb);
		doc_num_cell(d, fmt_seconds, p->enumerate_s);
		doc_num_cell(d, fmt_count, p->rate);
		mk_row_end(d);
	}
	mk_table_end(d);
}

static const struct mk_col peak_cols[] = {
	{ "", MK_LEFT }, { "steady after insmod", MK_RIGHT }, { "during I/O", MK_RIGHT },
};

static void monitor_samples(struct doc *d, const struct report_model *m)
{
	mk_block(d, MK_P, NULL, NULL);
	fmt_thousands_d(d->out, m->received.have ? m->received.v : (double)m->nsamples_listed);
	mk_lit(d, " samples");
	if (m->interval_ms.have) {
		mk_lit(d, ", one every ");
		fmt_thousands_d(d->out, m->interval_ms.v);
		mk_lit(d, " ms");
	}
	for (size_t i = 0; i < m->ngaps; i++) {
		if (i == GAPS_LISTED) {
			mk_lit(d, " and more");
			break;
		}
		mk_addf(d, "%s%lld..%lld", i ? ", " : "; lost on the channel: ",
			fmt_round(m->gaps[i].first), fmt_round(m->gaps[i].last));
	}
	mk_lit(d, d->mk->page ? ". The guest's steps are shaded." : ".");
	mk_block_end(d, MK_P);
}

static void monitor_section(struct doc *d, const struct report_model *m)
{
	const struct {
		const char *what;
		struct num steady, io;
	} peaks[] = {
		{ "MemFree (lowest during I/O)", m->steady_memfree, m->io_memfree_min },
		{ "LowFree (lowest)", m->steady_lowfree, m->io_lowfree_min },
		{ "Slab (highest)", m->steady_slab, m->io_slab_max },
	};

	if (!m->have_monitor)
		return;
	doc_heading(d, MK_H2, "monitor", "Memory while it ran");
	monitor_samples(d, m);
	if (d->mk->page && m->nsamples_listed)
		svg_monitor(d->out, m);
	if (!m->have_peak)
		return;
	mk_table(d, "peak", peak_cols, ARRAY_SIZE(peak_cols));
	for (size_t i = 0; i < ARRAY_SIZE(peaks); i++) {
		mk_row(d, NULL);
		mk_lit_cell(d, peaks[i].what);
		doc_num_cell(d, fmt_kb, peaks[i].steady);
		doc_num_cell(d, fmt_kb, peaks[i].io);
		mk_row_end(d);
	}
	mk_table_end(d);
	if (d->mk->page && m->io_extra_kb.have) {
		mk_block(d, MK_P, NULL, NULL);
		mk_lit(d, "The I/O peak took ");
		fmt_kb(d->out, m->io_extra_kb);
		mk_lit(d, " of MemFree beyond the steady state after insmod.");
		mk_block_end(d, MK_P);
	}
}

static const struct mk_col fio_cols[] = {
	{ "group", MK_LEFT }, { "job", MK_LEFT }, { "read IOPS", MK_RIGHT },
	{ "write IOPS", MK_RIGHT }, { "read p50 / p99", MK_RIGHT },
	{ "write p50 / p99", MK_RIGHT }, { "error", MK_RIGHT },
};

static void latency_cell(struct doc *d, struct num p50, struct num p99)
{
	mk_cell(d, NULL, 0);
	if (p50.have && p99.have) {
		doc_num(d, fmt_amount, p50);
		mk_lit(d, " / ");
		doc_num(d, fmt_us, p99);
	}
	mk_cell_end(d);
}

static void fio_section(struct doc *d, const struct report_model *m)
{
	if (!m->njobs)
		return;
	doc_heading(d, MK_H2, "fio", "fio");
	mk_table(d, "fio", fio_cols, ARRAY_SIZE(fio_cols));
	for (size_t i = 0; i < m->njobs; i++) {
		const struct report_fio_job *j = &m->jobs[i];

		mk_row(d, NULL);
		mk_text_cell(d, fmt_or(j->group, "?"));
		mk_text_cell(d, fmt_or(j->job, "?"));
		doc_num_cell(d, fmt_count_or_blank, j->read_iops);
		doc_num_cell(d, fmt_count_or_blank, j->write_iops);
		latency_cell(d, j->read_p50, j->read_p99);
		latency_cell(d, j->write_p50, j->write_p99);
		mk_cell(d, j->error.v ? "fail" : NULL, 0);
		mk_addf(d, "%lld", fmt_round(j->error.v));
		mk_cell_end(d);
		mk_row_end(d);
	}
	mk_table_end(d);
	doc_note(d, "Latencies are completion latencies; "
	     "fio's own JSON for each group is in fio/ in the run directory.");
}

static const struct mk_col check_cols[] = {
	{ "check", MK_LEFT }, { "result", MK_LEFT }, { "detail", MK_LEFT },
};

static void checks_section(struct doc *d, const struct report_model *m)
{
	if (!m->nchecks)
		return;
	doc_heading(d, MK_H2, "checks", "Checks");
	mk_table(d, "checks", check_cols, ARRAY_SIZE(check_cols));
	for (size_t i = 0; i < m->nchecks; i++) {
		const struct report_check *c = &m->checks[i];

		mk_row(d, NULL);
		mk_text_cell(d, fmt_or(c->name, "?"));
		mk_cell(d, c->pass ? "pass" : "fail", !c->pass);
		mk_lit(d, c->pass ? "pass" : "FAIL");
		mk_cell_end(d);
		mk_text_cell(d, c->detail);
		mk_row_end(d);
	}
	mk_table_end(d);
}

static void rejections_section(struct doc *d, const struct report_model *m)
{
	if (!m->nrejections)
		return;
	mk_block(d, MK_H2, NULL, "rejected");
	mk_addf(d, "Rejected channel records (%lld)",
		m->rejected.have ? fmt_round(m->rejected.v) : (long long)m->nrejections);
	mk_block_end(d, MK_H2);
	mk_block(d, MK_LIST, NULL, NULL);
	for (size_t i = 0; i < m->nrejections; i++) {
		mk_block(d, MK_ITEM, NULL, NULL);
		mk_inline(d, MK_CODE, NULL);
		mk_text(d, m->rejections[i]);
		mk_inline_end(d, MK_CODE);
		mk_block_end(d, MK_ITEM);
	}
	mk_block_end(d, MK_LIST);
}

/* Markdown's last section: what a page's head and footer say. */
static void environment_section(struct doc *d, const struct report_model *m)
{
	doc_heading(d, MK_H2, "environment", "Environment");
	mk_block(d, MK_LIST, NULL, NULL);
	mk_block(d, MK_ITEM, NULL, NULL);
	MK_PARTS(d, "kernel: ", fmt_or(m->kernel_version, "?"), " (", fmt_or(m->kernel_source, "?"));
	if (m->kernel_package)
		MK_PARTS(d, " ", m->kernel_package, " ", m->kernel_package_version);
	mk_lit(d, ")");
	mk_block_end(d, MK_ITEM);
	mk_block(d, MK_ITEM, NULL, NULL);
	MK_PARTS(d, "accelerator: ", fmt_or(m->accel, "?"), " (", m->accel_reason, ")");
	mk_block_end(d, MK_ITEM);
	mk_block(d, MK_ITEM, NULL, NULL);
	MK_PARTS(d, "QEMU ", fmt_or(m->qemu_version, "?"));
	mk_lit(d, ", ");
	doc_num(d, fmt_whole, m->memory_mb);
	mk_lit(d, " MiB, ");
	doc_num(d, fmt_whole, m->cpus);
	mk_lit(d, " CPU");
	mk_block_end(d, MK_ITEM);
	mk_block(d, MK_ITEM, NULL, NULL);
	MK_PARTS(d, "", fmt_or(m->tool, "scaletest"), ", started ", fmt_or(m->started, "?"));
	mk_block_end(d, MK_ITEM);
	mk_block(d, MK_ITEM, NULL, NULL);
	mk_lit(d, "to run it again: ");
	mk_lit_inline(d, MK_CODE, NULL, REPRODUCE_COMMAND);
	mk_lit(d, " in the run's directory (the same settings and kernel; it says when the harness or QEMU differ)");
	mk_block_end(d, MK_ITEM);
	mk_block_end(d, MK_LIST);
}

void document_run(const struct markup *mk, const struct report_model *m, struct strbuf *out)
{
	struct doc doc, *d = &doc;

	doc_init(d, mk, out);
	run_title(d, m);
	if (d->mk->page)
		run_facts(d, m);
	else
		run_summary(d, m);
	crash_section(d, m);
	findings_section(d, m);
	mem_section(d, m);
	sweep_section(d, m);
	disks_section(d, m);
	phases_section(d, m);
	slab_section(d, m);
	attribution_section(d, m);
	curves_section(d, m);
	timeattr_section(d, m);
	monitor_section(d, m);
	fio_section(d, m);
	checks_section(d, m);
	rejections_section(d, m);
	if (!d->mk->page)
		environment_section(d, m);
}
