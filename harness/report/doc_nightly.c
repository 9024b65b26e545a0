// SPDX-License-Identifier: Apache-2.0
#include "report/document.h"

#include <stdlib.h>
#include <string.h>

#include "report/doc_parts.h"
#include "report/reproduce.h"
#include "lib/util.h"

static const struct mk_col night_cols[] = {
	{ "scenario", MK_LEFT }, { "status", MK_LEFT }, { "per disk", MK_RIGHT },
	{ "vs baseline", MK_LEFT }, { "run", MK_LEFT },
};

/* Each regression of the night: the run, the metric, the baseline's and
 * tonight's figure, the change. */
static void night_regressions(struct doc *d, const struct nightly_model *m)
{
	int n = 0;

	for (size_t i = 0; i < m->nrows; i++) {
		const struct nightly_row *r = &m->rows[i];

		for (size_t j = 0; r->have_compare && j < r->compare.nmetrics; j++) {
			const struct compare_metric *x = &r->compare.metrics[j];

			const struct compare_stat *a, *b;

			if (!x->gating || r->compare.nsides < 2 ||
			    strcmp(fmt_or(x->verdict, ""), "regression"))
				continue;
			a = &x->sides[0];	/* the baseline */
			b = &x->sides[1];	/* tonight */
			if (!n++) {
				mk_lit_block(d, MK_P, NULL, NULL, "Regressions:");
				mk_block(d, MK_LIST, NULL, NULL);
			}
			mk_block(d, MK_ITEM, NULL, NULL);
			MK_PARTS(d, "", fmt_or(r->scenario, "?"), ": ", fmt_or(x->name, "?"), " (",
				 fmt_or(x->unit, "?"), "): baseline ");
			doc_num(d, fmt_amount, a->mean);
			mk_lit(d, ", tonight ");
			doc_num(d, fmt_amount, b->mean);
			mk_lit(d, ", change ");
			doc_num(d, fmt_change, b->change);
			if (b->change_pct.have) {
				mk_lit(d, " (");
				doc_num(d, fmt_signed_percent, b->change_pct);
				mk_lit(d, ")");
			}
			if (b->p.have) {
				mk_lit(d, ", p ");
				doc_num(d, fmt_p, b->p);
			}
			mk_block_end(d, MK_ITEM);
		}
	}
	if (n)
		mk_block_end(d, MK_LIST);
}

/* Each run that passed without a baseline on this runner, and how to
 * record them.  (The backquotes are meant: code spans in markdown.) */
static void night_missing(struct doc *d, const struct nightly_model *m)
{
	int n = 0;

	for (size_t i = 0; i < m->nrows; i++) {
		const struct nightly_row *r = &m->rows[i];

		if (!r->without_baseline)
			continue;
		if (!n++) {
			mk_lit_block(d, MK_P, NULL, NULL, "Missing baselines:");
			mk_block(d, MK_LIST, NULL, NULL);
		}
		mk_block(d, MK_ITEM, NULL, NULL);
		MK_PARTS(d, "no baseline for ", fmt_or(r->scenario, "?"), " on this runner (accel ",
			 fmt_or(r->accel, "?"), ", qemu ", fmt_or(r->qemu, "?"), "): run "
			 "`make nightly-first` / `scaletest nightly --record-baselines` to record them");
		mk_block_end(d, MK_ITEM);
	}
	if (n)
		mk_block_end(d, MK_LIST);
}

/* Each run's reproducer (report/reproduce.h), by its run directory. */
static void night_reproduce(struct doc *d, const struct nightly_model *m)
{
	struct strbuf cmd = STRBUF_INIT;
	int any = 0;

	for (size_t i = 0; i < m->nrows; i++) {
		const struct nightly_row *r = &m->rows[i];

		if (!r->run)
			continue;
		if (!any++) {
			mk_block(d, MK_P, NULL, NULL);
			mk_lit(d, "To run one again (the same settings and kernel):");
			mk_block_end(d, MK_P);
			mk_block(d, MK_LIST, NULL, NULL);
		}
		char *path = xstrfmt("%s/reproduce.sh", r->run);

		sb_reset(&cmd);
		sb_adds(&cmd, "sh ");
		shell_quote(&cmd, path);
		free(path);
		mk_block(d, MK_ITEM, NULL, NULL);
		mk_text(d, fmt_or(r->scenario, "?"));
		mk_lit(d, ": ");
		mk_text_inline(d, MK_CODE, NULL, cmd.buf);
		mk_block_end(d, MK_ITEM);
	}
	if (any)
		mk_block_end(d, MK_LIST);
	sb_release(&cmd);
}

void document_nightly(const struct markup *mk, const struct nightly_model *m, struct strbuf *out)
{
	struct doc doc, *d = &doc;

	doc_init(d, mk, out);
	mk_block(d, MK_H1, NULL, NULL);
	mk_lit(d, "scaletest nightly ");
	mk_text(d, fmt_or(m->stamp, "?"));
	mk_block_end(d, MK_H1);
	mk_table(d, "nightly", night_cols, ARRAY_SIZE(night_cols));
	for (size_t i = 0; i < m->nrows; i++) {
		const struct nightly_row *r = &m->rows[i];

		mk_row(d, NULL);
		mk_text_cell(d, fmt_or(r->scenario, "?"));
		mk_cell(d, NULL, 0);
		mk_text(d, fmt_or(r->status, "?"));
		if (r->reason) {
			mk_lit(d, ": ");
			mk_text(d, r->reason);
		}
		mk_cell_end(d);
		mk_cell(d, NULL, 0);
		if (r->per_disk_field && r->per_disk.have) {
			mk_text(d, r->per_disk_field);
			mk_lit(d, " ");
			fmt_per_disk(d->out, r->per_disk);
		}
		mk_cell_end(d);
		mk_text_cell(d, r->verdict);
		mk_text_cell(d, r->run);
		mk_row_end(d);
	}
	mk_table_end(d);
	mk_block(d, MK_P, NULL, NULL);
	doc_num(d, fmt_whole, m->scenarios);
	mk_lit(d, " scenarios, ");
	doc_num(d, fmt_whole, m->failed);
	mk_lit(d, " failed, ");
	doc_num(d, fmt_whole, m->regressed);
	mk_lit(d, " regressed, ");
	doc_num(d, fmt_whole, m->without_baseline);
	mk_lit(d, " without a baseline");
	if (m->recorded.have && m->recorded.v > 0)
		mk_addf(d, ", %lld baselines recorded", fmt_round(m->recorded.v));
	mk_lit(d, "; ");
	doc_num(d, fmt_seconds, m->seconds);
	mk_lit(d, ".");
	mk_block_end(d, MK_P);
	night_regressions(d, m);
	night_missing(d, m);
	night_reproduce(d, m);
}
