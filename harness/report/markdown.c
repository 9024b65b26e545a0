#include "report/markdown.h"

#include <math.h>
#include <string.h>

#include "report/text.h"
#include "lib/util.h"

/* ---- a run ---- */

static void mem_table(const struct report_model *m, struct strbuf *out)
{
	sb_adds(out, "## Memory at insmod\n\n|  | before insmod | after insmod | change | per disk |\n"
		"|---|---:|---:|---:|---:|\n");
	for (size_t i = 0; i < m->nmem; i++) {
		const struct report_mem_row *r = &m->mem[i];
		sb_addf(out, "| %s | ", r->field);
		fmt_kb(out, r->before);
		sb_adds(out, " | ");
		fmt_kb(out, r->after);
		sb_adds(out, " | ");
		fmt_signed_kb(out, r->change);
		sb_adds(out, " | ");
		fmt_per_disk(out, r->per_disk);
		sb_adds(out, " |\n");
	}
	sb_addch(out, '\n');
}

static void disk_row(struct strbuf *out, const char *what, const struct report_disk *d)
{
	sb_addf(out, "| %s | ", what);
	md_escape(out, fmt_or(d->name, "?"));
	sb_adds(out, " | ");
	md_escape(out, fmt_or(d->dev, "?"));
	sb_adds(out, " |\n");
}

static void disks(const struct report_model *m, struct strbuf *out)
{
	sb_adds(out, "## Disks\n\n| disk | name | dev_t |\n|---|---|---|\n");
	if (m->have_first)
		disk_row(out, "first scsi_debug", &m->first);
	if (m->have_last)
		disk_row(out, "last scsi_debug", &m->last);
	for (size_t i = 0; i < m->nvirtio; i++)
		disk_row(out, "virtio", &m->virtio[i]);
	sb_addch(out, '\n');
}

static void phases(const struct report_model *m, struct strbuf *out)
{
	sb_adds(out, "## Memory by phase\n\n| phase | uptime | LowFree | MemFree | MemAvailable | Slab |\n"
		"|---|---:|---:|---:|---:|---:|\n");
	for (size_t i = 0; i < m->nphases; i++) {
		const struct report_phase *p = &m->phases[i];
		sb_adds(out, "| ");
		md_escape(out, fmt_or(p->name, "?"));
		sb_addf(out, " | %.2f s", p->uptime_s.v);
		for (int k = PHASE_LOWFREE; k <= PHASE_SLAB; k++) {
			sb_adds(out, " | ");
			fmt_kb(out, p->mem[k]);
		}
		sb_adds(out, " |\n");
	}
	sb_addch(out, '\n');
}

static void slab(const struct report_model *m, struct strbuf *out)
{
	if (!m->nslab)
		return;
	sb_adds(out, "## Slab caches that grew most at insmod\n\n| cache | growth | objects | per disk |\n"
		"|---|---:|---:|---:|\n");
	for (size_t i = 0; i < m->nslab; i++) {
		const struct report_slab *g = &m->slab[i];
		sb_adds(out, "| ");
		md_escape(out, fmt_or(g->cache, "?"));
		sb_adds(out, " | ");
		fmt_signed_kb(out, g->kb);
		sb_adds(out, " | ");
		fmt_thousands_d(out, g->objs.v);
		sb_adds(out, " | ");
		fmt_per_disk(out, g->bytes_per_disk);
		sb_adds(out, " |\n");
	}
	sb_addch(out, '\n');
}

static void monitor(const struct report_model *m, struct strbuf *out)
{
	if (!m->have_peak)
		return;
	sb_addf(out, "## Memory while it ran\n\n%lld samples, one every %lld ms",
		fmt_round(m->received.v), fmt_round(m->interval_ms.v));
	for (size_t i = 0; i < m->ngaps; i++)
		sb_addf(out, "%s%lld..%lld", i ? ", " : "; lost: ", fmt_round(m->gaps[i].first),
			fmt_round(m->gaps[i].last));
	sb_adds(out, ".\n\n| | steady after insmod | during I/O |\n|---|---:|---:|\n"
		"| MemFree (lowest during I/O) | ");
	fmt_kb(out, m->steady_memfree);
	sb_adds(out, " | ");
	fmt_kb(out, m->io_memfree_min);
	sb_adds(out, " |\n| LowFree (lowest) | ");
	fmt_kb(out, m->steady_lowfree);
	sb_adds(out, " | ");
	fmt_kb(out, m->io_lowfree_min);
	sb_adds(out, " |\n| Slab (highest) | ");
	fmt_kb(out, m->steady_slab);
	sb_adds(out, " | ");
	fmt_kb(out, m->io_slab_max);
	sb_adds(out, " |\n\n");
}

static void latency(struct strbuf *out, int has, struct num p50, struct num p99)
{
	if (has)
		sb_addf(out, "%.1f / %.1f us", p50.v, p99.v);
}

static void fio(const struct report_model *m, struct strbuf *out)
{
	if (!m->njobs)
		return;
	sb_adds(out, "## fio\n\n| group | job | read IOPS | write IOPS | read p50 / p99 | write p50 / p99 | error |\n"
		"|---|---|---:|---:|---:|---:|---:|\n");
	for (size_t i = 0; i < m->njobs; i++) {
		const struct report_fio_job *j = &m->jobs[i];
		sb_adds(out, "| ");
		md_escape(out, fmt_or(j->group, "?"));
		sb_adds(out, " | ");
		md_escape(out, fmt_or(j->job, "?"));
		sb_addf(out, " | %.0f | %.0f | ", j->read_iops.v, j->write_iops.v);
		latency(out, j->has_read, j->read_p50, j->read_p99);
		sb_adds(out, " | ");
		latency(out, j->has_write, j->write_p50, j->write_p99);
		sb_addf(out, " | %lld |\n", fmt_round(j->error.v));
	}
	sb_adds(out, "\nfio's own JSON for each group is in fio/ in the run directory.\n\n");
}

static void checks(const struct report_model *m, struct strbuf *out)
{
	if (!m->nchecks)
		return;
	sb_adds(out, "## Checks\n\n| check | result | detail |\n|---|---|---|\n");
	for (size_t i = 0; i < m->nchecks; i++) {
		sb_adds(out, "| ");
		md_escape(out, fmt_or(m->checks[i].name, "?"));
		sb_addf(out, " | %s | ", m->checks[i].pass ? "pass" : "**FAIL**");
		md_escape(out, m->checks[i].detail);
		sb_adds(out, " |\n");
	}
	sb_addch(out, '\n');
}

static void rejections(const struct report_model *m, struct strbuf *out)
{
	if (!m->nrejections)
		return;
	sb_addf(out, "## Rejected channel records (%lld)\n\n", fmt_round(m->rejected.v));
	for (size_t i = 0; i < m->nrejections; i++) {
		sb_adds(out, "- ");
		md_escape(out, m->rejections[i]);
		sb_addch(out, '\n');
	}
	sb_addch(out, '\n');
}

static void environment(const struct report_model *m, struct strbuf *out)
{
	sb_adds(out, "## Environment\n\n- kernel: ");
	md_escape(out, fmt_or(m->kernel_version, "?"));
	sb_adds(out, " (");
	md_escape(out, fmt_or(m->kernel_source, "?"));
	if (m->kernel_package) {
		sb_adds(out, " ");
		md_escape(out, m->kernel_package);
		sb_adds(out, " ");
		md_escape(out, m->kernel_package_version);
	}
	sb_adds(out, ")\n- accelerator: ");
	md_escape(out, fmt_or(m->accel, "?"));
	sb_adds(out, " (");
	md_escape(out, m->accel_reason);
	sb_adds(out, ")\n- QEMU ");
	md_escape(out, fmt_or(m->qemu_version, "?"));
	sb_addf(out, ", %lld MiB, %lld CPU\n- ", fmt_round(m->memory_mb.v), fmt_round(m->cpus.v));
	md_escape(out, fmt_or(m->tool, "scaletest"));
	sb_adds(out, ", started ");
	md_escape(out, fmt_or(m->started, "?"));
	sb_adds(out, "\n");
}

void markdown_run(const struct report_model *m, struct strbuf *out)
{
	struct strbuf sum = STRBUF_INIT;

	sb_adds(out, "# scaletest run ");
	md_escape(out, fmt_or(m->run_id, "?"));
	sb_adds(out, ": ");
	md_escape(out, fmt_or(m->status, "?"));
	sb_adds(out, "\n\n");
	if (m->reason) {
		sb_adds(out, "**Reason:** ");
		md_escape(out, m->reason);
		sb_adds(out, "\n\n");
	}
	sb_adds(out, "Scenario **");
	md_escape(out, fmt_or(m->scenario, "?"));
	sb_adds(out, "**");
	if (m->description) {
		sb_adds(out, ": ");
		md_escape(out, m->description);
	}
	sb_adds(out, "\n\n");

	text_run(m, &sum);
	sb_adds(out, "```\n");
	/* Inside a fence nothing is markup, but a fence line could end it. */
	for (char *p = sum.buf; *p; p++)
		sb_addch(out, *p == '`' ? '\'' : *p);
	sb_adds(out, "```\n\n");
	sb_release(&sum);

	if (m->have_insmod)
		mem_table(m, out);
	disks(m, out);
	phases(m, out);
	slab(m, out);
	monitor(m, out);
	fio(m, out);
	checks(m, out);
	rejections(m, out);
	environment(m, out);
}

/* ---- a comparison ---- */

/* A mean of any size: thousands separators from 1,000, else three
 * significant digits. */
static void mean_value(struct strbuf *out, double v)
{
	if (fabs(v) >= 1000)
		fmt_thousands_d(out, v);
	else
		sb_addf(out, "%.3g", v);
}

static void value_cell(struct strbuf *out, const struct compare_stat *s)
{
	if (!s->mean.have) {
		sb_adds(out, "n/a");
		return;
	}
	mean_value(out, s->mean.v);
	if (s->sd.have)
		sb_addf(out, " ± %.2g", s->sd.v);
	if (s->n.v > 1)
		sb_addf(out, " (n=%lld)", fmt_round(s->n.v));
}

static void side_line(struct strbuf *out, const char *name, const struct compare_side_model *s)
{
	long long n = fmt_round(s->n.v);

	sb_addf(out, "- %s: ", name);
	md_escape(out, fmt_or(s->label, "?"));
	sb_addf(out, " (%lld run%s, ", n, n == 1 ? "" : "s");
	md_escape(out, fmt_or(s->scenario, "?"));
	sb_adds(out, ", kernel ");
	md_escape(out, fmt_or(s->kernel, "?"));
	sb_adds(out, ")\n");
}

static const char *or_none(const char *s)
{
	return s && *s ? s : "(none)";
}

void markdown_compare(const struct compare_model *m, struct strbuf *out)
{
	sb_adds(out, "# scaletest compare: ");
	md_escape(out, fmt_or(m->verdict, "?"));
	sb_adds(out, "\n\n");
	side_line(out, "A", &m->a);
	side_line(out, "B", &m->b);
	sb_addf(out, "- rule: a change of at least %g%% of A, with p < %g (Welch's t-test "
		"with repeats on both sides, the prediction interval for one run against a group); only gating metrics decide the verdict\n",
		m->threshold_pct.v, m->alpha.v);
	for (size_t i = 0; i < m->nmismatch; i++) {
		const struct compare_kv *d = &m->mismatch[i];
		sb_adds(out, i ? "; " : "- **WARNING: different environments** (compared with --allow-mismatch): ");
		md_escape(out, d->key);
		sb_adds(out, " ");
		md_escape(out, d->a);
		sb_adds(out, " vs ");
		md_escape(out, d->b);
		if (i + 1 == m->nmismatch)
			sb_addch(out, '\n');
	}
	for (size_t i = 0; i < m->ndifferences; i++) {
		const struct compare_kv *d = &m->differences[i];
		sb_adds(out, i ? "; " : "- what differs: ");
		md_escape(out, d->key);
		sb_adds(out, " ");
		md_escape(out, or_none(d->a));
		sb_adds(out, " → ");
		md_escape(out, or_none(d->b));
		if (i + 1 == m->ndifferences)
			sb_addch(out, '\n');
	}
	sb_adds(out, "\n| metric | A | B | change | change % | p | verdict |\n|---|---:|---:|---:|---:|---:|---|\n");
	for (size_t i = 0; i < m->nmetrics; i++) {
		const struct compare_metric *x = &m->metrics[i];
		const char *verdict = fmt_or(x->verdict, "?");
		const char *strong = x->gating && !strcmp(verdict, "regression") ? "**" : "";

		sb_adds(out, "| ");
		md_escape(out, fmt_or(x->name, "?"));
		sb_adds(out, " (");
		md_escape(out, x->unit);
		sb_addf(out, ")%s | ", x->gating ? "" : " ·");
		value_cell(out, &x->a);
		sb_adds(out, " | ");
		value_cell(out, &x->b);
		sb_adds(out, " | ");
		if (x->change.have) {
			if (fabs(x->change.v) >= 1000) {
				sb_addch(out, x->change.v > 0 ? '+' : '-');
				fmt_thousands_d(out, fabs(x->change.v));
			} else {
				sb_addf(out, "%+.3g", x->change.v);
			}
		}
		sb_adds(out, " | ");
		if (x->change_pct.have)
			sb_addf(out, "%+.1f%%", x->change_pct.v);
		sb_adds(out, " | ");
		if (x->p.have)
			sb_addf(out, "%.3g", x->p.v);
		sb_addf(out, " | %s", strong);
		md_escape(out, verdict);
		sb_addf(out, "%s |\n", strong);
	}
	sb_adds(out, "\n· not gating: shown, but does not decide the verdict\n");
	if (!m->nslab)
		return;
	sb_adds(out, "\n| slab cache (growth at insmod) | A | B | change |\n|---|---:|---:|---:|\n");
	for (size_t i = 0; i < m->nslab; i++) {
		const struct compare_slab *c = &m->slab[i];
		sb_adds(out, "| ");
		md_escape(out, fmt_or(c->cache, "?"));
		sb_adds(out, " | ");
		fmt_kb(out, (struct num){ c->a_kb.v, 1 });
		sb_adds(out, " | ");
		fmt_kb(out, (struct num){ c->b_kb.v, 1 });
		sb_adds(out, " | ");
		fmt_signed_kb(out, (struct num){ c->change_kb.v, 1 });
		sb_adds(out, " |\n");
	}
}

/* ---- a night ---- */

void markdown_nightly(const struct nightly_model *m, struct strbuf *out)
{
	sb_adds(out, "# scaletest nightly ");
	md_escape(out, fmt_or(m->stamp, "?"));
	sb_adds(out, "\n\n| scenario | status | per disk | vs baseline | run |\n|---|---|---:|---|---|\n");
	for (size_t i = 0; i < m->nrows; i++) {
		const struct nightly_row *r = &m->rows[i];
		sb_adds(out, "| ");
		md_escape(out, fmt_or(r->scenario, "?"));
		sb_adds(out, " | ");
		md_escape(out, fmt_or(r->status, "?"));
		if (r->reason) {
			sb_adds(out, ": ");
			md_escape(out, r->reason);
		}
		sb_adds(out, " | ");
		if (r->per_disk_field && r->per_disk.have) {
			md_escape(out, r->per_disk_field);
			sb_adds(out, " ");
			fmt_per_disk(out, r->per_disk);
		}
		sb_adds(out, " | ");
		md_escape(out, r->verdict);
		sb_adds(out, " | ");
		md_escape(out, r->run);
		sb_adds(out, " |\n");
	}
	sb_addf(out, "\n%lld scenarios, %lld failed, %lld regressed, %lld without a baseline; %.0f s.\n",
		fmt_round(m->scenarios.v), fmt_round(m->failed.v), fmt_round(m->regressed.v),
		fmt_round(m->without_baseline.v), m->seconds.v);
}
