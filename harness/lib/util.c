// SPDX-License-Identifier: Apache-2.0
#include "lib/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *progname = "scaletest";
int util_quiet;
void (*util_before_message)(void);

static void vreport(const char *prefix, const char *fmt, va_list ap, int err)
{
	struct strbuf sb = STRBUF_INIT, msg = STRBUF_INIT;

	sb_addf(&sb, "%s: %s", progname, prefix);
	/* Messages quote names and text from elsewhere (a directory name, a
	 * guest's string): no terminal escape or bidi control reaches stderr. */
	sb_vaddf(&msg, fmt, ap);
	sb_add_clean(&sb, msg.buf, msg.len, 1);
	sb_release(&msg);
	if (err)
		sb_addf(&sb, ": %s", strerror(err));
	sb_addch(&sb, '\n');
	if (util_before_message)
		util_before_message();
	(void)write_all(2, sb.buf, sb.len);
	sb_release(&sb);
}

/* The body of a message function that --quiet silences: PREFIX, the
 * message from the caller's arguments after fmt, and strerror(ERR) when
 * ERR is not 0. */
#define REPORT_UNLESS_QUIET(prefix, fmt, err) do { \
	va_list ap_; \
	if (!util_quiet) { \
		va_start(ap_, fmt); \
		vreport(prefix, fmt, ap_, err); \
		va_end(ap_); \
	} \
} while (0)

int exit_code(int r)
{
	if (r >= 0)
		return EXIT_OK;
	return r == ERR_ENV ? EXIT_ENV : r == ERR_USAGE ? EXIT_USAGE : EXIT_RUNFAIL;
}

int err_worse(int a, int b)
{
	return exit_code(a) >= exit_code(b) ? a : b;
}

void bug(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("BUG: ", fmt, ap, 0);
	va_end(ap);
	abort();
}

int error(const char *fmt, ...)
{
	REPORT_UNLESS_QUIET("", fmt, 0);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	int e = errno;

	REPORT_UNLESS_QUIET("", fmt, e);
	errno = e;
	return -1;
}

int error_env(const char *fmt, ...)
{
	REPORT_UNLESS_QUIET("", fmt, 0);
	return ERR_ENV;
}

void warning(const char *fmt, ...)
{
	REPORT_UNLESS_QUIET("warning: ", fmt, 0);
}

void note(const char *fmt, ...)
{
	REPORT_UNLESS_QUIET("", fmt, 0);
}

void printf_clean(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	sb_add_clean(&out, sb.buf, sb.len, 1);
	fwrite(out.buf, 1, out.len, stdout);
	sb_release(&sb);
	sb_release(&out);
}

char *xstrfmt(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	return sb_detach(&sb, NULL);
}

int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Write buf to fd, and with durable fsync it: 0, or -1 (said). */
static int fill_fd(int fd, const char *path, const void *buf, size_t n, int durable)
{
	if (write_all(fd, buf, n) < 0 || (durable && fsync(fd) < 0))
		return error_errno("cannot write '%s'", path);
	return 0;
}

/* What stands at name (in dirfd) may be replaced or rewritten: nothing,
 * or a regular file of our own.  0 if so, 1 if nothing is there, -1
 * (said) for a symbolic link, anything else than a regular file, or
 * another user's file. */
static int replaceable(int dirfd, const char *name, const char *path)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 1 : error_errno("cannot stat '%s'", path);
	if (S_ISLNK(st.st_mode))
		return error("'%s' is a symbolic link: not written through it "
			     "(a directory from elsewhere? write into another with --out)", path);
	if (!S_ISREG(st.st_mode))
		return error("'%s' is not a regular file: not replaced", path);
	if (st.st_uid != geteuid())
		return error("'%s' belongs to another user (uid %lu): not replaced", path,
			     (unsigned long)st.st_uid);
	return 0;
}

int write_file(const char *path, const void *buf, size_t n)
{
	/* Never through a symbolic link, never into a foreign file: opened
	 * without O_TRUNC, checked, then truncated. */
	int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	struct stat st;
	int r;

	if (fd < 0)
		return error_errno("cannot create '%s'%s", path,
				   errno == ELOOP ? " (a symbolic link: not followed)" : "");
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		close(fd);
		return error("'%s' is not a regular file of this user's: not written", path);
	}
	r = ftruncate(fd, 0) < 0 ? error_errno("cannot truncate '%s'", path)
				 : fill_fd(fd, path, buf, n, 0);
	if (close(fd) < 0 && !r)
		r = error_errno("cannot close '%s'", path);
	return r;
}

int write_file_excl(const char *path, const void *buf, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	int r;

	if (fd < 0)
		return error_errno("cannot create '%s'", path);
	r = fill_fd(fd, path, buf, n, 0);
	if (close(fd) < 0 && !r)
		r = error_errno("cannot close '%s'", path);
	return r;
}

int fsync_parent(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int fd, r = 0;

	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd) < 0)
		r = -1;
	if (fd >= 0)
		close(fd);
	free(dir);
	return r;
}

/* path's directory, opened (following the caller's own path), and its
 * last component: *name points into path. */
static int open_parent(const char *path, const char **name)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		error_errno("cannot open the directory '%s'", dir);
	free(dir);
	*name = slash ? slash + 1 : path;
	return fd;
}

int write_file_atomic_mode(const char *path, const void *buf, size_t n, mode_t mode)
{
	static unsigned long seq;
	const char *name;
	char tmp[NAME_MAX + 1];
	int dfd = open_parent(path, &name), fd = -1, r = -1;

	if (dfd < 0)
		return -1;
	if (!*name || strlen(name) > NAME_MAX - 40) {
		error("cannot write '%s': not a file name the harness writes", path);
		goto out;
	}
	if (replaceable(dfd, name, path) < 0)
		goto out;
	/* A fresh name of our own: O_EXCL|O_NOFOLLOW, so nothing planted in
	 * the directory (a link, another's file) is ever opened. */
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		snprintf(tmp, sizeof(tmp), ".%s.%ld.%lu.%lx.tmp", name, (long)getpid(), ++seq,
			 (unsigned long)ts.tv_nsec);
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd < 0 && errno != EEXIST) {
			error_errno("cannot create a file in the directory of '%s'", path);
			goto out;
		}
	}
	if (fd < 0) {
		error("cannot create a fresh file beside '%s'", path);
		goto out;
	}
	/* Durable: the data reaches the disk before the rename, and the rename
	 * before we return, so a crash leaves the old file or the new one. */
	r = fill_fd(fd, path, buf, n, 1);
	if (close(fd) < 0 && !r)
		r = error_errno("cannot close '%s'", path);
	/* The check again, just before: rename() replaces a link or file
	 * that appeared meanwhile, never writes through it. */
	if (!r && replaceable(dfd, name, path) < 0)
		r = -1;
	if (!r && renameat(dfd, tmp, dfd, name) < 0)
		r = error_errno("cannot rename a new file to '%s'", path);
	if (r)
		unlinkat(dfd, tmp, 0);
	else
		fsync(dfd);
out:
	close(dfd);
	return r;
}

int write_file_atomic(const char *path, const void *buf, size_t n)
{
	return write_file_atomic_mode(path, buf, n, 0644);
}

int mkdir_under(const char *dir, const char *name, char **path)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	int r = -1;

	*path = xstrfmt("%s/%s", dir, name);
	if (dfd < 0)
		return error_errno("cannot open the directory '%s'", dir);
	if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		error("'%s' is not a directory name", name);
	else if (mkdirat(dfd, name, 0755) < 0 && errno != EEXIST)
		error_errno("cannot create the directory '%s'", *path);
	else if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		error_errno("cannot stat '%s'", *path);
	else if (S_ISLNK(st.st_mode))
		error("'%s' is a symbolic link: not written through it "
		      "(a directory from elsewhere? write into another with --out)", *path);
	else if (!S_ISDIR(st.st_mode))
		error("'%s' exists and is not a directory", *path);
	else if (st.st_uid != geteuid())
		error("'%s' belongs to another user (uid %lu): not written into", *path,
		      (unsigned long)st.st_uid);
	else
		r = 0;
	close(dfd);
	return r;
}
int mkdir_p(const char *path, mode_t mode)
{
	char *p = xstrdup(path);
	char *s;
	int r = 0;

	for (s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST) {
			r = error_errno("cannot create directory '%s'", p);
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	if (!r && !is_dir(path))
		r = error("'%s' exists and is not a directory", path);
	free(p);
	return r;
}

/* Empties the open directory fd (of device dev, shown as path): each
 * subdirectory opened from fd with O_NOFOLLOW, so a link is removed itself
 * and never followed, and none on another filesystem is entered (a mount
 * point is left, said). */
static int empty_dir_at(int fd, dev_t dev, const char *path)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, alloc = 0;
	int r = 0, dupfd = dup(fd);

	if (dupfd < 0 || !(d = fdopendir(dupfd))) {
		if (dupfd >= 0)
			close(dupfd);
		return error_errno("cannot read '%s'", path);
	}
	/* the names first: the directory changes as they go */
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			names = xrealloc(names, alloc * sizeof(*names));
		}
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	for (size_t i = 0; i < n; i++) {
		char *sub = xstrfmt("%s/%s", path, names[i]);
		int cfd = openat(fd, names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e = errno;
		struct stat st;

		if (cfd < 0 && (e == ENOTDIR || e == ELOOP)) {
			/* a file, or a link (never followed) */
			if (unlinkat(fd, names[i], 0) < 0 && errno != ENOENT)
				r = error_errno("cannot remove '%s'", sub);
		} else if (cfd < 0) {
			if (e != ENOENT) {
				errno = e;
				r = error_errno("cannot open '%s'", sub);
			}
		} else if (fstat(cfd, &st) < 0) {
			r = error_errno("cannot stat '%s'", sub);
		} else if (st.st_dev != dev) {
			r = error("'%s' is on another filesystem: not removed", sub);
		} else if (empty_dir_at(cfd, dev, sub) < 0) {
			r = -1;
		} else if (unlinkat(fd, names[i], AT_REMOVEDIR) < 0 && errno != ENOENT) {
			r = error_errno("cannot remove '%s'", sub);
		}
		if (cfd >= 0)
			close(cfd);
		free(sub);
		free(names[i]);
	}
	free(names);
	return r;
}

int remove_tree_at(int dirfd, const char *name, const char *path, const struct stat *seen)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	int r;

	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		if (errno != ENOTDIR && errno != ELOOP)
			return error_errno("cannot open '%s'", path);
		if (seen)
			return error("'%s' is no longer the directory it was: left", path);
		if (unlinkat(dirfd, name, 0) < 0 && errno != ENOENT)
			return error_errno("cannot remove '%s'", path);
		return 0;
	}
	if (fstat(fd, &st) < 0) {
		r = error_errno("cannot stat '%s'", path);
	} else if (seen && (st.st_dev != seen->st_dev || st.st_ino != seen->st_ino)) {
		r = error("'%s' is no longer the directory it was: left", path);
	} else {
		r = empty_dir_at(fd, st.st_dev, path);
		if (!r && unlinkat(dirfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
			r = error_errno("cannot remove '%s'", path);
	}
	close(fd);
	return r;
}

int remove_tree(const char *path)
{
	return remove_tree_at(AT_FDCWD, path, path, NULL);
}

int copy_file(const char *src, const char *dst, mode_t mode)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	if (sb_read_file(&sb, src) < 0) {
		sb_release(&sb);
		return error_errno("cannot read '%s'", src);
	}
	r = write_file(dst, sb.buf, sb.len);
	if (!r && chmod(dst, mode) < 0)
		r = error_errno("cannot chmod '%s'", dst);
	sb_release(&sb);
	return r;
}

int path_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int is_executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, X_OK) == 0;
}

char *find_in_path(const char *prog)
{
	const char *path = getenv("PATH");
	const char *p, *end;

	if (strchr(prog, '/'))
		return is_executable(prog) ? xstrdup(prog) : NULL;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";
	for (p = path; ; p = end + 1) {
		end = strchrnul(p, ':');
		char *cand = end > p ? xstrfmt("%.*s/%s", (int)(end - p), p, prog)
				     : xstrfmt("./%s", prog);
		if (is_executable(cand))
			return cand;
		free(cand);
		if (!*end)
			break;
	}
	return NULL;
}

char *absolute_path(const char *path)
{
	char cwd[PATH_MAX];

	if (path[0] == '/')
		return xstrdup(path);
	if (!getcwd(cwd, sizeof(cwd)))
		return NULL;
	return xstrfmt("%s/%s", cwd, path);
}

const char *path_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

double now_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void format_now(char *buf, size_t n, const char *fmt)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	if (!strftime(buf, n, fmt, &tm))
		bug("timestamp buffer of %zu bytes too small", n);
}

void timestamp_id(char *buf, size_t n)
{
	format_now(buf, n, "%Y%m%d-%H%M%S");
}

void timestamp_iso(char *buf, size_t n)
{
	format_now(buf, n, "%Y-%m-%dT%H:%M:%SZ");
}

struct hash_ctx {
	EVP_MD_CTX *md;
};

struct hash_ctx *hash_new(void)
{
	struct hash_ctx *h = xmalloc(sizeof(*h));

	h->md = EVP_MD_CTX_new();
	if (!h->md || EVP_DigestInit_ex(h->md, EVP_sha256(), NULL) != 1)
		bug("cannot initialise SHA-256 (OpenSSL)");
	return h;
}

void hash_add(struct hash_ctx *h, const void *data, size_t n)
{
	if (EVP_DigestUpdate(h->md, data, n) != 1)
		bug("SHA-256 update failed (OpenSSL)");
}

void hash_adds(struct hash_ctx *h, const char *s)
{
	hash_add(h, s, strlen(s) + 1);
}

int hash_add_file(struct hash_ctx *h, const char *path)
{
	char buf[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return error_errno("cannot open '%s'", path);
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error_errno("cannot read '%s'", path);
			close(fd);
			return -1;
		}
		if (!n)
			break;
		hash_add(h, buf, (size_t)n);
	}
	close(fd);
	return 0;
}

void hash_hex(struct hash_ctx *h, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;

	if (EVP_DigestFinal_ex(h->md, md, &n) != 1 || n != 32)
		bug("SHA-256 final failed (OpenSSL)");
	for (i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	EVP_MD_CTX_free(h->md);
	free(h);
}

int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int parse_i64(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (!*s || *s == '+' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* Decimal notation only: [-]digits[.digits][e[+-]digits] (or [-].digits):
 * strtod() alone also takes "inf", "nan", hex ("0x1p3") and blanks. */
static int decimal_syntax(const char *s)
{
	int digits = 0;

	if (*s == '-')
		s++;
	for (; isdigit((unsigned char)*s); s++)
		digits++;
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++)
			digits++;
	if (!digits)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!isdigit((unsigned char)*s))
			return 0;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return !*s;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!decimal_syntax(s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v == 0 ? 0.0 : v;	/* "-0" is 0 */
	return 0;
}

long long host_mem_available_kb(void)
{
	static const char fault[] = "host-memavailable:";
	const char *e = getenv("SCALETEST_FAULT");
	struct strbuf sb = STRBUF_INIT;
	long long v = -1;
	const char *p;
	int64_t mib;

	if (e && !strncmp(e, fault, strlen(fault))) {
		if (parse_i64(e + strlen(fault), &mib) < 0 || mib < 0 || mib > (1LL << 30)) {
			error("SCALETEST_FAULT '%s': the MiB after '%s' must be a whole number "
			      "from 0 to %lld", e, fault, 1LL << 30);
			return 0;	/* refuse rather than trust the real figure */
		}
		return mib * 1024;
	}
	if (sb_read_file(&sb, "/proc/meminfo") == 0 &&
	    (p = strstr(sb.buf, "MemAvailable:")))
		v = strtoll(p + strlen("MemAvailable:"), NULL, 10);
	sb_release(&sb);
	return v;
}

int have_program(const char *prog)
{
	char *p = find_in_path(prog);
	int found = p != NULL;

	free(p);
	return found;
}

void log_tail(const char *path, int n, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	size_t start;
	int lines = 0;

	if (sb_read_file(&sb, path) < 0) {
		sb_release(&sb);
		return;
	}
	start = sb.len;
	while (start > 0) {
		if (sb.buf[start - 1] == '\n' && start != sb.len && ++lines >= n)
			break;
		start--;
	}
	sb_add(out, sb.buf + start, sb.len - start);
	sb_release(&sb);
}

int log_errors(const char *path, size_t from, int max, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 0;

	if (sb_read_file(&sb, path) < 0 || !sb.buf || from >= sb.len) {
		sb_release(&sb);
		return 0;
	}
	/* Line by line, each cut off with a NUL in our own copy. */
	for (size_t i = from, j; i < sb.len && n < max; i = j + 1) {
		for (j = i; j < sb.len && sb.buf[j] != '\n'; j++)
			;
		sb.buf[j] = '\0';
		if (strstr(sb.buf + i, ": error: ") || strstr(sb.buf + i, ": fatal error: ")) {
			sb_adds(out, sb.buf + i);
			sb_addch(out, '\n');
			n++;
		}
	}
	sb_release(&sb);
	return n;
}

/* Where an installed scaletest keeps its data, below the prefix its
 * binary is in (PREFIX/bin/scaletest): make install's layout. */
#define SCALETEST_DATADIR_REL "share/scaletest"

/* Whether dir holds the guest's init: a scaletest tree or data directory. */
static int has_init(const char *dir)
{
	char *init = xstrfmt("%s/initramfs/init", dir);
	int r = path_exists(init);

	free(init);
	return r;
}

const char *scaletest_root(void)
{
	static char *root;
	char exe[PATH_MAX];
	ssize_t n;

	if (root)
		return root;
	if (getenv("SCALETEST_ROOT") && *getenv("SCALETEST_ROOT")) {
		root = absolute_path(getenv("SCALETEST_ROOT"));
		return root;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *data;

		exe[n] = '\0';
		for (int up = 0; up < 2; up++) {
			char *s = strrchr(exe, '/');
			if (s)
				*s = '\0';
		}
		/* The tree it was built in (bin/ beside initramfs/), else its
		 * install: PREFIX/share/scaletest, PREFIX the directory above
		 * bin/ wherever it is now (a DESTDIR, a moved tree). */
		data = xstrfmt("%s/" SCALETEST_DATADIR_REL, exe);
		if (!has_init(exe) && has_init(data)) {
			root = data;
			return root;
		}
		free(data);
		root = xstrdup(exe);
	} else {
		root = xstrdup(".");
	}
	return root;
}

/* The length of the valid UTF-8 sequence at s (at most n bytes) and its
 * code point, or 0: overlong forms, surrogates and values past U+10FFFF
 * are invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n, unsigned long *cp)
{
	size_t len;
	unsigned long c, min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	} else if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2, c = s[0] & 0x1f, min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3, c = s[0] & 0x0f, min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4, c = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* Whether code point c may stay: no C0, DEL or C1 (but '\n', '\t' with
 * multiline); no noncharacter (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF: XML 1.0
 * forbids U+FFFE and U+FFFF, and a junit.xml holding one is not
 * well-formed); no bidirectional control (U+061C, U+200E, U+200F,
 * U+202A..U+202E, U+2066..U+2069), which reorders what a terminal or a
 * page shows around it. */
static int cp_printable(unsigned long c, int multiline)
{
	if (multiline && (c == '\n' || c == '\t'))
		return 1;
	if (c < 0x20 || (c >= 0x7f && c <= 0x9f))
		return 0;
	if ((c >= 0xfdd0 && c <= 0xfdef) || (c & 0xfffe) == 0xfffe)
		return 0;
	return !(c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) ||
		 (c >= 0x2066 && c <= 0x2069));
}

void sb_add_clean(struct strbuf *sb, const char *s, size_t n, int multiline)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	sb_grow(sb, n);
	while (p < end) {
		unsigned long c;
		size_t l = utf8_seq(p, (size_t)(end - p), &c);

		if (l && cp_printable(c, multiline)) {
			sb_add(sb, p, l);
			p += l;
		} else {
			sb_addch(sb, '?');
			p += l ? l : 1;
		}
	}
}

char *xstrclean(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	sb_add_clean(&sb, s, n, 0);
	return sb_detach(&sb, NULL);
}

int text_is_clean(const char *s, size_t n, int multiline)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		unsigned long c;
		size_t l = utf8_seq(p, (size_t)(end - p), &c);

		if (!l || !cp_printable(c, multiline))
			return 0;
		p += l;
	}
	return 1;
}

void shell_quote(struct strbuf *out, const char *s)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_-./:=,+@%";
	struct strbuf clean = STRBUF_INIT;

	if (!s)
		return;
	sb_add_clean(&clean, s, strlen(s), 0);
	if (clean.len && strspn(clean.buf, safe) == clean.len) {
		sb_add(out, clean.buf, clean.len);
	} else {
		sb_addch(out, '\'');
		for (const char *p = clean.buf; *p; p++) {
			if (*p == '\'')
				sb_adds(out, "'\\''");
			else
				sb_addch(out, *p);
		}
		sb_addch(out, '\'');
	}
	sb_release(&clean);
}

int parse_count(const char *s, long long max, long long *out)
{
	int64_t v;

	if (parse_i64(s, &v) < 0 || v < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}
