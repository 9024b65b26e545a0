// SPDX-License-Identifier: Apache-2.0
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cache.h"
#include "cli/commands.h"
#include "guest/fio.h"
#include "lib/child.h"
#include "scenario/scenario.h"
#include "lib/strvec.h"
#include "lib/util.h"

const char usage_fio[] =
	"usage: scaletest fio [--arch x86_64|i386]\n"
	"       scaletest fio --host-closure [PROGRAM]\n"
	"\n"
	"Print the path of a static, stripped fio for the guest arch (default\n"
	"x86_64): built from Debian's fio source package on first use (apt-get\n"
	"source, dpkg-source, configure --build-static, make) and cached under\n"
	"<cache>/fio/VERSION_ARCH; later calls cost nothing.  The build log is\n"
	"named at the start.  Needs deb-src entries, dpkg-dev and, for i386,\n"
	"gcc-multilib and libc6-dev-i386: 'make deps' sets them up.\n"
	"\n"
	"--host-closure prints the host's dynamically linked fio (PROGRAM,\n"
	"default /usr/bin/fio, from Debian's fio package) and every file the\n"
	"dynamic loader maps to run it, one absolute path per line: what a guest\n"
	"would need instead of the static binary.\n"
	"\n"
	"Exit status:\n"
	"  0    done\n"
	"  1    the build failed, or PROGRAM's closure could not be found\n"
	"  2    bad usage, or a PROGRAM that does not exist\n"
	"  3    a tool or package is missing (the message names it)\n"
	"  130  interrupted\n";

int cmd_fio(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "host-closure", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	int c, arch = ARCH_X86_64, closure = 0, ret;

	if (want_help(argc, argv, usage_fio))
		return finish_stdout(EXIT_OK);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (!strcmp(optarg, arch_name(ARCH_X86_64))) {
				arch = ARCH_X86_64;
			} else if (!strcmp(optarg, arch_name(ARCH_I386))) {
				arch = ARCH_I386;
			} else {
				return usage_error(usage_fio, "unknown arch '%s' (x86_64 or i386)", optarg);
			}
			break;
		case 'c':
			closure = 1;
			break;
		default:
			fputs(usage_fio, stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind > (closure ? 1 : 0))
		return usage_error(usage_fio, closure ? "--host-closure takes at most one program, not '%s'"
				   : "fio takes no arguments, not '%s'", argv[optind + closure]);
	if (closure && optind < argc && !path_exists(argv[optind])) {
		error("'%s' does not exist", argv[optind]);
		return EXIT_USAGE;
	}
	if (closure) {
		struct strvec files = STRVEC_INIT;

		int r = fio_host_closure(optind < argc ? argv[optind] : NULL, &files);

		if (r < 0) {
			ret = exit_code(r);
		} else {
			for (size_t i = 0; i < files.n; i++)
				printf_clean("%s\n", files.v[i]);
			ret = EXIT_OK;
		}
		strvec_clear(&files);
		return finish_stdout(ret);
	}

	char *dir = cache_log_dir();
	char *log, *path = NULL;
	int r;

	if (!dir)
		return EXIT_ENV;
	log = xstrfmt("%s/fio-%s.log", dir, arch_name(arch));
	free(dir);
	note("log: %s", log);
	if ((r = fio_obtain(arch, log, &path)) < 0) {
		ret = child_interrupted() ? EXIT_INTERRUPTED : exit_code(r);
	} else {
		printf_clean("%s\n", path);
		ret = EXIT_OK;
	}
	free(path);
	free(log);
	return finish_stdout(ret);
}
