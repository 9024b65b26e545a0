// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "kernel/limits.h"
#include "test.h"
#include "lib/util.h"

TEST(kernel_version_parse_reads_major_minor)
{
	static const struct { const char *v; int r, major, minor; } cases[] = {
		{ "6.1.0-57-amd64", 0, 6, 1 }, { "6.12.118+deb12-amd64", 0, 6, 12 },
		{ "6.12.118+", 0, 6, 12 }, { "6.5", 0, 6, 5 }, { "10.0.1", 0, 10, 0 },
		{ "v6.1", -1, 0, 0 }, { "6", -1, 0, 0 }, { "6.", -1, 0, 0 }, { "", -1, 0, 0 },
		{ "99999.1", -1, 0, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int major = -1, minor = -1;

		CHECK_EQ_INT(kernel_version_parse(cases[i].v, &major, &minor), cases[i].r);
		if (!cases[i].r) {
			CHECK_EQ_INT(major, cases[i].major);
			CHECK_EQ_INT(minor, cases[i].minor);
		}
	}
	CHECK_EQ_INT(kernel_version_parse(NULL, NULL, NULL), -1);
}

TEST(kernel_config_enabled_whole_lines_only)
{
	static const char cfg[] = "CONFIG_BLK_DEV_BSG_COMMON=y\n# CONFIG_CHR_DEV_SG is not set\n"
				  "CONFIG_SCSI=m\nCONFIG_BLK_DEV_BSGLIB=y\nCONFIG_X=n\nCONFIG_LAST=y";

	CHECK(!kernel_config_enabled(cfg, "BLK_DEV_BSG"));	/* only its prefix is set */
	CHECK(!kernel_config_enabled(cfg, "CHR_DEV_SG"));
	CHECK(kernel_config_enabled(cfg, "SCSI"));
	CHECK(kernel_config_enabled(cfg, "BLK_DEV_BSGLIB"));
	CHECK(!kernel_config_enabled(cfg, "X"));
	CHECK(kernel_config_enabled(cfg, "LAST"));	/* no final newline */
	CHECK(kernel_config_enabled("CONFIG_BLK_DEV_BSG=y\n", "BLK_DEV_BSG"));
}

/* A scenario and an artifact of version V whose .config has BLK_DEV_BSG
 * (bsg) or not, checked against the limit. */
static int check(const char *version, int bsg, const char *const *sets, struct strbuf *why)
{
	struct scenario s;
	struct kernel_artifact k = KERNEL_ARTIFACT_INIT;
	struct strbuf err = STRBUF_INIT;
	char *cfg = xstrfmt("%s/config-%s-%d", test_tmpdir(), version, bsg);
	const char *text = bsg ? "CONFIG_BLK_DEV_BSG=y\n" : "# CONFIG_BLK_DEV_BSG is not set\n";
	int r;

	scenario_init(&s);
	for (; *sets; sets++)
		if (scenario_set(&s, *sets, "--set", &err) < 0)
			test_fail(__FILE__, __LINE__, "%s: %s", *sets, err.buf);
	if (write_file(cfg, text, strlen(text)) < 0)
		test_abort(__FILE__, __LINE__, "cannot write %s", cfg);
	k.version = xstrdup(version);
	k.config = cfg;
	r = kernel_check_layout(&s, &k, why);
	kernel_release(&k);
	scenario_release(&s);
	sb_release(&err);
	return r;
}

TEST(kernel_check_layout_bsg_before_6_5)
{
	static const char *const over[] = { "disks=32760", "virtio_disks=10", NULL };
	static const char *const at[] = { "disks=32768", "virtio_disks=0", NULL };
	static const char *const blk[] = { "disks=32768", "virtio_disks=4", "virtio_bus=blk", NULL };
	static const char *const sweep[] = { "sweep=0,32768,65536,32768", "virtio_disks=4", NULL };
	struct strbuf why = STRBUF_INIT;

	CHECK_EQ_INT(check("6.1.0-57-amd64", 1, over, &why), -1);
	CHECK_CONTAINS(why.buf, "32770 SCSI devices (32760 scsi_debug disks, then 10 virtio-scsi "
		       "disks after 32760) are more than the 32768 that bsg");
	CHECK_CONTAINS(why.buf, "commits 9077fb2ab78c and 37c918e03ef7");
	CHECK_CONTAINS(why.buf, "virtio_bus = blk");
	sb_reset(&why);
	CHECK_EQ_INT(check("6.1.0-57-amd64", 1, at, &why), 0);
	CHECK_EQ_INT(check("6.1.0-57-amd64", 1, blk, &why), 0);
	CHECK_EQ_INT(check("6.1.0-57-amd64", 0, over, &why), 0);	/* no bsg */
	CHECK_EQ_INT(check("6.5.0", 1, over, &why), 0);
	CHECK_EQ_INT(check("6.12.118+deb12-amd64", 1, sweep, &why), 0);
	CHECK_EQ_INT(check("not-a-version", 1, over, &why), 0);	/* unknown: not refused */
	CHECK_STR(why.buf, "");
	/* A sweep's peak counts, though it comes back down before the virtio
	 * disks; virtio-blk is no way out when scsi_debug alone is over. */
	CHECK_EQ_INT(check("6.4.16", 1, sweep, &why), -1);
	CHECK_CONTAINS(why.buf, "65536 SCSI devices (65536 scsi_debug disks)");
	CHECK(!strstr(why.buf, "virtio_bus = blk"));
	sb_release(&why);
}

TEST(kernel_check_layout_without_config_is_not_refused)
{
	struct scenario s;
	struct kernel_artifact k = KERNEL_ARTIFACT_INIT;
	struct strbuf why = STRBUF_INIT, err = STRBUF_INIT;

	scenario_init(&s);
	CHECK_EQ_INT(scenario_set(&s, "disks=40000", "--set", &err), 0);
	k.version = xstrdup("6.1.0-57-amd64");
	CHECK_EQ_INT(kernel_check_layout(&s, &k, &why), 0);
	k.config = xstrfmt("%s/nonexistent", test_tmpdir());
	CHECK_EQ_INT(kernel_check_layout(&s, &k, &why), 0);
	CHECK_EQ_INT(scenario_scsi_devices(&s), 40004);
	kernel_release(&k);
	scenario_release(&s);
	sb_release(&why);
	sb_release(&err);
}

/* The disk class's needs against a .config (text; NULL: none, and then
 * the modules tree at dir with modules.dep text dep). */
static int check_needs(const char *text, const char *dep, const char *const *sets,
		       struct strbuf *why)
{
	struct scenario s;
	struct kernel_artifact k = KERNEL_ARTIFACT_INIT;
	struct strbuf err = STRBUF_INIT;
	int r;

	scenario_init(&s);
	for (; *sets; sets++)
		if (scenario_set(&s, *sets, "--set", &err) < 0)
			test_fail(__FILE__, __LINE__, "%s: %s", *sets, err.buf);
	k.version = xstrdup("6.1.0-57-amd64");
	if (text) {
		k.config = xstrfmt("%s/config-needs", test_tmpdir());
		if (write_file(k.config, text, strlen(text)) < 0)
			test_abort(__FILE__, __LINE__, "cannot write %s", k.config);
	}
	if (dep) {
		char *p = xstrfmt("%s/modules.dep", test_tmpdir());

		k.modules = xstrdup(test_tmpdir());
		if (write_file(p, dep, strlen(dep)) < 0)
			test_abort(__FILE__, __LINE__, "cannot write %s", p);
		free(p);
	}
	r = kernel_check_layout(&s, &k, why);
	kernel_release(&k);
	scenario_release(&s);
	sb_release(&err);
	return r;
}

/* A class the kernel cannot provide is refused before boot, naming what
 * it lacks and what to use instead; scsi_debug asks for nothing. */
TEST(kernel_check_layout_disk_class_needs)
{
	static const char *const nullb[] = { "disk_class=null_blk", "disks=40", NULL };
	static const char *const nullb_sweep[] = { "disk_class=null_blk", "sweep=0,20,40", NULL };
	static const char *const sd[] = { "disks=40", NULL };
	struct strbuf why = STRBUF_INIT;

	CHECK_EQ_INT(check_needs("CONFIG_BLK_DEV_NULL_BLK=m\n", NULL, nullb, &why), 0);
	CHECK_EQ_INT(check_needs("# CONFIG_BLK_DEV_NULL_BLK is not set\n", NULL, nullb, &why), -1);
	CHECK_CONTAINS(why.buf, "disk_class = null_blk needs null_blk (the block layer's test "
		       "device) (CONFIG_BLK_DEV_NULL_BLK), and kernel 6.1.0-57-amd64 has it");
	CHECK_CONTAINS(why.buf, "or disk_class = scsi_debug");
	sb_reset(&why);
	/* configfs: only a sweep makes its devices there. */
	CHECK_EQ_INT(check_needs("CONFIG_BLK_DEV_NULL_BLK=m\n", NULL, nullb_sweep, &why), -1);
	CHECK_CONTAINS(why.buf, "(CONFIG_CONFIGFS_FS)");
	sb_reset(&why);
	CHECK_EQ_INT(check_needs("CONFIG_BLK_DEV_NULL_BLK=y\nCONFIG_CONFIGFS_FS=y\n", NULL,
				 nullb_sweep, &why), 0);
	CHECK_EQ_INT(check_needs("", NULL, sd, &why), 0);
	/* Without a .config, the modules the tree indexes. */
	CHECK_EQ_INT(check_needs(NULL, "kernel/drivers/block/null_blk/null_blk.ko.xz: "
				 "kernel/fs/configfs/configfs.ko.xz\n", nullb, &why), 0);
	CHECK_EQ_INT(check_needs(NULL, "kernel/drivers/block/null_blk/null_blkx.ko: \n"
				 "kernel/drivers/block/loop.ko:\n", nullb, &why), -1);
	CHECK_CONTAINS(why.buf, "CONFIG_BLK_DEV_NULL_BLK");
	sb_release(&why);
}
