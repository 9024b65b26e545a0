// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "record/meminfo.h"
#include "test.h"
#include "lib/util.h"

/* Parse a string that must be rejected; return the message (static). */
static const char *bad(const char *buf, size_t len)
{
	static char msg[256];
	struct meminfo m = MEMINFO_INIT;
	struct strbuf err = STRBUF_INIT;
	int r = meminfo_parse(&m, buf, len, &err);

	CHECK_EQ_INT(r, -1);
	CHECK_EQ_INT(m.n, 0);
	snprintf(msg, sizeof(msg), "%s", err.buf);
	meminfo_release(&m);
	sb_release(&err);
	return msg;
}
#define BAD(s) bad((s), sizeof(s) - 1)

TEST(meminfo_i386_fixture)
{
	size_t len;
	char *buf = fixture("meminfo/i386-after-insmod.txt", &len);
	struct meminfo m = MEMINFO_INIT;
	struct strbuf err = STRBUF_INIT;
	const struct meminfo_field *f;

	CHECK_EQ_INT(meminfo_parse(&m, buf, len, &err), 0);
	CHECK_STR(err.buf, "");
	CHECK_EQ_INT(m.n, 57);
	REQUIRE(m.n > 0);
	CHECK_STR(m.f[0].name, "MemTotal");
	CHECK_STR(m.f[m.n - 1].name, "DirectMap2M");
	CHECK_EQ_INT(meminfo_get(&m, "MemTotal"), 2059200);
	CHECK_EQ_INT(meminfo_get(&m, "MemFree"), 1312904);
	CHECK_EQ_INT(meminfo_get(&m, "LowFree"), 136160);
	CHECK_EQ_INT(meminfo_get(&m, "LowTotal"), 863300);
	CHECK_EQ_INT(meminfo_get(&m, "HighFree"), 1176744);
	CHECK_EQ_INT(meminfo_get(&m, "Slab"), 400152);
	CHECK_EQ_INT(meminfo_get(&m, "Active(anon)"), 2476);
	f = meminfo_find(&m, "HugePages_Total");
	REQUIRE(f);
	CHECK_EQ_INT(f->is_kb, 0);
	CHECK_EQ_INT(f->value, 0);
	f = meminfo_find(&m, "Hugepagesize");
	REQUIRE(f);
	CHECK_EQ_INT(f->is_kb, 1);
	CHECK_EQ_INT(f->value, 2048);
	f = meminfo_find(&m, "MemFree");
	REQUIRE(f);
	CHECK_EQ_INT(f->is_kb, 1);
	CHECK_EQ_INT(meminfo_get(&m, "NoSuchField"), -1);
	CHECK(meminfo_find(&m, "NoSuchField") == NULL);
	meminfo_release(&m);
	CHECK_EQ_INT(m.n, 0);
	CHECK(m.f == NULL);
	sb_release(&err);
	free(buf);
}

TEST(meminfo_amd64_fixture)
{
	size_t len;
	char *buf = fixture("meminfo/amd64-after-insmod.txt", &len);
	struct meminfo m = MEMINFO_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(meminfo_parse(&m, buf, len, &err), 0);
	CHECK_STR(err.buf, "");
	CHECK_EQ_INT(m.n, 53);
	CHECK_EQ_INT(meminfo_get(&m, "MemTotal"), 468404);
	CHECK_EQ_INT(meminfo_get(&m, "MemFree"), 418916);
	CHECK_EQ_INT(meminfo_get(&m, "MemAvailable"), 420908);
	/* 64-bit: no highmem split. */
	CHECK_EQ_INT(meminfo_get(&m, "LowFree"), -1);
	CHECK(meminfo_find(&m, "HighTotal") == NULL);
	/* Wider than 32 bits. */
	CHECK_EQ_INT(meminfo_get(&m, "VmallocTotal"), 34359738367LL);
	REQUIRE(meminfo_find(&m, "HugePages_Free"));
	CHECK_EQ_INT(meminfo_find(&m, "HugePages_Free")->is_kb, 0);
	meminfo_release(&m);
	sb_release(&err);
	free(buf);
}

TEST(meminfo_small_inputs)
{
	struct meminfo m = MEMINFO_INIT;
	struct strbuf err = STRBUF_INIT;
	static const char nonl[] = "MemTotal: 10 kB\nHugePages_Total:     7";

	/* No final newline: the last line still counts. */
	CHECK_EQ_INT(meminfo_parse(&m, nonl, sizeof(nonl) - 1, &err), 0);
	CHECK_EQ_INT(m.n, 2);
	CHECK_EQ_INT(meminfo_get(&m, "HugePages_Total"), 7);
	REQUIRE(meminfo_find(&m, "HugePages_Total"));
	CHECK_EQ_INT(meminfo_find(&m, "HugePages_Total")->is_kb, 0);
	/* A 47-character name is the longest allowed. */
	char line[128];
	snprintf(line, sizeof(line), "%.*s: 5 kB\n", MEMINFO_NAME_MAX - 1,
		 "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghij");
	CHECK_EQ_INT(meminfo_parse(&m, line, strlen(line), &err), 0);
	REQUIRE(m.n == 1);
	CHECK_EQ_INT(strlen(m.f[0].name), MEMINFO_NAME_MAX - 1);
	CHECK_STR(err.buf, "");
	meminfo_release(&m);
	sb_release(&err);
}

TEST(meminfo_missing_colon)
{
	CHECK_STR(BAD("MemTotal: 1 kB\nMemFree 2 kB\n"), "line 2: missing ':'");
}

TEST(meminfo_not_a_number)
{
	CHECK_STR(BAD("MemTotal: 1 kB\nMemFree: 2 kB\nCached: abc kB\n"),
		  "line 3: missing number");
	CHECK_STR(BAD("MemFree: -5 kB\n"), "line 1: missing number");
	CHECK_STR(BAD("MemFree:\n"), "line 1: missing number");
}

TEST(meminfo_number_too_long)
{
	/* 40 digits do not fit the parser's buffer. */
	CHECK_STR(BAD("MemTotal: 1 kB\nMemFree: 1234567890123456789012345678901234567890 kB\n"),
		  "line 2: number too long");
}

TEST(meminfo_number_out_of_range)
{
	/* 20 digits: fits the buffer, not a long long. */
	CHECK_STR(BAD("MemFree: 99999999999999999999 kB\n"),
		  "line 1: number out of range");
	/* A long long, but past MEMINFO_VALUE_MAX: the analysis's differences
	 * and per-disk bytes would overflow (LLONG_MAX kB wrapped into
	 * garbage).  MEMINFO_VALUE_MAX itself is fine. */
	CHECK_STR(BAD("MemFree: 9223372036854775807 kB\n"), "line 1: number out of range");
	CHECK_STR(BAD("MemFree: 1125899906842625 kB\n"), "line 1: number out of range");
	struct meminfo m = MEMINFO_INIT;
	struct strbuf err = STRBUF_INIT;
	static const char max[] = "MemFree: 1125899906842624 kB\n";
	CHECK_EQ_INT(meminfo_parse(&m, max, sizeof(max) - 1, &err), 0);
	CHECK_EQ_INT(meminfo_get(&m, "MemFree"), MEMINFO_VALUE_MAX);
	meminfo_release(&m);
	sb_release(&err);
}

TEST(meminfo_duplicate_field)
{
	CHECK_STR(BAD("MemTotal: 1 kB\nMemFree: 2 kB\nMemFree: 3 kB\n"),
		  "line 3: duplicate field");
}

TEST(meminfo_nul_byte)
{
	CHECK_STR(BAD("MemTotal: 1 kB\nMem\0Free: 2 kB\n"), "line 2: NUL byte");
	CHECK_STR(BAD("MemTotal: 1 kB\0\n"), "line 1: NUL byte");
}

TEST(meminfo_empty_input)
{
	CHECK_STR(BAD(""), "no fields");
	CHECK_STR(BAD("\n"), "no fields");
}

TEST(meminfo_trailing_garbage)
{
	CHECK_STR(BAD("MemTotal: 1 kB\nMemFree: 2 kB x\n"), "line 2: trailing garbage");
	CHECK_STR(BAD("MemFree: 2 MB\n"), "line 1: trailing garbage");
	CHECK_STR(BAD("MemFree: 2x\n"), "line 1: trailing garbage");
}

TEST(meminfo_name_too_long)
{
	char buf[128];

	/* 48 characters: one too many for MEMINFO_NAME_MAX. */
	snprintf(buf, sizeof(buf), "MemTotal: 1 kB\n%.*s: 5 kB\n", MEMINFO_NAME_MAX,
		 "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghij");
	CHECK_STR(bad(buf, strlen(buf)), "line 2: name too long");
	CHECK_STR(BAD(": 5 kB\n"), "line 1: empty name");
	CHECK_STR(BAD("Mem Free: 5 kB\n"), "line 1: bad character in name");
}

TEST(meminfo_blank_line_inside)
{
	CHECK_STR(BAD("MemTotal: 1 kB\n\nMemFree: 2 kB\n"), "line 2: missing ':'");
}

TEST(meminfo_error_keeps_previous_result)
{
	struct meminfo m = MEMINFO_INIT;
	struct strbuf err = STRBUF_INIT;
	static const char good[] = "MemTotal: 10 kB\nMemFree: 5 kB\n";
	static const char worse[] = "MemTotal: 11 kB\nMemFree: oops\n";

	CHECK_EQ_INT(meminfo_parse(&m, good, sizeof(good) - 1, &err), 0);
	CHECK_EQ_INT(meminfo_parse(&m, worse, sizeof(worse) - 1, &err), -1);
	CHECK_STR(err.buf, "line 2: missing number");
	/* Nothing partial: the earlier result is untouched. */
	CHECK_EQ_INT(m.n, 2);
	CHECK_EQ_INT(meminfo_get(&m, "MemTotal"), 10);
	meminfo_release(&m);
	sb_release(&err);
}

TEST(meminfo_many_fields_duplicate_late)
{
	/* The most fields there may be, then one repeated: the duplicate check
	 * is a sort (it was a walk per field, 14 s at 80000), and names the
	 * right line. */
	struct strbuf in = STRBUF_INIT, err = STRBUF_INIT;
	struct meminfo m = MEMINFO_INIT;
	char want[64];

	for (int i = 0; i < MEMINFO_MAX_FIELDS - 1; i++)
		sb_addf(&in, "F%d: %d kB\n", i, i);
	CHECK_EQ_INT(meminfo_parse(&m, in.buf, in.len, &err), 0);
	CHECK_EQ_INT(m.n, MEMINFO_MAX_FIELDS - 1);
	CHECK_EQ_INT(meminfo_get(&m, "F510"), 510);
	sb_addf(&in, "F123: 1 kB\n");
	CHECK_EQ_INT(meminfo_parse(&m, in.buf, in.len, &err), -1);
	snprintf(want, sizeof(want), "line %d: duplicate field", MEMINFO_MAX_FIELDS);
	CHECK_STR(err.buf, want);
	/* The first error in line order wins: a duplicate before a bad line. */
	sb_reset(&err);
	sb_adds(&in, "garbage\n");
	CHECK_EQ_INT(meminfo_parse(&m, in.buf, in.len, &err), -1);
	CHECK_STR(err.buf, want);
	CHECK_EQ_INT(m.n, MEMINFO_MAX_FIELDS - 1);	/* the previous result stays */
	/* One field past the bound: refused, naming the line (a guest cannot
	 * make the harness keep what it likes). */
	sb_reset(&in);
	sb_reset(&err);
	for (int i = 0; i <= MEMINFO_MAX_FIELDS; i++)
		sb_addf(&in, "F%d: %d kB\n", i, i);
	CHECK_EQ_INT(meminfo_parse(&m, in.buf, in.len, &err), -1);
	snprintf(want, sizeof(want), "line %d: more fields than", MEMINFO_MAX_FIELDS + 1);
	CHECK_CONTAINS(err.buf, want);
	meminfo_release(&m);
	sb_release(&in);
	sb_release(&err);
}
