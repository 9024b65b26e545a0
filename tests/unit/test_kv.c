// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "record/kv.h"
#include "test.h"
#include "lib/util.h"

static const char *lines_bad(const char *text, size_t len)
{
	static char msg[256];
	struct kvlist kv = KVLIST_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(kv_lines(&kv, text, len, &err), -1);
	snprintf(msg, sizeof(msg), "%s", err.buf);
	kvlist_release(&kv);
	sb_release(&err);
	return msg;
}
#define LINES_BAD(s) lines_bad((s), sizeof(s) - 1)

static const char *words_bad(const char *text)
{
	static char msg[256];
	struct kvlist kv = KVLIST_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(kv_words(&kv, text, strlen(text), &err), -1);
	snprintf(msg, sizeof(msg), "%s", err.buf);
	kvlist_release(&kv);
	sb_release(&err);
	return msg;
}

TEST(kv_lines_good)
{
	static const char text[] =
		"status=ok\n"
		"reason=all disks present, 4000 of 4000\n"
		"\n"
		"insmod_cs=1234\n"
		"empty=\n"
		"eq=a=b\n"
		"k_2=  spaced  \n"
		"last=no newline";
	struct kvlist kv = KVLIST_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(kv_lines(&kv, text, sizeof(text) - 1, &err), 0);
	CHECK_STR(err.buf, "");
	CHECK_EQ_INT(kv.n, 7);
	CHECK_STR(kv_get(&kv, "status"), "ok");
	CHECK_STR(kv_get(&kv, "reason"), "all disks present, 4000 of 4000");
	CHECK_STR(kv_get(&kv, "empty"), "");
	CHECK_STR(kv_get(&kv, "eq"), "a=b");
	CHECK_STR(kv_get(&kv, "k_2"), "  spaced  ");
	CHECK_STR(kv_get(&kv, "last"), "no newline");
	CHECK(kv_get(&kv, "missing") == NULL);
	CHECK(kv_get(&kv, "stat") == NULL);
	CHECK_EQ_INT(kv_get_num(&kv, "insmod_cs"), 1234);
	kvlist_release(&kv);
	CHECK_EQ_INT(kv.n, 0);
	sb_release(&err);
}

TEST(kv_words_good)
{
	static const char line[] = "  disk=sdewv ok=1\twrite_cs=120 read_cs=95 bytes=4194304  ";
	struct kvlist kv = KVLIST_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(kv_words(&kv, line, sizeof(line) - 1, &err), 0);
	CHECK_STR(err.buf, "");
	CHECK_EQ_INT(kv.n, 5);
	CHECK_STR(kv_get(&kv, "disk"), "sdewv");
	CHECK_EQ_INT(kv_get_num(&kv, "ok"), 1);
	CHECK_EQ_INT(kv_get_num(&kv, "bytes"), 4194304);
	CHECK_EQ_INT(kv_get_num(&kv, "read_cs"), 95);
	kvlist_release(&kv);
	/* Nothing but blanks: valid, empty. */
	CHECK_EQ_INT(kv_words(&kv, "  \t ", 4, &err), 0);
	CHECK_EQ_INT(kv.n, 0);
	kvlist_release(&kv);
	sb_release(&err);
}

TEST(kv_bad_key)
{
	CHECK_STR(LINES_BAD("status=ok\nStatus=ok\n"), "line 2: bad character in key");
	CHECK_STR(LINES_BAD("a b=c\n"), "line 1: bad character in key");
	CHECK_STR(LINES_BAD("a-b=c\n"), "line 1: bad character in key");
	CHECK_STR(LINES_BAD("ok=1\n=x\n"), "line 2: bad key length");
	CHECK_STR(LINES_BAD("abcdefghijabcdefghijabcdefghij12=x\n"), "line 1: bad key length");
	CHECK_STR(words_bad("ok=1 dIsk=sda"), "'dIsk=sda': bad character in key");
	/* The longest key allowed. */
	struct kvlist kv = KVLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	static const char k31[] = "abcdefghijabcdefghijabcdefghij1=x\n";
	CHECK_EQ_INT(kv_lines(&kv, k31, sizeof(k31) - 1, &err), 0);
	CHECK_STR(kv_get(&kv, "abcdefghijabcdefghijabcdefghij1"), "x");
	kvlist_release(&kv);
	sb_release(&err);
}

TEST(kv_missing_equals)
{
	CHECK_STR(LINES_BAD("status=ok\njunk\n"), "line 2: expected key=value");
	CHECK_STR(words_bad("ok=1 junk x=2"), "'junk': expected key=value");
}

TEST(kv_control_char_in_value)
{
	CHECK_STR(LINES_BAD("a=1\nb=x\x1b[31m\n"), "line 2: control character in value");
	CHECK_STR(LINES_BAD("a=x\ry\n"), "line 1: control character in value");
	CHECK_STR(LINES_BAD("a=x\x7f\n"), "line 1: control character in value");
	CHECK_STR(LINES_BAD("a=1\nb=x\0y\n"), "line 2: NUL byte");
	{
		static const char w[] = "a=1 b=x\0y";
		struct kvlist kv = KVLIST_INIT;
		struct strbuf err = STRBUF_INIT;

		CHECK_EQ_INT(kv_words(&kv, w, sizeof(w) - 1, &err), -1);
		CHECK_CONTAINS(err.buf, "NUL byte");
		kvlist_release(&kv);
		sb_release(&err);
	}
}

TEST(kv_value_too_long)
{
	struct strbuf t = STRBUF_INIT;
	struct kvlist kv = KVLIST_INIT;
	struct strbuf err = STRBUF_INIT;

	sb_adds(&t, "ok=1\nv=");
	for (int i = 0; i < KV_VALUE_MAX; i++)
		sb_addch(&t, 'x');
	/* Exactly KV_VALUE_MAX bytes: fine. */
	CHECK_EQ_INT(kv_lines(&kv, t.buf, t.len, &err), 0);
	REQUIRE(kv_get(&kv, "v"));
	CHECK_EQ_INT(strlen(kv_get(&kv, "v")), KV_VALUE_MAX);
	kvlist_release(&kv);
	sb_addch(&t, 'x');
	CHECK_STR(lines_bad(t.buf, t.len), "line 2: value too long");
	sb_release(&t);
	sb_release(&err);
}

TEST(kv_duplicate_keeps_first)
{
	static const char text[] = "status=ok\nstatus=fail\nreason=a\nreason=b\n";
	struct kvlist kv = KVLIST_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(kv_lines(&kv, text, sizeof(text) - 1, &err), 0);
	CHECK_EQ_INT(kv.n, 2);
	CHECK_STR(kv_get(&kv, "status"), "ok");
	CHECK_STR(kv_get(&kv, "reason"), "a");
	kvlist_release(&kv);
	CHECK_EQ_INT(kv_words(&kv, "d=sda d=sdb", 11, &err), 0);
	CHECK_EQ_INT(kv.n, 1);
	CHECK_STR(kv_get(&kv, "d"), "sda");
	kvlist_release(&kv);
	sb_release(&err);
}

TEST(kv_get_num)
{
	static const char text[] = "a=0\nb=42\nc=-1\nd=12x\ne=\nf=99999999999999999999\n"
		"g=4611686018427387904\nh=4611686018427387905\ni= 5\nj=+5\n";
	struct kvlist kv = KVLIST_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(kv_lines(&kv, text, sizeof(text) - 1, &err), 0);
	CHECK_EQ_INT(kv_get_num(&kv, "a"), 0);
	CHECK_EQ_INT(kv_get_num(&kv, "b"), 42);
	CHECK_EQ_INT(kv_get_num(&kv, "c"), -1);
	CHECK_EQ_INT(kv_get_num(&kv, "d"), -1);
	CHECK_EQ_INT(kv_get_num(&kv, "e"), -1);
	CHECK_EQ_INT(kv_get_num(&kv, "f"), -1);
	CHECK_EQ_INT(kv_get_num(&kv, "g"), 4611686018427387904LL);	/* 2^62 */
	CHECK_EQ_INT(kv_get_num(&kv, "h"), -1);
	CHECK_EQ_INT(kv_get_num(&kv, "i"), -1);
	CHECK_EQ_INT(kv_get_num(&kv, "j"), -1);
	CHECK_EQ_INT(kv_get_num(&kv, "absent"), -1);
	kvlist_release(&kv);
	sb_release(&err);
}

TEST(kv_many_lines_duplicates_keep_first)
{
	/* 80000 lines, every key twice: the first value stays, order kept;
	 * the check is a sort (it was a walk per line, 19 s). */
	struct strbuf in = STRBUF_INIT, err = STRBUF_INIT;
	struct kvlist kv = KVLIST_INIT;

	for (int i = 0; i < 40000; i++)
		sb_addf(&in, "k%d=first%d\n", i, i);
	for (int i = 0; i < 40000; i++)
		sb_addf(&in, "k%d=second%d\n", i, i);
	CHECK_EQ_INT(kv_lines(&kv, in.buf, in.len, &err), 0);
	CHECK_EQ_INT(kv.n, 40000);
	CHECK_STR(kv_get(&kv, "k0"), "first0");
	CHECK_STR(kv_get(&kv, "k39999"), "first39999");
	CHECK_STR(kv.v[1].key, "k1");
	kvlist_release(&kv);
	/* Across calls too: a second call does not replace a key. */
	CHECK_EQ_INT(kv_lines(&kv, "a=1\nb=2\n", 8, &err), 0);
	CHECK_EQ_INT(kv_words(&kv, "b=3 c=4 a=5", 11, &err), 0);
	CHECK_EQ_INT(kv.n, 3);
	CHECK_STR(kv_get(&kv, "a"), "1");
	CHECK_STR(kv_get(&kv, "b"), "2");
	CHECK_STR(kv_get(&kv, "c"), "4");
	kvlist_release(&kv);
	sb_release(&in);
	sb_release(&err);
}
