#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "report/report.h"
#include "lib/util.h"

const char usage_report[] =
	"usage: scaletest report RUN_DIR...\n"
	"\n"
	"Regenerate RUN_DIR/report.md, report.html and junit.xml from\n"
	"RUN_DIR/result.json alone (nothing is booted) and print the run's summary.\n"
	"exit status: 0 done, 1 a result.json could not be read.\n";

int cmd_report(int argc, char **argv)
{
	int bad = 0;

	if (want_help(argc, argv, usage_report))
		return finish_stdout(EXIT_OK);
	if (argc < 2) {
		error("report needs a run directory");
		fputs(usage_report, stderr);
		return EXIT_USAGE;
	}
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-') {
			error("unknown option '%s'", argv[i]);
			return EXIT_USAGE;
		}
		if (report_write_dir(argv[i], stdout) < 0)
			bad = 1;
	}
	return finish_stdout(bad ? EXIT_RUNFAIL : EXIT_OK);
}
