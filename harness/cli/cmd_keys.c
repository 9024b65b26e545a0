// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "scenario/scenario.h"
#include "lib/util.h"

const char usage_keys[] =
	"usage: scaletest keys [--format md|mdoc]\n"
	"\n"
	"Print the scenario key reference: every key with its type, default,\n"
	"range, unit and meaning.  The key reference of docs/scenarios.md and\n"
	"the key list of the scaletest-scenario(5) manual page are this output,\n"
	"and the scenario parser validates against the same table.\n"
	"\n"
	"  --format md    a Markdown table (the default; docs/scenarios.md's)\n"
	"  --format mdoc  the manual page's key list, in mdoc(7)\n"
	"\n"
	"Exit status:\n"
	"  0    done\n"
	"  1    standard output could not be written\n"
	"  2    bad usage\n";

/* The formats, by name. */
static const struct {
	const char *name;
	void (*write)(struct strbuf *out);
} formats[] = {
	{ "md", scenario_keys_markdown },
	{ "mdoc", scenario_keys_mdoc },
};

int cmd_keys(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	const char *format = "md";
	size_t i;

	if (want_help(argc, argv, usage_keys))
		return finish_stdout(EXIT_OK);
	if (argc == 3 && !strcmp(argv[1], "--format"))
		format = argv[2];
	else if (argc == 2 && !strncmp(argv[1], "--format=", 9))
		format = argv[1] + 9;
	else if (argc > 1)
		return usage_error(usage_keys, "keys takes only --format md|mdoc, not '%s'", argv[1]);
	for (i = 0; i < ARRAY_SIZE(formats) && strcmp(formats[i].name, format); i++)
		;
	if (i == ARRAY_SIZE(formats))
		return usage_error(usage_keys, "unknown format '%s' (md or mdoc)", format);
	formats[i].write(&sb);
	fputs(sb.buf, stdout);
	sb_release(&sb);
	return finish_stdout(EXIT_OK);
}
