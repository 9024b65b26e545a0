// SPDX-License-Identifier: Apache-2.0
/*
 * The unit test runner, a suite like the shell ones (tests/lib.sh):
 *
 *	build/unit-tests FIXTURES_DIR             every TEST()
 *	build/unit-tests FIXTURES_DIR NAME...     those named (sh glob
 *	                                          patterns: 'meminfo_*')
 *	TESTS='meminfo_*' build/unit-tests FIXTURES_DIR   the same from the
 *	                                          environment (make check TESTS=)
 *	build/unit-tests --list                   the names, in the order they run
 *
 * Each test runs in its own child process with a deadline.  It prints TAP
 * on stdout, "ok N - NAME" or "not ok N - NAME", the plan "1..N", a
 * comment counting the assertions and one summary line, "unit: N passed,
 * N failed"; each failure is said on stderr ("  FAIL: NAME: file:line:
 * what"), and so is whatever a test prints (its stdout goes to stderr).
 * A test in which no assertion ran (CHECK*, REQUIRE: test.h) is "not ok";
 * one that cannot run here says so (SKIP: "ok N - NAME # SKIP why").
 * Exit 0 when none failed, 1 when one did, 2 for a usage error or a name
 * on the command line that matches no test, 77 when every test selected
 * skipped itself.  A TESTS= filter may match no
 * test here (it is meant for many suites at once): then the plan is "1..0
 * # SKIP ..." and the runner (tests/run.sh) judges the filter over all
 * the suites it ran.
 * UNIT_NOFORK=1 runs the tests in this process instead (for a debugger).
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/child.h"
#include "lib/strvec.h"
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
unsigned long test_nchecks;

static const char *cur_name;
static int cur_failures;
static char cur_skip[160];	/* why the current test skipped itself */
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
	fprintf(stderr, "  FAIL: %s: %s:%d: ", cur_name ? cur_name : "?", file, line);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	fflush(stderr);
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

void test_skip(const char *why)
{
	snprintf(cur_skip, sizeof(cur_skip), "%s", why);
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

	test_nchecks++;
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

	test_nchecks++;
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

/* What a test came to: the failures it recorded, the assertions that ran
 * (a test with neither fails: it checked nothing), and why it skipped
 * itself ("": it did not). */
struct outcome {
	int failures;
	unsigned long checks;
	char skip[sizeof(cur_skip)];
};

/* Run the current test here. */
static struct outcome run_here(const struct test *t)
{
	struct outcome o;

	cur_name = t->name;
	cur_failures = 0;
	test_nchecks = 0;
	cur_skip[0] = 0;
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
	if (!cur_failures && !test_nchecks && !cur_skip[0]) {
		fprintf(stderr, "  FAIL: %s: no assertion ran\n", t->name);
		cur_failures = 1;
	}
	o.failures = cur_failures;
	o.checks = test_nchecks;
	memcpy(o.skip, cur_skip, sizeof(o.skip));
	return o;
}

/* Run one test in a child, its stdout sent to stderr (stdout is the
 * TAP's); a crash, a deadline or a failed exit counts one failure more. */
static struct outcome run_forked(const struct test *t)
{
	struct outcome o = { 0, 0, "" };
	int pfd[2], status;
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
		close(pfd[0]);
		dup2(2, 1);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		alarm(TEST_DEADLINE_S);
		o = run_here(t);
		(void)!write(pfd[1], &o, sizeof(o));
		close(pfd[1]);
		fflush(stdout);
		exit(0);	/* exit(): sanitizers check for leaks here */
	}
	close(pfd[1]);
	while (read(pfd[0], &o, sizeof(o)) < 0 && errno == EINTR)
		;
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("waitpid");
			exit(2);
		}
	}
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "  FAIL: %s: crashed: %s%s\n", t->name, strsignal(WTERMSIG(status)),
			WTERMSIG(status) == SIGALRM ? " (deadline of 120 s)" : "");
		o.failures++;
	} else if (WEXITSTATUS(status)) {
		fprintf(stderr, "  FAIL: %s: test process exited with status %d "
			"(a sanitizer report on stderr?)\n", t->name, WEXITSTATUS(status));
		o.failures++;
	}
	return o;
}

static int cmp_test(const void *a, const void *b)
{
	const struct test *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static int usage(const char *argv0)
{
	fprintf(stderr, "usage: %s FIXTURES_DIR [NAME...]\n"
		"       %s --list\n"
		"(NAME: a test's name or an sh glob pattern; TESTS='...' the same)\n",
		argv0, argv0);
	return 2;
}

/* The filter's patterns: the names on the command line, else the words of
 * $TESTS.  Returns 1 if any. */
static int filter_init(struct strvec *pats, int argc, char **argv, int *from_env)
{
	const char *env = getenv("TESTS");

	*from_env = 0;
	for (int i = 0; i < argc; i++)
		strvec_push(pats, argv[i]);
	if (!pats->n && env) {
		char *copy = xstrdup(env);
		char *save = NULL;

		for (char *w = strtok_r(copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
			strvec_push(pats, w);
		free(copy);
		*from_env = pats->n > 0;
	}
	return pats->n > 0;
}

static int selected(const struct strvec *pats, const char *name)
{
	if (!pats->n)
		return 1;
	for (size_t i = 0; i < pats->n; i++)
		if (!fnmatch(pats->v[i], name, 0))
			return 1;
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int nofork = getenv("UNIT_NOFORK") && *getenv("UNIT_NOFORK");
	const char *tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	struct strvec pats = STRVEC_INIT;
	struct strbuf failed = STRBUF_INIT;
	size_t run = 0, failed_tests = 0, skipped = 0;
	unsigned long checks = 0;
	int from_env;
	char *tmpl, *cache;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--list")) {
			qsort(tests, ntests, sizeof(*tests), cmp_test);
			for (size_t j = 0; j < ntests; j++)
				printf("%s\n", tests[j].name);
			free(tests);
			return fflush(stdout) ? 1 : 0;
		}
		if (argv[i][0] == '-') {
			fprintf(stderr, "unit: unknown option '%s' (names, sh glob patterns, "
				"or --list)\n", argv[i]);
			return usage(argv[0]);
		}
	}
	if (argc < 2)
		return usage(argv[0]);
	fixtures_dir = argv[1];
	if (!is_dir(fixtures_dir)) {
		fprintf(stderr, "%s: no fixtures directory '%s'\n", argv[0], fixtures_dir);
		return 2;
	}
	qsort(tests, ntests, sizeof(*tests), cmp_test);
	filter_init(&pats, argc - 2, argv + 2, &from_env);
	/* A name on the command line must name a test (one from $TESTS may
	 * be another suite's). */
	for (size_t i = 0; !from_env && i < pats.n; i++) {
		size_t j;

		for (j = 0; j < ntests && fnmatch(pats.v[i], tests[j].name, 0); j++)
			;
		if (j == ntests) {
			fprintf(stderr, "unit: no test named '%s' (%s --list names them)\n",
				pats.v[i], argv[0]);
			strvec_clear(&pats);
			free(tests);
			return 2;
		}
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

	for (size_t i = 0; i < ntests; i++) {
		const struct test *t = &tests[i];
		struct outcome o;
		double t0;

		if (!selected(&pats, t->name))
			continue;
		run++;
		t0 = now_s();
		o = nofork ? run_here(t) : run_forked(t);
		checks += o.checks;
		if (o.failures) {
			failed_tests++;
			sb_addf(&failed, " %s", t->name);
			printf("not ok %zu - %s\n", run, t->name);
		} else if (o.skip[0]) {
			skipped++;
			printf("ok %zu - %s # SKIP %s\n", run, t->name, o.skip);
		} else {
			printf("ok %zu - %s\n", run, t->name);
		}
		fflush(stdout);
		if (now_s() - t0 >= 5)
			fprintf(stderr, "# %s: %.0f s\n", t->name, now_s() - t0);
		if (child_interrupted()) {
			printf("# interrupted\n");
			break;
		}
	}
	remove_tree(top_tmp);
	free(tmpl);
	if (!run && from_env) {
		struct strbuf words = STRBUF_INIT;

		for (size_t i = 0; i < pats.n; i++)
			sb_addf(&words, "%s%s", i ? " " : "", pats.v[i]);
		printf("1..0 # SKIP no test matches TESTS='%s'\n", words.buf);
		fprintf(stderr, "unit: no test here matches TESTS='%s'\n", words.buf);
		sb_release(&words);
	} else {
		printf("1..%zu\n", run);
	}
	printf("# unit: %lu checks%s%s\n", checks, failed_tests ? "; failed:" : "", failed.buf);
	/* The summary line every suite prints (tests/run.sh reads it). */
	printf("unit: %zu passed, %zu failed", run - failed_tests - skipped, failed_tests);
	if (skipped)
		printf(", %zu skipped", skipped);
	putchar('\n');
	sb_release(&failed);
	strvec_clear(&pats);
	free(tests);
	if (fflush(stdout))
		return 1;
	if (failed_tests || child_interrupted())
		return 1;
	return run && skipped == run ? 77 : 0;	/* every test skipped: tests/lib.sh's 77 */
}
