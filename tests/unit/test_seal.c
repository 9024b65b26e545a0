// SPDX-License-Identifier: Apache-2.0
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/seal.h"
#include "lib/util.h"
#include "test.h"

/* A small entry: root/a, root/d/b, root/d/link -> b. */
static char *make_tree(const char *name)
{
	char *root = xstrfmt("%s/%s", test_tmpdir(), name);
	char *d = xstrfmt("%s/d", root), *a = xstrfmt("%s/a", root);
	char *b = xstrfmt("%s/d/b", root), *l = xstrfmt("%s/d/link", root);

	if (mkdir(root, 0755) < 0 || mkdir(d, 0755) < 0 ||
	    write_file(a, "alpha\n", 6) < 0 || write_file(b, "bravo bravo\n", 12) < 0 ||
	    symlink("b", l) < 0)
		test_abort(__FILE__, __LINE__, "cannot make the tree");
	free(d);
	free(a);
	free(b);
	free(l);
	return root;
}

static enum seal_state check(const char *root, const char *seal, struct strbuf *why)
{
	sb_reset(why);
	return seal_check(root, seal, why);
}

TEST(seal_lists_every_file_and_link_by_path)
{
	char *root = make_tree("e");
	char *seal = xstrfmt("%s/e.seal", test_tmpdir());
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;

	REQUIRE(seal_write(root, seal) == 0);
	REQUIRE(sb_read_file(&text, seal) == 0);
	CHECK(!strncmp(text.buf, "scaletest-seal 1\nf 6 ", 21));
	/* SHA-256 of "alpha\n" */
	CHECK_CONTAINS(text.buf, "\nf 6 b6a98d9ce9a2d9149288fa3df42d377c3e42737afdcdaf714e33c0a100b51060 ");
	CHECK_CONTAINS(text.buf, " a\n");
	CHECK_CONTAINS(text.buf, " d/b\n");
	CHECK_CONTAINS(text.buf, "\nl 0 ");
	CHECK_CONTAINS(text.buf, " d/link\n");
	CHECK(strstr(text.buf, " a\n") < strstr(text.buf, " d/b\n"));
	CHECK_EQ_INT(check(root, seal, &why), SEAL_INTACT);
	CHECK_STR(why.buf, "");
	sb_release(&text);
	sb_release(&why);
	free(seal);
	free(root);
}

TEST(seal_finds_a_truncated_file_and_names_it)
{
	char *root = make_tree("e");
	char *seal = xstrfmt("%s/e.seal", test_tmpdir());
	char *b = xstrfmt("%s/d/b", root);
	struct strbuf why = STRBUF_INIT;

	REQUIRE(seal_write(root, seal) == 0);
	REQUIRE(truncate(b, 5) == 0);
	CHECK_EQ_INT(check(root, seal, &why), SEAL_DAMAGED);
	CHECK_STR(why.buf, "d/b: 5 bytes, sealed with 12");
	sb_release(&why);
	free(b);
	free(seal);
	free(root);
}

TEST(seal_finds_a_file_overwritten_in_place)
{
	char *root = make_tree("e");
	char *seal = xstrfmt("%s/e.seal", test_tmpdir());
	char *a = xstrfmt("%s/a", root);
	struct strbuf why = STRBUF_INIT;
	int fd;

	REQUIRE(seal_write(root, seal) == 0);
	/* The same size, one byte changed, the mtime put back: the ctime
	 * still says it was written. */
	struct stat st;
	REQUIRE(stat(a, &st) == 0);
	fd = open(a, O_WRONLY);
	REQUIRE(fd >= 0);
	REQUIRE(pwrite(fd, "A", 1, 0) == 1);
	close(fd);
	struct timespec ts[2] = { st.st_atim, st.st_mtim };
	REQUIRE(utimensat(AT_FDCWD, a, ts, 0) == 0);
	CHECK_EQ_INT(check(root, seal, &why), SEAL_DAMAGED);
	CHECK_STR(why.buf, "a: its contents differ from the seal (SHA-256)");
	sb_release(&why);
	free(a);
	free(seal);
	free(root);
}

TEST(seal_finds_a_lost_file_and_a_moved_link)
{
	char *root = make_tree("e");
	char *seal = xstrfmt("%s/e.seal", test_tmpdir());
	char *a = xstrfmt("%s/a", root), *l = xstrfmt("%s/d/link", root);
	struct strbuf why = STRBUF_INIT;

	REQUIRE(seal_write(root, seal) == 0);
	REQUIRE(unlink(l) == 0 && symlink("../a", l) == 0);
	CHECK_EQ_INT(check(root, seal, &why), SEAL_DAMAGED);
	CHECK_STR(why.buf, "d/link: the link points elsewhere");
	REQUIRE(unlink(l) == 0 && symlink("b", l) == 0);
	CHECK_EQ_INT(check(root, seal, &why), SEAL_INTACT);
	REQUIRE(unlink(a) == 0);
	CHECK_EQ_INT(check(root, seal, &why), SEAL_DAMAGED);
	CHECK_STR(why.buf, "a: missing");
	REQUIRE(mkdir(a, 0755) == 0);
	CHECK_EQ_INT(check(root, seal, &why), SEAL_DAMAGED);
	CHECK_STR(why.buf, "a: no longer a regular file");
	sb_release(&why);
	free(a);
	free(l);
	free(seal);
	free(root);
}

/* A copied entry: new inodes and times, the same contents.  Intact, and
 * the seal takes the new stamps, so that the next check hashes nothing. */
TEST(seal_takes_the_stamps_of_a_copy_with_the_same_contents)
{
	char *root = make_tree("e");
	char *seal = xstrfmt("%s/e.seal", test_tmpdir());
	char *a = xstrfmt("%s/a", root), *a2 = xstrfmt("%s/a.new", root);
	struct strbuf before = STRBUF_INIT, after = STRBUF_INIT, why = STRBUF_INIT;
	struct stat st;

	REQUIRE(seal_write(root, seal) == 0);
	REQUIRE(sb_read_file(&before, seal) == 0);
	REQUIRE(write_file(a2, "alpha\n", 6) == 0 && rename(a2, a) == 0);
	CHECK_EQ_INT(check(root, seal, &why), SEAL_INTACT);
	REQUIRE(sb_read_file(&after, seal) == 0);
	CHECK(strcmp(before.buf, after.buf) != 0);
	REQUIRE(stat(a, &st) == 0);
	char ino[32];
	snprintf(ino, sizeof(ino), " %llu ", (unsigned long long)st.st_ino);
	CHECK_CONTAINS(after.buf, ino);
	/* Files added since do not count. */
	REQUIRE(write_file(a2, "x", 1) == 0);
	CHECK_EQ_INT(check(root, seal, &why), SEAL_INTACT);
	sb_release(&before);
	sb_release(&after);
	sb_release(&why);
	free(a);
	free(a2);
	free(seal);
	free(root);
}

TEST(seal_of_a_single_file)
{
	char *f = xstrfmt("%s/x.cpio", test_tmpdir());
	char *seal = xstrfmt("%s/.x.cpio.seal", test_tmpdir());
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;

	REQUIRE(write_file(f, "0123456789", 10) == 0);
	REQUIRE(seal_write(f, seal) == 0);
	REQUIRE(sb_read_file(&text, seal) == 0);
	CHECK_CONTAINS(text.buf, " .\n");
	CHECK_EQ_INT(check(f, seal, &why), SEAL_INTACT);
	/* Its times change at every use: still intact, the seal unchanged. */
	REQUIRE(utimensat(AT_FDCWD, f, NULL, 0) == 0);
	CHECK_EQ_INT(check(f, seal, &why), SEAL_INTACT);
	struct strbuf again = STRBUF_INIT;
	REQUIRE(sb_read_file(&again, seal) == 0);
	CHECK_STR(again.buf, text.buf);
	sb_release(&again);
	REQUIRE(truncate(f, 4) == 0);
	CHECK_EQ_INT(check(f, seal, &why), SEAL_DAMAGED);
	CHECK_STR(why.buf, "4 bytes, sealed with 10");
	/* A directory where the file was. */
	REQUIRE(unlink(f) == 0 && mkdir(f, 0755) == 0);
	CHECK_EQ_INT(check(f, seal, &why), SEAL_DAMAGED);
	CHECK_CONTAINS(why.buf, "its seal is for a file");
	sb_release(&text);
	sb_release(&why);
	free(seal);
	free(f);
}

TEST(seal_missing_empty_or_garbled)
{
	char *root = make_tree("e");
	char *seal = xstrfmt("%s/e.seal", test_tmpdir());
	struct strbuf why = STRBUF_INIT;

	CHECK_EQ_INT(check(root, seal, &why), SEAL_MISSING);
	REQUIRE(write_file(seal, "", 0) == 0);
	CHECK_EQ_INT(check(root, seal, &why), SEAL_DAMAGED);
	CHECK_CONTAINS(why.buf, "is empty");
	REQUIRE(write_file(seal, "something else\n", 15) == 0);
	CHECK_EQ_INT(check(root, seal, &why), SEAL_DAMAGED);
	CHECK_CONTAINS(why.buf, "is not one");
	REQUIRE(write_file(seal, "scaletest-seal 1\nf 6 zz 1 2.3 4.5 a\n", 36) == 0);
	CHECK_EQ_INT(check(root, seal, &why), SEAL_DAMAGED);
	CHECK_CONTAINS(why.buf, "unreadable at line 2");
	/* A seal cut short mid-line. */
	REQUIRE(seal_write(root, seal) == 0);
	REQUIRE(truncate(seal, 40) == 0);
	CHECK_EQ_INT(check(root, seal, &why), SEAL_DAMAGED);
	sb_release(&why);
	free(seal);
	free(root);
}

TEST(seal_refuses_a_name_with_a_newline)
{
	char *root = xstrfmt("%s/n", test_tmpdir());
	char *bad = xstrfmt("%s/two\nlines", root);
	char *seal = xstrfmt("%s/n.seal", test_tmpdir());
	char *err;

	REQUIRE(mkdir(root, 0755) == 0 && write_file(bad, "x", 1) == 0);
	stderr_capture_begin();
	CHECK_EQ_INT(seal_write(root, seal), -1);
	err = stderr_capture_end();
	CHECK_CONTAINS(err, "a newline in a file name");
	CHECK(!path_exists(seal));
	free(err);
	free(seal);
	free(bad);
	free(root);
}
