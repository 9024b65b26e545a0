/* SPDX-License-Identifier: Apache-2.0 */
/*
 * util: the small things every module needs.
 *
 * Errors.  Library code reports a failure with error(), which prints
 * "scaletest: <message>" on stderr and returns -1, so the idiom is
 *
 *	if (stat(path, &st) < 0)
 *		return error_errno("cannot stat '%s'", path);
 *
 * A failure carries its class back to the caller in the value returned,
 * and nothing global remembers it, so a loop of runs (nightly, bisect)
 * judges each failure by its own class:
 *
 *	ERR_FAIL  (-1)	error(), error_errno(): it failed		exit 1
 *	ERR_USAGE (-2)	the input cannot be used (a layout the		exit 2
 *			kernel cannot hold)
 *	ERR_ENV   (-3)	error_env(): a tool or package is missing,	exit 3
 *			or the environment cannot hold the run
 *
 * A function that fails because a callee failed returns the callee's
 * value, not -1, and a caller that only asks whether it failed asks "< 0":
 *
 *	if ((r = kernel_obtain(s, log, &k)) < 0)
 *		return r;
 *
 * Library code never exits: only the command layer does, with
 * exit_code(r) for a failure's class (docs/statuses.md).  bug() is for
 * what only a mistake in the program makes happen (a key table's bad
 * default), or a library that cannot fail otherwise failing (OpenSSL's
 * SHA-256): it says so and aborts, as xmalloc() does when memory runs
 * out.  Messages are lowercase, have no final period, and quote their
 * subject.
 *
 * Memory.  xmalloc() and friends (xalloc.h, included here) abort on
 * allocation failure; xstrfmt() is a malloc'd printf.
 *
 * Files.  write_all() loops on short writes and EINTR.  Every file the
 * harness writes is written so that a name planted where it writes (a
 * symbolic link, a device, another user's file: a run directory from
 * elsewhere may hold any of them) can neither redirect nor receive the
 * write:
 *
 *	write_file_atomic(path, ...)	a fresh file beside path, made with
 *					O_CREAT|O_EXCL|O_NOFOLLOW under a name
 *					of its own, fsynced and renamed over
 *					path (and the directory fsynced), so a
 *					reader never sees half a file and a crash
 *					leaves the old file or the new one
 *	write_file(path, ...)		created, or a regular file of this
 *					user's rewritten; never through a link
 *	write_file_excl(path, ...)	created; fails if anything is there
 *	mkdir_under(dir, name, &path)	dir/name made or found: a directory of
 *					this user's, never a link
 *
 * What stands at path must be nothing or a regular file of this user's; a
 * symbolic link, a directory or device, or another user's file is refused
 * with its name, never followed, truncated or replaced.  The directories
 * leading to path are the caller's to trust: a directory the harness
 * appends to a path it was given (RUN/replay) comes from mkdir_under().
 */
#ifndef SCALETEST_UTIL_H
#define SCALETEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/strbuf.h"
#include "lib/xalloc.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit codes of the command layer (documented in docs/statuses.md). */
enum {
	EXIT_OK = 0,
	EXIT_RUNFAIL = 1,	/* the run or comparison failed */
	EXIT_USAGE = 2,		/* bad command line or scenario */
	EXIT_ENV = 3,		/* a tool, package or resource is missing */
	EXIT_NO_BASELINE = 4,	/* nightly: runs passed, but one had no baseline */
	EXIT_INTERRUPTED = 130,
};

extern const char *progname;
/* When set, error() and warning() are silent (tests and fuzz targets set
 * it for their whole run). */
extern int util_quiet;
/* Called before error(), warning() and note() write: a live line on stderr
 * (lib/meter.h) erases itself there.  NULL when none is shown. */
extern void (*util_before_message)(void);

/* The classes of a failure, each minus its exit code (above). */
enum { ERR_FAIL = -1, ERR_USAGE = -2, ERR_ENV = -3 };
/* The exit code of a function's result: EXIT_OK for r >= 0, else its
 * class's (EXIT_ENV, EXIT_USAGE, EXIT_RUNFAIL for any other). */
int exit_code(int r);
/* Of two results (0 or a class), the one that decides the exit of both:
 * the environment's over a usage error over any failure over none. */
int err_worse(int a, int b);

/* Says "BUG: ..." and aborts: a mistake in the program, never an input's
 * or the environment's doing. */
void bug(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int error_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Like error(), and returns ERR_ENV: a missing program or package, with
 * the message naming what to install, or an environment that cannot hold
 * the run. */
int error_env(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Progress line ("scaletest: ..."), on stderr, shown unless util_quiet. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

char *xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* printf to stdout with the whole text cleaned (sb_add_clean, newlines and
 * tabs kept): for lines that quote names or strings from elsewhere (a
 * directory name, a baseline's key.json) */
void printf_clean(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int write_all(int fd, const void *buf, size_t n);
int write_file(const char *path, const void *buf, size_t n);
int write_file_excl(const char *path, const void *buf, size_t n);
int write_file_atomic(const char *path, const void *buf, size_t n);
/* The same, the new file made with mode (reproduce.sh: 0755). */
int write_file_atomic_mode(const char *path, const void *buf, size_t n, mode_t mode);
/* dir/name, a directory of this user's (made if missing), never a link;
 * *path: dir/name, malloc'd (also on failure).  0 or -1 (said). */
int mkdir_under(const char *dir, const char *name, char **path);
/* fsync the directory holding path (after a rename into it); 0 or -1. */
int fsync_parent(const char *path);
int mkdir_p(const char *path, mode_t mode);
/*
 * Removing a tree never follows a link and never leaves its filesystem:
 * each directory is opened from its parent's fd with
 * openat(O_NOFOLLOW|O_DIRECTORY) and emptied with unlinkat(), so a link
 * met anywhere (planted, or swapped in while the tree is walked) is
 * removed itself, and a directory on another filesystem (a mount point)
 * is left, said.  remove_tree_at removes dirfd/name (path names it in
 * messages); with seen, only if it is still the directory seen there
 * (st_dev and st_ino: gc judged that one).  0, or -1 (said); gone is 0.
 */
int remove_tree(const char *path);
struct stat;
int remove_tree_at(int dirfd, const char *name, const char *path, const struct stat *seen);
int copy_file(const char *src, const char *dst, mode_t mode);
int path_exists(const char *path);
int is_dir(const char *path);
int is_executable(const char *path);
/* Search $PATH for prog; returns a malloc'd path or NULL. */
char *find_in_path(const char *prog);
/* 1 if prog is found in $PATH. */
int have_program(const char *prog);
/* Absolute form of path (need not exist); malloc'd.  NULL with errno
 * when the current directory cannot be found (it was removed): the
 * caller says so, in its own words. */
char *absolute_path(const char *path);
const char *path_basename(const char *path);

/* Seconds from an arbitrary monotonic origin. */
double now_monotonic(void);
/* Wall-clock time formatted for run ids: 20261203-052101. */
void timestamp_id(char *buf, size_t n);
/* ISO 8601 UTC: 2026-12-03T05:21:01Z. */
void timestamp_iso(char *buf, size_t n);

/* SHA-256 of a buffer, and a running context over several pieces. */
struct hash_ctx;
struct hash_ctx *hash_new(void);
void hash_add(struct hash_ctx *h, const void *data, size_t n);
void hash_adds(struct hash_ctx *h, const char *s);	/* includes the NUL */
int hash_add_file(struct hash_ctx *h, const char *path);
/* Writes 64 hex digits and a NUL to out[65]; frees h. */
void hash_hex(struct hash_ctx *h, char out[65]);

/* Parse a whole decimal number into *out; 0 or -1. */
int parse_u64(const char *s, uint64_t *out);
int parse_i64(const char *s, int64_t *out);
/* A whole number from 0 to max: 0, or -1 (a count in a guest's text). */
int parse_count(const char *s, long long max, long long *out);
/* A finite number in decimal notation only (no "inf", "nan", hex, blanks
 * or leading '+'; "-0" is 0): 0 or -1. */
int parse_double(const char *s, double *out);

/*
 * Guest text made safe to keep: what a guest sends (key=value values, fio's
 * messages and job names, quoted bytes in a rejection) goes into result.json
 * and from there into every report, which must be valid UTF-8 without
 * control characters (JUnit XML forbids most of them; a C1 CSI would reach a
 * terminal).  sb_add_clean() appends s with every byte that is not part of
 * a valid UTF-8 sequence, every C0 control, DEL and every C1 control
 * (U+0080..U+009F), every noncharacter (U+FFFE, U+FFFF: not XML) and every
 * bidirectional control (U+202E and the like) replaced by '?'; with multiline,
 * '\n' and '\t' are kept.  text_is_clean() says whether s needs no change.
 */
void sb_add_clean(struct strbuf *sb, const char *s, size_t n, int multiline);
char *xstrclean(const char *s, size_t n);	/* malloc'd, single line */
int text_is_clean(const char *s, size_t n, int multiline);
/* One shell word, for display (run --dry-run's QEMU command line, a
 * report's commands): s cleaned as above, bare when only letters, digits
 * and _-./:=,+@%, else in single quotes with each ' as '\''; '' for an
 * empty s.  For a person to read and paste, never for the harness to run:
 * it runs everything with argv. */
void shell_quote(struct strbuf *out, const char *s);

/* The last n lines of a file, appended to out (for error messages). */
void log_tail(const char *path, int n, struct strbuf *out);
/* The compiler's error lines (": error: ", ": fatal error: ") of a file from
 * byte offset from on, at most max of them, appended to out; how many.  A
 * parallel make goes on printing after the first error, so the tail of a
 * failed build's log may not hold it. */
int log_errors(const char *path, size_t from, int max, struct strbuf *out);

/* Where scaletest's data is (initramfs/, kernel-configs/, scenarios/):
 * $SCALETEST_ROOT; else the tree the binary was built in (the directory
 * above its bin/); else, for an installed binary (make install, the
 * Debian package), PREFIX/share/scaletest, PREFIX being the directory
 * above its bin/ wherever it is now, so a DESTDIR or a moved install
 * works as the final one does. */
const char *scaletest_root(void);

/* Host memory available for a new guest, in kB (MemAvailable), or -1.
 * SCALETEST_FAULT=host-memavailable:MIB makes it MIB (the tests of a
 * guest too large for the host, on any host: docs/faults.md). */
long long host_mem_available_kb(void);

#endif
