// SPDX-License-Identifier: Apache-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "lib/util.h"
#include "record/console.h"
#include "record/crash.h"

const char usage_triage[] =
	"usage: scaletest triage CONSOLE_LOG\n"
	"\n"
	"Classify a kernel console log, from a run (RUN/console.log) or from\n"
	"anywhere else, with the crash classes a run uses: panic, page-fault,\n"
	"null-deref, gpf, kernel-bug, kasan, kfence, kmsan, kcsan, ubsan,\n"
	"soft-lockup, hard-lockup, hung-task, rcu-stall, warning, lockdep,\n"
	"memory-leak, bug, oops, reboot (a second boot) and oom.  The first\n"
	"report in the log is the one named (on one line, an OOM over a panic;\n"
	"an OOM before a crash only when the crash is the panic it brought).\n"
	"The host-side classes of a run (hang, channel-lost, qemu-exited) need\n"
	"what the host saw and are not found from a log alone.  A report the\n"
	"kernel survives (alloc-failure: a page allocation failure) is a\n"
	"finding, printed as one but never a crash.\n"
	"\n"
	"Prints the class, who is to blame, syzkaller's crash type (HANG,\n"
	"WARNING, LOCKDEP, KASAN-READ, ...), the title syzkaller would give the\n"
	"report (stable: numbers, addresses, offsets, source lines and\n"
	"timestamps made NUM, ADDR and LINE or dropped, so that the same bug\n"
	"gets the same title from two boots), the line of the log where the\n"
	"report starts, the findings ('finding: CLASS: TITLE (line N)'), and the\n"
	"lines around the report; or 'nothing found', or 'no crash found' and the\n"
	"findings.  Lines are shown made printable: control and non-ASCII bytes\n"
	"become '?'.\n"
	"\n"
	"Exit status:\n"
	"  0    nothing found, or findings only\n"
	"  1    a crash or OOM found\n"
	"  2    bad usage: a log that is missing or cannot be read\n";

int cmd_triage(int argc, char **argv)
{
	struct console_scan cs;
	struct crash c = CRASH_INIT, f = CRASH_INIT;
	char buf[65536];
	ssize_t n;
	int fd, found, finding;

	if (want_help(argc, argv, usage_triage))
		return finish_stdout(EXIT_OK);
	if (argc > 1 && argv[1][0] == '-' && argv[1][1])
		return usage_error(usage_triage, "unknown option '%s'", argv[1]);
	if (argc != 2)
		return usage_error(usage_triage, "triage takes one console log");
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		error_errno("cannot open '%s'", argv[1]);
		return EXIT_USAGE;
	}
	console_scan_init(&cs);
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error_errno("cannot read '%s'", argv[1]);
			close(fd);
			console_scan_release(&cs);
			return EXIT_USAGE;
		}
		console_scan_feed(&cs, buf, (size_t)n);
	}
	close(fd);
	console_scan_finish(&cs);

	found = crash_classify(&cs, NULL, &c);
	finding = crash_finding(&cs, &f);
	if (found)
		printf("class: %s\nblame: %s\ntype: %s\ntitle: %s\nline: %lu\n",
		       c.cls->name, crash_blame_name(c.cls->blame), c.type, c.title.buf, c.line);
	else
		printf("%s found in %lu lines\n", finding ? "no crash" : "nothing", cs.lines);
	if (finding)
		printf("finding: %s: %s (line %lu)\n", f.cls->name, f.title.buf, f.line);
	if (found) {
		fputs("context:\n", stdout);
		fputs(c.context.buf, stdout);
	}
	crash_release(&c);
	crash_release(&f);
	console_scan_release(&cs);
	return finish_stdout(found ? EXIT_RUNFAIL : EXIT_OK);
}
