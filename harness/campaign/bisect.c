// SPDX-License-Identifier: Apache-2.0
#include "campaign/bisect.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "kernel/kbuild.h"
#include "lib/child.h"
#include "lib/git.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "report/report.h"
#include "result/result.h"
#include "run/run.h"

struct bisect {
	const struct scenario *s;
	const struct bisect_opts *o;
	struct criterion crit;	/* o->crit, with the base filled in */
	char *repo;		/* the user's tree, absolute */
	char *dir;		/* the bisect directory */
	char *gitdir;		/* its bare clone, where git bisect runs */
	char *gitlog;		/* what git said */
	json_object *doc;	/* bisect.json */
	json_object *steps;
	int err;		/* what stopped it: its class (lib/util.h) */
};

/* A commit's test ends in a judgement, or stops the bisect. */
enum tested { TESTED, TEST_ERROR, TEST_INTERRUPTED };

static void save(struct bisect *b)
{
	char *path = xstrfmt("%s/bisect.json", b->dir);

	if (json_save(b->doc, path) < 0)
		warning("cannot write '%s'", path);
	free(path);
}

static void set_outcome(struct bisect *b, const char *outcome, const char *why)
{
	json_object_object_add(b->doc, "outcome", json_object_new_string(outcome));
	json_object_object_add(b->doc, "why", why ? json_object_new_string(why) : NULL);
	save(b);
}

static int bgit(struct bisect *b, const char *const *args, struct strbuf *out)
{
	return git_logged(b->gitdir, args, out, b->gitlog, 600);
}

/* The metric of one run directory: 0, 1 when the result has no such
 * figure, -1 when it cannot be read (said). */
static int run_value(const struct bisect *b, const char *rundir, double *v)
{
	struct strbuf err = STRBUF_INIT;
	json_object *root = NULL, *j;
	int r;

	if (result_load(rundir, &root, &err) < 0) {
		r = error("%s", err.buf);
		sb_release(&err);
		return r;
	}
	j = jget(root, b->crit.metric->key);
	r = 1;
	if (j && (json_object_is_type(j, json_type_int) || json_object_is_type(j, json_type_double))) {
		*v = json_object_get_double(j);
		r = 0;
	}
	json_object_put(root);
	sb_release(&err);
	return r;
}

static const char *run_reason(const char *rundir, struct strbuf *sb)
{
	json_object *root = NULL;
	struct strbuf err = STRBUF_INIT;

	if (rundir && result_load(rundir, &root, &err) == 0)
		sb_adds(sb, jstr(root, "reason", ""));
	json_object_put(root);
	sb_release(&err);
	return sb->buf;
}

/*
 * Build the commit and run the scenario on it (again near the boundary);
 * *j is the judgement.  The step is appended to bisect.json.
 */
static enum tested test_commit(struct bisect *b, const char *sha, const char *role,
			       enum judgement *j, double **values, size_t *nvalues)
{
	struct scenario c;
	struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	struct kernel_artifact k = KERNEL_ARTIFACT_INIT;
	json_object *step = json_object_new_object(), *runs = json_object_new_array();
	double *v = xcalloc(b->crit.max_runs + 1, sizeof(*v)), t0, build_s, run_s = 0;
	size_t n = 0;
	char *subject = git_subject(b->repo, sha), *set = xstrfmt("kernel_rev=%s", sha);
	char *log = xstrfmt("%s/builds/%.12s.log", b->dir, sha);
	char *runs_dir = xstrfmt("%s/runs", b->dir);
	enum tested t = TESTED;
	int built;

	json_object_object_add(step, "commit", json_object_new_string(sha));
	json_object_object_add(step, "subject", json_object_new_string(subject));
	json_object_object_add(step, "role", json_object_new_string(role));
	json_object_array_add(b->steps, step);
	scenario_copy(&c, b->s);
	if (scenario_set(&c, set, "bisect", &err) < 0 || scenario_check(&c, &err) < 0) {
		error("%s", err.buf);
		t = TEST_ERROR;
		goto out;
	}
	note("bisect: %s %.12s \"%s\": building", role, sha, subject);
	t0 = now_monotonic();
	built = kbuild_obtain(&c, log, &k);
	build_s = now_monotonic() - t0;
	kernel_release(&k);
	json_object_object_add(step, "build_s", json_seconds(build_s));
	json_object_object_add(step, "build_log", json_object_new_string(log + strlen(b->dir) + 1));
	if (child_interrupted()) {
		t = TEST_INTERRUPTED;
		goto out;
	}
	if (built < 0) {
		/* This build's own class: a missing tool stops the bisect, a
		 * commit that does not build is skipped. */
		if (built == ERR_ENV) {
			b->err = ERR_ENV;
			t = TEST_ERROR;
			goto out;
		}
		*j = JUDGE_SKIP;
		sb_addf(&why, "the build failed (%s)", log + strlen(b->dir) + 1);
		goto judged;
	}
	for (;;) {
		struct run_config rc = { .out = runs_dir, .quiet = 1, .no_latest = 1 };
		struct strbuf reason = STRBUF_INIT;
		char *rundir = NULL;
		enum run_status st;
		int got, e;

		note("bisect: %s %.12s: run %zu", role, sha, n + 1);
		t0 = now_monotonic();
		st = run_execute(&c, &rc, &rundir, &e);
		run_s += now_monotonic() - t0;
		if (rundir)
			json_object_array_add(runs, json_object_new_string(rundir + strlen(b->dir) + 1));
		switch (st) {
		case RUN_PASS:
			got = run_value(b, rundir, &v[n]);
			if (got) {
				if (got > 0)
					error("%s is not in %s/result.json (%s): this scenario cannot "
					      "judge it", b->crit.metric->name, rundir, b->crit.metric->help);
				t = TEST_ERROR;
				free(rundir);
				goto out;
			}
			n++;
			if (b->crit.kind == CRIT_BASE && !b->crit.base) {
				*j = JUDGE_GOOD;	/* the base itself */
				sb_addf(&why, "%.0f %s: the base", v[0], b->crit.metric->unit);
			} else {
				sb_reset(&why);
				*j = criterion_judge(&b->crit, v, n, &why);
			}
			break;
		case RUN_OOM:
			*j = b->crit.metric->memory ? JUDGE_BAD : JUDGE_SKIP;
			sb_addf(&why, "the guest ran out of memory%s", b->crit.metric->memory
				? " (a memory figure: worse than any limit)" : "");
			break;
		case RUN_FAIL:
		case RUN_TIMEOUT:
		case RUN_CRASH:
			*j = JUDGE_SKIP;
			sb_addf(&why, "the run ended as %s: %s", run_status_name(st),
				run_reason(rundir, &reason));
			break;
		case RUN_INTERRUPTED:
			t = TEST_INTERRUPTED;
			break;
		case RUN_ERROR:
		default:
			error("bisect: the run of %.12s failed in the harness, not in the kernel; "
			      "stopping%s%s", sha, rundir ? ": see " : "", rundir ? rundir : "");
			b->err = e < 0 ? e : ERR_FAIL;
			t = TEST_ERROR;
			break;
		}
		sb_release(&reason);
		free(rundir);
		if (t != TESTED)
			goto out;
		if (*j != JUDGE_REPEAT || n >= b->crit.max_runs)
			break;
		note("bisect: %.12s: %s: near the boundary, once more", sha, why.buf);
	}
judged:
	if (*j == JUDGE_REPEAT)	/* max_runs reached without a decision */
		*j = JUDGE_SKIP;
	json_object *vals = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(vals, json_object_new_double(v[i]));
	json_object_object_add(step, "values", vals);
	if (n) {
		double sum = 0;
		for (size_t i = 0; i < n; i++)
			sum += v[i];
		json_object_object_add(step, "mean", json_object_new_double(sum / (double)n));
	}
	json_object_object_add(step, "verdict", json_object_new_string(judgement_name(*j)));
	json_object_object_add(step, "why", json_object_new_string(why.buf));
	note("bisect: %.12s is %s: %s", sha, judgement_name(*j), why.buf);
out:
	json_object_object_add(step, "runs", runs);
	json_object_object_add(step, "run_s", json_seconds(run_s));
	if (t != TESTED)
		json_object_object_add(step, "verdict", json_object_new_string(
				       t == TEST_INTERRUPTED ? "interrupted" : "error"));
	save(b);
	if (values) {
		*values = v;
		*nvalues = n;
	} else {
		free(v);
	}
	scenario_release(&c);
	sb_release(&err);
	sb_release(&why);
	free(subject);
	free(set);
	free(log);
	free(runs_dir);
	return t;
}

/* The checks before anything is built: 0, or -1 (said). */
static int preflight(struct bisect *b, char **good, char **bad, long long *count)
{
	const struct bisect_opts *o = b->o;
	struct strbuf out = STRBUF_INIT;
	int r = -1, d;

	if (!git_is_repo(o->source)) {
		error("--source '%s' is not a git repository (bisect needs the history)", o->source);
		return -1;
	}
	b->repo = realpath(o->source, NULL);
	if (!b->repo)
		return error_errno("cannot resolve '%s'", o->source);
	d = git_dirty(b->repo, &out);
	if (d != 0) {
		if (d > 0)
			error("'%s' has uncommitted changes to tracked files; bisect builds commits, "
			      "not the work tree: commit or stash them first\n%s", b->repo, out.buf);
		goto out;
	}
	*good = git_commit(b->repo, o->good);
	*bad = git_commit(b->repo, o->bad);
	if (!*good || !*bad) {
		error("--%s '%s' is not a commit of '%s'", *good ? "bad" : "good",
		      *good ? o->bad : o->good, b->repo);
		goto out;
	}
	if (!strcmp(*good, *bad)) {
		error("--good and --bad are the same commit (%.12s)", *good);
		goto out;
	}
	d = git_is_ancestor(b->repo, *good, *bad);
	if (d <= 0) {
		if (!d)
			error("--good %s (%.12s) is not an ancestor of --bad %s (%.12s): bisect "
			      "looks for the first bad commit after a good one", o->good, *good,
			      o->bad, *bad);
		goto out;
	}
	sb_reset(&out);
	{
		char *range = xstrfmt("%s..%s", *good, *bad);
		const char *args[] = { "rev-list", "--count", range, NULL };
		if (git_capture(b->repo, args, &out) == 0)
			*count = atoll(out.buf);
		free(range);
	}
	r = 0;
out:
	sb_release(&out);
	return r;
}

static int load_baseline(struct bisect *b, const char *path)
{
	struct side side;
	struct strbuf err = STRBUF_INIT;
	int r = 0;

	if (side_load(&side, path, &err) < 0) {
		error("--baseline: %s", err.buf);
		sb_release(&err);
		return -1;
	}
	b->crit.base = xcalloc(side.n + 1, sizeof(double));
	for (size_t i = 0; i < side.n; i++) {
		json_object *j = jget(side.roots[i], b->crit.metric->key);
		if (!j || !(json_object_is_type(j, json_type_int) ||
			    json_object_is_type(j, json_type_double))) {
			r = error("--baseline '%s': %s has no %s (%s)", path, side.runs.v[i],
				  b->crit.metric->name, b->crit.metric->help);
			break;
		}
		b->crit.base[b->crit.nbase++] = json_object_get_double(j);
	}
	side_release(&side);
	sb_release(&err);
	return r;
}

static int is_hash(const char *p, size_t n)
{
	if (n != 40 && n != 64)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')))
			return 0;
	return 1;
}

int bisect_parse_mark(const char *buf, size_t len, struct strbuf *first, json_object *cands)
{
	static const char found[] = " is the first bad commit";
	static const char only[] = "There are only 'skip'ped commits left to test.";
	static const char any[] = "The first bad commit could be any of:";
	const char *p = buf, *end = buf + len;
	int r = BISECT_MARK_MORE, listing = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		/* Whole lines only: a commit's subject ("Bisecting: ... [HASH]
		 * SUBJECT") can hold any words, never a line of its own. */
		if (r == BISECT_MARK_MORE && l == 40 + sizeof(found) - 1 && is_hash(p, 40) &&
		    !memcmp(p + 40, found, sizeof(found) - 1)) {
			sb_add(first, p, 40);
			return BISECT_MARK_FOUND;
		}
		if (l == sizeof(only) - 1 && !memcmp(p, only, l)) {
			r = BISECT_MARK_SKIPPED;
		} else if (r == BISECT_MARK_SKIPPED && l == sizeof(any) - 1 && !memcmp(p, any, l)) {
			listing = 1;
		} else if (listing && is_hash(p, l)) {
			json_object_array_add(cands, json_object_new_string_len(p, (int)l));
		} else {
			listing = 0;
		}
		p += l + 1;
	}
	return r;
}

static void crit_json(const struct bisect *b, json_object *doc)
{
	json_object *c = json_object_new_object();
	struct strbuf sb = STRBUF_INIT;

	criterion_describe(&b->crit, &sb);
	json_object_object_add(c, "metric", json_object_new_string(b->crit.metric->name));
	json_object_object_add(c, "key", json_object_new_string(b->crit.metric->key));
	json_object_object_add(c, "unit", json_object_new_string(b->crit.metric->unit));
	json_object_object_add(c, "kind", json_object_new_string(
			       b->crit.kind == CRIT_MAX ? "max" : b->crit.kind == CRIT_MIN ? "min" : "base"));
	if (b->crit.kind != CRIT_BASE)
		json_object_object_add(c, "limit", json_object_new_double(b->crit.limit));
	json_object_object_add(c, "threshold_pct", json_object_new_double(b->crit.threshold_pct));
	json_object_object_add(c, "alpha", json_object_new_double(b->crit.alpha));
	json_object_object_add(c, "max_runs", json_object_new_int64((long long)b->crit.max_runs));
	json_object_object_add(c, "text", json_object_new_string(sb.buf));
	json_object_object_add(doc, "criterion", c);
	sb_release(&sb);
}

static void base_json(struct bisect *b, const char *from)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < b->crit.nbase; i++)
		json_object_array_add(a, json_object_new_double(b->crit.base[i]));
	json_object_object_add(json_object_object_get(b->doc, "criterion"), "base", a);
	json_object_object_add(json_object_object_get(b->doc, "criterion"), "base_from",
			       json_object_new_string(from));
}

enum bisect_outcome bisect_execute(const struct scenario *s, const struct bisect_opts *o,
				   char **dirp, int *err)
{
	struct bisect b = { .s = s, .o = o, .crit = o->crit, .err = ERR_FAIL };
	char *good = NULL, *bad = NULL, id[32], sha[72];
	long long count = 0, asked = 0;
	enum bisect_outcome r = BISECT_ERROR;
	enum judgement j;
	enum tested t;
	double *vals = NULL;
	size_t nvals = 0;
	struct strbuf out = STRBUF_INIT, first = STRBUF_INIT;
	json_object *cands = json_object_new_array();
	int from_baseline = o->crit.kind == CRIT_BASE && o->baseline;

	*dirp = NULL;
	b.crit.base = NULL;
	b.crit.nbase = 0;
	if (preflight(&b, &good, &bad, &count) < 0) {
		r = BISECT_BAD_INPUT;
		goto out;
	}
	if (from_baseline && load_baseline(&b, o->baseline) < 0) {
		r = BISECT_BAD_INPUT;
		goto out;
	}
	timestamp_id(id, sizeof(id));
	b.dir = xstrfmt("%s/bisect-%s-%.8s", o->out, id, bad);
	b.gitdir = xstrfmt("%s/git", b.dir);
	b.gitlog = xstrfmt("%s/git.log", b.dir);
	{
		char *builds = xstrfmt("%s/builds", b.dir);
		int m = mkdir_p(builds, 0755);
		free(builds);
		if (m < 0) {
			b.err = ERR_ENV;	/* the results directory (said) */
			goto out;
		}
	}
	*dirp = xstrdup(b.dir);
	b.doc = json_object_new_object();
	b.steps = json_object_new_array();
	json_object_object_add(b.doc, "schema", json_object_new_int(1));
	json_object_object_add(b.doc, "source", json_object_new_string(b.repo));
	json_object_object_add(b.doc, "good", json_object_new_string(good));
	json_object_object_add(b.doc, "bad", json_object_new_string(bad));
	json_object_object_add(b.doc, "good_rev", json_object_new_string(o->good));
	json_object_object_add(b.doc, "bad_rev", json_object_new_string(o->bad));
	json_object_object_add(b.doc, "commits", json_object_new_int64(count));
	/* git bisect's own bound on the steps between the ends */
	json_object_object_add(b.doc, "bound", json_object_new_int64(
			       count > 1 ? (long long)ceil(log2((double)count)) : 0));
	json_object_object_add(b.doc, "scenario", json_object_new_string(s->name));
	crit_json(&b, b.doc);
	if (from_baseline)
		base_json(&b, o->baseline);
	json_object_object_add(b.doc, "steps", b.steps);
	set_outcome(&b, "running", NULL);
	note("bisect: %lld commits in %.12s..%.12s; %s", count, good, bad, b.dir);

	{
		const char *clone[] = { "git", "clone", "-q", "--bare", "--shared", b.repo, b.gitdir, NULL };
		if ((b.err = child_step(clone, NULL, NULL, b.gitlog, 600, NULL, "git clone")) < 0)
			goto out;
		b.err = ERR_FAIL;
	}

	/* Both ends first: a bisect between two good (or two bad) commits
	 * would name a culprit all the same. */
	t = test_commit(&b, good, "good end", &j, &vals, &nvals);
	if (t != TESTED)
		goto stopped;
	if (b.crit.kind == CRIT_BASE && !b.crit.base) {
		if (!nvals) {
			set_outcome(&b, "good_untestable", "the good end gave no figure to compare with");
			error("bisect: the good end %.12s cannot be measured: see %s", good, b.dir);
			r = BISECT_UNDECIDED;
			goto out;
		}
		b.crit.base = vals;
		b.crit.nbase = nvals;
		vals = NULL;
		base_json(&b, "good end");
	} else if (j != JUDGE_GOOD) {
		struct strbuf w = STRBUF_INIT;
		sb_addf(&w, "--good %s is %s: %s", o->good, judgement_name(j),
			jstr(json_object_array_get_idx(b.steps, 0), "why", ""));
		set_outcome(&b, j == JUDGE_BAD ? "good_is_bad" : "good_untestable", w.buf);
		error("bisect: %s; nothing to bisect (see %s)", w.buf, b.dir);
		sb_release(&w);
		r = BISECT_UNDECIDED;
		goto out;
	}
	free(vals);
	vals = NULL;
	t = test_commit(&b, bad, "bad end", &j, NULL, NULL);
	if (t != TESTED)
		goto stopped;
	if (j != JUDGE_BAD) {
		struct strbuf w = STRBUF_INIT;
		sb_addf(&w, "--bad %s is %s: %s", o->bad, judgement_name(j),
			jstr(json_object_array_get_idx(b.steps, json_object_array_length(b.steps) - 1),
			     "why", ""));
		set_outcome(&b, j == JUDGE_GOOD ? "bad_is_good" : "bad_untestable", w.buf);
		error("bisect: %s; nothing to bisect (see %s)", w.buf, b.dir);
		sb_release(&w);
		r = BISECT_UNDECIDED;
		goto out;
	}

	{
		const char *start[] = { "bisect", "start", "--no-checkout", bad, good, NULL };
		if (bgit(&b, start, &out) != 0) {
			error("git bisect start failed: %s", out.buf);
			goto out;
		}
	}
	for (;;) {
		const char *head[] = { "rev-parse", "--verify", "BISECT_HEAD", NULL };
		const char *mark[] = { "bisect", NULL, sha, NULL };
		int m;

		sb_reset(&out);
		if (bgit(&b, head, &out) != 0 || out.len < 40) {
			error("git bisect has no next commit: %s", out.buf);
			goto out;
		}
		snprintf(sha, sizeof(sha), "%.*s", (int)strcspn(out.buf, "\n"), out.buf);
		if (++asked > count + 2) {
			error("bisect: more steps than commits in the range; stopping");
			goto out;
		}
		t = test_commit(&b, sha, "step", &j, NULL, NULL);
		if (t != TESTED)
			goto stopped;
		mark[1] = judgement_name(j);
		sb_reset(&out);
		if (bgit(&b, mark, &out) < 0)
			goto out;
		m = bisect_parse_mark(out.buf, out.len, &first, cands);
		if (m == BISECT_MARK_FOUND) {
			char *subj = git_subject(b.repo, first.buf);
			json_object *fb = json_object_new_object();
			json_object_object_add(fb, "commit", json_object_new_string(first.buf));
			json_object_object_add(fb, "subject", json_object_new_string(subj));
			json_object_object_add(b.doc, "first_bad", fb);
			free(subj);
			r = BISECT_FOUND;
			set_outcome(&b, "found", NULL);
			break;
		}
		if (m == BISECT_MARK_SKIPPED) {
			json_object_object_add(b.doc, "candidates", json_object_get(cands));
			set_outcome(&b, "undecided", "only skipped commits are left: the first bad "
				    "commit is one of the candidates");
			error("bisect: only skipped commits are left; the first bad commit is one of "
			      "%zu candidates (see %s)", json_object_array_length(cands), b.dir);
			r = BISECT_UNDECIDED;
			break;
		}
		const char *rough = strstr(out.buf, "(roughly ");
		if (rough)
			note("bisect: %.*s", (int)strcspn(out.buf, "\n"), out.buf);
	}
	goto out;
stopped:
	if (t == TEST_INTERRUPTED) {
		r = BISECT_INTERRUPTED;
		set_outcome(&b, "interrupted", NULL);
	} else {
		set_outcome(&b, "error", "the harness or the environment failed (see the last step)");
	}
out:
	if (b.doc) {
		const char *log[] = { "bisect", "log", NULL };
		char *path = xstrfmt("%s/bisect.log", b.dir);
		json_object_object_add(b.doc, "steps_between",
				       json_object_new_int64((long long)asked));
		sb_reset(&out);
		if (asked && bgit(&b, log, &out) == 0 && write_file(path, out.buf, out.len) < 0)
			warning("cannot write '%s'", path);
		free(path);
		if (!json_object_object_get_ex(b.doc, "outcome", NULL) ||
		    !strcmp(jstr(b.doc, "outcome", ""), "running"))
			set_outcome(&b, "error", "the harness or the environment failed");
		save(&b);
		remove_tree(b.gitdir);
		if (report_write_bisect(b.doc, b.dir, o->quiet ? NULL : stdout) < 0 &&
		    r == BISECT_FOUND) {
			r = BISECT_ERROR;
			b.err = ERR_FAIL;
		}
		json_object_put(b.doc);
	}
	*err = r == BISECT_ERROR ? b.err : 0;
	json_object_put(cands);
	free(b.crit.base);
	free(vals);
	free(good);
	free(bad);
	free(b.repo);
	free(b.dir);
	free(b.gitdir);
	free(b.gitlog);
	sb_release(&out);
	sb_release(&first);
	return r;
}
