// SPDX-License-Identifier: Apache-2.0
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/cache.h"
#include "lib/child.h"
#include "lib/util.h"
#include "test.h"

TEST(cache_begin_commit_then_the_entry_is_there)
{
	char *entry = xstrfmt("%s/e", test_tmpdir());
	char *want = xstrfmt("%s.tmp-%ld", entry, (long)getpid());
	char *lock = xstrfmt("%s.lock", entry);
	char *file = NULL;
	struct cache_txn txn;

	CHECK_EQ_INT(cache_begin(&txn, entry), 0);
	REQUIRE(txn.tmp != NULL);
	CHECK_STR(txn.tmp, want);
	CHECK(!path_exists(txn.tmp));		/* the builder makes it */
	CHECK(path_exists(lock));
	REQUIRE(mkdir(txn.tmp, 0755) == 0);
	file = xstrfmt("%s/x", txn.tmp);
	CHECK_EQ_INT(write_file(file, "x", 1), 0);
	CHECK(!path_exists(entry));		/* nothing half-built is visible */
	CHECK_EQ_INT(cache_commit(&txn), 0);
	CHECK(txn.tmp == NULL);
	CHECK(is_dir(entry));
	CHECK(!path_exists(want));
	cache_end(&txn);

	/* Again: a hit, nothing to build, nothing removed. */
	CHECK_EQ_INT(cache_begin(&txn, entry), 1);
	CHECK(txn.tmp == NULL);
	cache_end(&txn);
	CHECK(is_dir(entry));
	free(file);
	free(lock);
	free(want);
	free(entry);
}

TEST(cache_end_without_commit_leaves_no_entry)
{
	char *entry = xstrfmt("%s/f.cpio", test_tmpdir());
	char *tmp;
	struct cache_txn txn;

	REQUIRE(cache_begin(&txn, entry) == 0);
	tmp = xstrdup(txn.tmp);
	CHECK_EQ_INT(write_file(txn.tmp, "half", 4), 0);	/* a file entry */
	cache_end(&txn);					/* the build failed */
	CHECK(!path_exists(tmp));
	CHECK(!path_exists(entry));
	CHECK_EQ_INT(cache_begin(&txn, entry), 0);		/* still to build */
	cache_end(&txn);
	free(tmp);
	free(entry);
}

TEST(cache_begin_removes_what_a_dead_builder_left)
{
	const char *t = test_tmpdir();
	char *entry = xstrfmt("%s/k", t);
	char *old = xstrfmt("%s/k.tmp-999999", t);
	char *olddeb = xstrfmt("%s/k.tmp-999999.deb", t);	/* a sibling */
	char *other = xstrfmt("%s/k2.tmp-999999", t);		/* another entry's */
	struct cache_txn txn;

	REQUIRE(mkdir(old, 0755) == 0 && mkdir(olddeb, 0755) == 0 &&
		mkdir(other, 0755) == 0);
	CHECK(!cache_is_entry("k.tmp-999999"));
	CHECK_EQ_INT(cache_begin(&txn, entry), 0);
	CHECK(!path_exists(old));
	CHECK(!path_exists(olddeb));
	CHECK(path_exists(other));
	cache_end(&txn);
	free(other);
	free(olddeb);
	free(old);
	free(entry);
}

/* Wait for one byte from fd; 1 if it came. */
static int await(int fd)
{
	char c;

	return read(fd, &c, 1) == 1;
}

TEST(cache_begin_waits_for_another_builder)
{
	char *entry = xstrfmt("%s/w", test_tmpdir());
	int ready[2];
	struct cache_txn txn;
	pid_t pid;
	int st;

	REQUIRE(pipe(ready) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		/* Another harness: holds the lock while it builds slowly. */
		struct cache_txn c;
		int ok = cache_begin(&c, entry) == 0;

		free(entry);	/* _exit: nothing else frees it (valgrind) */
		if (write(ready[1], "x", 1) != 1)
			_exit(2);
		usleep(300 * 1000);
		ok = ok && mkdir(c.tmp, 0755) == 0 && cache_commit(&c) == 0;
		cache_end(&c);
		_exit(ok ? 0 : 1);
	}
	close(ready[1]);
	REQUIRE(await(ready[0]));
	/* While it builds, the entry and its .tmp- are in use. */
	char *tmp = xstrfmt("%s.tmp-%ld", entry, (long)pid);
	CHECK_EQ_INT(cache_remove_entry(tmp), 0);
	/* Our own begin waits for it, then finds what it built. */
	CHECK_EQ_INT(cache_begin(&txn, entry), 1);
	CHECK(is_dir(entry));
	cache_end(&txn);
	REQUIRE(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(ready[0]);
	free(tmp);
	free(entry);
}

TEST(cache_a_killed_builder_leaves_nothing_that_looks_complete)
{
	const char *t = test_tmpdir();
	char *entry = xstrfmt("%s/d", t);
	struct cache_txn txn;
	pid_t pid;
	int st;

	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct cache_txn c;
		char *f;

		if (cache_begin(&c, entry) != 0 || mkdir(c.tmp, 0755) < 0)
			_exit(1);
		f = xstrfmt("%s/half", c.tmp);
		write_file(f, "x", 1);
		free(f);	/* valgrind checks for leaks even here */
		raise(SIGKILL);		/* no handler, no cleanup */
		_exit(1);
	}
	REQUIRE(waitpid(pid, &st, 0) == pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	CHECK(!path_exists(entry));
	char *left = xstrfmt("%s.tmp-%ld", entry, (long)pid);
	CHECK(is_dir(left));			/* there, but not an entry */
	CHECK(!cache_is_entry(path_basename(left)));
	/* The lock died with it: the next builder starts afresh. */
	CHECK_EQ_INT(cache_begin(&txn, entry), 0);
	CHECK(!path_exists(left));
	cache_end(&txn);
	free(left);
	free(entry);
}

TEST(cache_txn_errors_and_init)
{
	struct cache_txn txn = CACHE_TXN_INIT;
	char *entry = xstrfmt("%s/no/such/dir/e", test_tmpdir());
	char *err;

	cache_end(&txn);			/* nothing begun: nothing done */
	stderr_capture_begin();
	CHECK_EQ_INT(cache_begin(&txn, entry), -1);
	err = stderr_capture_end();
	CHECK_CONTAINS(err, "cannot open");
	CHECK_CONTAINS(err, "e.lock");
	cache_end(&txn);			/* after a failed begin: safe */
	free(err);
	free(entry);
}

TEST(cache_remove_entry_respects_the_builders_lock)
{
	const char *t = test_tmpdir();
	char *entry = xstrfmt("%s/e", t), *tmp = xstrfmt("%s/e.tmp-123", t);
	struct cache_lock lk;

	CHECK(cache_is_entry("e"));
	CHECK(!cache_is_entry("e.lock"));
	CHECK(!cache_is_entry("e.tmp-123"));
	CHECK(!cache_is_entry(".hidden"));

	REQUIRE(mkdir(entry, 0755) == 0 && mkdir(tmp, 0755) == 0);
	/* A build in progress holds the entry's lock: neither it nor its
	 * .tmp- directory goes. */
	REQUIRE(cache_lock(&lk, entry) == 0);
	CHECK_EQ_INT(cache_remove_entry(tmp), 0);
	CHECK_EQ_INT(cache_remove_entry(entry), 0);
	CHECK(path_exists(tmp) && path_exists(entry));
	cache_unlock(&lk);
	/* Left by a killed build: removed. */
	CHECK_EQ_INT(cache_remove_entry(tmp), 1);
	CHECK(!path_exists(tmp));
	CHECK_EQ_INT(cache_remove_entry(entry), 1);
	CHECK(!path_exists(entry));
	free(entry);
	free(tmp);
}

/* SIGTERM while waiting for another harness's lock: give up at once, do
 * not sit out its build (flock is interrupted; the wait used to retry). */
TEST(cache_begin_gives_up_the_wait_when_asked_to_stop)
{
	char *entry = xstrfmt("%s/s", test_tmpdir());
	int ready[2], st;
	struct cache_txn txn = CACHE_TXN_INIT;
	pid_t holder, killer, me = getpid();
	char *msg;

	child_signals_init();		/* the harness's handlers, as in main() */
	REQUIRE(pipe(ready) == 0);
	holder = fork();
	REQUIRE(holder >= 0);
	if (holder == 0) {
		struct cache_txn c;

		if (cache_begin(&c, entry) != 0 || write(ready[1], "x", 1) != 1)
			_exit(1);
		sleep(60);
		_exit(0);
	}
	close(ready[1]);
	REQUIRE(await(ready[0]));
	killer = fork();
	REQUIRE(killer >= 0);
	if (killer == 0) {
		usleep(200 * 1000);
		kill(me, SIGTERM);
		_exit(0);
	}
	stderr_capture_begin();
	CHECK_EQ_INT(cache_begin(&txn, entry), -1);
	msg = stderr_capture_end();
	CHECK_CONTAINS(msg, "interrupted while waiting for the lock");
	CHECK(!is_dir(entry));
	cache_end(&txn);
	kill(holder, SIGKILL);
	REQUIRE(waitpid(holder, &st, 0) == holder);
	REQUIRE(waitpid(killer, &st, 0) == killer);
	close(ready[0]);
	free(msg);
	free(entry);
}

/* A committed entry is sealed; damaged later (a file truncated), the next
 * begin says so, removes it and has it built again. */
TEST(cache_a_damaged_entry_is_built_again)
{
	const char *t = test_tmpdir();
	char *entry = xstrfmt("%s/k", t), *seal = xstrfmt("%s/.k.seal", t);
	char *file, *err;
	struct cache_txn txn;

	file = cache_seal_path(entry);
	CHECK_STR(file, seal);
	free(file);
	REQUIRE(cache_begin(&txn, entry) == 0);
	REQUIRE(mkdir(txn.tmp, 0755) == 0);
	file = xstrfmt("%s/vmlinuz", txn.tmp);
	REQUIRE(write_file(file, "kernel image", 12) == 0);
	free(file);
	REQUIRE(cache_commit(&txn) == 0);
	cache_end(&txn);
	CHECK(path_exists(seal));
	CHECK(!cache_is_entry(path_basename(seal)));

	CHECK_EQ_INT(cache_begin(&txn, entry), 1);	/* intact */
	cache_end(&txn);

	file = xstrfmt("%s/vmlinuz", entry);
	REQUIRE(truncate(file, 6) == 0);
	stderr_capture_begin();
	CHECK_EQ_INT(cache_begin(&txn, entry), 0);	/* to build again */
	err = stderr_capture_end();
	CHECK_CONTAINS(err, "is damaged (vmlinuz: 6 bytes, sealed with 12): building it again");
	CHECK(!path_exists(entry));
	CHECK(!path_exists(seal));
	REQUIRE(txn.tmp != NULL);
	REQUIRE(mkdir(txn.tmp, 0755) == 0);
	char *again = xstrfmt("%s/vmlinuz", txn.tmp);
	REQUIRE(write_file(again, "kernel image", 12) == 0);
	free(again);
	REQUIRE(cache_commit(&txn) == 0);
	cache_end(&txn);
	CHECK_EQ_INT(cache_begin(&txn, entry), 1);
	cache_end(&txn);

	/* Removing the entry removes its seal. */
	CHECK_EQ_INT(cache_remove_entry(entry), 1);
	CHECK(!path_exists(seal));
	free(err);
	free(file);
	free(seal);
	free(entry);
}

/* An entry made before seals: used as it is, and sealed from then on. */
TEST(cache_an_entry_without_a_seal_is_sealed_as_found)
{
	const char *t = test_tmpdir();
	char *entry = xstrfmt("%s/old.cpio", t), *seal = xstrfmt("%s/.old.cpio.seal", t);
	char *err;
	struct cache_txn txn;

	REQUIRE(write_file(entry, "070701", 6) == 0);
	stderr_capture_begin();
	CHECK_EQ_INT(cache_begin(&txn, entry), 1);
	err = stderr_capture_end();
	cache_end(&txn);
	CHECK_CONTAINS(err, "sealing");
	CHECK(path_exists(seal));
	REQUIRE(write_file(entry, "070702", 6) == 0);	/* same size, other bytes */
	stderr_capture_begin();
	CHECK_EQ_INT(cache_begin(&txn, entry), 0);
	free(err);
	err = stderr_capture_end();
	cache_end(&txn);
	CHECK_CONTAINS(err, "its contents differ from the seal");
	CHECK(!path_exists(entry));
	free(err);
	free(seal);
	free(entry);
}

/* kbuild's work tree changes after its commit: begun unsealed, it gets no
 * seal and a change is no damage. */
TEST(cache_an_unsealed_entry_is_never_checked)
{
	const char *t = test_tmpdir();
	char *entry = xstrfmt("%s/src", t), *seal = xstrfmt("%s/.src.seal", t);
	char *file = xstrfmt("%s/src/Makefile", t);
	struct cache_txn txn;

	REQUIRE(cache_begin_unsealed(&txn, entry) == 0);
	REQUIRE(mkdir(txn.tmp, 0755) == 0);
	REQUIRE(cache_commit(&txn) == 0);
	cache_end(&txn);
	CHECK(!path_exists(seal));
	REQUIRE(write_file(file, "patched", 7) == 0);
	CHECK_EQ_INT(cache_begin_unsealed(&txn, entry), 1);
	cache_end(&txn);
	CHECK(path_exists(file));
	CHECK(!path_exists(seal));
	free(file);
	free(seal);
	free(entry);
}
