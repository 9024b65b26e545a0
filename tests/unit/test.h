/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test.h: the unit tests' tiny framework.
 *
 *	#include "test.h"
 *
 *	TEST(meminfo_parses_i386)
 *	{
 *		size_t len;
 *		char *buf = fixture("meminfo/i386-after-insmod.txt", &len);
 *		...
 *		CHECK_EQ_INT(meminfo_get(&m, "LowFree"), 136160);
 *		CHECK_CONTAINS(err.buf, "line 3");
 *		free(buf);
 *	}
 *
 * TEST() registers the function from a constructor; tests/unit/main.c runs
 * them all, or those named (sh glob patterns, or TESTS=).  CHECK_* record a
 * failure with file:line and let the test go on; REQUIRE() records one and
 * ends the test at once (for a NULL that the rest of the test would
 * dereference).  fixture() ends the test the same way when the file is
 * missing.
 *
 * Every CHECK*, CHECKF and REQUIRE counts as an assertion, passed or not;
 * a test in which none ran fails ("no assertion ran"), as in tests/lib.sh.
 * Reading a fixture is not one: a test that only reads its input checked
 * nothing.  A condition found by the test's own logic is CHECKF(cond,
 * fmt, ...): counted, and on failure the message says what was wrong.
 *
 * Each test runs in its own child process (main.c), so a crash, a hang
 * (alarm) or a sanitizer report at exit is charged to the test that caused
 * it, and the rest still run.
 */
#ifndef SCALETEST_UNIT_TEST_H
#define SCALETEST_UNIT_TEST_H

#include <stddef.h>
#include <string.h>

typedef void (*test_fn)(void);

void test_register(const char *name, test_fn fn, const char *file);
void test_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Record a failure and leave the current test (longjmp). */
void test_abort(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));
void test_check_str(const char *file, int line, const char *ea, const char *eb,
		    const char *a, const char *b);
void test_check_contains(const char *file, int line, const char *eh,
			 const char *en, const char *h, const char *n);

extern const char *fixtures_dir;
/* The assertions that ran in the current test (main.c reads it). */
extern unsigned long test_nchecks;
/* Read fixtures_dir/relpath into malloc'd memory (NUL-terminated; *len
 * excludes the NUL; len may be NULL).  Ends the test if it cannot. */
char *fixture_at(const char *file, int line, const char *relpath, size_t *len);
#define fixture(relpath, len) fixture_at(__FILE__, __LINE__, (relpath), (len))

/* SKIP(why): the test cannot run here (a program this host lacks); it
 * ends at once and is "ok N - NAME # SKIP why" unless it already failed. */
void test_skip(const char *why) __attribute__((noreturn));
#define SKIP(why) test_skip(why)

/* A fresh temporary directory for this test (removed after it). */
const char *test_tmpdir(void);

/* For code that reports through error(): between these two calls
 * util_quiet is 0 and stderr goes to a file; the end returns what was
 * written (malloc'd) and puts both back. */
void stderr_capture_begin(void);
char *stderr_capture_end(void);

#define TEST(name)							\
	static void test_##name(void);					\
	static void test_reg_##name(void) __attribute__((constructor));	\
	static void test_reg_##name(void)				\
	{								\
		test_register(#name, test_##name, __FILE__);		\
	}								\
	static void test_##name(void)

#define CHECK(cond)							\
	do {								\
		test_nchecks++;						\
		if (!(cond))						\
			test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond); \
	} while (0)

/* CHECK with the test's own message: CHECKF(n == want, "%zu records", n);
 * CHECKF_AT the same at a caller's file and line (in a helper). */
#define CHECKF_AT(file, line, cond, ...)				\
	do {								\
		test_nchecks++;						\
		if (!(cond))						\
			test_fail((file), (line), __VA_ARGS__);		\
	} while (0)
#define CHECKF(cond, ...) CHECKF_AT(__FILE__, __LINE__, cond, __VA_ARGS__)

#define REQUIRE(cond)							\
	do {								\
		test_nchecks++;						\
		if (!(cond))						\
			test_abort(__FILE__, __LINE__, "REQUIRE(%s)", #cond); \
	} while (0)

#define CHECK_EQ_INT(a, b)						\
	do {								\
		long long chk_a_ = (long long)(a);			\
		long long chk_b_ = (long long)(b);			\
		test_nchecks++;						\
		if (chk_a_ != chk_b_)					\
			test_fail(__FILE__, __LINE__,			\
				  "CHECK_EQ_INT(%s, %s): %lld != %lld",	\
				  #a, #b, chk_a_, chk_b_);		\
	} while (0)

#define CHECK_STR(a, b) \
	test_check_str(__FILE__, __LINE__, #a, #b, (a), (b))

#define CHECK_CONTAINS(haystack, needle) \
	test_check_contains(__FILE__, __LINE__, #haystack, #needle, \
			    (haystack), (needle))

#endif
