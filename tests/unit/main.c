// SPDX-License-Identifier: Apache-2.0
/*
 * The unit test runner: build/unit-tests FIXTURES_DIR [NAME_SUBSTRING]
 *
 * Runs every TEST() (or those whose name contains the second argument),
 * each in its own child process with a deadline, prints one line per
 * failure and then "N tests, M failures" and "unit: N passed, N failed";
 * exits 1 if anything failed.
 * UNIT_NOFORK=1 runs the tests in this process instead (for a debugger).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/child.h"
#include "test.h"
#include "lib/util.h"

#define TEST_DEADLINE_S 120

/* In a sanitizer build, undefined behaviour ends the test process (and so
 * fails the test that caused it) instead of scrolling past on stderr. */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1";
}

struct test {
	const char *name;
	const char *file;
	test_fn fn;
	size_t seq;
};

static struct test *tests;
static size_t ntests, alloc_tests;

const char *fixtures_dir;

static const char *cur_name;
static int cur_failures;
static jmp_buf cur_jmp;
static int cur_jmp_set;
static char *top_tmp;		/* this run's scratch root */
static char *cur_tmp;		/* the current test's, once asked for */

void test_register(const char *name, test_fn fn, const char *file)
{
	if (ntests == alloc_tests) {
		alloc_tests = alloc_tests ? 2 * alloc_tests : 64;
		tests = realloc(tests, alloc_tests * sizeof(*tests));
		if (!tests)
			abort();
	}
	tests[ntests].name = name;
	tests[ntests].file = file;
	tests[ntests].fn = fn;
	tests[ntests].seq = ntests;
	ntests++;
}

static void vfail(const char *file, int line, const char *fmt, va_list ap)
{
	printf("FAIL %s: %s:%d: ", cur_name ? cur_name : "?", file, line);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	cur_failures++;
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(file, line, fmt, ap);
	va_end(ap);
}

void test_abort(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(file, line, fmt, ap);
	va_end(ap);
	if (cur_jmp_set)
		longjmp(cur_jmp, 1);
	abort();
}

/* Print s for a message: C escapes for unprintable bytes, cut at 300. */
static void show(struct strbuf *out, const char *s)
{
	size_t i;

	if (!s) {
		sb_adds(out, "NULL");
		return;
	}
	sb_addch(out, '"');
	for (i = 0; s[i] && i < 300; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n')
			sb_adds(out, "\\n");
		else if (c == '"' || c == '\\')
			sb_addf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			sb_addf(out, "\\x%02x", c);
		else
			sb_addch(out, (char)c);
	}
	sb_addch(out, '"');
	if (s[i])
		sb_adds(out, "...");
}

void test_check_str(const char *file, int line, const char *ea, const char *eb,
		    const char *a, const char *b)
{
	struct strbuf sa = STRBUF_INIT, sb = STRBUF_INIT;

	if (a && b && !strcmp(a, b))
		return;
	show(&sa, a);
	show(&sb, b);
	test_fail(file, line, "CHECK_STR(%s, %s): %s != %s", ea, eb, sa.buf, sb.buf);
	sb_release(&sa);
	sb_release(&sb);
}

void test_check_contains(const char *file, int line, const char *eh,
			 const char *en, const char *h, const char *n)
{
	struct strbuf sh = STRBUF_INIT, sn = STRBUF_INIT;

	if (h && n && strstr(h, n))
		return;
	show(&sh, h);
	show(&sn, n);
	test_fail(file, line, "CHECK_CONTAINS(%s, %s): %s does not contain %s",
		  eh, en, sh.buf, sn.buf);
	sb_release(&sh);
	sb_release(&sn);
}

char *fixture_at(const char *file, int line, const char *relpath, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/%s", fixtures_dir, relpath);

	if (sb_read_file(&sb, path) < 0) {
		int e = errno;
		sb_release(&sb);
		test_fail(file, line, "missing fixture '%s': %s", path, strerror(e));
		free(path);
		if (cur_jmp_set)
			longjmp(cur_jmp, 1);
		abort();
	}
	free(path);
	return sb_detach(&sb, len);
}

const char *test_tmpdir(void)
{
	if (!cur_tmp) {
		cur_tmp = xstrfmt("%s/t-%s", top_tmp, cur_name);
		remove_tree(cur_tmp);
		if (mkdir_p(cur_tmp, 0700) < 0)
			test_abort(__FILE__, __LINE__, "cannot create '%s'", cur_tmp);
	}
	return cur_tmp;
}

static int saved_stderr = -1;
static char *capture_path;

void stderr_capture_begin(void)
{
	int fd;

	if (saved_stderr >= 0)
		test_abort(__FILE__, __LINE__, "stderr_capture_begin called twice");
	capture_path = xstrfmt("%s/stderr.txt", test_tmpdir());
	fd = open(capture_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		test_abort(__FILE__, __LINE__, "cannot create '%s'", capture_path);
	fflush(stderr);
	saved_stderr = dup(2);
	dup2(fd, 2);
	close(fd);
	util_quiet = 0;
}

char *stderr_capture_end(void)
{
	struct strbuf sb = STRBUF_INIT;

	if (saved_stderr < 0)
		test_abort(__FILE__, __LINE__, "stderr_capture_end without begin");
	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	saved_stderr = -1;
	util_quiet = 1;
	if (sb_read_file(&sb, capture_path) < 0)
		test_fail(__FILE__, __LINE__, "cannot read '%s'", capture_path);
	free(capture_path);
	capture_path = NULL;
	return sb_detach(&sb, NULL);
}

/* Run the current test here; returns its failure count. */
static int run_here(const struct test *t)
{
	cur_name = t->name;
	cur_failures = 0;
	cur_tmp = NULL;
	cur_jmp_set = 1;
	if (!setjmp(cur_jmp))
		t->fn();
	cur_jmp_set = 0;
	if (saved_stderr >= 0)	/* the test ended while capturing */
		free(stderr_capture_end());
	if (cur_tmp) {
		remove_tree(cur_tmp);
		free(cur_tmp);
		cur_tmp = NULL;
	}
	return cur_failures;
}

/* Run one test in a child; returns the number of failures to count. */
static int run_forked(const struct test *t)
{
	int pfd[2], status, n = 0, got = 0;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	if (pipe(pfd) < 0) {
		perror("pipe");
		exit(2);
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		int nf;

		close(pfd[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		alarm(TEST_DEADLINE_S);
		nf = run_here(t);
		(void)!write(pfd[1], &nf, sizeof(nf));
		close(pfd[1]);
		fflush(stdout);
		exit(0);	/* exit(): sanitizers check for leaks here */
	}
	close(pfd[1]);
	while (read(pfd[0], &n, sizeof(n)) < 0 && errno == EINTR)
		;
	got = n;
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("waitpid");
			exit(2);
		}
	}
	if (WIFSIGNALED(status)) {
		printf("FAIL %s: crashed: %s%s\n", t->name, strsignal(WTERMSIG(status)),
		       WTERMSIG(status) == SIGALRM ? " (deadline of 120 s)" : "");
		return got + 1;
	}
	if (WEXITSTATUS(status)) {
		printf("FAIL %s: test process exited with status %d "
		       "(a sanitizer report on stderr?)\n", t->name,
		       WEXITSTATUS(status));
		return got + 1;
	}
	return got;
}

static int cmp_test(const void *a, const void *b)
{
	const struct test *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

int main(int argc, char **argv)
{
	const char *filter = argc > 2 ? argv[2] : NULL;
	int nofork = getenv("UNIT_NOFORK") && *getenv("UNIT_NOFORK");
	const char *tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char *tmpl;
	size_t run = 0, failures = 0, failed_tests = 0;
	struct strbuf failed = STRBUF_INIT;
	char *cache;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s FIXTURES_DIR [NAME_SUBSTRING]\n", argv[0]);
		return 2;
	}
	fixtures_dir = argv[1];
	if (!is_dir(fixtures_dir)) {
		fprintf(stderr, "%s: no fixtures directory '%s'\n", argv[0], fixtures_dir);
		return 2;
	}
	util_quiet = 1;
	tmpl = xstrfmt("%s/scaletest-unit-XXXXXX", tmpdir);
	if (!mkdtemp(tmpl)) {
		perror("mkdtemp");
		return 2;
	}
	top_tmp = tmpl;
	/* Before anything calls cache_root(): the cache is ours alone. */
	cache = xstrfmt("%s/cache", top_tmp);
	setenv("SCALETEST_CACHE", cache, 1);
	free(cache);
	child_signals_init();

	qsort(tests, ntests, sizeof(*tests), cmp_test);
	for (size_t i = 0; i < ntests; i++) {
		const struct test *t = &tests[i];
		int f;

		if (filter && !strstr(t->name, filter))
			continue;
		run++;
		f = nofork ? run_here(t) : run_forked(t);
		if (f) {
			failures += (size_t)f;
			failed_tests++;
			sb_addf(&failed, " %s", t->name);
		}
		if (child_interrupted()) {
			printf("interrupted\n");
			break;
		}
	}
	remove_tree(top_tmp);
	free(tmpl);
	if (failed_tests)
		printf("failing tests (%zu):%s\n", failed_tests, failed.buf);
	printf("%zu tests, %zu failures\n", run, failures);
	/* The summary line every suite prints (tests/run.sh reads it). */
	printf("unit: %zu passed, %zu failed\n", run - failed_tests, failed_tests);
	sb_release(&failed);
	free(tests);
	if (filter && !run) {
		fprintf(stderr, "%s: no test name contains '%s'\n", argv[0], filter);
		return 1;
	}
	return failures || child_interrupted() ? 1 : 0;
}
