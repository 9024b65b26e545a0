// SPDX-License-Identifier: Apache-2.0
#include <getopt.h>
#include <stdio.h>

#include "cli/commands.h"
#include "scenario/scenario.h"
#include "lib/strvec.h"
#include "lib/util.h"

const char usage_check[] =
	"usage: scaletest check SCENARIO... [--set KEY=VALUE]...\n"
	"\n"
	"Parse and validate scenario files exactly as 'run' would, without\n"
	"fetching or booting anything.  Errors are printed as FILE:LINE: message.\n"
	"\n"
	"Exit status:\n"
	"  0    every scenario is valid\n"
	"  1    standard output could not be written\n"
	"  2    bad usage, or a scenario that is missing, unreadable or invalid\n";

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
		strvec_clear(&sets);
		return usage_error(usage_check, "check needs at least one scenario");
	}
	for (int i = optind; i < argc; i++) {
		struct scenario s;
		if (scenario_open(&s, argv[i], &sets) < 0)
			bad = 1;
		else
			printf_clean("%s: ok\n", argv[i]);
		scenario_release(&s);
	}
	strvec_clear(&sets);
	return finish_stdout(bad ? EXIT_USAGE : EXIT_OK);
}
