#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "proc.h"
#include "run.h"
#include "scenario.h"
#include "strvec.h"
#include "util.h"

const char usage_run[] =
	"usage: scaletest run SCENARIO [--set KEY=VALUE]... [--out DIR] [--quiet]\n"
	"\n"
	"Boot the scenario's kernel in QEMU with its scsi_debug and virtio disks,\n"
	"run the guest phases (boot, before-insmod, after-insmod, after-virtio,\n"
	"after-io, after-rmmod), and write DIR/<run-id>/ with console.log,\n"
	"channel.log, snapshots/, result.json and report.md.  DIR/latest points\n"
	"at the newest run that passed.  The summary is printed on stdout.\n"
	"\n"
	"  --set KEY=VALUE  override a scenario key (see 'scaletest keys')\n"
	"  --out DIR        results directory (default: results)\n"
	"  --quiet          no summary on stdout (progress still on stderr)\n"
	"\n"
	"Environment: SCALETEST_CACHE (default $XDG_CACHE_HOME/scaletest) holds\n"
	"kernels, busybox and initramfs images between runs.\n"
	"\n"
	"exit status: 0 pass; 1 fail, timeout, crash, oom or error; 2 bad\n"
	"scenario or usage (nothing booted); 3 missing tool or package;\n"
	"130 interrupted (the run is kept, marked interrupted).\n";

/* Load, override and check a scenario; errors are the user's (exit 2). */
static int load_scenario(struct scenario *s, const char *path,
			 const struct strvec *sets)
{
	struct strbuf err = STRBUF_INIT;

	scenario_init(s);
	if (scenario_load(s, path, &err) < 0)
		goto bad;
	for (size_t i = 0; i < sets->n; i++)
		if (scenario_set(s, sets->v[i], "--set", &err) < 0)
			goto bad;
	if (scenario_check(s, &err) < 0)
		goto bad;
	sb_release(&err);
	return 0;
bad:
	error("%s", err.buf);
	sb_release(&err);
	return -1;
}

int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "set", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct strvec sets = STRVEC_INIT;
	struct run_config rc = { "results", 0 };
	struct scenario s;
	enum run_status st;
	char *dir = NULL;
	int c, ret;

	if (want_help(argc, argv, usage_run))
		return finish_stdout(EXIT_OK);
	while ((c = getopt_long(argc, argv, "s:o:q", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			strvec_push(&sets, optarg);
			break;
		case 'o':
			rc.out = optarg;
			break;
		case 'q':
			rc.quiet = 1;
			break;
		default:
			fputs(usage_run, stderr);
			strvec_clear(&sets);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		error(optind < argc ? "run takes one scenario" : "run needs a scenario");
		fputs(usage_run, stderr);
		strvec_clear(&sets);
		return EXIT_USAGE;
	}
	if (load_scenario(&s, argv[optind], &sets) < 0) {
		scenario_release(&s);
		strvec_clear(&sets);
		return EXIT_USAGE;
	}
	strvec_clear(&sets);

	st = run_execute(&s, &rc, &dir);
	if (dir)
		note("%s: %s", run_status_name(st), dir);
	switch (st) {
	case RUN_PASS:
		ret = EXIT_OK;
		break;
	case RUN_INTERRUPTED:
		ret = EXIT_INTERRUPTED;
		break;
	case RUN_ERROR:
		ret = error_was_env ? EXIT_ENV : EXIT_RUNFAIL;
		break;
	default:
		ret = EXIT_RUNFAIL;
	}
	free(dir);
	scenario_release(&s);
	return finish_stdout(ret);
}

const char usage_check[] =
	"usage: scaletest check SCENARIO... [--set KEY=VALUE]...\n"
	"\n"
	"Parse and validate scenario files exactly as 'run' would, without\n"
	"fetching or booting anything.  Errors are printed as FILE:LINE: message.\n"
	"exit status: 0 all valid, 2 any invalid.\n";

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "set", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct strvec sets = STRVEC_INIT;
	int c, bad = 0;

	if (want_help(argc, argv, usage_check))
		return finish_stdout(EXIT_OK);
	while ((c = getopt_long(argc, argv, "s:", opts, NULL)) != -1) {
		if (c != 's') {
			fputs(usage_check, stderr);
			strvec_clear(&sets);
			return EXIT_USAGE;
		}
		strvec_push(&sets, optarg);
	}
	if (optind == argc) {
		error("check needs at least one scenario");
		strvec_clear(&sets);
		return EXIT_USAGE;
	}
	for (int i = optind; i < argc; i++) {
		struct scenario s;
		if (load_scenario(&s, argv[i], &sets) < 0)
			bad = 1;
		else
			printf("%s: ok\n", argv[i]);
		scenario_release(&s);
	}
	strvec_clear(&sets);
	return finish_stdout(bad ? EXIT_USAGE : EXIT_OK);
}
