/* SPDX-License-Identifier: Apache-2.0 */
/*
 * modfile: a kernel module file, as the guest's busybox insmod loads it.
 *
 * Kernels ship modules as .ko, or compressed (CONFIG_MODULE_COMPRESS_*)
 * as .ko.xz, .ko.zst or .ko.gz: Debian's 6.12 kernels, for one, ship
 * .ko.xz.  busybox insmod hands the file's bytes to init_module as they
 * are, so a compressed module is decompressed on the host, with
 * libarchive's xz, zstd and gzip readers (the library that also writes the
 * initramfs), into the cached initramfs under its name without the
 * suffix (docs/kernels.md, "Modules as kernels ship them":
 * why not in the guest).
 *
 *	struct strbuf ko = STRBUF_INIT;
 *	if (modfile_read("/x/kernel/sd_mod.ko.xz", &ko, &err) < 0) ...
 *	char *name = modfile_plain_name("kernel/sd_mod.ko.xz");	// "kernel/sd_mod.ko"
 *
 * What it refuses, each with the file named and what to do in err:
 *   - a suffix after .ko that is none of those three (the kernel's own
 *     loader reads no other either);
 *   - a compressed file that does not decompress (damaged, or another
 *     format behind the suffix), or decompresses to more than
 *     MODFILE_MAX bytes;
 *   - a compressed file with a module signature appended to it
 *     ("~Module signature appended~" at its end): the kernel checks the
 *     signature of the decompressed module, so the signature must be
 *     appended before compressing, as modules_install does;
 *   - a result that is not an ELF file.
 */
#ifndef SCALETEST_MODFILE_H
#define SCALETEST_MODFILE_H

#include <stddef.h>

#include "lib/strbuf.h"

/* The largest module accepted, decompressed (the largest in Debian's 6.12
 * tree is about 13 MiB). */
#define MODFILE_MAX (256u << 20)

enum modfile_comp { MODFILE_NONE, MODFILE_XZ, MODFILE_ZSTD, MODFILE_GZIP,
		    MODFILE_UNKNOWN };

/* What the name says: MODFILE_NONE for "x.ko", MODFILE_XZ for "x.ko.xz",
 * MODFILE_UNKNOWN for "x.ko.bz2" (and for a name with no ".ko"). */
enum modfile_comp modfile_compression(const char *path);
/* "xz", "zstd", "gzip", "none", "unknown". */
const char *modfile_comp_name(enum modfile_comp c);
/* The name without the compression suffix; malloc'd. */
char *modfile_plain_name(const char *path);

/* The module's bytes, decompressed, appended to out: 0, or -1 with why in
 * err (which names path). */
int modfile_read(const char *path, struct strbuf *out, struct strbuf *err);
/* The same from bytes already read (for tests and the fuzzer): comp from
 * the name, what is the name to put in messages. */
int modfile_decode(const unsigned char *buf, size_t len, enum modfile_comp comp,
		   const char *what, struct strbuf *out, struct strbuf *err);

#endif
