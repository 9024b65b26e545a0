/* SPDX-License-Identifier: Apache-2.0 */
/*
 * commands: the command table's entries, one file each (cmd_*.c), and the
 * helpers they share (commands.c, below them all; the table is main.c's).
 *
 * main() looks argv[1] up in its table of struct command and calls the
 * entry with argv[0] being the command's own name; the command parses its
 * options and returns the process exit status (util.h: EXIT_OK,
 * EXIT_RUNFAIL, EXIT_USAGE, EXIT_ENV, EXIT_INTERRUPTED), flushing stdout
 * with finish_stdout() when it printed results there.  Commands wire the
 * stages together; the stages live in their own modules and know nothing
 * of argv.
 *
 * Usage and exit statuses are the same everywhere: a command line of the
 * wrong shape is usage_error() (what was wrong, then the usage); an input
 * named on it that is missing or unreadable (a run directory, a scenario,
 * a log) is one message naming it (need_dir() for directories), and an
 * invalid scenario one per error (FILE:LINE:), all EXIT_USAGE.  Every
 * usage text ends with an "Exit status:" block listing the codes that
 * command returns (tests/cli.sh checks each command of the table).
 *
 *	int cmd_check(int argc, char **argv)
 *	{
 *		if (want_help(argc, argv, usage_check))
 *			return finish_stdout(EXIT_OK);
 *		... getopt_long(argc, argv, ...), run the stages ...
 *		return finish_stdout(ok ? EXIT_OK : EXIT_RUNFAIL);
 *	}
 *
 * A command with verbs (kernel build, cache list|clean, baseline
 * update|find|list) has its own small table and hands the verb to
 * run_subcommand(), which calls the verb's entry with argv[0] = the verb:
 *
 *	static const struct command cache_commands[] = {
 *		{ "list", cache_list, "show each category", usage_cache },
 *		{ "clean", cache_clean, "remove categories", usage_cache },
 *	};
 *	return run_subcommand("cache", cache_commands,
 *			      ARRAY_SIZE(cache_commands), usage_cache,
 *			      argc - 1, argv + 1);
 */
#ifndef SCALETEST_COMMANDS_H
#define SCALETEST_COMMANDS_H

#include <stddef.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const char *usage;	/* full --help text */
};

int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_keys(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_kernel(int argc, char **argv);
int cmd_cache(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_baseline(int argc, char **argv);
int cmd_nightly(int argc, char **argv);
int cmd_fio(int argc, char **argv);
int cmd_triage(int argc, char **argv);
int cmd_gc(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
/* scaletest __complete WORD...: the words a shell's completion offers
 * (tools/completion/), from main()'s command table (n entries); not in
 * the table, not a user's command. */
int cmd_complete(int argc, char **argv, const struct command *table, size_t n);

extern const char usage_run[], usage_report[], usage_keys[], usage_check[],
	usage_kernel[], usage_cache[], usage_compare[], usage_baseline[], usage_nightly[], usage_fio[],
	usage_triage[], usage_gc[], usage_sweep[], usage_bisect[];

/* The command being run (main() sets it): its --help on a terminal is
 * its manual page, scaletest-NAME(1). */
extern const char *command_name;
/* A command's --help: its manual page on a terminal, else text on stdout. */
void command_help(const char *text);
/* The manual page NAME(SECTION) as git help shows one: on a terminal, by
 * man -l, exec'd in place of scaletest.  Returns only when it cannot
 * (stdout is no terminal, the page or man is missing): the caller then
 * prints the text, which says the same in short. */
void show_man(const char *name, int section);
/*
 * run and sweep (cmd_run.c): sweep is run with a sweep (sw, its own
 * options: the counts, --boots, --size-memory; NULL for run); its counts
 * go in as the sweep key, after the user's own --set, so that a sweep key
 * there gives way.  usage is the command's own.
 */
struct sweep_opts {
	const char *list;	/* --disks LIST, or NULL: "even" */
	int boots, size_memory;
};
int run_command(int argc, char **argv, const char *usage, struct sweep_opts *sw);

/* Print usage on stdout if argv has -h/--help; returns 1 if it did. */
int want_help(int argc, char **argv, const char *usage);
/* Flush and close stdout, reporting a failure (write errors are errors). */
int finish_stdout(int status);
/* A command line of the wrong shape (an argument too many or missing, an
 * unknown verb, category or option value): "scaletest: MESSAGE", then
 * usage, on stderr; returns EXIT_USAGE. */
int usage_error(const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* 0 when path is a directory that opens; else "cannot open WHAT 'PATH':
 * why" and -1.  A missing or unreadable run directory is a usage error
 * (EXIT_USAGE) in every command, said before anything is written. */
int need_dir(const char *what, const char *path);
/* Nested verbs ("kernel build", "cache list"): argv[0] is the verb.  Runs
 * the table's entry with argc, argv (help on -h/--help); "help", -h or
 * --help as the verb prints usage; a missing or unknown verb is a one-line
 * error naming it, then usage on stderr, and EXIT_USAGE. */
int run_subcommand(const char *cmd, const struct command *table, size_t n,
		   const char *usage, int argc, char **argv);

#endif
