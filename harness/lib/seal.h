/* SPDX-License-Identifier: Apache-2.0 */
/*
 * seal: what a cache entry held when it was made, so that an entry damaged
 * since (truncated, overwritten, a file lost) is found before it is booted.
 *
 * A seal is a text file listing every regular file and symbolic link of
 * an entry (a single file, or a directory tree), sorted by path:
 *
 *	scaletest-seal 1
 *	f SIZE SHA256 INO MTIME CTIME PATH	a regular file
 *	l 0 SHA256 0 0.0 0.0 PATH		a link; SHA256 of its target
 *
 * PATH is relative to the entry, "." when the entry is a file; MTIME and
 * CTIME are "seconds.nanoseconds".  seal_check() compares an entry with its
 * seal: a file missing or of another type, another size, or contents whose
 * SHA-256 differs make the entry damaged.  Files added since are ignored.
 *
 * Hashing every file each time would cost seconds for an unpacked kernel
 * (400 MB of modules), so inside a directory a file whose inode, mtime and
 * ctime are still the seal's is taken as unchanged: a write through the
 * file system moves its ctime, which nothing can set back.  Only the
 * others are hashed (a copied cache, once), and when their contents match,
 * the seal takes their new stamps.  An entry that is a single file is
 * hashed every time (the cache touches its mtime at each use).  A bit
 * flipped beneath the file system, stamps unchanged, is not looked for.
 *
 *	if (seal_write(tmp, seal) < 0) ...	// before tmp is renamed into place
 *	switch (seal_check(entry, seal, &why)) {
 *	case SEAL_INTACT: ...			// use it
 *	case SEAL_DAMAGED: ...			// why.buf: what differs; build again
 *	case SEAL_MISSING: ...			// made without a seal
 *	}
 */
#ifndef SCALETEST_SEAL_H
#define SCALETEST_SEAL_H

#include "lib/strbuf.h"

enum seal_state {
	SEAL_INTACT,
	SEAL_DAMAGED,	/* why says what differs, naming the file */
	SEAL_MISSING,	/* no seal file */
};

/* Seal the entry at root (a file or a directory) into the file seal,
 * written atomically: 0, or -1 (said). */
int seal_write(const char *root, const char *seal);
/* root against its seal; may rewrite the seal with new stamps (above). */
enum seal_state seal_check(const char *root, const char *seal, struct strbuf *why);

#endif
