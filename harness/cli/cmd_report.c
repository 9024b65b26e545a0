#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "lib/util.h"
#include "report/report.h"
#include "result/replay.h"
#include "result/result.h"

const char usage_report[] =
	"usage: scaletest report RUN_DIR...\n"
	"       scaletest report --replay RUN_DIR [--out DIR]\n"
	"\n"
	"Regenerate RUN_DIR/report.md, report.html and junit.xml from\n"
	"RUN_DIR/result.json alone (nothing is booted) and print the run's summary.\n"
	"\n"
	"--replay rebuilds result.json itself from what the run saved (channel.log,\n"
	"console.log, scenario.scn, host.json) with this scaletest's decoders and\n"
	"checks, writes it and the reports into DIR (default RUN_DIR/replay), and\n"
	"says whether it is identical to the run's own result.json.  Nothing is\n"
	"booted and the run's own files are not changed.\n"
	"exit status: 0 done, 1 a run directory could not be read, 2 bad usage.\n";

static int replay(const char *run, const char *out)
{
	struct strbuf err = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	char *dir = out ? xstrdup(out) : xstrfmt("%s/replay", run);
	char *path = xstrfmt("%s/result.json", dir), *orig = xstrfmt("%s/result.json", run);
	enum run_status st;
	json_object *root;
	int ret = EXIT_RUNFAIL;

	if (result_replay(run, &root, &st, &err) < 0) {
		error("cannot replay '%s': %s", run, err.buf);
		goto out;
	}
	if (mkdir_p(dir, 0755) < 0 || result_save(root, path) < 0) {
		json_object_put(root);
		goto out;
	}
	json_object_put(root);
	if (report_write_dir(dir, stdout) < 0)
		goto out;
	if (sb_read_file(&a, orig) == 0 && sb_read_file(&b, path) == 0)
		fprintf(stderr, "replay: %s %s the run's own result.json\n", path,
			a.len == b.len && !memcmp(a.buf, b.buf, a.len)
			? "is identical to" : "differs from");
	ret = EXIT_OK;
out:
	sb_release(&err);
	sb_release(&a);
	sb_release(&b);
	free(dir);
	free(path);
	free(orig);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	const char *out = NULL, *run = NULL;
	int bad = 0, do_replay = 0;

	if (want_help(argc, argv, usage_report))
		return finish_stdout(EXIT_OK);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--replay")) {
			do_replay = 1;
		} else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
			out = argv[++i];
		} else if (argv[i][0] == '-') {
			error("unknown option '%s'", argv[i]);
			fputs(usage_report, stderr);
			return EXIT_USAGE;
		}
	}
	if (do_replay) {
		for (int i = 1; i < argc; i++) {
			if (!strcmp(argv[i], "--out"))
				i++;
			else if (argv[i][0] != '-' && run)
				return error("--replay takes one run directory"), EXIT_USAGE;
			else if (argv[i][0] != '-')
				run = argv[i];
		}
		if (!run) {
			error("--replay needs a run directory");
			fputs(usage_report, stderr);
			return EXIT_USAGE;
		}
		return finish_stdout(replay(run, out));
	}
	if (out) {
		error("--out goes with --replay");
		return EXIT_USAGE;
	}
	if (argc < 2) {
		error("report needs a run directory");
		fputs(usage_report, stderr);
		return EXIT_USAGE;
	}
	for (int i = 1; i < argc; i++)
		if (report_write_dir(argv[i], stdout) < 0)
			bad = 1;
	return finish_stdout(bad ? EXIT_RUNFAIL : EXIT_OK);
}
