// SPDX-License-Identifier: Apache-2.0
/*
 * What the commands share (commands.h): help, usage errors, standard
 * output's last flush, the verbs' table.  Below every cmd_*.c and main.c's
 * table; it calls none of them.
 */
#include "cli/commands.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"

const char *command_name;

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
void show_man(const char *name, int section)
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

void command_help(const char *text)
{
	if (command_name) {
		char *name = xstrfmt("scaletest-%s", command_name);

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
