/*
 * cache: where fetched packages, unpacked kernels, initramfs images and the
 * accelerator verdict are kept between runs.
 *
 * The root is $SCALETEST_CACHE, else $XDG_CACHE_HOME/scaletest, else
 * ~/.cache/scaletest.  An entry is a directory or file that appears
 * complete or not at all: it is built under "<entry>.tmp-<pid>" and renamed
 * into place, and concurrent harnesses serialise on "<entry>.lock".
 *
 *	char *dir = cache_path("debs/%s_%s", pkg, arch);
 *	struct cache_lock lk;
 *	cache_lock(&lk, dir);			// blocks while another builds it
 *	if (!path_exists(dir)) {
 *		char *tmp = cache_tmp(dir);	// "<dir>.tmp-<pid>", removed if stale
 *		... build into tmp ...
 *		cache_commit(tmp, dir);		// rename
 *	}
 *	cache_unlock(&lk);
 */
#ifndef SCALETEST_CACHE_H
#define SCALETEST_CACHE_H

const char *cache_root(void);
/* malloc'd "<root>/<fmt...>"; creates the parent directory. */
char *cache_path(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct cache_lock {
	int fd;
};
int cache_lock(struct cache_lock *lk, const char *entry);
void cache_unlock(struct cache_lock *lk);
/* 1 locked, 0 someone else holds it, -1 error. */
int cache_trylock(struct cache_lock *lk, const char *entry);
/* Mark entry as just used (its mtime), for cache_prune. */
void cache_touch(const char *entry);
/* Keep the keep most recently used entries of dir; remove the others that
 * no harness holds locked, saying so. */
void cache_prune(const char *dir, int keep, const char *what);
/* A name in a cache directory that is an entry (not a lock, not a build
 * in progress, not hidden). */
int cache_is_entry(const char *name);
/* Remove the entry (or a "<entry>.tmp-<pid>") at path unless a harness
 * holds the entry's lock: 1 removed, 0 in use, -1 error (said). */
int cache_remove_entry(const char *path);
/* <root>/logs, created. */
char *cache_log_dir(void);
/* A fresh temporary name next to entry (any old one is removed). */
char *cache_tmp(const char *entry);
int cache_commit(const char *tmp, const char *entry);

#endif
