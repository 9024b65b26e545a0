/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fio: the I/O benchmark, as a payload for the guest.
 *
 * The guest is a kernel, busybox and an /init; fio has to come along for
 * both guest architectures, and a static binary is the payload that needs
 * nothing else in the initramfs.  fio_obtain() builds one from Debian's fio
 * source package and caches it:
 *
 *	char *fio;
 *	if ((r = fio_obtain(ARCH_I386, logfile, &fio)) < 0)
 *		return r;			// ERR_ENV: a tool or package
 *	initramfs_add_file(&ir, "bin/fio", fio, 0755);
 *	free(fio);
 *
 * The version is the one `apt-get source --print-uris fio` would fetch (the
 * name of its .dsc, fio_3.33-3.dsc on bookworm), remembered until apt's
 * lists change (deb_memo_path), so a cache hit runs nothing.  On a miss, in
 * a cache transaction on "<cache>/fio/<version>_<arch>" (cache.h), in its
 * temporary directory:
 *
 *	gcc [-m32] -static probe.c        can this host link for the arch?
 *	apt-get source --download-only fio
 *	dpkg-source -x fio_<version>.dsc src
 *	./configure --build-static --disable-native --cc=gcc
 *	            --extra-cflags="[-m32] -ffile-prefix-map=<src>=fio-<version>"
 *	            [and LDFLAGS=-m32 in its environment]
 *	make -jN fio                      N = online CPUs
 *	strip -o fio src/fio
 *
 * then the binary is checked (an ELF of the arch's class and machine, with
 * no PT_INTERP and no DT_NEEDED: static) and the entry, holding only "fio",
 * renamed into place: about 25 s per arch on 2 cores, download included.
 * CFLAGS and LDFLAGS from our environment are not passed on (the cache key
 * is the version and the arch, nothing else), and the scratch directory's
 * name is mapped out of the binary, so two builds with the same compiler
 * and libc give the same bytes.  Optional libraries are used when
 * configure finds their static archives (zlib for x86_64 when zlib1g-dev
 * is installed; none for i386; no libaio, so no ioengine=libaio: io_uring,
 * psync and the rest need no library): see the build log's configure
 * summary.  All output of every step goes to log
 * (which must not be NULL); a failing step ends in error() with the log's
 * last lines.  What the host lacks (deb-src entries, dpkg-dev, gcc, the
 * 32-bit libc) ends in error_env() naming the fix, usually 'make deps'.
 *
 * fio_host_closure() is the alternative a measurement compares against: the
 * host's dynamically linked fio (Debian's package, x86_64 only) and every
 * file the dynamic loader would map to run it:
 *
 *	struct strvec files = STRVEC_INIT;
 *	if (fio_host_closure(NULL, &files) < 0) ...	// NULL: /usr/bin/fio
 *	// files.v[0] the program, [1] its PT_INTERP loader, then libraries
 *
 * It reads ELF files itself (no ldd, nothing executed): DT_NEEDED names are
 * looked up as the loader would, in the needing object's DT_RPATH and the
 * program's (only where there is no DT_RUNPATH), its DT_RUNPATH ($ORIGIN
 * expanded), then FIO_LIB_DIRS; a candidate of another class or machine is
 * skipped.  /etc/ld.so.cache and LD_LIBRARY_PATH are not consulted.  Paths
 * are returned as found (not resolved through symlinks, so they are the
 * paths the loader opens); two paths naming the same file count once.
 *
 * The parsers take buffers, for tests: fio_parse_print_uris() reads apt's
 * answer, and the ELF reader (guest/elf.h) an image in memory.
 */
#ifndef SCALETEST_FIO_H
#define SCALETEST_FIO_H

#include <stddef.h>

#include "lib/strbuf.h"
#include "lib/strvec.h"

#define FIO_HOST_PATH "/usr/bin/fio"
/* Where the closure looks last, in this order (x86_64 Debian). */
#define FIO_LIB_DIRS { "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", \
		       "/lib64", "/usr/lib64", "/lib", "/usr/lib", NULL }

/* arch: enum arch (scenario.h).  *path: malloc'd, inside the cache. */
int fio_obtain(int arch, const char *log, char **path);

/* Appends the program (fio, or FIO_HOST_PATH when NULL), its loader and
 * every library it needs, transitively, to files, as absolute paths. */
int fio_host_closure(const char *fio, struct strvec *files);

/*
 * Parsing `apt-get source --print-uris fio` (stdout and stderr):
 *	'http://.../fio_3.33-3.dsc' fio_3.33-3.dsc 2415 SHA256:c2f0...
 * gives *version "3.33-3" and *dsc "fio_3.33-3.dsc" (malloc'd), or one of
 * the failures below, with both left NULL.
 */
enum {
	FIO_SRC_OK = 0,
	FIO_SRC_BAD = -1,		/* no (sane) fio .dsc line */
	FIO_SRC_NO_DEB_SRC = -2,	/* "You must put some 'deb-src' URIs" */
	FIO_SRC_NOT_FOUND = -3,		/* "Unable to find a source package" */
};
int fio_parse_print_uris(const char *buf, char **version, char **dsc);
/* 0 if path is a static ELF program for arch, else error() saying why. */
int fio_check_static(const char *path, int arch);

#endif
