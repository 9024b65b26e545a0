// SPDX-License-Identifier: Apache-2.0
#include "lib/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/child.h"
#include "lib/seal.h"
#include "lib/util.h"

static int cache_ro;

void cache_set_readonly(int ro)
{
	cache_ro = ro;
}

int cache_readonly(void)
{
	return cache_ro;
}

/* Why st (of path) is not this user's own to trust, or NULL: a directory
 * or file of another user, or one that the group or everyone may write. */
static const char *untrusted(const struct stat *st)
{
	if (st->st_uid != geteuid())
		return "owned by another user";
	if (st->st_mode & S_IWOTH)
		return "writable by everyone";
	if (st->st_mode & S_IWGRP)
		return "writable by its group";
	return NULL;
}

/* The directories above the root: another user who may rename or replace
 * one could swap the cache under us.  Each must be root's or this
 * user's, and writable by no one else unless sticky (/tmp).  Each is
 * looked at itself (lstat): a symbolic link on the way (the root itself,
 * HOME/.cache) is as good as its owner, who may point it elsewhere at any
 * time, so one of another user's is refused, naming it; and since a link
 * leads through directories its path does not name, those of the real
 * path are held to the same rule. */
static int check_one(const char *root, const char *p, int as_dir)
{
	struct stat st;

	if (lstat(p, &st) < 0)
		return 0;	/* not there (yet): nothing to judge */
	if (S_ISLNK(st.st_mode)) {
		if (st.st_uid != 0 && st.st_uid != geteuid())
			return error_env("the cache '%s' lies behind '%s', a symbolic link owned by "
					 "another user (uid %lu), who may point it elsewhere: set "
					 "SCALETEST_CACHE to a directory of your own", root, p,
					 (unsigned long)st.st_uid);
	} else if (as_dir && ((st.st_uid != 0 && st.st_uid != geteuid()) ||
			      ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)))) {
		return error_env("the cache '%s' lies in '%s', which another user may change "
				 "(owner uid %lu, mode %03o): set SCALETEST_CACHE to a "
				 "directory of your own", root, p, (unsigned long)st.st_uid,
				 (unsigned)(st.st_mode & 07777));
	}
	return 0;
}

/* path (as a directory above the root with self_as_dir, else only if it
 * is a link) and every directory above it. */
static int check_path(const char *root, const char *path, int self_as_dir)
{
	char *p = xstrdup(path), *slash;
	int r = check_one(root, path, self_as_dir);

	while (!r && (slash = strrchr(p, '/'))) {
		int top = slash == p;

		slash[top] = '\0';
		r = check_one(root, p, 1);
		if (top)
			break;
	}
	free(p);
	return r;
}

static int check_ancestors(const char *root)
{
	char *real = NULL, *p = xstrdup(root), *slash;
	int r = check_path(root, root, 0);

	/* The real path of root, or of the nearest ancestor there is (a
	 * dry run's root need not exist), and the directories above it. */
	while (!r && !(real = realpath(p, NULL)) && (slash = strrchr(p, '/')) && slash != p)
		*slash = '\0';
	if (!r && real && strcmp(real, p))
		r = check_path(root, real, strcmp(p, root) != 0);
	free(real);
	free(p);
	return r;
}

/* The root is this user's, writable by no one else, and so are the
 * directories above it: otherwise what is in it could be anyone's, and
 * the harness runs what it finds there (kernels, fio, make in work trees).
 * Made (0755) if missing, unless read-only (a dry run). */
static int check_root(const char *root)
{
	struct stat st;
	const char *why;

	if (stat(root, &st) < 0) {
		int a;

		if (errno != ENOENT)
			return error_env("cannot stat the cache '%s': %s", root, strerror(errno));
		/* before anything is made through a link of another user's */
		if ((a = check_ancestors(root)) < 0 || cache_ro)
			return a;
		if (mkdir_p(root, 0755) < 0 || stat(root, &st) < 0)
			return error_env("cannot create the cache directory '%s'", root);
	}
	if (!S_ISDIR(st.st_mode))
		return error_env("the cache '%s' is not a directory", root);
	if ((why = untrusted(&st)))
		return error_env("the cache '%s' is %s (owner uid %lu, mode %03o): what is in it "
				 "could be anyone's, so it is not used; 'chmod go-w' it if it is "
				 "yours, or set SCALETEST_CACHE to a directory of your own", root, why,
				 (unsigned long)st.st_uid, (unsigned)(st.st_mode & 07777));
	return check_ancestors(root);
}

const char *cache_root(void)
{
	static char *root;
	const char *e;
	struct passwd *pw;
	char *r;

	if (root)
		return root;
	if ((e = getenv("SCALETEST_CACHE")) && *e)
		r = xstrdup(e);
	else if ((e = getenv("XDG_CACHE_HOME")) && *e)
		r = xstrfmt("%s/scaletest", e);
	else if ((e = getenv("HOME")) && *e)
		r = xstrfmt("%s/.cache/scaletest", e);
	else if ((pw = getpwuid(geteuid())) && pw->pw_dir && pw->pw_dir[0] == '/')
		r = xstrfmt("%s/.cache/scaletest", pw->pw_dir);
	else {
		error_env("no place for the cache: HOME is not set and user %lu has no home "
			  "directory; set SCALETEST_CACHE to a directory of your own",
			  (unsigned long)geteuid());
		return NULL;
	}
	/* A relative one (SCALETEST_CACHE, XDG_CACHE_HOME or HOME): from here. */
	if (r[0] != '/') {
		char *abs = absolute_path(r);

		if (!abs) {
			error_env("cannot place the cache '%s': %s", r, strerror(errno));
			free(r);
			return NULL;
		}
		free(r);
		r = abs;
	}
	if (check_root(r) < 0) {
		free(r);
		return NULL;
	}
	return root = r;
}

char *cache_path(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	const char *root = cache_root();
	va_list ap;
	char *slash;

	if (!root)
		return NULL;
	sb_addf(&sb, "%s/", root);
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (cache_ro)
		return sb_detach(&sb, NULL);
	slash = strrchr(sb.buf, '/');
	*slash = '\0';
	if (mkdir_p(sb.buf, 0755) < 0) {	/* said */
		sb_release(&sb);
		return NULL;
	}
	*slash = '/';
	return sb_detach(&sb, NULL);
}

int cache_check_owner(const char *path)
{
	struct stat st;
	const char *why;

	if (lstat(path, &st) < 0)
		return error_errno("cannot stat '%s'", path);
	if (S_ISLNK(st.st_mode))
		return error("cache entry '%s' is a symbolic link: not used", path);
	if ((why = untrusted(&st)))
		return error("cache entry '%s' is %s (owner uid %lu, mode %03o): not used", path,
			     why, (unsigned long)st.st_uid, (unsigned)(st.st_mode & 07777));
	return 0;
}

int cache_read_small(const char *path, struct strbuf *sb, size_t max)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	int r = -1;

	if (fd < 0)
		return -1;	/* none: the caller makes it */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || untrusted(&st) ||
	    (size_t)st.st_size > max)
		warning("cache file '%s' is not a small regular file of this user's, writable "
			"by no one else: not used", path);
	else
		r = sb_read_fd_max(sb, fd, max);
	close(fd);
	return r;
}

int cache_write_small(const char *path, const char *text)
{
	if (cache_ro)
		return 0;
	return write_file_atomic(path, text, strlen(text));
}

int cache_lock(struct cache_lock *lk, const char *entry)
{
	char *path = xstrfmt("%s.lock", entry);

	lk->fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (lk->fd < 0) {
		error_errno("cannot open '%s'", path);
		free(path);
		return -1;
	}
	while (flock(lk->fd, LOCK_EX) < 0) {
		/* A stop signal interrupts the wait: give up rather than wait
		 * on for another harness's build. */
		if (errno != EINTR || child_interrupted()) {
			if (errno == EINTR)
				error("interrupted while waiting for the lock '%s'", path);
			else
				error_errno("cannot lock '%s'", path);
			close(lk->fd);
			lk->fd = -1;
			free(path);
			return -1;
		}
	}
	free(path);
	return 0;
}

void cache_unlock(struct cache_lock *lk)
{
	if (lk->fd >= 0)
		close(lk->fd);
	lk->fd = -1;
}

static int cache_trylock(struct cache_lock *lk, const char *entry)
{
	char *path = xstrfmt("%s.lock", entry);

	lk->fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	free(path);
	if (lk->fd < 0)
		return -1;
	if (flock(lk->fd, LOCK_EX | LOCK_NB) < 0) {
		close(lk->fd);
		lk->fd = -1;
		return errno == EWOULDBLOCK ? 0 : -1;
	}
	return 1;
}

char *cache_log_dir(void)
{
	char *p = cache_path("logs/x");

	if (p)
		*strrchr(p, '/') = '\0';
	return p;
}

void cache_touch(const char *entry)
{
	utimensat(AT_FDCWD, entry, NULL, 0);
}

int cache_is_entry(const char *name)
{
	size_t l = strlen(name);

	return name[0] != '.' && !strstr(name, ".tmp-") &&
	       !(l > 5 && !strcmp(name + l - 5, ".lock"));
}

int cache_remove_entry(const char *path)
{
	/* "<entry>.tmp-<pid>" is guarded by its entry's lock, which its
	 * builder holds while it builds. */
	char *entry = xstrdup(path), *slash = strrchr(entry, '/');
	char *tmp = strstr(slash ? slash : entry, ".tmp-");
	struct cache_lock lk;
	int got, r;

	if (tmp)
		*tmp = '\0';
	got = cache_trylock(&lk, entry);
	if (got < 0)
		error_errno("cannot lock '%s'", entry);
	if (got != 1) {
		free(entry);
		return got;
	}
	r = remove_tree(path) < 0 ? -1 : 1;
	if (!tmp) {
		char *lock = xstrfmt("%s.lock", entry);
		char *seal = cache_seal_path(entry);
		unlink(seal);
		unlink(lock);
		free(seal);
		free(lock);
	}
	cache_unlock(&lk);
	free(entry);
	return r;
}

struct aged {
	char *name;
	struct timespec t;
};

static int newest_first(const void *a, const void *b)
{
	const struct aged *x = a, *y = b;

	if (x->t.tv_sec != y->t.tv_sec)
		return x->t.tv_sec < y->t.tv_sec ? 1 : -1;
	return (x->t.tv_nsec < y->t.tv_nsec) - (x->t.tv_nsec > y->t.tv_nsec);
}

void cache_prune(const char *dir, int keep, const char *what)
{
	struct aged *e = NULL;
	size_t n = 0, alloc = 0;
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;
		char *p;

		if (!cache_is_entry(de->d_name))
			continue;
		p = xstrfmt("%s/%s", dir, de->d_name);
		if (lstat(p, &st) == 0) {
			ALLOC_GROW(e, n + 1, alloc);
			e[n].name = xstrdup(de->d_name);
			e[n].t = st.st_mtim;
			n++;
		}
		free(p);
	}
	closedir(d);
	if (n)
		qsort(e, n, sizeof(*e), newest_first);
	for (size_t i = 0; i < n; i++) {
		if ((int)i >= keep) {
			char *p = xstrfmt("%s/%s", dir, e[i].name);

			/* Never pull an entry from under another harness. */
			if (cache_remove_entry(p) == 1)
				note("cache: removed the least recently used %s %s (keeping %d)",
				     what, e[i].name, keep);
			free(p);
		}
		free(e[i].name);
	}
	free(e);
}

/* Remove every "<entry>.tmp-*" next to entry: with the entry's lock held,
 * they belong to harnesses that died while building it. */
static void remove_stale_tmps(const char *entry)
{
	char *dir = xstrdup(entry);
	char *slash = strrchr(dir, '/');
	char *prefix = xstrfmt("%s.tmp-", slash + 1);
	size_t plen = strlen(prefix);
	DIR *d;
	struct dirent *de;

	*slash = '\0';
	if ((d = opendir(dir))) {
		while ((de = readdir(d)))
			if (!strncmp(de->d_name, prefix, plen)) {
				char *old = xstrfmt("%s/%s", dir, de->d_name);
				remove_tree(old);
				free(old);
			}
		closedir(d);
	}
	free(prefix);
	free(dir);
}

char *cache_seal_path(const char *entry)
{
	const char *slash = strrchr(entry, '/');

	if (!slash)
		return xstrfmt(".%s.seal", entry);
	return xstrfmt("%.*s/.%s.seal", (int)(slash - entry), entry, slash + 1);
}

/* The entry is there: 1 if it can be used (sealed now if it had no seal),
 * 0 if it was damaged and is gone, -1 if it could not be removed. */
static int check_entry(const char *entry)
{
	char *seal = cache_seal_path(entry);
	struct strbuf why = STRBUF_INIT;
	int r = 1;

	switch (seal_check(entry, seal, &why)) {
	case SEAL_INTACT:
		break;
	case SEAL_MISSING:
		note("cache: sealing %s (made without a seal)", entry);
		if (seal_write(entry, seal) < 0)
			warning("cache: '%s' stays unsealed", entry);
		break;
	case SEAL_DAMAGED:
		warning("cache entry '%s' is damaged (%s): building it again", entry, why.buf);
		unlink(seal);
		r = remove_tree(entry) < 0 ? -1 : 0;
		break;
	}
	sb_release(&why);
	free(seal);
	return r;
}

static void no_write_by_others(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0 && !S_ISLNK(st.st_mode) && (st.st_mode & (S_IWGRP | S_IWOTH)))
		chmod(path, st.st_mode & 07755);
}

static int begin(struct cache_txn *t, const char *entry, int sealed)
{
	int got = 0;

	t->entry = NULL;
	t->tmp = NULL;
	t->lk.fd = -1;
	t->sealed = sealed;
	if (!strrchr(entry, '/'))
		return error("cache entry '%s' is not a path", entry);
	if (cache_lock(&t->lk, entry) < 0)
		return -1;
	t->entry = xstrdup(entry);
	if (path_exists(entry)) {
		/* Ours, and no one else's to change, or not used at all. */
		char *seal = cache_seal_path(entry);

		if (cache_check_owner(entry) < 0 || (path_exists(seal) && cache_check_owner(seal) < 0))
			got = error("remove it with 'scaletest cache clean', or set SCALETEST_CACHE "
				    "to a directory of your own");
		else
			got = sealed ? check_entry(entry) : 1;
		free(seal);
	}
	if (got < 0)
		return -1;
	if (got) {
		cache_touch(entry);
		return 1;
	}
	remove_stale_tmps(entry);
	t->tmp = xstrfmt("%s.tmp-%ld", entry, (long)getpid());
	return 0;
}

int cache_begin(struct cache_txn *t, const char *entry)
{
	return begin(t, entry, 1);
}

int cache_begin_unsealed(struct cache_txn *t, const char *entry)
{
	return begin(t, entry, 0);
}

int cache_commit(struct cache_txn *t)
{
	if (!t->tmp || !t->entry)
		return error("cache: nothing to commit");
	if (t->sealed) {
		char *seal = cache_seal_path(t->entry);
		int r = seal_write(t->tmp, seal);

		free(seal);
		if (r < 0)
			return -1;
	}
	/* Writable by no one else, whatever the umask: begin() checks. */
	no_write_by_others(t->tmp);
	if (rename(t->tmp, t->entry) < 0)
		return error_errno("cannot rename '%s' to '%s'", t->tmp, t->entry);
	free(t->tmp);
	t->tmp = NULL;
	cache_touch(t->entry);
	return 0;
}

void cache_end(struct cache_txn *t)
{
	if (t->tmp)
		remove_tree(t->tmp);
	cache_unlock(&t->lk);
	free(t->tmp);
	free(t->entry);
	t->tmp = NULL;
	t->entry = NULL;
}
