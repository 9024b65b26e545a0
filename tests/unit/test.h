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
 * them all, or those whose name contains argv[2].  CHECK_* record a failure
 * with file:line and let the test go on; REQUIRE() records one and ends the
 * test at once (for a NULL that the rest of the test would dereference).
 * fixture() ends the test the same way when the file is missing.
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
/* Read fixtures_dir/relpath into malloc'd memory (NUL-terminated; *len
 * excludes the NUL; len may be NULL).  Ends the test if it cannot. */
char *fixture_at(const char *file, int line, const char *relpath, size_t *len);
#define fixture(relpath, len) fixture_at(__FILE__, __LINE__, (relpath), (len))

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
		if (!(cond))						\
			test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond); \
	} while (0)

#define REQUIRE(cond)							\
	do {								\
		if (!(cond))						\
			test_abort(__FILE__, __LINE__, "REQUIRE(%s)", #cond); \
	} while (0)

#define CHECK_EQ_INT(a, b)						\
	do {								\
		long long chk_a_ = (long long)(a);			\
		long long chk_b_ = (long long)(b);			\
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
