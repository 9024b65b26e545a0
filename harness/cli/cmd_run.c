// SPDX-License-Identifier: Apache-2.0
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "lib/child.h"
#include "campaign/group.h"
#include "compare/side.h"
#include "kernel/override.h"
#include "run/boots.h"
#include "run/fanout.h"
#include "run/plan.h"
#include "run/sizing.h"
#include "run/run.h"
#include "scenario/scenario.h"
#include "lib/strvec.h"
#include "lib/cache.h"
#include "lib/util.h"

/* Without a SCENARIO, --kernel and --source start from make scale-test's. */
#define DEFAULT_SCENARIO "scenarios/seed-i386-4000"

const char usage_run[] =
	"usage: scaletest run SCENARIO [--set KEY=VALUE]... [--out DIR] [--repeat N] [--quiet]\n"
	"                    [--connect URI[,slots=N][,upload]]... [--dry-run]\n"
	"       scaletest run [SCENARIO] --kernel BZIMAGE [--modules DIR] [options]\n"
	"       scaletest run [SCENARIO] --source TREE [--patches DIR|SERIES] [options]\n"
	"\n"
	"Boot the scenario's kernel in QEMU with its scsi_debug and virtio disks,\n"
	"run the guest phases (boot, before-insmod, after-insmod, after-virtio,\n"
	"after-io, after-rmmod), and write DIR/<run-id>/ with console.log,\n"
	"channel.log, snapshots/, result.json and report.md.  DIR/latest points\n"
	"at the newest run that passed.  The summary is printed on stdout;\n"
	"progress on stderr, with a live count of the disks during insmod and\n"
	"rmmod (present/wanted, disks/s, seconds: one line rewritten on a\n"
	"terminal, a line every tenth of the way or 10 s otherwise; it comes\n"
	"from the monitor's samples, so none with monitor_interval_ms=0).\n"
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
	"  --quiet          no summary on stdout, no live disk count on stderr\n"
	"                   (the other progress lines stay)\n"
	"  --dry-run        print the plan and change nothing: every scenario key with\n"
	"                   its value and origin, the kernel (or what would be fetched\n"
	"                   or built first), disks, memory, accelerator, and QEMU's\n"
	"                   command line (libvirt: the domain XML); exit 0\n"
	"\n"
	"Kernel shorthands (set scenario keys, as --set does; SCENARIO defaults to\n"
	DEFAULT_SCENARIO ", whose arch gives way to the --kernel image's):\n"
	"  --kernel BZIMAGE a prebuilt kernel: kernel=files, kernel_image=BZIMAGE\n"
	"  --modules DIR    its modules: lib/modules/VERSION, or a root holding one\n"
	"                   (make modules_install INSTALL_MOD_PATH=DIR); default:\n"
	"                   /lib/modules/VERSION, VERSION read from the image\n"
	"  --source TREE    build TREE (or 'debian', 'debian:6.12'): kernel=build, kernel_source=TREE\n"
	"  --patches DIR|SERIES\n"
	"                   kernel_patches: applied to the source before the build\n"
	"An option replaces the kernel the scenario file chose (a note names the\n"
	"lines); --kernel with --source, or with --set kernel_..., is a usage error.\n"
	"\n"
	"Environment: SCALETEST_CACHE (default $XDG_CACHE_HOME/scaletest) holds\n"
	"kernels, busybox and initramfs images between runs.\n"
	"\n"
	"Exit status:\n"
	"  0    pass (or a dry run)\n"
	"  1    fail, timeout, crash, oom or error (docs/statuses.md, \"Statuses\n"
	"       and exit codes\")\n"
	"  2    bad usage, or a scenario that is missing, unreadable or invalid\n"
	"       (nothing booted)\n"
	"  3    a tool or package is missing, or no room for the run: host memory,\n"
	"       a results directory that is read-only or too full (nothing booted);\n"
	"       or a kernel patch that does not apply to the source (nothing built)\n"
	"  130  interrupted (the run is kept, marked interrupted)\n";

/* The scenario's file with the shorthands' assignments first, then the
 * user's --set: 0, or -1 (said). */
static int open_scenario(struct scenario *s, const char *path, int implicit,
			 const struct kernel_override *ko, const struct strvec *user,
			 struct strvec *sets)
{
	struct strvec notes = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	int r = -1;

	scenario_init(s);
	if (kernel_override_any(ko)) {
		if (scenario_load(s, path, &err) < 0 ||
		    kernel_override_sets(ko, s, implicit, user, sets, &notes, &err) < 0) {
			error("%s", err.buf);
			goto out;
		}
		for (size_t i = 0; i < notes.n; i++)
			note("%s", notes.v[i]);
	}
	for (size_t i = 0; i < user->n; i++)
		strvec_push(sets, user->v[i]);
	scenario_release(s);
	r = scenario_open(s, path, sets);
out:
	strvec_clear(&notes);
	sb_release(&err);
	return r;
}

static int dry_run(const struct scenario *s, const struct run_config *rc)
{
	struct strbuf plan = STRBUF_INIT;
	int r = run_plan(s, rc, &plan);

	if (!r)
		printf_clean("%s", plan.buf);
	sb_release(&plan);
	return r;
}

/* The options of run, and those sweep adds. */
static const struct option run_opts[] = {
		{ "set", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "connect", required_argument, NULL, 'c' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "kernel", required_argument, NULL, 'K' },
		{ "modules", required_argument, NULL, 'M' },
		{ "source", required_argument, NULL, 'S' },
		{ "patches", required_argument, NULL, 'P' },
	{ "help", no_argument, NULL, 'h' },
};
static const struct option sweep_only[] = {
	{ "disks", required_argument, NULL, 'D' },
	{ "boots", no_argument, NULL, 'B' },
	{ "size-memory", no_argument, NULL, 'Z' },
};

int run_command(int argc, char **argv, const char *usage, struct sweep_opts *sw)
{
	struct option opts[ARRAY_SIZE(run_opts) + ARRAY_SIZE(sweep_only) + 1];
	size_t nopts = 0;
	struct strvec user = STRVEC_INIT, sets = STRVEC_INIT;
	struct kernel_override ko = { NULL, NULL, NULL, NULL };
	struct run_config rc = { .out = "results" };
	struct fanout f = FANOUT_INIT;
	struct strbuf err = STRBUF_INIT;
	struct scenario s;
	enum run_status st;
	char *dir = NULL, *def = NULL;
	const char *path;
	int c, ret = EXIT_USAGE, opened = 0, dry = 0, e_run;
	uint64_t repeat = 1;

	if (want_help(argc, argv, usage))
		return finish_stdout(EXIT_OK);
	for (size_t i = 0; i < ARRAY_SIZE(run_opts); i++)
		opts[nopts++] = run_opts[i];
	for (size_t i = 0; sw && i < ARRAY_SIZE(sweep_only); i++)
		opts[nopts++] = sweep_only[i];
	opts[nopts] = (struct option){ NULL, 0, NULL, 0 };
	while ((c = getopt_long(argc, argv, "s:o:q", opts, NULL)) != -1) {
		if (c == '?' && optopt == 'D') {
			/* (getopt said "requires an argument") */
			usage_error(usage, "--disks needs a list of counts");
			goto out;
		}
		switch (c) {
		case 's':
			strvec_push(&user, optarg);
			break;
		case 'o':
			rc.out = optarg;
			break;
		case 'q':
			rc.quiet = 1;
			break;
		case 'n':
			/* "change nothing": the cache neither */
			dry = 1;
			cache_set_readonly(1);
			break;
		case 'D':
			if (sw->list) {
				usage_error(usage, "--disks given twice");
				goto out;
			}
			sw->list = optarg;
			break;
		case 'B':
			sw->boots = 1;
			break;
		case 'Z':
			/* Checked against the largest guest until the probe has
			 * sized it (i386 keeps its lowmem check). */
			sw->size_memory = 1;
			strvec_push(&user, "memory_mb=65536");
			break;
		case 'K':
			ko.image = optarg;
			break;
		case 'M':
			ko.modules = optarg;
			break;
		case 'S':
			ko.source = optarg;
			break;
		case 'P':
			ko.patches = optarg;
			break;
		case 'c':
			if (fanout_add(&f, optarg, &err) < 0) {
				error("%s", err.buf);
				goto out;
			}
			break;
		case 'r':
			if (parse_u64(optarg, &repeat) < 0 || repeat < 1 || repeat > SIDE_MAX_RUNS) {
				usage_error(usage, "--repeat: '%s' is not a count from 1 to %d", optarg,
					    SIDE_MAX_RUNS);
				goto out;
			}
			break;
		default:
			fputs(usage, stderr);
			goto out;
		}
	}
	if (sw)
		strvec_pushf(&user, "sweep=%s", sw->list ? sw->list : "even");
	if (optind == argc && (ko.image || ko.source)) {
		/* No scenario: the default one, found beside the binary. */
		def = xstrfmt("%s/" DEFAULT_SCENARIO, scaletest_root());
		path = def;
	} else if (optind != argc - 1) {
		usage_error(usage, optind < argc ? "%s takes one scenario" :
			    "%s needs a scenario (or --kernel BZIMAGE or --source TREE)",
			    sw ? "sweep" : "run");
		goto out;
	} else {
		path = argv[optind];
	}
	if (f.n > 1 && repeat == 1) {
		usage_error(usage, "one run takes one --connect; several spread --repeat N runs");
		goto out;
	}
	opened = 1;
	if (open_scenario(&s, path, def != NULL, &ko, &user, &sets) < 0)
		goto out;
	if (f.n) {
		/* --connect implies the libvirt backend. */
		rc.backend = "libvirt";
		rc.uri = f.c[0].uri;
		rc.upload = f.c[0].upload;
		rc.fanout = &f;
		rc.sets = &sets;
	}
	if (sw && sw->size_memory && !dry) {
		long long mb;
		char set[48];
		struct strbuf e = STRBUF_INIT;

		if (!*s.sweep) {
			usage_error(usage, "--size-memory sizes a sweep's guest: it needs --disks");
			goto out;
		}
		if ((e_run = sizing_probe(&s, &rc, &mb)) < 0) {
			ret = exit_code(e_run);
			goto out;
		}
		snprintf(set, sizeof(set), "memory_mb=%lld", mb);
		if (scenario_set(&s, set, "--size-memory", &e) < 0 || scenario_check(&s, &e) < 0) {
			error("%s", e.buf);
			sb_release(&e);
			ret = EXIT_USAGE;
			goto out;
		}
		sb_release(&e);
	}
	if (sw && sw->size_memory && dry)
		note("--size-memory: a probe run would size memory_mb first (the plan shows the largest guest)");
	if (dry) {
		/* A plan that cannot be made is the input's, but for the
		 * environment's failures (the cache, a tool). */
		e_run = dry_run(&s, &rc);
		ret = finish_stdout(e_run == ERR_ENV ? EXIT_ENV : e_run < 0 ? EXIT_USAGE : EXIT_OK);
		goto out;
	}

	if (sw && sw->boots && (repeat > 1 || f.n)) {
		usage_error(usage, "--boots runs here, one boot after another: not with --repeat or --connect");
		goto out;
	}
	st = sw && sw->boots ? boots_execute(&s, &rc, &dir, &e_run)
	   : repeat > 1 ? group_execute(&s, &rc, (int)repeat, &dir, &e_run)
	   : run_execute(&s, &rc, &dir, &e_run);
	if (dir)
		note("%s: %s", run_status_name(st), dir);
	ret = finish_stdout(run_exit_code(st, e_run));
	free(dir);
out:
	if (opened)
		scenario_release(&s);
	strvec_clear(&user);
	strvec_clear(&sets);
	fanout_release(&f);
	sb_release(&err);
	free(def);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	return run_command(argc, argv, usage_run, NULL);
}
