#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/baseline.h"
#include "cli/commands.h"
#include "compare/compare.h"
#include "report/junit.h"
#include "lib/child.h"
#include "report/report.h"
#include "result/result.h"
#include "run/run.h"
#include "scenario/scenario.h"
#include "lib/strvec.h"
#include "lib/textscan.h"
#include "lib/util.h"

const char usage_nightly[] =
	"usage: scaletest nightly MATRIX [--out DIR] [--baselines DIR] [--threshold PCT]\n"
	"                         [--alpha P] [--gate KINDS] [--require-baselines]\n"
	"\n"
	"Run every scenario of MATRIX (lines of 'SCENARIO [KEY=VALUE]...', paths\n"
	"relative to the matrix file, '#' comments), compare each passed run with\n"
	"the baseline that matches it (see 'scaletest baseline'), and write one\n"
	"summary in DIR/nightly-<stamp>/: summary.md, summary.xml (JUnit: every\n"
	"run's checks and every comparison's gating metrics) and summary.json.\n"
	"Every line is checked before anything runs.\n"
	"\n"
	"  --out DIR            results directory (default results)\n"
	"  --baselines DIR      default results/baselines\n"
	"  --require-baselines  a run without a baseline fails the night\n"
	"  --threshold, --alpha, --gate   as for 'scaletest compare'\n"
	"\n"
	"exit status: 0 every run passed and nothing regressed; 1 a run failed\n"
	"(crash, timeout, OOM, missing disks...) or a figure regressed; 2 a bad\n"
	"matrix; 3 a missing tool or package; 130 interrupted.\n";

struct entry {
	char *scenario;
	struct strvec sets;
	unsigned line;
};

static int parse_matrix(const char *path, struct entry **out, size_t *n)
{
	struct strbuf buf = STRBUF_INIT, line = STRBUF_INIT;
	struct line_iter it;
	char *dir = absolute_path(path);
	size_t alloc = 0;
	int r = 0;

	*strrchr(dir, '/') = '\0';
	*out = NULL;
	*n = 0;
	if (sb_read_file(&buf, path) < 0) {
		free(dir);
		return error_errno("cannot read '%s'", path);
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
		ALLOC_GROW(*out, *n + 1, alloc);
		struct entry *e = &(*out)[(*n)++];
		e->scenario = f[0][0] == '/' ? xstrdup(f[0]) : xstrfmt("%s/%s", dir, f[0]);
		e->line = it.lineno;
		strvec_init(&e->sets);
		for (int i = 1; i < nf; i++)
			strvec_push(&e->sets, f[i]);
	}
	if (!r && !*n)
		r = error("%s: no scenarios in the matrix", path);
	sb_release(&buf);
	sb_release(&line);
	free(dir);
	return r;
}

static void row(struct strbuf *md, json_object *rows, const char *scenario,
		json_object *root, const char *dir, const char *baseline,
		json_object *cmp, const char *note_text)
{
	json_object *o = json_object_new_object();
	const char *status = root ? jstr(root, "status", "?") : "error";
	const char *verdict = cmp ? jstr(cmp, "verdict", "?") : note_text;

	sb_adds(md, "| ");
	md_escape(md, scenario);
	sb_adds(md, " | ");
	md_escape(md, status);
	if (root && jstr(root, "reason", NULL)) {
		sb_adds(md, ": ");
		md_escape(md, jstr(root, "reason", ""));
	}
	sb_adds(md, " | ");
	if (root && jget(root, "deltas.insmod.per_disk_bytes.LowFree")) {
		sb_adds(md, "LowFree ");
		fmt_thousands(md, jint(root, "deltas.insmod.per_disk_bytes.LowFree", 0));
		sb_adds(md, " B");
	} else if (root && jget(root, "deltas.insmod.per_disk_bytes.MemFree")) {
		sb_adds(md, "MemFree ");
		fmt_thousands(md, jint(root, "deltas.insmod.per_disk_bytes.MemFree", 0));
		sb_adds(md, " B");
	}
	sb_adds(md, " | ");
	md_escape(md, verdict);
	sb_adds(md, " | ");
	md_escape(md, dir ? dir : "");
	sb_adds(md, " |\n");

	json_object_object_add(o, "scenario", json_object_new_string(scenario));
	json_object_object_add(o, "status", json_object_new_string(status));
	json_object_object_add(o, "run", dir ? json_object_new_string(dir) : NULL);
	json_object_object_add(o, "baseline", baseline ? json_object_new_string(baseline) : NULL);
	json_object_object_add(o, "verdict", json_object_new_string(verdict));
	json_object_array_add(rows, o);
}

int cmd_nightly(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "baselines", required_argument, NULL, 'd' },
		{ "threshold", required_argument, NULL, 't' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "gate", required_argument, NULL, 'g' },
		{ "require-baselines", no_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	struct compare_opts co = COMPARE_OPTS_INIT;
	const char *out = "results", *baselines = "results/baselines";
	int c, require = 0, failed = 0, regressed = 0, missing = 0, interrupted = 0;
	struct entry *m = NULL;
	size_t n = 0;
	struct scenario *sc;
	struct strbuf md = STRBUF_INIT, xml = STRBUF_INIT;
	json_object *rows = json_object_new_array();
	char stamp[32];
	char *night;
	double t0 = now_monotonic();

	if (want_help(argc, argv, usage_nightly))
		return finish_stdout(EXIT_OK);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'd':
			baselines = optarg;
			break;
		case 't':
			if (parse_double(optarg, &co.threshold_pct) < 0 || co.threshold_pct < 0)
				return error("--threshold: '%s' is not a percentage", optarg), EXIT_USAGE;
			break;
		case 'a':
			if (parse_double(optarg, &co.alpha) < 0 || co.alpha <= 0 || co.alpha >= 1)
				return error("--alpha: '%s' is not a probability", optarg), EXIT_USAGE;
			break;
		case 'g':
			if ((co.gates = compare_parse_gates(optarg)) <= 0)
				return error("--gate: '%s' is not a list of memory, time, io", optarg), EXIT_USAGE;
			break;
		case 'R':
			require = 1;
			break;
		default:
			fputs(usage_nightly, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		error("nightly takes one matrix file");
		fputs(usage_nightly, stderr);
		return EXIT_USAGE;
	}
	if (parse_matrix(argv[optind], &m, &n) < 0)
		return EXIT_USAGE;
	/* Every line is checked before anything runs. */
	sc = xcalloc(n, sizeof(*sc));
	for (size_t i = 0; i < n; i++)
		if (scenario_open(&sc[i], m[i].scenario, &m[i].sets) < 0) {
			error("%s:%u: this matrix line is not runnable", argv[optind], m[i].line);
			for (size_t j = 0; j <= i; j++)
				scenario_release(&sc[j]);
			free(sc);
			return EXIT_USAGE;
		}

	timestamp_id(stamp, sizeof(stamp));
	night = xstrfmt("%s/nightly-%s", out, stamp);
	if (mkdir_p(night, 0755) < 0)
		return EXIT_ENV;
	sb_addf(&md, "# scaletest nightly %s\n\n| scenario | status | per disk | vs baseline | run |\n|---|---|---:|---|---|\n", stamp);
	junit_open(&xml);

	for (size_t i = 0; i < n && !interrupted; i++) {
		struct run_config rc = { night, 1, NULL };
		char *dir = NULL, *bpath = NULL;
		json_object *root = NULL, *cmp = NULL;
		struct strbuf err = STRBUF_INIT;
		enum run_status st;
		const char *note_text = "";

		note("nightly %zu/%zu: %s", i + 1, n, sc[i].name);
		st = run_execute(&sc[i], &rc, &dir);
		if (st == RUN_INTERRUPTED)
			interrupted = 1;
		if (dir && result_load(dir, &root, &err) == 0)
			junit_suite_run(root, &xml);
		sb_reset(&err);
		if (st != RUN_PASS) {
			failed++;
			note_text = "not compared: the run did not pass";
		} else if (root) {
			int f = baseline_find(baselines, root, &bpath, &err);
			if (f == 1) {
				struct side a, b;
				memset(&a, 0, sizeof(a));
				memset(&b, 0, sizeof(b));
				if (side_load(&a, bpath, &err) == 0 && side_load(&b, dir, &err) == 0 &&
				    compare_sides(&a, &b, &co, &cmp, &err) == 0) {
					junit_suite_compare(cmp, sc[i].name, &xml);
					if (!strcmp(jstr(cmp, "verdict", ""), "regression"))
						regressed++;
					char *cj = xstrfmt("%s/compare.json", dir);
					result_save(cmp, cj);
					free(cj);
				} else {
					note_text = "baseline could not be compared";
					warning("%s: %s", sc[i].name, err.buf);
					regressed++;
				}
				side_release(&a);
				side_release(&b);
			} else {
				note_text = f == 0 ? "no baseline" : "baseline for another environment";
				warning("%s: %s", sc[i].name, err.buf);
				missing++;
			}
		}
		row(&md, rows, sc[i].name, root, dir, bpath, cmp, note_text);
		json_object_put(root);
		json_object_put(cmp);
		sb_release(&err);
		free(dir);
		free(bpath);
	}
	junit_close(&xml);
	sb_addf(&md, "\n%zu scenarios, %d failed, %d regressed, %d without a baseline; %.0f s.\n",
		n, failed, regressed, missing, now_monotonic() - t0);

	json_object *sum = json_object_new_object();
	json_object_object_add(sum, "runs", rows);
	json_object_object_add(sum, "failed", json_object_new_int(failed));
	json_object_object_add(sum, "regressed", json_object_new_int(regressed));
	json_object_object_add(sum, "without_baseline", json_object_new_int(missing));
	json_object_object_add(sum, "seconds", json_seconds(now_monotonic() - t0));
	char *p = xstrfmt("%s/summary.json", night);
	result_save(sum, p);
	free(p);
	json_object_put(sum);
	p = xstrfmt("%s/summary.md", night);
	write_file_atomic(p, md.buf, md.len);
	free(p);
	p = xstrfmt("%s/summary.xml", night);
	write_file_atomic(p, xml.buf, xml.len);
	free(p);
	fputs(md.buf, stdout);
	printf("\nsummary: %s/summary.md, summary.xml\n", night);

	for (size_t i = 0; i < n; i++) {
		scenario_release(&sc[i]);
		free(m[i].scenario);
		strvec_clear(&m[i].sets);
	}
	free(sc);
	free(m);
	free(night);
	sb_release(&md);
	sb_release(&xml);
	if (interrupted)
		return finish_stdout(EXIT_INTERRUPTED);
	if (failed && error_was_env)
		return finish_stdout(EXIT_ENV);
	return finish_stdout(failed || regressed || (require && missing) ? EXIT_RUNFAIL : EXIT_OK);
}
