// SPDX-License-Identifier: Apache-2.0
#include "report/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/model_read.h"
#include "result/result.h"
#include "lib/util.h"

#define SIDE(kind, member, path) FIELD(struct compare_side_model, kind, member, path)
static const struct field side_fields[] = {
	SIDE(F_STR, label, "label"), SIDE(F_STR, path, "path"), SIDE(F_STR, scenario, "scenario"),
	SIDE(F_STR, kernel, "kernel"), SIDE(F_STR, verdict, "verdict"), SIDE(F_NUM, n, "n"),
	SIDE(F_STR, disk_class, "disk_class"),
};
#undef SIDE

static void side_phases_of(json_object *ps, struct compare_side_model *out)
{
	static const struct {
		int k;
		const char *key;
	} f[] = {
		{ PHASE_MEMFREE, "MemFree_kb" }, { PHASE_LOWFREE, "LowFree_kb" }, { PHASE_SLAB, "Slab_kb" },
	};

	out->phases = xcalloc(alen(ps) + 1, sizeof(*out->phases));
	for (size_t i = 0; i < alen(ps); i++) {
		struct report_phase *p = &out->phases[out->nphases];
		p->name = jstr(aget(ps, i), "name", NULL);
		if (!p->name)
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(f); k++)
			p->mem[f[k].k] = num_at(aget(ps, i), f[k].key);
		out->nphases++;
	}
}

static void side_monitor_of(json_object *mon, struct compare_side_model *out)
{
	static const char *const series[] = { "MemFree_kb", "LowFree_kb", "Slab_kb" };
	json_object *ss = jarr(mon, "samples");

	out->monitor_run = jstr(mon, "run", NULL);
	out->samples = xcalloc(alen(ss) + 1, sizeof(*out->samples));
	for (size_t i = 0; i < alen(ss); i++) {
		struct report_sample *x = &out->samples[out->nsamples];
		struct num t = num_at(aget(ss, i), "t");

		if (!t.have)
			continue;
		x->t = t.v;
		x->n = (double)out->nsamples + 1;
		for (int k = 0; k < 3; k++) {
			struct num v = num_at(aget(ss, i), series[k]);
			x->v[k] = v.have ? v.v : NAN;
		}
		x->step = "insmod";
		out->nsamples++;
	}
}

/* compare --series: a side's time per disk, range by range (at most
 * CURVE_BINS_MAX of them; a bin without its figure is left out). */
#define CURVE_BINS_MAX 256

static void side_bins_of(json_object *bins, struct compare_side_model *out)
{
	size_t n = alen(bins) < CURVE_BINS_MAX ? alen(bins) : CURVE_BINS_MAX;

	out->bins = xcalloc(n + 1, sizeof(*out->bins));
	for (size_t i = 0; i < n; i++) {
		struct compare_curve_bin *b = &out->bins[out->nbins];

		b->from = num_at(aget(bins, i), "from");
		b->to = num_at(aget(bins, i), "to");
		b->ms = num_at(aget(bins, i), "ms_per_disk");
		b->sd = num_at(aget(bins, i), "sd");
		b->n = num_at(aget(bins, i), "n");
		if (b->from.have && b->to.have && b->ms.have && b->to.v > b->from.v)
			out->nbins++;
	}
}

static void side_of(json_object *s, struct compare_side_model *out)
{
	json_object *runs = jarr(s, "runs");

	fields_of(s, out, side_fields, ARRAY_SIZE(side_fields));
	out->highmem = bool_at(s, "highmem");
	out->nruns = alen(runs);
	out->runs = xcalloc(out->nruns + 1, sizeof(*out->runs));
	for (size_t i = 0; i < out->nruns; i++)
		out->runs[i] = json_object_is_type(aget(runs, i), json_type_string)
			       ? json_object_get_string(aget(runs, i)) : NULL;
	side_phases_of(jarr(s, "phases"), out);
	side_monitor_of(jget(s, "monitor"), out);
	side_bins_of(jarr(jget(s, "insmod_curve"), "bins"), out);
	out->reproduce = jstr(s, "reproduce", NULL);
	/* compare.json's time_curve: the first run's enumeration (result/curve.h) */
	out->curve_run = jstr(s, "time_curve.run", NULL);
	out->curve_what = jstr(s, "time_curve.what", NULL);
	out->ncurve = curve_points_of(jarray(s, "time_curve.points"), &out->curve);
	out->ncurve_rate = curve_rates(out->curve, out->ncurve, &out->curve_rate);
}

/* A value as text: a string as it is, anything else as plain JSON. */
static const char *value_text(json_object *v)
{
	if (!v)
		return NULL;
	if (json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
}

/* [{"key", "values": [...]}]; schema 1's [{"key", "a", "b"}] too. */
static struct compare_kv *kvs_of(json_object *a, size_t nsides, size_t *n)
{
	struct compare_kv *kv;

	*n = alen(a);
	kv = xcalloc(*n + 1, sizeof(*kv));
	for (size_t i = 0; i < *n; i++) {
		json_object *o = aget(a, i), *vals = jarr(o, "values");

		kv[i].key = jstr(o, "key", NULL);
		kv[i].values = xcalloc(nsides + 1, sizeof(*kv[i].values));
		for (size_t k = 0; k < nsides; k++)
			kv[i].values[k] = value_text(vals ? (k < alen(vals) ? aget(vals, k) : NULL)
						     : jget(o, k ? "b" : "a"));
	}
	return kv;
}

#define STAT(kind, member, path) FIELD(struct compare_stat, kind, member, path)
static const struct field stat_fields[] = {
	STAT(F_NUM, mean, "mean"), STAT(F_NUM, sd, "sd"), STAT(F_NUM, n, "n"),
	STAT(F_NUM, se, "se"),
	STAT(F_TEXT, mean_text, "mean"),
};
/* A side after the base: its comparison with the base (schema 1 has it
 * in the metric itself). */
static const struct field vs_fields[] = {
	STAT(F_NUM, change, "change"), STAT(F_NUM, change_pct, "change_pct"), STAT(F_NUM, p, "p"),
	STAT(F_TEXT, change_pct_text, "change_pct"), STAT(F_TEXT, p_text, "p"),
	STAT(F_STR, verdict, "verdict"),
};
#undef STAT

static void stat_of(json_object *s, json_object *vs, struct compare_stat *st)
{
	json_object *vals = jarr(s, "values");

	fields_of(s, st, stat_fields, ARRAY_SIZE(stat_fields));
	if (vs)
		fields_of(vs, st, vs_fields, ARRAY_SIZE(vs_fields));
	st->values = xcalloc(alen(vals) + 1, sizeof(*st->values));
	for (size_t i = 0; i < alen(vals); i++) {
		struct num v = num_at(aget(vals, i), "");
		if (v.have)
			st->values[st->nvalues++] = v.v;
	}
}

static int by_most_change(const void *x, const void *y)
{
	double a = ((const struct compare_slab *)x)->most;
	double b = ((const struct compare_slab *)y)->most;

	return a < b ? 1 : a > b ? -1 : 0;
}

#define METRIC(kind, member, path) FIELD(struct compare_metric, kind, member, path)
static const struct field metric_fields[] = {
	METRIC(F_STR, name, "name"), METRIC(F_STR, key, "key"), METRIC(F_STR, unit, "unit"),
	METRIC(F_STR, verdict, "verdict"),
};
#undef METRIC

/* Only a gating metric regresses: schema 1 called any significant change
 * of a metric that does not gate a regression or an improvement too. */
static const char *shown_verdict(const char *v, int gating)
{
	if (v && !gating && !strcmp(v, "regression"))
		return "worse";
	if (v && !gating && !strcmp(v, "improvement"))
		return "better";
	return v;
}

static void metric_of(json_object *o, int legacy, size_t nsides, struct compare_metric *x)
{
	json_object *ss = jarr(o, "sides");

	fields_of(o, x, metric_fields, ARRAY_SIZE(metric_fields));
	x->gating = bool_at(o, "gating");
	x->sides = xcalloc(nsides + 1, sizeof(*x->sides));
	for (size_t k = 0; k < nsides; k++) {
		json_object *s = legacy ? jget(o, k ? "b" : "a") : k < alen(ss) ? aget(ss, k) : NULL;
		stat_of(s, k ? (legacy ? o : s) : NULL, &x->sides[k]);
		x->sides[k].verdict = shown_verdict(x->sides[k].verdict, x->gating);
	}
	x->verdict = shown_verdict(x->verdict, x->gating);
}

/* A slab cache: its growth per side and the change from the base;
 * schema 1's a_kb, b_kb and change_kb too. */
static void slab_of(json_object *e, int legacy, size_t nsides, struct compare_slab *c)
{
	json_object *kb = jarr(e, "kb"), *ch = jarr(e, "change_kb");

	c->cache = jstr(e, "cache", NULL);
	c->kb = xcalloc(nsides + 1, sizeof(*c->kb));
	c->change = xcalloc(nsides + 1, sizeof(*c->change));
	for (size_t k = 0; k < nsides; k++) {
		c->kb[k] = legacy ? num_at(e, k ? "b_kb" : "a_kb")
				  : num_at(k < alen(kb) ? aget(kb, k) : NULL, "");
		if (!k)
			continue;
		c->change[k] = legacy ? num_at(e, "change_kb") : num_at(k < alen(ch) ? aget(ch, k) : NULL, "");
		if (!c->change[k].have && c->kb[k].have && c->kb[0].have)
			c->change[k] = (struct num){ c->kb[k].v - c->kb[0].v, 1 };
		if (c->change[k].have && fabs(c->change[k].v) > c->most)
			c->most = fabs(c->change[k].v);
	}
}

/* A comparison's call-site changes (attribution, attribution_page_owner). */
static struct compare_site *compare_sites(json_object *at, size_t nsides, size_t *n,
					  const char *key)
{
	struct compare_site *sites;

	*n = alen(at);
	sites = xcalloc(*n + 1, sizeof(*sites));
	for (size_t i = 0; i < *n; i++) {
		json_object *e = aget(at, i), *v = jarr(e, key), *ch = jarr(e, "change");
		struct compare_site *s = &sites[i];

		s->site = jstr(e, "site", NULL);
		s->phase = jstr(e, "phase", NULL);
		s->per_disk = xcalloc(nsides + 1, sizeof(*s->per_disk));
		s->change = xcalloc(nsides + 1, sizeof(*s->change));
		for (size_t k = 0; k < nsides; k++) {
			s->per_disk[k] = num_at(k < alen(v) ? aget(v, k) : NULL, "");
			s->change[k] = num_at(k < alen(ch) ? aget(ch, k) : NULL, "");
		}
	}
	return sites;
}

void compare_model_from_json(json_object *cmp, struct compare_model *m)
{
	json_object *ms, *sl, *sides;
	int legacy;

	memset(m, 0, sizeof(*m));
	cmp = m->cmp = clean_ref(cmp);
	ms = jarr(cmp, "metrics");
	sl = jarr(cmp, "slab");
	sides = jarr(cmp, "sides");
	/* Without "sides": schema 1 (a comparison of two, "a" and "b"), as
	 * older harnesses wrote it, read as two sides. */
	legacy = !sides;
	m->verdict = jstr(cmp, "verdict", NULL);
	m->series = bool_at(cmp, "series");
	m->command = jstr(cmp, "command", NULL);
	m->nsides = legacy ? 2 : alen(sides);
	m->sides = xcalloc(m->nsides + 1, sizeof(*m->sides));
	for (size_t k = 0; k < m->nsides; k++)
		side_of(legacy ? jget(cmp, k ? "b" : "a") : aget(sides, k), &m->sides[k]);
	if (legacy)
		m->sides[1].verdict = m->verdict;
	m->rule_test = jstr(cmp, "rule.test", NULL);
	m->alpha = num_at(cmp, "rule.alpha");
	m->threshold_pct = num_at(cmp, "rule.threshold_pct");
	m->mismatch = kvs_of(jarr(cmp, "mismatch"), m->nsides, &m->nmismatch);
	m->differences = kvs_of(jarr(cmp, "differences"), m->nsides, &m->ndifferences);

	m->nmetrics = alen(ms);
	m->metrics = xcalloc(m->nmetrics + 1, sizeof(*m->metrics));
	for (size_t i = 0; i < m->nmetrics; i++)
		metric_of(aget(ms, i), legacy, m->nsides, &m->metrics[i]);

	m->nslab = alen(sl);
	m->slab = xcalloc(m->nslab + 1, sizeof(*m->slab));
	m->changed = xcalloc(m->nslab + 1, sizeof(*m->changed));
	for (size_t i = 0; i < m->nslab; i++) {
		struct compare_slab *c = &m->slab[i];

		slab_of(aget(sl, i), legacy, m->nsides, c);
		if (fmt_round(c->most) != 0)
			m->changed[m->nchanged++] = *c;
	}
	qsort(m->changed, m->nchanged, sizeof(*m->changed), by_most_change);
	if (m->nchanged > COMPARE_CHANGED_MAX)
		m->nchanged = COMPARE_CHANGED_MAX;
	m->sites = compare_sites(jarr(cmp, "attribution"), m->nsides, &m->nsites, "bytes_per_disk");
	m->po_sites = compare_sites(jarr(cmp, "attribution_page_owner"), m->nsides,
				    &m->npo_sites, "bytes_per_disk");
	m->time_sites = compare_sites(jarr(cmp, "time_attribution"), m->nsides,
				      &m->ntime_sites, "ms_per_disk");
}

static void compare_sites_release(struct compare_site *sites, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(sites[i].per_disk);
		free(sites[i].change);
	}
	free(sites);
}

void compare_model_release(struct compare_model *m)
{
	for (size_t k = 0; k < m->nsides; k++) {
		free(m->sides[k].runs);
		free(m->sides[k].phases);
		free(m->sides[k].samples);
		free(m->sides[k].curve);
		free(m->sides[k].curve_rate);
		free(m->sides[k].bins);
	}
	free(m->sides);
	for (size_t i = 0; i < m->nmismatch; i++)
		free(m->mismatch[i].values);
	for (size_t i = 0; i < m->ndifferences; i++)
		free(m->differences[i].values);
	free(m->mismatch);
	free(m->differences);
	for (size_t i = 0; i < m->nmetrics; i++) {
		for (size_t k = 0; k < m->nsides; k++)
			free(m->metrics[i].sides[k].values);
		free(m->metrics[i].sides);
	}
	free(m->metrics);
	for (size_t i = 0; i < m->nslab; i++) {
		free(m->slab[i].kb);
		free(m->slab[i].change);
	}
	free(m->slab);
	free(m->changed);
	compare_sites_release(m->sites, m->nsites);
	compare_sites_release(m->po_sites, m->npo_sites);
	compare_sites_release(m->time_sites, m->ntime_sites);
	json_object_put(m->cmp);
	memset(m, 0, sizeof(*m));
}
