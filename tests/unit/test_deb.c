// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "kernel/deb.h"
#include "test.h"
#include "lib/util.h"

/* Fixtures: `apt-cache show --no-all-versions PKG:i386` on Debian 12. */

TEST(deb_parse_show_metapackage)
{
	char *buf = fixture("deb/linux-image-686-pae.txt", NULL);
	char *version = NULL, *dep = NULL;

	CHECK_EQ_INT(deb_parse_show(buf, &version, &dep), 0);
	CHECK_STR(version, "6.1.192-3");
	CHECK_STR(dep, "linux-image-6.1.0-57-686-pae");
	free(version);
	free(dep);
	free(buf);
}

TEST(deb_parse_show_versioned_package)
{
	/* Depends: kmod, linux-base (>= 4.3~), initramfs-tools ... | ... */
	char *buf = fixture("deb/linux-image-6.1.0-57-686-pae.txt", NULL);
	char *version = NULL, *dep = NULL;

	CHECK_EQ_INT(deb_parse_show(buf, &version, &dep), 0);
	CHECK_STR(version, "6.1.192-3");
	CHECK(dep == NULL);
	free(version);
	free(dep);
	free(buf);
}

TEST(deb_parse_show_612_series)
{
	/* bookworm-security's 6.12: the series metapackage names a versioned
	 * package of three numbers and a "+deb12"; that one depends on no
	 * kernel (its "linux-initramfs-tool" is not one). */
	char *buf = fixture("deb/linux-image-6.12-amd64.txt", NULL);
	char *version = NULL, *dep = NULL;

	CHECK_EQ_INT(deb_parse_show(buf, &version, &dep), 0);
	CHECK_STR(version, "6.12.118-1~deb12u1");
	CHECK_STR(dep, "linux-image-6.12.118+deb12-amd64");
	free(version);
	free(dep);
	free(buf);
	buf = fixture("deb/linux-image-6.12.118+deb12-amd64.txt", NULL);
	CHECK_EQ_INT(deb_parse_show(buf, &version, &dep), 0);
	CHECK_STR(version, "6.12.118-1~deb12u1");
	CHECK(dep == NULL);
	free(version);
	free(dep);
	free(buf);
}

TEST(deb_parse_show_garbage)
{
	static const char *const bad[] = {
		"",
		"hello\nworld\n",
		"E: No packages found\n",
		"Package: x\n\nVersion: 1.0\n",		/* not in the first stanza */
		"Package: x\nVersion: 1.0; rm -rf /\n",
		"Package: x\nVersion: \n",
		"Package: x\nVersion: $(reboot)\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char *version = NULL, *dep = NULL;

		int r = deb_parse_show(bad[i], &version, &dep);

		CHECKF(r == -1, "'%s' accepted (version '%s')", bad[i], version ? version : "(null)");
		free(version);
		free(dep);
	}
}

TEST(deb_parse_show_first_stanza_only)
{
	static const char text[] =
		"Package: linux-image-amd64\n"
		"Version: 6.1.192-3\n"
		"Depends: linux-image-6.1.0-57-amd64 (= 6.1.192-3)\n"
		"\n"
		"Package: linux-image-amd64\n"
		"Version: 6.1.200-1\n"
		"Depends: linux-image-6.1.0-60-amd64 (= 6.1.200-1)\n";
	char *version = NULL, *dep = NULL;

	CHECK_EQ_INT(deb_parse_show(text, &version, &dep), 0);
	CHECK_STR(version, "6.1.192-3");
	CHECK_STR(dep, "linux-image-6.1.0-57-amd64");
	free(version);
	free(dep);
}

TEST(deb_parse_show_kernel_dep_among_others)
{
	static const char text[] =
		"Package: linux-image-cloud-amd64\n"
		"Version: 1:6.1+2~bpo\n"
		"Depends: kmod, linux-image-amd64-signed-template, "
		"linux-image-6.1.0-57-cloud-amd64 (= 6.1.192-3), linux-base\n";
	char *version = NULL, *dep = NULL;

	CHECK_EQ_INT(deb_parse_show(text, &version, &dep), 0);
	CHECK_STR(version, "1:6.1+2~bpo");
	/* Not "linux-image-amd64-signed-template": no version number. */
	CHECK_STR(dep, "linux-image-6.1.0-57-cloud-amd64");
	free(version);
	free(dep);
}

/* Fixtures: `apt-cache show` of sid's 7.2 and experimental's 7.3
 * (December 2026): the versioned package is a metapackage of three parts. */
TEST(deb_parse_stanza_split_kernel)
{
	static const char *const files[][2] = {
		{ "deb/linux-image-7.2.13+deb14-amd64.txt", "7.2.13+deb14-amd64" },
		{ "deb/linux-image-7.3-amd64.txt", "7.3-amd64" },
	};
	static const char *const pre[] = { "linux-binary-", "linux-modules-", "linux-base-" };

	for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
		char *buf = fixture(files[f][0], NULL);
		struct deb_stanza st;

		REQUIRE(deb_parse_stanza(buf, &st) == 0);
		/* "linux-initramfs-tool" and "dracut" are no kernel. */
		CHECK(st.kernel_dep == NULL);
		for (int k = 0; k < DEB_PARTS; k++) {
			char *want = xstrfmt("%s%s", pre[k], files[f][1]);
			CHECK_STR(st.part[k], want);
			CHECK_STR(st.part_version[k], st.version);
			free(want);
		}
		deb_stanza_release(&st);
		free(buf);
	}
}

TEST(deb_parse_stanza_meta_to_split_kernel)
{
	/* sid's linux-image-amd64: linux-base-amd64 (a metapackage too) is
	 * no part; the kernel is linux-image-7.2.13+deb14-amd64. */
	char *buf = fixture("deb/linux-image-amd64-sid.txt", NULL);
	struct deb_stanza st;

	REQUIRE(deb_parse_stanza(buf, &st) == 0);
	CHECK_STR(st.version, "7.2.13-1");
	CHECK_STR(st.kernel_dep, "linux-image-7.2.13+deb14-amd64");
	CHECK(st.part[0] == NULL && st.part[1] == NULL && st.part[2] == NULL);
	deb_stanza_release(&st);
	free(buf);
}

TEST(deb_parse_stanza_split_parts_malformed)
{
	static const char *const text[] = {
		/* parts of another flavour than the binary: not taken */
		"Package: x\nVersion: 7.2-1\nDepends: linux-binary-7.2-amd64 (= 7.2-1), "
		"linux-modules-7.2-cloud-amd64 (= 7.2-1)\n",
		/* a version that is no Debian version: the part without one */
		"Package: x\nVersion: 7.2-1\nDepends: linux-binary-7.2-amd64 (= $(reboot)), "
		"linux-modules-7.2-amd64 (= 7.2-1)\n",
		/* -dbg is no kernel to follow */
		"Package: x\nVersion: 7.2-1\nDepends: linux-image-7.2-amd64-dbg (= 7.2-1)\n",
	};
	struct deb_stanza st;

	REQUIRE(deb_parse_stanza(text[0], &st) == 0);
	CHECK_STR(st.part[0], "linux-binary-7.2-amd64");
	CHECK(st.part[1] == NULL);
	deb_stanza_release(&st);
	REQUIRE(deb_parse_stanza(text[1], &st) == 0);
	CHECK(st.part_version[0] == NULL);
	CHECK_STR(st.part_version[1], "7.2-1");
	deb_stanza_release(&st);
	REQUIRE(deb_parse_stanza(text[2], &st) == 0);
	CHECK(st.kernel_dep == NULL);
	deb_stanza_release(&st);
}
