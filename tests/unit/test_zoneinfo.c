// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "record/zoneinfo.h"
#include "test.h"
#include "lib/json.h"
#include "lib/util.h"

/* Parse a string that must be rejected; return the message (static). */
static const char *bad(const char *buf, size_t len)
{
	static char msg[256];
	struct zoneinfo z = ZONEINFO_INIT;
	struct strbuf err = STRBUF_INIT;
	int r = zoneinfo_parse(&z, buf, len, &err);

	CHECK_EQ_INT(r, -1);
	CHECK_EQ_INT(z.n, 0);
	snprintf(msg, sizeof(msg), "%s", err.buf);
	zoneinfo_release(&z);
	sb_release(&err);
	return msg;
}
#define BAD(s) bad((s), sizeof(s) - 1)

/* A captured /proc/zoneinfo: its zones, and the pages on every CPU's
 * lists, all and of the zones that are not HighMem. */
static void fixture_pcp(const char *name, size_t zones, long long all, long long low, int cpus)
{
	size_t len;
	char *buf = fixture(name, &len);
	struct zoneinfo z = ZONEINFO_INIT;
	struct strbuf err = STRBUF_INIT;
	int listed = 0;

	CHECK_EQ_INT(zoneinfo_parse(&z, buf, len, &err), 0);
	CHECK_STR(err.buf, "");
	CHECK_EQ_INT(z.n, zones);
	CHECK_EQ_INT(zoneinfo_pcp_pages(&z, 0), all);
	CHECK_EQ_INT(zoneinfo_pcp_pages(&z, 1), low);
	for (size_t i = 0; i < z.n; i++)
		listed += z.z[i].cpus;
	CHECK_EQ_INT(listed, cpus);
	zoneinfo_release(&z);
	CHECK(z.z == NULL);
	sb_release(&err);
	free(buf);
}

/* Debian's 6.1 and 6.12 (high_min and high_max were not in 6.1's pagesets
 * and are read past in 6.12's), one CPU: DMA and DMA32 populated. */
TEST(zoneinfo_amd64_fixtures)
{
	fixture_pcp("zoneinfo/amd64-6.1-after-insmod.txt", 5, 218, 218, 2);
	fixture_pcp("zoneinfo/amd64-6.12-after-insmod.txt", 5, 202, 202, 2);
}

/* A HIGHMEM kernel of 512 MiB (HighMem empty: no pagesets) and of 2 GiB
 * with two CPUs, whose HighMem lists LowFree does not count. */
TEST(zoneinfo_i386_fixtures)
{
	fixture_pcp("zoneinfo/i386-6.1-after-insmod.txt", 4, 278, 278, 2);
	fixture_pcp("zoneinfo/i386-6.1-2cpu-highmem.txt", 4, 1885, 1554, 6);
}

TEST(zoneinfo_json_kb)
{
	size_t len;
	char *buf = fixture("zoneinfo/i386-6.1-2cpu-highmem.txt", &len);
	struct zoneinfo z = ZONEINFO_INIT;
	struct strbuf err = STRBUF_INIT;
	json_object *o;

	CHECK_EQ_INT(zoneinfo_parse(&z, buf, len, &err), 0);
	o = zoneinfo_json(&z, 4096);
	CHECK_EQ_INT(jint(o, "pcp_kb", -1), 1885 * 4);
	CHECK_EQ_INT(jint(o, "pcp_low_kb", -1), 1554 * 4);
	json_object_put(o);
	zoneinfo_release(&z);
	sb_release(&err);
	free(buf);
}

/* A second parse into a used struct replaces it; a failed one leaves it. */
TEST(zoneinfo_reparse)
{
	struct zoneinfo z = ZONEINFO_INIT;
	struct strbuf err = STRBUF_INIT;
	static const char one[] = "Node 0, zone   Normal\n  pagesets\n    cpu: 0\n"
				  "              count: 5\n  node_unreclaimable:  0\n";

	CHECK_EQ_INT(zoneinfo_parse(&z, one, sizeof(one) - 1, &err), 0);
	CHECK_EQ_INT(zoneinfo_pcp_pages(&z, 0), 5);
	CHECK_EQ_INT(zoneinfo_parse(&z, "x", 1, &err), -1);
	CHECK_EQ_INT(z.n, 1);
	CHECK_EQ_INT(zoneinfo_pcp_pages(&z, 0), 5);
	CHECK_STR(z.z[0].name, "Normal");
	zoneinfo_release(&z);
	sb_release(&err);
}

TEST(zoneinfo_malformed)
{
	CHECK_STR(BAD(""), "empty");
	CHECK_STR(BAD("hello\n"), "line 1: no zone");
	CHECK_STR(BAD("Node x, zone DMA\n"), "line 1: a zone header is not \"Node N, zone NAME\"");
	CHECK_STR(BAD("Node 0 zone DMA\n"), "line 1: a zone header is not \"Node N, zone NAME\"");
	CHECK_STR(BAD("Node -1, zone DMA\n"), "line 1: a zone header is not \"Node N, zone NAME\"");
	CHECK_STR(BAD("Node 0, zone    \n"), "line 1: zone without a name");
	CHECK_STR(BAD("Node 0, zone ABCDEFGHIJKLMNOPQRSTUVWXYZ\n"), "line 1: zone name too long");
	CHECK_STR(BAD("Node 0, zone DM;A\n"), "line 1: bad character in the zone name");
	CHECK_STR(BAD("  pagesets\n"), "line 1: pagesets before any zone");
	CHECK_STR(BAD("Node 0, zone DMA\n  count: 3\n"), "line 2: a per-CPU count outside a zone's pagesets");
	CHECK_STR(BAD("Node 0, zone DMA\n  pagesets\n  count: 3\n"),
		  "line 3: a per-CPU count outside a zone's pagesets");
	CHECK_STR(BAD("Node 0, zone DMA\n  pagesets\n    cpu: 0\n      count: -3\n"),
		  "line 4: a per-CPU count is not a number in range");
	CHECK_STR(BAD("Node 0, zone DMA\n  pagesets\n    cpu: 0\n      count: 3x\n"),
		  "line 4: a per-CPU count is not a number in range");
	CHECK_STR(BAD("Node 0, zone DMA\n  pagesets\n    cpu: 0\n      count: 99999999999999999999\n"),
		  "line 4: a per-CPU count is not a number in range");
	CHECK_STR(BAD("Node 0, zone DMA\n  pagesets\n    cpu: 0\n      count: 2199023255553\n"),
		  "line 4: a per-CPU count is not a number in range");
	CHECK_STR(BAD("Node 0, zone DMA\n  pagesets\n    cpu: 0\n      count: \n"),
		  "line 4: a per-CPU count is not a number in range");
	CHECK_STR(BAD("Node 0, zone DMA\n  pagesets\n    cpu: 0\n      count: 1099511627776\n"
		      "    cpu: 1\n      count: 1\n"),
		  "line 6: a zone's per-CPU counts add up past ZONEINFO_COUNT_MAX");
	/* After node_unreclaimable the zone's pagesets are over. */
	CHECK_STR(BAD("Node 0, zone DMA\n  pagesets\n    cpu: 0\n      count: 1\n"
		      "  node_unreclaimable:  0\n      count: 1\n"),
		  "line 6: a per-CPU count outside a zone's pagesets");
	CHECK_STR(bad("Node 0, zone DMA\n  pag\0esets\n", 28), "line 2: NUL byte");
}

/* More zones than ZONEINFO_MAX_ZONES: refused, naming the line. */
TEST(zoneinfo_too_many_zones)
{
	struct strbuf in = STRBUF_INIT;
	char want[96];

	for (int i = 0; i <= ZONEINFO_MAX_ZONES; i++)
		sb_addf(&in, "Node %d, zone Normal\n", i);
	snprintf(want, sizeof(want), "line %d: more zones than a machine has (ZONEINFO_MAX_ZONES)",
		 ZONEINFO_MAX_ZONES + 1);
	CHECK_STR(bad(in.buf, in.len), want);
	sb_release(&in);
}

/* Blanks around a count, and a count in a zone's pagesets after a
 * field this parser does not know, are read. */
TEST(zoneinfo_lenient_where_kernels_differ)
{
	struct zoneinfo z = ZONEINFO_INIT;
	struct strbuf err = STRBUF_INIT;
	static const char in[] =
		"Node 0, zone      DMA\n  pages free     3840\n  pagesets\n    cpu: 0\n"
		"              count:    7   \n              high_min: 0\n    cpu: 1\n"
		"              new_field: 9\n              count: 3\n"
		"  node_unreclaimable:  0\nNode 1, zone  HighMem\n  pagesets\n    cpu: 0\n"
		"              count: 11\n";

	CHECK_EQ_INT(zoneinfo_parse(&z, in, sizeof(in) - 1, &err), 0);
	CHECK_STR(err.buf, "");
	CHECK_EQ_INT(z.n, 2);
	CHECK_EQ_INT(z.z[1].node, 1);
	CHECK_EQ_INT(zoneinfo_pcp_pages(&z, 0), 21);
	CHECK_EQ_INT(zoneinfo_pcp_pages(&z, 1), 10);
	zoneinfo_release(&z);
	sb_release(&err);
}
