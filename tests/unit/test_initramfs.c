// SPDX-License-Identifier: Apache-2.0
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "guest/guest.h"
#include "guest/initramfs.h"
#include "scenario/diskclass.h"
#include "test.h"
#include "lib/util.h"

struct got_entry {
	char *name;
	int type;		/* 'f', 'd', 'c', '?' */
	unsigned perm;
	unsigned major, minor;
	long long uid, gid;
	struct strbuf data;
};

struct got {
	struct got_entry *e;
	size_t n, alloc;
};

static void got_release(struct got *g)
{
	for (size_t i = 0; i < g->n; i++) {
		free(g->e[i].name);
		sb_release(&g->e[i].data);
	}
	free(g->e);
	memset(g, 0, sizeof(*g));
}

/* Read a cpio (newc, maybe gzipped) back with libarchive. 0 or -1. */
static int read_back(const char *path, struct got *g)
{
	struct archive *a = archive_read_new();
	struct archive_entry *ae;
	int r;

	memset(g, 0, sizeof(*g));
	archive_read_support_format_cpio(a);
	archive_read_support_filter_all(a);
	if (archive_read_open_filename(a, path, 10240) != ARCHIVE_OK) {
		test_fail(__FILE__, __LINE__, "cannot open '%s': %s", path,
			  archive_error_string(a));
		archive_read_free(a);
		return -1;
	}
	while ((r = archive_read_next_header(a, &ae)) == ARCHIVE_OK) {
		struct got_entry *e;
		char buf[4096];
		la_ssize_t n;

		ALLOC_GROW(g->e, g->n + 1, g->alloc);
		e = &g->e[g->n++];
		memset(e, 0, sizeof(*e));
		sb_init(&e->data);
		e->name = xstrdup(archive_entry_pathname(ae));
		switch (archive_entry_filetype(ae)) {
		case AE_IFREG: e->type = 'f'; break;
		case AE_IFDIR: e->type = 'd'; break;
		case AE_IFCHR: e->type = 'c'; break;
		default: e->type = '?'; break;
		}
		e->perm = (unsigned)archive_entry_perm(ae);
		e->major = (unsigned)archive_entry_rdevmajor(ae);
		e->minor = (unsigned)archive_entry_rdevminor(ae);
		e->uid = archive_entry_uid(ae);
		e->gid = archive_entry_gid(ae);
		while ((n = archive_read_data(a, buf, sizeof(buf))) > 0)
			sb_add(&e->data, buf, (size_t)n);
	}
	if (r != ARCHIVE_EOF)
		test_fail(__FILE__, __LINE__, "reading '%s': %s", path,
			  archive_error_string(a));
	archive_read_free(a);
	return r == ARCHIVE_EOF ? 0 : -1;
}

static const struct got_entry *find(const struct got *g, const char *name, size_t *at)
{
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->e[i].name, name)) {
			if (at)
				*at = i;
			return &g->e[i];
		}
	return NULL;
}

static const char rcs[] = "#!/bin/sh\necho hello\n";
static const char busybox_bytes[] = "\x7f" "ELF fake busybox\0with a NUL\n";

/* The test archive, entries added in an unhelpful order. */
static void build(struct initramfs *ir, const char *src)
{
	initramfs_add_data(ir, "etc/init.d/rcS", rcs, sizeof(rcs) - 1, 0755);
	initramfs_add_file(ir, "bin/busybox", src, 0755);
	initramfs_add_chardev(ir, "dev/console", 5, 1, 0600);
	initramfs_add_dir(ir, "lib/modules/6.1.0-57-amd64", 0755);
	initramfs_add_dir(ir, "etc/init.d", 0755);
	initramfs_add_dir(ir, "lib/modules", 0755);
	initramfs_add_dir(ir, "etc", 0700);
	initramfs_add_dir(ir, "dev", 0755);
	initramfs_add_data(ir, "init", "#!/bin/sh\n", 10, 0755);
	initramfs_add_dir(ir, "bin", 0755);
	initramfs_add_dir(ir, "lib", 0755);
	initramfs_add_data(ir, "lib/modules/6.1.0-57-amd64/modules.dep", "", 0, 0644);
}

static char *make_src(const char *dir)
{
	char *src = xstrfmt("%s/busybox.src", dir);

	if (write_file(src, busybox_bytes, sizeof(busybox_bytes) - 1) < 0)
		test_abort(__FILE__, __LINE__, "cannot write '%s'", src);
	return src;
}

TEST(initramfs_write_and_read_back)
{
	const char *dir = test_tmpdir();
	char *src = make_src(dir);
	char *out = xstrfmt("%s/x.cpio", dir);
	struct initramfs ir = INITRAMFS_INIT;
	struct got g;
	const struct got_entry *e;
	size_t first_file = (size_t)-1;

	build(&ir, src);
	REQUIRE(initramfs_write(&ir, out) == 0);
	{
		struct strbuf raw = STRBUF_INIT;
		REQUIRE(sb_read_file(&raw, out) == 0);
		CHECK(raw.len > 6 && !memcmp(raw.buf, "070701", 6));	/* newc */
		sb_release(&raw);
	}
	REQUIRE(read_back(out, &g) == 0);
	CHECK_EQ_INT(g.n, ir.n);

	/* Directories first; every parent before its children. */
	for (size_t i = 0; i < g.n; i++) {
		const char *slash = strrchr(g.e[i].name, '/');

		if (g.e[i].type != 'd' && first_file == (size_t)-1)
			first_file = i;
		if (g.e[i].type == 'd' && first_file != (size_t)-1)
			test_fail(__FILE__, __LINE__, "directory %s after file %s",
				  g.e[i].name, g.e[first_file].name);
		if (slash) {
			char *parent = xstrndup(g.e[i].name, (size_t)(slash - g.e[i].name));
			size_t at = 0;
			if (!find(&g, parent, &at) || at >= i)
				test_fail(__FILE__, __LINE__, "%s comes before its parent %s",
					  g.e[i].name, parent);
			free(parent);
		}
		CHECK_EQ_INT(g.e[i].uid, 0);
		CHECK_EQ_INT(g.e[i].gid, 0);
	}
	CHECK_EQ_INT(first_file, 7);	/* seven directories */

	e = find(&g, "dev/console", NULL);
	REQUIRE(e);
	CHECK_EQ_INT(e->type, 'c');
	CHECK_EQ_INT(e->major, 5);
	CHECK_EQ_INT(e->minor, 1);
	CHECK_EQ_INT(e->perm, 0600);
	CHECK_EQ_INT(e->data.len, 0);

	e = find(&g, "etc", NULL);
	REQUIRE(e);
	CHECK_EQ_INT(e->type, 'd');
	CHECK_EQ_INT(e->perm, 0700);

	e = find(&g, "bin/busybox", NULL);
	REQUIRE(e);
	CHECK_EQ_INT(e->type, 'f');
	CHECK_EQ_INT(e->perm, 0755);
	CHECK_EQ_INT(e->data.len, sizeof(busybox_bytes) - 1);
	CHECK(e->data.len == sizeof(busybox_bytes) - 1 &&
	      !memcmp(e->data.buf, busybox_bytes, e->data.len));

	e = find(&g, "etc/init.d/rcS", NULL);
	REQUIRE(e);
	CHECK_STR(e->data.buf, rcs);
	CHECK_EQ_INT(e->perm, 0755);

	e = find(&g, "lib/modules/6.1.0-57-amd64/modules.dep", NULL);
	REQUIRE(e);
	CHECK_EQ_INT(e->data.len, 0);
	CHECK_EQ_INT(e->perm, 0644);

	/* Files keep the order they were added in. */
	{
		size_t a = 0, b = 0, c = 0;
		find(&g, "etc/init.d/rcS", &a);
		find(&g, "bin/busybox", &b);
		find(&g, "init", &c);
		CHECK(a < b && b < c);
	}
	got_release(&g);
	initramfs_release(&ir);
	free(out);
	free(src);
}

TEST(initramfs_gzip)
{
	const char *dir = test_tmpdir();
	char *src = make_src(dir);
	char *out = xstrfmt("%s/x.cpio.gz", dir);
	struct initramfs ir = INITRAMFS_INIT;
	struct strbuf raw = STRBUF_INIT;
	struct got g;

	build(&ir, src);
	ir.compress = INITRAMFS_GZIP;
	REQUIRE(initramfs_write(&ir, out) == 0);
	REQUIRE(sb_read_file(&raw, out) == 0);
	CHECK(raw.len > 2 && (unsigned char)raw.buf[0] == 0x1f &&
	      (unsigned char)raw.buf[1] == 0x8b);
	REQUIRE(read_back(out, &g) == 0);
	CHECK_EQ_INT(g.n, ir.n);
	CHECK(find(&g, "dev/console", NULL) != NULL);
	got_release(&g);
	sb_release(&raw);
	initramfs_release(&ir);
	free(out);
	free(src);
}

TEST(initramfs_write_missing_source_fails)
{
	const char *dir = test_tmpdir();
	char *out = xstrfmt("%s/x.cpio", dir);
	struct initramfs ir = INITRAMFS_INIT;
	char hash[65];
	char *msg;

	initramfs_add_dir(&ir, "bin", 0755);
	initramfs_add_file(&ir, "bin/busybox", "/nonexistent/busybox", 0755);

	stderr_capture_begin();
	CHECK_EQ_INT(initramfs_write(&ir, out), -1);
	CHECK_EQ_INT(initramfs_hash(&ir, hash), -1);
	msg = stderr_capture_end();
	CHECK_CONTAINS(msg, "cannot read '/nonexistent/busybox'");
	CHECK_CONTAINS(msg, "cannot open '/nonexistent/busybox'");
	free(msg);
	initramfs_release(&ir);
	free(out);
}

static void hash_of(const struct initramfs *ir, char out[65])
{
	if (initramfs_hash(ir, out) < 0)
		test_fail(__FILE__, __LINE__, "initramfs_hash failed");
}

TEST(initramfs_hash_stable_and_sensitive)
{
	const char *dir = test_tmpdir();
	char *src = make_src(dir);
	struct initramfs a = INITRAMFS_INIT, b = INITRAMFS_INIT;
	char ha[65], hb[65], h2[65];

	build(&a, src);
	build(&b, src);
	hash_of(&a, ha);
	hash_of(&b, hb);
	CHECK_EQ_INT(strlen(ha), 64);
	CHECK_STR(ha, hb);
	hash_of(&a, h2);
	CHECK_STR(ha, h2);

	/* One byte of in-memory data. */
	REQUIRE(b.e[0].len > 3);
	b.e[0].data[3] ^= 1;
	hash_of(&b, hb);
	CHECK(strcmp(ha, hb) != 0);
	b.e[0].data[3] ^= 1;
	hash_of(&b, hb);
	CHECK_STR(ha, hb);

	/* One byte of a source file. */
	{
		static const char other[] = "\x7f" "ELF fake busybox\0with a NUL\r";
		REQUIRE(write_file(src, other, sizeof(other) - 1) == 0);
		hash_of(&b, hb);
		CHECK(strcmp(ha, hb) != 0);
		REQUIRE(write_file(src, busybox_bytes, sizeof(busybox_bytes) - 1) == 0);
		hash_of(&b, hb);
		CHECK_STR(ha, hb);
	}

	/* A mode, a device number, a name, the compression. */
	b.e[2].mode = 0644;
	hash_of(&b, hb);
	CHECK(strcmp(ha, hb) != 0);
	b.e[2].mode = 0600;
	b.e[2].minor = 2;
	hash_of(&b, hb);
	CHECK(strcmp(ha, hb) != 0);
	b.e[2].minor = 1;
	b.e[8].name[0] = 'j';
	hash_of(&b, hb);
	CHECK(strcmp(ha, hb) != 0);
	b.e[8].name[0] = 'i';
	b.compress = INITRAMFS_GZIP;
	hash_of(&b, hb);
	CHECK(strcmp(ha, hb) != 0);
	b.compress = INITRAMFS_NONE;
	hash_of(&b, hb);
	CHECK_STR(ha, hb);

	initramfs_release(&a);
	initramfs_release(&b);
	free(src);
}

TEST(initramfs_hash_distinguishes_entry_boundaries)
{
	/* The cache key must tell apart archives with different contents.
	 * One file whose data spells out a second entry's header fields, and
	 * the two entries themselves, are different archives. */
	static const char forged[] = "hi\0f 644 0:0\0y\0yo";
	struct initramfs one = INITRAMFS_INIT, two = INITRAMFS_INIT;
	char h1[65], h2[65];

	initramfs_add_data(&one, "x", forged, sizeof(forged) - 1, 0644);
	initramfs_add_data(&two, "x", "hi", 2, 0644);
	initramfs_add_data(&two, "y", "yo", 2, 0644);
	hash_of(&one, h1);
	hash_of(&two, h2);
	CHECK(strcmp(h1, h2) != 0);
	initramfs_release(&one);
	initramfs_release(&two);
}

TEST(initramfs_build_cached_hits_second_time)
{
	const char *dir = test_tmpdir();
	const char *cache = getenv("SCALETEST_CACHE");
	char *src = make_src(dir);
	struct initramfs ir = INITRAMFS_INIT;
	char *p1 = NULL, *p2 = NULL, *want;
	char hash[65];
	int hit = -1;
	struct got g;

	REQUIRE(cache && *cache);
	build(&ir, src);
	hash_of(&ir, hash);
	REQUIRE(initramfs_build_cached(&ir, &p1, &hit) == 0);
	CHECK_EQ_INT(hit, 0);
	REQUIRE(p1);
	want = xstrfmt("%s/initramfs/%s.cpio", cache, hash);
	CHECK_STR(p1, want);
	CHECK(path_exists(p1));
	hit = -1;
	REQUIRE(initramfs_build_cached(&ir, &p2, &hit) == 0);
	CHECK_EQ_INT(hit, 1);
	CHECK_STR(p2, p1);
	REQUIRE(read_back(p2, &g) == 0);
	CHECK_EQ_INT(g.n, ir.n);
	got_release(&g);
	free(p2);
	free(want);

	/* Different contents: a different entry, built afresh. */
	initramfs_add_data(&ir, "etc/extra", "x", 1, 0644);
	hit = -1;
	REQUIRE(initramfs_build_cached(&ir, &p2, &hit) == 0);
	CHECK_EQ_INT(hit, 0);
	CHECK(strcmp(p1, p2) != 0);
	free(p2);

	/* gzip is cached under its own name. */
	ir.compress = INITRAMFS_GZIP;
	hit = -1;
	REQUIRE(initramfs_build_cached(&ir, &p2, &hit) == 0);
	CHECK_EQ_INT(hit, 0);
	CHECK(strlen(p2) > 8 && !strcmp(p2 + strlen(p2) - 8, ".cpio.gz"));
	free(p2);

	initramfs_release(&ir);
	free(p1);
	free(src);
}

/* page_owner=on: only with attribution, on a kernel built with the debug
 * fragment (by name or by path). */
TEST(guest_cmdline_page_owner)
{
	static const struct {
		const char *sets[4];
		int want, debug;
	} cases[] = {
		{ { "attribution=1", NULL }, 0, 0 },
		{ { "kernel=build", "kernel_fragments=debug", NULL }, 0, 1 },
		{ { "kernel=build", "kernel_fragments=debug", "attribution=1", NULL }, 1, 1 },
		{ { "kernel=build", "kernel_fragments=x, /k/debug.config", "attribution=1", NULL }, 1, 1 },
		{ { "kernel=build", "kernel_fragments=debugish", "attribution=1", NULL }, 0, 0 },
		{ { "kernel=build", "attribution=1", NULL }, 0, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct scenario s;
		struct strbuf err = STRBUF_INIT;
		char *c;

		scenario_init(&s);
		for (size_t k = 0; cases[i].sets[k]; k++)
			CHECK_EQ_INT(scenario_set(&s, cases[i].sets[k], "test", &err), 0);
		c = guest_cmdline(&s);
		CHECK_EQ_INT(strstr(c, " page_owner=on") != NULL, cases[i].want);
		CHECK_EQ_INT(guest_debug_fragment(&s), cases[i].debug);
		free(c);
		scenario_release(&s);
		sb_release(&err);
	}
}

/* The guest's shell library: every .sh in initramfs/lib/ goes into the
 * archive (guest_scripts[]), and initramfs/init sources them, the same
 * names in the same order: a file added to one and not the others would
 * be missing in the guest, or ship unused.  The disk classes' scripts
 * (class-NAME.sh, one a row of disk_classes[], which init sources as
 * class-$DISK_CLASS.sh) are the other .sh files, and only they. */
/* Whether NAME is the script of a row of disk_classes[], named
 * class-ROW.sh as init finds it. */
static int is_class_script(const char *name)
{
	for (size_t i = 0; i < disk_nclasses; i++) {
		char want[64];

		snprintf(want, sizeof(want), "class-%s.sh", disk_classes[i].name);
		CHECK_STR(disk_classes[i].script, want);
		if (!strcmp(name, want))
			return 1;
	}
	return 0;
}

TEST(guest_scripts_match_the_library_and_init)
{
	struct strbuf init = STRBUF_INIT;
	struct strvec sourced = STRVEC_INIT;
	const char *p;
	DIR *d;
	struct dirent *de;
	size_t n = 0, files = 0, classes = 0;
	int class_sourced = 0;

	for (n = 0; guest_scripts[n]; n++) {
		char *path = xstrfmt("%s/initramfs/lib/%s", SCALETEST_SOURCE_ROOT, guest_scripts[n]);

		CHECK(path_exists(path));
		free(path);
	}
	d = opendir(SCALETEST_SOURCE_ROOT "/initramfs/lib");
	REQUIRE(d);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name), i;

		if (len < 4 || strcmp(de->d_name + len - 3, ".sh"))
			continue;
		files++;
		for (i = 0; guest_scripts[i] && strcmp(guest_scripts[i], de->d_name); i++)
			;
		if (!guest_scripts[i] && is_class_script(de->d_name)) {
			classes++;
			continue;
		}
		if (!guest_scripts[i])
			test_fail(__FILE__, __LINE__, "initramfs/lib/%s is not in guest_scripts[]", de->d_name);
	}
	closedir(d);
	CHECK_EQ_INT((long)files, (long)n + (long)classes);
	CHECK_EQ_INT((long)classes, (long)disk_nclasses);

	/* init: "for _lib in A B ...; do" then ". /lib/scaletest/NAME.sh" lines. */
	REQUIRE(sb_read_file(&init, SCALETEST_SOURCE_ROOT "/initramfs/init") == 0);
	p = strstr(init.buf, "\nfor _lib in ");
	REQUIRE(p);
	p += strlen("\nfor _lib in ");
	while (*p && *p != ';') {
		size_t len = strcspn(p, " ;");

		if (len)
			strvec_pushf(&sourced, "%.*s.sh", (int)len, p);
		p += len + (p[len] == ' ');
	}
	for (p = init.buf; (p = strstr(p, "\n. /lib/scaletest/")); p++) {
		const char *name = p + strlen("\n. /lib/scaletest/");

		if (!strncmp(name, "class-$DISK_CLASS.sh\n", 21)) {
			class_sourced++;
			continue;
		}
		strvec_pushf(&sourced, "%.*s", (int)strcspn(name, " \n"), name);
	}
	CHECK_EQ_INT(class_sourced, 1);
	CHECK_EQ_INT((long)sourced.n, (long)n);
	for (size_t i = 0; i < sourced.n && i < n; i++)
		CHECK_STR(sourced.v[i], guest_scripts[i]);
	strvec_clear(&sourced);
	sb_release(&init);
}
