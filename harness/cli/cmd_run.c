#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "lib/child.h"
#include "compare/group.h"
#include "run/fanout.h"
#include "run/run.h"
#include "scenario/scenario.h"
#include "lib/strvec.h"
#include "lib/util.h"

const char usage_run[] =
	"usage: scaletest run SCENARIO [--set KEY=VALUE]... [--out DIR] [--repeat N] [--quiet]\n"
	"                    [--connect URI[,slots=N][,upload]]...\n"
	"\n"
	"Boot the scenario's kernel in QEMU with its scsi_debug and virtio disks,\n"
	"run the guest phases (boot, before-insmod, after-insmod, after-virtio,\n"
	"after-io, after-rmmod), and write DIR/<run-id>/ with console.log,\n"
	"channel.log, snapshots/, result.json and report.md.  DIR/latest points\n"
	"at the newest run that passed.  The summary is printed on stdout.\n"
	"\n"
	"  --set KEY=VALUE  override a scenario key (see 'scaletest keys')\n"
	"  --out DIR        results directory (default: results)\n"
	"  --repeat N       run it N times, kept together in DIR/<stamp>-<name>-xN/\n"
	"                   (a group: compare uses its spread); prints the spread\n"
	"  --connect URI[,slots=N][,upload]\n"
	"                   boot through libvirt at URI (qemu:///system, qemu+ssh://HOST/system)\n"
	"                   instead of running QEMU here; repeat it to spread --repeat\n"
	"                   runs over several connections, at most N at a time on each\n"
	"                   (default 1); upload stages the files through libvirt's\n"
	"                   storage API even on a local host (always for a remote one)\n"
	"  --quiet          no summary on stdout (progress still on stderr)\n"
	"\n"
	"Environment: SCALETEST_CACHE (default $XDG_CACHE_HOME/scaletest) holds\n"
	"kernels, busybox and initramfs images between runs.\n"
	"\n"
	"Exit status:\n"
	"  0    pass\n"
	"  1    fail, timeout, crash, oom or error (the README's \"Statuses and\n"
	"       exit codes\")\n"
	"  2    bad usage, or a scenario that is missing, unreadable or invalid\n"
	"       (nothing booted)\n"
	"  3    a tool or package is missing\n"
	"  130  interrupted (the run is kept, marked interrupted)\n";


int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "set", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "connect", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct strvec sets = STRVEC_INIT;
	struct run_config rc = { .out = "results" };
	struct fanout f = FANOUT_INIT;
	struct strbuf err = STRBUF_INIT;
	struct scenario s;
	enum run_status st;
	char *dir = NULL;
	int c, ret = EXIT_USAGE, opened = 0;
	uint64_t repeat = 1;

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
		case 'c':
			if (fanout_add(&f, optarg, &err) < 0) {
				error("%s", err.buf);
				goto out;
			}
			break;
		case 'r':
			if (parse_u64(optarg, &repeat) < 0 || repeat < 1 || repeat > 100) {
				usage_error(usage_run, "--repeat: '%s' is not a count from 1 to 100", optarg);
				goto out;
			}
			break;
		default:
			fputs(usage_run, stderr);
			goto out;
		}
	}
	if (optind != argc - 1) {
		usage_error(usage_run, "%s", optind < argc ? "run takes one scenario" : "run needs a scenario");
		goto out;
	}
	if (f.n > 1 && repeat == 1) {
		usage_error(usage_run, "one run takes one --connect; several spread --repeat N runs");
		goto out;
	}
	opened = 1;
	if (scenario_open(&s, argv[optind], &sets) < 0)
		goto out;
	if (f.n) {
		/* --connect implies the libvirt backend. */
		rc.backend = "libvirt";
		rc.uri = f.c[0].uri;
		rc.upload = f.c[0].upload;
		rc.fanout = &f;
		rc.sets = &sets;
	}

	st = repeat > 1 ? group_execute(&s, &rc, (int)repeat, &dir) : run_execute(&s, &rc, &dir);
	if (dir)
		note("%s: %s", run_status_name(st), dir);
	ret = finish_stdout(run_exit_code(st));
	free(dir);
out:
	if (opened)
		scenario_release(&s);
	strvec_clear(&sets);
	fanout_release(&f);
	sb_release(&err);
	return ret;
}

