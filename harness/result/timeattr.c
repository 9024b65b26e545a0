// SPDX-License-Identifier: Apache-2.0
#include "result/timeattr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "guest/phase.h"
#include "record/timeattr.h"
#include "result/fit.h"
#include "result/result.h"
#include "lib/util.h"

/* A step's count and the change from the step before (0 before the first). */
static int step_disks(json_object *points, long k, long long *disks, long long *added,
		      double *wall)
{
	json_object *p = NULL;
	long long prev = 0;

	for (size_t i = 0; i < jlen(points); i++) {
		json_object *q = json_object_array_get_idx(points, i);

		if (jint(q, "step", 0) == k) {
			p = q;
			break;
		}
		prev = jint(q, "disks", 0);
	}
	if (!p)
		return -1;
	*disks = jint(p, "disks", 0);
	*added = *disks > prev ? *disks - prev : prev - *disks;
	*wall = jdouble(p, "enumerate_s", -1);
	return 0;
}

/* The disks a label made or removed and its wall time (-1: unknown). */
static void label_scope(json_object *root, const struct scenario *s, const char *label,
			long long *disks, double *wall)
{
	json_object *points = jget(root, "sweep.points");
	long long d, a;
	double w;

	*disks = -1;
	*wall = -1;
	if (!strcmp(label, "insmod")) {
		*disks = s->disks;
		*wall = jdouble(root, "guest_timings.after-insmod.enumerate_s", -1);
	} else if (!strcmp(label, "rmmod")) {
		*disks = s->disks;
		*wall = jdouble(root, "guest_timings.after-rmmod.rmmod_s", -1);
	} else if (!strncmp(label, "step-", 5)) {
		if (step_disks(points, atol(label + 5), &d, &a, &w) == 0) {
			*disks = a;
			*wall = w;
		}
	} else if (!strcmp(label, "sweep")) {
		*disks = 0;
		*wall = 0;
		for (size_t i = 0; i < jlen(points); i++) {
			json_object *p = json_object_array_get_idx(points, i);

			if (step_disks(points, (long)jint(p, "step", 0), &d, &a, &w) < 0 || w < 0)
				continue;
			*disks += a;
			*wall += w;
		}
	}
}

static json_object *secs(double v)
{
	return json_fixed(v, 3);
}

/* One label of record/timeattr.h as a phase of the section. */
static json_object *phase_json(json_object *root, const struct scenario *s, json_object *l,
			       double *cost, double *span)
{
	json_object *o = json_object_new_object(), *sites = json_object_new_array();
	const char *label = jstr(l, "label", "?");
	long long disks;
	double wall, attributed, tol, cmd_on = 0, sp = jdouble(l, "span_s", 0);
	long long n = jint(l, "samples", 0);
	json_object *c = json_object_new_object();

	label_scope(root, s, label, &disks, &wall);
	json_object_object_add(o, "phase", json_object_new_string(label));
	json_object_object_add(o, "disks", disks >= 0 ? json_object_new_int64(disks) : NULL);
	json_object_object_add(o, "wall_s", wall >= 0 ? json_seconds(wall) : NULL);
	json_object_object_add(o, "complete", json_object_get(jget(l, "complete")));
	json_object_object_add(o, "tasks_from", json_object_get(jget(l, "tasks_from")));
	json_object_object_add(o, "samples", json_object_new_int64(n));
	json_object_object_add(o, "interval_s", n ? secs(sp / (double)n) : NULL);
	json_object_object_add(o, "span_s", json_object_get(jget(l, "span_s")));
	json_object_object_add(o, "cost_s", json_object_get(jget(l, "cost_s")));
	json_object_object_add(o, "cost_pct", sp > 0 ? json_fixed(jdouble(l, "cost_s", 0) / sp * 100, 2) : NULL);
	if (strcmp(label, "sweep")) {
		*cost += jdouble(l, "cost_s", 0);
		*span += sp;
	}
	json_object_object_add(o, "on_cpu_s", json_object_get(jget(l, "on_cpu_s")));
	json_object_object_add(o, "wait_s", json_object_get(jget(l, "wait_s")));
	json_object_object_add(o, "idle_s", json_object_get(jget(l, "idle_s")));
	json_object_object_add(o, "command_cpu_s", json_object_get(jget(l, "command_cpu_s")));
	for (size_t i = 0; i < jlen(jget(l, "sites")); i++) {
		json_object *si = json_object_array_get_idx(jget(l, "sites"), i), *x;
		double v = jdouble(si, "s", 0);
		static const char *const copy[] = { "site", "class", "comm", "s", "on_cpu_s", "wait_s" };

		x = json_object_new_object();
		for (size_t k = 0; k < ARRAY_SIZE(copy); k++)
			json_object_object_add(x, copy[k], json_object_get(jget(si, copy[k])));
		json_object_object_add(x, "s_per_disk", disks > 0 ? json_fixed(v / (double)disks, 6) : NULL);
		json_object_object_add(x, "ms_per_disk", disks > 0 ? json_fixed(v / (double)disks * 1000, 3) : NULL);
		json_object_object_add(x, "share_pct", wall > 0 ? json_fixed(v / wall * 100, 1) : NULL);
		json_object_object_add(x, "stack", json_object_get(jget(si, "stack")));
		json_object_array_add(sites, x);
		if (!strcmp(jstr(si, "class", ""), "command"))
			cmd_on += jdouble(si, "on_cpu_s", 0);
	}
	json_object_object_add(o, "command_sampled_cpu_s", secs(cmd_on));
	attributed = jdouble(l, "on_cpu_s", 0) + jdouble(l, "wait_s", 0);
	/* What sampling can resolve: either end of the phase may fall up to
	 * one interval from the sample that stands for it, so a phase of a
	 * few intervals cannot close to a percentage of its wall time (40
	 * disks come in 0.4 s, two samples): the tolerance is the larger of
	 * the percentage and two mean intervals. */
	tol = wall > 0 ? wall * TIMEATTR_CLOSURE_TOLERANCE_PCT / 100.0 : 0;
	if (n > 0 && 2 * sp / (double)n > tol)
		tol = 2 * sp / (double)n;
	json_object_object_add(c, "attributed_s", secs(attributed));
	json_object_object_add(c, "wall_s", wall >= 0 ? json_seconds(wall) : NULL);
	json_object_object_add(c, "pct", wall > 0 ? json_fixed(attributed / wall * 100, 1) : NULL);
	json_object_object_add(c, "tolerance_s", wall > 0 ? secs(tol) : NULL);
	json_object_object_add(c, "closes", json_object_new_boolean(
		wall > 0 && fabs(attributed - wall) <= tol + 0.0005));
	json_object_object_add(o, "closure", c);
	json_object_object_add(o, "sites", sites);
	json_object_object_add(o, "other_s", json_object_get(jget(l, "other_s")));
	if (jget(l, "stacks")) {
		json_object_object_add(o, "stacks", json_object_get(jget(l, "stacks")));
		json_object_object_add(o, "other_stacks_s", json_object_get(jget(l, "other_stacks_s")));
	}
	return o;
}

/* A site's leaf function: "get_device_parent <- device_add <- ..." ->
 * "get_device_parent" (its length in *n). */
static size_t leaf_len(const char *site)
{
	const char *arrow = strstr(site, " <- ");

	return arrow ? (size_t)(arrow - site) : strlen(site);
}

/* A site's (or, by_function, a leaf function's) seconds in a phase: its
 * rows of that class summed. */
static double site_s(json_object *phase, const char *name, const char *cls, int by_function)
{
	json_object *sites = jget(phase, "sites");
	double s = 0;

	for (size_t i = 0; i < jlen(sites); i++) {
		json_object *x = json_object_array_get_idx(sites, i);
		const char *site = jstr(x, "site", "");

		if (strcmp(jstr(x, "class", ""), cls))
			continue;
		if (by_function ? leaf_len(site) == strlen(name) && !strncmp(site, name, strlen(name))
				: !strcmp(site, name))
			s += jdouble(x, "s", 0);
	}
	return s;
}

/* The rising steps' phases, in step order (up to the sweep's peak). */
static size_t rising_steps(json_object *root, json_object *phases, json_object **out,
			   long long *disks, long long *added, size_t max)
{
	json_object *points = jget(root, "sweep.points");
	long long prev = -1;
	size_t n = 0;

	for (size_t i = 0; i < jlen(points) && n < max; i++) {
		json_object *p = json_object_array_get_idx(points, i);
		long long d = jint(p, "disks", 0);
		char name[32];
		json_object *ph = NULL;

		if (d <= prev)
			break;
		snprintf(name, sizeof(name), "step-%lld", jint(p, "step", 0));
		for (size_t k = 0; k < jlen(phases); k++)
			if (!strcmp(jstr(json_object_array_get_idx(phases, k), "phase", ""), name))
				ph = json_object_array_get_idx(phases, k);
		if (!ph)
			break;
		out[n] = ph;
		disks[n] = d;
		added[n++] = d - (prev < 0 ? 0 : prev);
		prev = d;
	}
	return n;
}

struct cand {
	char *name, *cls;
	double s;
};

static int cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int c;

	if (x->s != y->s)
		return x->s < y->s ? 1 : -1;
	c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->cls, y->cls);
}

/* The largest sites (or leaf functions) over the rising steps, summed. */
static struct cand *candidates(json_object **steps, size_t n, int by_function, size_t *nc)
{
	struct cand *c = NULL;
	size_t alloc = 0;

	*nc = 0;
	for (size_t i = 0; i < n; i++) {
		json_object *sites = jget(steps[i], "sites");

		for (size_t k = 0; k < jlen(sites); k++) {
			json_object *x = json_object_array_get_idx(sites, k);
			const char *site = jstr(x, "site", ""), *cls = jstr(x, "class", "");
			size_t l = by_function ? leaf_len(site) : strlen(site), j;

			for (j = 0; j < *nc; j++)
				if (strlen(c[j].name) == l && !strncmp(c[j].name, site, l) &&
				    !strcmp(c[j].cls, cls))
					break;
			if (j == *nc) {
				ALLOC_GROW(c, *nc + 1, alloc);
				c[j].name = xstrndup(site, l);
				c[j].cls = xstrdup(cls);
				c[j].s = 0;
				(*nc)++;
			}
			c[j].s += jdouble(x, "s", 0);
		}
	}
	if (*nc)
		qsort(c, *nc, sizeof(*c), cmp_cand);
	return c;
}

/* One row of the growth table: a site's (or function's) seconds at each
 * rising step, per disk added, and the fit of its summed seconds. */
static json_object *growth_row(const struct cand *c, int by_function, json_object **steps,
			       const long long *disks, const long long *added, size_t n,
			       double total, double *first_out, double *last_out)
{
	json_object *o = json_object_new_object(), *st = json_object_new_array();
	double *x = xcalloc(n, sizeof(*x)), *y = xcalloc(n, sizeof(*y));
	double cum = 0, first = -1, last = -1;
	struct fit f;

	for (size_t i = 0; i < n; i++) {
		double v = site_s(steps[i], c->name, c->cls, by_function);
		json_object *e = json_object_new_object();

		cum += v;
		x[i] = (double)disks[i];
		y[i] = cum;
		json_object_object_add(e, "step", json_object_new_string(jstr(steps[i], "phase", "")));
		json_object_object_add(e, "disks", json_object_new_int64(disks[i]));
		json_object_object_add(e, "added", json_object_new_int64(added[i]));
		json_object_object_add(e, "s", secs(v));
		json_object_object_add(e, "ms_per_disk", added[i] > 0
				       ? json_fixed(v / (double)added[i] * 1000, 3) : NULL);
		json_object_array_add(st, e);
		if (added[i] > 0) {
			if (first < 0)
				first = v / (double)added[i] * 1000;
			last = v / (double)added[i] * 1000;
		}
	}
	json_object_object_add(o, by_function ? "function" : "site", json_object_new_string(c->name));
	json_object_object_add(o, "class", json_object_new_string(c->cls));
	json_object_object_add(o, "share_pct", total > 0 ? json_fixed(cum / total * 100, 1) : NULL);
	json_object_object_add(o, "steps", st);
	if (fit_line(x, y, n, &f) == 0) {
		json_object *fo = json_object_new_object();

		json_object_object_add(fo, "ms_per_disk", json_fixed(f.slope * 1000, 3));
		json_object_object_add(fo, "fixed_s", json_fixed(f.intercept, 3));
		json_object_object_add(fo, "r2", f.r2 >= 0 ? json_fixed(f.r2, 6) : NULL);
		json_object_object_add(fo, "p_quadratic", f.p_quadratic >= 0 ? json_fixed(f.p_quadratic, 6) : NULL);
		json_object_object_add(fo, "bend", f.p_quadratic >= 0 ? json_fixed(f.bend, 4) : NULL);
		json_object_object_add(fo, "nonlinear", json_object_new_boolean(f.nonlinear));
		json_object_object_add(fo, "marginal_first_ms", json_fixed(fit_marginal(&f, x[0]) * 1000, 3));
		json_object_object_add(fo, "marginal_last_ms", json_fixed(fit_marginal(&f, x[n - 1]) * 1000, 3));
		json_object_object_add(o, "fit", fo);
		fit_release(&f);
	} else {
		json_object_object_add(o, "fit", NULL);
	}
	json_object_object_add(o, "first_ms_per_disk", first >= 0 ? json_fixed(first, 3) : NULL);
	json_object_object_add(o, "last_ms_per_disk", last >= 0 ? json_fixed(last, 3) : NULL);
	json_object_object_add(o, "growth", first > 0 ? json_fixed(last / first, 2) : NULL);
	*first_out = first;
	*last_out = last;
	free(x);
	free(y);
	return o;
}

/* The rows of the sites (or leaf functions) largest over the rising
 * steps, and the one whose time per disk grew most (a call site: not
 * "(no stack)", "(idle)" or "(user space)"). */
static json_object *growth_rows(json_object **steps, const long long *disks,
				const long long *added, size_t n, double total, int by_function,
				const char **grow)
{
	size_t nc;
	struct cand *c = candidates(steps, n, by_function, &nc);
	json_object *arr = json_object_new_array();
	double best = 0;

	*grow = NULL;
	for (size_t k = 0; k < nc && k < TIMEATTR_GROWTH_SITES; k++) {
		double first, last;
		json_object *row = growth_row(&c[k], by_function, steps, disks, added, n, total,
					      &first, &last);

		json_object_array_add(arr, row);
		if (c[k].name[0] != '(' && first >= 0 && total > 0 &&
		    c[k].s / total * 100 >= TIMEATTR_GROWTH_MIN_SHARE_PCT && last - first > best) {
			best = last - first;
			*grow = jstr(row, by_function ? "function" : "site", NULL);
		}
	}
	for (size_t k = 0; k < nc; k++) {
		free(c[k].name);
		free(c[k].cls);
	}
	free(c);
	return arr;
}

static json_object *growth_json(json_object *root, json_object *phases)
{
	size_t np = jlen(jget(root, "sweep.points")) + 1, n;
	json_object **steps = xcalloc(np, sizeof(*steps)), *g = NULL;
	long long *disks = xcalloc(np, sizeof(*disks)), *added = xcalloc(np, sizeof(*added));
	double total = 0;
	const char *grow_site, *grow_fn;

	n = rising_steps(root, phases, steps, disks, added, np);
	if (n >= 3) {
		json_object *sites, *fns;

		for (size_t i = 0; i < n; i++)
			total += jdouble(steps[i], "on_cpu_s", 0) + jdouble(steps[i], "wait_s", 0) +
				 jdouble(steps[i], "idle_s", 0);
		g = json_object_new_object();
		sites = growth_rows(steps, disks, added, n, total, 0, &grow_site);
		fns = growth_rows(steps, disks, added, n, total, 1, &grow_fn);
		json_object_object_add(g, "sites", sites);
		json_object_object_add(g, "functions", fns);
		json_object_object_add(g, "growing_site", grow_site ? json_object_new_string(grow_site) : NULL);
		json_object_object_add(g, "growing_function", grow_fn ? json_object_new_string(grow_fn) : NULL);
	}
	free(steps);
	free(disks);
	free(added);
	return g;
}

void timeattr_build(json_object *root, const struct scenario *s, const struct records *rs)
{
	json_object *ta = ta_json(&rs->ta), *o, *phases, *cost;
	double c = 0, span = 0;

	if (!ta && !s->time_attribution)
		return;
	o = json_object_new_object();
	json_object_object_add(o, "status", json_object_new_string(ta ? jstr(ta, "status", "none") : "none"));
	json_object_object_add(o, "reason", ta && jget(ta, "reason") ? json_object_get(jget(ta, "reason"))
			       : ta ? NULL : json_object_new_string("the guest sent no stack samples"));
	json_object_object_add(o, "method", json_object_new_string("proc_pid_stack"));
	json_object_object_add(o, "preempt", ta ? json_object_get(jget(ta, "preempt")) : NULL);
	json_object_object_add(o, "max_cpu_pct", json_object_new_int64(s->time_attribution_max_cpu_pct));
	json_object_object_add(o, "closure_tolerance_pct", json_object_new_int64(TIMEATTR_CLOSURE_TOLERANCE_PCT));
	phases = json_object_new_array();
	for (size_t i = 0; ta && i < jlen(jget(ta, "labels")); i++)
		json_object_array_add(phases, phase_json(root, s,
			json_object_array_get_idx(jget(ta, "labels"), i), &c, &span));
	cost = json_object_new_object();
	json_object_object_add(cost, "cpu_s", secs(c));
	json_object_object_add(cost, "span_s", secs(span));
	json_object_object_add(cost, "pct", span > 0 ? json_fixed(c / span * 100, 2) : NULL);
	json_object_object_add(o, "cost", cost);
	json_object_object_add(o, "phases", phases);
	if (*s->sweep)
		json_object_object_add(o, "growth", growth_json(root, phases));
	json_object_object_add(root, "time_attribution", o);
	json_object_put(ta);
}
