// SPDX-License-Identifier: Apache-2.0
#include "campaign/nightly.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compare/baseline.h"
#include "report/report.h"
#include "result/result.h"
#include "run/fanout.h"
#include "run/run.h"
#include "lib/textscan.h"
#include "lib/util.h"

static void matrix_clear(struct nightly_matrix *mx, size_t opened)
{
	for (size_t i = 0; i < mx->n; i++) {
		if (i < opened)
			scenario_release(&mx->scenarios[i]);
		free(mx->entries[i].scenario);
		strvec_clear(&mx->entries[i].sets);
	}
	free(mx->scenarios);
	free(mx->entries);
	memset(mx, 0, sizeof(*mx));
}

static int parse_matrix(const char *path, struct nightly_matrix *mx)
{
	struct strbuf buf = STRBUF_INIT, line = STRBUF_INIT;
	struct line_iter it;
	char *dir = absolute_path(path);
	size_t alloc = 0;
	int r = 0;

	if (!dir)
		return error_errno("cannot resolve '%s'", path);
	*strrchr(dir, '/') = '\0';
	if (sb_read_file_max(&buf, path, 1 << 20) < 0) {
		int e = errno;

		free(dir);
		return error("cannot read '%s': %s", path, sb_read_strerror(e));
	}
	line_iter_init(&it, buf.buf, buf.len);
	while (line_next(&it)) {
		char *f[64];
		int nf;

		sb_reset(&line);
		sb_add(&line, it.line, it.len);
		char *hash = strchr(line.buf, '#');
		if (hash)
			*hash = '\0';
		nf = split_fields(line.buf, f, 63);
		if (!nf)
			continue;
		if (nf > 63 || line_has_nul(it.line, it.len)) {
			r = error("%s:%u: too many words", path, it.lineno);
			break;
		}
		ALLOC_GROW(mx->entries, mx->n + 1, alloc);
		struct nightly_entry *e = &mx->entries[mx->n++];
		e->scenario = f[0][0] == '/' ? xstrdup(f[0]) : xstrfmt("%s/%s", dir, f[0]);
		e->line = it.lineno;
		strvec_init(&e->sets);
		for (int i = 1; i < nf; i++)
			strvec_push(&e->sets, f[i]);
	}
	if (!r && !mx->n)
		r = error("%s: no scenarios in the matrix", path);
	sb_release(&buf);
	sb_release(&line);
	free(dir);
	return r;
}

int nightly_matrix_load(struct nightly_matrix *mx, const char *path)
{
	memset(mx, 0, sizeof(*mx));
	if (parse_matrix(path, mx) < 0) {
		matrix_clear(mx, 0);
		return -1;
	}
	/* Every line is checked before anything runs. */
	mx->scenarios = xcalloc(mx->n, sizeof(*mx->scenarios));
	for (size_t i = 0; i < mx->n; i++)
		if (scenario_open(&mx->scenarios[i], mx->entries[i].scenario,
				  &mx->entries[i].sets) < 0) {
			error("%s:%u: this matrix line is not runnable", path, mx->entries[i].line);
			matrix_clear(mx, i + 1);
			return -1;
		}
	return 0;
}

void nightly_matrix_release(struct nightly_matrix *mx)
{
	matrix_clear(mx, mx->n);
}

/* A row of summary.json: what the night says about one scenario. */
static json_object *row(const char *scenario, json_object *root, const char *dir,
			const char *baseline, const char *verdict, int missing)
{
	static const char *const headline[] = { "LowFree", "MemFree" };
	json_object *o = json_object_new_object(), *per = NULL;
	const char *reason = root ? jstr(root, "reason", NULL) : NULL;

	for (size_t i = 0; root && !per && i < ARRAY_SIZE(headline); i++) {
		char path[64];
		snprintf(path, sizeof(path), "deltas.insmod.per_disk_bytes.%s", headline[i]);
		json_object *v = jget(root, path);
		if (!v)
			continue;
		per = json_object_new_object();
		json_object_object_add(per, "field", json_object_new_string(headline[i]));
		json_object_object_add(per, "bytes", json_object_get(v));
	}
	json_object_object_add(o, "scenario", json_object_new_string(scenario));
	json_object_object_add(o, "status", json_object_new_string(root ? jstr(root, "status", "?") : "error"));
	json_object_object_add(o, "reason", reason ? json_object_new_string(reason) : NULL);
	json_object_object_add(o, "per_disk", per);
	json_object_object_add(o, "run", dir ? json_object_new_string(dir) : NULL);
	json_object_object_add(o, "baseline", baseline ? json_object_new_string(baseline) : NULL);
	json_object_object_add(o, "verdict", json_object_new_string(verdict));
	json_object_object_add(o, "without_baseline", json_object_new_boolean(missing));
	/* The runner, as the baselines' key has it: what a missing baseline
	 * would have to match. */
	for (size_t i = 0; i < 2; i++) {
		static const char *const key[] = { "vm.accel", "vm.qemu_version" };
		static const char *const name[] = { "accel", "qemu" };
		struct strbuf v = STRBUF_INIT;

		if (root)
			compare_key_value(root, key[i], &v);
		json_object_object_add(o, name[i], v.len ? json_object_new_string(v.buf) : NULL);
		sb_release(&v);
	}
	return o;
}

/* No baseline matches a run that passed: in first-night mode it becomes
 * the baseline; otherwise it counts as without one.  Returns the verdict. */
static const char *no_baseline(const char *name, int found, const char *why, const char *dir,
			       const struct nightly_opts *o, char **bpath,
			       struct nightly_result *res)
{
	if (o->record) {
		if (mkdir_p(o->baselines, 0755) == 0 && baseline_update(o->baselines, dir, bpath) == 0) {
			note("%s: recorded the baseline %s", name, *bpath);
			res->recorded++;
			return "baseline recorded";
		}
		res->without_baseline++;
		return "baseline could not be recorded";
	}
	warning("%s: %s", name, why);
	res->without_baseline++;
	return found == 0 ? "no baseline" : "baseline for another environment";
}

/* Compares a run that passed with its baseline (or records one); returns
 * the verdict's words for the summary, and counts into res. */
static const char *against_baseline(const char *name, json_object *root, const char *dir,
				    const struct nightly_opts *o, char **bpath,
				    struct nightly_result *res, json_object **cmp)
{
	struct strbuf err = STRBUF_INIT;
	const char *verdict;
	int f = baseline_find(o->baselines, root, bpath, &err);

	if (f != 1) {
		verdict = no_baseline(name, f, err.buf, dir, o, bpath, res);
		sb_release(&err);
		return verdict;
	}
	struct side a, b;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	if (side_load(&a, *bpath, &err) == 0 && side_load(&b, dir, &err) == 0 &&
	    compare_sides(&a, &b, &o->compare, cmp, &err) == 0) {
		char *cj = xstrfmt("%s/compare.json", dir);
		json_save(*cmp, cj);
		free(cj);
		verdict = jstr(*cmp, "verdict", "?");
		if (!strcmp(verdict, "regression"))
			res->regressed++;
	} else {
		verdict = "baseline could not be compared";
		warning("%s: %s", name, err.buf);
		res->regressed++;
	}
	side_release(&a);
	side_release(&b);
	sb_release(&err);
	return verdict;
}

json_object *nightly_judge(const char *name, int passed, const char *dir,
			   const struct nightly_opts *o, struct nightly_result *res)
{
	struct strbuf err = STRBUF_INIT;
	json_object *root = NULL, *cmp = NULL, *r;
	const char *verdict = "not compared: the run did not pass";
	char *bpath = NULL;
	int before = res->without_baseline;

	if (dir && result_load(dir, &root, &err) < 0)
		root = NULL;
	if (!passed)
		res->failed++;
	else if (root)
		verdict = against_baseline(name, root, dir, o, &bpath, res, &cmp);
	else
		verdict = "";
	r = row(name, root, dir, bpath, verdict, res->without_baseline > before);
	json_object_put(root);
	json_object_put(cmp);
	sb_release(&err);
	free(bpath);
	return r;
}

int nightly_run(const struct nightly_matrix *mx, const struct nightly_opts *o,
		struct nightly_result *res)
{
	json_object *rows = json_object_new_array(), *sum;
	json_object *placements = NULL;
	struct fanout_job *jobs = NULL;
	double t0 = now_monotonic();
	char stamp[32], *p;
	int r = 0;

	memset(res, 0, sizeof(*res));
	timestamp_id(stamp, sizeof(stamp));
	res->dir = xstrfmt("%s/nightly-%s", o->out, stamp);
	if (mkdir_p(res->dir, 0755) < 0) {
		free(res->dir);
		res->dir = NULL;
		json_object_put(rows);
		return -1;
	}
	if (o->fanout && o->fanout->n) {
		/* Every line at once, spread over the connections (run/fanout.h). */
		jobs = xcalloc(mx->n, sizeof(*jobs));
		for (size_t i = 0; i < mx->n; i++) {
			jobs[i].scenario = mx->entries[i].scenario;
			jobs[i].sets = &mx->entries[i].sets;
		}
		placements = json_object_new_array();
		fanout_run(o->fanout, jobs, mx->n, res->dir, placements);
	}
	for (size_t i = 0; i < mx->n && !res->interrupted; i++) {
		const struct scenario *sc = &mx->scenarios[i];
		struct run_config rc = { .out = res->dir, .quiet = 1 };
		char *dir = NULL;
		enum run_status st;
		int e;

		if (jobs) {
			st = jobs[i].status;
			e = jobs[i].err;
			dir = jobs[i].dir;
			jobs[i].dir = NULL;
		} else {
			note("nightly %zu/%zu: %s", i + 1, mx->n, sc->name);
			st = run_execute(sc, &rc, &dir, &e);
		}
		if (st == RUN_INTERRUPTED)
			res->interrupted = 1;
		if (st == RUN_ERROR && e == ERR_ENV)
			res->env_failed++;
		json_object_array_add(rows, nightly_judge(sc->name, st == RUN_PASS, dir, o, res));
		free(dir);
	}

	sum = json_object_new_object();
	json_object_object_add(sum, "stamp", json_object_new_string(stamp));
	json_object_object_add(sum, "scenarios", json_object_new_int64((long long)mx->n));
	json_object_object_add(sum, "runs", rows);
	json_object_object_add(sum, "failed", json_object_new_int(res->failed));
	json_object_object_add(sum, "regressed", json_object_new_int(res->regressed));
	json_object_object_add(sum, "without_baseline", json_object_new_int(res->without_baseline));
	json_object_object_add(sum, "recorded", json_object_new_int(res->recorded));
	json_object_object_add(sum, "seconds", json_seconds(now_monotonic() - t0));
	if (placements)
		json_object_object_add(sum, "placements", placements);
	if (jobs) {
		fanout_jobs_release(jobs, mx->n);
		free(jobs);
	}
	p = xstrfmt("%s/summary.json", res->dir);
	if (json_save(sum, p) < 0 || report_write_nightly(res->dir, res->dir, stdout) < 0)
		r = -1;
	free(p);
	json_object_put(sum);
	return r;
}

void nightly_result_release(struct nightly_result *res)
{
	free(res->dir);
	memset(res, 0, sizeof(*res));
}
