// SPDX-License-Identifier: Apache-2.0
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json.h>

#include "cli/commands.h"
#include "report/kcidb.h"
#include "report/report.h"
#include "result/replay.h"
#include "result/result.h"
#include "lib/util.h"

const char usage_report[] =
	"usage: scaletest report [--out DIR] RUN_DIR...\n"
	"       scaletest report --format kcidb [--origin NAME] [--out DIR] RUN_DIR...\n"
	"       scaletest report --compare COMPARE.json [--out DIR]\n"
	"       scaletest report --nightly NIGHT_DIR [--format kcidb [--origin NAME]] [--out DIR]\n"
	"       scaletest report --replay RUN_DIR [--guest-output-mb N] [--out DIR]\n"
	"\n"
	"Regenerate RUN_DIR/report.md, report.html and junit.xml from\n"
	"RUN_DIR/result.json alone (nothing is booted) and print the run's summary.\n"
	"--compare: compare.md, compare.html and compare.xml from a comparison's\n"
	"JSON (written by 'scaletest compare --out'), next to it; prints compare.md.\n"
	"--nightly: summary.md and summary.xml of a night from its summary.json and\n"
	"its runs' result.json and compare.json; prints summary.md.\n"
	"--replay: rebuild result.json itself from what the run saved (channel.log,\n"
	"console.log, scenario.scn, host.json) with this scaletest's decoders and\n"
	"checks, write it and the reports into DIR (default RUN_DIR/replay), and\n"
	"say whether it is identical to the run's own result.json.  The run's own\n"
	"files are not changed.  Each stream is read up to this scaletest's own\n"
	"guest_output_mb (1024 MiB; the run's scenario's where lower), never the\n"
	"more a run directory from elsewhere may claim.\n"
	"--format kcidb: instead of the reports, one KCIDB document (the kernel CI\n"
	"results database's format, kcidb-io schema v5.3) of the runs or of the\n"
	"night, on standard output (for kcidb-submit): the kernel as a checkout and\n"
	"a build, the run, each check and each headline figure as a test (PASS,\n"
	"FAIL when the kernel failed, ERROR when the run could not finish, SKIP for\n"
	"a check a kernel crash kept from running, MISS for one the harness did,\n"
	"DONE with a number for a figure), with the same verdicts as junit.xml.\n"
	"Nothing is written into the run directories.\n"
	"\n"
	"  --out DIR     write the files into DIR instead (one RUN_DIR only; with\n"
	"                --format kcidb, DIR/kcidb.json of every RUN_DIR)\n"
	"  --format F    kcidb: the KCIDB document (the one format there is)\n"
	"  --origin NAME with --format kcidb: the origin KCIDB gave your CI system\n"
	"                ([a-z0-9_]+; default scaletest), which every id starts with\n"
	"  --guest-output-mb N  with --replay: read up to N MiB of each stream\n"
	"\n"
	"A run of a committed baseline (results/baselines/..., or any directory\n"
	"beside a baseline's key.json), and a directory another user owns, are\n"
	"never written into: without --out, report refuses them (exit 2).  A run\n"
	"directory from elsewhere is input, not trusted: its values are checked\n"
	"before they reach reproduce.sh, and a link planted where a report goes\n"
	"(report.md, replay/) is refused, never written through.\n"
	"\n"
	"Exit status:\n"
	"  0    done\n"
	"  1    a JSON document could not be read (damaged, another schema), a\n"
	"       run could not be replayed (--replay), or a report not written\n"
	"  2    bad usage: a missing or unreadable run directory (or one without\n"
	"       result.json), night directory or comparison; a baseline's run,\n"
	"       or another user's directory, without --out\n";

/* The directory a file is in ("." for a bare name); malloc'd. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? xstrndup(path, (size_t)(slash - path) + (slash == path)) : xstrdup(".");
}

/*
 * A run of a committed baseline (results/baselines/<key>/N, or any
 * directory beside a baseline's key.json) is a reference: "report"
 * without --out would rewrite its files, so it is refused.
 */
static int in_baseline(const char *run)
{
	char *parent = dir_of(run), *key = xstrfmt("%s/key.json", parent);
	char *real = realpath(run, NULL);
	int r = path_exists(key) || (real && strstr(real, "/results/baselines/"));

	free(parent);
	free(key);
	free(real);
	return r;
}

static int refuse_baseline(const char *run)
{
	error("'%s' is a run of a committed baseline: its files are not rewritten; "
	      "write the reports elsewhere with --out DIR", run);
	return EXIT_USAGE;
}

/*
 * A directory another user owns is theirs: its reports are not rewritten
 * (and the files they would replace are not ours to replace); without
 * --out that is a usage error, said with the way out.  A directory of our
 * own from elsewhere (unpacked from a CI artifact) is written into, but
 * never through a link planted in it (write_file_atomic, mkdir_under).
 */
static int refuse_foreign(const char *what, const char *dir)
{
	struct stat st;

	if (stat(dir, &st) < 0 || st.st_uid == geteuid())
		return 0;
	error("%s '%s' belongs to another user (uid %lu): its files are not rewritten; "
	      "write the reports elsewhere with --out DIR", what, dir, (unsigned long)st.st_uid);
	return -1;
}

static int report_compare(const char *path, const char *out)
{
	struct strbuf err = STRBUF_INIT;
	json_object *cmp;
	char *dir;
	int r;

	if (json_load_object(path, &cmp, &err) < 0) {
		r = error("%s", err.buf);
		sb_release(&err);
		return r;
	}
	dir = out ? xstrdup(out) : dir_of(path);
	r = report_write_compare(cmp, dir, stdout);
	free(dir);
	json_object_put(cmp);
	return r;
}

static int report_run(const char *run, const char *out)
{
	struct strbuf err = STRBUF_INIT;
	json_object *root;
	int r;

	if (!out)
		return report_write_dir(run, stdout);
	if (result_load(run, &root, &err) < 0) {
		error("%s", err.buf);
		sb_release(&err);
		return -1;
	}
	r = report_write_run(root, out, stdout);
	json_object_put(root);
	sb_release(&err);
	return r;
}

/* result.json rebuilt from the run's records into out, with its reports. */
static int report_replay(const char *run, const char *out, long long max_mb)
{
	struct strbuf err = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	char *dir = NULL, *path, *orig = xstrfmt("%s/result.json", run);
	enum run_status st;
	json_object *root = NULL;
	int r = -1, made;

	/* RUN/replay is made in a directory that may come from elsewhere:
	 * never through a link planted there. */
	if (out) {
		dir = xstrdup(out);
		made = mkdir_p(dir, 0755);
	} else {
		made = mkdir_under(run, "replay", &dir);
	}
	path = xstrfmt("%s/result.json", dir);
	if (made < 0)
		;
	else if (result_replay(run, max_mb, &root, &st, &err) < 0)
		error("cannot replay '%s': %s", run, err.buf);
	else if (result_save(root, path) == 0 &&
		 report_write_run(root, dir, stdout) == 0)
		r = 0;
	if (r == 0 && sb_read_file(&a, orig) == 0 && sb_read_file(&b, path) == 0) {
		/* (path comes from the command line: cleaned as every name) */
		sb_reset(&err);
		sb_addf(&err, "replay: %s %s the run's own result.json\n", path,
			a.len == b.len && !memcmp(a.buf, b.buf, a.len)
			? "is identical to" : "differs from");
		sb_reset(&a);
		sb_add_clean(&a, err.buf, err.len, 1);
		fputs(a.buf, stderr);
	}
	json_object_put(root);
	sb_release(&err);
	sb_release(&a);
	sb_release(&b);
	free(dir);
	free(path);
	free(orig);
	return r;
}

/* A run directory named on the command line: one that is missing, cannot
 * be opened or has no result.json is a usage error, said before any report
 * is written.  (A result.json that cannot be read is a failed report.) */
static int need_run_dir(const char *dir, int result)
{
	char *rj;
	int r = 0;

	if (need_dir("run directory", dir) < 0)
		return -1;
	if (!result)
		return 0;
	rj = xstrfmt("%s/result.json", dir);
	if (!path_exists(rj))
		r = error("'%s' is not a run directory: it has no result.json", dir);
	free(rj);
	return r;
}

/* The comparison --compare names: missing or unreadable is a usage error. */
static int need_file(const char *path)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return error_errno("cannot open '%s'", path);
	fclose(f);
	return 0;
}

/* --format kcidb: the document of the runs or the night, on stdout or in
 * out/kcidb.json.  Nothing is written into a run or night directory, so
 * a baseline's run or another user's directory is fine to read. */
static int report_kcidb(const char *format, const char *origin, const char *out,
			const char *nightly, const char *compare, int replay, int n, char **runs)
{
	int r;

	if (strcmp(format, "kcidb"))
		return usage_error(usage_report, "unknown format '%s': the one format is kcidb",
				   format);
	if (compare || replay)
		return usage_error(usage_report, "--format kcidb takes run directories or "
				   "--nightly, not --compare or --replay");
	if (origin && !kcidb_origin_valid(origin))
		return usage_error(usage_report, "--origin '%s': an origin is made of a-z, 0-9 and _ "
				   "(at most %d)", origin, KCIDB_ORIGIN_MAX);
	if (nightly ? n != 0 : n == 0)
		return usage_error(usage_report, nightly ? "--nightly takes no run directory"
				   : "report needs a run directory");
	if (nightly && need_dir("night directory", nightly) < 0)
		return EXIT_USAGE;
	for (int i = 0; i < n; i++)
		if (need_run_dir(runs[i], 1) < 0)
			return EXIT_USAGE;
	if (out && mkdir_p(out, 0755) < 0)
		return finish_stdout(EXIT_RUNFAIL);
	r = nightly ? report_kcidb_nightly(nightly, origin, out, stdout)
		    : report_kcidb_runs(runs, (size_t)n, origin, out, stdout);
	return finish_stdout(r < 0 ? EXIT_RUNFAIL : EXIT_OK);
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "compare", required_argument, NULL, 'c' },
		{ "nightly", required_argument, NULL, 'n' },
		{ "replay", no_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'f' },
		{ "origin", required_argument, NULL, 'O' },
		{ "guest-output-mb", required_argument, NULL, 'g' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *compare = NULL, *nightly = NULL, *format = NULL, *origin = NULL;
	int c, bad = 0, replay = 0;
	long long max_mb = 0;
	uint64_t v;

	if (want_help(argc, argv, usage_report))
		return finish_stdout(EXIT_OK);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'c':
			compare = optarg;
			break;
		case 'n':
			nightly = optarg;
			break;
		case 'f':
			format = optarg;
			break;
		case 'O':
			origin = optarg;
			break;
		case 'r':
			replay = 1;
			break;
		case 'g':
			if (parse_u64(optarg, &v) < 0 || v < 1 || v > 1048576)
				return usage_error(usage_report, "--guest-output-mb: '%s' is not a count of "
						   "MiB from 1 to 1048576", optarg);
			max_mb = (long long)v;
			break;
		default:
			fputs(usage_report, stderr);
			return EXIT_USAGE;
		}
	}
	if (origin && !format)
		return usage_error(usage_report, "--origin is for --format kcidb");
	if (max_mb && !replay)
		return usage_error(usage_report, "--guest-output-mb goes with --replay");
	if (format)
		return report_kcidb(format, origin, out, nightly, compare, replay, argc - optind,
				    argv + optind);
	if (compare || nightly) {
		if ((compare && nightly) || replay || optind != argc)
			return usage_error(usage_report, "--compare and --nightly take one document, and no "
					   "run directory or --replay");
		if (compare ? need_file(compare) < 0 : need_dir("night directory", nightly) < 0)
			return EXIT_USAGE;
		if (!out) {
			char *d = compare ? dir_of(compare) : xstrdup(nightly);
			int f = refuse_foreign(compare ? "the comparison's directory" : "night directory", d);

			free(d);
			if (f < 0)
				return EXIT_USAGE;
		}
		if (out && mkdir_p(out, 0755) < 0)
			return finish_stdout(EXIT_RUNFAIL);
		if (compare)
			bad = report_compare(compare, out) < 0;
		else
			bad = report_write_nightly(nightly, out ? out : nightly, stdout) < 0;
		return finish_stdout(bad ? EXIT_RUNFAIL : EXIT_OK);
	}
	if (optind == argc)
		return usage_error(usage_report, "report needs a run directory");
	for (int i = optind; i < argc && !out; i++)
		if (in_baseline(argv[i]))
			return finish_stdout(refuse_baseline(argv[i]));
	for (int i = optind; i < argc && !out; i++)
		if (refuse_foreign("run directory", argv[i]) < 0)
			return finish_stdout(EXIT_USAGE);
	if (replay) {
		if (argc - optind != 1)
			return usage_error(usage_report, "--replay takes one run directory");
		if (need_run_dir(argv[optind], 0) < 0)
			return EXIT_USAGE;
		return finish_stdout(report_replay(argv[optind], out, max_mb) < 0 ? EXIT_RUNFAIL : EXIT_OK);
	}
	if (out && argc - optind != 1)
		return usage_error(usage_report, "--out takes one run directory");
	for (int i = optind; i < argc; i++)
		if (need_run_dir(argv[i], 1) < 0)
			return EXIT_USAGE;
	if (out && mkdir_p(out, 0755) < 0)
		return finish_stdout(EXIT_RUNFAIL);
	for (int i = optind; i < argc; i++)
		if (report_run(argv[i], out) < 0)
			bad = 1;
	return finish_stdout(bad ? EXIT_RUNFAIL : EXIT_OK);
}
