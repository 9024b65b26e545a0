// SPDX-License-Identifier: Apache-2.0
#include "result/analysis.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "result/fit.h"
#include "result/result.h"
#include "scenario/diskclass.h"
#include "guest/phase.h"
#include "lib/util.h"

void analysis_add_check(json_object *checks, const char *name, int pass,
			const char *fmt, ...)
{
	json_object *o = json_object_new_object();
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "pass", json_object_new_boolean(pass));
	json_object_object_add(o, "detail", json_object_new_string(sb.buf));
	json_object_array_add(checks, o);
	sb_release(&sb);
}

/* The change of a phase's SECTION.FIELD from a to b (meminfo's fields;
 * zoneinfo's pcp_kb and pcp_low_kb, the free pages on the per-CPU lists
 * that MemFree, LowFree and MemAvailable leave out: record/zoneinfo.h);
 * NULL unless both phases have it. */
static json_object *phase_delta(json_object *a, json_object *b, const char *section,
				const char *field)
{
	char path[96];
	long long x, y;

	snprintf(path, sizeof(path), "%s.%s", section, field);
	x = jint(a, path, -1);
	y = jint(b, path, -1);
	if (!a || !b || x < 0 || y < 0)
		return NULL;
	return json_object_new_int64(y - x);
}

static json_object *mem_delta(json_object *a, json_object *b, const char *field)
{
	return phase_delta(a, b, "meminfo", field);
}

static json_object *pcp_delta(json_object *a, json_object *b, const char *key)
{
	return phase_delta(a, b, "zoneinfo", key);
}

void analysis_deltas(json_object *root, const struct scenario *s)
{
	static const char *const fields[] = {
		"LowFree", "MemFree", "MemAvailable", "Slab", "SReclaimable",
		"SUnreclaim", "PageTables", "KernelStack", "VmallocUsed", "Percpu",
	};
	json_object *deltas = json_object_new_object();
	json_object *before = result_phase(root, phase_name(PHASE_BEFORE_INSMOD));
	json_object *after = result_phase(root, phase_name(PHASE_AFTER_INSMOD));
	json_object *io = result_phase(root, phase_name(PHASE_AFTER_IO));
	json_object *rm = result_phase(root, phase_name(PHASE_AFTER_RMMOD));
	json_object *ins = json_object_new_object();
	long long disks = s->disks;

	json_object_object_add(ins, "from", json_object_new_string(phase_name(PHASE_BEFORE_INSMOD)));
	json_object_object_add(ins, "to", json_object_new_string(phase_name(PHASE_AFTER_INSMOD)));
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		char key[64];
		snprintf(key, sizeof(key), "%s_kb", fields[i]);
		json_object_object_add(ins, key, mem_delta(before, after, fields[i]));
	}
	json_object_object_add(ins, "pcp_kb", pcp_delta(before, after, "pcp_kb"));
	json_object_object_add(ins, "pcp_low_kb", pcp_delta(before, after, "pcp_low_kb"));
	/* Cost per disk in bytes: how much of each measure one disk took.  The
	 * free measures count the per-CPU lists' free pages as free
	 * (result_free_change): 6.7's self-tuning lists otherwise move MemFree
	 * by megabytes between boots. */
	json_object *per = json_object_new_object();
	static const char *const per_fields[] = { "LowFree", "MemFree", "MemAvailable", "Slab" };
	for (size_t i = 0; i < ARRAY_SIZE(per_fields); i++) {
		char key[64];
		snprintf(key, sizeof(key), "%s_kb", per_fields[i]);
		json_object *d = jget(ins, key);
		long long v = result_free_change(ins, per_fields[i], 0);
		/* The free measures fall as disks cost memory; Slab grows. */
		long long cost = result_pcp_key(per_fields[i]) ? -v : v;
		json_object_object_add(per, per_fields[i], d && disks
				       ? json_object_new_int64(cost * 1024 / disks)
				       : NULL);
	}
	json_object_object_add(ins, "per_disk_bytes", per);

	/* What the named counters do not explain of the MemFree drop. */
	json_object *mf = jget(ins, "MemFree_kb");
	if (mf) {
		long long drop = -result_free_change(ins, "MemFree", 0), known = 0;
		static const char *const parts[] = { "Slab", "PageTables", "KernelStack",
						     "VmallocUsed", "Percpu" };
		int all = 1;
		for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
			char key[64];
			snprintf(key, sizeof(key), "%s_kb", parts[i]);
			json_object *v = jget(ins, key);
			if (v)
				known += json_object_get_int64(v);
			else if (strcmp(parts[i], "Percpu"))
				all = 0;
		}
		json_object_object_add(ins, "unaccounted_kb",
				       all ? json_object_new_int64(drop - known) : NULL);
	}
	/* The same for low memory on HIGHMEM kernels: slab, kernel stacks,
	 * page tables and per-cpu areas live there; the rest of the LowFree
	 * drop is page allocations such as blk-mq request pools. */
	json_object *lf = jget(ins, "LowFree_kb");
	if (lf) {
		long long drop = -result_free_change(ins, "LowFree", 0), known = 0;
		static const char *const low[] = { "Slab_kb", "PageTables_kb", "KernelStack_kb", "Percpu_kb" };
		for (size_t i = 0; i < ARRAY_SIZE(low); i++)
			known += jint(ins, low[i], 0);
		json_object_object_add(ins, "lowmem_unaccounted_kb", json_object_new_int64(drop - known));
	} else {
		json_object_object_add(ins, "lowmem_unaccounted_kb", NULL);
	}
	json_object_object_add(deltas, "insmod", ins);

	json_object *rmm = json_object_new_object();
	json_object_object_add(rmm, "from", json_object_new_string(phase_name(PHASE_AFTER_IO)));
	json_object_object_add(rmm, "to", json_object_new_string(phase_name(PHASE_AFTER_RMMOD)));
	json_object_object_add(rmm, "MemFree_kb", mem_delta(io, rm, "MemFree"));
	json_object_object_add(rmm, "LowFree_kb", mem_delta(io, rm, "LowFree"));
	json_object_object_add(rmm, "Slab_kb", mem_delta(io, rm, "Slab"));
	json_object_object_add(rmm, "pcp_kb", pcp_delta(io, rm, "pcp_kb"));
	/* What came back of what insmod took, the per-CPU lists' free pages
	 * counted as free on both sides (as the per-disk figures do). */
	long long cost = -result_free_change(ins, "MemFree", 0);
	if (jget(ins, "MemFree_kb") && jget(rmm, "MemFree_kb") && cost > 0 && s->rmmod && disks) {
		double pct = 100.0 * (double)result_free_change(rmm, "MemFree", 0) / (double)cost;
		json_object_object_add(rmm, "returned_pct", json_seconds(pct));
	} else {
		json_object_object_add(rmm, "returned_pct", NULL);
	}
	json_object_object_add(deltas, "rmmod", rmm);
	json_object_object_add(root, "deltas", deltas);
}

struct growth {
	const char *name;
	long long kb, objs;
};

static int cmp_growth(const void *a, const void *b)
{
	const struct growth *x = a, *y = b;

	return (y->kb > x->kb) - (y->kb < x->kb);
}

void analysis_slab_growth(json_object *root, const struct scenario *s)
{
	json_object *a = jget(result_phase(root, phase_name(PHASE_BEFORE_INSMOD)), "slab.caches");
	json_object *b = jget(result_phase(root, phase_name(PHASE_AFTER_INSMOD)), "slab.caches");
	json_object *out = json_object_new_array(), *all = json_object_new_array();
	struct growth *g = NULL;
	size_t n = 0, alloc = 0;

	if (json_object_is_type(a, json_type_object) && json_object_is_type(b, json_type_object)) {
		json_object_object_foreach(b, name, cache) {
			json_object *old = NULL;
			long long kb0 = 0, objs0 = 0;
			if (json_object_object_get_ex(a, name, &old)) {
				kb0 = jint(old, "kb", 0);
				objs0 = jint(old, "num_objs", 0);
			}
			ALLOC_GROW(g, n + 1, alloc);
			g[n].name = name;
			g[n].kb = jint(cache, "kb", 0) - kb0;
			g[n].objs = jint(cache, "num_objs", 0) - objs0;
			n++;
		}
		if (n)
			qsort(g, n, sizeof(*g), cmp_growth);
		for (size_t i = 0; i < n; i++) {
			if (i >= 10 && g[i].kb <= 0)
				break;
			json_object *o = json_object_new_object();
			json_object_object_add(o, "cache", json_object_new_string(g[i].name));
			json_object_object_add(o, "kb", json_object_new_int64(g[i].kb));
			json_object_object_add(o, "objs", json_object_new_int64(g[i].objs));
			if (s->disks)
				json_object_object_add(o, "bytes_per_disk",
						       json_object_new_int64(g[i].kb * 1024 / s->disks));
			json_object_array_add(i < 10 ? out : all, o);
		}
	}
	free(g);
	json_object_object_add(root, "slab_growth", out);
	/* Beyond the top 10, every other cache that grew. */
	json_object_object_add(root, "slab_growth_rest", all);
}


/* Min (or max) of a meminfo field over the samples of one step. */
static json_object *sample_extreme(json_object *samples, const char *step,
				   const char *path, int want_max, long *count)
{
	long long best = 0;
	long n = 0;

	for (size_t i = 0; i < jlen(samples); i++) {
		json_object *smp = json_object_array_get_idx(samples, i);
		long long v = jint(smp, path, -1);

		if (strcmp(jstr(smp, "step", ""), step) || v < 0)
			continue;
		if (!n || (want_max ? v > best : v < best))
			best = v;
		n++;
	}
	if (count)
		*count = n;
	return n ? json_object_new_int64(best) : NULL;
}

void analysis_monitor(json_object *root)
{
	json_object *mon = jget(root, "monitor");
	json_object *samples = jget(mon, "samples");
	json_object *steady = result_phase(root, phase_name(PHASE_AFTER_INSMOD));
	json_object *peak, *st, *io;
	long n = 0;

	if (!mon || !samples)
		return;
	peak = json_object_new_object();
	st = json_object_new_object();
	io = json_object_new_object();
	static const char *const fields[] = { "MemFree", "LowFree", "Slab" };
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		char path[64];
		snprintf(path, sizeof(path), "meminfo.%s", fields[i]);
		json_object *v = jget(steady, path);
		json_object_object_add(st, fields[i], v ? json_object_get(v) : NULL);
		char key[64];
		int slab = !strcmp(fields[i], "Slab");
		snprintf(key, sizeof(key), "%s_%s", fields[i], slab ? "max" : "min");
		json_object_object_add(io, key, sample_extreme(samples, "io", path, slab, &n));
	}
	json_object_object_add(io, "samples", json_object_new_int64(n));
	json_object_object_add(peak, "steady_after_insmod", st);
	json_object_object_add(peak, "during_io", io);
	/* How much more the I/O took at its peak than the steady state. */
	long long s_free = jint(st, "MemFree", -1), io_min = jint(io, "MemFree_min", -1);
	json_object_object_add(peak, "io_extra_kb", s_free >= 0 && io_min >= 0
			       ? json_object_new_int64(s_free - io_min) : NULL);
	json_object_object_add(mon, "peak", peak);
}

void analysis_leak(json_object *root, const struct scenario *s, json_object *checks)
{
	json_object *pct = jget(root, "deltas.rmmod.returned_pct");
	json_object *km = jget(root, "kmemleak");

	if (s->rmmod && s->disks && pct) {
		long long cost = -result_free_change(jget(root, "deltas.insmod"), "MemFree", 0);
		long long back = result_free_change(jget(root, "deltas.rmmod"), "MemFree", 0);
		long long kept = cost - back;
		long long allowed = cost * s->rmmod_tolerance_pct / 100;

		if (allowed < s->rmmod_tolerance_kb)
			allowed = s->rmmod_tolerance_kb;
		analysis_add_check(checks, "memory returned after rmmod", kept <= allowed,
				   "%.0f%% of the %lld kB taken at insmod came back; %lld kB stayed "
				   "taken, %lld kB allowed", json_object_get_double(pct), cost,
				   kept, allowed);
	}
	if (km && jget(km, "unreferenced")) {
		long long u = jint(km, "unreferenced", 0);
		analysis_add_check(checks, "no kmemleak reports", u == 0,
				   "%lld unreferenced objects after rmmod", u);
	}
}

void analysis_fio(json_object *root, const struct scenario *s, json_object *checks)
{
	json_object *jobs = jget(root, "fio.jobs");
	json_object *groups = jget(root, "fio.groups");
	struct strbuf bad = STRBUF_INIT;
	struct strbuf vbad = STRBUF_INIT;
	long verified = 0, failed = 0, vfailed = 0;
	size_t njobs = jlen(jobs);

	if (!s->fio)
		return;
	for (size_t i = 0; i < njobs; i++) {
		json_object *j = json_object_array_get_idx(jobs, i);
		const char *group = jstr(j, "group", "");
		long long e = jint(j, "error", 0);

		if (!strcmp(group, "verify") && !e)
			verified++;
		if (e) {
			if (!failed)
				sb_addf(&bad, "job %s on %s (%s): error %lld", jstr(j, "job", "?"),
					jstr(j, "filename", "?"), group, e);
			failed++;
			if (!strncmp(group, "verify", 6) && !vfailed++)
				sb_addf(&vbad, "job %s on %s (%s): error %lld", jstr(j, "job", "?"),
					jstr(j, "filename", "?"), group, e);
		}
	}
	/* A group that exited non-zero without a failed job to show for it
	 * (fio could not start at all, say): its own words are the detail. */
	if (groups && json_object_is_type(groups, json_type_object)) {
		json_object_object_foreach(groups, name, g) {
			if (jint(g, "status", 0) == 0)
				continue;
			if (!failed)
				sb_addf(&bad, "fio %s exited with status %lld: %s", name,
					jint(g, "status", 0), jstr(g, "message", "(no message)"));
			failed++;
			if (!strncmp(name, "verify", 6) && !vfailed++)
				sb_addf(&vbad, "fio %s exited with status %lld: %s", name,
					jint(g, "status", 0), jstr(g, "message", "(no message)"));
		}
	}
	if (s->virtio_disks)
		analysis_add_check(checks, "fio verify on the virtio disks",
				   verified == s->virtio_disks && !vfailed,
				   "%ld of %lld disks verified%s%s", verified, s->virtio_disks,
				   vbad.len ? "; first failure: " : "", vbad.buf);
	analysis_add_check(checks, "fio jobs without errors", !failed && njobs,
			   "%s", failed ? bad.buf : !njobs ? "fio reported no jobs"
			   : "every job finished cleanly");
	sb_release(&bad);
	sb_release(&vbad);
}

/* Per disk and as a share of the MemFree drop, for a source or a site. */
static void attr_shares(json_object *o, long long disks, long long drop)
{
	long long b = jint(o, "bytes", 0);

	json_object_object_add(o, "bytes_per_disk",
			       disks > 0 ? json_object_new_int64(b / disks) : NULL);
	json_object_object_add(o, "share_pct",
			       drop > 0 ? json_seconds(100.0 * (double)b / (double)drop) : NULL);
}

/* The step's bytes of site, from its full list of page_alloc sites (0 when
 * the site had not allocated yet). */
static long long step_site_bytes(json_object *sites, const char *site)
{
	for (size_t i = 0; i < jlen(sites); i++) {
		json_object *s = json_object_array_get_idx(sites, i);
		if (!strcmp(jstr(s, "site", ""), site))
			return jint(s, "bytes", 0);
	}
	return 0;
}

/* attribution.step_fit: the peak's ATTR_STEP_FIT_SITES largest page_alloc
 * sites, each fitted (result/fit.h) over the rising steps [0, peak];
 * NULL with fewer than two rising steps. */
static json_object *attr_step_fit(json_object *steps, size_t peak)
{
	json_object *out, *top = jarray(json_object_array_get_idx(steps, peak), "sites");
	double *x, *y;

	if (!peak || !top)
		return NULL;
	out = json_object_new_array();
	x = xcalloc(peak + 1, sizeof(*x));
	y = xcalloc(peak + 1, sizeof(*y));
	for (size_t k = 0; k < jlen(top) && k < ATTR_STEP_FIT_SITES; k++) {
		const char *site = jstr(json_object_array_get_idx(top, k), "site", "");
		json_object *o;
		struct fit f;

		for (size_t i = 0; i <= peak; i++) {
			json_object *e = json_object_array_get_idx(steps, i);
			x[i] = (double)jint(e, "disks", 0);
			y[i] = (double)step_site_bytes(jget(e, "sites"), site);
		}
		if (fit_line(x, y, peak + 1, &f) < 0)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "site", json_object_new_string(site));
		json_object_object_add(o, "points", json_object_new_int64((long long)f.n));
		json_object_object_add(o, "bytes_at_peak", json_object_new_int64((long long)y[peak]));
		json_object_object_add(o, "bytes_per_disk", json_fixed(f.slope, 0));
		json_object_object_add(o, "bytes_per_disk_se",
				       f.slope_se >= 0 ? json_fixed(f.slope_se, 0) : NULL);
		json_object_object_add(o, "fixed_bytes", json_fixed(f.intercept, 0));
		json_object_object_add(o, "r2", f.r2 >= 0 ? json_fixed(f.r2, 6) : NULL);
		json_object_array_add(out, o);
		fit_release(&f);
	}
	free(x);
	free(y);
	return out;
}

/* attribution.steps, from the guest's per-step hists (record/records.c,
 * on_stephist): each step's net, its top ATTR_STEP_SITES sites (the full
 * list is dropped once the fit has used it), and step_fit. */
static void attr_steps(json_object *a)
{
	json_object *steps = jarray(a, "steps"), *out;
	size_t peak = 0;
	long long prev = 0;

	if (!steps)
		return;
	/* The rising steps: from the first, as long as the count grows (as
	 * result/sweep.c's fit); a step without both hists ends them. */
	for (size_t i = 0; i < jlen(steps); i++) {
		json_object *e = json_object_array_get_idx(steps, i);
		long long d = jint(e, "disks", 0);

		if (!jget(e, "page_alloc_bytes") || !jget(e, "page_free_bytes"))
			break;
		if (i && d > prev && peak == i - 1)
			peak = i;
		prev = d;
	}
	json_object_object_add(a, "step_fit", attr_step_fit(steps, peak));
	out = json_object_new_array();
	for (size_t i = 0; i < jlen(steps); i++) {
		json_object *e = json_object_array_get_idx(steps, i), *all = jarray(e, "sites");
		json_object *o = json_object_new_object(), *top = json_object_new_array();
		json_object *pa = jget(e, "page_alloc_bytes"), *pf = jget(e, "page_free_bytes");

		json_object_object_add(o, "step", json_object_get(jget(e, "step")));
		json_object_object_add(o, "disks", json_object_get(jget(e, "disks")));
		json_object_object_add(o, "page_alloc_bytes", json_object_get(pa));
		json_object_object_add(o, "page_free_bytes", json_object_get(pf));
		json_object_object_add(o, "net_bytes", pa && pf ? json_object_new_int64(
			json_object_get_int64(pa) - json_object_get_int64(pf)) : NULL);
		for (size_t k = 0; k < jlen(all) && k < ATTR_STEP_SITES; k++)
			json_object_array_add(top, json_object_get(json_object_array_get_idx(all, k)));
		json_object_object_add(o, "sites", top);
		json_object_array_add(out, o);
	}
	json_object_object_add(a, "steps", out);
}

void analysis_attribution(json_object *root, const struct scenario *s,
			  json_object *from_guest)
{
	json_object *a, *srcs, *closure, *po;
	long long disks = s->disks, drop;
	json_object *mf = jget(root, "deltas.insmod.MemFree_kb");
	int po_ok;
	long long alloc, freed, vm;

	if (!s->attribution || !disks) {
		a = json_object_new_object();
		json_object_object_add(a, "status", json_object_new_string("off"));
		char *why = !s->attribution ? xstrdup("attribution = off")
			    : xstrfmt("no %s", disk_class_of(s)->devices);

		json_object_object_add(a, "reason", json_object_new_string(why));
		free(why);
		json_object_object_add(root, "attribution", a);
		return;
	}
	if (!from_guest || !jget(from_guest, "status")) {
		a = json_object_new_object();
		json_object_object_add(a, "status", json_object_new_string("unavailable"));
		json_object_object_add(a, "reason", json_object_new_string(
			"the guest sent no attr record"));
		json_object_object_add(root, "attribution", a);
		return;
	}
	a = NULL;
	if (json_object_deep_copy(from_guest, &a, NULL) < 0)
		return;
	json_object_object_add(root, "attribution", a);
	/* page_owner is a source of its own: it stands (available or not)
	 * when the hist triggers were unavailable, as on kernels built
	 * without tracing. */
	po = jget(a, "sources.page_owner");
	po_ok = po && !strcmp(jstr(po, "status", ""), "ok");
	if (strcmp(jstr(a, "status", ""), "ok")) {
		if (po)
			json_object_get(po);
		json_object_object_del(a, "sources");
		json_object_object_del(a, "steps");
		if (!po)
			return;
		srcs = json_object_new_object();
		json_object_object_add(srcs, "page_owner", po);
		json_object_object_add(a, "sources", srcs);
		if (!po_ok)
			return;
	}
	json_object_object_add(a, "files", json_object_new_string("attribution/"));
	/* With the per-CPU lists' change (record/zoneinfo.h): the tracepoints
	 * see a page handed out from a CPU's list, which MemFree never had. */
	drop = mf ? -result_free_change(jget(root, "deltas.insmod"), "MemFree", 0) * 1024 : -1;
	json_object_object_add(a, "disks", json_object_new_int64(disks));
	json_object_object_add(a, "memfree_drop_bytes", mf ? json_object_new_int64(drop) : NULL);
	srcs = jget(a, "sources");
	json_object_object_foreach(srcs, name, src) {
		json_object *sites = jarray(src, "sites");

		(void)name;
		if (jget(src, "status") && strcmp(jstr(src, "status", ""), "ok"))
			continue;
		attr_shares(src, disks, drop);
		for (size_t i = 0; i < jlen(sites); i++)
			attr_shares(json_object_array_get_idx(sites, i), disks, drop);
	}
	/* page_owner's net (pages gained less pages lost, by stack) is what
	 * insmod still holds: at most the MemFree drop, short of it by what
	 * page_owner does not see (per-CPU lists, page_ext and stack depot's
	 * own pages). */
	if (po_ok) {
		long long net = jint(po, "net_bytes", 0);

		json_object_object_add(po, "net_per_disk", json_object_new_int64(net / disks));
		json_object_object_add(po, "net_share_pct", drop > 0
				       ? json_seconds(100.0 * (double)net / (double)drop) : NULL);
	}
	if (strcmp(jstr(a, "status", ""), "ok"))
		return;
	/* Closure: a page that leaves the free lists goes through mm_page_alloc
	 * and comes back through mm_page_free, except the order-0 pages that
	 * vmalloc takes in bulk (alloc_pages_bulk has no tracepoint in 6.1):
	 * those are VmallocUsed's growth.  The per-CPU page lists are in the
	 * drop where the guest sent zoneinfo; without it they make the rest
	 * of the slack. */
	closure = json_object_new_object();
	alloc = jint(srcs, "page_alloc.bytes", -1);
	freed = jint(srcs, "page_free.bytes", -1);
	vm = jint(root, "deltas.insmod.VmallocUsed_kb", 0) * 1024;
	json_object_object_add(closure, "page_alloc_bytes",
			       alloc >= 0 ? json_object_new_int64(alloc) : NULL);
	json_object_object_add(closure, "page_free_bytes",
			       freed >= 0 ? json_object_new_int64(freed) : NULL);
	json_object_object_add(closure, "vmalloc_bytes", json_object_new_int64(vm));
	json_object_object_add(closure, "tolerance_pct",
			       json_object_new_int64(ATTR_CLOSURE_TOLERANCE_PCT));
	if (alloc >= 0 && freed >= 0 && drop > 0) {
		long long net = alloc - freed, gap = drop - net - vm;
		long long mag = gap < 0 ? -gap : gap;

		json_object_object_add(closure, "net_bytes", json_object_new_int64(net));
		json_object_object_add(closure, "unexplained_bytes", json_object_new_int64(gap));
		json_object_object_add(closure, "unexplained_per_disk",
				       json_object_new_int64(gap / disks));
		json_object_object_add(closure, "explained_pct",
				       json_seconds(100.0 * (double)(net + vm) / (double)drop));
		json_object_object_add(closure, "closes", json_object_new_boolean(
			(double)mag * 100 <= (double)drop * ATTR_CLOSURE_TOLERANCE_PCT));
	} else {
		json_object_object_add(closure, "net_bytes", NULL);
		json_object_object_add(closure, "unexplained_bytes", NULL);
		json_object_object_add(closure, "unexplained_per_disk", NULL);
		json_object_object_add(closure, "explained_pct", NULL);
		json_object_object_add(closure, "closes", NULL);
	}
	json_object_object_add(a, "closure", closure);
	attr_steps(a);
}
