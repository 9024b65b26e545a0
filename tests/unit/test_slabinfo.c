// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "record/slabinfo.h"
#include "test.h"
#include "lib/util.h"

#define HEAD "slabinfo - version: 2.1\n" \
	"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n"
#define KMALLOC64 "kmalloc-64          2176   2176     64   64    1 : tunables    0    0    0 : slabdata     34     34      0\n"

static const char *bad(const char *buf, size_t len)
{
	static char msg[256];
	struct slabinfo s = SLABINFO_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(slabinfo_parse(&s, buf, len, &err), -1);
	CHECK_EQ_INT(s.n, 0);
	snprintf(msg, sizeof(msg), "%s", err.buf);
	slabinfo_release(&s);
	sb_release(&err);
	return msg;
}
#define BAD(s) bad((s), sizeof(s) - 1)

static void check_cache(const struct slabinfo *s, const char *name,
			long long active, long long num, long long size,
			long long per, long long pages, long long aslabs,
			long long nslabs)
{
	const struct slab_cache *c = slabinfo_find(s, name);

	CHECK(c != NULL);
	if (!c) {
		test_fail(__FILE__, __LINE__, "no cache '%s'", name);
		return;
	}
	CHECK_STR(c->name, name);
	CHECK_EQ_INT(c->active_objs, active);
	CHECK_EQ_INT(c->num_objs, num);
	CHECK_EQ_INT(c->objsize, size);
	CHECK_EQ_INT(c->objperslab, per);
	CHECK_EQ_INT(c->pagesperslab, pages);
	CHECK_EQ_INT(c->active_slabs, aslabs);
	CHECK_EQ_INT(c->num_slabs, nslabs);
}

TEST(slabinfo_i386_fixture)
{
	size_t len;
	char *buf = fixture("slabinfo/i386-after-insmod.txt", &len);
	struct slabinfo s = SLABINFO_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(slabinfo_parse(&s, buf, len, &err), 0);
	CHECK_STR(err.buf, "");
	CHECK_EQ_INT(s.n, 139);	/* 141 lines less the two header lines */
	REQUIRE(s.n > 0);
	/* "scsi_sense_cache  772128 772128     96   42    1 : tunables
	 *  0    0    0 : slabdata  18384  18384      0" */
	CHECK_STR(s.c[0].name, "scsi_sense_cache");
	check_cache(&s, "scsi_sense_cache", 772128, 772128, 96, 42, 1, 18384, 18384);
	CHECK_EQ_INT(slab_cache_bytes(slabinfo_find(&s, "scsi_sense_cache"), 4096),
		     18384LL * 4096);
	/* "inode_cache       258761 258761    416   19    2 : ... 13619  13619" */
	check_cache(&s, "inode_cache", 258761, 258761, 416, 19, 2, 13619, 13619);
	CHECK_EQ_INT(slab_cache_bytes(slabinfo_find(&s, "inode_cache"), 4096),
		     111566848LL);
	/* "kmalloc-8k  8  8   8192    4    8 : ... 2  2" */
	check_cache(&s, "kmalloc-8k", 8, 8, 8192, 4, 8, 2, 2);
	CHECK_EQ_INT(slab_cache_bytes(slabinfo_find(&s, "kmalloc-8k"), 4096), 65536);
	CHECK_STR(s.c[s.n - 1].name, "kmem_cache");
	CHECK(slabinfo_find(&s, "no_such_cache") == NULL);
	slabinfo_release(&s);
	CHECK_EQ_INT(s.n, 0);
	sb_release(&err);
	free(buf);
}

TEST(slabinfo_amd64_fixture)
{
	size_t len;
	char *buf = fixture("slabinfo/amd64-after-insmod.txt", &len);
	struct slabinfo s = SLABINFO_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(slabinfo_parse(&s, buf, len, &err), 0);
	CHECK_STR(err.buf, "");
	CHECK_EQ_INT(s.n, 147);
	/* "Acpi-Operand  516  784  72  56  1 : tunables 0 0 0 : slabdata 14 14 0" */
	check_cache(&s, "Acpi-Operand", 516, 784, 72, 56, 1, 14, 14);
	/* "inode_cache  12420  12420  640  12  2 : ... 1035  1035  0" */
	check_cache(&s, "inode_cache", 12420, 12420, 640, 12, 2, 1035, 1035);
	CHECK_EQ_INT(slab_cache_bytes(slabinfo_find(&s, "inode_cache"), 4096),
		     8478720LL);
	check_cache(&s, "scsi_sense_cache", 10496, 10496, 128, 32, 1, 328, 328);
	slabinfo_release(&s);
	sb_release(&err);
	free(buf);
}

TEST(slabinfo_empty_input_is_valid)
{
	struct slabinfo s = SLABINFO_INIT;
	struct strbuf err = STRBUF_INIT;
	static const char one[] = HEAD KMALLOC64;

	/* Start from a non-empty result: an empty input replaces it. */
	CHECK_EQ_INT(slabinfo_parse(&s, one, sizeof(one) - 1, &err), 0);
	CHECK_EQ_INT(s.n, 1);
	CHECK_EQ_INT(slabinfo_parse(&s, "", 0, &err), 0);
	CHECK_EQ_INT(s.n, 0);
	CHECK_STR(err.buf, "");
	/* The two header lines and nothing else: valid, no caches. */
	CHECK_EQ_INT(slabinfo_parse(&s, HEAD, sizeof(HEAD) - 1, &err), 0);
	CHECK_EQ_INT(s.n, 0);
	CHECK_STR(err.buf, "");
	slabinfo_release(&s);
	sb_release(&err);
}

TEST(slabinfo_one_line_and_bytes)
{
	struct slabinfo s = SLABINFO_INIT;
	struct strbuf err = STRBUF_INIT;
	static const char in[] = HEAD KMALLOC64;

	CHECK_EQ_INT(slabinfo_parse(&s, in, sizeof(in) - 1, &err), 0);
	REQUIRE(s.n == 1);
	check_cache(&s, "kmalloc-64", 2176, 2176, 64, 64, 1, 34, 34);
	CHECK_EQ_INT(slab_cache_bytes(&s.c[0], 4096), 34 * 4096);
	CHECK_EQ_INT(slab_cache_bytes(&s.c[0], 16384), 34 * 16384);
	slabinfo_release(&s);
	sb_release(&err);
}

TEST(slabinfo_wrong_version)
{
	CHECK_STR(BAD("slabinfo - version: 2.0\n# name\n" KMALLOC64),
		  "line 1: not slabinfo version 2.1");
	CHECK_STR(BAD("slabinfo - version: 2.1 \n# name\n"),
		  "line 1: not slabinfo version 2.1");
	CHECK_STR(BAD("MemTotal: 5 kB\n"), "line 1: not slabinfo version 2.1");
}

TEST(slabinfo_missing_header)
{
	CHECK_STR(BAD("slabinfo - version: 2.1\n" KMALLOC64),
		  "line 2: missing column header");
	CHECK_STR(BAD("slabinfo - version: 2.1\n\n" KMALLOC64),
		  "line 2: missing column header");
	/* The version line alone: the header is missing too. */
	CHECK_STR(BAD("slabinfo - version: 2.1\n"), "line 2: missing column header");
}

TEST(slabinfo_field_count)
{
	/* 15 fields: sharedavail missing. */
	CHECK_STR(BAD(HEAD KMALLOC64
		      "kmalloc-32  10  10  32  128  1 : tunables 0 0 0 : slabdata 1 1\n"),
		  "line 4: expected 16 fields");
	/* 17 fields. */
	CHECK_STR(BAD(HEAD "kmalloc-32  10  10  32  128  1 : tunables 0 0 0 : slabdata 1 1 0 0\n"),
		  "line 3: expected 16 fields");
	CHECK_STR(BAD(HEAD "kmalloc-32 10 10 32 128 1 ; tunables 0 0 0 : slabdata 1 1 0\n"),
		  "line 3: missing ': tunables' or ': slabdata'");
	CHECK_STR(BAD(HEAD "\n"), "line 3: expected 16 fields");
}

TEST(slabinfo_bad_number)
{
	CHECK_STR(BAD(HEAD "kmalloc-32  1x  10  32  128  1 : tunables 0 0 0 : slabdata 1 1 0\n"),
		  "line 3: bad number");
	CHECK_STR(BAD(HEAD "kmalloc-32  -1  10  32  128  1 : tunables 0 0 0 : slabdata 1 1 0\n"),
		  "line 3: bad number");
	CHECK_STR(BAD(HEAD "kmalloc-32  1  10  32  128  1 : tunables 0 x 0 : slabdata 1 1 0\n"),
		  "line 3: bad number");
	CHECK_STR(BAD(HEAD "kmalloc-32  1  10  32  128  1 : tunables 0 0 0 : slabdata 1 1 99999999999999999999\n"),
		  "line 3: bad number");
}

TEST(slabinfo_active_over_total)
{
	CHECK_STR(BAD(HEAD KMALLOC64
		      "kmalloc-32  11  10  32  128  1 : tunables 0 0 0 : slabdata 1 1 0\n"),
		  "line 4: active count larger than total");
	CHECK_STR(BAD(HEAD "kmalloc-32  10  10  32  128  1 : tunables 0 0 0 : slabdata 2 1 0\n"),
		  "line 3: active count larger than total");
}

TEST(slabinfo_duplicate_cache)
{
	CHECK_STR(BAD(HEAD KMALLOC64
		      "kmalloc-32  10  10  32  128  1 : tunables 0 0 0 : slabdata 1 1 0\n"
		      "kmalloc-64  10  10  64  64  1 : tunables 0 0 0 : slabdata 1 1 0\n"),
		  "line 5: duplicate cache");
	CHECK_STR(BAD(HEAD KMALLOC64 KMALLOC64), "line 4: duplicate cache");
}

TEST(slabinfo_nul_byte)
{
	CHECK_STR(BAD(HEAD "kmalloc-32  10  10  32  128  1 : tunables 0 0 0 : slab\0data 1 1 0\n"),
		  "line 3: NUL byte");
	CHECK_STR(BAD("slabinfo - version: 2.1\0\n"), "line 1: NUL byte");
}

TEST(slabinfo_cache_name_length)
{
	char buf[512];
	struct slabinfo s = SLABINFO_INIT;
	struct strbuf err = STRBUF_INIT;
	static const char name[] =
		"a123456789b123456789c123456789d123456789e123456789f123456789g123456789";

	/* 63 characters: the longest that fits. */
	snprintf(buf, sizeof(buf), HEAD "%.*s 1 1 8 1 1 : tunables 0 0 0 : slabdata 1 1 0\n",
		 SLAB_NAME_MAX - 1, name);
	CHECK_EQ_INT(slabinfo_parse(&s, buf, strlen(buf), &err), 0);
	REQUIRE(s.n == 1);
	CHECK_EQ_INT(strlen(s.c[0].name), SLAB_NAME_MAX - 1);
	slabinfo_release(&s);
	snprintf(buf, sizeof(buf), HEAD "%.*s 1 1 8 1 1 : tunables 0 0 0 : slabdata 1 1 0\n",
		 SLAB_NAME_MAX, name);
	CHECK_STR(bad(buf, strlen(buf)), "line 3: bad cache name");
	sb_release(&err);
}

TEST(slabinfo_error_keeps_previous_result)
{
	struct slabinfo s = SLABINFO_INIT;
	struct strbuf err = STRBUF_INIT;
	static const char good[] = HEAD KMALLOC64;
	static const char worse[] = HEAD "kmalloc-32 1 1 32 1 1 : tunables 0 0 0 : slabdata 1 1\n";

	CHECK_EQ_INT(slabinfo_parse(&s, good, sizeof(good) - 1, &err), 0);
	CHECK_EQ_INT(slabinfo_parse(&s, worse, sizeof(worse) - 1, &err), -1);
	CHECK_STR(err.buf, "line 3: expected 16 fields");
	CHECK_EQ_INT(s.n, 1);
	CHECK(slabinfo_find(&s, "kmalloc-64") != NULL);
	slabinfo_release(&s);
	sb_release(&err);
}

static void slab_line(struct strbuf *sb, const char *name, const char *nums)
{
	sb_addf(sb, "%s %s : tunables 0 0 0 : slabdata 1 1 0\n", name, nums);
}

TEST(slabinfo_many_caches_duplicate_late)
{
	struct strbuf in = STRBUF_INIT, err = STRBUF_INIT;
	struct slabinfo s = SLABINFO_INIT;

	char want[64];

	sb_adds(&in, "slabinfo - version: 2.1\n# name ...\n");
	for (int i = 0; i < SLABINFO_MAX_CACHES - 1; i++) {
		char name[32];
		snprintf(name, sizeof(name), "cache-%d", i);
		slab_line(&in, name, "1 1 64 64 1");
	}
	CHECK_EQ_INT(slabinfo_parse(&s, in.buf, in.len, &err), 0);
	CHECK_EQ_INT(s.n, SLABINFO_MAX_CACHES - 1);
	slab_line(&in, "cache-7", "1 1 64 64 1");
	CHECK_EQ_INT(slabinfo_parse(&s, in.buf, in.len, &err), -1);
	snprintf(want, sizeof(want), "line %d: duplicate cache", SLABINFO_MAX_CACHES + 2);
	CHECK_STR(err.buf, want);
	/* Past the bound (240,000 caches took 3 GB of the harness): refused. */
	sb_reset(&err);
	slabinfo_release(&s);
	sb_reset(&in);
	sb_adds(&in, "slabinfo - version: 2.1\n# name ...\n");
	for (int i = 0; i <= SLABINFO_MAX_CACHES; i++) {
		char name[32];
		snprintf(name, sizeof(name), "cache-%d", i);
		slab_line(&in, name, "1 1 64 64 1");
	}
	CHECK_EQ_INT(slabinfo_parse(&s, in.buf, in.len, &err), -1);
	snprintf(want, sizeof(want), "line %d: more caches than", SLABINFO_MAX_CACHES + 3);
	CHECK_CONTAINS(err.buf, want);
	slabinfo_release(&s);
	sb_release(&in);
	sb_release(&err);
}

TEST(slabinfo_numbers_that_would_overflow)
{
	/* num_slabs * pagesperslab * page size wrapped into garbage (and
	 * negative totals); such lines are now refused. */
	static const char *const bad[] = {
		/* a count above SLAB_NUM_MAX */
		"x 1 1 64 64 1 : tunables 0 0 0 : slabdata 1 9223372036854775807 0\n",
		"x 1 1 64 64 1099511627777 : tunables 0 0 0 : slabdata 1 1 0\n",
		/* each fits, the product does not */
		"x 1 1 64 64 1099511627776 : tunables 0 0 0 : slabdata 1 1099511627776 0\n",
		"x 1 1 64 64 65536 : tunables 0 0 0 : slabdata 1 1048577 0\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct strbuf in = STRBUF_INIT, err = STRBUF_INIT;
		struct slabinfo s = SLABINFO_INIT;

		sb_adds(&in, "slabinfo - version: 2.1\n# name ...\n");
		sb_adds(&in, bad[i]);
		CHECK_EQ_INT(slabinfo_parse(&s, in.buf, in.len, &err), -1);
		CHECK_CONTAINS(err.buf, "line 3: ");
		slabinfo_release(&s);
		sb_release(&in);
		sb_release(&err);
	}
	/* The largest cache accepted: 2^36 pages, bytes still positive. */
	struct strbuf in = STRBUF_INIT, err = STRBUF_INIT;
	struct slabinfo s = SLABINFO_INIT;
	sb_adds(&in, "slabinfo - version: 2.1\n# name ...\n");
	slab_line(&in, "big", "1 1 64 64 65536");
	sb_setlen(&in, in.len - strlen("1 1 0\n"));
	sb_adds(&in, "1 1048576 0\n");
	CHECK_EQ_INT(slabinfo_parse(&s, in.buf, in.len, &err), 0);
	CHECK(slab_cache_bytes(&s.c[0], 4096) == (1LL << 36) * 4096);
	slabinfo_release(&s);
	sb_release(&in);
	sb_release(&err);
}
