#include <stdio.h>

#include "cli/commands.h"
#include "scenario/scenario.h"
#include "lib/util.h"

const char usage_keys[] =
	"usage: scaletest keys\n"
	"\n"
	"Print the scenario key reference as a Markdown table: every key with\n"
	"its type, default, range, unit and meaning.  The README's reference is\n"
	"this output, and the scenario parser validates against the same table.\n"
	"\n"
	"Exit status:\n"
	"  0    done\n"
	"  1    standard output could not be written\n"
	"  2    bad usage\n";

int cmd_keys(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;

	if (want_help(argc, argv, usage_keys))
		return finish_stdout(EXIT_OK);
	if (argc > 1)
		return usage_error(usage_keys, "keys takes no arguments, not '%s'", argv[1]);
	scenario_keys_markdown(&sb);
	fputs(sb.buf, stdout);
	sb_release(&sb);
	return finish_stdout(EXIT_OK);
}
