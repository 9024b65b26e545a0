// SPDX-License-Identifier: Apache-2.0
#include "compare/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result/curve.h"
#include "result/result.h"
#include "result/timecurve.h"
#include "lib/stats.h"
#include "lib/util.h"

/* ---- metrics ------------------------------------------------------------ */

struct metric {
	const char *name;
	const char *key;	/* path in result.json, or NULL for get() */
	double (*get)(json_object *root, int *ok);
	const char *unit;
	int lower_is_better;
	int gate;		/* GATE_* kind */
	const char *fit;	/* a sweep's fit (its bytes_per_disk_se or ms_per_disk_se, points), or NULL */
};

static double fio_group_iops(json_object *root, const char *group, int sum, int *ok)
{
	json_object *jobs = jget(root, "fio.jobs");
	double total = 0;
	int n = 0;

	for (size_t i = 0; i < jlen(jobs); i++) {
		json_object *j = json_object_array_get_idx(jobs, i);
		if (strcmp(jstr(j, "group", ""), group) || !jget(j, "read.iops"))
			continue;
		total += jdouble(j, "read.iops", 0);
		n++;
	}
	*ok = n > 0;
	return n ? (sum ? total : total / n) : 0;
}

static double fio_verify(json_object *root, int *ok)
{
	return fio_group_iops(root, "verify", 0, ok);
}

static double fio_sample(json_object *root, int *ok)
{
	return fio_group_iops(root, "sample", 1, ok);
}

static double fio_all(json_object *root, int *ok)
{
	return fio_group_iops(root, "all", 1, ok);
}

/* Per disk: a run's time over its scsi_debug disks, in ms. */
static double per_disk_ms(json_object *root, const char *key, int *ok)
{
	double disks = jdouble(root, "disks.requested", 0);
	json_object *t = jget(root, key);

	*ok = disks > 0 && t && (json_object_is_type(t, json_type_int) ||
				  json_object_is_type(t, json_type_double));
	return *ok ? json_object_get_double(t) * 1000.0 / disks : 0;
}

static double enumerate_per_disk(json_object *root, int *ok)
{
	return per_disk_ms(root, "timings.enumerate_s", ok);
}

static double rmmod_per_disk(json_object *root, int *ok)
{
	return per_disk_ms(root, "timings.rmmod_s", ok);
}

/* Per disk over a quarter of the disks, from the progress counts
 * (time_curves.insmod): the first quarter from insmod's start (so with
 * the module's own load), the last from when three quarters were there
 * to when the last appeared.  How the cost of a disk grows with the disks
 * already there, in two figures; ms. */
static double quarter_ms(json_object *root, int last, int *ok)
{
	json_object *c = jget(root, "time_curves.insmod");
	double n = jdouble(c, "disks", 0), q = n / 4, ta = 0, tb = 0;

	*ok = q >= 1 && (!last || timecurve_time_at(c, n - q, &ta) == 0) &&
	      timecurve_time_at(c, last ? n : q, &tb) == 0 && tb >= ta;
	return *ok ? (tb - ta) * 1000.0 / q : 0;
}

static double insmod_first_quarter(json_object *root, int *ok)
{
	return quarter_ms(root, 0, ok);
}

static double insmod_last_quarter(json_object *root, int *ok)
{
	return quarter_ms(root, 1, ok);
}

static const struct metric metrics[] = {
	{ "LowFree per disk", "deltas.insmod.per_disk_bytes.LowFree", NULL, "B", 1, GATE_MEMORY, NULL },
	{ "MemFree per disk", "deltas.insmod.per_disk_bytes.MemFree", NULL, "B", 1, GATE_MEMORY, NULL },
	{ "MemAvailable per disk", "deltas.insmod.per_disk_bytes.MemAvailable", NULL, "B", 1, GATE_MEMORY, NULL },
	{ "Slab per disk", "deltas.insmod.per_disk_bytes.Slab", NULL, "B", 1, GATE_MEMORY, NULL },
	{ "MemFree not in the counters", "deltas.insmod.unaccounted_kb", NULL, "kB", 1, GATE_MEMORY, NULL },
	{ "LowFree not in the counters", "deltas.insmod.lowmem_unaccounted_kb", NULL, "kB", 1, GATE_MEMORY, NULL },
	{ "enumeration time", "timings.enumerate_s", NULL, "s", 1, GATE_TIME, NULL },
	{ "rmmod time", "timings.rmmod_s", NULL, "s", 1, GATE_TIME, NULL },
	{ "enumeration per disk", NULL, enumerate_per_disk, "ms", 1, GATE_TIME, NULL },
	{ "rmmod per disk", NULL, rmmod_per_disk, "ms", 1, GATE_TIME, NULL },
	{ "boot time", "timings.guest_boot_s", NULL, "s", 1, GATE_TIME, NULL },
	{ "fio verify read IOPS per virtio disk", NULL, fio_verify, "IOPS", 0, GATE_IO, NULL },
	{ "fio sample read IOPS", NULL, fio_sample, "IOPS", 0, GATE_IO, NULL },
	{ "fio all-disks read IOPS", NULL, fio_all, "IOPS", 0, GATE_IO, NULL },
	/* A sweep's fitted lines: one run has the fit's standard error as its spread. */
	{ "LowFree per disk, fitted", "sweep.fit.LowFree.bytes_per_disk", NULL, "B", 1, GATE_MEMORY, "sweep.fit.LowFree" },
	{ "MemFree per disk, fitted", "sweep.fit.MemFree.bytes_per_disk", NULL, "B", 1, GATE_MEMORY, "sweep.fit.MemFree" },
	{ "Slab per disk, fitted", "sweep.fit.Slab.bytes_per_disk", NULL, "B", 1, GATE_MEMORY, "sweep.fit.Slab" },
	{ "unaccounted per disk, fitted", "sweep.fit.unaccounted.bytes_per_disk", NULL, "B", 1, GATE_MEMORY, "sweep.fit.unaccounted" },
	{ "enumeration per disk, fitted", "sweep.fit.enumerate.ms_per_disk", NULL, "ms", 1, GATE_TIME, "sweep.fit.enumerate" },
	{ "removal per disk, fitted", "sweep.down_fit.remove.ms_per_disk", NULL, "ms", 1, GATE_TIME, "sweep.down_fit.remove" },
	/* Time per disk from the progress counts (time_curves). */
	{ "insmod per disk, fitted", "time_curves.insmod.fit.ms_per_disk", NULL, "ms", 1, GATE_TIME, "time_curves.insmod.fit" },
	{ "rmmod per disk, fitted", "time_curves.rmmod.fit.ms_per_disk", NULL, "ms", 1, GATE_TIME, "time_curves.rmmod.fit" },
};

/* Only in a kernel series (compare --series): how the cost of a disk grows
 * with the disks already there. */
static const struct metric series_metrics[] = {
	{ "insmod per disk, first quarter", NULL, insmod_first_quarter, "ms", 1, GATE_TIME, NULL },
	{ "insmod per disk, last quarter", NULL, insmod_last_quarter, "ms", 1, GATE_TIME, NULL },
};

static int metric_value(const struct metric *m, json_object *root, double *v)
{
	int ok = 0;

	if (m->get) {
		*v = m->get(root, &ok);
		return ok ? 0 : -1;
	}
	json_object *j = jget(root, m->key);
	if (!j || !(json_object_is_type(j, json_type_int) ||
		    json_object_is_type(j, json_type_double)))
		return -1;
	*v = json_object_get_double(j);
	return 0;
}

static json_object *json_rounded(double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.4g", v);
	if (fabs(v) >= 1e4 && fabs(v) < 1e15 && v == floor(v))
		snprintf(buf, sizeof(buf), "%.0f", v);
	return json_object_new_double_s(v, buf);
}

/* One run of a sweep: its fit's standard error stands for the spread.  A
 * slope from k + 1 points has k - 1 degrees of freedom; as stats with
 * n = k and sd = se * sqrt(k), Welch's test (stats.h) gets se^2 as the
 * variance of the mean and k - 1 degrees of freedom, i.e. the t-test of
 * two fitted slopes. */
static void fit_spread(const struct side *s, const struct metric *m, struct stats *st,
		       json_object *o)
{
	json_object *f = jget(s->roots[0], m->fit), *se = NULL;
	long long points = jint(f, "points", 0);

	json_object_object_foreach(f, key, val) {
		size_t l = strlen(key);
		if (l > 3 && !strcmp(key + l - 3, "_se"))
			se = val;
	}
	if (!se || points < 3 || !(json_object_is_type(se, json_type_int) ||
				   json_object_is_type(se, json_type_double)))
		return;
	st->n = (size_t)(points - 1);
	st->sd = json_object_get_double(se) * sqrt((double)st->n);
	json_object_object_add(o, "se", json_rounded(json_object_get_double(se)));
	json_object_object_add(o, "fit_points", json_object_new_int64(points));
}

static json_object *side_stats(const struct side *s, const struct metric *m,
			       struct stats *st)
{
	double *v = xcalloc(s->n, sizeof(*v));
	size_t n = 0;
	json_object *o = json_object_new_object(), *vals = json_object_new_array();

	for (size_t i = 0; i < s->n; i++) {
		double x;
		if (metric_value(m, s->roots[i], &x) == 0) {
			v[n++] = x;
			json_object_array_add(vals, json_rounded(x));
		}
	}
	stats_of(v, n, st);
	if (m->fit && n == 1 && s->n == 1)
		fit_spread(s, m, st, o);
	json_object_object_add(o, "mean", n ? json_rounded(st->mean) : NULL);
	json_object_object_add(o, "sd", n > 1 ? json_rounded(st->sd) : NULL);
	json_object_object_add(o, "n", json_object_new_int64((long long)n));
	json_object_object_add(o, "values", vals);
	free(v);
	return o;
}

/* Each phase named in the side's runs, in the order they first appear,
 * with the mean of its runs' MemFree, LowFree and Slab (kB). */
static const char *const phase_fields[] = { "MemFree", "LowFree", "Slab" };

static json_object *side_phases(const struct side *s)
{
	struct strvec names = STRVEC_INIT;
	json_object *out = json_object_new_array();

	for (size_t r = 0; r < s->n; r++) {
		json_object *ps = jarray(s->roots[r], "phases");
		for (size_t i = 0; i < jlen(ps); i++) {
			const char *name = jstr(json_object_array_get_idx(ps, i), "name", NULL);
			if (name && strvec_find(&names, name) < 0)
				strvec_push(&names, name);
		}
	}
	for (size_t i = 0; i < names.n; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(names.v[i]));
		for (size_t f = 0; f < ARRAY_SIZE(phase_fields); f++) {
			char *path = xstrfmt("meminfo.%s", phase_fields[f]);
			char *key = xstrfmt("%s_kb", phase_fields[f]);
			double sum = 0;
			size_t n = 0;

			for (size_t r = 0; r < s->n; r++) {
				json_object *v = jget(result_phase(s->roots[r], names.v[i]), path);
				if (v && (json_object_is_type(v, json_type_int) ||
					  json_object_is_type(v, json_type_double))) {
					sum += json_object_get_double(v);
					n++;
				}
			}
			json_object_object_add(o, key, n ? json_rounded(sum / (double)n) : NULL);
			free(path);
			free(key);
		}
		json_object_array_add(out, o);
	}
	strvec_clear(&names);
	return out;
}

/* The monitor's samples of the side's first run while insmod ran, their
 * time counted from the first of them. */
#define MONITOR_MAX 4000

static json_object *side_monitor(const struct side *s)
{
	static const struct {
		const char *key, *path;
	} fields[] = {
		{ "MemFree_kb", "meminfo.MemFree" }, { "LowFree_kb", "meminfo.LowFree" },
		{ "Slab_kb", "slab_kb" },
	};
	json_object *samples = jarray(s->roots[0], "monitor.samples");
	json_object *o = json_object_new_object(), *out = json_object_new_array();
	double t0 = NAN;

	for (size_t i = 0; i < jlen(samples) && json_object_array_length(out) < MONITOR_MAX; i++) {
		json_object *x = json_object_array_get_idx(samples, i), *t = jget(x, "t");
		if (strcmp(jstr(x, "step", ""), "insmod") || !t ||
		    !(json_object_is_type(t, json_type_int) || json_object_is_type(t, json_type_double)))
			continue;
		if (isnan(t0))
			t0 = json_object_get_double(t);
		json_object *e = json_object_new_object();
		json_object_object_add(e, "t", json_seconds(json_object_get_double(t) - t0));
		for (size_t f = 0; f < ARRAY_SIZE(fields); f++) {
			json_object *v = jget(x, fields[f].path);
			int ok = v && (json_object_is_type(v, json_type_int) ||
				       json_object_is_type(v, json_type_double));
			json_object_object_add(e, fields[f].key, ok ? json_rounded(json_object_get_double(v)) : NULL);
		}
		json_object_array_add(out, e);
	}
	json_object_object_add(o, "run", json_object_new_string(s->runs.v[0]));
	json_object_object_add(o, "samples", out);
	return o;
}

/* The time per disk against the disks present, from the progress counts
 * of each run's insmod (time_curves.insmod): the disks cut into
 * CURVE_BINS equal ranges, and for each the milliseconds per disk it
 * took, the mean of the side's runs with their sample sd; NULL when no
 * run has such a curve (a sweep's runs, or too few disks). */
#define CURVE_BINS 16

static json_object *side_bins(const struct side *s)
{
	json_object *o, *bins;
	double n = 0, *v = xcalloc(s->n + 1, sizeof(*v));
	size_t runs = 0;

	for (size_t r = 0; r < s->n; r++) {
		double d = jdouble(s->roots[r], "time_curves.insmod.disks", 0), t;

		if (d >= CURVE_BINS && timecurve_time_at(jget(s->roots[r], "time_curves.insmod"), d, &t) == 0) {
			n = n ? n : d;
			runs += d == n;
		}
	}
	if (!runs) {
		free(v);
		return NULL;
	}
	o = json_object_new_object();
	bins = json_object_new_array();
	json_object_object_add(o, "disks", json_object_new_int64((long long)n));
	json_object_object_add(o, "runs", json_object_new_int64((long long)runs));
	for (int b = 0; b < CURVE_BINS; b++) {
		double lo = floor(n * b / CURVE_BINS), hi = floor(n * (b + 1) / CURVE_BINS);
		json_object *e = json_object_new_object();
		struct stats st;
		size_t k = 0;

		for (size_t r = 0; r < s->n; r++) {
			json_object *c = jget(s->roots[r], "time_curves.insmod");
			double ta, tb;

			if (jdouble(c, "disks", 0) == n && timecurve_time_at(c, lo, &ta) == 0 &&
			    timecurve_time_at(c, hi, &tb) == 0 && tb >= ta)
				v[k++] = (tb - ta) * 1000.0 / (hi - lo);
		}
		stats_of(v, k, &st);
		json_object_object_add(e, "from", json_object_new_int64((long long)lo));
		json_object_object_add(e, "to", json_object_new_int64((long long)hi));
		json_object_object_add(e, "ms_per_disk", k ? json_rounded(st.mean) : NULL);
		json_object_object_add(e, "sd", k > 1 ? json_rounded(st.sd) : NULL);
		json_object_object_add(e, "n", json_object_new_int64((long long)k));
		json_object_array_add(bins, e);
	}
	json_object_object_add(o, "bins", bins);
	free(v);
	return o;
}

/* The side's first run's enumeration as a curve (result/curve.h): the
 * disks present against the seconds since insmod began, a sweep's rising
 * steps summed; null without one.  For compare --series' plot of every
 * kernel's on one axis. */
static json_object *side_curve(const struct side *s)
{
	struct curve_point *p;
	size_t n = curve_read(s->roots[0], CURVE_INSMOD, &p);
	json_object *o;

	if (!n)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "run", json_object_new_string(s->runs.v[0]));
	json_object_object_add(o, "what", json_object_new_string(
		jarray(s->roots[0], "time_curves.insmod.points") ? "insmod" : "sweep"));
	json_object_object_add(o, "points", curve_points_json(p, n));
	free(p);
	return o;
}

static json_object *side_json(const struct side *s, const char *label, int series)
{
	json_object *o = json_object_new_object(), *runs = json_object_new_array();
	struct strbuf k = STRBUF_INIT;

	json_object_object_add(o, "label", json_object_new_string(label));
	json_object_object_add(o, "path", json_object_new_string(s->path));
	json_object_object_add(o, "n", json_object_new_int64((long long)s->n));
	for (size_t i = 0; i < s->runs.n; i++)
		json_object_array_add(runs, json_object_new_string(s->runs.v[i]));
	json_object_object_add(o, "runs", runs);
	json_object_object_add(o, "scenario", json_object_new_string(jstr(s->roots[0], "scenario.name", "?")));
	sb_addf(&k, "%s (%s", jstr(s->roots[0], "kernel.version", "?"), jstr(s->roots[0], "kernel.source", "?"));
	if (jget(s->roots[0], "kernel.build.patches")) {
		struct strbuf p = STRBUF_INIT;
		compare_key_value(s->roots[0], "kernel.build.patches", &p);
		sb_addf(&k, ", patches: %s", p.len ? p.buf : "none");
		sb_release(&p);
	}
	sb_addch(&k, ')');
	json_object_object_add(o, "kernel", json_object_new_string(k.buf));
	/* The disk class, for any but scsi_debug (as result.json says it). */
	if (jget(s->roots[0], "disks.class"))
		json_object_object_add(o, "disk_class", json_object_new_string(
				       jstr(s->roots[0], "disks.class", "?")));
	json_object_object_add(o, "highmem", json_object_new_boolean(result_highmem(s->roots[0])));
	json_object_object_add(o, "phases", side_phases(s));
	json_object_object_add(o, "monitor", side_monitor(s));
	if (series) {
		char *rs = xstrfmt("%s/reproduce.sh", s->runs.v[0]);

		json_object_object_add(o, "insmod_curve", side_bins(s));
		json_object_object_add(o, "reproduce", path_exists(rs) ? json_object_new_string(rs) : NULL);
		free(rs);
	}
	json_object_object_add(o, "time_curve", side_curve(s));
	sb_release(&k);
	return o;
}

struct cache_change {
	const char *name;
	double *kb;		/* mean growth per side */
	double most;		/* largest |kb[i] - kb[0]| */
};

static double cache_kb(json_object *root, const char *name)
{
	static const char *const lists[] = { "slab_growth", "slab_growth_rest" };

	for (size_t l = 0; l < ARRAY_SIZE(lists); l++) {
		json_object *arr = jget(root, lists[l]);
		for (size_t i = 0; i < jlen(arr); i++) {
			json_object *g = json_object_array_get_idx(arr, i);
			if (!strcmp(jstr(g, "cache", ""), name))
				return (double)jint(g, "kb", 0);
		}
	}
	return 0;
}

static int by_most_change(const void *x, const void *y)
{
	const struct cache_change *a = x, *b = y;

	if (a->most != b->most)
		return (b->most > a->most) - (b->most < a->most);
	return strcmp(a->name, b->name);
}

/* Adds name to the list of changes unless it is there already. */
static void change_add(struct cache_change **c, size_t *n, size_t *alloc, const char *name)
{
	size_t k;

	for (k = 0; k < *n && strcmp((*c)[k].name, name); k++)
		;
	if (k < *n)
		return;
	ALLOC_GROW(*c, *n + 1, *alloc);
	(*c)[*n].name = name;
	(*c)[*n].kb = NULL;
	(*c)[*n].most = 0;
	(*n)++;
}

/* The ten caches whose growth differs most from the base's. */
static json_object *slab_changes(const struct side *const *sides, size_t ns)
{
	static const char *const lists[] = { "slab_growth", "slab_growth_rest" };
	struct cache_change *c = NULL;
	size_t n = 0, alloc = 0;
	json_object *out = json_object_new_array();

	/* Every cache named on any side. */
	for (size_t s = 0; s < ns; s++)
		for (size_t r = 0; r < sides[s]->n; r++)
			for (size_t l = 0; l < ARRAY_SIZE(lists); l++) {
				json_object *arr = jget(sides[s]->roots[r], lists[l]);
				for (size_t i = 0; i < jlen(arr); i++) {
					change_add(&c, &n, &alloc,
						   jstr(json_object_array_get_idx(arr, i), "cache", ""));
				}
			}
	for (size_t k = 0; k < n; k++) {
		c[k].kb = xcalloc(ns, sizeof(*c[k].kb));
		for (size_t s = 0; s < ns; s++) {
			double sum = 0;
			for (size_t r = 0; r < sides[s]->n; r++)
				sum += cache_kb(sides[s]->roots[r], c[k].name);
			c[k].kb[s] = sum / (double)sides[s]->n;
			if (fabs(c[k].kb[s] - c[k].kb[0]) > c[k].most)
				c[k].most = fabs(c[k].kb[s] - c[k].kb[0]);
		}
	}
	if (n)
		qsort(c, n, sizeof(*c), by_most_change);
	for (size_t k = 0; k < n && k < 10; k++) {
		json_object *o = json_object_new_object();
		json_object *kb = json_object_new_array(), *ch = json_object_new_array();
		for (size_t s = 0; s < ns; s++) {
			json_object_array_add(kb, json_rounded(c[k].kb[s]));
			json_object_array_add(ch, s ? json_rounded(c[k].kb[s] - c[k].kb[0]) : NULL);
		}
		json_object_object_add(o, "cache", json_object_new_string(c[k].name));
		json_object_object_add(o, "kb", kb);
		json_object_object_add(o, "change_kb", ch);
		json_object_array_add(out, o);
	}
	for (size_t k = 0; k < n; k++)
		free(c[k].kb);
	free(c);
	return out;
}

/* result.json's attribution.sources.SOURCE.sites, and whether the run has
 * that source: page_alloc when attribution.status is ok, page_owner when
 * its own status is. */
static json_object *source_sites(json_object *root, const char *source, int *have)
{
	char path[96];

	snprintf(path, sizeof(path), "attribution.sources.%s.status", source);
	*have = !strcmp(source, "page_alloc")
		? !strcmp(jstr(root, "attribution.status", ""), "ok")
		: !strcmp(jstr(root, path, ""), "ok");
	snprintf(path, sizeof(path), "attribution.sources.%s.sites", source);
	return jarray(root, path);
}

/* A run's bytes per disk at one call site of a source (0 when the site
 * is not among its listed ones); -1 when the run has no such source. */
static double site_per_disk(json_object *root, const char *source, const char *site)
{
	int have;
	json_object *arr = source_sites(root, source, &have);

	if (!have)
		return -1;
	for (size_t i = 0; i < jlen(arr); i++) {
		json_object *g = json_object_array_get_idx(arr, i);
		if (!strcmp(jstr(g, "site", ""), site))
			return (double)jint(g, "bytes_per_disk", 0);
	}
	return 0;
}

/* A run's figure at a call site of a scope (a source of the attribution,
 * a phase of the time attribution); -1 when the run lacks the scope. */
typedef double site_value_fn(json_object *root, const char *scope, const char *site);

/* The ten sites of c (change_add's list of n) whose mean per side, over
 * the side's runs that have the scope, differs most from the base's, added
 * to out as {["phase": phase,] site, KEY: [mean per side, null for a side
 * without the scope], change: [null, from the base...]}; c is freed. */
static void site_rows(json_object *out, struct cache_change *c, size_t n,
		      const struct side *const *sides, size_t ns, site_value_fn *value,
		      const char *scope, const char *phase, const char *key)
{
	int *have = xcalloc(ns, sizeof(*have));

	for (size_t k = 0; k < n; k++) {
		c[k].kb = xcalloc(ns, sizeof(*c[k].kb));
		for (size_t s = 0; s < ns; s++) {
			double sum = 0;
			size_t runs = 0;

			for (size_t r = 0; r < sides[s]->n; r++) {
				double v = value(sides[s]->roots[r], scope, c[k].name);
				if (v >= 0) {
					sum += v;
					runs++;
				}
			}
			have[s] = runs > 0;
			c[k].kb[s] = runs ? sum / (double)runs : 0;
			if (have[s] && have[0] && fabs(c[k].kb[s] - c[k].kb[0]) > c[k].most)
				c[k].most = fabs(c[k].kb[s] - c[k].kb[0]);
			/* Against a base without the scope: the largest first. */
			else if (have[s] && !have[0] && c[k].kb[s] > c[k].most)
				c[k].most = c[k].kb[s];
		}
	}
	if (n)
		qsort(c, n, sizeof(*c), by_most_change);
	for (size_t k = 0; k < n && k < 10; k++) {
		json_object *o = json_object_new_object();
		json_object *v = json_object_new_array(), *ch = json_object_new_array();

		for (size_t s = 0; s < ns; s++) {
			json_object_array_add(v, have[s] ? json_rounded(c[k].kb[s]) : NULL);
			json_object_array_add(ch, s && have[s] && have[0]
					      ? json_rounded(c[k].kb[s] - c[k].kb[0]) : NULL);
		}
		if (phase)
			json_object_object_add(o, "phase", json_object_new_string(phase));
		json_object_object_add(o, "site", json_object_new_string(c[k].name));
		json_object_object_add(o, key, v);
		json_object_object_add(o, "change", ch);
		json_object_array_add(out, o);
	}
	for (size_t k = 0; k < n; k++)
		free(c[k].kb);
	free(c);
	free(have);
}

/* The ten call sites of a source (result.json's attribution: page_alloc,
 * page_owner) whose bytes per disk differ most from the base's: [{site,
 * bytes_per_disk: [mean per side, null for a side without the source],
 * change: [null, from the base...]}]; empty when no side has it. */
static json_object *site_changes(const struct side *const *sides, size_t ns,
				 const char *source)
{
	struct cache_change *c = NULL;
	size_t n = 0, alloc = 0;
	json_object *out = json_object_new_array();

	for (size_t s = 0; s < ns; s++)
		for (size_t r = 0; r < sides[s]->n; r++) {
			int ok;
			json_object *arr = source_sites(sides[s]->roots[r], source, &ok);
			for (size_t i = 0; ok && i < jlen(arr); i++) {
				change_add(&c, &n, &alloc,
					   jstr(json_object_array_get_idx(arr, i), "site", ""));
			}
		}
	site_rows(out, c, n, sides, ns, site_per_disk, source, NULL, "bytes_per_disk");
	return out;
}

/* A time attribution phase of a run (insmod, rmmod, sweep), or NULL. */
static json_object *time_phase(json_object *root, const char *phase)
{
	json_object *ps = jarray(root, "time_attribution.phases");

	if (strcmp(jstr(root, "time_attribution.status", ""), "ok"))
		return NULL;
	for (size_t i = 0; i < jlen(ps); i++) {
		json_object *p = json_object_array_get_idx(ps, i);

		if (!strcmp(jstr(p, "phase", ""), phase))
			return p;
	}
	return NULL;
}

/* A run's milliseconds per disk at a call site of a phase (its rows of
 * every class summed; 0 when not listed); -1 when the run has no such
 * phase. */
static double time_site_ms(json_object *root, const char *phase, const char *site)
{
	json_object *p = time_phase(root, phase), *sites;
	double sum = 0;

	if (!p)
		return -1;
	sites = jarray(p, "sites");
	for (size_t i = 0; i < jlen(sites); i++) {
		json_object *s = json_object_array_get_idx(sites, i);

		if (!strcmp(jstr(s, "site", ""), site))
			sum += jdouble(s, "ms_per_disk", 0);
	}
	return sum;
}

/* Per phase of the time attribution (insmod, rmmod, sweep), the ten call
 * sites whose milliseconds per disk differ most from the base's: [{phase,
 * site, ms_per_disk: [mean per side, null for a side without the phase],
 * change: [null, from the base...]}]. */
static json_object *time_site_changes(const struct side *const *sides, size_t ns)
{
	static const char *const phases[] = { "insmod", "rmmod", "sweep" };
	json_object *out = json_object_new_array();

	for (size_t ph = 0; ph < ARRAY_SIZE(phases); ph++) {
		struct cache_change *c = NULL;
		size_t n = 0, alloc = 0;

		for (size_t s = 0; s < ns; s++)
			for (size_t r = 0; r < sides[s]->n; r++) {
				json_object *p = time_phase(sides[s]->roots[r], phases[ph]);
				json_object *sites = p ? jarray(p, "sites") : NULL;

				for (size_t i = 0; i < jlen(sites); i++)
					change_add(&c, &n, &alloc,
						   jstr(json_object_array_get_idx(sites, i), "site", ""));
			}
		site_rows(out, c, n, sides, ns, time_site_ms, phases[ph], phases[ph], "ms_per_disk");
	}
	return out;
}

int compare_parse_gates(const char *s)
{
	int g = 0;
	char *copy = xstrdup(s), *save = NULL;

	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "memory"))
			g |= GATE_MEMORY;
		else if (!strcmp(t, "time"))
			g |= GATE_TIME;
		else if (!strcmp(t, "io"))
			g |= GATE_IO;
		else {
			free(copy);
			return -1;
		}
	}
	free(copy);
	return g;
}


static json_object *gate_names(int gates)
{
	static const struct {
		int bit;
		const char *name;
	} names[] = { { GATE_MEMORY, "memory" }, { GATE_TIME, "time" }, { GATE_IO, "io" } };
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (gates & names[i].bit)
			json_object_array_add(a, json_object_new_string(names[i].name));
	return a;
}

/* How bad a verdict is, to pick a metric's worst over its sides. */
static int severity(const char *v)
{
	static const char *const order[] = {
		"n/a", "no change", "better", "improvement", "worse", "regression",
	};

	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		if (!strcmp(v, order[i]))
			return (int)i;
	return 0;
}

/* One metric: every side's figures, each side after the base judged
 * against it; its per-side regressions and improvements counted when
 * the metric gates. */
static json_object *metric_json(const struct metric *m, const struct side *const *s, size_t n,
				const struct compare_opts *o, int *regressions, int *improvements)
{
	json_object *mo = json_object_new_object(), *arr = json_object_new_array();
	int gating = (m->gate & o->gates) != 0;
	const char *worst = "n/a";
	struct stats base;

	json_object_object_add(mo, "name", json_object_new_string(m->name));
	json_object_object_add(mo, "key", json_object_new_string(m->key ? m->key : ""));
	json_object_object_add(mo, "unit", json_object_new_string(m->unit));
	json_object_object_add(mo, "better", json_object_new_string(m->lower_is_better ? "lower" : "higher"));
	json_object_object_add(mo, "gating", json_object_new_boolean(gating));
	for (size_t i = 0; i < n; i++) {
		struct stats st;
		json_object *js = side_stats(s[i], m, &st);
		const char *verdict = "n/a";

		json_object_array_add(arr, js);
		if (!i) {
			base = st;
			continue;
		}
		if (base.n && st.n) {
			double change = st.mean - base.mean;
			double pct = base.mean != 0 ? 100.0 * change / fabs(base.mean) : (change ? INFINITY : 0);
			double p = welch_p(&base, &st);
			int big = fabs(pct) >= o->threshold_pct;
			int sig = big && (p < 0 || p < o->alpha);
			int worse = m->lower_is_better ? change > 0 : change < 0;

			verdict = !sig ? "no change" : gating ? (worse ? "regression" : "improvement")
				: worse ? "worse" : "better";
			json_object_object_add(js, "change", json_rounded(change));
			json_object_object_add(js, "change_pct", isfinite(pct) ? json_rounded(pct) : NULL);
			json_object_object_add(js, "p", p >= 0 ? json_rounded(p) : NULL);
			if (gating && sig)
				(worse ? regressions : improvements)[i]++;
		} else {
			json_object_object_add(js, "change", NULL);
			json_object_object_add(js, "change_pct", NULL);
			json_object_object_add(js, "p", NULL);
		}
		json_object_object_add(js, "verdict", json_object_new_string(verdict));
		if (severity(verdict) > severity(worst) || i == 1)
			worst = verdict;
	}
	json_object_object_add(mo, "sides", arr);
	json_object_object_add(mo, "verdict", json_object_new_string(worst));
	return mo;
}

/* Whether any run of any side has the metric (a sweep's are left out of
 * comparisons without one). */
static int any_value(const struct metric *m, const struct side *const *s, size_t n)
{
	double v;

	for (size_t i = 0; i < n; i++)
		for (size_t r = 0; r < s[i]->n; r++)
			if (metric_value(m, s[i]->roots[r], &v) == 0)
				return 1;
	return 0;
}

static const char *overall(int regressions, int improvements)
{
	return regressions ? "regression" : improvements ? "improvement" : "no change";
}

/* How to make a kernel series' page again: this comparison's command
 * (its sides' paths, the options that are not the defaults), shell-quoted. */
static json_object *series_command(const struct side *const *s, size_t n,
				   const struct compare_opts *o)
{
	const struct compare_opts def = COMPARE_OPTS_INIT;
	struct strbuf c = STRBUF_INIT;

	sb_adds(&c, "bin/scaletest compare --series");
	if (o->threshold_pct != def.threshold_pct)
		sb_addf(&c, " --threshold %g", o->threshold_pct);
	if (o->alpha != def.alpha)
		sb_addf(&c, " --alpha %g", o->alpha);
	if (o->gates != def.gates) {
		json_object *g = gate_names(o->gates);
		sb_adds(&c, " --gate ");
		for (size_t i = 0; i < json_object_array_length(g); i++)
			sb_addf(&c, "%s%s", i ? "," : "",
				json_object_get_string(json_object_array_get_idx(g, i)));
		json_object_put(g);
	}
	if (o->allow_mismatch)
		sb_adds(&c, " --allow-mismatch");
	for (size_t i = 0; i < n; i++) {
		sb_addch(&c, ' ');
		shell_quote(&c, s[i]->path);
	}
	json_object *j = json_object_new_string(c.buf);
	sb_release(&c);
	return j;
}

int compare_n(const struct side *const *s, size_t n, const struct compare_opts *o,
	      json_object **out, struct strbuf *err)
{
	json_object *cmp, *mm, *diff, *ms, *rule, *sides;
	int *reg, *imp, rtotal = 0, itotal = 0;
	char **labels;

	*out = NULL;
	if (n < 2 || n > COMPARE_MAX_SIDES) {
		sb_addf(err, "a comparison takes 2 to %d sides, not %zu", COMPARE_MAX_SIDES, n);
		return -1;
	}
	if (side_mismatch(s, n, o->allow_mismatch, &mm, err) < 0)
		return -1;

	cmp = json_object_new_object();
	diff = side_key_diffs(s, n, compare_subject_keys);
	ms = json_object_new_array();
	rule = json_object_new_object();
	sides = json_object_new_array();
	reg = xcalloc(n, sizeof(*reg));
	imp = xcalloc(n, sizeof(*imp));
	labels = side_labels(s, n, o->series);
	for (size_t i = 0; i < ARRAY_SIZE(metrics); i++)
		if (!metrics[i].fit || any_value(&metrics[i], s, n))
			json_object_array_add(ms, metric_json(&metrics[i], s, n, o, reg, imp));
	for (size_t i = 0; o->series && i < ARRAY_SIZE(series_metrics); i++)
		if (any_value(&series_metrics[i], s, n))
			json_object_array_add(ms, metric_json(&series_metrics[i], s, n, o, reg, imp));
	for (size_t i = 0; i < n; i++) {
		json_object *sj = side_json(s[i], labels[i], o->series);
		if (i)
			json_object_object_add(sj, "verdict", json_object_new_string(overall(reg[i], imp[i])));
		json_object_array_add(sides, sj);
		rtotal += reg[i];
		itotal += imp[i];
		free(labels[i]);
	}
	free(labels);
	free(reg);
	free(imp);

	json_object_object_add(cmp, "schema", json_object_new_int(COMPARE_SCHEMA));
	if (o->series) {
		json_object_object_add(cmp, "series", json_object_new_boolean(1));
		json_object_object_add(cmp, "command", series_command(s, n, o));
	}
	json_object_object_add(cmp, "sides", sides);
	json_object_object_add(cmp, "mismatch", mm);
	json_object_object_add(cmp, "differences", diff);
	json_object_object_add(rule, "test", json_object_new_string("welch"));
	json_object_object_add(rule, "alpha", json_rounded(o->alpha));
	json_object_object_add(rule, "threshold_pct", json_rounded(o->threshold_pct));
	json_object_object_add(rule, "gates", gate_names(o->gates));
	json_object_object_add(cmp, "rule", rule);
	json_object_object_add(cmp, "metrics", ms);
	json_object_object_add(cmp, "slab", slab_changes(s, n));
	json_object_object_add(cmp, "attribution", site_changes(s, n, "page_alloc"));
	json_object_object_add(cmp, "attribution_page_owner", site_changes(s, n, "page_owner"));
	json_object_object_add(cmp, "time_attribution", time_site_changes(s, n));
	json_object_object_add(cmp, "verdict", json_object_new_string(overall(rtotal, itotal)));
	*out = cmp;
	return 0;
}

int compare_sides(const struct side *a, const struct side *b,
		  const struct compare_opts *o, json_object **out, struct strbuf *err)
{
	const struct side *s[2] = { a, b };

	return compare_n(s, 2, o, out, err);
}
