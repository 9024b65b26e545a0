// SPDX-License-Identifier: Apache-2.0
#include "report/model.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/model_read.h"
#include "guest/phase.h"
#include "result/result.h"
#include "lib/util.h"

static void disk_of(json_object *d, struct report_disk *out)
{
	out->name = jstr(d, "name", NULL);
	out->dev = jstr(d, "dev", NULL);
}

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
	/* The free pages on the per-CPU lists, which MemFree leaves out and
	 * the per-disk free figures count (result/analysis.c): the lists of
	 * the headline's zones. */
	const char *key = result_pcp_key(m->highmem ? "LowFree" : "MemFree");
	struct report_mem_row *r = &m->mem[m->nmem];
	char path[64];

	snprintf(path, sizeof(path), "zoneinfo.%s", key);
	r->before = num_at(b, path);
	r->after = num_at(a, path);
	snprintf(path, sizeof(path), "deltas.insmod.%s", key);
	r->change = num_at(root, path);
	if (r->before.have && r->after.have && r->change.have) {
		r->field = m->highmem ? "per-CPU lists (low)" : "per-CPU lists";
		m->pcp_counted = 1;
		m->nmem++;
	} else {
		memset(r, 0, sizeof(*r));
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
 * enumeration and removal fits; each with its points (result/curve.h). */
static void curves(json_object *root, struct report_model *m)
{
	static const struct {
		const char *what, *path;
		int sweep;		/* a sweep fit: marginal_* in ms, no wall */
		enum curve_what points;
	} src[] = {
		{ "insmod", "time_curves.insmod", 0, CURVE_INSMOD },
		{ "rmmod", "time_curves.rmmod", 0, CURVE_RMMOD },
		{ "sweep: adding hosts", "sweep.fit.enumerate", 1, CURVE_INSMOD },
		{ "sweep: removing hosts", "sweep.down_fit.remove", 1, CURVE_SWEEP_REMOVE },
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
		x->npts = curve_read(root, src[i].points, &x->pts);
		x->nrate = curve_rates(x->pts, x->npts, &x->rate);
		x->first_disks = x->npts ? x->pts[0].disks : 0;
		x->last_disks = x->npts ? x->pts[x->npts - 1].disks : x->disks.v;
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
	RUN(F_STR, build_patchset_hash, "kernel.build.patchset_hash"),
	RUN(F_STR, build_git_url, "kernel.build.git_url"),
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
	/* What came back at rmmod as returned_pct counts it: with the per-CPU
	 * lists' change. */
	if (m->rmmod_memfree_kb.have)
		m->rmmod_memfree_kb.v = (double)result_free_change(jget(root, "deltas.rmmod"), "MemFree",
								   (long long)m->rmmod_memfree_kb.v);

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
	m->overrides = strings_of(jarr(root, "scenario.overrides"), &m->noverrides);

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
	free(m->overrides);
	for (size_t i = 0; i < m->nta_phases; i++) {
		free(m->ta_phases[i].sites);
		free(m->ta_phases[i].stacks);
	}
	free(m->ta_phases);
	free(m->ta_growth);
	free(m->ta_growth_fn);
	for (size_t i = 0; i < m->ncurves; i++) {
		free(m->curves[i].pts);
		free(m->curves[i].rate);
	}
	json_object_put(m->root);
	memset(m, 0, sizeof(*m));
}
