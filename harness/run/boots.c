// SPDX-License-Identifier: Apache-2.0
#include "run/boots.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/fit.h"
#include "result/result.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/xalloc.h"

/* The fit's figures: deltas.insmod's NAME_kb (the free measures with
 * the per-CPU lists' free pages, result_free_change), each with its sign
 * (-1: a drop is the cost). */
static const struct {
	const char *name;
	int sign;
} figures[] = {
	{ "MemFree", -1 }, { "LowFree", -1 }, { "Slab", 1 }, { "unaccounted", 1 },
};

/* The distinct non-zero counts of the rising steps. */
static size_t rising_counts(const struct scenario *s, long long *out)
{
	long long *st;
	size_t n, k = 0;

	scenario_sweep(s, &st, &n);
	for (size_t i = 0; i < n; i++) {
		if (i && st[i] <= st[i - 1])
			break;
		if (st[i] > 0)
			out[k++] = st[i];
	}
	free(st);
	return k;
}

static json_object *fit_of(json_object **roots, const long long *disks, size_t n,
			   size_t k, double *bpd)
{
	double *x = xcalloc(n + 1, sizeof(*x)), *y = xcalloc(n + 1, sizeof(*y));
	size_t m = 0;
	struct fit f;
	json_object *o = NULL;

	*bpd = NAN;
	for (size_t i = 0; i < n; i++) {
		long long v = roots[i] ? result_free_change(jget(roots[i], "deltas.insmod"),
							    figures[k].name, LLONG_MIN) : LLONG_MIN;
		if (v == LLONG_MIN)
			continue;
		x[m] = (double)disks[i];
		y[m++] = figures[k].sign * (double)v;
	}
	if (m >= 2 && fit_line(x, y, m, &f) == 0) {
		o = json_object_new_object();
		*bpd = f.slope * 1024;
		json_object_object_add(o, "points", json_object_new_int64((long long)m));
		json_object_object_add(o, "bytes_per_disk", json_object_new_int64(llround(*bpd)));
		json_object_object_add(o, "bytes_per_disk_se", f.slope_se >= 0
				       ? json_object_new_int64(llround(f.slope_se * 1024)) : NULL);
		json_object_object_add(o, "fixed_kb", json_object_new_int64(llround(f.intercept)));
		json_object_object_add(o, "r2", f.r2 >= 0 ? json_seconds(f.r2) : NULL);
		fit_release(&f);
	}
	free(x);
	free(y);
	return o;
}

static enum run_status worse(enum run_status a, enum run_status b)
{
	return a == RUN_PASS ? b : a;
}

enum run_status boots_execute(const struct scenario *s, const struct run_config *rc,
			      char **dir, int *err)
{
	long long counts[SWEEP_MAX_STEPS], g = scenario_sd_host_disks(s);
	size_t n = rising_counts(s, counts);
	json_object *sweep_root = NULL, **roots, *out, *runs, *fit, *sfit, *diff, *wall;
	struct strbuf why = STRBUF_INIT, sum = STRBUF_INIT;
	double t_sweep, t_boots = 0;
	enum run_status st, all;
	char *bdir, *path;
	int e;

	*dir = NULL;
	*err = 0;
	for (size_t i = 0; i < n; i++)
		if (counts[i] / g > SD_HOSTS_MAX) {
			error("--boots: %lld disks would need %lld hosts of %lld in one boot "
			      "(sd_hosts is at most %d)", counts[i], counts[i] / g, g, SD_HOSTS_MAX);
			*err = ERR_USAGE;
			return RUN_ERROR;
		}
	note("sweep --boots: the sweep in one boot, then %zu boots of one point each", n);
	st = run_execute(s, rc, dir, err);
	if (!*dir || st == RUN_INTERRUPTED || result_load(*dir, &sweep_root, &why) < 0) {
		if (why.len)
			error("%s", why.buf);
		sb_release(&why);
		return st;
	}
	all = st;
	t_sweep = jdouble(sweep_root, "timings.total_s", 0);
	bdir = xstrfmt("%s/boots", *dir);
	roots = xcalloc(n + 1, sizeof(*roots));
	runs = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		struct scenario c;
		struct run_config rc2 = *rc;
		char *d = NULL, set[64];
		enum run_status bs;

		scenario_copy(&c, s);
		sb_reset(&why);
		snprintf(set, sizeof(set), "sd_hosts=%lld", counts[i] / g);
		if (scenario_set(&c, "sweep=", "--boots", &why) < 0 ||
		    scenario_set(&c, "sweep_floor_mb=0", "--boots", &why) < 0 ||
		    scenario_set(&c, set, "--boots", &why) < 0 ||
		    (snprintf(set, sizeof(set), "disks=%lld", counts[i]),
		     scenario_set(&c, set, "--boots", &why) < 0) ||
		    scenario_check(&c, &why) < 0) {
			error("--boots: %lld disks: %s", counts[i], why.buf);
			scenario_release(&c);
			all = worse(all, RUN_ERROR);
			*err = err_worse(*err, ERR_FAIL);
			break;
		}
		note("sweep --boots: boot %zu of %zu, %lld disks", i + 1, n, counts[i]);
		rc2.out = bdir;
		rc2.no_latest = 1;
		bs = run_execute(&c, &rc2, &d, &e);
		scenario_release(&c);
		all = worse(all, bs);
		*err = err_worse(*err, e);
		json_object *r = json_object_new_object();
		json_object_object_add(r, "disks", json_object_new_int64(counts[i]));
		json_object_object_add(r, "dir", d ? json_object_new_string(d) : NULL);
		json_object_object_add(r, "status", json_object_new_string(run_status_name(bs)));
		sb_reset(&why);
		if (d && result_load(d, &roots[i], &why) == 0)
			t_boots += jdouble(roots[i], "timings.total_s", 0);
		json_object_object_add(r, "total_s", roots[i] ? json_seconds(jdouble(roots[i], "timings.total_s", 0)) : NULL);
		json_object_array_add(runs, r);
		free(d);
		if (bs == RUN_INTERRUPTED)
			break;
	}
	out = json_object_new_object();
	fit = json_object_new_object();
	sfit = json_object_new_object();
	diff = json_object_new_object();
	sb_addf(&sum, "sweep against one boot per point (%zu boots):\n", n);
	for (size_t k = 0; k < ARRAY_SIZE(figures); k++) {
		double b, sw;
		char key[64];
		json_object *f = fit_of(roots, counts, n, k, &b);

		snprintf(key, sizeof(key), "sweep.fit.%s.bytes_per_disk", figures[k].name);
		json_object *sv = jget(sweep_root, key);
		json_object_object_add(fit, figures[k].name, f);
		json_object_object_add(sfit, figures[k].name, sv ? json_object_get(sv) : NULL);
		if (!f || !sv) {
			json_object_object_add(diff, figures[k].name, NULL);
			continue;
		}
		sw = json_object_get_double(sv);
		json_object_object_add(diff, figures[k].name, sw != 0 ? json_seconds(100 * (b - sw) / fabs(sw)) : NULL);
		sb_addf(&sum, "  %-12s sweep %9.0f B/disk, boots %9.0f B/disk (%+.2f%%)\n",
			figures[k].name, sw, b, sw != 0 ? 100 * (b - sw) / fabs(sw) : 0.0);
	}
	wall = json_object_new_object();
	json_object_object_add(wall, "sweep", json_seconds(t_sweep));
	json_object_object_add(wall, "boots", json_seconds(t_boots));
	json_object_object_add(out, "runs", runs);
	json_object_object_add(out, "fit", fit);
	json_object_object_add(out, "sweep_bytes_per_disk", sfit);
	json_object_object_add(out, "difference_pct", diff);
	json_object_object_add(out, "wall_s", wall);
	json_object_object_add(out, "speedup", t_sweep > 0 ? json_seconds(t_boots / t_sweep) : NULL);
	sb_addf(&sum, "  wall time: sweep %.0f s, boots %.0f s: the sweep is %.1f times faster\n",
		t_sweep, t_boots, t_sweep > 0 ? t_boots / t_sweep : 0.0);
	path = xstrfmt("%s/boots.json", *dir);
	if (json_save(out, path) < 0) {
		all = worse(all, RUN_ERROR);
		*err = err_worse(*err, ERR_FAIL);
	}
	if (!rc->quiet)
		fputs(sum.buf, stdout);
	free(path);
	json_object_put(out);
	json_object_put(sweep_root);
	for (size_t i = 0; i < n; i++)
		json_object_put(roots[i]);
	free(roots);
	free(bdir);
	sb_release(&why);
	sb_release(&sum);
	return all;
}
