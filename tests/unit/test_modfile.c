// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "guest/modfile.h"
#include "helpers.h"
#include "test.h"
#include "lib/util.h"

/* Modules made by tests/fixtures/kmod/mktree.sh (gcc objects, compressed
 * with the real xz, zstd and gzip), each variant in its own tree
 * (kmod_tree(), helpers.h). */
#define KDIR "/lib/modules/" KMOD_TREE_KVER "/kernel/drivers/scsi/"

TEST(modfile_names)
{
	char *p;

	CHECK_EQ_INT(modfile_compression("kernel/a/sd_mod.ko"), MODFILE_NONE);
	CHECK_EQ_INT(modfile_compression("kernel/a/sd_mod.ko.xz"), MODFILE_XZ);
	CHECK_EQ_INT(modfile_compression("kernel/a/sd_mod.ko.zst"), MODFILE_ZSTD);
	CHECK_EQ_INT(modfile_compression("kernel/a/sd_mod.ko.gz"), MODFILE_GZIP);
	CHECK_EQ_INT(modfile_compression("kernel/a/sd_mod.ko.bz2"), MODFILE_UNKNOWN);
	CHECK_EQ_INT(modfile_compression("kernel/a/sd_mod.o"), MODFILE_UNKNOWN);
	/* The last ".ko" ends the name, wherever the directories say ".ko". */
	CHECK_EQ_INT(modfile_compression("kernel/x.ko.d/ko.kom.ko.xz"), MODFILE_XZ);
	CHECK_STR(modfile_comp_name(MODFILE_ZSTD), "zstd");
	CHECK_STR(modfile_comp_name(MODFILE_UNKNOWN), "unknown");
	p = modfile_plain_name("kernel/a/sd_mod.ko.xz");
	CHECK_STR(p, "kernel/a/sd_mod.ko");
	free(p);
	p = modfile_plain_name("kernel/x.ko.d/ko.kom.ko.zst");
	CHECK_STR(p, "kernel/x.ko.d/ko.kom.ko");
	free(p);
	p = modfile_plain_name("kernel/a/sd_mod.ko");
	CHECK_STR(p, "kernel/a/sd_mod.ko");
	free(p);
}

TEST(modfile_each_compression_same_module)
{
	/* scsi_debug as xz (the tree's) and as gzip (the copy beside it):
	 * the same ELF bytes. */
	char *root = kmod_tree("");
	char *xz = xstrfmt("%s" KDIR "scsi_debug.ko.xz", root);
	char *gz = xstrfmt("%s/extra/scsi_debug.ko.gz", root);
	char *zst = xstrfmt("%s" KDIR "virtio_scsi.ko.zst", root);
	char *plain = xstrfmt("%s" KDIR "scsi_common.ko", root);
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, err = STRBUF_INIT;

	CHECK_EQ_INT(modfile_read(xz, &a, &err), 0);
	CHECK_EQ_INT(modfile_read(gz, &b, &err), 0);
	CHECK_STR(err.buf, "");
	CHECK(a.len > 64 && !memcmp(a.buf, "\177ELF", 4));
	CHECK(a.len == b.len && !memcmp(a.buf, b.buf, a.len));
	sb_reset(&a);
	CHECK_EQ_INT(modfile_read(zst, &a, &err), 0);
	CHECK(a.len > 64 && !memcmp(a.buf, "\177ELF", 4));
	sb_reset(&a);
	CHECK_EQ_INT(modfile_read(plain, &a, &err), 0);
	CHECK(a.len > 64 && !memcmp(a.buf, "\177ELF", 4));
	CHECK_STR(err.buf, "");
	/* Appended, not replaced. */
	sb_reset(&b);
	sb_adds(&b, "x");
	CHECK_EQ_INT(modfile_read(xz, &b, &err), 0);
	CHECK(b.len > 1 && b.buf[0] == 'x' && !memcmp(b.buf + 1, "\177ELF", 4));
	sb_release(&a);
	sb_release(&b);
	sb_release(&err);
	free(xz);
	free(gz);
	free(zst);
	free(plain);
	free(root);
}

/* The variant's scsi_debug refused: -1, err holds each of want, and
 * nothing was appended. */
static void refused(const char *variant, const char *file, const char *const *want)
{
	char *root = kmod_tree(variant);
	char *path = xstrfmt("%s" KDIR "%s", root, file);
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	sb_adds(&out, "before");
	CHECK_EQ_INT(modfile_read(path, &out, &err), -1);
	CHECK_STR(out.buf, "before");
	CHECK_CONTAINS(err.buf, path);
	for (; *want; want++)
		CHECK_CONTAINS(err.buf, *want);
	sb_release(&out);
	sb_release(&err);
	free(path);
	free(root);
}

TEST(modfile_damaged_refused)
{
	static const char *const want[] = { "cannot decompress module '", "(xz)",
					     "the file is damaged", "--modules DIR", NULL };

	refused("damaged", "scsi_debug.ko.xz", want);
}

TEST(modfile_signed_after_compression_refused)
{
	static const char *const want[] = {
		"has a signature appended after it was compressed",
		"the kernel checks a module's signature on the decompressed module",
		"sign, then compress", NULL,
	};

	refused("sigafter", "scsi_debug.ko.xz", want);
}

TEST(modfile_not_elf_refused)
{
	static const char *const want[] = { "is not an ELF file once decompressed", NULL };

	refused("notelf", "scsi_debug.ko.xz", want);
}

TEST(modfile_unknown_compression_refused)
{
	static const char *const want[] = {
		"is compressed in a way neither the kernel's module loader nor scaletest reads",
		"unxz, unzstd, gunzip", NULL,
	};

	refused("bz2", "scsi_debug.ko.bz2", want);
}

TEST(modfile_wrong_format_behind_the_name)
{
	/* gzip bytes named .ko.xz; plain ELF named .ko.zst; a missing file. */
	static const unsigned char gz[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0,
					    0, 0, 0, 0, 0, 0, 0 };
	static const char elf[] = "\177ELF and the rest";
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	CHECK_EQ_INT(modfile_decode(gz, sizeof(gz), MODFILE_XZ, "m.ko.xz", &out, &err), -1);
	CHECK_CONTAINS(err.buf, "module 'm.ko.xz' is not xz data, though its name says so");
	sb_reset(&err);
	CHECK_EQ_INT(modfile_decode((const unsigned char *)elf, sizeof(elf) - 1, MODFILE_ZSTD,
				    "m.ko.zst", &out, &err), -1);
	CHECK_CONTAINS(err.buf, "module 'm.ko.zst' is not zstd data");
	sb_reset(&err);
	CHECK_EQ_INT(modfile_decode((const unsigned char *)elf, sizeof(elf) - 1, MODFILE_NONE,
				    "m.ko", &out, &err), 0);
	CHECK_EQ_INT(out.len, sizeof(elf) - 1);
	CHECK_EQ_INT(modfile_decode((const unsigned char *)"text", 4, MODFILE_NONE,
				    "t.ko", &out, &err), -1);
	CHECK_CONTAINS(err.buf, "module 't.ko' is not an ELF file: ");
	CHECK_EQ_INT(out.len, sizeof(elf) - 1);
	sb_reset(&err);
	CHECK_EQ_INT(modfile_read("/nonexistent/x.ko.xz", &out, &err), -1);
	CHECK_STR(err.buf, "cannot read module '/nonexistent/x.ko.xz': No such file or directory");
	sb_release(&out);
	sb_release(&err);
}

TEST(modfile_bomb_bounded)
{
	/* An ELF header then zeros, MODFILE_MAX + 1 MiB of it, gzipped into
	 * about 260 kB: refused once past the bound, nothing kept. */
	z_stream z;
	unsigned char *in = xcalloc(1, 1 << 20), *gz = xmalloc(4 << 20);
	size_t total = MODFILE_MAX + (1u << 20), done = 0;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	memcpy(in, "\177ELF", 4);
	memset(&z, 0, sizeof(z));
	REQUIRE(deflateInit2(&z, 1, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY) == Z_OK);
	z.next_out = gz;
	z.avail_out = 4 << 20;
	while (done < total) {
		z.next_in = in;
		z.avail_in = 1 << 20;
		done += 1 << 20;
		REQUIRE(deflate(&z, done < total ? Z_NO_FLUSH : Z_FINISH) != Z_STREAM_ERROR);
		memset(in, 0, 4);
	}
	REQUIRE(z.avail_in == 0 && z.avail_out > 0);
	CHECK_EQ_INT(modfile_decode(gz, z.total_out, MODFILE_GZIP, "bomb.ko.gz", &out, &err), -1);
	CHECK_CONTAINS(err.buf, "module 'bomb.ko.gz' decompresses to more than 256 MiB");
	CHECK_EQ_INT(out.len, 0);
	deflateEnd(&z);
	free(in);
	free(gz);
	sb_release(&out);
	sb_release(&err);
}
