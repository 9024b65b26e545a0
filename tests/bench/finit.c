// SPDX-License-Identifier: Apache-2.0
/*
 * finit: load one kernel module, compressed, and let the kernel
 * decompress it (finit_module with MODULE_INIT_COMPRESSED_FILE, Linux
 * 6.4 and later with CONFIG_MODULE_DECOMPRESS): the way the guest would
 * load .ko.xz files if the harness did not decompress them itself.  Built
 * static for the guest by tests/bench/modload.sh (gcc -static), for that
 * measurement only.
 *
 *	finit FILE [PARAM...]
 *
 * Exit status: 0 loaded, 1 the kernel refused it (errno said), 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE 4
#endif

int main(int argc, char **argv)
{
	char params[4096];
	size_t n = 0;
	int fd;

	if (argc < 2) {
		fputs("usage: finit FILE [PARAM...]\n", stderr);
		return 2;
	}
	params[0] = '\0';
	for (int i = 2; i < argc; i++) {
		size_t l = strlen(argv[i]);

		if (n + l + 2 > sizeof(params)) {
			fputs("finit: parameters too long\n", stderr);
			return 2;
		}
		if (n)
			params[n++] = ' ';
		memcpy(params + n, argv[i], l + 1);
		n += l;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || syscall(SYS_finit_module, fd, params, MODULE_INIT_COMPRESSED_FILE) != 0) {
		fprintf(stderr, "finit: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	close(fd);
	return 0;
}
