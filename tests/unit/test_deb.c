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
