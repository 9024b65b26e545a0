// SPDX-License-Identifier: Apache-2.0
#include "report/kcidb.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/strvec.h"
#include "lib/util.h"
#include "report/outcome.h"
#include "report/runname.h"
#include "result/result.h"

/* A KCIDB log_excerpt is at most 16384 characters. */
#define EXCERPT_MAX 16384
/* Largest slab caches reported per run. */
#define KCIDB_SLAB_MAX 5

/* ---- values the schema constrains ---- */

static int all_digits(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* RFC 3339's date-time (the schema's "format": "date-time"), which is
 * how result.json writes its times; anything else is left out. */
static int is_rfc3339(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	const char *z;

	if (n < 20 || !all_digits(s, 4) || s[4] != '-' || !all_digits(s + 5, 2) || s[7] != '-' ||
	    !all_digits(s + 8, 2) || (s[10] != 'T' && s[10] != 't') || !all_digits(s + 11, 2) ||
	    s[13] != ':' || !all_digits(s + 14, 2) || s[16] != ':' || !all_digits(s + 17, 2))
		return 0;
	if (s[5] > '1' || (s[5] == '1' && s[6] > '2') || (s[5] == '0' && s[6] == '0') ||
	    s[8] > '3' || (s[8] == '0' && s[9] == '0') || s[11] > '2' ||
	    (s[11] == '2' && s[12] > '3') || s[14] > '5' || s[17] > '6' ||
	    (s[17] == '6' && s[18] > '0'))
		return 0;
	/* day 30 or 31 in a short month, 29 February out of a leap year:
	 * left to the month table below */
	{
		static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
		int y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
		int mo = (s[5] - '0') * 10 + (s[6] - '0'), d = (s[8] - '0') * 10 + (s[9] - '0');

		if (d > mdays[mo - 1] || (mo == 2 && d == 29 &&
					  !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))))
			return 0;
	}
	z = s + 19;
	if (*z == '.') {
		if (!all_digits(z + 1, 1))
			return 0;
		for (z++; *z >= '0' && *z <= '9'; z++)
			;
	}
	if ((*z == 'Z' || *z == 'z') && !z[1])
		return 1;
	return (*z == '+' || *z == '-') && strlen(z) == 6 && all_digits(z + 1, 2) && z[3] == ':' &&
	       all_digits(z + 4, 2) && z[1] <= '2' && !(z[1] == '2' && z[2] > '3') && z[4] <= '5';
}

/* One component of a test path ([a-zA-Z0-9_-]+): anything else becomes
 * '_', runs of '_' one, at most 64 bytes; "unnamed" when nothing is left. */
static void path_part(struct strbuf *sb, const char *name)
{
	size_t start = sb->len;

	for (const char *p = name ? name : ""; *p && sb->len - start < 64; p++) {
		int c = (unsigned char)*p;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '-' || c == '_';

		if (ok)
			sb_addch(sb, c);
		else if (sb->len > start && sb->buf[sb->len - 1] != '_')
			sb_addch(sb, '_');
	}
	while (sb->len > start && sb->buf[sb->len - 1] == '_')
		sb_setlen(sb, sb->len - 1);
	if (sb->len == start)
		sb_adds(sb, "unnamed");
}

/* The architecture as the schema has it (^[a-z0-9_]*$), or NULL. */
static const char *architecture(const char *arch)
{
	if (!arch || !*arch)
		return NULL;
	for (const char *p = arch; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return NULL;
	return arch;
}

/* ---- JSON ---- */

static void put_str(json_object *o, const char *key, const char *v)
{
	if (v)
		json_object_object_add(o, key, json_object_new_string(v));
}

static void put_time(json_object *o, const char *key, const char *v)
{
	if (is_rfc3339(v))
		put_str(o, key, v);
}

/* A number: an integer when it is one (below 2^53), else 15 significant
 * digits ("1.5", not json-c's "1.5000000000000000"). */
static json_object *number(double v)
{
	char buf[32];

	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return json_object_new_int64((int64_t)v);
	snprintf(buf, sizeof(buf), "%.15g", v);
	return json_object_new_double_s(v, buf);
}

static void put_num(json_object *o, const char *key, struct num v)
{
	if (v.have)
		json_object_object_add(o, key, number(v.v));
}

/* A list of strings (NULL entries left out). */
static json_object *string_list(const char *const *v, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		if (v[i])
			json_object_array_add(a, json_object_new_string(v[i]));
	return a;
}

/* ---- statuses: outcome.h's table, which junit.c reads too ---- */

static const char *run_status(const struct report_model *m)
{
	return outcome_run(m)->kcidb;
}

static const char *check_status(const struct report_model *m, const struct report_check *c)
{
	return outcome_check(m, c)->kcidb;
}

/* ---- a run ---- */

/* What one run adds: its name in the document (runname.h), where it came
 * from, and the test paths used so far (unique). */
struct run_ctx {
	struct kcidb *k;
	const struct report_model *m;
	char *run;			/* its name in the ids */
	const char *run_id;		/* result.json's run_id, or NULL */
	const char *dir;		/* its directory as given, or NULL */
	char *build_id;
	struct strvec paths;
};

/* A test of the run at path "scaletest[.PARTS]"; returns it for more
 * fields.  A path already used gets "_2", "_3"... on its last part. */
static json_object *test_new(struct run_ctx *r, const char *path, const char *status)
{
	json_object *t = json_object_new_object();
	struct strbuf p = STRBUF_INIT, id = STRBUF_INIT;

	sb_adds(&p, path);
	for (int n = 2; strvec_find(&r->paths, p.buf) >= 0; n++) {
		sb_reset(&p);
		sb_addf(&p, "%s_%d", path, n);
	}
	strvec_push(&r->paths, p.buf);
	sb_addf(&id, "%s:%s:%s", r->k->origin, r->run, p.buf);
	put_str(t, "id", id.buf);
	put_str(t, "origin", r->k->origin);
	put_str(t, "build_id", r->build_id);
	put_str(t, "path", p.buf);
	put_str(t, "status", status);
	put_time(t, "start_time", r->m->started);
	json_object_array_add(r->k->tests, t);
	sb_release(&p);
	sb_release(&id);
	return t;
}

/* A figure: "scaletest.GROUP.NAME[.WHAT]" with its number, status DONE. */
static void figure(struct run_ctx *r, const char *group, const char *name, const char *what,
		   struct num v, double scale, const char *unit, const char *prefix)
{
	struct strbuf path = STRBUF_INIT;
	json_object *t, *n;

	if (!v.have || !isfinite(v.v * scale))
		return;
	sb_addf(&path, "scaletest.%s.", group);
	path_part(&path, name);
	if (what)
		sb_addf(&path, ".%s", what);
	t = test_new(r, path.buf, "DONE");
	n = json_object_new_object();
	json_object_object_add(n, "value", number(v.v * scale));
	put_str(n, "unit", unit);
	put_str(n, "prefix", prefix);
	json_object_object_add(t, "number", n);
	sb_release(&path);
}

static struct num num_of(double v)
{
	struct num n = { v, isfinite(v) };

	return n;
}

/* Which run a checkout, build or the run's test came from: result.json's
 * run_id and the directory it was read from (two runs may claim one
 * run_id; their ids differ, runname.h, and this says whose is whose). */
static void put_origin_run(struct run_ctx *r, json_object *misc)
{
	put_str(misc, "run_id", r->run_id);
	put_str(misc, "run_dir", r->dir);
}

/* An https:// URL that says no more than where the repository is: no
 * user or password in it, nothing the schema refuses. */
static const char *repository_url(const char *url)
{
	const char *host, *end;

	if (!url || strncmp(url, "https://", 8))
		return NULL;
	host = url + 8;
	end = host + strcspn(host, "/?#");
	if (end == host || memchr(host, '@', (size_t)(end - host)))
		return NULL;
	for (const char *p = url; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return NULL;
	return url;
}

/* A build's patchset hash as the schema has it: "" without patches, else
 * 64 hex digits (NULL when result.json has none: an older harness). */
static const char *patchset_hash(const char *h, size_t npatches)
{
	if (!npatches)
		return "";
	if (h && strlen(h) == 64 && strspn(h, "0123456789abcdef") == 64)
		return h;
	return NULL;
}

/* The kernel as a checkout: where its source came from.  A kernel built
 * here has its patchset hash (KCIDB's: sha256 over the patches'
 * sha256sums; "" without patches), so that a stock and a patched build of
 * one commit are two checkouts; a Debian package was patched by nobody
 * here: "". */
static void checkout(struct run_ctx *r)
{
	const struct report_model *m = r->m;
	json_object *c = json_object_new_object(), *misc = json_object_new_object();
	const char *tree = m->build_source_tree, *at = tree ? strrchr(tree, '@') : NULL;
	struct strbuf comment = STRBUF_INIT;

	put_str(c, "id", r->build_id);
	put_str(c, "origin", r->k->origin);
	/* "TREE@COMMIT": a git tree's commit */
	if (at && strlen(at + 1) == 40 && strspn(at + 1, "0123456789abcdef") == 40) {
		put_str(c, "git_commit_hash", at + 1);
		put_str(c, "git_repository_url", repository_url(m->build_git_url));
	}
	if (tree)
		put_str(c, "patchset_hash", patchset_hash(m->build_patchset_hash, m->nbuild_patches));
	else if (m->kernel_package)
		put_str(c, "patchset_hash", "");
	if (m->kernel_package)
		sb_addf(&comment, "Debian's %s %s", m->kernel_package,
			fmt_or(m->kernel_package_version, "(version unknown)"));
	else if (tree)
		sb_addf(&comment, "built from %s", tree);
	if (tree && m->nbuild_patches)
		sb_addf(&comment, " with %zu patch%s", m->nbuild_patches,
			m->nbuild_patches == 1 ? "" : "es");
	if ((tree && !strncmp(tree, "debian:", 7)) || (m->kernel_source && !strcmp(m->kernel_source, "debian")))
		put_str(c, "tree_name", "debian");
	if (comment.len)
		put_str(c, "comment", comment.buf);
	put_time(c, "start_time", m->started);
	put_str(misc, "kernel_source", m->kernel_source);
	put_str(misc, "package", m->kernel_package);
	put_str(misc, "package_version", m->kernel_package_version);
	put_str(misc, "source_tree", tree);
	if (tree)
		json_object_object_add(misc, "patches",
				       string_list(m->build_patches, m->nbuild_patches));
	put_origin_run(r, misc);
	json_object_object_add(c, "misc", misc);
	json_object_array_add(r->k->checkouts, c);
	sb_release(&comment);
}

/* The kernel as a build: the image that booted, its configuration. */
static void build(struct run_ctx *r)
{
	const struct report_model *m = r->m;
	json_object *b = json_object_new_object(), *misc = json_object_new_object();
	struct strbuf config = STRBUF_INIT;

	put_str(b, "id", r->build_id);
	put_str(b, "checkout_id", r->build_id);
	put_str(b, "origin", r->k->origin);
	put_str(b, "architecture", architecture(m->kernel_arch));
	if (m->build_source_tree) {
		sb_adds(&config, fmt_or(m->build_config_base, "?"));
		for (size_t i = 0; i < m->nbuild_fragments; i++)
			if (m->build_fragments[i])
				sb_addf(&config, "+%s", m->build_fragments[i]);
		put_str(b, "config_name", config.buf);
	} else if (m->kernel_package) {
		put_str(b, "config_name", m->kernel_package);
	}
	put_time(b, "start_time", m->started);
	/* The kernel was there and booted far enough to say its version;
	 * without one, whether it built is unknown here (no status). */
	if (m->kernel_version)
		put_str(b, "status", "PASS");
	put_str(misc, "kernel_version", m->kernel_version);
	if (m->build_source_tree)
		json_object_object_add(misc, "fragments",
				       string_list(m->build_fragments, m->nbuild_fragments));
	put_origin_run(r, misc);
	json_object_object_add(b, "misc", misc);
	json_object_array_add(r->k->builds, b);
	sb_release(&config);
}

/* Where the run ran: the VM and the host. */
static json_object *environment(const struct report_model *m)
{
	json_object *e = json_object_new_object(), *misc = json_object_new_object();
	struct strbuf comment = STRBUF_INIT;

	sb_addf(&comment, "QEMU %s (%s), ", fmt_or(m->qemu_version, "?"), fmt_or(m->accel, "?"));
	fmt_whole(&comment, m->memory_mb);
	sb_adds(&comment, " MiB, ");
	fmt_whole(&comment, m->cpus);
	sb_adds(&comment, m->cpus.have && fmt_round(m->cpus.v) == 1 ? " CPU" : " CPUs");
	if (m->hostname)
		sb_addf(&comment, ", on %s", m->hostname);
	put_str(e, "comment", comment.buf);
	put_str(misc, "qemu_version", m->qemu_version);
	put_str(misc, "accel", m->accel);
	put_str(misc, "accel_reason", m->accel_reason);
	put_num(misc, "memory_mb", m->memory_mb);
	put_num(misc, "cpus", m->cpus);
	put_str(misc, "hostname", m->hostname);
	json_object_object_add(e, "misc", misc);
	sb_release(&comment);
	return e;
}

/* The run as a whole: its status, why, and the console around a crash. */
static void summary_test(struct run_ctx *r)
{
	const struct report_model *m = r->m;
	json_object *t = test_new(r, "scaletest", run_status(m)), *misc = json_object_new_object();
	struct strbuf comment = STRBUF_INIT;

	sb_addf(&comment, "%s: %s", fmt_or(m->scenario, "?"), fmt_or(m->status, "?"));
	if (m->reason)
		sb_addf(&comment, ": %s", m->reason);
	put_str(t, "comment", comment.buf);
	put_num(t, "duration", m->total_s);
	json_object_object_add(t, "environment", environment(m));
	if (m->crash_context && *m->crash_context) {
		size_t n = strlen(m->crash_context);

		if (n > EXCERPT_MAX) {	/* bytes bound characters */
			n = EXCERPT_MAX;
			while (n > 0 && ((unsigned char)m->crash_context[n] & 0xc0) == 0x80)
				n--;
		}
		json_object_object_add(t, "log_excerpt",
				       json_object_new_string_len(m->crash_context, (int)n));
	}
	put_str(misc, "scenario", m->scenario);
	put_str(misc, "description", m->description);
	put_str(misc, "status", m->status);
	put_str(misc, "reason", m->reason);
	put_str(misc, "crash_class", m->crash_class);
	put_str(misc, "crash_blame", m->crash_blame);
	put_str(misc, "crash_title", m->crash_title);
	put_num(misc, "crash_console_line", m->crash_line);
	put_str(misc, "tool", m->tool);
	put_str(misc, "finished", m->finished);
	put_origin_run(r, misc);
	json_object_object_add(t, "misc", misc);
	sb_release(&comment);
}

static void check_tests(struct run_ctx *r)
{
	const struct report_model *m = r->m;

	for (size_t i = 0; i < m->nchecks; i++) {
		const struct report_check *c = &m->checks[i];
		struct strbuf path = STRBUF_INIT, comment = STRBUF_INIT;
		const char *st = check_status(m, c);
		json_object *t;

		sb_adds(&path, "scaletest.checks.");
		path_part(&path, c->name);
		t = test_new(r, path.buf, st);
		sb_addf(&comment, "%s: %s", fmt_or(c->name, "?"), fmt_or(c->detail, ""));
		if (!strcmp(st, "MISS") || !strcmp(st, "SKIP"))
			sb_addf(&comment, " (not judged: the run ended early, %s%s%s)",
				fmt_or(m->status, "?"), m->crash_class ? ", " : "",
				m->crash_class ? m->crash_class : "");
		put_str(t, "comment", comment.buf);
		sb_release(&path);
		sb_release(&comment);
	}
}

/* The headline figures, each a test with a number. */
static void figure_tests(struct run_ctx *r)
{
	static const char *const sweep_units[] = { "B", "B", "B", "B", "s" };
	const struct report_model *m = r->m;
	const struct {
		const char *name;
		struct num v;
	} times[] = {
		{ "setup", m->setup_s }, { "boot", m->boot_s }, { "enumerate", m->enumerate_s },
		{ "inventory", m->inventory_s }, { "rmmod", m->rmmod_s }, { "total", m->total_s },
	};

	for (size_t i = 0; i < m->nmem; i++) {
		figure(r, "memory", m->mem[i].field, "per_disk", m->mem[i].per_disk, 1, "B", "binary");
		figure(r, "memory", m->mem[i].field, "change", m->mem[i].change, 1024, "B", "binary");
	}
	figure(r, "memory", "unaccounted", NULL, m->unaccounted_kb, 1024, "B", "binary");
	figure(r, "memory", "returned_after_rmmod", NULL, m->returned_pct, 1, "%", NULL);
	for (size_t i = 0; i < m->nslab && i < KCIDB_SLAB_MAX; i++)
		figure(r, "slab", m->slab[i].cache, "per_disk", m->slab[i].bytes_per_disk, 1, "B",
		       "binary");
	for (size_t i = 0; i < ARRAY_SIZE(times); i++)
		figure(r, "time", times[i].name, NULL, times[i].v, 1, "s", "metric");
	for (size_t i = 0; m->have_sweep && i < ARRAY_SIZE(m->sweep_fit); i++) {
		const struct report_sweep_fit *f = &m->sweep_fit[i];

		if (f->have && f->figure)	/* enumerate's is ms per disk */
			figure(r, "sweep", f->figure, "per_disk", f->per_disk,
			       !strcmp(sweep_units[i], "s") ? 1e-3 : 1, sweep_units[i],
			       !strcmp(sweep_units[i], "s") ? "metric" : "binary");
	}
	for (size_t i = 0; i < m->ngroups; i++) {
		figure(r, "fio", m->groups[i].name, "iops", num_of(m->groups[i].iops), 1, "IOPS",
		       "metric");
		if (m->groups[i].p99 > 0)	/* 0: no job had a latency */
			figure(r, "fio", m->groups[i].name, "p99_latency", num_of(m->groups[i].p99), 1e-6,
			       "s", "metric");
	}
	/* Time per disk (ms in result.json): each curve's fitted slope and the
	 * cost of one more disk at its last (time_curves, a sweep's fits). */
	for (size_t i = 0; i < m->ncurves; i++) {
		const struct report_time_curve *c = &m->curves[i];

		if (!c->have)
			continue;
		if (strcmp(c->what, "sweep: adding hosts"))	/* that one is sweep.enumerate */
			figure(r, "time_curve", c->what, "per_disk", c->per_disk, 1e-3, "s", "metric");
		figure(r, "time_curve", c->what, "marginal_last", c->marginal_last, 1e-3, "s",
		       "metric");
	}
	if (m->attr_status)
		figure(r, "attribution", "unexplained", "per_disk", m->attr_unexplained_per_disk, 1,
		       "B", "binary");
}

/* A run named run (runname.h's, unique in the document; taken over). */
static void run_begin(struct run_ctx *r, struct kcidb *k, char *run, const char *dir,
		      const struct report_model *m)
{
	r->k = k;
	r->m = m;
	r->run = run;
	r->run_id = m ? m->run_id : NULL;
	r->dir = dir;
	r->build_id = xstrfmt("%s:%s", k->origin, r->run);
	strvec_init(&r->paths);
}

static void run_end(struct run_ctx *r)
{
	free(r->run);
	free(r->build_id);
	strvec_clear(&r->paths);
}

static void add_run(struct run_ctx *r)
{
	checkout(r);
	build(r);
	summary_test(r);
	check_tests(r);
	figure_tests(r);
}

void kcidb_add_run(struct kcidb *k, const char *name, const char *dir,
		   const struct report_model *m)
{
	struct run_ctx r;

	run_begin(&r, k, run_name_take(&k->names, name), dir, m);
	add_run(&r);
	run_end(&r);
}

/* ---- a night ---- */

/* A comparison's unit as KCIDB's: the unit without its prefix, the factor
 * to it, and the prefix a dashboard scales it with. */
static const struct {
	const char *unit, *kcidb;
	double scale;
	const char *prefix;
} units[] = {
	{ "B", "B", 1, "binary" }, { "kB", "B", 1024, "binary" },
	{ "s", "s", 1, "metric" }, { "ms", "s", 1e-3, "metric" },
	{ "IOPS", "IOPS", 1, "metric" }, { "%", "%", 1, NULL },
};

/* A figure of a comparison as a number (NULL for a value that is none). */
static json_object *compare_number(double v, const char *unit)
{
	json_object *n = json_object_new_object();
	size_t i;

	for (i = 0; unit && i < ARRAY_SIZE(units) && strcmp(unit, units[i].unit); i++)
		;
	if (unit && i < ARRAY_SIZE(units)) {
		json_object_object_add(n, "value", number(v * units[i].scale));
		put_str(n, "unit", units[i].kcidb);
		put_str(n, "prefix", units[i].prefix);
	} else {
		json_object_object_add(n, "value", number(v));
		if (unit && *unit)
			put_str(n, "unit", unit);
	}
	return n;
}

/* Each gating metric of the run against its baseline (side 1 against 0). */
static void compare_tests(struct run_ctx *r, const struct nightly_row *row)
{
	const struct compare_model *c = &row->compare;

	for (size_t i = 0; c->nsides >= 2 && i < c->nmetrics; i++) {
		const struct compare_metric *x = &c->metrics[i];
		const struct compare_stat *s = &x->sides[1];
		const char *verdict = fmt_or(s->verdict, "n/a");
		struct strbuf path = STRBUF_INIT, comment = STRBUF_INIT;
		json_object *t, *misc;
		const char *p, *dot;

		if (!x->gating)
			continue;
		sb_adds(&path, "scaletest.compare");
		for (p = fmt_or(x->key, fmt_or(x->name, "?")); ; p = dot + 1) {
			char *part;

			dot = strchr(p, '.');
			part = dot ? xstrndup(p, (size_t)(dot - p)) : xstrdup(p);
			sb_addch(&path, '.');
			path_part(&path, part);
			free(part);
			if (!dot)
				break;
		}
		t = test_new(r, path.buf, !strcmp(verdict, "regression") ? "FAIL"
					  : !strcmp(verdict, "n/a") ? "SKIP" : "PASS");
		sb_addf(&comment, "%s: %s against the baseline %s", fmt_or(x->name, "?"), verdict,
			fmt_or(row->baseline, "?"));
		put_str(t, "comment", comment.buf);
		if (s->mean.have && strcmp(verdict, "n/a") && isfinite(s->mean.v))
			json_object_object_add(t, "number", compare_number(s->mean.v, x->unit));
		misc = json_object_new_object();
		put_num(misc, "baseline_mean", x->sides[0].mean);
		put_num(misc, "change_pct", s->change_pct);
		put_num(misc, "p", s->p);
		put_str(misc, "verdict", verdict);
		put_str(misc, "baseline", row->baseline);
		json_object_object_add(t, "misc", misc);
		sb_release(&path);
		sb_release(&comment);
	}
}

/* A row whose run left no result.json: a build and its summary test with
 * what summary.json says (the run's status, which is never pass here). */
static void row_without_run(struct run_ctx *r, const struct nightly_row *row)
{
	struct report_model m;
	json_object *t;

	memset(&m, 0, sizeof(m));
	m.status = row->status;
	m.reason = row->reason;
	m.scenario = row->scenario;
	r->m = &m;
	checkout(r);
	build(r);
	t = test_new(r, "scaletest", run_status(&m));
	put_str(t, "comment", row->reason ? row->reason : "the run left no result.json");
	r->m = NULL;
}

void kcidb_add_nightly(struct kcidb *k, const struct nightly_model *m)
{
	for (size_t i = 0; i < m->nrows; i++) {
		const struct nightly_row *row = &m->rows[i];
		struct run_ctx r;

		/* The run's directory names it in the night; a row without a
		 * run is named by the night and its scenario (runname.h). */
		run_begin(&r, k, run_name_night_row(&k->names, m, i), row->run,
			  row->have_run ? &row->run_model : NULL);
		if (row->have_run)
			add_run(&r);
		else
			row_without_run(&r, row);
		if (row->have_compare && row->have_run)
			compare_tests(&r, row);
		if (row->without_baseline && row->have_run) {
			json_object *t = test_new(&r, "scaletest.baseline", "MISS");

			put_str(t, "comment", "not compared: no baseline for this scenario on this runner "
				"(record them with scaletest nightly --record-baselines)");
		}
		run_end(&r);
	}
}

/* ---- the document ---- */

int kcidb_origin_valid(const char *origin)
{
	size_t n = origin ? strlen(origin) : 0;

	if (!n || n > KCIDB_ORIGIN_MAX)
		return 0;
	for (const char *p = origin; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	return 1;
}

void kcidb_init(struct kcidb *k, const char *origin)
{
	json_object *v = json_object_new_object();

	snprintf(k->origin, sizeof(k->origin), "%s",
		 kcidb_origin_valid(origin) ? origin : KCIDB_ORIGIN);
	k->doc = json_object_new_object();
	json_object_object_add(v, "major", json_object_new_int(KCIDB_MAJOR));
	json_object_object_add(v, "minor", json_object_new_int(KCIDB_MINOR));
	json_object_object_add(k->doc, "version", v);
	k->checkouts = json_object_new_array();
	k->builds = json_object_new_array();
	k->tests = json_object_new_array();
	json_object_object_add(k->doc, "checkouts", k->checkouts);
	json_object_object_add(k->doc, "builds", k->builds);
	json_object_object_add(k->doc, "tests", k->tests);
	run_names_init(&k->names);
}

void kcidb_write(struct kcidb *k, struct strbuf *out)
{
	json_clean_strings(k->doc);
	json_pretty(out, k->doc);
	sb_addch(out, '\n');
	json_object_put(k->doc);
	run_names_release(&k->names);
	memset(k, 0, sizeof(*k));
}
