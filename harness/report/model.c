#include "report/model.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "guest/phase.h"
#include "result/result.h"
#include "lib/util.h"

/*
 * Every JSON access goes through these type-checking helpers, so that a
 * hostile or truncated file cannot trip json-c's assertions (an array
 * function on an object, say).
 */

static json_object *jarr(json_object *o, const char *path)
{
	json_object *a = jget(o, path);

	return a && json_object_is_type(a, json_type_array) ? a : NULL;
}

static size_t alen(json_object *a)
{
	return a ? json_object_array_length(a) : 0;
}

static json_object *aget(json_object *a, size_t i)
{
	return json_object_array_get_idx(a, i);
}

static struct num num_at(json_object *o, const char *path)
{
	json_object *x = jget(o, path);
	struct num n = { 0, 0 };

	if (x && (json_object_is_type(x, json_type_int) ||
		  json_object_is_type(x, json_type_double))) {
		n.v = json_object_get_double(x);
		n.have = isfinite(n.v);
		if (!n.have)
			n.v = 0;
	}
	return n;
}

static int bool_at(json_object *o, const char *path)
{
	json_object *x = jget(o, path);

	return x && json_object_get_boolean(x);
}

/* The JSON's own text of the value at path, or NULL when missing. */
static const char *text_at(json_object *o, const char *path)
{
	json_object *x = jget(o, path);

	return x ? json_object_get_string(x) : NULL;
}

/*
 * Most of a model is fields read straight from a path of its JSON: a
 * table of them per struct, each row the field's path, where it goes and
 * whether it is a string (jstr), a figure (num_at) or the JSON's own text
 * of a value (text_at).
 */
enum field_kind { F_STR, F_NUM, F_TEXT };

struct field {
	enum field_kind kind;
	size_t offset;
	const char *path;
};
#define FIELD(type, kind, member, path) { kind, offsetof(type, member), path }

static void fields_of(json_object *o, void *base, const struct field *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *p = (char *)base + f[i].offset;

		if (f[i].kind == F_NUM)
			*(struct num *)p = num_at(o, f[i].path);
		else if (f[i].kind == F_TEXT)
			*(const char **)p = text_at(o, f[i].path);
		else
			*(const char **)p = jstr(o, f[i].path, NULL);
	}
}

static void disk_of(json_object *d, struct report_disk *out)
{
	out->name = jstr(d, "name", NULL);
	out->dev = jstr(d, "dev", NULL);
}

/* ---- a run ---- */

static const struct {
	const char *field;
	int falls;		/* a cost when it falls (free memory) */
	int analysed;		/* in deltas.insmod.per_disk_bytes */
} mem_fields[] = {
	{ "LowFree", 1, 1 },
	{ "MemFree", 1, 1 },
	{ "MemAvailable", 1, 1 },
	{ "Slab", 0, 1 },
	{ "SUnreclaim", 0, 0 },
};

static void mem_rows(json_object *root, struct report_model *m)
{
	json_object *b = result_phase(root, phase_name(PHASE_BEFORE_INSMOD));
	json_object *a = result_phase(root, phase_name(PHASE_AFTER_INSMOD));
	long long disks = jint(root, "settings.disks", 0);

	m->have_insmod = b && a;
	if (!m->have_insmod)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(mem_fields); i++) {
		const char *f = mem_fields[i].field;
		struct report_mem_row *r = &m->mem[m->nmem];
		char path[64];

		if (!strcmp(f, "LowFree") && !m->highmem)
			continue;
		r->field = f;
		r->headline = !strcmp(f, m->highmem ? "LowFree" : "MemFree");
		snprintf(path, sizeof(path), "meminfo.%s", f);
		r->before = num_at(b, path);
		r->after = num_at(a, path);
		snprintf(path, sizeof(path), "deltas.insmod.%s_kb", f);
		r->change = num_at(root, path);
		if (mem_fields[i].analysed) {
			snprintf(path, sizeof(path), "deltas.insmod.per_disk_bytes.%s", f);
			r->per_disk = num_at(root, path);
		} else if (r->change.have && disks) {
			/* analysis.c's arithmetic for the fields it divides */
			long long d = fmt_round(r->change.v), cost = mem_fields[i].falls ? -d : d;
			r->per_disk.have = 1;
			if (cost > -LLONG_MAX / 1024 && cost < LLONG_MAX / 1024)
				r->per_disk.v = (double)(cost * 1024 / disks);
			else	/* no kernel has that much; a damaged file */
				r->per_disk.v = (double)cost * 1024 / (double)disks;
		}
		m->nmem++;
	}
}

static void phases(json_object *root, struct report_model *m)
{
	static const char *const fields[] = {
		[PHASE_LOWFREE] = "meminfo.LowFree", [PHASE_MEMFREE] = "meminfo.MemFree",
		[PHASE_MEMAVAILABLE] = "meminfo.MemAvailable", [PHASE_SLAB] = "meminfo.Slab",
	};
	json_object *ps = jarr(root, "phases");

	m->nphases = alen(ps);
	m->phases = xcalloc(m->nphases + 1, sizeof(*m->phases));
	for (size_t i = 0; i < m->nphases; i++) {
		json_object *p = aget(ps, i);
		m->phases[i].name = jstr(p, "name", NULL);
		m->phases[i].uptime_s = num_at(p, "uptime_s");
		for (size_t k = 0; k < ARRAY_SIZE(fields); k++)
			m->phases[i].mem[k] = num_at(p, fields[k]);
	}
}

static void slab(json_object *root, struct report_model *m)
{
	json_object *g = jarr(root, "slab_growth");

	m->nslab = alen(g);
	m->slab = xcalloc(m->nslab + 1, sizeof(*m->slab));
	for (size_t i = 0; i < m->nslab; i++) {
		json_object *c = aget(g, i);
		m->slab[i].cache = jstr(c, "cache", NULL);
		m->slab[i].kb = num_at(c, "kb");
		m->slab[i].objs = num_at(c, "objs");
		m->slab[i].bytes_per_disk = num_at(c, "bytes_per_disk");
	}
}

static void attribution(json_object *root, struct report_model *m)
{
	static const struct { const char *key; size_t shown; } srcs[] = {
		{ "page_alloc", REPORT_SITES_PAGES }, { "page_owner", REPORT_SITES_PAGES },
		{ "kmalloc", REPORT_SITES_SLAB },
		{ "kmalloc_node", REPORT_SITES_SLAB }, { "kmem_cache", REPORT_SITES_SLAB },
		{ "kmem_cache_node", REPORT_SITES_SLAB },
	};
	json_object *a = jget(root, "attribution"), *c;
	size_t max = 0;
	/* On a HIGHMEM kernel the disks live in lowmem: each site's share of
	 * the LowFree drop too (the kernel's own allocations come from lowmem;
	 * user pages may not, so theirs is an upper bound). */
	struct num low = num_at(root, "deltas.insmod.per_disk_bytes.LowFree");

	m->attr_closes = -1;
	if (!a || !json_object_is_type(a, json_type_object))
		return;
	m->attr_status = jstr(a, "status", NULL);
	m->attr_reason = jstr(a, "reason", NULL);
	m->attr_drop = num_at(a, "memfree_drop_bytes");
	m->attr_disks = num_at(a, "disks");
	m->attr_net = num_at(a, "closure.net_bytes");
	m->attr_explained_pct = num_at(a, "closure.explained_pct");
	m->attr_tolerance_pct = num_at(a, "closure.tolerance_pct");
	m->attr_unexplained = num_at(a, "closure.unexplained_bytes");
	m->attr_unexplained_per_disk = num_at(a, "closure.unexplained_per_disk");
	m->po_status = jstr(a, "sources.page_owner.status", NULL);
	m->po_reason = jstr(a, "sources.page_owner.reason", NULL);
	m->po_net = num_at(a, "sources.page_owner.net_bytes");
	m->po_net_per_disk = num_at(a, "sources.page_owner.net_per_disk");
	m->po_net_share_pct = num_at(a, "sources.page_owner.net_share_pct");
	c = jget(a, "closure.closes");
	if (c && json_object_is_type(c, json_type_boolean))
		m->attr_closes = json_object_get_boolean(c);
	c = jarr(a, "step_fit");
	m->attr_steps_read_s = num_at(a, "steps_read_s");
	m->step_fit = xcalloc(alen(c) + 1, sizeof(*m->step_fit));
	for (size_t i = 0; i < alen(c); i++) {
		json_object *f = aget(c, i);
		struct report_step_fit *r = &m->step_fit[m->nstep_fit++];

		r->site = jstr(f, "site", NULL);
		r->per_disk = num_at(f, "bytes_per_disk");
		r->r2 = num_at(f, "r2");
		r->points = num_at(f, "points");
	}
	for (size_t i = 0; i < ARRAY_SIZE(srcs); i++)
		max += srcs[i].shown;
	m->sites = xcalloc(max + 1, sizeof(*m->sites));
	for (size_t i = 0; i < ARRAY_SIZE(srcs); i++) {
		char path[64];
		json_object *sites;

		snprintf(path, sizeof(path), "sources.%s.sites", srcs[i].key);
		sites = jarr(a, path);
		for (size_t k = 0; k < alen(sites) && k < srcs[i].shown; k++) {
			json_object *s = aget(sites, k);
			struct report_site *r = &m->sites[m->nsites++];

			r->source = srcs[i].key;
			r->site = jstr(s, "site", NULL);
			r->bytes = num_at(s, "bytes");
			r->per_disk = num_at(s, "bytes_per_disk");
			r->share_pct = num_at(s, "share_pct");
			if (m->highmem && low.have && low.v > 0 && r->per_disk.have) {
				r->lowfree_share_pct.have = 1;
				r->lowfree_share_pct.v = 100.0 * r->per_disk.v / low.v;
			}
		}
	}
}

/* time_attribution: insmod, rmmod and the sweep as phases (each step is
 * counted), their top sites and stacks; the growth of a sweep. */
static void ta_phase_of(json_object *p, struct report_ta_phase *r)
{
	json_object *sites = jarr(p, "sites"), *stacks = jarr(p, "stacks");

	r->phase = jstr(p, "phase", NULL);
	r->complete = bool_at(p, "complete");
	r->closes = bool_at(p, "closure.closes");
	r->disks = num_at(p, "disks");
	r->wall_s = num_at(p, "wall_s");
	r->samples = num_at(p, "samples");
	r->interval_s = num_at(p, "interval_s");
	r->cost_pct = num_at(p, "cost_pct");
	r->on_cpu_s = num_at(p, "on_cpu_s");
	r->wait_s = num_at(p, "wait_s");
	r->idle_s = num_at(p, "idle_s");
	r->command_cpu_s = num_at(p, "command_cpu_s");
	r->command_sampled_cpu_s = num_at(p, "command_sampled_cpu_s");
	r->attributed_s = num_at(p, "closure.attributed_s");
	r->closure_pct = num_at(p, "closure.pct");
	r->sites = xcalloc(REPORT_TA_SITES + 1, sizeof(*r->sites));
	for (size_t i = 0; i < alen(sites) && r->nsites < REPORT_TA_SITES; i++) {
		json_object *s = aget(sites, i);
		struct report_ta_site *x = &r->sites[r->nsites++];

		x->site = jstr(s, "site", NULL);
		x->cls = jstr(s, "class", NULL);
		x->comm = jstr(s, "comm", NULL);
		x->s = num_at(s, "s");
		x->on_cpu_s = num_at(s, "on_cpu_s");
		x->wait_s = num_at(s, "wait_s");
		x->ms_per_disk = num_at(s, "ms_per_disk");
		x->share_pct = num_at(s, "share_pct");
	}
	r->stacks = xcalloc(alen(stacks) + 1, sizeof(*r->stacks));
	for (size_t i = 0; i < alen(stacks); i++) {
		json_object *s = aget(stacks, i);
		struct num on = num_at(s, "on_cpu_s"), wait = num_at(s, "wait_s");
		const char *st = jstr(s, "stack", NULL);

		if (!st || (!on.have && !wait.have))
			continue;
		r->stacks[r->nstacks].stack = st;
		r->stacks[r->nstacks].on = on.v > 0 ? on.v : 0;
		r->stacks[r->nstacks++].wait = wait.v > 0 ? wait.v : 0;
	}
}

static struct report_ta_growth *growth_of(json_object *g, const char *key, size_t *n);

static void timeattr(json_object *root, struct report_model *m)
{
	json_object *t = jget(root, "time_attribution"), *ps;

	if (!t || !json_object_is_type(t, json_type_object))
		return;
	m->ta_status = jstr(t, "status", NULL);
	m->ta_reason = jstr(t, "reason", NULL);
	m->ta_preempt = jstr(t, "preempt", NULL);
	m->ta_cost_pct = num_at(t, "cost.pct");
	m->ta_max_cpu_pct = num_at(t, "max_cpu_pct");
	m->ta_tolerance_pct = num_at(t, "closure_tolerance_pct");
	ps = jarr(t, "phases");
	m->ta_phases = xcalloc(alen(ps) + 1, sizeof(*m->ta_phases));
	for (size_t i = 0; i < alen(ps); i++) {
		json_object *p = aget(ps, i);

		if (!strncmp(jstr(p, "phase", ""), "step-", 5)) {
			m->ta_steps++;
			continue;
		}
		ta_phase_of(p, &m->ta_phases[m->nta_phases++]);
	}
	m->ta_growing = jstr(t, "growth.growing_site", NULL);
	m->ta_growing_fn = jstr(t, "growth.growing_function", NULL);
	m->ta_growth = growth_of(jarr(t, "growth.sites"), "site", &m->nta_growth);
	m->ta_growth_fn = growth_of(jarr(t, "growth.functions"), "function", &m->nta_growth_fn);
}

static struct report_ta_growth *growth_of(json_object *g, const char *key, size_t *n)
{
	struct report_ta_growth *out = xcalloc(alen(g) + 1, sizeof(*out));

	*n = 0;
	for (size_t i = 0; i < alen(g); i++) {
		json_object *s = aget(g, i);
		struct report_ta_growth *x = &out[(*n)++];

		x->site = jstr(s, key, NULL);
		x->cls = jstr(s, "class", NULL);
		x->first = num_at(s, "first_ms_per_disk");
		x->last = num_at(s, "last_ms_per_disk");
		x->growth = num_at(s, "growth");
		x->share_pct = num_at(s, "share_pct");
		x->per_disk = num_at(s, "fit.ms_per_disk");
		x->marginal_last = num_at(s, "fit.marginal_last_ms");
		x->nonlinear = bool_at(s, "fit.nonlinear");
	}
	return out;
}

/* Seconds per disk: time_curves (insmod, rmmod), and a sweep's
 * enumeration and removal fits. */
static void curves(json_object *root, struct report_model *m)
{
	static const struct {
		const char *what, *path;
		int sweep;		/* a sweep fit: marginal_* in ms, no wall */
	} src[] = {
		{ "insmod", "time_curves.insmod", 0 },
		{ "rmmod", "time_curves.rmmod", 0 },
		{ "sweep: adding hosts", "sweep.fit.enumerate", 1 },
		{ "sweep: removing hosts", "sweep.down_fit.remove", 1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(src); i++) {
		json_object *c = jget(root, src[i].path), *f;
		struct report_time_curve *x;

		if (!c || !json_object_is_type(c, json_type_object))
			continue;
		f = src[i].sweep ? c : jget(c, "fit");
		x = &m->curves[m->ncurves++];
		x->what = src[i].what;
		x->disks = num_at(c, "disks");
		x->wall_s = num_at(c, "wall_s");
		if (!f || !json_object_is_type(f, json_type_object))
			continue;
		x->have = 1;
		x->nonlinear = bool_at(f, "nonlinear");
		x->per_disk = num_at(f, "ms_per_disk");
		x->per_disk_se = num_at(f, "ms_per_disk_se");
		x->fixed = num_at(f, "fixed_s");
		x->r2 = num_at(f, "r2");
		x->p = num_at(f, "p_quadratic");
		x->marginal_first = num_at(f, src[i].sweep ? "marginal_first" : "marginal_first_ms");
		x->marginal_last = num_at(f, src[i].sweep ? "marginal_last" : "marginal_last_ms");
	}
}

static void monitor(json_object *root, struct report_model *m)
{
	static const char *const series[] = { "meminfo.MemFree", "meminfo.LowFree", "slab_kb" };
	json_object *mon = jget(root, "monitor"), *p = jget(root, "monitor.peak");
	json_object *samples = jarr(root, "monitor.samples"), *gaps = jarr(root, "monitor.gaps");

	m->have_monitor = mon && json_object_is_type(mon, json_type_object);
	m->have_peak = p != NULL;
	m->nsamples_listed = alen(samples);
	m->samples = xcalloc(alen(samples) + 1, sizeof(*m->samples));
	for (size_t i = 0; i < alen(samples); i++) {
		json_object *o = aget(samples, i);
		struct report_sample *s = &m->samples[m->nsamples];
		struct num t = num_at(o, "t"), n = num_at(o, "n");

		if (!t.have)
			continue;
		s->t = t.v;
		s->n = n.have ? n.v : m->nsamples ? s[-1].n + 1 : 1;
		for (int k = 0; k < 3; k++) {
			struct num v = num_at(o, series[k]);
			s->v[k] = v.have ? v.v : NAN;
		}
		s->step = jstr(o, "step", "");
		m->nsamples++;
	}
	m->gaps = xcalloc(alen(gaps) + 1, sizeof(*m->gaps));
	for (size_t i = 0; i < alen(gaps); i++) {
		json_object *g = aget(gaps, i);
		struct num a, b;

		if (!json_object_is_type(g, json_type_array) || alen(g) < 2)
			continue;
		a = num_at(aget(g, 0), "");
		b = num_at(aget(g, 1), "");
		if (!a.have || !b.have)
			continue;
		m->gaps[m->ngaps].first = a.v;
		m->gaps[m->ngaps++].last = b.v;
	}
}

/* The sweep: its points and fitted lines, as result/sweep.c wrote them. */
static void sweep_fit_of(json_object *f, const char *figure, int time,
			 struct report_sweep_fit *out)
{
	out->figure = figure;
	out->have = f && json_object_is_type(f, json_type_object);
	out->points = num_at(f, "points");
	out->per_disk = num_at(f, time ? "ms_per_disk" : "bytes_per_disk");
	out->per_disk_se = num_at(f, time ? "ms_per_disk_se" : "bytes_per_disk_se");
	out->fixed = num_at(f, time ? "fixed_s" : "fixed_kb");
	out->r2 = num_at(f, "r2");
	out->p = num_at(f, "p_quadratic");
	out->nonlinear = bool_at(f, "nonlinear");
}

static void sweep(json_object *root, struct report_model *m)
{
	static const char *const figs[] = { "MemFree", "LowFree", "Slab", "unaccounted", "enumerate" };
	json_object *sw = jget(root, "sweep"), *pts = jarr(root, "sweep.points");

	m->have_sweep = sw && json_object_is_type(sw, json_type_object);
	if (!m->have_sweep)
		return;
	m->sweep_complete = bool_at(sw, "complete");
	m->sweep_steps.have = 1;
	m->sweep_steps.v = (double)alen(jarr(sw, "steps"));
	m->host_disks = num_at(sw, "host_disks");
	if ((m->have_knee = jget(sw, "knee") != NULL)) {
		m->knee_field = jstr(sw, "knee.field", NULL);
		m->knee_reached = bool_at(sw, "knee.reached");
		m->knee_max = num_at(sw, "knee.max_disks");
		m->knee_free = num_at(sw, "knee.free_kb_at_max");
		m->knee_floor = num_at(sw, "knee.floor_kb");
		m->knee_per_disk = num_at(sw, "knee.per_disk_bytes");
	}
	m->sweep = xcalloc(alen(pts) + 1, sizeof(*m->sweep));
	for (size_t i = 0; i < alen(pts); i++) {
		json_object *p = aget(pts, i);
		struct report_sweep_point *s = &m->sweep[m->nsweep++];

		s->disks = num_at(p, "disks");
		s->memfree_kb = num_at(p, "memfree_drop_kb");
		s->lowfree_kb = num_at(p, "lowfree_drop_kb");
		s->slab_kb = num_at(p, "slab_growth_kb");
		s->unaccounted_kb = num_at(p, "unaccounted_kb");
		s->enumerate_s = num_at(p, "enumerate_s");
		s->rate = num_at(p, "rate_disks_per_s");
	}
	for (size_t k = 0; k < ARRAY_SIZE(figs); k++) {
		char path[64];

		snprintf(path, sizeof(path), "fit.%s", figs[k]);
		sweep_fit_of(jget(sw, path), figs[k], k == 4, &m->sweep_fit[k]);
		if (k < ARRAY_SIZE(m->sweep_down)) {
			snprintf(path, sizeof(path), "down_fit.%s", figs[k]);
			sweep_fit_of(jget(sw, path), figs[k], 0, &m->sweep_down[k]);
		}
	}
}

#define JOB(kind, member, path) FIELD(struct report_fio_job, kind, member, path)
static const struct field job_fields[] = {
	JOB(F_STR, group, "group"), JOB(F_STR, job, "job"), JOB(F_NUM, error, "error"),
	JOB(F_NUM, read_iops, "read.iops"), JOB(F_NUM, write_iops, "write.iops"),
	JOB(F_NUM, read_p50, "read.clat_p50_us"), JOB(F_NUM, read_p99, "read.clat_p99_us"),
	JOB(F_NUM, write_p50, "write.clat_p50_us"), JOB(F_NUM, write_p99, "write.clat_p99_us"),
};
#undef JOB

static void fio(json_object *root, struct report_model *m)
{
	json_object *jobs = jarr(root, "fio.jobs");

	m->njobs = alen(jobs);
	m->jobs = xcalloc(m->njobs + 1, sizeof(*m->jobs));
	for (size_t i = 0; i < m->njobs; i++) {
		json_object *j = aget(jobs, i);
		struct report_fio_job *f = &m->jobs[i];
		const char *name = jstr(j, "group", "?");
		size_t k;

		fields_of(j, f, job_fields, ARRAY_SIZE(job_fields));
		f->has_read = jget(j, "read") != NULL;
		f->has_write = jget(j, "write") != NULL;

		for (k = 0; k < m->ngroups && strcmp(m->groups[k].name, name); k++)
			;
		if (k == m->ngroups) {
			if (k == ARRAY_SIZE(m->groups))
				continue;
			m->groups[m->ngroups++].name = name;
		}
		m->groups[k].jobs++;
		m->groups[k].errors += f->error.have && f->error.v != 0;
		m->groups[k].iops += f->read_iops.v + f->write_iops.v;
		if (f->read_p99.v > m->groups[k].p99)
			m->groups[k].p99 = f->read_p99.v;
		if (f->write_p99.v > m->groups[k].p99)
			m->groups[k].p99 = f->write_p99.v;
	}
}

static void inventory(json_object *root, struct report_model *m)
{
	json_object *v = jget(root, "inventory"), *sc = jget(v, "schedulers");

	m->have_inventory = v != NULL;
	m->inventory_devices = num_at(v, "devices");
	if (!sc || !json_object_is_type(sc, json_type_object))
		return;
	m->schedulers = xcalloc((size_t)json_object_object_length(sc) + 1, sizeof(*m->schedulers));
	json_object_object_foreach(sc, name, count) {
		m->schedulers[m->nschedulers].name = name;
		m->schedulers[m->nschedulers++].count = json_object_get_int64(count);
	}
}

/* A list of strings (NULL for an entry that is not one), *n of them. */
static const char **strings_of(json_object *a, size_t *n)
{
	const char **v;

	*n = alen(a);
	v = xcalloc(*n + 1, sizeof(*v));
	for (size_t i = 0; i < *n; i++)
		v[i] = json_object_is_type(aget(a, i), json_type_string)
		       ? json_object_get_string(aget(a, i)) : NULL;
	return v;
}

static void checks(json_object *root, struct report_model *m)
{
	json_object *c = jarr(root, "checks"), *r = jarr(root, "channel.rejections");

	m->nchecks = alen(c);
	m->checks = xcalloc(m->nchecks + 1, sizeof(*m->checks));
	for (size_t i = 0; i < m->nchecks; i++) {
		m->checks[i].name = jstr(aget(c, i), "name", NULL);
		m->checks[i].detail = jstr(aget(c, i), "detail", NULL);
		m->checks[i].pass = bool_at(aget(c, i), "pass");
	}
	c = jarr(root, "findings");
	m->nfindings = alen(c);
	m->findings = xcalloc(m->nfindings + 1, sizeof(*m->findings));
	for (size_t i = 0; i < m->nfindings; i++) {
		m->findings[i].cls = jstr(aget(c, i), "class", NULL);
		m->findings[i].blame = jstr(aget(c, i), "blame", NULL);
		m->findings[i].title = jstr(aget(c, i), "title", NULL);
		m->findings[i].context = jstr(aget(c, i), "context", NULL);
		m->findings[i].line = num_at(aget(c, i), "line");
	}
	m->nrejections = alen(r);
	m->rejections = xcalloc(m->nrejections + 1, sizeof(*m->rejections));
	for (size_t i = 0; i < m->nrejections; i++)
		m->rejections[i] = json_object_is_type(aget(r, i), json_type_string)
				   ? json_object_get_string(aget(r, i)) : NULL;
}

#define RUN(kind, member, path) FIELD(struct report_model, kind, member, path)
static const struct field run_fields[] = {
	RUN(F_STR, run_id, "run_id"), RUN(F_STR, status, "status"), RUN(F_STR, reason, "reason"),
	RUN(F_STR, scenario, "scenario.name"), RUN(F_STR, description, "scenario.description"),
	RUN(F_STR, tool, "tool"), RUN(F_STR, started, "started"), RUN(F_STR, finished, "finished"),
	RUN(F_STR, hostname, "hostname"),
	RUN(F_STR, kernel_version, "kernel.version"), RUN(F_STR, kernel_arch, "kernel.arch"),
	RUN(F_STR, kernel_source, "kernel.source"), RUN(F_STR, kernel_package, "kernel.package"),
	RUN(F_STR, kernel_package_version, "kernel.package_version"),
	RUN(F_STR, build_source_tree, "kernel.build.source_tree"),
	RUN(F_STR, build_config_base, "kernel.build.config_base"),
	RUN(F_STR, accel, "vm.accel"), RUN(F_STR, accel_reason, "vm.accel_reason"),
	RUN(F_STR, qemu_version, "vm.qemu_version"),
	RUN(F_NUM, memory_mb, "vm.memory_mb"), RUN(F_NUM, cpus, "vm.cpus"),
	RUN(F_STR, console_crash, "console.crash"), RUN(F_STR, console_oom, "console.oom"),
	RUN(F_STR, crash_class, "crash.class"), RUN(F_STR, crash_blame, "crash.blame"),
	RUN(F_STR, crash_title, "crash.title"), RUN(F_STR, crash_context, "crash.context"),
	RUN(F_NUM, crash_line, "crash.line"),
	RUN(F_NUM, disks_present, "disks.present"), RUN(F_NUM, disks_requested, "disks.requested"),
	RUN(F_NUM, virtio_present, "disks.virtio_present"),
	RUN(F_NUM, virtio_requested, "disks.virtio_requested"),
	RUN(F_STR, virtio_bus, "disks.virtio_bus"),
	RUN(F_NUM, enumerate_s, "timings.enumerate_s"), RUN(F_NUM, boot_s, "timings.boot_s"),
	RUN(F_NUM, inventory_s, "timings.inventory_s"), RUN(F_NUM, rmmod_s, "timings.rmmod_s"),
	RUN(F_STR, rmmod_rcu, "guest.rmmod_rcu_expedited"),
	RUN(F_NUM, total_s, "timings.total_s"), RUN(F_NUM, setup_s, "timings.setup_s"),
	RUN(F_NUM, unaccounted_kb, "deltas.insmod.unaccounted_kb"),
	RUN(F_NUM, lowmem_unaccounted_kb, "deltas.insmod.lowmem_unaccounted_kb"),
	RUN(F_NUM, returned_pct, "deltas.rmmod.returned_pct"),
	RUN(F_NUM, rmmod_memfree_kb, "deltas.rmmod.MemFree_kb"),
	RUN(F_NUM, received, "monitor.received"), RUN(F_NUM, interval_ms, "monitor.interval_ms"),
	RUN(F_NUM, steady_memfree, "monitor.peak.steady_after_insmod.MemFree"),
	RUN(F_NUM, steady_lowfree, "monitor.peak.steady_after_insmod.LowFree"),
	RUN(F_NUM, steady_slab, "monitor.peak.steady_after_insmod.Slab"),
	RUN(F_NUM, io_memfree_min, "monitor.peak.during_io.MemFree_min"),
	RUN(F_NUM, io_lowfree_min, "monitor.peak.during_io.LowFree_min"),
	RUN(F_NUM, io_slab_max, "monitor.peak.during_io.Slab_max"),
	RUN(F_NUM, io_extra_kb, "monitor.peak.io_extra_kb"),
	RUN(F_NUM, rejected, "channel.rejected"),
};
#undef RUN

/*
 * The writers escape what the model holds for their format, but no escape
 * makes invalid UTF-8 or a control character valid in XML, or safe on a
 * terminal.  A result.json written by this harness is clean already
 * (guest strings are cleaned where they enter it); one that is damaged,
 * hand-edited or hostile is read through a cleaned copy: every string and
 * key made valid UTF-8 without controls (lib/util.h, sb_add_clean), the
 * rest shared.
 */
static int tree_is_clean(json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_string:
		return text_is_clean(json_object_get_string(o),
				     (size_t)json_object_get_string_len(o), 1);
	case json_type_array:
		for (size_t i = 0; i < json_object_array_length(o); i++)
			if (!tree_is_clean(json_object_array_get_idx(o, i)))
				return 0;
		return 1;
	case json_type_object: {
		json_object_object_foreach(o, k, v)
			if (!text_is_clean(k, strlen(k), 0) || !tree_is_clean(v))
				return 0;
		return 1;
	}
	default:
		return 1;
	}
}

static json_object *clean_copy(json_object *o)
{
	struct strbuf sb = STRBUF_INIT;
	json_object *c;

	switch (json_object_get_type(o)) {
	case json_type_string:
		sb_add_clean(&sb, json_object_get_string(o),
			     (size_t)json_object_get_string_len(o), 1);
		c = json_object_new_string_len(sb.buf, (int)sb.len);
		break;
	case json_type_array:
		c = json_object_new_array();
		for (size_t i = 0; i < json_object_array_length(o); i++)
			json_object_array_add(c, clean_copy(json_object_array_get_idx(o, i)));
		break;
	case json_type_object: {
		c = json_object_new_object();
		json_object_object_foreach(o, k, v) {
			sb_reset(&sb);
			sb_add_clean(&sb, k, strlen(k), 0);
			json_object_object_add(c, sb.buf, clean_copy(v));
		}
		break;
	}
	default:
		c = json_object_get(o);
		break;
	}
	sb_release(&sb);
	return c;
}

/* A new reference to o, or to a cleaned copy of it. */
static json_object *clean_ref(json_object *o)
{
	return tree_is_clean(o) ? json_object_get(o) : clean_copy(o);
}

void report_model_from_json(json_object *root, struct report_model *m)
{
	static const char *const props[] = {
		"status", "reason", "run_id", "kernel.version", "kernel.arch", "vm.accel",
		"disks.requested", "disks.present", "deltas.insmod.LowFree_kb",
		"deltas.insmod.MemFree_kb", "deltas.insmod.per_disk_bytes.LowFree",
		"deltas.insmod.per_disk_bytes.MemFree", "deltas.insmod.unaccounted_kb",
		"deltas.rmmod.returned_pct", "timings.enumerate_s", "timings.total_s",
	};
	json_object *v;

	memset(m, 0, sizeof(*m));
	root = m->root = clean_ref(root);
	fields_of(root, m, run_fields, ARRAY_SIZE(run_fields));
	if (m->description && !*m->description)
		m->description = NULL;

	v = jget(root, "disks.first");
	if ((m->have_first = v && json_object_is_type(v, json_type_object)))
		disk_of(v, &m->first);
	v = jget(root, "disks.last");
	if ((m->have_last = v && json_object_is_type(v, json_type_object)))
		disk_of(v, &m->last);
	v = jarr(root, "disks.virtio");
	m->nvirtio = alen(v);
	m->virtio = xcalloc(m->nvirtio + 1, sizeof(*m->virtio));
	for (size_t i = 0; i < m->nvirtio; i++)
		disk_of(aget(v, i), &m->virtio[i]);

	m->highmem = result_highmem(root);
	mem_rows(root, m);

	phases(root, m);
	slab(root, m);
	attribution(root, m);
	timeattr(root, m);
	curves(root, m);
	monitor(root, m);
	sweep(root, m);
	fio(root, m);
	inventory(root, m);
	checks(root, m);
	m->build_patches = strings_of(jarr(root, "kernel.build.patches"), &m->nbuild_patches);
	m->build_fragments = strings_of(jarr(root, "kernel.build.fragments"), &m->nbuild_fragments);

	for (size_t i = 0; i < ARRAY_SIZE(props); i++) {
		const char *t = text_at(root, props[i]);
		m->props[i].name = props[i];
		m->props[i].value = t ? t : "";
	}
	m->nprops = ARRAY_SIZE(props);
}

void report_model_release(struct report_model *m)
{
	free(m->virtio);
	free(m->phases);
	free(m->slab);
	free(m->samples);
	free(m->gaps);
	free(m->jobs);
	free(m->schedulers);
	free(m->sweep);
	free(m->checks);
	free(m->findings);
	free(m->rejections);
	free(m->sites);
	free(m->step_fit);
	free(m->build_patches);
	free(m->build_fragments);
	for (size_t i = 0; i < m->nta_phases; i++) {
		free(m->ta_phases[i].sites);
		free(m->ta_phases[i].stacks);
	}
	free(m->ta_phases);
	free(m->ta_growth);
	free(m->ta_growth_fn);
	json_object_put(m->root);
	memset(m, 0, sizeof(*m));
}

/* ---- a comparison ---- */

#define SIDE(kind, member, path) FIELD(struct compare_side_model, kind, member, path)
static const struct field side_fields[] = {
	SIDE(F_STR, label, "label"), SIDE(F_STR, path, "path"), SIDE(F_STR, scenario, "scenario"),
	SIDE(F_STR, kernel, "kernel"), SIDE(F_STR, verdict, "verdict"), SIDE(F_NUM, n, "n"),
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

/* ---- a night ---- */

static void row_runs(struct nightly_row *r, const char *night_dir)
{
	struct strbuf err = STRBUF_INIT;
	json_object *root, *cmp;
	char *dir, *cj;

	if (!night_dir || !r->run)
		return;
	dir = xstrfmt("%s/%s", night_dir, path_basename(r->run));
	if (result_load(dir, &root, &err) == 0) {
		report_model_from_json(root, &r->run_model);
		json_object_put(root);
		r->have_run = 1;
	}
	cj = xstrfmt("%s/compare.json", dir);
	sb_reset(&err);
	if (path_exists(cj) && json_load_object(cj, &cmp, &err) == 0) {
		compare_model_from_json(cmp, &r->compare);
		json_object_put(cmp);
		r->have_compare = 1;
	}
	free(cj);
	free(dir);
	sb_release(&err);
}

#define NIGHT(kind, member, path) FIELD(struct nightly_model, kind, member, path)
static const struct field night_fields[] = {
	NIGHT(F_STR, stamp, "stamp"), NIGHT(F_NUM, scenarios, "scenarios"),
	NIGHT(F_NUM, failed, "failed"), NIGHT(F_NUM, regressed, "regressed"),
	NIGHT(F_NUM, without_baseline, "without_baseline"), NIGHT(F_NUM, seconds, "seconds"),
	NIGHT(F_NUM, recorded, "recorded"),
};
#undef NIGHT

#define ROW(kind, member, path) FIELD(struct nightly_row, kind, member, path)
static const struct field row_fields[] = {
	ROW(F_STR, scenario, "scenario"), ROW(F_STR, status, "status"), ROW(F_STR, reason, "reason"),
	ROW(F_STR, run, "run"), ROW(F_STR, baseline, "baseline"), ROW(F_STR, verdict, "verdict"),
	ROW(F_STR, per_disk_field, "per_disk.field"), ROW(F_NUM, per_disk, "per_disk.bytes"),
	ROW(F_STR, accel, "accel"), ROW(F_STR, qemu, "qemu"),
};
#undef ROW

void nightly_model_from_json(json_object *summary, const char *night_dir,
			     struct nightly_model *m)
{
	json_object *rows;

	memset(m, 0, sizeof(*m));
	summary = m->summary = clean_ref(summary);
	rows = jarr(summary, "runs");
	fields_of(summary, m, night_fields, ARRAY_SIZE(night_fields));
	m->nrows = alen(rows);
	m->rows = xcalloc(m->nrows + 1, sizeof(*m->rows));
	for (size_t i = 0; i < m->nrows; i++) {
		json_object *o = aget(rows, i);
		struct nightly_row *r = &m->rows[i];

		fields_of(o, r, row_fields, ARRAY_SIZE(row_fields));
		r->without_baseline = json_object_is_type(jget(o, "without_baseline"), json_type_boolean) &&
				      json_object_get_boolean(jget(o, "without_baseline"));
		row_runs(r, night_dir);
	}
}

void nightly_model_release(struct nightly_model *m)
{
	for (size_t i = 0; i < m->nrows; i++) {
		if (m->rows[i].have_run)
			report_model_release(&m->rows[i].run_model);
		if (m->rows[i].have_compare)
			compare_model_release(&m->rows[i].compare);
	}
	free(m->rows);
	json_object_put(m->summary);
	memset(m, 0, sizeof(*m));
}
