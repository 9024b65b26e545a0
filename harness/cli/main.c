// SPDX-License-Identifier: Apache-2.0
/*
 * scaletest: a QEMU scale-test harness for the Linux block layer.
 *
 * main() looks the command up in the table below and runs it; everything
 * else lives in the cmd_*.c files, the helpers they share (commands.c,
 * below them: no command calls up into this table) and the stage modules
 * they call.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "lib/child.h"
#include "lib/util.h"
#include "scenario/scenario.h"

static const struct command commands[] = {
	{ "run", cmd_run, "boot a scenario and measure it", usage_run },
	{ "sweep", cmd_sweep, "one boot, disks added step by step: cost per disk as a fitted line", usage_sweep },
	{ "bisect", cmd_bisect, "the commit of a kernel tree that made a figure worse (git bisect, a build and a run per step)", usage_bisect },
	{ "compare", cmd_compare, "compare two runs or groups, or a run with its baseline", usage_compare },
	{ "baseline", cmd_baseline, "make, find or list baselines", usage_baseline },
	{ "nightly", cmd_nightly, "run a matrix, compare with baselines, write one summary", usage_nightly },
	{ "report", cmd_report, "regenerate a run's reports from its result.json", usage_report },
	{ "check", cmd_check, "validate scenario files without booting", usage_check },
	{ "kernel", cmd_kernel, "build kernels from source: kernel build", usage_kernel },
	{ "cache", cmd_cache, "list or clean the cache", usage_cache },
	{ "fio", cmd_fio, "build or find the guest's static fio", usage_fio },
	{ "keys", cmd_keys, "print the scenario key reference (Markdown)", usage_keys },
	{ "triage", cmd_triage, "classify a console log: crash class, stable title, context", usage_triage },
	{ "gc", cmd_gc, "remove what killed harnesses left: run dirs, libvirt domains and volumes", usage_gc },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: scaletest [--version] [--help] <command> [<args>]\n\n"
		   "A QEMU scale-test harness for the Linux block layer: boots a kernel\n"
		   "with thousands of scsi_debug disks plus real virtio disks after them,\n"
		   "and measures what they cost in /proc/meminfo and /proc/slabinfo.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'scaletest <command> --help' or 'scaletest help <command>' describes one\n"
		   "command: its manual page on a terminal, else the text -h prints;\n"
		   "'scaletest help scenario': the scenario file format and its keys.\n"
		   "\n"
		   "Exit status:\n"
		   "  0    done: a run passed, nothing regressed\n"
		   "  1    a run failed or a figure regressed (each command says which)\n"
		   "  2    bad usage: an unknown command or option, a missing or unreadable\n"
		   "       run directory or input file, an invalid scenario\n"
		   "  3    a tool or package is missing\n"
		   "  130  interrupted\n");
}

int main(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2) {
		error("no command given");
		usage(stderr);
		return EXIT_USAGE;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		if (!strcmp(cmd, "help") && argc > 2) {
			for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
				if (!strcmp(commands[i].name, argv[2])) {
					command_name = commands[i].name;
					command_help(commands[i].usage);
					return finish_stdout(EXIT_OK);
				}
			/* scaletest-scenario(5): the file format and every key */
			if (!strcmp(argv[2], "scenario")) {
				struct strbuf sb = STRBUF_INIT;

				show_man("scaletest-scenario", 5);
				scenario_keys_markdown(&sb);
				fputs(sb.buf, stdout);
				sb_release(&sb);
				return finish_stdout(EXIT_OK);
			}
			error("no such command '%s'", argv[2]);
			usage(stderr);
			return EXIT_USAGE;
		}
		usage(stdout);
		return finish_stdout(EXIT_OK);
	}
	/* the shells' completions (tools/completion/): not a user's command */
	if (!strcmp(cmd, "__complete"))
		return cmd_complete(argc - 1, argv + 1, commands, ARRAY_SIZE(commands));
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("scaletest %s\n", SCALETEST_VERSION);
		return finish_stdout(EXIT_OK);
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, cmd)) {
			if (child_signals_init() < 0)
				return EXIT_ENV;
			command_name = commands[i].name;
			return commands[i].fn(argc - 1, argv + 1);
		}
	error("'%s' is not a scaletest command", cmd);
	usage(stderr);
	return EXIT_USAGE;
}
