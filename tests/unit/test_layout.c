// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/layout.h"
#include "lib/util.h"
#include "test.h"

/* The entries of the captured listings named (tests/fixtures/layout/),
 * as if the packages were unpacked into one root. */
static void listings(struct strvec *e, const char *const *names)
{
	for (size_t i = 0; names[i]; i++) {
		char *path = xstrfmt("layout/%s", names[i]);
		size_t len;
		char *buf = fixture(path, &len);
		struct strbuf err = STRBUF_INIT;

		if (layout_parse_listing(buf, len, e, &err) < 0)
			test_fail(__FILE__, __LINE__, "%s: %s", names[i], err.buf);
		sb_release(&err);
		free(buf);
		free(path);
	}
}

static int find(const struct strvec *e, struct kernel_layout *l, struct strbuf *err)
{
	sb_reset(err);
	return kernel_layout_find(e, l, err);
}

TEST(layout_bookworm_boot_and_lib_modules)
{
	static const char *const pk[] = { "bookworm-686-pae.txt", NULL };
	struct strvec e = STRVEC_INIT;
	struct kernel_layout l = KERNEL_LAYOUT_INIT;
	struct strbuf err = STRBUF_INIT;

	listings(&e, pk);
	REQUIRE(find(&e, &l, &err) == 0);
	CHECK_STR(l.version, "6.1.0-57-686-pae");
	CHECK_STR(l.image, "boot/vmlinuz-6.1.0-57-686-pae");
	CHECK_STR(l.modules, "lib/modules/6.1.0-57-686-pae");
	CHECK_STR(l.config, "boot/config-6.1.0-57-686-pae");
	CHECK_STR(l.system_map, "boot/System.map-6.1.0-57-686-pae");
	kernel_layout_release(&l);
	strvec_clear(&e);
	sb_release(&err);
}

TEST(layout_trixie_boot_and_usr_lib_modules)
{
	static const char *const pk[] = { "trixie-amd64.txt", NULL };
	struct strvec e = STRVEC_INIT;
	struct kernel_layout l = KERNEL_LAYOUT_INIT;
	struct strbuf err = STRBUF_INIT;

	listings(&e, pk);
	REQUIRE(find(&e, &l, &err) == 0);
	CHECK_STR(l.version, "6.12.117+deb13-amd64");
	CHECK_STR(l.image, "boot/vmlinuz-6.12.117+deb13-amd64");
	CHECK_STR(l.modules, "usr/lib/modules/6.12.117+deb13-amd64");
	CHECK_STR(l.config, "boot/config-6.12.117+deb13-amd64");
	kernel_layout_release(&l);
	strvec_clear(&e);
	sb_release(&err);
}

TEST(layout_split_7x_needs_its_parts)
{
	static const char *const all[] = { "sid-7.2-image.txt", "sid-7.2-binary.txt",
					   "sid-7.2-modules.txt", "sid-7.2-base.txt", NULL };
	static const char *const meta[] = { "sid-7.2-image.txt", NULL };
	static const char *const nomods[] = { "sid-7.2-binary.txt", NULL };
	static const char *const nobin[] = { "sid-7.2-modules.txt", "sid-7.2-base.txt", NULL };
	struct strvec e = STRVEC_INIT;
	struct kernel_layout l = KERNEL_LAYOUT_INIT;
	struct strbuf err = STRBUF_INIT;

	listings(&e, all);
	REQUIRE(find(&e, &l, &err) == 0);
	CHECK_STR(l.version, "7.2.13+deb14-amd64");
	CHECK_STR(l.image, "usr/lib/modules/7.2.13+deb14-amd64/vmlinuz");
	CHECK_STR(l.modules, "usr/lib/modules/7.2.13+deb14-amd64");
	CHECK_STR(l.config, "usr/lib/modules/7.2.13+deb14-amd64/config");
	CHECK_STR(l.system_map, "usr/lib/modules/7.2.13+deb14-amd64/System.map");
	kernel_layout_release(&l);
	strvec_clear(&e);

	/* The metapackage alone holds no kernel. */
	listings(&e, meta);
	CHECK_EQ_INT(find(&e, &l, &err), -1);
	CHECK_CONTAINS(err.buf, "no kernel in the package");
	strvec_clear(&e);
	/* linux-binary alone: a kernel, no config, and its directory is
	 * there; the tree without linux-modules is still a tree (the run
	 * then says what modules.dep lacks), so only the config is absent. */
	listings(&e, nomods);
	REQUIRE(find(&e, &l, &err) == 0);
	CHECK(l.config == NULL);
	kernel_layout_release(&l);
	strvec_clear(&e);
	/* Modules and base without the binary: no kernel. */
	listings(&e, nobin);
	CHECK_EQ_INT(find(&e, &l, &err), -1);
	CHECK_CONTAINS(err.buf, "no kernel in the package");
	strvec_clear(&e);
	sb_release(&err);
}

TEST(layout_malformed_packages)
{
	static const struct {
		const char *entries;	/* "T path" per line */
		const char *why;
	} bad[] = {
		{ "f boot/vmlinuz-6.1.0-1-amd64\nf boot/vmlinuz-6.1.0-2-amd64\n"
		  "d lib/modules/6.1.0-1-amd64\n", "two kernels in the package" },
		{ "f boot/vmlinuz-7.2.1-amd64\nf usr/lib/modules/7.2.1-amd64/vmlinuz\n",
		  "two kernels in the package" },
		{ "l boot/vmlinuz-6.1.0-1-amd64\nd lib/modules/6.1.0-1-amd64\n",
		  "is a symbolic link, not a file" },
		{ "d usr/lib/modules/7.2.1-amd64/vmlinuz\n", "is a directory, not a file" },
		{ "f boot/vmlinuz-6.1.0-1-amd64\n", "no modules of 6.1.0-1-amd64" },
		{ "f boot/vmlinuz-6.1.0-1-amd64\nd lib/modules/6.1.0-1-amd64\n"
		  "d lib/modules/6.1.0-2-amd64\n", "modules of another kernel than 6.1.0-1-amd64" },
		{ "f boot/vmlinuz-6.1.0-1-amd64\nd lib/modules/6.1.0-1-amd64\n"
		  "d usr/lib/modules/6.1.0-1-amd64\n", "in both 'lib/modules/6.1.0-1-amd64' and 'usr/lib/modules/6.1.0-1-amd64'" },
		{ "f boot/vmlinuz-6.1.0-1-amd64\nl lib/modules/6.1.0-1-amd64\n",
		  "is a symbolic link, not a directory" },
		{ "f boot/vmlinuz-6.1.0-1-amd64\nl lib/modules\n",
		  "'lib/modules' is not a directory" },
		{ "f boot/vmlinuz-6.1.0-1-amd64\nd lib/modules/6.1.0-1-amd64\n"
		  "l boot/config-6.1.0-1-amd64\n", "'boot/config-6.1.0-1-amd64' is not a file" },
		{ "f boot/vmlinuz-x;reboot\nd lib/modules/x;reboot\n", "cannot name a directory" },
		{ "f boot/other\nd lib/modules/6.1.0-1-amd64\n", "no kernel in the package" },
		{ "", "no kernel in the package" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct strvec e = STRVEC_INIT;
		struct kernel_layout l = KERNEL_LAYOUT_INIT;
		struct strbuf err = STRBUF_INIT;
		const char *p = bad[i].entries;

		while (*p) {
			const char *nl = strchr(p, '\n');
			strvec_pushf(&e, "%.*s", (int)(nl - p), p);
			p = nl + 1;
		}
		CHECK_EQ_INT(kernel_layout_find(&e, &l, &err), -1);
		CHECK_CONTAINS(err.buf, bad[i].why);
		kernel_layout_release(&l);
		strvec_clear(&e);
		sb_release(&err);
	}
}

TEST(layout_listing_refuses_what_is_no_listing)
{
	static const char *const bad[] = {
		"hello world\n",
		"-rw-r--r-- root/root 83 2026-11-12 09:30 /boot/vmlinuz-1\n",
		"-rw-r--r-- root/root 83 2026-11-12 09:30 ./boot/../../etc/passwd\n",
		"-rw-r--r-- root/root 83 2026-11-12 09:30 ./boot//vmlinuz-1\n",
		"-rw-r--r-- root/root 83\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct strvec e = STRVEC_INIT;
		struct strbuf err = STRBUF_INIT;

		if (layout_parse_listing(bad[i], strlen(bad[i]), &e, &err) != -1)
			test_fail(__FILE__, __LINE__, "'%s' accepted", bad[i]);
		else
			CHECK_CONTAINS(err.buf, "line 1:");
		strvec_clear(&e);
		sb_release(&err);
	}
}

TEST(layout_listing_types_and_links)
{
	static const char text[] =
		"drwxr-xr-x root/root         0 2026-10-28 15:01 ./\n"
		"drwxr-xr-x root/root         0 2026-10-28 15:01 ./usr/lib/modules/7.2.1-amd64/\n"
		"-rw-r--r-- root/root      7099 2026-10-28 15:01 ./usr/lib/modules/7.2.1-amd64/config\n"
		"lrwxrwxrwx root/root         0 2026-10-28 15:01 ./usr/share/doc/x -> linux-base\n"
		"hrw-r--r-- root/root         0 2026-10-28 15:01 ./usr/bin/busybox link to ./bin/busybox\n";
	struct strvec e = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;

	REQUIRE(layout_parse_listing(text, strlen(text), &e, &err) == 0);
	REQUIRE(e.n == 4);
	CHECK_STR(e.v[0], "d usr/lib/modules/7.2.1-amd64");
	CHECK_STR(e.v[1], "f usr/lib/modules/7.2.1-amd64/config");
	CHECK_STR(e.v[2], "l usr/share/doc/x");
	CHECK_STR(e.v[3], "f usr/bin/busybox");
	strvec_clear(&e);
	sb_release(&err);
}

/* The same rules over a tree unpacked on disk (layout_scan): the 7.x
 * layout, then a link planted where the kernel was. */
TEST(layout_scan_unpacked_tree)
{
	const char *root = test_tmpdir();
	char *d = xstrfmt("%s/usr/lib/modules/7.2.1-amd64/kernel", root);
	char *img = xstrfmt("%s/usr/lib/modules/7.2.1-amd64/vmlinuz", root);
	char *cfg = xstrfmt("%s/usr/lib/modules/7.2.1-amd64/config", root);
	struct strvec e = STRVEC_INIT;
	struct kernel_layout l = KERNEL_LAYOUT_INIT;
	struct strbuf err = STRBUF_INIT;

	REQUIRE(mkdir_p(d, 0755) == 0);
	REQUIRE(write_file(img, "k", 1) == 0);
	REQUIRE(write_file(cfg, "CONFIG_X=y\n", 11) == 0);
	REQUIRE(layout_scan(root, &e, &err) == 0);
	REQUIRE(find(&e, &l, &err) == 0);
	CHECK_STR(l.image, "usr/lib/modules/7.2.1-amd64/vmlinuz");
	CHECK_STR(l.config, "usr/lib/modules/7.2.1-amd64/config");
	kernel_layout_release(&l);
	strvec_clear(&e);

	unlink(img);
	REQUIRE(symlink("/etc/passwd", img) == 0);
	REQUIRE(layout_scan(root, &e, &err) == 0);
	CHECK_EQ_INT(find(&e, &l, &err), -1);
	CHECK_CONTAINS(err.buf, "is a symbolic link, not a file");
	strvec_clear(&e);
	free(d);
	free(img);
	free(cfg);
	sb_release(&err);
}

TEST(layout_busybox_bin_or_usr_bin)
{
	const char *root = test_tmpdir();
	char *old = xstrfmt("%s/bin", root), *usr = xstrfmt("%s/usr/bin", root);
	char *bb = xstrfmt("%s/usr/bin/busybox", root);
	char *found;

	REQUIRE(layout_find_program(root, "busybox") == NULL);
	REQUIRE(mkdir_p(usr, 0755) == 0 && mkdir_p(old, 0755) == 0);
	REQUIRE(write_file(bb, "x", 1) == 0);
	REQUIRE(chmod(bb, 0755) == 0);
	found = layout_find_program(root, "busybox");
	CHECK(found && !strcmp(found, bb));
	free(found);
	/* A link in bin/ is passed over, never followed. */
	char *link = xstrfmt("%s/busybox", old);
	REQUIRE(symlink("/bin/sh", link) == 0);
	found = layout_find_program(root, "busybox");
	CHECK(found && !strcmp(found, bb));
	free(found);
	free(link);
	free(old);
	free(usr);
	free(bb);
}
