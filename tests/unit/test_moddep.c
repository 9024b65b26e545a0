// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "guest/moddep.h"
#include "helpers.h"
#include "lib/strvec.h"
#include "test.h"
#include "lib/util.h"

/*
 * The tree: tests/fixtures/kmod/mktree.sh (kmod_tree(), helpers.h), fake
 * modules indexed by the real depmod (their dependencies from their
 * symbols, softdeps and aliases from their .modinfo), compressed as
 * kernels ship them.
 */
static char *tree_dir(const char *root)
{
	return xstrfmt("%s/lib/modules/" KMOD_TREE_KVER, root);
}

static void open_tree(struct moddep *d, const char *variant)
{
	char *root = kmod_tree(variant), *dir = tree_dir(root);
	struct strbuf err = STRBUF_INIT;

	if (moddep_open(d, dir, &err) < 0)
		test_abort(__FILE__, __LINE__, "moddep_open: %s", err.buf);
	free(dir);
	free(root);
	sb_release(&err);
}

#define SCSI "kernel/drivers/scsi/"

TEST(moddep_closure_dependencies_first)
{
	struct moddep d = MODDEP_INIT;
	struct strvec order = STRVEC_INIT, soft = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;

	open_tree(&d, "");
	/* sd_mod, as modprobe orders it: its dependencies deepest first,
	 * then its soft pre-dependency (an alias, crc-fake -> crcimpl), then
	 * itself. */
	CHECK_EQ_INT(moddep_closure(&d, "sd_mod", &order, &soft, &err), 0);
	CHECK_STR(err.buf, "");
	REQUIRE(order.n == 4);
	CHECK_STR(order.v[0], SCSI "scsi_common.ko");
	CHECK_STR(order.v[1], SCSI "scsi_mod.ko.xz");
	CHECK_STR(order.v[2], "kernel/crypto/crcimpl.ko.zst");
	CHECK_STR(order.v[3], SCSI "sd_mod.ko.xz");
	/* Only the soft dependency may fail to load. */
	CHECK_EQ_INT(soft.n, 1);
	CHECK(strvec_find(&soft, "kernel/crypto/crcimpl.ko.zst") >= 0);
	/* scsi_debug adds itself and its soft post-dependency after it; the
	 * one that names no module (no_such_module) is passed over, as
	 * modprobe does. */
	CHECK_EQ_INT(moddep_closure(&d, "scsi_debug", &order, &soft, &err), 0);
	CHECK_STR(err.buf, "");
	REQUIRE(order.n == 6);
	CHECK_STR(order.v[4], SCSI "scsi_debug.ko.xz");
	CHECK_STR(order.v[5], SCSI "debug_post.ko");
	CHECK_EQ_INT(soft.n, 2);
	CHECK(strvec_find(&soft, SCSI "debug_post.ko") >= 0);
	/* Asking again adds nothing. */
	CHECK_EQ_INT(moddep_closure(&d, "sd_mod", &order, &soft, &err), 0);
	CHECK_EQ_INT(moddep_closure(&d, "virtio_scsi", &order, NULL, &err), 0);
	CHECK_EQ_INT(order.n, 7);
	CHECK_STR(order.v[6], SCSI "virtio_scsi.ko.zst");
	strvec_clear(&order);
	strvec_clear(&soft);
	moddep_release(&d);
	sb_release(&err);
}

TEST(moddep_each_alone_complete)
{
	/* A module's closure alone holds its modules.dep line, in order. */
	static const struct { const char *name; size_t n; const char *last; } want[] = {
		{ "scsi_common", 1, SCSI "scsi_common.ko" },
		{ "scsi_mod", 2, SCSI "scsi_mod.ko.xz" },
		{ "virtio_scsi", 3, SCSI "virtio_scsi.ko.zst" },
		{ "crcimpl", 1, "kernel/crypto/crcimpl.ko.zst" },
		{ "crc-fake", 1, "kernel/crypto/crcimpl.ko.zst" },	/* by alias */
	};
	struct moddep d = MODDEP_INIT;
	struct strbuf err = STRBUF_INIT;

	open_tree(&d, "");
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		struct strvec order = STRVEC_INIT, soft = STRVEC_INIT;

		CHECK_EQ_INT(moddep_closure(&d, want[i].name, &order, &soft, &err), 0);
		CHECK_EQ_INT(order.n, want[i].n);
		if (order.n)
			CHECK_STR(order.v[order.n - 1], want[i].last);
		CHECK_EQ_INT(soft.n, 0);
		strvec_clear(&order);
		strvec_clear(&soft);
	}
	CHECK_STR(err.buf, "");
	sb_release(&err);
	moddep_release(&d);
}

TEST(moddep_dash_and_underscore_equal)
{
	struct moddep d = MODDEP_INIT;
	struct strvec a = STRVEC_INIT, b = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;

	open_tree(&d, "");
	CHECK_EQ_INT(moddep_closure(&d, "virtio-scsi", &a, NULL, &err), 0);
	CHECK_EQ_INT(moddep_closure(&d, "virtio_scsi", &b, NULL, &err), 0);
	CHECK_EQ_INT(a.n, 3);
	CHECK_EQ_INT(a.n, b.n);
	for (size_t i = 0; i < a.n && i < b.n; i++)
		CHECK_STR(a.v[i], b.v[i]);
	CHECK_STR(err.buf, "");
	strvec_clear(&a);
	strvec_clear(&b);
	moddep_release(&d);
	sb_release(&err);
}

TEST(moddep_builtin_adds_nothing)
{
	struct moddep d = MODDEP_INIT;
	struct strvec order = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;

	open_tree(&d, "");
	CHECK_EQ_INT(moddep_closure(&d, "virtio_pci", &order, NULL, &err), 0);
	CHECK_EQ_INT(moddep_closure(&d, "virtio-console", &order, NULL, &err), 0);
	CHECK_EQ_INT(order.n, 0);
	CHECK_STR(err.buf, "");
	CHECK(moddep_have(&d, "virtio_console"));
	CHECK(moddep_have(&d, "scsi_debug"));
	CHECK(!moddep_have(&d, "nvme_core"));
	strvec_clear(&order);
	moddep_release(&d);
	sb_release(&err);
}

TEST(moddep_unknown_module_named)
{
	struct moddep d = MODDEP_INIT;
	struct strvec order = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;

	open_tree(&d, "");
	CHECK_EQ_INT(moddep_closure(&d, "nvme_core", &order, NULL, &err), -1);
	CHECK_STR(err.buf, "module 'nvme_core' is neither in modules.dep nor built in");
	CHECK_EQ_INT(order.n, 0);
	strvec_clear(&order);
	moddep_release(&d);
	sb_release(&err);
}

TEST(moddep_gzip_module_depmod_passed_over)
{
	/* virtio_blk.ko.gz is in the tree, and not in the index of a depmod
	 * without zlib (Debian's): the error names the file and the fix. */
	struct moddep d = MODDEP_INIT;
	struct strvec order = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;

	open_tree(&d, "");
	CHECK_EQ_INT(moddep_closure(&d, "virtio_blk", &order, NULL, &err), -1);
	CHECK_CONTAINS(err.buf, "module 'virtio_blk' is not in modules.dep although '");
	CHECK_CONTAINS(err.buf, "/lib/modules/" KMOD_TREE_KVER "/kernel/drivers/block/virtio_blk.ko.gz' "
		       "is there: depmod without zlib");
	CHECK_CONTAINS(err.buf, "gunzip them and run depmod again");
	strvec_clear(&order);
	moddep_release(&d);
	sb_release(&err);
}

TEST(moddep_tree_without_index)
{
	struct moddep d = MODDEP_INIT;
	char *root = kmod_tree("nodep"), *dir = tree_dir(root);
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(moddep_open(&d, dir, &err), -1);
	CHECK_CONTAINS(err.buf, "/lib/modules/" KMOD_TREE_KVER "/modules.dep' is missing: the modules "
		       "tree '");
	CHECK_CONTAINS(err.buf, "run 'depmod -b ROOT VERSION'");
	moddep_release(&d);
	free(dir);
	free(root);
	sb_release(&err);
}

TEST(moddep_module_name)
{
	char n[64];

	module_name("kernel/drivers/scsi/sd_mod.ko", n, sizeof(n));
	CHECK_STR(n, "sd_mod");
	module_name("kernel/lib/crc64-rocksoft.ko", n, sizeof(n));
	CHECK_STR(n, "crc64_rocksoft");
	module_name("kernel/lib/crc-t10dif.ko.xz", n, sizeof(n));
	CHECK_STR(n, "crc_t10dif");
	module_name("virtio-scsi", n, sizeof(n));
	CHECK_STR(n, "virtio_scsi");
	module_name("kernel/x/ko.kom.ko", n, sizeof(n));
	CHECK_STR(n, "ko.kom");
	module_name("a/very_long_module_name.ko", n, 8);
	CHECK_STR(n, "very_lo");
}
