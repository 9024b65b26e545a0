// SPDX-License-Identifier: Apache-2.0
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "lib/child.h"
#include "lib/util.h"
#include "record/console.h"
#include "record/crash.h"

/* The most triage reads by default: guest_output_mb's default, the most a
 * run's console.log holds. */
#define TRIAGE_MAX_MB 1024

const char usage_triage[] =
	"usage: scaletest triage [--max-mb N] CONSOLE_LOG\n"
	"       scaletest triage [--max-mb N] -\n"
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
	"CONSOLE_LOG is a regular file: a device, FIFO, socket or directory is\n"
	"refused at once, saying what it is ('-' reads standard input instead,\n"
	"whatever it is).  At most N MiB are read (default 1024, the most a run's\n"
	"console.log holds); a larger log is refused, naming the bound.\n"
	"\n"
	"  --max-mb N   read at most N MiB\n"
	"\n"
	"Exit status:\n"
	"  0    nothing found, or findings only\n"
	"  1    a crash or OOM found\n"
	"  2    bad usage: a log that is missing, cannot be read, is no regular\n"
	"       file, or holds more than N MiB\n"
	"  130  interrupted (SIGINT, SIGTERM, SIGHUP)\n";

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device"
	       : S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a FIFO"
	       : S_ISSOCK(m) ? "a socket" : S_ISLNK(m) ? "a symbolic link"
	       : "not a regular file";
}

/* The log named, opened without blocking (a FIFO's open waits for a
 * writer): a regular file of at most max bytes, else -1 (said). */
static int open_log(const char *path, unsigned long long max, long long max_mb)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return error_errno("cannot open '%s'", path);
	if (fstat(fd, &st) < 0) {
		error_errno("cannot stat '%s'", path);
	} else if (!S_ISREG(st.st_mode)) {
		error("'%s' is %s, not a console log: triage reads a regular file, or "
		      "standard input named '-'", path, file_kind(st.st_mode));
	} else if ((unsigned long long)st.st_size > max) {
		error("'%s' holds more than %lld MiB, the most triage reads (--max-mb)", path,
		      max_mb);
	} else {
		return fd;
	}
	close(fd);
	return -1;
}

int cmd_triage(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "max-mb", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	struct console_scan cs;
	struct crash c = CRASH_INIT, f = CRASH_INIT;
	char buf[65536];
	const char *name;
	unsigned long long max, total = 0;
	long long max_mb = TRIAGE_MAX_MB;
	uint64_t v;
	ssize_t n = 0;
	int fd, found, finding, opt;

	if (want_help(argc, argv, usage_triage))
		return finish_stdout(EXIT_OK);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:", opts, NULL)) != -1) {
		if (opt == 'm') {
			if (parse_u64(optarg, &v) < 0 || v < 1 || v > 1048576)
				return usage_error(usage_triage, "--max-mb: '%s' is not a count of MiB "
						   "from 1 to 1048576", optarg);
			max_mb = (long long)v;
		} else if (opt == ':') {
			return usage_error(usage_triage, "--max-mb needs a count of MiB");
		} else {
			return usage_error(usage_triage, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind != 1)
		return usage_error(usage_triage, "triage takes one console log");
	max = (unsigned long long)max_mb << 20;
	if (!strcmp(argv[optind], "-")) {
		fd = 0;
		name = "standard input";
	} else {
		name = argv[optind];
		if ((fd = open_log(name, max, max_mb)) < 0)
			return EXIT_USAGE;
	}
	console_scan_init(&cs);
	/* SIGINT, SIGTERM, SIGHUP (child_signals_init) interrupt a read with
	 * EINTR and end the triage at once. */
	while (!child_interrupted()) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
			if (errno == EAGAIN) {
				/* standard input left non-blocking by whoever gave
				 * it: wait for it (a signal ends the wait) */
				struct pollfd p = { fd, POLLIN, 0 };

				(void)poll(&p, 1, -1);
			}
			continue;
		}
		if (n < 0) {
			error_errno("cannot read '%s'", name);
			break;
		}
		if (n == 0)
			break;
		total += (unsigned long long)n;
		if (total > max) {
			error(fd ? "'%s' holds more than %lld MiB, the most triage reads (--max-mb)"
				 : "%s: more than %lld MiB, the most triage reads (--max-mb)",
			      name, max_mb);
			n = -1;
			break;
		}
		console_scan_feed(&cs, buf, (size_t)n);
	}
	if (fd)
		close(fd);
	if (child_interrupted()) {
		error("triage of '%s' interrupted", name);
		console_scan_release(&cs);
		return EXIT_INTERRUPTED;
	}
	if (n < 0) {
		console_scan_release(&cs);
		return EXIT_USAGE;
	}
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
