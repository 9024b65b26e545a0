// SPDX-License-Identifier: Apache-2.0
/*
 * scaletest: a QEMU scale-test harness for the Linux block layer.
 *
 * main() looks the command up in the table below and runs it; everything
 * else lives in the cmd_*.c files and the stage modules they call.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

const struct command *command_table(size_t *n)
{
	*n = ARRAY_SIZE(commands);
	return commands;
}

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

/* The command being run: its --help on a terminal is its manual page. */
static const char *help_name;

/* The manual page NAME.SECTION: the tree's docs/man/, or the install's
 * PREFIX/share/man/manSECTION (PREFIX/share/scaletest being the root;
 * gzip'd, as Debian installs them, or not).  malloc'd, or NULL. */
static char *man_page(const char *name, int section)
{
	const char *root = scaletest_root();
	char *c[] = {
		xstrfmt("%s/docs/man/%s.%d", root, name, section),
		xstrfmt("%s/../man/man%d/%s.%d", root, section, name, section),
		xstrfmt("%s/../man/man%d/%s.%d.gz", root, section, name, section),
	};
	char *page = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		if (!page && path_exists(c[i]))
			page = c[i];
		else
			free(c[i]);
	}
	return page;
}

/*
 * A manual page shown as git help shows one: on a terminal, by man -l
 * (its pager, its width), exec'd in place of scaletest.  Returns only
 * when it cannot: standard output is not a terminal (a pipe, a file, a
 * test), the page is not there, or man is missing; the caller then
 * prints the --help text, which says the same in short.
 */
static void show_man(const char *name, int section)
{
	char *page;

	if (!name || !isatty(STDOUT_FILENO))
		return;
	page = man_page(name, section);
	if (!page)
		return;
	fflush(stdout);
	execlp("man", "man", "-l", page, (char *)NULL);
	free(page);	/* no man: the text instead */
}

/* A command's --help: its page on a terminal, else the text. */
static void command_help(const char *text)
{
	if (help_name) {
		char *name = xstrfmt("scaletest-%s", help_name);

		show_man(name, 1);
		free(name);
	}
	fputs(text, stdout);
}

int want_help(int argc, char **argv, const char *text)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h")) {
			fputs(text, stdout);
			return 1;
		}
		if (!strcmp(argv[i], "--help")) {
			command_help(text);
			return 1;
		}
	}
	return 0;
}

int finish_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		error_errno("cannot write to standard output");
		return status ? status : EXIT_RUNFAIL;
	}
	return status;
}

int usage_error(const char *usage, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(&msg, fmt, ap);
	va_end(ap);
	error("%s", msg.buf);
	sb_release(&msg);
	fputs(usage, stderr);
	return EXIT_USAGE;
}

int need_dir(const char *what, const char *path)
{
	DIR *d = opendir(path);

	if (!d)
		return error_errno("cannot open %s '%s'", what, path);
	closedir(d);
	return 0;
}

/* "build", "list or clean", "update, find or list" */
static void verb_names(const struct command *table, size_t n, struct strbuf *sb)
{
	for (size_t i = 0; i < n; i++)
		sb_addf(sb, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ",
			table[i].name);
}

int run_subcommand(const char *cmd, const struct command *table, size_t n,
		   const char *usage, int argc, char **argv)
{
	struct strbuf names = STRBUF_INIT;

	if (argc >= 1 && (!strcmp(argv[0], "-h") || !strcmp(argv[0], "--help") ||
			  !strcmp(argv[0], "help"))) {
		if (strcmp(argv[0], "-h"))
			command_help(usage);
		else
			fputs(usage, stdout);
		return finish_stdout(EXIT_OK);
	}
	for (size_t i = 0; argc >= 1 && i < n; i++)
		if (!strcmp(table[i].name, argv[0])) {
			if (want_help(argc, argv, table[i].usage))
				return finish_stdout(EXIT_OK);
			return table[i].fn(argc, argv);
		}
	if (argc < 1) {
		verb_names(table, n, &names);
		error("'%s' needs a subcommand: %s", cmd, names.buf);
		sb_release(&names);
	} else {
		error("'%s' is not a %s command", argv[0], cmd);
	}
	fputs(usage, stderr);
	return EXIT_USAGE;
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
					help_name = commands[i].name;
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
		return cmd_complete(argc - 1, argv + 1);
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("scaletest %s\n", SCALETEST_VERSION);
		return finish_stdout(EXIT_OK);
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, cmd)) {
			child_signals_init();
			help_name = commands[i].name;
			return commands[i].fn(argc - 1, argv + 1);
		}
	error("'%s' is not a scaletest command", cmd);
	usage(stderr);
	return EXIT_USAGE;
}
