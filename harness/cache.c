#include "cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "util.h"

const char *cache_root(void)
{
	static char *root;
	const char *e;

	if (root)
		return root;
	if ((e = getenv("SCALETEST_CACHE")) && *e)
		root = absolute_path(e);
	else if ((e = getenv("XDG_CACHE_HOME")) && *e)
		root = xstrfmt("%s/scaletest", e);
	else if ((e = getenv("HOME")) && *e)
		root = xstrfmt("%s/.cache/scaletest", e);
	else
		root = xstrdup("/tmp/scaletest-cache");
	return root;
}

char *cache_path(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	char *slash;

	sb_addf(&sb, "%s/", cache_root());
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	slash = strrchr(sb.buf, '/');
	*slash = '\0';
	if (mkdir_p(sb.buf, 0755) < 0)
		die("cannot create the cache directory '%s'", sb.buf);
	*slash = '/';
	return sb_detach(&sb, NULL);
}

int cache_lock(struct cache_lock *lk, const char *entry)
{
	char *path = xstrfmt("%s.lock", entry);

	lk->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lk->fd < 0) {
		error_errno("cannot open '%s'", path);
		free(path);
		return -1;
	}
	while (flock(lk->fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
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

char *cache_tmp(const char *entry)
{
	char *dir = xstrdup(entry);
	char *slash = strrchr(dir, '/');
	char *prefix = xstrfmt("%s.tmp-", slash + 1);
	DIR *d;
	struct dirent *de;

	/* The caller holds the lock, so any temporary left here belongs to
	 * a harness that died while building: remove it. */
	*slash = '\0';
	if ((d = opendir(dir))) {
		while ((de = readdir(d)))
			if (!strncmp(de->d_name, prefix, strlen(prefix))) {
				char *old = xstrfmt("%s/%s", dir, de->d_name);
				remove_tree(old);
				free(old);
			}
		closedir(d);
	}
	free(prefix);
	free(dir);
	return xstrfmt("%s.tmp-%ld", entry, (long)getpid());
}

int cache_commit(const char *tmp, const char *entry)
{
	if (rename(tmp, entry) < 0)
		return error_errno("cannot rename '%s' to '%s'", tmp, entry);
	return 0;
}
