// SPDX-License-Identifier: Apache-2.0
#include "report/document.h"

#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "report/doc_parts.h"
#include "report/svg.h"
#include "lib/util.h"
#include "scenario/diskclass.h"

/*
 * Side k is called by its letter (fmt_side_letter, format.h: A is the
 * base) in every table heading, and by its label in the list of sides and
 * the charts.  Two sides keep the columns of a plain comparison ("A", "B",
 * "change", "p"...); more put the letter in front ("C change").
 */

/* Table columns built for the sides: heads are the report's own words,
 * allocated; cols_release() frees them. */
struct cols {
	struct mk_col *c;
	char **heads;
	size_t n;
};

static void col_add(struct cols *c, enum mk_align align, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void col_add(struct cols *c, enum mk_align align, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	c->c = xrealloc(c->c, (c->n + 1) * sizeof(*c->c));
	c->heads = xrealloc(c->heads, (c->n + 1) * sizeof(*c->heads));
	c->heads[c->n] = sb_detach(&sb, NULL);
	c->c[c->n].head = c->heads[c->n];
	c->c[c->n].align = align;
	c->n++;
}

static void cols_release(struct cols *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->heads[i]);
	free(c->heads);
	free(c->c);
}

/* A verdict's words: a regression is marked. */
static void verdict_words(struct doc *d, const char *verdict)
{
	if (!strcmp(verdict, "regression"))
		mk_lit(d, "\xe2\x96\xb2 REGRESSION");	/* an up triangle */
	else
		mk_text(d, verdict);
}

static void compare_title(struct doc *d, const struct compare_model *m)
{
	const char *verdict = fmt_or(m->verdict, "n/a");
	char cls[64];

	if (!d->mk->page) {
		mk_block(d, MK_H1, NULL, NULL);
		mk_lit(d, "scaletest compare: ");
		mk_text(d, fmt_or(m->verdict, "?"));
		mk_block_end(d, MK_H1);
		return;
	}
	mk_block(d, MK_H1, NULL, NULL);
	mk_lit(d, "scaletest comparison: ");
	for (size_t k = 0; k < m->nsides; k++) {
		if (k)
			mk_lit(d, m->nsides == 2 ? " against " : k == 1 ? " against " : ", ");
		mk_inline(d, MK_SPAN, "side");
		mk_text(d, fmt_or(m->sides[k].label, "?"));
		mk_inline_end(d, MK_SPAN);
	}
	mk_block_end(d, MK_H1);
	snprintf(cls, sizeof(cls), "verdict v-%s", fmt_verdict_class(verdict));
	mk_block(d, MK_P, cls, NULL);
	mk_lit(d, "Verdict: ");
	verdict_words(d, verdict);
	mk_block_end(d, MK_P);
}

static const char *or_none(const char *s)
{
	return s && *s ? s : "(none)";
}

/* A value of a differing key: "(none)" when empty. */
static void kv_value(struct doc *d, const char *v)
{
	if (!v || !*v)
		mk_lit_inline(d, MK_EM, "note", "(none)");
	else
		mk_text(d, v);
}

static void mismatch(struct doc *d, const struct compare_model *m)
{
	if (!m->nmismatch)
		return;
	if (!d->mk->page) {
		mk_block(d, MK_ITEM, NULL, NULL);
		mk_lit_inline(d, MK_STRONG, NULL, "WARNING: different environments");
		mk_lit(d, " (compared with --allow-mismatch): ");
		for (size_t i = 0; i < m->nmismatch; i++) {
			mk_lit(d, i ? "; " : "");
			mk_text(d, m->mismatch[i].key);
			for (size_t k = 0; k < m->nsides; k++) {
				mk_lit(d, k ? " vs " : " ");
				mk_text(d, or_none(m->mismatch[i].values[k]));
			}
		}
		mk_block_end(d, MK_ITEM);
		return;
	}
	mk_block(d, MK_BOX, "warn", "mismatch");
	mk_lit_inline(d, MK_STRONG, NULL, m->nsides == 2
		      ? "Warning: the two sides ran in different environments"
		      : "Warning: the sides ran in different environments");
	mk_lit(d, ", so their figures may not be comparable:\n");
	mk_block(d, MK_LIST, NULL, NULL);
	for (size_t i = 0; i < m->nmismatch; i++) {
		mk_block(d, MK_ITEM, NULL, NULL);
		mk_inline(d, MK_CODE, NULL);
		mk_text(d, fmt_or(m->mismatch[i].key, "?"));
		mk_inline_end(d, MK_CODE);
		for (size_t k = 0; k < m->nsides; k++) {
			mk_addf(d, "%s%c ", k ? ", " : ": ", fmt_side_letter(k));
			kv_value(d, m->mismatch[i].values[k]);
		}
		mk_block_end(d, MK_ITEM);
	}
	mk_block_end(d, MK_LIST);
	mk_block_end(d, MK_BOX);
}

static void rule(struct doc *d, const struct compare_model *m)
{
	const char *test = fmt_or(m->rule_test, "?");

	if (!d->mk->page) {
		/* markdown: '<' and the quote are plain text there */
		mk_block(d, MK_ITEM, NULL, NULL);
		mk_addf(d, "rule: a change of at least %g%% of A%s, with p < %g (Welch's t-test "
			"with repeats on both sides, the prediction interval for one run against a group); "
			"only gating metrics decide the verdict", m->threshold_pct.v,
			m->nsides > 2 ? " (the base; each side is compared with it)" : "", m->alpha.v);
		mk_block_end(d, MK_ITEM);
		return;
	}
	mk_block(d, MK_P, "rule", NULL);
	doc_labelled(d, "Rule:", !strcmp(test, "welch") ? "Welch's t-test" : test);
	if (m->alpha.have)
		mk_addf(d, ", alpha %g", m->alpha.v);
	if (m->threshold_pct.have)
		mk_addf(d, ", threshold %g%%", m->threshold_pct.v);
	mk_lit(d, ". ");
	if (m->alpha.have && m->threshold_pct.have)
		mk_textf(d, "%sA change counts when it is at least %g%% of side A's mean and, "
			 "with two runs or more on both sides, the test gives p < %g; "
			 "only gating metrics decide the verdict, and only they are called a regression "
			 "(the others are worse or better).",
			 m->nsides > 2 ? "Each side is compared with side A, the base. " : "",
			 m->threshold_pct.v, m->alpha.v);
	mk_block_end(d, MK_P);
}

static void side_item(struct doc *d, size_t k, const struct compare_side_model *s, size_t nsides)
{
	long long n = fmt_round(s->n.v);

	mk_block(d, MK_ITEM, NULL, NULL);
	mk_addf(d, "%c: ", fmt_side_letter(k));
	mk_text(d, fmt_or(s->label, "?"));
	mk_addf(d, " (%lld run%s, ", n, n == 1 ? "" : "s");
	MK_PARTS(d, "", fmt_or(s->scenario, "?"), ", kernel ", fmt_or(s->kernel, "?"), ")");
	if (nsides > 2 && !k)
		mk_lit(d, ": the base");
	else if (nsides > 2) {
		mk_lit(d, ": ");
		mk_text(d, fmt_or(s->verdict, "?"));
	}
	mk_block_end(d, MK_ITEM);
}

static void side_runs(struct doc *d, const struct compare_side_model *s)
{
	mk_cell(d, NULL, 0);
	if (s->n.have)
		mk_addf(d, "%lld", fmt_round(s->n.v));
	else
		mk_lit(d, "n/a");
	for (size_t i = 0; i < s->nruns; i++) {
		mk_br(d);
		mk_inline(d, MK_CODE, NULL);
		mk_text(d, s->runs[i]);
		mk_inline_end(d, MK_CODE);
	}
	mk_cell_end(d);
}

/* A row of the sides' table: a string member of every side. */
static void sides_row(struct doc *d, const struct compare_model *m, const char *what, size_t offset)
{
	mk_row(d, NULL);
	mk_lit_cell(d, what);
	for (size_t k = 0; k < m->nsides; k++)
		mk_text_cell(d, fmt_or(*(const char *const *)((const char *)&m->sides[k] + offset), "n/a"));
	mk_row_end(d);
}

static void sides(struct doc *d, const struct compare_model *m)
{
	struct cols c = { NULL, NULL, 0 };
	int paths = 0;

	if (!d->mk->page) {
		for (size_t k = 0; k < m->nsides; k++)
			side_item(d, k, &m->sides[k], m->nsides);
		return;
	}
	doc_heading(d, MK_H2, "sides", m->nsides == 2 ? "The two sides" : "The sides");
	col_add(&c, MK_LEFT, "%s", "");
	for (size_t k = 0; k < m->nsides; k++)
		col_add(&c, MK_LEFT, "%c%s", fmt_side_letter(k), m->nsides > 2 && !k ? " (base)" : "");
	mk_table(d, "sides", c.c, c.n);
	mk_row(d, NULL);
	mk_lit_cell(d, "label");
	for (size_t k = 0; k < m->nsides; k++) {
		mk_cell(d, NULL, 0);
		mk_inline(d, MK_STRONG, NULL);
		mk_text(d, fmt_or(m->sides[k].label, "n/a"));
		mk_inline_end(d, MK_STRONG);
		mk_cell_end(d);
	}
	mk_row_end(d);
	sides_row(d, m, "scenario", offsetof(struct compare_side_model, scenario));
	sides_row(d, m, "kernel", offsetof(struct compare_side_model, kernel));
	for (size_t k = 0; k < m->nsides; k++)
		paths |= m->sides[k].path != NULL;
	if (paths)
		sides_row(d, m, "path", offsetof(struct compare_side_model, path));
	mk_row(d, NULL);
	mk_lit_cell(d, "runs");
	for (size_t k = 0; k < m->nsides; k++)
		side_runs(d, &m->sides[k]);
	mk_row_end(d);
	if (m->nsides > 2) {
		mk_row(d, NULL);
		mk_lit_cell(d, "against A");
		for (size_t k = 0; k < m->nsides; k++) {
			const char *v = k ? fmt_or(m->sides[k].verdict, "n/a") : "the base";
			char cls[32];
			snprintf(cls, sizeof(cls), "v-%s", fmt_verdict_class(v));
			mk_cell(d, k ? cls : NULL, k && !strcmp(v, "regression"));
			if (k)
				verdict_words(d, v);
			else
				mk_lit(d, v);
			mk_cell_end(d);
		}
		mk_row_end(d);
	}
	mk_table_end(d);
	cols_release(&c);
}

static void differences(struct doc *d, const struct compare_model *m)
{
	struct cols c = { NULL, NULL, 0 };

	if (!m->ndifferences)
		return;
	if (!d->mk->page) {
		mk_block(d, MK_ITEM, NULL, NULL);
		mk_lit(d, "what differs: ");
		for (size_t i = 0; i < m->ndifferences; i++) {
			mk_lit(d, i ? "; " : "");
			mk_text(d, m->differences[i].key);
			for (size_t k = 0; k < m->nsides; k++) {
				mk_lit(d, k ? " \xe2\x86\x92 " : " ");	/* an arrow */
				mk_text(d, or_none(m->differences[i].values[k]));
			}
		}
		mk_block_end(d, MK_ITEM);
		return;
	}
	doc_heading(d, MK_H2, "differences", "What differs");
	col_add(&c, MK_LEFT, "key");
	for (size_t k = 0; k < m->nsides; k++)
		col_add(&c, MK_LEFT, "%c", fmt_side_letter(k));
	mk_table(d, "differences", c.c, c.n);
	for (size_t i = 0; i < m->ndifferences; i++) {
		mk_row(d, NULL);
		mk_cell(d, NULL, 0);
		mk_inline(d, MK_CODE, NULL);
		mk_text(d, fmt_or(m->differences[i].key, "?"));
		mk_inline_end(d, MK_CODE);
		mk_cell_end(d);
		for (size_t k = 0; k < m->nsides; k++) {
			mk_cell(d, NULL, 0);
			kv_value(d, m->differences[i].values[k]);
			mk_cell_end(d);
		}
		mk_row_end(d);
	}
	mk_table_end(d);
	cols_release(&c);
}

/* A page's "mean ± sd unit (n=3)". */
static void mean_sd(struct doc *d, const struct compare_stat *s, const char *unit)
{
	if (!s->mean.have) {
		mk_lit(d, "n/a");
		return;
	}
	fmt_value(d->out, s->mean.v);
	if (s->n.v > 1 && s->sd.have) {
		mk_lit(d, " \xc2\xb1 ");
		fmt_value(d->out, s->sd.v);
	}
	fmt_unit_html(d->out, unit);
	if (s->n.v > 0) {
		mk_lit(d, " ");
		mk_inline(d, MK_SPAN, "note");
		mk_addf(d, "(n=%lld)", fmt_round(s->n.v));
		mk_inline_end(d, MK_SPAN);
	}
}

/* Markdown's "mean ± sd (n=3)", format.c's fmt_mean_sd. */
static void mean_sd_terse(struct doc *d, const struct compare_stat *s)
{
	struct strbuf sb = STRBUF_INIT;

	fmt_mean_sd(&sb, s->mean, s->sd, s->n);
	mk_text(d, sb.buf);
	sb_release(&sb);
}

/* A change: a page gives its unit. */
static void change_cell(struct doc *d, const struct compare_stat *x, const char *unit)
{
	mk_cell(d, NULL, 0);
	doc_num(d, fmt_change, x->change);
	if (d->mk->page && x->change.have)
		fmt_unit_html(d->out, unit);
	mk_cell_end(d);
}

/* The metrics' columns: the metric, A, then for each side after it its
 * mean, change, change %, p and verdict. */
static void metric_cols(struct cols *c, size_t nsides, int page)
{
	col_add(c, MK_LEFT, "metric");
	for (size_t k = 0; k < nsides; k++) {
		char pre[4] = "";
		if (nsides > 2)
			snprintf(pre, sizeof(pre), "%c ", fmt_side_letter(k));
		col_add(c, MK_RIGHT, "%c%s", fmt_side_letter(k), page ? " mean \xc2\xb1 sd" : "");
		if (!k)
			continue;
		col_add(c, MK_RIGHT, "%schange", pre);
		col_add(c, MK_RIGHT, "%schange %%", pre);
		col_add(c, MK_RIGHT, "%sp", pre);
		col_add(c, MK_LEFT, "%sverdict", pre);
	}
}

static void metric_row(struct doc *d, const struct compare_metric *x, size_t nsides)
{
	const int page = d->mk->page;
	const char *row = fmt_or(x->verdict, page ? "n/a" : "?");

	mk_row(d, fmt_verdict_class(row));
	mk_cell(d, NULL, 0);
	if (page) {
		mk_text(d, fmt_or(x->name, fmt_or(x->key, "?")));
		if (x->gating) {
			mk_lit(d, " ");
			mk_lit_inline(d, MK_SPAN, "gating", "gating");
		}
	} else {
		mk_text(d, fmt_or(x->name, "?"));
		mk_lit(d, " (");
		mk_text(d, x->unit);
		mk_lit(d, x->gating ? ")" : ") \xc2\xb7");
	}
	mk_cell_end(d);
	for (size_t k = 0; k < nsides; k++) {
		const struct compare_stat *st = &x->sides[k];
		const char *verdict = fmt_or(st->verdict, page ? "n/a" : "?");
		int alarm = x->gating && !strcmp(verdict, "regression");
		char cls[32];

		mk_cell(d, NULL, 0);
		if (page)
			mean_sd(d, st, x->unit);
		else
			mean_sd_terse(d, st);
		mk_cell_end(d);
		if (!k)
			continue;
		change_cell(d, st, x->unit);
		doc_num_cell(d, fmt_signed_percent, st->change_pct);
		doc_num_cell(d, fmt_p, st->p);
		snprintf(cls, sizeof(cls), "v-%s", fmt_verdict_class(verdict));
		mk_cell(d, cls, alarm);
		if (page)
			verdict_words(d, verdict);
		else
			mk_text(d, verdict);
		mk_cell_end(d);
	}
	mk_row_end(d);
}

static void metrics(struct doc *d, const struct compare_model *m)
{
	const int page = d->mk->page;
	struct cols c = { NULL, NULL, 0 };

	if (page)
		doc_heading(d, MK_H2, "metrics", "Metrics");
	if (page && !m->nmetrics) {
		doc_note(d, "No metric was compared.");
		return;
	}
	metric_cols(&c, m->nsides, page);
	mk_table(d, "metrics", c.c, c.n);
	for (size_t i = 0; i < m->nmetrics; i++)
		metric_row(d, &m->metrics[i], m->nsides);
	mk_table_end(d);
	cols_release(&c);
	doc_note(d, page ? "p is n/a when a side has fewer than two runs; then the threshold alone decides."
		     : "\xc2\xb7 not gating: shown, but does not decide the verdict "
		       "(a change there is worse or better, never a regression)");
}

/* compare --series: the per-disk figures of each kernel side by side.  Of
 * each group the first metric some side has: a sweep's fit (its standard
 * error the ±), else the runs' mean (their sd the ±). */
static const char *const series_groups[][2] = {
	{ "LowFree per disk, fitted", "LowFree per disk" },
	{ "MemFree per disk, fitted", "MemFree per disk" },
	{ "enumeration per disk, fitted", "enumeration per disk" },
	{ "rmmod per disk", NULL },
	{ "insmod per disk, first quarter", NULL },
	{ "insmod per disk, last quarter", NULL },
};

static const struct compare_metric *series_metric(const struct compare_model *m, size_t g)
{
	for (size_t j = 0; j < 2 && series_groups[g][j]; j++)
		for (size_t i = 0; i < m->nmetrics; i++) {
			const struct compare_metric *x = &m->metrics[i];

			if (!x->name || strcmp(x->name, series_groups[g][j]))
				continue;
			for (size_t k = 0; k < m->nsides; k++)
				if (x->sides[k].mean.have)
					return x;
		}
	return NULL;
}

static void series_value(struct doc *d, const struct compare_stat *st, const char *unit)
{
	if (!st->mean.have) {
		mk_lit(d, "n/a");
		return;
	}
	fmt_value(d->out, st->mean.v);
	if (st->se.have) {
		mk_lit(d, " \xc2\xb1 ");
		fmt_value(d->out, st->se.v);
	} else if (st->n.v > 1 && st->sd.have) {
		mk_lit(d, " \xc2\xb1 ");
		fmt_value(d->out, st->sd.v);
	}
	fmt_unit_html(d->out, unit);
}

/* The disk class of every side when they have one (no class: scsi_debug,
 * as in every result before classes), else NULL. */
static const struct disk_class *compare_class(const struct compare_model *m)
{
	const char *name = NULL;

	for (size_t k = 0; k < m->nsides; k++) {
		const char *n = m->sides[k].disk_class ? m->sides[k].disk_class : disk_classes[0].name;

		if (name && strcmp(name, n))
			return NULL;
		name = n;
	}
	return disk_class_find(name ? name : disk_classes[0].name);
}

static void series_section(struct doc *d, const struct compare_model *m)
{
	const struct compare_metric *x[ARRAY_SIZE(series_groups)];
	struct cols c = { NULL, NULL, 0 };
	size_t nx = 0;

	if (!m->series)
		return;
	for (size_t g = 0; g < ARRAY_SIZE(series_groups); g++)
		if ((x[nx] = series_metric(m, g)))
			nx++;
	doc_heading(d, MK_H2, "series", "The kernel series, per disk");
	if (!nx) {
		doc_note(d, "No side has a per-disk figure.");
		return;
	}
	{
		const struct disk_class *one = compare_class(m);
		char *note = xstrfmt("Each kernel's cost of one disk: a sweep's fitted slope \xc2\xb1 "
				     "its standard error, or the mean of the runs \xc2\xb1 their "
				     "sample sd; the times are per %s.",
				     one ? one->device : "device of each side's disk class");

		doc_note(d, note);
		free(note);
	}
	col_add(&c, MK_LEFT, "kernel");
	for (size_t i = 0; i < nx; i++)
		col_add(&c, MK_RIGHT, "%s (%s)", fmt_or(x[i]->name, "?"), fmt_or(x[i]->unit, ""));
	mk_table(d, "series", c.c, c.n);
	for (size_t k = 0; k < m->nsides; k++) {
		mk_row(d, NULL);
		mk_cell(d, NULL, 0);
		mk_addf(d, "%c: ", fmt_side_letter(k));
		mk_text(d, fmt_or(m->sides[k].label, "?"));
		mk_cell_end(d);
		for (size_t i = 0; i < nx; i++) {
			mk_cell(d, NULL, 0);
			series_value(d, &x[i]->sides[k], x[i]->unit);
			mk_cell_end(d);
		}
		mk_row_end(d);
	}
	mk_table_end(d);
	cols_release(&c);
	if (d->mk->page) {
		mk_block(d, MK_BOX, "charts", NULL);
		mk_lit(d, "\n");
		for (size_t i = 0; i < nx; i++)
			svg_metric(d->out, x[i], m->sides, m->nsides);
		mk_block_end(d, MK_BOX);
	}
}

/* compare --series: each side's time per disk against the disks present,
 * range by range (the sides' insmod curves): a table, and on a page a
 * chart with a line a side. */
static void series_curve(struct doc *d, const struct compare_model *m)
{
	const struct compare_side_model *longest = NULL;
	struct cols c = { NULL, NULL, 0 };

	for (size_t k = 0; k < m->nsides; k++)
		if (!longest || m->sides[k].nbins > longest->nbins)
			longest = &m->sides[k];
	if (!m->series || !longest || !longest->nbins)
		return;
	doc_heading(d, MK_H2, "series-curve", "Time per disk against the disks present");
	doc_note(d, "Each range of the disks: the milliseconds per disk it took, from the "
		  "progress counts of insmod (time_curves.insmod), the mean of a side's runs "
		  "\xc2\xb1 their sample sd. Flat: each disk costs what the first did; rising: "
		  "each costs more than the last. The first range holds the module's own load.");
	if (d->mk->page)
		svg_curve_overlay(d->out, m->sides, m->nsides);
	col_add(&c, MK_RIGHT, "%s", "disks present");
	for (size_t k = 0; k < m->nsides; k++)
		col_add(&c, MK_RIGHT, "%c (ms per disk)", fmt_side_letter(k));
	mk_table(d, "series-curve", c.c, c.n);
	for (size_t i = 0; i < longest->nbins; i++) {
		const struct compare_curve_bin *b = &longest->bins[i];

		mk_row(d, NULL);
		mk_cell(d, NULL, 0);
		fmt_thousands_d(d->out, b->from.v);
		mk_lit(d, " to ");
		fmt_thousands_d(d->out, b->to.v);
		mk_cell_end(d);
		for (size_t k = 0; k < m->nsides; k++) {
			const struct compare_curve_bin *o = NULL;

			for (size_t j = 0; j < m->sides[k].nbins && !o; j++)
				if (m->sides[k].bins[j].from.v == b->from.v &&
				    m->sides[k].bins[j].to.v == b->to.v)
					o = &m->sides[k].bins[j];
			mk_cell(d, NULL, 0);
			if (!o) {
				mk_lit(d, "n/a");
			} else {
				fmt_value(d->out, o->ms.v);
				if (o->sd.have) {
					mk_lit(d, " \xc2\xb1 ");
					fmt_value(d->out, o->sd.v);
				}
			}
			mk_cell_end(d);
		}
		mk_row_end(d);
	}
	mk_table_end(d);
	cols_release(&c);
}

/* compare --series: how to make the runs and this page again. */
static void series_reproduce(struct doc *d, const struct compare_model *m)
{
	struct strbuf t = STRBUF_INIT;

	if (!m->series || !m->command)
		return;
	doc_heading(d, MK_H2, "reproduce", "Reproduce");
	doc_note(d, "Each side's first run again (reproduce.sh in its run directory: the same "
		  "scenario, every setting resolved, the same kernel; a side of several runs is "
		  "that, as many times), then this page:");
	for (size_t k = 0; k < m->nsides; k++) {
		sb_addf(&t, "# %c: ", fmt_side_letter(k));
		sb_adds(&t, fmt_or(m->sides[k].label, "?"));
		if (m->sides[k].n.have && m->sides[k].n.v > 1)
			sb_addf(&t, " (%.0f runs)", m->sides[k].n.v);
		sb_addch(&t, '\n');
		if (m->sides[k].reproduce) {
			sb_adds(&t, "sh ");
			shell_quote(&t, m->sides[k].reproduce);
			sb_addch(&t, '\n');
		} else {
			sb_adds(&t, "# (no reproduce.sh)\n");
		}
	}
	sb_adds(&t, m->command);
	sb_adds(&t, " --out DIR\n");
	mk_pre(d, t.buf);
	sb_release(&t);
}

/* A page's chart per gating metric that has figures. */
static void gating_charts(struct doc *d, const struct compare_model *m)
{
	int charts = 0;

	for (size_t i = 0; i < m->nmetrics; i++) {
		const struct compare_metric *x = &m->metrics[i];
		int any = 0;
		for (size_t k = 0; k < m->nsides; k++)
			any |= x->sides[k].mean.have;
		if (!x->gating || !any)
			continue;
		if (!charts++) {
			doc_heading(d, MK_H2, "gating", "Gating metrics");
			mk_block(d, MK_BOX, "charts", NULL);
			mk_lit(d, "\n");
		}
		svg_metric(d->out, x, m->sides, m->nsides);
	}
	if (charts)
		mk_block_end(d, MK_BOX);
}

/* A page's overlays: every side's memory by phase and monitor samples
 * during insmod, a line a side; the headline field (LowFree when every
 * side's kernel has HIGHMEM, else MemFree).  A comparison without them
 * (schema 1) has none.  And every side's enumeration curve, where
 * compare.json has them. */
static void overlays(struct doc *d, const struct compare_model *m)
{
	int phases = 0, samples = 0, highmem = 1, curves = 0;

	for (size_t k = 0; k < m->nsides; k++) {
		phases |= m->sides[k].nphases > 0;
		curves |= m->sides[k].ncurve > 0;
		samples |= m->sides[k].nsamples > 0;
		highmem &= m->sides[k].highmem;
	}
	if (phases) {
		doc_heading(d, MK_H2, "phases", "Memory by phase, side by side");
		svg_phase_overlay(d->out, m->sides, m->nsides, highmem ? PHASE_LOWFREE : PHASE_MEMFREE,
				  highmem ? "LowFree" : "MemFree");
	}
	if (phases || samples) {
		doc_heading(d, MK_H2, "monitor", "Memory during insmod, side by side");
		const struct disk_class *c = compare_class(m);
		/* "scsi_debug's disks" */
		char *note = c ? xstrfmt("The monitor's samples of each side's first run while %s's%s "
					 "were added, from the first sample taken during insmod.",
					 c->name, c->devices + strlen(c->name))
			       : xstrdup("The monitor's samples of each side's first run while the "
					 "devices of its disk class were added, from the first sample "
					 "taken during insmod.");

		doc_note(d, note);
		free(note);
		svg_monitor_overlay(d->out, m->sides, m->nsides, highmem ? 1 : 0,
				    highmem ? "LowFree" : "MemFree");
	}
	if (curves) {
		doc_heading(d, MK_H2, "curves", "Enumeration, side by side");
		doc_note(d, "Each side's first run: the scsi_debug disks present against the "
			  "seconds since insmod began (a sweep: its rising steps, their time "
			  "summed), and the milliseconds each disk took along the way against "
			  "the disks present then.");
		svg_series_curves(d->out, m->sides, m->nsides);
	}
}

/* The call sites whose bytes per disk changed most (result.json's
 * attribution on each side): page_alloc's, then page_owner's. */
static void site_table(struct doc *d, const struct compare_model *m,
		       const struct compare_site *sites, size_t n, const char *id,
		       const char *title, const char *note,
		       void (*fmt)(struct strbuf *, struct num))
{
	struct cols c = { NULL, NULL, 0 };
	int phases = n && sites[0].phase;

	if (!n)
		return;
	doc_heading(d, MK_H2, id, title);
	doc_note(d, note);
	if (phases)
		col_add(&c, MK_LEFT, "%s", "phase");
	col_add(&c, MK_LEFT, "%s", "call site");
	for (size_t k = 0; k < m->nsides; k++)
		col_add(&c, MK_RIGHT, "%c", fmt_side_letter(k));
	for (size_t k = 1; k < m->nsides; k++)
		col_add(&c, MK_RIGHT, "%c minus A", fmt_side_letter(k));
	mk_table(d, id, c.c, c.n);
	for (size_t i = 0; i < n; i++) {
		const struct compare_site *s = &sites[i];

		mk_row(d, NULL);
		if (phases)
			mk_text_cell(d, fmt_or(s->phase, "?"));
		mk_text_cell(d, fmt_or(s->site, "?"));
		for (size_t k = 0; k < m->nsides; k++)
			doc_num_cell(d, fmt, s->per_disk[k]);
		for (size_t k = 1; k < m->nsides; k++) {
			mk_cell(d, NULL, 0);
			if (s->change[k].have && s->change[k].v >= 0)
				mk_lit(d, "+");
			fmt(d->out, s->change[k]);
			mk_cell_end(d);
		}
		mk_row_end(d);
	}
	mk_table_end(d);
	cols_release(&c);
}

/* The slab columns: the cache, each side's growth, each later side's
 * change from A. */
static void slab_change_cols(struct cols *c, size_t nsides, int page)
{
	col_add(c, MK_LEFT, "%s", page ? "cache" : "slab cache (growth at insmod)");
	for (size_t k = 0; k < nsides; k++)
		col_add(c, MK_RIGHT, "%c%s", fmt_side_letter(k), page ? " growth" : "");
	for (size_t k = 1; k < nsides; k++) {
		if (nsides == 2)
			col_add(c, MK_RIGHT, "%s", page ? "B minus A" : "change");
		else
			col_add(c, MK_RIGHT, "%c %s", fmt_side_letter(k), page ? "minus A" : "change");
	}
}

/* A page: the caches that changed most, charted; markdown: every cache
 * the comparison lists. */
static void slab_changes(struct doc *d, const struct compare_model *m)
{
	const int page = d->mk->page;
	const struct compare_slab *rows = page ? m->changed : m->slab;
	size_t n = page ? m->nchanged : m->nslab;
	struct svg_bar b[COMPARE_CHANGED_MAX];
	struct cols c = { NULL, NULL, 0 };

	if (!m->nslab)
		return;
	if (page) {
		doc_heading(d, MK_H2, "slab", "Slab caches that changed most");
		if (!n) {
			doc_note(d, "No slab cache changed.");
			return;
		}
		mk_block(d, MK_P, "note", NULL);
		mk_text(d, m->nsides == 2
			? "Each cache's growth at insmod, in kB (the mean of a side's runs), "
			  "and B minus A: red where B takes more, green where it takes less."
			: "Each cache's growth at insmod, in kB (the mean of a side's runs), "
			  "and each side minus A: red where it takes more, green where it takes less.");
		mk_block_end(d, MK_P);
		for (size_t k = 1; k < m->nsides; k++) {
			char label[64];
			size_t nb = 0;
			for (size_t i = 0; i < n; i++) {
				if (!rows[i].change[k].have)
					continue;
				b[nb].label = fmt_or(rows[i].cache, "?");
				b[nb++].v = rows[i].change[k].v;
			}
			snprintf(label, sizeof(label), "slab caches that changed most, %c against A, kB",
				 fmt_side_letter(k));
			if (m->nsides > 2) {
				mk_block(d, MK_P, "note", NULL);
				mk_addf(d, "%c minus A", fmt_side_letter(k));
				mk_block_end(d, MK_P);
			}
			svg_hbars(d->out, label, b, nb, "#e15759", "#59a14f");
		}
	}
	slab_change_cols(&c, m->nsides, page);
	mk_table(d, "slab", c.c, c.n);
	for (size_t i = 0; i < n; i++) {
		mk_row(d, NULL);
		mk_text_cell(d, fmt_or(rows[i].cache, "?"));
		for (size_t k = 0; k < m->nsides; k++)
			doc_num_cell(d, fmt_kb, rows[i].kb[k]);
		for (size_t k = 1; k < m->nsides; k++)
			doc_num_cell(d, fmt_signed_kb, rows[i].change[k]);
		mk_row_end(d);
	}
	mk_table_end(d);
	cols_release(&c);
}

void document_compare(const struct markup *mk, const struct compare_model *m, struct strbuf *out)
{
	struct doc doc, *d = &doc;

	doc_init(d, mk, out);
	compare_title(d, m);
	if (!d->mk->page)
		mk_block(d, MK_LIST, NULL, NULL);
	mismatch(d, m);
	rule(d, m);
	sides(d, m);
	differences(d, m);
	if (!d->mk->page)
		mk_block_end(d, MK_LIST);
	series_section(d, m);
	series_curve(d, m);
	metrics(d, m);
	if (d->mk->page) {
		gating_charts(d, m);
		overlays(d, m);
	}
	slab_changes(d, m);
	site_table(d, m, m->sites, m->nsites, "attribution", "Call sites that changed most",
		   "Page allocations at insmod by kernel call site, bytes per disk "
		   "(the mean of a side's runs; n/a for a side run without attribution).", fmt_per_disk);
	site_table(d, m, m->po_sites, m->npo_sites, "attribution-page-owner",
		   "Pages still held after insmod (page_owner): call sites that changed most",
		   "page_owner's net pages at insmod by kernel call site, bytes per disk "
		   "(the mean of a side's runs; n/a for a side without page_owner).", fmt_per_disk);
	site_table(d, m, m->time_sites, m->ntime_sites, "time-attribution",
		   "Where each disk's time goes: call sites that changed most",
		   "Milliseconds per disk by kernel call site in each phase (time_attribution; "
		   "the mean of a side's runs; n/a for a side run without it).", fmt_ms);
	series_reproduce(d, m);
}
