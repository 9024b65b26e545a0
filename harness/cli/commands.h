/*
 * commands: the command table's entries, one file each (cmd_*.c).
 *
 * A command gets argv with argv[0] being its own name, parses its options,
 * and returns the process exit status (util.h: EXIT_OK, EXIT_RUNFAIL,
 * EXIT_USAGE, EXIT_ENV, EXIT_INTERRUPTED).  Commands wire the stages
 * together; the stages live in their own modules and know nothing of argv.
 */
#ifndef SCALETEST_COMMANDS_H
#define SCALETEST_COMMANDS_H

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

extern const char usage_run[], usage_report[], usage_keys[], usage_check[],
	usage_kernel[], usage_cache[], usage_compare[], usage_baseline[], usage_nightly[], usage_fio[],
	usage_triage[];

/* Print usage on stdout if argv has -h/--help; returns 1 if it did. */
int want_help(int argc, char **argv, const char *usage);
/* Flush and close stdout, reporting a failure (write errors are errors). */
int finish_stdout(int status);

#endif
