// SPDX-License-Identifier: Apache-2.0
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/textscan.h"
#include "result/result.h"
#include "test.h"
#include "lib/util.h"

TEST(util_parse_u64)
{
	uint64_t v = 7;

	CHECK_EQ_INT(parse_u64("0", &v), 0);
	CHECK_EQ_INT(v, 0);
	CHECK_EQ_INT(parse_u64("4000", &v), 0);
	CHECK_EQ_INT(v, 4000);
	CHECK_EQ_INT(parse_u64("18446744073709551615", &v), 0);
	CHECK(v == UINT64_MAX);
	v = 7;
	CHECK_EQ_INT(parse_u64("18446744073709551616", &v), -1);
	CHECK_EQ_INT(parse_u64("", &v), -1);
	CHECK_EQ_INT(parse_u64("-1", &v), -1);
	CHECK_EQ_INT(parse_u64("+1", &v), -1);
	CHECK_EQ_INT(parse_u64(" 1", &v), -1);
	CHECK_EQ_INT(parse_u64("1 ", &v), -1);
	CHECK_EQ_INT(parse_u64("0x10", &v), -1);
	CHECK_EQ_INT(parse_u64("12a", &v), -1);
	CHECK_EQ_INT(v, 7);	/* untouched on failure */
}

TEST(util_parse_numbers_reject_any_leading_space)
{
	/* util.h: "Parse a whole decimal number".  A leading tab, newline,
	 * CR, VT or FF is no more part of a number than a leading space. */
	static const char *const ws[] = { "\t5", "\n5", "\r5", "\v5", "\f5" };

	for (size_t i = 0; i < ARRAY_SIZE(ws); i++) {
		uint64_t u;
		int64_t s;

		CHECKF(parse_u64(ws[i], &u) == -1, "parse_u64 accepted byte 0x%02x then '5'",
		       (unsigned char)ws[i][0]);
		CHECKF(parse_i64(ws[i], &s) == -1, "parse_i64 accepted byte 0x%02x then '5'",
		       (unsigned char)ws[i][0]);
	}
}

TEST(util_parse_i64_and_double)
{
	int64_t v;
	double d;

	CHECK_EQ_INT(parse_i64("-711192", &v), 0);
	CHECK_EQ_INT(v, -711192);
	CHECK_EQ_INT(parse_i64("9223372036854775807", &v), 0);
	CHECK(v == INT64_MAX);
	CHECK_EQ_INT(parse_i64("9223372036854775808", &v), -1);
	CHECK_EQ_INT(parse_i64("+5", &v), -1);
	CHECK_EQ_INT(parse_i64("5x", &v), -1);
	CHECK_EQ_INT(parse_i64("", &v), -1);
	CHECK_EQ_INT(parse_double("12.34", &d), 0);
	CHECK(d > 12.33 && d < 12.35);
	CHECK_EQ_INT(parse_double("nan", &d), -1);
	CHECK_EQ_INT(parse_double("1e999", &d), -1);
	CHECK_EQ_INT(parse_double("1.5s", &d), -1);
	/* strtod() alone takes these; an uptime or a threshold is decimal */
	CHECK_EQ_INT(parse_double("inf", &d), -1);
	CHECK_EQ_INT(parse_double("-Infinity", &d), -1);
	CHECK_EQ_INT(parse_double("0x1p3", &d), -1);
	CHECK_EQ_INT(parse_double(" 1", &d), -1);
	CHECK_EQ_INT(parse_double("+1", &d), -1);
	CHECK_EQ_INT(parse_double(".", &d), -1);
	CHECK_EQ_INT(parse_double("1e", &d), -1);
	CHECK_EQ_INT(parse_double("-0", &d), 0);
	CHECK(d == 0 && !signbit(d));
	CHECK_EQ_INT(parse_double("-.5e-1", &d), 0);
	CHECK(d < -0.049 && d > -0.051);
	CHECK_EQ_INT(parse_double("3.", &d), 0);
}

TEST(textscan_lines)
{
	static const char buf[] = "a\n\nbc\nlast";
	struct line_iter it;
	struct strbuf got = STRBUF_INIT;

	line_iter_init(&it, buf, sizeof(buf) - 1);
	while (line_next(&it))
		sb_addf(&got, "%u:%.*s|", it.lineno, (int)it.len, it.line);
	CHECK_STR(got.buf, "1:a|2:|3:bc|4:last|");
	sb_reset(&got);
	line_iter_init(&it, "x\n", 2);
	while (line_next(&it))
		sb_addf(&got, "%u:%.*s|", it.lineno, (int)it.len, it.line);
	CHECK_STR(got.buf, "1:x|");
	CHECK(line_has_nul("a\0b", 3));
	CHECK(!line_has_nul("ab", 2));
	sb_release(&got);
}

TEST(textscan_line_next_copy)
{
	static const char buf[] = "a b\n\n\nc\0d\nlast";
	struct line_iter it;
	struct strbuf line = STRBUF_INIT, got = STRBUF_INIT;

	line_iter_init(&it, buf, sizeof(buf) - 1);
	CHECK(line_next_copy(&it, &line));
	CHECK_STR(line.buf, "a b");
	CHECK_EQ_INT(it.lineno, 1);
	CHECK(!line_has_nul(line.buf, line.len));
	/* Two empty lines skipped; the NUL byte kept in the copy. */
	CHECK(line_next_copy(&it, &line));
	CHECK_EQ_INT(it.lineno, 4);
	CHECK_EQ_INT(line.len, 3);
	CHECK(line_has_nul(line.buf, line.len));
	CHECK(line_next_copy(&it, &line));
	CHECK_STR(line.buf, "last");
	CHECK_EQ_INT(it.lineno, 5);
	CHECK(!line_next_copy(&it, &line));
	/* Nothing but empty lines: nothing at all. */
	line_iter_init(&it, "\n\n", 2);
	while (line_next_copy(&it, &line))
		sb_addf(&got, "%u:%s|", it.lineno, line.buf);
	CHECK_STR(got.buf, "");
	CHECK_EQ_INT(it.lineno, 2);
	sb_release(&line);
	sb_release(&got);
}

TEST(textscan_split_fields)
{
	char s1[] = "  a\tb  c ";
	char s2[] = "a b c d";
	char s3[] = " \t ";
	char *f[3];

	CHECK_EQ_INT(split_fields(s1, f, 3), 3);
	CHECK_STR(f[0], "a");
	CHECK_STR(f[1], "b");
	CHECK_STR(f[2], "c");
	CHECK_EQ_INT(split_fields(s2, f, 3), 4);
	CHECK_EQ_INT(split_fields(s3, f, 3), 0);
}

TEST(strbuf_basics)
{
	struct strbuf sb = STRBUF_INIT;
	char *p;
	size_t len;

	CHECK_STR(sb.buf, "");
	sb_addf(&sb, "%s=%d", "disks", 4000);
	sb_addch(&sb, '\0');
	sb_add(&sb, "xyz", 3);
	CHECK_EQ_INT(sb.len, 14);
	CHECK(sb.buf[sb.len] == '\0');
	sb_consume(&sb, 6);
	CHECK_STR(sb.buf, "4000");
	CHECK_EQ_INT(sb.len, 8);
	sb_setlen(&sb, 2);
	CHECK_STR(sb.buf, "40");
	p = sb_detach(&sb, &len);
	CHECK_STR(p, "40");
	CHECK_EQ_INT(len, 2);
	CHECK_EQ_INT(sb.len, 0);
	CHECK_STR(sb.buf, "");
	free(p);
	for (int i = 0; i < 10000; i++)
		sb_addch(&sb, 'a' + i % 26);
	CHECK_EQ_INT(sb.len, 10000);
	CHECK(sb.buf[9999] == 'a' + 9999 % 26 && sb.buf[10000] == '\0');
	sb_reset(&sb);
	CHECK_EQ_INT(sb.len, 0);
	CHECK_STR(sb.buf, "");
	sb_release(&sb);
}

TEST(strvec_basics)
{
	struct strvec sv = STRVEC_INIT;

	CHECK(sv.v[0] == NULL);
	strvec_push(&sv, "qemu-system-x86_64");
	strvec_pushf(&sv, "-m %d", 2048);
	CHECK_EQ_INT(sv.n, 2);
	CHECK(sv.v[2] == NULL);
	CHECK_STR(sv.v[1], "-m 2048");
	CHECK_EQ_INT(strvec_find(&sv, "-m 2048"), 1);
	CHECK_EQ_INT(strvec_find(&sv, "-m"), -1);
	strvec_clear(&sv);
	CHECK_EQ_INT(sv.n, 0);
	CHECK(sv.v[0] == NULL);
}

TEST(util_paths)
{
	char *a = absolute_path("/x/y");

	CHECK_STR(a, "/x/y");
	free(a);
	a = absolute_path("rel/p");
	CHECK(a[0] == '/');
	CHECK(strlen(a) > 6 && !strcmp(a + strlen(a) - 6, "/rel/p"));
	free(a);
	CHECK_STR(path_basename("a/b/c.scn"), "c.scn");
	CHECK_STR(path_basename("c"), "c");
	CHECK_STR(path_basename("a/"), "");
}

TEST(util_hash_known_value)
{
	struct hash_ctx *h = hash_new();
	char hex[65];

	hash_add(h, "abc", 3);
	hash_hex(h, hex);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	h = hash_new();
	hash_add(h, "a", 1);
	hash_add(h, "bc", 2);
	hash_hex(h, hex);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(util_write_file_atomic_and_tree)
{
	const char *dir = test_tmpdir();
	char *sub = xstrfmt("%s/a/b/c", dir);
	char *f = xstrfmt("%s/file", sub);
	char *tmp = xstrfmt("%s.tmp", f);
	struct strbuf sb = STRBUF_INIT;
	char *top = xstrfmt("%s/a", dir);

	CHECK_EQ_INT(mkdir_p(sub, 0755), 0);
	CHECK(is_dir(sub));
	CHECK_EQ_INT(mkdir_p(sub, 0755), 0);	/* again: fine */
	CHECK_EQ_INT(write_file_atomic(f, "one\0two", 7), 0);
	CHECK(!path_exists(tmp));
	CHECK_EQ_INT(sb_read_file(&sb, f), 0);
	CHECK_EQ_INT(sb.len, 7);
	CHECK(!memcmp(sb.buf, "one\0two", 7));
	CHECK_EQ_INT(mkdir_p(f, 0755), -1);	/* a file is in the way */
	CHECK_EQ_INT(remove_tree(top), 0);
	CHECK(!path_exists(top));
	CHECK_EQ_INT(remove_tree(top), 0);	/* already gone: fine */
	sb_release(&sb);
	free(sub);
	free(f);
	free(tmp);
	free(top);
}

TEST(util_sb_add_clean)
{
	static const struct {
		const char *in;
		size_t len;
		int multi;
		const char *out;
	} cases[] = {
		{ "plain text", 10, 0, "plain text" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14, 0, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
		{ "a\nb\tc\rd", 7, 0, "a?b?c?d" },
		{ "a\nb\tc\rd", 7, 1, "a\nb\tc?d" },
		{ "\x1b[31m\x7f", 6, 1, "?[31m?" },
		{ "\xc2\x9b" "31m\xc2\x85\xc2\xa0", 9, 0, "?31m?\xc2\xa0" },	/* C1, then NBSP kept */
		{ "\xff\xfe\x80", 3, 0, "???" },
		{ "\xc0\xaf\xe0\x80\xaf", 5, 0, "?????" },	/* overlong */
		{ "\xed\xa0\x80", 3, 0, "???" },		/* a surrogate */
		{ "\xf4\x90\x80\x80", 4, 0, "????" },		/* past U+10FFFF */
		{ "\xe2\x82", 2, 0, "??" },			/* cut short */
		{ "a\0b", 3, 1, "a?b" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;

		sb_add_clean(&sb, cases[i].in, cases[i].len, cases[i].multi);
		CHECK_STR(sb.buf, cases[i].out);
		CHECK_EQ_INT(text_is_clean(cases[i].in, cases[i].len, cases[i].multi),
			     !strcmp(sb.buf, cases[i].in) && strlen(cases[i].in) == cases[i].len);
		CHECK(text_is_clean(sb.buf, sb.len, cases[i].multi));
		sb_release(&sb);
	}
}

TEST(util_json_seconds_large_and_not_finite)
{
	/* "%.2f" into 32 bytes cut large values short (1e300 became a
	 * 31-digit number); NaN and infinity are not JSON. */
	json_object *o = json_seconds(1e300);
	double back;

	CHECK(o != NULL);
	CHECK_EQ_INT(parse_double(json_object_to_json_string(o), &back), 0);
	CHECK(back == 1e300);
	json_object_put(o);
	o = json_seconds(-123456789012345678.0);
	CHECK_EQ_INT(parse_double(json_object_to_json_string(o), &back), 0);
	CHECK(back == -123456789012345678.0);
	json_object_put(o);
	o = json_seconds(12.5);
	CHECK_STR(json_object_to_json_string(o), "12.50");
	json_object_put(o);
	CHECK(json_seconds(INFINITY) == NULL);
	CHECK(json_seconds(NAN) == NULL);
}

/* A failed build's errors from where its step began, wherever a parallel
 * make left them: before the tail, and not an earlier step's. */
TEST(util_log_errors_from_the_step)
{
	static const char log[] =
		"old.c:1:1: error: an earlier step's\n"
		"  CC      block/blk-mq.o\n"
		"block/blk-mq-sched.c:10:2: error: deliberate build failure\n"
		"make[4]: *** [Makefile.build:255: block/blk-mq-sched.o] Error 1\n"
		"  CC      fs/sysfs/file.o\n"
		"x.h:3:10: fatal error: y.h: No such file or directory\n"
		"no newline: error: at the end";
	char *f = xstrfmt("%s/build.log", test_tmpdir());
	struct strbuf out = STRBUF_INIT;
	size_t from = strchr(log, '\n') - log + 1;

	REQUIRE(write_file(f, log, sizeof(log) - 1) == 0);
	CHECK_EQ_INT(log_errors(f, from, 10, &out), 3);
	CHECK_STR(out.buf, "block/blk-mq-sched.c:10:2: error: deliberate build failure\n"
		  "x.h:3:10: fatal error: y.h: No such file or directory\n"
		  "no newline: error: at the end\n");
	sb_reset(&out);
	CHECK_EQ_INT(log_errors(f, from, 1, &out), 1);	/* at most max */
	CHECK_EQ_INT(log_errors(f, 0, 10, &out), 4);	/* from the start */
	sb_reset(&out);
	CHECK_EQ_INT(log_errors(f, sizeof(log) + 5, 10, &out), 0);	/* past the end */
	CHECK_EQ_INT(log_errors("/nonexistent/log", 0, 10, &out), 0);
	CHECK_EQ_INT((int)out.len, 0);
	sb_release(&out);
	free(f);
}

/* json-c 0.17 and later (trixie) write an empty array or object as "[]"
 * and "{}", 0.16 (bookworm) on two lines: the harness writes the latter
 * with either, so that golden files and replays agree on both. */
TEST(util_json_pretty_one_form_for_every_json_c)
{
	struct strbuf sb = STRBUF_INIT;
	const char *newer =
		"{\n"
		"  \"a\": [],\n"
		"  \"b\": {},\n"
		"  \"c\": [\n"
		"    [],\n"
		"    { \"d\": \"[] {} \\\" [] \\\\\" }\n"
		"  ],\n"
		"  \"e\": \"{}\"\n"
		"}";
	const char *older =
		"{\n"
		"  \"a\": [\n"
		"  ],\n"
		"  \"b\": {\n"
		"  },\n"
		"  \"c\": [\n"
		"    [\n"
		"    ],\n"
		"    { \"d\": \"[] {} \\\" [] \\\\\" }\n"
		"  ],\n"
		"  \"e\": \"{}\"\n"
		"}";
	json_object *o = json_object_new_object(), *c = json_object_new_array(), *d = json_object_new_object();

	json_pretty_text(&sb, newer);
	CHECK_STR(sb.buf, older);
	sb_reset(&sb);
	json_pretty_text(&sb, older);	/* 0.16's own: unchanged */
	CHECK_STR(sb.buf, older);
	sb_reset(&sb);
	json_pretty_text(&sb, "{}");
	CHECK_STR(sb.buf, "{\n}");
	sb_reset(&sb);
	/* this json-c, whichever it is */
	json_object_object_add(o, "a", json_object_new_array());
	json_object_object_add(o, "b", json_object_new_object());
	json_object_array_add(c, json_object_new_array());
	json_object_object_add(d, "d", json_object_new_string("[] {} \" [] \\"));
	json_object_array_add(c, d);
	json_object_object_add(o, "c", c);
	json_object_object_add(o, "e", json_object_new_string("{}"));
	json_pretty(&sb, o);
	CHECK_CONTAINS(sb.buf, "  \"a\": [\n  ],\n");
	CHECK_CONTAINS(sb.buf, "  \"b\": {\n  },\n");
	CHECK_CONTAINS(sb.buf, "    [\n    ],\n");
	CHECK_CONTAINS(sb.buf, "\"[] {} \\\" [] \\\\\"");
	CHECK_CONTAINS(sb.buf, "\"e\": \"{}\"");
	json_object_put(o);
	sb_release(&sb);
}

/* A failure's class is the value returned, and the command layer's exit
 * code follows it (docs/statuses.md); of several, the environment's
 * decides, then a usage error, then any failure. */
TEST(util_error_classes_and_exit_codes)
{
	CHECK_EQ_INT(exit_code(0), EXIT_OK);
	CHECK_EQ_INT(exit_code(1), EXIT_OK);
	CHECK_EQ_INT(exit_code(ERR_FAIL), EXIT_RUNFAIL);
	CHECK_EQ_INT(exit_code(ERR_USAGE), EXIT_USAGE);
	CHECK_EQ_INT(exit_code(ERR_ENV), EXIT_ENV);
	CHECK_EQ_INT(exit_code(-7), EXIT_RUNFAIL);
	CHECK_EQ_INT(error_env("a tool is missing"), ERR_ENV);	/* (quiet in tests) */
	CHECK_EQ_INT(error("an ordinary failure"), ERR_FAIL);
	CHECK_EQ_INT(err_worse(0, ERR_FAIL), ERR_FAIL);
	CHECK_EQ_INT(err_worse(ERR_ENV, ERR_FAIL), ERR_ENV);
	CHECK_EQ_INT(err_worse(ERR_FAIL, ERR_ENV), ERR_ENV);
	CHECK_EQ_INT(err_worse(ERR_USAGE, ERR_FAIL), ERR_USAGE);
	CHECK_EQ_INT(err_worse(0, 0), 0);
}

/* A link anywhere in a tree is removed itself, never followed (issue 36,
 * 3), and remove_tree_at with seen leaves what is no longer the directory
 * judged. */
TEST(util_remove_tree_never_follows_a_link)
{
	const char *dir = test_tmpdir();
	char *outside = xstrfmt("%s/outside", dir), *keep = xstrfmt("%s/outside/keep", dir);
	char *tree = xstrfmt("%s/tree", dir), *deep = xstrfmt("%s/tree/a/b", dir);
	char *l1 = xstrfmt("%s/tree/link", dir), *l2 = xstrfmt("%s/tree/a/b/link", dir);
	struct stat st;
	int dfd;

	REQUIRE(mkdir_p(outside, 0755) == 0 && mkdir_p(deep, 0755) == 0);
	REQUIRE(write_file(keep, "x", 1) == 0);
	REQUIRE(symlink(outside, l1) == 0 && symlink(outside, l2) == 0);
	CHECK_EQ_INT(remove_tree(tree), 0);
	CHECK(!path_exists(tree));
	CHECK(path_exists(keep));
	/* a link named as the tree: the link goes, its target stays */
	REQUIRE(symlink(outside, tree) == 0);
	CHECK_EQ_INT(remove_tree(tree), 0);
	CHECK(!path_exists(tree) && path_exists(keep));
	/* seen: only the directory seen there */
	REQUIRE(mkdir_p(deep, 0755) == 0);
	REQUIRE(lstat(outside, &st) == 0);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	REQUIRE(dfd >= 0);
	util_quiet = 1;
	CHECK_EQ_INT(remove_tree_at(dfd, "tree", tree, &st), -1);
	util_quiet = 0;
	CHECK(path_exists(deep));
	REQUIRE(lstat(tree, &st) == 0);
	CHECK_EQ_INT(remove_tree_at(dfd, "tree", tree, &st), 0);
	CHECK(!path_exists(tree) && path_exists(keep));
	close(dfd);
	free(outside);
	free(keep);
	free(tree);
	free(deep);
	free(l1);
	free(l2);
}
