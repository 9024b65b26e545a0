#include "compare/compare.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result/result.h"
#include "compare/stats.h"
#include "lib/util.h"

const char *const compare_env_keys[] = {
	"kernel.arch", "settings.disks", "settings.virtio_disks", "settings.virtio_bus",
	"settings.sd_hosts", "settings.sd_dev_size_mb", "settings.sd_fake_rw",
	"settings.memory_mb", "settings.cpus", "vm.accel", "vm.qemu_version", "vm.backend",
	"settings.scheduler", "settings.nr_requests", "settings.sd_max_queue",
	"settings.sd_submit_queues", "settings.slab_nomerge", NULL,
};

const char *const compare_subject_keys[] = {
	"scenario.name", "kernel.version", "kernel.source", "kernel.package_version",
	"kernel.build.source_tree", "kernel.build.patches", "kernel.build.fragments",
	"kernel.build.config_base", NULL,
};

void compare_key_value(json_object *root, const char *key, struct strbuf *out)
{
	json_object *v = jget(root, key);

	if (!v)
		return;
	if (json_object_is_type(v, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			if (i)
				sb_addch(out, ',');
			sb_adds(out, json_object_get_string(json_object_array_get_idx(v, i)));
		}
		return;
	}
	sb_adds(out, json_object_get_string(v));
}

void side_release(struct side *s)
{
	for (size_t i = 0; i < s->n; i++)
		json_object_put(s->roots[i]);
	free(s->roots);
	strvec_clear(&s->runs);
	free(s->path);
	free(s->label);
	memset(s, 0, sizeof(*s));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One run: complete, passed, this schema. */
static int load_run(struct side *s, const char *dir, struct strbuf *err)
{
	json_object *root;
	const char *st;

	if (result_load(dir, &root, err) < 0)
		return -1;
	st = jstr(root, "status", "");
	if (strcmp(st, "pass")) {
		sb_addf(err, "'%s' has status %s", dir, *st ? st : "(none)");
		if (jstr(root, "reason", NULL))
			sb_addf(err, " (%s)", jstr(root, "reason", ""));
		sb_adds(err, ": only runs that passed are compared");
		json_object_put(root);
		return -1;
	}
	if (!jget(root, "deltas.insmod")) {
		sb_addf(err, "'%s' is incomplete: no insmod figures", dir);
		json_object_put(root);
		return -1;
	}
	s->roots = xrealloc(s->roots, (s->n + 1) * sizeof(*s->roots));
	s->roots[s->n++] = root;
	strvec_push(&s->runs, dir);
	return 0;
}

int side_load(struct side *s, const char *path, struct strbuf *err)
{
	char *rj = xstrfmt("%s/result.json", path);
	int r = -1;

	memset(s, 0, sizeof(*s));
	strvec_init(&s->runs);
	s->path = xstrdup(path);
	s->label = xstrdup(path_basename(path));
	if (!*s->label) {
		free(s->label);
		s->label = xstrdup(path);
	}
	if (path_exists(rj)) {
		r = load_run(s, path, err);
	} else if (is_dir(path)) {
		/* A group: every subdirectory holding a result.json. */
		struct strvec subs = STRVEC_INIT;
		DIR *d = opendir(path);
		struct dirent *de;

		while (d && (de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			char *sub = xstrfmt("%s/%s/result.json", path, de->d_name);
			if (path_exists(sub))
				strvec_push(&subs, de->d_name);
			free(sub);
		}
		if (d)
			closedir(d);
		qsort(subs.v, subs.n, sizeof(*subs.v), cmp_str);
		r = subs.n ? 0 : -1;
		if (!subs.n)
			sb_addf(err, "'%s' holds no result.json, nor runs that do", path);
		for (size_t i = 0; !r && i < subs.n; i++) {
			char *dir = xstrfmt("%s/%s", path, subs.v[i]);
			r = load_run(s, dir, err);
			free(dir);
		}
		strvec_clear(&subs);
	} else {
		sb_addf(err, "'%s' is not a run directory", path);
	}
	free(rj);
	if (r)
		return -1;
	/* The runs of one side must be alike. */
	for (size_t i = 1; i < s->n; i++)
		for (const char *const *k = compare_env_keys; *k; k++) {
			struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
			compare_key_value(s->roots[0], *k, &x);
			compare_key_value(s->roots[i], *k, &y);
			int same = !strcmp(x.buf, y.buf);
			if (!same)
				sb_addf(err, "'%s' mixes runs that differ in %s (%s vs %s)",
					path, *k, x.buf, y.buf);
			sb_release(&x);
			sb_release(&y);
			if (!same)
				return -1;
		}
	return 0;
}

/* ---- metrics ------------------------------------------------------------ */

struct metric {
	const char *name;
	const char *key;	/* path in result.json, or NULL for get() */
	double (*get)(json_object *root, int *ok);
	const char *unit;
	int lower_is_better;
	int gate;		/* GATE_* kind */
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

static const struct metric metrics[] = {
	{ "LowFree per disk", "deltas.insmod.per_disk_bytes.LowFree", NULL, "B", 1, GATE_MEMORY },
	{ "MemFree per disk", "deltas.insmod.per_disk_bytes.MemFree", NULL, "B", 1, GATE_MEMORY },
	{ "MemAvailable per disk", "deltas.insmod.per_disk_bytes.MemAvailable", NULL, "B", 1, GATE_MEMORY },
	{ "Slab per disk", "deltas.insmod.per_disk_bytes.Slab", NULL, "B", 1, GATE_MEMORY },
	{ "MemFree not in the counters", "deltas.insmod.unaccounted_kb", NULL, "kB", 1, GATE_MEMORY },
	{ "LowFree not in the counters", "deltas.insmod.lowmem_unaccounted_kb", NULL, "kB", 1, GATE_MEMORY },
	{ "enumeration time", "timings.enumerate_s", NULL, "s", 1, GATE_TIME },
	{ "rmmod time", "timings.rmmod_s", NULL, "s", 1, GATE_TIME },
	{ "boot time", "timings.guest_boot_s", NULL, "s", 1, GATE_TIME },
	{ "fio verify read IOPS per virtio disk", NULL, fio_verify, "IOPS", 0, GATE_IO },
	{ "fio sample read IOPS", NULL, fio_sample, "IOPS", 0, GATE_IO },
	{ "fio all-disks read IOPS", NULL, fio_all, "IOPS", 0, GATE_IO },
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

static json_object *num(double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.4g", v);
	if (fabs(v) >= 1e4 && fabs(v) < 1e15 && v == floor(v))
		snprintf(buf, sizeof(buf), "%.0f", v);
	return json_object_new_double_s(v, buf);
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
			json_object_array_add(vals, num(x));
		}
	}
	stats_of(v, n, st);
	json_object_object_add(o, "mean", n ? num(st->mean) : NULL);
	json_object_object_add(o, "sd", n > 1 ? num(st->sd) : NULL);
	json_object_object_add(o, "n", json_object_new_int64((long long)n));
	json_object_object_add(o, "values", vals);
	free(v);
	return o;
}

static json_object *side_json(const struct side *s)
{
	json_object *o = json_object_new_object(), *runs = json_object_new_array();
	struct strbuf k = STRBUF_INIT;

	json_object_object_add(o, "label", json_object_new_string(s->label));
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
	sb_release(&k);
	return o;
}

struct cache_change {
	const char *name;
	double a, b;
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

static int by_abs_change(const void *x, const void *y)
{
	const struct cache_change *a = x, *b = y;
	double da = fabs(a->b - a->a), db = fabs(b->b - b->a);

	return (db > da) - (db < da);
}

static json_object *slab_changes(const struct side *a, const struct side *b)
{
	struct cache_change *c = NULL;
	size_t n = 0, alloc = 0;
	json_object *out = json_object_new_array();
	const struct side *sides[2] = { a, b };

	/* Every cache named on either side, with its mean growth per side. */
	for (int s = 0; s < 2; s++)
		for (size_t r = 0; r < sides[s]->n; r++) {
			static const char *const lists[] = { "slab_growth", "slab_growth_rest" };
			for (size_t l = 0; l < ARRAY_SIZE(lists); l++) {
				json_object *arr = jget(sides[s]->roots[r], lists[l]);
				for (size_t i = 0; i < jlen(arr); i++) {
					const char *name = jstr(json_object_array_get_idx(arr, i), "cache", "");
					size_t k;
					for (k = 0; k < n && strcmp(c[k].name, name); k++)
						;
					if (k == n) {
						ALLOC_GROW(c, n + 1, alloc);
						c[n].name = name;
						n++;
					}
				}
			}
		}
	for (size_t k = 0; k < n; k++) {
		double sa = 0, sb = 0;
		for (size_t r = 0; r < a->n; r++)
			sa += cache_kb(a->roots[r], c[k].name);
		for (size_t r = 0; r < b->n; r++)
			sb += cache_kb(b->roots[r], c[k].name);
		c[k].a = sa / (double)a->n;
		c[k].b = sb / (double)b->n;
	}
	if (n)
		qsort(c, n, sizeof(*c), by_abs_change);
	for (size_t k = 0; k < n && k < 10; k++) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "cache", json_object_new_string(c[k].name));
		json_object_object_add(o, "a_kb", num(c[k].a));
		json_object_object_add(o, "b_kb", num(c[k].b));
		json_object_object_add(o, "change_kb", num(c[k].b - c[k].a));
		json_object_array_add(out, o);
	}
	free(c);
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

int compare_sides(const struct side *a, const struct side *b,
		  const struct compare_opts *o, json_object **out, struct strbuf *err)
{
	json_object *cmp = json_object_new_object(), *mm = json_object_new_array();
	json_object *diff = json_object_new_array(), *ms = json_object_new_array();
	json_object *rule = json_object_new_object();
	int regressions = 0, improvements = 0;

	*out = NULL;
	for (int pass = 0; pass < 2; pass++) {
		const char *const *keys = pass ? compare_subject_keys : compare_env_keys;
		for (const char *const *k = keys; *k; k++) {
			struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
			compare_key_value(a->roots[0], *k, &x);
			compare_key_value(b->roots[0], *k, &y);
			if (strcmp(x.buf, y.buf)) {
				json_object *d = json_object_new_object();
				json_object_object_add(d, "key", json_object_new_string(*k));
				json_object_object_add(d, "a", json_object_new_string(x.buf));
				json_object_object_add(d, "b", json_object_new_string(y.buf));
				json_object_array_add(pass ? diff : mm, d);
			}
			sb_release(&x);
			sb_release(&y);
		}
	}
	if (json_object_array_length(mm) && !o->allow_mismatch) {
		sb_adds(err, "the two sides ran in different environments, so their figures do not compare:");
		for (size_t i = 0; i < json_object_array_length(mm); i++) {
			json_object *d = json_object_array_get_idx(mm, i);
			sb_addf(err, "\n  %s: %s vs %s", jstr(d, "key", ""), jstr(d, "a", ""), jstr(d, "b", ""));
		}
		sb_adds(err, "\n(--allow-mismatch compares them anyway, with a warning)");
		json_object_put(cmp);
		json_object_put(mm);
		json_object_put(diff);
		json_object_put(ms);
		json_object_put(rule);
		return -1;
	}

	json_object_object_add(cmp, "schema", json_object_new_int(1));
	json_object_object_add(cmp, "a", side_json(a));
	json_object_object_add(cmp, "b", side_json(b));
	json_object_object_add(cmp, "mismatch", mm);
	json_object_object_add(cmp, "differences", diff);
	json_object_object_add(rule, "test", json_object_new_string("welch"));
	json_object_object_add(rule, "alpha", num(o->alpha));
	json_object_object_add(rule, "threshold_pct", num(o->threshold_pct));
	json_object_object_add(cmp, "rule", rule);

	for (size_t i = 0; i < ARRAY_SIZE(metrics); i++) {
		const struct metric *m = &metrics[i];
		struct stats sa, sb;
		json_object *mo = json_object_new_object();
		json_object *ja = side_stats(a, m, &sa), *jb = side_stats(b, m, &sb);
		const char *verdict = "n/a";
		int gating = (m->gate & o->gates) != 0;

		json_object_object_add(mo, "name", json_object_new_string(m->name));
		json_object_object_add(mo, "key", json_object_new_string(m->key ? m->key : ""));
		json_object_object_add(mo, "unit", json_object_new_string(m->unit));
		json_object_object_add(mo, "better", json_object_new_string(m->lower_is_better ? "lower" : "higher"));
		json_object_object_add(mo, "gating", json_object_new_boolean(gating));
		json_object_object_add(mo, "a", ja);
		json_object_object_add(mo, "b", jb);
		if (sa.n && sb.n) {
			double change = sb.mean - sa.mean;
			double pct = sa.mean != 0 ? 100.0 * change / fabs(sa.mean) : (change ? INFINITY : 0);
			double p = welch_p(&sa, &sb);
			int big = fabs(pct) >= o->threshold_pct;
			int sig = big && (p < 0 || p < o->alpha);
			int worse = m->lower_is_better ? change > 0 : change < 0;

			verdict = !sig ? "no change" : worse ? "regression" : "improvement";
			json_object_object_add(mo, "change", num(change));
			json_object_object_add(mo, "change_pct", isfinite(pct) ? num(pct) : NULL);
			json_object_object_add(mo, "p", p >= 0 ? num(p) : NULL);
			if (gating && sig)
				*(worse ? &regressions : &improvements) += 1;
		} else {
			json_object_object_add(mo, "change", NULL);
			json_object_object_add(mo, "change_pct", NULL);
			json_object_object_add(mo, "p", NULL);
		}
		json_object_object_add(mo, "verdict", json_object_new_string(verdict));
		json_object_array_add(ms, mo);
	}
	json_object_object_add(cmp, "metrics", ms);
	json_object_object_add(cmp, "slab", slab_changes(a, b));
	json_object_object_add(cmp, "verdict", json_object_new_string(
		regressions ? "regression" : improvements ? "improvement" : "no change"));
	*out = cmp;
	return 0;
}

