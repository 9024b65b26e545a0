// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "record/disks.h"
#include "test.h"
#include "lib/util.h"

static const char *name_of(const char *prefix, long i)
{
	static char buf[DISK_NAME_MAX];

	if (disk_name(prefix, i, buf, sizeof(buf)) < 0)
		return "(error)";
	return buf;
}

TEST(disk_name_known_values)
{
	CHECK_STR(name_of("sd", 0), "sda");
	CHECK_STR(name_of("sd", 1), "sdb");
	CHECK_STR(name_of("sd", 25), "sdz");
	CHECK_STR(name_of("sd", 26), "sdaa");
	CHECK_STR(name_of("sd", 27), "sdab");
	CHECK_STR(name_of("sd", 51), "sdaz");
	CHECK_STR(name_of("sd", 52), "sdba");
	CHECK_STR(name_of("sd", 701), "sdzz");
	CHECK_STR(name_of("sd", 702), "sdaaa");
	CHECK_STR(name_of("sd", 3999), "sdewv");
	CHECK_STR(name_of("sd", 18277), "sdzzz");
	CHECK_STR(name_of("sd", 18278), "sdaaaa");
	CHECK_STR(name_of("vd", 1), "vdb");
	CHECK_STR(name_of("vd", 4000), "vdeww");
}

TEST(disk_index_known_values)
{
	char pfx[3];

	CHECK_EQ_INT(disk_index("sda", pfx), 0);
	CHECK_STR(pfx, "sd");
	CHECK_EQ_INT(disk_index("sdz", NULL), 25);
	CHECK_EQ_INT(disk_index("sdaa", NULL), 26);
	CHECK_EQ_INT(disk_index("sdzz", NULL), 701);
	CHECK_EQ_INT(disk_index("sdaaa", NULL), 702);
	CHECK_EQ_INT(disk_index("sdewv", NULL), 3999);
	CHECK_EQ_INT(disk_index("vdb", pfx), 1);
	CHECK_STR(pfx, "vd");
}

TEST(disk_name_index_round_trip)
{
	char buf[DISK_NAME_MAX] = "", pfx[3] = "";
	long i;

	/* Up to the first index whose name does not lead back to it. */
	for (i = 0; i <= 20000; i++) {
		const char *prefix = i % 2 ? "vd" : "sd";

		if (disk_name(prefix, i, buf, sizeof(buf)) < 0) {
			snprintf(buf, sizeof(buf), "(no name)");
			break;
		}
		if (disk_index(buf, pfx) != i || strcmp(pfx, prefix))
			break;
	}
	CHECKF(i > 20000, "%ld -> %s -> %ld (%s)", i, buf, disk_index(buf, pfx), pfx);
}

TEST(disk_names_are_in_order_and_unique)
{
	/* Shorter names first, then alphabetical within a length: the same
	 * order the indexes have. */
	char prev[DISK_NAME_MAX] = "";
	const char *n = "";
	long i;

	for (i = 0; i <= 20000; i++) {
		n = name_of("sd", i);
		if (i && (strlen(n) < strlen(prev) ||
			  (strlen(n) == strlen(prev) && strcmp(n, prev) <= 0)))
			break;
		snprintf(prev, sizeof(prev), "%s", n);
	}
	CHECKF(i > 20000, "%s (%ld) after %s", n, i, prev);
}

TEST(disk_name_limits)
{
	char small[4];

	CHECK_EQ_INT(disk_name("sd", -1, small, sizeof(small)), -1);
	CHECK_EQ_INT(disk_name("sd", 0, small, sizeof(small)), 0);
	CHECK_STR(small, "sda");
	/* "sdaa" needs 5 bytes. */
	CHECK_EQ_INT(disk_name("sd", 26, small, sizeof(small)), -1);
}

TEST(disk_index_rejects_other_names)
{
	static const char *const bad[] = {
		"", "s", "sd", "sdA", "hda", "sd1", "sda1", "nvme0n1", "sr0", "loop0",
		"xvda", "sd-a", "Sda", "sda ", "vd", "sdaaaaaaa",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		CHECKF(disk_index(bad[i], NULL) == -1, "disk_index(\"%s\") = %ld, not -1",
		       bad[i], disk_index(bad[i], NULL));
}

static const char *bl_bad(const char *text)
{
	static char msg[256];
	struct blocklist l = BLOCKLIST_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(blocklist_parse(&l, text, strlen(text), &err), -1);
	CHECK_EQ_INT(l.n, 0);
	snprintf(msg, sizeof(msg), "%s", err.buf);
	blocklist_release(&l);
	sb_release(&err);
	return msg;
}

TEST(blocklist_parse_good)
{
	struct blocklist l = BLOCKLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	static const char text[] = "sda 8:0\nsdb 8:16\n\nvda 254:0\nsdewv 66:3952\n"
		"sr0  11:0\nloop0\t7:0";
	const struct blockdev *d;

	CHECK_EQ_INT(blocklist_parse(&l, text, sizeof(text) - 1, &err), 0);
	CHECK_STR(err.buf, "");
	REQUIRE(l.n == 6);
	d = blocklist_find(&l, "sdewv");
	REQUIRE(d);
	CHECK_EQ_INT(d->major, 66);
	CHECK_EQ_INT(d->minor, 3952);
	d = blocklist_find(&l, "vda");
	REQUIRE(d);
	CHECK_EQ_INT(d->major, 254);
	CHECK_EQ_INT(d->minor, 0);
	CHECK(blocklist_find(&l, "loop0") != NULL);
	CHECK(blocklist_find(&l, "sdc") == NULL);
	/* Order kept. */
	CHECK_STR(l.b[0].name, "sda");
	CHECK_STR(l.b[5].name, "loop0");
	/* The largest legal numbers. */
	CHECK_EQ_INT(blocklist_parse(&l, "x 4095:1048575\n", 15, &err), 0);
	REQUIRE(l.n == 1);
	CHECK_EQ_INT(l.b[0].major, 4095);
	CHECK_EQ_INT(l.b[0].minor, 1048575);
	/* Empty: valid and empty. */
	CHECK_EQ_INT(blocklist_parse(&l, "", 0, &err), 0);
	CHECK_EQ_INT(l.n, 0);
	blocklist_release(&l);
	sb_release(&err);
}

TEST(blocklist_parse_bad)
{
	CHECK_STR(bl_bad("sda 8:0\nsdb\n"), "line 2: expected 'NAME MAJ:MIN'");
	CHECK_STR(bl_bad("sda 8:0 extra\n"), "line 1: expected 'NAME MAJ:MIN'");
	CHECK_STR(bl_bad("sda 8:0\nsdb 8:x\n"), "line 2: bad MAJ:MIN");
	CHECK_STR(bl_bad("sda 8\n"), "line 1: bad MAJ:MIN");
	CHECK_STR(bl_bad("sda :0\n"), "line 1: bad MAJ:MIN");
	CHECK_STR(bl_bad("sda -8:0\n"), "line 1: bad MAJ:MIN");
	CHECK_STR(bl_bad("sda 4096:0\n"), "line 1: bad MAJ:MIN");
	CHECK_STR(bl_bad("sda 8:1048576\n"), "line 1: bad MAJ:MIN");
	CHECK_STR(bl_bad("a/b 8:0\n"), "line 1: bad character in name");
	CHECK_STR(bl_bad("sd\x1b 8:0\n"), "line 1: bad character in name");
	CHECK_STR(bl_bad("abcdefghijabcdefghijabcdefghij12 8:0\n"), "line 1: name too long");
	CHECK_STR(bl_bad("sda 8:0\nsdb 8:16\nsda 8:32\n"), "duplicate device sda");
	{
		struct blocklist l = BLOCKLIST_INIT;
		struct strbuf err = STRBUF_INIT;
		static const char nul[] = "sda 8:0\nsdb\0 8:16\n";

		CHECK_EQ_INT(blocklist_parse(&l, nul, sizeof(nul) - 1, &err), -1);
		CHECK_STR(err.buf, "line 2: NUL byte");
		blocklist_release(&l);
		sb_release(&err);
	}
}

TEST(blocklist_minus_and_sort)
{
	struct blocklist all = BLOCKLIST_INIT, base = BLOCKLIST_INIT, sd;
	struct strbuf err = STRBUF_INIT, names = STRBUF_INIT;
	static const char a[] = "vda 254:0\nsdaa 65:160\nsdz 65:144\nsr0 11:0\n"
		"sdb 8:16\nsda 8:0\nvdb 254:16\nsdab 65:176\nloop0 7:0\n";
	static const char b[] = "vda 254:0\nsr0 11:0\nloop0 7:0\n";

	REQUIRE(blocklist_parse(&all, a, sizeof(a) - 1, &err) == 0);
	REQUIRE(blocklist_parse(&base, b, sizeof(b) - 1, &err) == 0);
	blocklist_minus(&all, &base, &sd);
	CHECK_EQ_INT(sd.n, 6);
	CHECK(blocklist_find(&sd, "vda") == NULL);
	CHECK(blocklist_find(&sd, "sr0") == NULL);
	CHECK(blocklist_find(&sd, "vdb") != NULL);
	blocklist_sort(&sd);
	for (size_t i = 0; i < sd.n; i++)
		sb_addf(&names, "%s ", sd.b[i].name);
	CHECK_STR(names.buf, "sda sdb sdz sdaa sdab vdb ");
	blocklist_release(&sd);

	/* Minus an empty list keeps everything; a list minus itself is empty. */
	blocklist_minus(&all, &(struct blocklist)BLOCKLIST_INIT, &sd);
	CHECK_EQ_INT(sd.n, all.n);
	blocklist_release(&sd);
	blocklist_minus(&all, &all, &sd);
	CHECK_EQ_INT(sd.n, 0);
	blocklist_release(&sd);

	/* Non-disk names go after the disks. */
	blocklist_sort(&all);
	sb_reset(&names);
	for (size_t i = 0; i < all.n; i++)
		sb_addf(&names, "%s ", all.b[i].name);
	CHECK_STR(names.buf, "sda sdb sdz sdaa sdab vda vdb loop0 sr0 ");
	blocklist_release(&all);
	blocklist_release(&base);
	sb_release(&err);
	sb_release(&names);
}

TEST(blocklist_sort_many)
{
	/* 4000 disks given in reverse: sorted back to index order. */
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct blocklist l = BLOCKLIST_INIT;
	size_t pos;

	for (long i = 3999; i >= 0; i--)
		sb_addf(&text, "%s %ld:%ld\n", name_of("sd", i), 8 + i / 16, (i % 16) * 16);
	REQUIRE(blocklist_parse(&l, text.buf, text.len, &err) == 0);
	REQUIRE(l.n == 4000);
	blocklist_sort(&l);
	for (pos = 0; pos < l.n && disk_index(l.b[pos].name, NULL) == (long)pos; pos++)
		;
	CHECKF(pos == l.n, "position %zu holds %s", pos, l.b[pos].name);
	CHECK_STR(l.b[3999].name, "sdewv");
	blocklist_release(&l);
	sb_release(&text);
	sb_release(&err);
}
