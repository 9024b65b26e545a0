// SPDX-License-Identifier: Apache-2.0
/*
 * mkcpio: a newc cpio archive of host files at chosen archive paths,
 * written by the harness's own writer (guest/initramfs.c, libarchive).
 *
 * The benchmarks append such an archive to the harness's initramfs: the
 * kernel unpacks both in order and a later entry replaces an earlier one,
 * so the guest boots the same kernel, modules and busybox with another
 * /init or an extra payload, and the host needs no cpio of its own.
 *
 *	build/bench/mkcpio OUT NAME=SRC...
 *
 * NAME is the path in the archive (leading '/' dropped), SRC a host file,
 * read through symlinks; the entry keeps SRC's permission bits.  Every
 * parent directory of NAME gets an entry of its own (the kernel's unpacker
 * creates no missing parents).  OUT is written under a temporary name and
 * renamed into place.  Exit status: 0 written, 1 failed, 2 bad usage (a
 * malformed argument, or a SRC that is not a regular file).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest/initramfs.h"
#include "lib/util.h"

static const char usage_text[] = "usage: mkcpio OUT NAME=SRC...\n";

static int has_entry(const struct initramfs *ir, const char *name)
{
	for (size_t i = 0; i < ir->n; i++)
		if (!strcmp(ir->e[i].name, name))
			return 1;
	return 0;
}

/* Entries for every parent of name ("a/b/c" gives "a" and "a/b"). */
static void add_parents(struct initramfs *ir, const char *name)
{
	for (const char *p = strchr(name, '/'); p; p = strchr(p + 1, '/')) {
		char *dir = xstrndup(name, (size_t)(p - name));

		if (!has_entry(ir, dir))
			initramfs_add_dir(ir, dir, 0755);
		free(dir);
	}
}

static int add_arg(struct initramfs *ir, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct stat st;
	char *name;
	int ok = 0;

	if (!eq || eq == arg || !eq[1])
		return error("'%s' is not NAME=SRC", arg);
	while (*arg == '/')
		arg++;
	name = xstrndup(arg, (size_t)(eq - arg));
	if (!*name || name[strlen(name) - 1] == '/' || strstr(name, "//")) {
		error("bad archive path '%s'", name);
		free(name);
		return -1;
	}
	if (has_entry(ir, name)) {
		error("'%s' named twice", name);
		free(name);
		return -1;
	}
	if (stat(eq + 1, &st) < 0)
		error_errno("cannot stat '%s'", eq + 1);
	else if (!S_ISREG(st.st_mode))
		error("'%s' is not a regular file", eq + 1);
	else
		ok = 1;
	if (!ok) {
		free(name);
		return -1;
	}
	add_parents(ir, name);
	initramfs_add_file(ir, name, eq + 1, st.st_mode & 07777);
	free(name);
	return 0;
}

int main(int argc, char **argv)
{
	struct initramfs ir = INITRAMFS_INIT;
	char *tmp;
	int ret = EXIT_OK;

	progname = "mkcpio";
	if (argc < 3 || argv[1][0] == '-') {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	for (int i = 2; i < argc; i++)
		if (add_arg(&ir, argv[i]) < 0) {
			initramfs_release(&ir);
			return EXIT_USAGE;
		}
	tmp = xstrfmt("%s.tmp", argv[1]);
	if (initramfs_write(&ir, tmp) < 0) {
		unlink(tmp);
		ret = EXIT_RUNFAIL;
	} else if (rename(tmp, argv[1]) < 0) {
		error_errno("cannot rename '%s' to '%s'", tmp, argv[1]);
		unlink(tmp);
		ret = EXIT_RUNFAIL;
	}
	free(tmp);
	initramfs_release(&ir);
	return ret;
}
