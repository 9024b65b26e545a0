/* SPDX-License-Identifier: Apache-2.0 */
/*
 * initramfs: a newc cpio archive built from a list of entries, without root
 * and without mknod (libarchive writes device nodes as headers).
 *
 * The archive is cached by content: its name is the SHA-256 of every
 * entry's name, type, mode and bytes, so the same inputs give the same
 * file, and a second run with the same kernel and scenario reuses it.  The
 * file is written and renamed into place in one cache transaction (cache.h);
 * the INITRAMFS_KEEP most recently used archives are kept.
 *
 *	struct initramfs ir = INITRAMFS_INIT;
 *	initramfs_add_dir(&ir, "bin", 0755);
 *	initramfs_add_file(&ir, "bin/busybox", "/path/busybox", 0755);
 *	initramfs_add_data(&ir, "etc/x.conf", text, len, 0644);
 *	initramfs_add_chardev(&ir, "dev/console", 5, 1, 0600);
 *	char *path; int hit;
 *	initramfs_build_cached(&ir, &path, &hit);	// cache/initramfs/<hash>.cpio
 *	initramfs_release(&ir);
 *
 * Compression: none by default, gzip on request (INITRAMFS_GZIP); see
 * docs/measurements.md ("Initramfs compression") for the measurement
 * behind the default.
 */
#ifndef SCALETEST_INITRAMFS_H
#define SCALETEST_INITRAMFS_H

#include <stddef.h>
#include <sys/types.h>

#include "scenario/keys.h"	/* enum initramfs_compress, the scenario's key */

/* How many archives the cache keeps (least recently used go first). */
#define INITRAMFS_KEEP 24

struct initramfs_entry {
	char *name;		/* relative, no leading '/' */
	int type;		/* 'f' file, 'd' directory, 'c' char device */
	mode_t mode;
	char *src;		/* 'f' from a file ... */
	char *data;		/* ... or from memory */
	size_t len;
	unsigned major, minor;	/* 'c' */
};

struct initramfs {
	struct initramfs_entry *e;
	size_t n, alloc;
	int compress;		/* enum initramfs_compress */
};
#define INITRAMFS_INIT { NULL, 0, 0, INITRAMFS_NONE }

void initramfs_add_dir(struct initramfs *ir, const char *name, mode_t mode);
void initramfs_add_file(struct initramfs *ir, const char *name, const char *src,
			mode_t mode);
void initramfs_add_data(struct initramfs *ir, const char *name, const char *data,
			size_t len, mode_t mode);
void initramfs_add_chardev(struct initramfs *ir, const char *name,
			   unsigned major, unsigned minor, mode_t mode);
int initramfs_hash(const struct initramfs *ir, char out[65]);
int initramfs_write(const struct initramfs *ir, const char *path);
int initramfs_build_cached(const struct initramfs *ir, char **path, int *hit);
void initramfs_release(struct initramfs *ir);

#endif
