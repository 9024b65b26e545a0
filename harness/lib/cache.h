/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cache: where fetched packages, unpacked and built kernels, fio, initramfs
 * images and the accelerator verdict are kept between runs.
 *
 * The root is $SCALETEST_CACHE, else $XDG_CACHE_HOME/scaletest, else
 * ~/.cache/scaletest (HOME, or the user's home from the password database;
 * never a shared place such as /tmp).
 *
 * Trust.  The harness runs what it finds here (kernels, fio, make in
 * kernel work trees) and passes memo files to apt-get, so the cache must
 * be no one else's: cache_root() refuses (NULL, saying why and what to
 * do: the environment's failure, ERR_ENV) a root that another user owns or that its group or everyone may
 * write, or that lies in a directory another user may change; every entry
 * (and its seal) is checked the same way by cache_begin() before it is
 * used, and small files (memos, verdicts) are read with
 * cache_read_small(), which takes only a regular file of this user's,
 * never a link, of bounded size.  Seals check integrity, the owner check
 * origin; what a memo says is still validated by its reader.  Sharing one
 * cache between pipelines of one user (a CI cache) trusts each of them.
 * A dry run sets cache_set_readonly(1): nothing is created or written.
 *
 * An entry (a file or a directory) appears complete or
 * not at all: it is built under "<entry>.tmp-<pid>" and renamed into place,
 * while its builder holds "<entry>.lock", so concurrent harnesses wait for
 * each other and a harness killed mid-build leaves only a .tmp- that the
 * next builder removes.  One transaction does all of that:
 *
 *	char *entry = cache_path("debs/%s_%s", pkg, arch);
 *	struct cache_txn txn;
 *	int r = cache_begin(&txn, entry);	// waits for the lock
 *	if (r == 0 && (r = build_into(txn.tmp)) == 0)	// not there: build it
 *		r = cache_commit(&txn);		// (a failure keeps its class)
 *	if (r >= 0)				// there, or built now
 *		... use entry (the lock is still held) ...
 *	cache_end(&txn);			// removes txn.tmp if uncommitted,
 *						// unlocks
 *
 * cache_commit() seals the entry (lib/seal.h: every file's size and SHA-256,
 * kept beside it as ".<entry name>.seal"), and cache_begin() checks the
 * seal of an entry it finds: one damaged since (truncated, overwritten, a
 * file gone) is said, removed and built again, never used.  An entry
 * without a seal (made by an older scaletest) is sealed as it is found.
 * A work tree that its user changes after the commit (kbuild's source)
 * is begun with cache_begin_unsealed() instead.
 *
 * cache_begin() and cache_commit() mark the entry as just used (its mtime),
 * for cache_prune(), which keeps the most recently used entries of a
 * directory.  cache_lock() alone serialises work that is not one entry
 * (kbuild's work tree).  cache list / cache clean see entries through
 * cache_is_entry() and remove them with cache_remove_entry(), which never
 * pulls an entry or its .tmp- from under a harness that holds its lock.
 */
#ifndef SCALETEST_CACHE_H
#define SCALETEST_CACHE_H

#include <stddef.h>

#include "lib/strbuf.h"

/* The root, checked (and made) once: NULL (said) when there is no place
 * for it or it cannot be trusted; the caller's failure is then ERR_ENV. */
const char *cache_root(void);
/* Dry runs: cache_path() creates no directory, cache_write_small() writes
 * nothing, and a missing root is not made. */
void cache_set_readonly(int ro);
/* Whether it is: kernel/apt.c then takes the lists there are, fetching none. */
int cache_readonly(void);
/* The entry or file at path is not a link, is this user's and writable by
 * no one else: 0, or -1 (said). */
int cache_check_owner(const char *path);
/* A small cache file (a memo, a verdict) into sb, if it is a regular file
 * of this user's, writable by no one else, of at most max bytes: 0, or -1
 * (missing: silently; anything else: with a warning).  Its text is still
 * untrusted: validate it. */
int cache_read_small(const char *path, struct strbuf *sb, size_t max);
/* Write a small cache file (atomically); nothing when read-only.  0 or -1. */
int cache_write_small(const char *path, const char *text);
/* malloc'd "<root>/<fmt...>"; creates the parent directory (not in a
 * dry run).  NULL (said) when the cache cannot be used or the directory
 * made: the caller returns ERR_ENV. */
char *cache_path(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* <root>/logs, created; malloc'd, or NULL as cache_path(). */
char *cache_log_dir(void);

struct cache_lock {
	int fd;			/* -1 when not held */
};

struct cache_txn {
	char *entry;		/* the entry's path */
	char *tmp;		/* build here; NULL once committed */
	struct cache_lock lk;
	int sealed;		/* checked at begin, sealed at commit */
};
#define CACHE_TXN_INIT { NULL, NULL, { -1 }, 0 }	/* cache_end() on it does nothing */
/* Lock entry, waiting while another harness holds it.  1: the entry is
 * there (touched); 0: it is not, build it at t->tmp, where nothing is (what
 * a dead builder left is removed); -1: error (said).  cache_end() follows
 * whatever this returned. */
int cache_begin(struct cache_txn *t, const char *entry);
/* The same for an entry that changes after its commit: no seal. */
int cache_begin_unsealed(struct cache_txn *t, const char *entry);
/* Where entry's seal is kept; malloc'd. */
char *cache_seal_path(const char *entry);
/* Seal t->tmp (unless begun unsealed), rename it to the entry and touch
 * it: 0, or -1 (said). */
int cache_commit(struct cache_txn *t);
/* Remove t->tmp unless it was committed, and unlock. */
void cache_end(struct cache_txn *t);

/* The entry's lock on its own: 0 locked (waits), -1 error (said). */
int cache_lock(struct cache_lock *lk, const char *entry);
void cache_unlock(struct cache_lock *lk);
/* Mark entry as just used (its mtime), for cache_prune. */
void cache_touch(const char *entry);
/* Keep the keep most recently used entries of dir; remove the others that
 * no harness holds locked, saying so ("removed the least recently used
 * <what> <name>"). */
void cache_prune(const char *dir, int keep, const char *what);
/* A name in a cache directory that is an entry (not a lock, not a build
 * in progress, not hidden). */
int cache_is_entry(const char *name);
/* Remove the entry (and its seal) or a "<entry>.tmp-<pid>" at path unless
 * a harness holds the entry's lock: 1 removed, 0 in use, -1 error (said). */
int cache_remove_entry(const char *path);

#endif
