// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "record/disks.h"
#include "record/inventory.h"
#include "test.h"
#include "lib/util.h"

TEST(sd_devt_follows_the_sd_driver)
{
	static const struct {
		long idx;
		unsigned maj, min;
	} cases[] = {
		{ 0, 8, 0 }, { 1, 8, 16 }, { 15, 8, 240 }, { 16, 65, 0 },
		{ 127, 71, 240 }, { 128, 128, 0 }, { 255, 135, 240 }, { 256, 8, 256 },
		{ 3999, 129, 4080 },	/* sdewv */
		{ 4000, 130, 3840 },	/* sdeww, the first virtio disk after 4000 */
	};
	unsigned maj, min;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		REQUIRE(sd_devt(cases[i].idx, &maj, &min) == 0);
		CHECK_EQ_INT(maj, cases[i].maj);
		CHECK_EQ_INT(min, cases[i].min);
	}
	CHECK_EQ_INT(sd_devt(-1, &maj, &min), -1);
	CHECK_EQ_INT(sd_devt(0x100000, &maj, &min), -1);
}

static int cmp_ul(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

TEST(sd_devt_is_unique_over_a_large_range)
{
	/* Every index of 0..20000 gets its own dev_t. */
	enum { N = 20001 };
	unsigned long *keys = xmalloc(N * sizeof(*keys));
	unsigned maj, min;

	for (long i = 0; i < N; i++) {
		REQUIRE(sd_devt(i, &maj, &min) == 0);
		keys[i] = (unsigned long)maj * 1048576ul + min;
	}
	qsort(keys, N, sizeof(*keys), cmp_ul);
	for (long i = 1; i < N; i++)
		CHECK(keys[i - 1] != keys[i]);
	free(keys);
}

static void rows(struct strbuf *sb, long from, long to, const char *sched)
{
	for (long i = from; i < to; i++) {
		char name[32];
		unsigned maj, min;
		disk_name("sd", i, name, sizeof(name));
		sd_devt(i, &maj, &min);
		sb_addf(sb, "%s %u:%u 8192 256 %s 1 1\n", name, maj, min, sched);
	}
}

static void names(struct strvec *v, long from, long to)
{
	for (long i = from; i < to; i++) {
		char name[32];
		disk_name("sd", i, name, sizeof(name));
		strvec_push(v, name);
	}
}

/* An inventory of nsd scsi_debug disks, then nvio virtio ones named after
 * them, as a good run sends it: every check passes and none says why
 * not; the same names checked as virtio disks are caught out of order. */
static void every_check_passes(const struct inventory *inv, long nsd, long nvio)
{
	struct strvec sd = STRVEC_INIT, vio = STRVEC_INIT;
	struct strbuf why = STRBUF_INIT;

	names(&sd, 0, nsd);
	names(&vio, nsd, nsd + nvio);
	CHECK(inventory_check_unique_devt(inv, &why));
	CHECK(inventory_check_sd_sequence(inv, &sd, nsd, &why));
	CHECK(inventory_check_after_range(inv, &vio, nsd, &why));
	CHECK(inventory_check_readable(inv, &why));
	CHECK_STR(why.buf, "");
	CHECK(!inventory_check_after_range(inv, &sd, nsd, &why));
	strvec_clear(&sd);
	strvec_clear(&vio);
	sb_release(&why);
}

TEST(inventory_parse_and_checks_pass_on_a_good_run)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct inventory inv = INVENTORY_INIT;

	rows(&sb, 0, 4000, "mq-deadline");
	rows(&sb, 4000, 4004, "none");
	REQUIRE(inventory_parse(&inv, sb.buf, sb.len, &err) == 0);
	CHECK_EQ_INT((long long)inv.n, 4004);
	const struct inv_row *r = inventory_find(&inv, "sdewv");
	REQUIRE(r);
	CHECK_EQ_INT(r->major, 129);
	CHECK_EQ_INT(r->minor, 4080);
	CHECK_STR(r->sched, "mq-deadline");
	CHECK_EQ_INT(r->nr_requests, 256);
	CHECK(inventory_find(&inv, "sdzzzz") == NULL);
	every_check_passes(&inv, 4000, 4);
	inventory_release(&inv);
	sb_release(&sb);
	sb_release(&err);
}

TEST(inventory_checks_catch_each_problem)
{
	struct strbuf why = STRBUF_INIT, err = STRBUF_INIT;
	struct inventory inv = INVENTORY_INIT;
	struct strvec sd = STRVEC_INIT, vio = STRVEC_INIT;
	static const char text[] =
		"sda 8:0 8192 256 mq-deadline 1 1\n"
		"sdb 8:16 8192 256 mq-deadline 1 0\n"	/* unreadable */
		"sdc 8:0 8192 256 mq-deadline 1 1\n"	/* dev_t of sda */
		"sde 8:64 8192 64 none 1 1\n";		/* virtio, but sdd skipped */

	REQUIRE(inventory_parse(&inv, text, strlen(text), &err) == 0);
	CHECK(!inventory_check_unique_devt(&inv, &why));
	CHECK_CONTAINS(why.buf, "share 8:0");
	sb_reset(&why);
	strvec_push(&sd, "sda");
	strvec_push(&sd, "sdb");
	strvec_push(&sd, "sdc");
	CHECK(!inventory_check_sd_sequence(&inv, &sd, 3, &why));
	CHECK_CONTAINS(why.buf, "sdc is 8:0, the sd driver gives index 2 8:32");
	sb_reset(&why);
	CHECK(!inventory_check_sd_sequence(&inv, &sd, 4, &why));
	CHECK_CONTAINS(why.buf, "3 scsi_debug disks, 4 asked for");
	sb_reset(&why);
	strvec_push(&vio, "sde");
	CHECK(!inventory_check_after_range(&inv, &vio, 3, &why));
	CHECK_CONTAINS(why.buf, "sde is not the sd disk of index 3");
	sb_reset(&why);
	CHECK(!inventory_check_readable(&inv, &why));
	CHECK_STR(why.buf, "sdb: first block unreadable");
	inventory_release(&inv);
	strvec_clear(&sd);
	strvec_clear(&vio);
	sb_release(&why);
	sb_release(&err);
}

TEST(inventory_malformed_lines_are_rejected)
{
	static const char *const bad[][2] = {
		{ "sda 8:0 8192 256 mq-deadline 1\n", "line 1: expected 7 fields" },
		{ "sda 8-0 8192 256 none 1 1\n", "line 1: bad MAJ:MIN" },
		{ "sda 5000:0 8192 256 none 1 1\n", "line 1: bad MAJ:MIN" },
		{ "sda 8:0 -1 256 none 1 1\n", "line 1: bad size" },
		{ "sda 8:0 1 x none 1 1\n", "line 1: bad nr_requests" },
		{ "sda 8:0 1 2 [none] 1 1\n", "line 1: bad scheduler name" },
		{ "sda 8:0 1 2 none 1 2\n", "line 1: bad read flag" },
		{ "sd/a 8:0 1 2 none 1 1\n", "line 1: bad device name" },
		{ "sda 8:0 1 2 none 1 1\nsda 8:16 1 2 none 1 1\n", "duplicate device 'sda'" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct inventory inv = INVENTORY_INIT;
		struct strbuf err = STRBUF_INIT;

		CHECK_EQ_INT(inventory_parse(&inv, bad[i][0], strlen(bad[i][0]), &err), -1);
		CHECK_CONTAINS(err.buf, bad[i][1]);
		CHECK_EQ_INT((long long)inv.n, 0);
		sb_release(&err);
	}
}

TEST(inventory_at_65536_disks_and_past)
{
	/* The guest's inventory at 65,536 scsi_debug disks and 4 virtio
	 * disks after them, as it came from a 6.12 boot once the guest stopped
	 * overrunning ARG_MAX: the last scsi_debug disk sdcrxp (135:65520),
	 * the virtio disks sdcrxq (8:65536) .. sdcrxt, names past sdaaaa
	 * (index 18,278), every dev_t its own. */
	enum { N = 65536, V = 4 };
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct inventory inv = INVENTORY_INIT;
	const struct inv_row *r;
	char name[32];

	rows(&sb, 0, N, "none");
	rows(&sb, N, N + V, "mq-deadline");
	REQUIRE(inventory_parse(&inv, sb.buf, sb.len, &err) == 0);
	CHECK_EQ_INT((long long)inv.n, N + V);
	REQUIRE((r = inventory_find(&inv, "sdcrxp")));
	CHECK_EQ_INT(r->major, 135);
	CHECK_EQ_INT(r->minor, 65520);
	REQUIRE((r = inventory_find(&inv, "sdcrxq")));
	CHECK_EQ_INT(r->major, 8);
	CHECK_EQ_INT(r->minor, 65536);
	CHECK_STR(r->sched, "mq-deadline");
	REQUIRE((r = inventory_find(&inv, "sdaaaa")));
	CHECK_EQ_INT(disk_index("sdaaaa", NULL), 18278);
	REQUIRE(disk_name("sd", N - 1, name, sizeof(name)) == 0);
	CHECK_STR(name, "sdcrxp");
	REQUIRE(disk_name("sd", N + V - 1, name, sizeof(name)) == 0);
	CHECK_STR(name, "sdcrxt");
	every_check_passes(&inv, N, V);
	inventory_release(&inv);
	sb_release(&sb);
	sb_release(&err);
}

TEST(inventory_one_line_for_many_devices_is_named)
{
	/* What the guest sent at 65,536 disks when cat and sed failed with
	 * E2BIG and busybox paste joined what was left: one line of three
	 * fields per device. */
	static const char joined[] = "sda 8:0 8192 sdaa 65:160 8192 sdaaa 131:736 8192\n";
	struct inventory inv = INVENTORY_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(inventory_parse(&inv, joined, sizeof(joined) - 1, &err), -1);
	CHECK_STR(err.buf, "line 1: expected 7 fields, found more (one line for many devices?)");
	sb_release(&err);
}

TEST(sd_names_and_devt_over_the_whole_range)
{
	/* sd's 20-bit index: 1,048,576 disks, each name read back to its
	 * index, every dev_t its own. */
	enum { N = 1 << 20 };
	unsigned long *keys = xmalloc(N * sizeof(*keys));
	unsigned maj, min;
	char name[32];
	long bad = -1;

	for (long i = 0; i < N; i++) {
		REQUIRE(sd_devt(i, &maj, &min) == 0);
		keys[i] = (unsigned long)maj * 1048576ul + min;
		if (bad < 0 && (disk_name("sd", i, name, sizeof(name)) < 0 ||
				disk_index(name, NULL) != i))
			bad = i;
	}
	CHECK_EQ_INT(bad, -1);
	qsort(keys, N, sizeof(*keys), cmp_ul);
	for (long i = 1; i < N; i++)
		if (keys[i - 1] == keys[i]) {
			test_fail(__FILE__, __LINE__, "two indexes share dev_t %lu", keys[i]);
			break;
		}
	REQUIRE(disk_name("sd", N - 1, name, sizeof(name)) == 0);
	CHECK_STR(name, "sdbgqcv");	/* as the kernel's sd_format_disk_name() */
	CHECK_EQ_INT(sd_devt(N, &maj, &min), -1);
	free(keys);
}
