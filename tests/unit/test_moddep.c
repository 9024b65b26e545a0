#include <stdlib.h>
#include <string.h>

#include "guest/moddep.h"
#include "lib/strvec.h"
#include "test.h"
#include "lib/util.h"

/* The fixture: real lines of Debian 6.1.0-57-amd64's modules.dep and
 * modules.builtin. */
static void load(struct moddep *d)
{
	size_t len;
	char *dep = fixture("moddep/modules.dep", &len);
	char *builtin;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(moddep_parse(d, dep, len, &err), 0);
	CHECK_STR(err.buf, "");
	free(dep);
	builtin = fixture("moddep/modules.builtin", &len);
	CHECK_EQ_INT(moddep_parse_builtin(d, builtin, len, &err), 0);
	CHECK_STR(err.buf, "");
	free(builtin);
	sb_release(&err);
}

static const struct modent *entry(const struct moddep *d, const char *path)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->m[i].path, path))
			return &d->m[i];
	return NULL;
}

/* Every module in order comes after all of its dependencies (as
 * modules.dep lists them), and appears once. */
static void check_order(const struct moddep *d, const struct strvec *order)
{
	for (size_t i = 0; i < order->n; i++) {
		const struct modent *e = entry(d, order->v[i]);

		for (size_t j = 0; j < i; j++)
			if (!strcmp(order->v[j], order->v[i]))
				test_fail(__FILE__, __LINE__, "%s twice in the order",
					  order->v[i]);
		if (!e) {
			test_fail(__FILE__, __LINE__, "%s has no modules.dep line",
				  order->v[i]);
			continue;
		}
		for (size_t k = 0; k < e->ndeps; k++) {
			long at = strvec_find(order, e->deps[k]);
			if (at < 0 || (size_t)at >= i)
				test_fail(__FILE__, __LINE__, "%s (at %zu) needs %s (at %ld)",
					  order->v[i], i, e->deps[k], at);
		}
	}
}

TEST(moddep_parse_fixture)
{
	struct moddep d = MODDEP_INIT;
	const struct modent *e;

	load(&d);
	CHECK_EQ_INT(d.n, 28);
	e = entry(&d, "kernel/drivers/scsi/sd_mod.ko");
	REQUIRE(e);
	CHECK_STR(e->name, "sd_mod");
	CHECK_EQ_INT(e->ndeps, 7);
	CHECK_STR(e->deps[0], "kernel/block/t10-pi.ko");
	CHECK_STR(e->deps[6], "kernel/crypto/crct10dif_common.ko");
	e = entry(&d, "kernel/block/t10-pi.ko");
	REQUIRE(e);
	CHECK_STR(e->name, "t10_pi");		/* '-' normalised */
	e = entry(&d, "kernel/drivers/virtio/virtio_ring.ko");
	REQUIRE(e);
	CHECK_EQ_INT(e->ndeps, 0);
	CHECK_EQ_INT(d.builtin.n, 8);
	CHECK(moddep_is_builtin(&d, "amd_uncore"));
	CHECK(moddep_is_builtin(&d, "amd-uncore"));
	CHECK(moddep_is_builtin(&d, "binfmt_elf"));
	CHECK(!moddep_is_builtin(&d, "sd_mod"));
	moddep_release(&d);
	CHECK_EQ_INT(d.n, 0);
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

TEST(moddep_closure_dependencies_first)
{
	static const char *const want[] = {
		"sd_mod", "scsi_debug", "virtio_scsi", "virtio_pci", "virtio_blk",
	};
	struct moddep d = MODDEP_INIT;
	struct strvec order = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;

	load(&d);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		CHECK_EQ_INT(moddep_closure(&d, want[i], &order, &err), 0);
		CHECK_STR(err.buf, "");
	}
	check_order(&d, &order);
	/* The five, their eleven dependencies, each once. */
	CHECK_EQ_INT(order.n, 16);
	/* sd_mod's own closure comes first, deepest dependency first. */
	REQUIRE(order.n >= 8);
	CHECK_STR(order.v[7], "kernel/drivers/scsi/sd_mod.ko");
	CHECK(strvec_find(&order, "kernel/drivers/scsi/scsi_common.ko") <
	      strvec_find(&order, "kernel/drivers/scsi/scsi_mod.ko"));
	CHECK(strvec_find(&order, "kernel/drivers/virtio/virtio_ring.ko") <
	      strvec_find(&order, "kernel/drivers/virtio/virtio.ko"));
	CHECK(strvec_find(&order, "kernel/lib/crc64.ko") <
	      strvec_find(&order, "kernel/lib/crc64-rocksoft.ko"));
	CHECK(strvec_find(&order, "kernel/lib/crc64-rocksoft.ko") <
	      strvec_find(&order, "kernel/block/t10-pi.ko"));
	/* Asking again adds nothing. */
	CHECK_EQ_INT(moddep_closure(&d, "virtio_scsi", &order, &err), 0);
	CHECK_EQ_INT(order.n, 16);
	strvec_clear(&order);
	moddep_release(&d);
	sb_release(&err);
}

TEST(moddep_closure_each_alone)
{
	/* Each module's closure alone is complete and ordered too. */
	struct moddep d = MODDEP_INIT;
	struct strbuf err = STRBUF_INIT;

	load(&d);
	for (size_t i = 0; i < d.n; i++) {
		struct strvec order = STRVEC_INIT;
		const struct modent *e = &d.m[i];

		if (strncmp(e->path, "kernel/drivers/", 15) &&
		    strncmp(e->path, "kernel/lib/", 11) &&
		    strncmp(e->path, "kernel/block/", 13))
			continue;	/* the unrelated lines' deps are not in the fixture */
		CHECK_EQ_INT(moddep_closure(&d, e->name, &order, &err), 0);
		CHECK_EQ_INT(order.n, e->ndeps + 1);
		if (order.n)
			CHECK_STR(order.v[order.n - 1], e->path);
		check_order(&d, &order);
		strvec_clear(&order);
	}
	sb_release(&err);
	moddep_release(&d);
}

TEST(moddep_dash_and_underscore_equal)
{
	struct moddep d = MODDEP_INIT;
	struct strvec a = STRVEC_INIT, b = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;

	load(&d);
	CHECK_EQ_INT(moddep_closure(&d, "virtio-scsi", &a, &err), 0);
	CHECK_EQ_INT(moddep_closure(&d, "virtio_scsi", &b, &err), 0);
	CHECK_EQ_INT(a.n, 5);
	CHECK_EQ_INT(a.n, b.n);
	for (size_t i = 0; i < a.n && i < b.n; i++)
		CHECK_STR(a.v[i], b.v[i]);
	strvec_clear(&a);
	CHECK_EQ_INT(moddep_closure(&d, "t10_pi", &a, &err), 0);
	CHECK_EQ_INT(moddep_closure(&d, "crc64_rocksoft", &a, &err), 0);
	CHECK_EQ_INT(a.n, 5);
	CHECK_STR(a.v[a.n - 1], "kernel/block/t10-pi.ko");
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

	load(&d);
	CHECK_EQ_INT(moddep_closure(&d, "binfmt_elf", &order, &err), 0);
	CHECK_EQ_INT(moddep_closure(&d, "amd-uncore", &order, &err), 0);
	CHECK_EQ_INT(order.n, 0);
	CHECK_STR(err.buf, "");
	strvec_clear(&order);
	moddep_release(&d);
	sb_release(&err);
}

TEST(moddep_unknown_module_named)
{
	struct moddep d = MODDEP_INIT;
	struct strvec order = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;

	load(&d);
	CHECK_EQ_INT(moddep_closure(&d, "nvme_core", &order, &err), -1);
	CHECK_STR(err.buf, "module 'nvme_core' is neither in modules.dep nor built in");
	CHECK_EQ_INT(order.n, 0);
	strvec_clear(&order);
	moddep_release(&d);
	sb_release(&err);
}

TEST(moddep_compressed_refused)
{
	static const char dep[] =
		"kernel/drivers/scsi/scsi_common.ko.xz:\n"
		"kernel/drivers/scsi/scsi_mod.ko.xz: kernel/drivers/scsi/scsi_common.ko.xz\n"
		"kernel/drivers/scsi/sd_mod.ko.zst: kernel/drivers/scsi/scsi_mod.ko\n"
		"kernel/drivers/scsi/scsi_mod.ko:\n";
	struct moddep d = MODDEP_INIT;
	struct strvec order = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(moddep_parse(&d, dep, sizeof(dep) - 1, &err), 0);
	CHECK_EQ_INT(moddep_closure(&d, "scsi_common", &order, &err), -1);
	CHECK_STR(err.buf, "module 'kernel/drivers/scsi/scsi_common.ko.xz' is compressed; "
		  "build the kernel with CONFIG_MODULE_COMPRESS_NONE");
	sb_reset(&err);
	CHECK_EQ_INT(moddep_closure(&d, "sd_mod", &order, &err), -1);
	CHECK_CONTAINS(err.buf, "'kernel/drivers/scsi/sd_mod.ko.zst' is compressed");
	strvec_clear(&order);
	moddep_release(&d);
	sb_release(&err);
}

static const char *dep_bad(const char *text)
{
	static char msg[256];
	struct moddep d = MODDEP_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(moddep_parse(&d, text, strlen(text), &err), -1);
	snprintf(msg, sizeof(msg), "%s", err.buf);
	moddep_release(&d);
	sb_release(&err);
	return msg;
}

TEST(moddep_malformed_lines_rejected)
{
	CHECK_STR(dep_bad("kernel/a.ko:\nkernel/b.ko kernel/a.ko\n"),
		  "modules.dep:2: missing ':'");
	CHECK_STR(dep_bad("/lib/modules/a.ko:\n"), "modules.dep:1: bad module path");
	CHECK_STR(dep_bad("kernel/../../etc/x.ko:\n"), "modules.dep:1: bad module path");
	CHECK_STR(dep_bad(": kernel/a.ko\n"), "modules.dep:1: bad module path");
	CHECK_STR(dep_bad("kernel/a.ko: /abs/b.ko\n"), "modules.dep:1: bad dependency path");
	CHECK_STR(dep_bad("kernel/a.ko: ../b.ko\n"), "modules.dep:1: bad dependency path");
	CHECK_STR(dep_bad("kernel/a.ko:\n\nkernel/b\x01.ko:\n"),
		  "modules.dep:3: bad module path");
	{
		struct strbuf t = STRBUF_INIT;
		sb_adds(&t, "kernel/a.ko:");
		for (int i = 0; i < 600; i++)
			sb_addf(&t, " kernel/d%d.ko", i);
		sb_addch(&t, '\n');
		CHECK_STR(dep_bad(t.buf), "modules.dep:1: too many dependencies");
		sb_release(&t);
	}
	{
		struct moddep d = MODDEP_INIT;
		struct strbuf err = STRBUF_INIT;
		static const char nul[] = "kernel/a.ko:\nkernel/b.ko:\0\n";

		CHECK_EQ_INT(moddep_parse(&d, nul, sizeof(nul) - 1, &err), -1);
		CHECK_STR(err.buf, "modules.dep:2: NUL byte");
		moddep_release(&d);
		sb_release(&err);
	}
	{
		struct moddep d = MODDEP_INIT;
		struct strbuf err = STRBUF_INIT;

		CHECK_EQ_INT(moddep_parse_builtin(&d, "kernel/a.ko\n/abs.ko\n", 20, &err), -1);
		CHECK_STR(err.buf, "modules.builtin:2: bad module path");
		moddep_release(&d);
		sb_release(&err);
	}
}

TEST(moddep_long_names_refused_not_cut)
{
	/* Names were cut silently to 63 bytes, so two long names compared
	 * equal, and a cut ending in ".ko" named another module again (found
	 * by the moddep fuzzer: a builtin not builtin).  63 bytes still fit. */
	struct strbuf t = STRBUF_INIT;
	struct moddep d = MODDEP_INIT;
	struct strbuf err = STRBUF_INIT;

	sb_adds(&t, "kernel/");
	for (int i = 0; i < 63; i++)
		sb_addch(&t, 'a' + i % 26);
	sb_adds(&t, ".ko:\n");
	CHECK_EQ_INT(moddep_parse(&d, t.buf, t.len, &err), 0);
	moddep_release(&d);
	sb_setlen(&t, t.len - 5);
	sb_adds(&t, "x.ko:\n");
	CHECK_STR(dep_bad(t.buf), "modules.dep:1: bad module path");
	sb_setlen(&t, t.len - 2);
	sb_addch(&t, '\n');
	d = (struct moddep)MODDEP_INIT;
	CHECK_EQ_INT(moddep_parse_builtin(&d, t.buf, t.len, &err), -1);
	CHECK_STR(err.buf, "modules.builtin:1: bad module path");
	moddep_release(&d);
	sb_release(&err);
	sb_release(&t);
}
