// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/child.h"
#include "test.h"
#include "lib/util.h"

/* main.c calls child_signals_init() once, before any test runs. */

static int run(const char *const *argv, double timeout, struct strbuf *capture,
	       struct child_result *res)
{
	struct child_opts o = CHILD_OPTS_INIT;

	o.timeout = timeout;
	o.capture = capture;
	memset(res, 0, sizeof(*res));
	res->outcome = (enum child_outcome)-1;
	return child_run(argv, &o, res);
}

TEST(child_true_ok)
{
	const char *argv[] = { "true", NULL };
	struct child_result res;

	CHECK_EQ_INT(run(argv, 10, NULL, &res), 0);
	CHECK_EQ_INT(res.outcome, CHILD_EXITED);
	CHECK_EQ_INT(res.status, 0);
	CHECK(child_ok(&res));
	CHECK_STR(child_describe(&res), "exit status 0");
	CHECK(res.seconds >= 0 && res.seconds < 10);
}

TEST(child_false_exit_status)
{
	const char *argv[] = { "false", NULL };
	struct child_result res;

	CHECK_EQ_INT(run(argv, 10, NULL, &res), 0);
	CHECK_EQ_INT(res.outcome, CHILD_EXITED);
	CHECK_EQ_INT(res.status, 1);
	CHECK(!child_ok(&res));
	CHECK_STR(child_describe(&res), "exit status 1");
}

TEST(child_exit_3_without_timeout)
{
	const char *argv[] = { "sh", "-c", "exit 3", NULL };
	struct child_result res;

	CHECK_EQ_INT(run(argv, 0, NULL, &res), 0);
	CHECK_EQ_INT(res.outcome, CHILD_EXITED);
	CHECK_EQ_INT(res.status, 3);
	CHECK_STR(child_describe(&res), "exit status 3");
}

TEST(child_killed_by_signal)
{
	const char *argv[] = { "sh", "-c", "kill -9 $$", NULL };
	struct child_result res;

	CHECK_EQ_INT(run(argv, 10, NULL, &res), 0);
	CHECK_EQ_INT(res.outcome, CHILD_SIGNALLED);
	CHECK_EQ_INT(res.status, 9);
	CHECK(!child_ok(&res));
	CHECK_STR(child_describe(&res), "killed by signal 9");
}

TEST(child_missing_program)
{
	const char *argv[] = { "scaletest-no-such-program-x9", NULL };
	const char *argv2[] = { "/nonexistent/dir/prog", NULL };
	struct child_result res;
	char *msg;

	stderr_capture_begin();
	/* A program that is not there is the environment's (exit 3). */
	CHECK_EQ_INT(run(argv, 10, NULL, &res), ERR_ENV);
	CHECK_EQ_INT(run(argv2, 10, NULL, &res), ERR_ENV);
	msg = stderr_capture_end();
	CHECK_CONTAINS(msg, "cannot run 'scaletest-no-such-program-x9': not found in PATH");
	CHECK_CONTAINS(msg, "cannot run '/nonexistent/dir/prog'");
	free(msg);
}

TEST(child_exec_failure_is_an_error)
{
	/* proc.h: an exec failure comes back as an error from child_start(),
	 * not as exit status 127. */
	const char *dir = test_tmpdir();
	char *prog = xstrfmt("%s/not-a-program", dir);
	const char *argv[] = { prog, NULL };
	const char *argv2[] = { "true", NULL };
	struct child_opts o = CHILD_OPTS_INIT;
	struct child_result res;
	char *msg;

	REQUIRE(write_file(prog, "\x01\x02garbage", 9) == 0);
	REQUIRE(chmod(prog, 0755) == 0);
	stderr_capture_begin();
	CHECK_EQ_INT(run(argv, 10, NULL, &res), -1);
	o.dir = "/nonexistent/dir";
	CHECK_EQ_INT(child_run(argv2, &o, &res), -1);
	msg = stderr_capture_end();
	CHECK_CONTAINS(msg, "Exec format error");
	CHECK_CONTAINS(msg, "cannot run 'true': No such file or directory");
	free(msg);
	free(prog);
}

TEST(child_timeout)
{
	const char *argv[] = { "sleep", "5", NULL };
	struct child_result res;
	double t0 = now_monotonic(), took;

	CHECK_EQ_INT(run(argv, 0.3, NULL, &res), 0);
	took = now_monotonic() - t0;
	CHECK_EQ_INT(res.outcome, CHILD_TIMEDOUT);
	CHECK(!child_ok(&res));
	/* A bound, not a performance claim: it did not wait for sleep. */
	CHECK(took < 4.0);
	CHECK(took >= 0.3);
	CHECK(res.seconds >= 0.3 && res.seconds < 4.0);
	CHECK_CONTAINS(child_describe(&res), "timed out after");
}

/* A command of 5 s run with a deadline of 0.3 s: timed out, long before
 * the 5 s (a bound, not a performance claim). */
static void deadline_ends(const char *script)
{
	const char *argv[] = { "sh", "-c", script, NULL };
	struct child_result res;
	double t0 = now_monotonic();

	CHECK_EQ_INT(run(argv, 0.3, NULL, &res), 0);
	CHECK_EQ_INT(res.outcome, CHILD_TIMEDOUT);
	CHECK(now_monotonic() - t0 < 4.0);
}

TEST(child_timeout_kills_the_group)
{
	/* The shell's own child holds the pipe open too: the deadline still
	 * ends the run, and the whole group goes. */
	deadline_ends("sleep 5 & sleep 5; wait");
}

TEST(child_capture)
{
	const char *argv[] = { "echo", "hello", NULL };
	const char *argv2[] = { "sh", "-c", "printf 'out\\n'; printf 'err\\n' >&2", NULL };
	struct strbuf out = STRBUF_INIT;
	struct child_result res;

	CHECK_EQ_INT(run(argv, 10, &out, &res), 0);
	CHECK(child_ok(&res));
	CHECK_STR(out.buf, "hello\n");
	CHECK_EQ_INT(out.len, 6);
	sb_reset(&out);
	/* Without a log, capture takes stdout and stderr. */
	CHECK_EQ_INT(run(argv2, 10, &out, &res), 0);
	CHECK_CONTAINS(out.buf, "out\n");
	CHECK_CONTAINS(out.buf, "err\n");
	sb_release(&out);
}

TEST(child_capture_large_output)
{
	/* More than a pipe's buffer: nothing lost, no deadlock. */
	const char *argv[] = { "sh", "-c", "i=0; while [ $i -lt 20000 ]; do echo line$i; i=$((i+1)); done", NULL };
	struct strbuf out = STRBUF_INIT;
	struct child_result res;

	CHECK_EQ_INT(run(argv, 60, &out, &res), 0);
	CHECK(child_ok(&res));
	CHECK(!strncmp(out.buf, "line0\nline1\n", 12));
	CHECK_CONTAINS(out.buf, "\nline19999\n");
	CHECK_EQ_INT(out.len, 20000 * 5 + (10 * 1 + 90 * 2 + 900 * 3 + 9000 * 4 + 10000 * 5));
	sb_release(&out);
}

TEST(child_log_and_dir_and_env)
{
	const char *dir = test_tmpdir();
	char *log = xstrfmt("%s/build.log", dir);
	const char *argv[] = { "sh", "-c", "pwd; echo \"$SCALETEST_X\"; echo oops >&2", NULL };
	const char *env[] = { "SCALETEST_X=from-env", NULL };
	struct child_opts o = CHILD_OPTS_INIT;
	struct child_result res;
	struct strbuf text = STRBUF_INIT;
	char *want;

	o.dir = dir;
	o.env = env;
	o.log = log;
	o.timeout = 10;
	CHECK_EQ_INT(child_run(argv, &o, &res), 0);
	CHECK(child_ok(&res));
	REQUIRE(sb_read_file(&text, log) == 0);
	{
		char *real = realpath(dir, NULL);
		REQUIRE(real);
		want = xstrfmt("%s\nfrom-env\noops\n", real);
		free(real);
	}
	CHECK_STR(text.buf, want);
	/* Appended, not overwritten. */
	CHECK_EQ_INT(child_run(argv, &o, &res), 0);
	sb_reset(&text);
	REQUIRE(sb_read_file(&text, log) == 0);
	CHECK_EQ_INT(text.len, 2 * strlen(want));
	free(want);
	sb_release(&text);
	free(log);
}

TEST(child_capture_with_log_gets_both)
{
	/* proc.h, struct child_opts: the log and the capture both get stdout
	 * and stderr. */
	const char *dir = test_tmpdir();
	char *log = xstrfmt("%s/build.log", dir);
	const char *argv[] = { "sh", "-c", "echo out; echo err >&2", NULL };
	struct child_opts o = CHILD_OPTS_INIT;
	struct child_result res;
	struct strbuf out = STRBUF_INIT, text = STRBUF_INIT;

	o.log = log;
	o.capture = &out;
	o.timeout = 10;
	CHECK_EQ_INT(child_run(argv, &o, &res), 0);
	CHECK(child_ok(&res));
	CHECK_STR(out.buf, "out\nerr\n");
	REQUIRE(sb_read_file(&text, log) == 0);
	CHECK_CONTAINS(text.buf, "err\n");
	sb_release(&out);
	sb_release(&text);
	free(log);
}

TEST(child_timeout_after_output_closed)
{
	/* The child closes its output at once but keeps running: the
	 * deadline must still end the wait. */
	deadline_ends("exec >/dev/null 2>&1; sleep 5");
}

TEST(child_env_overrides_inherited)
{
	const char *argv[] = { "sh", "-c", "env | grep -c '^SCALETEST_Y='; echo \"$SCALETEST_Y\"", NULL };
	const char *env[] = { "SCALETEST_Y=child", NULL };
	struct child_opts o = CHILD_OPTS_INIT;
	struct strbuf out = STRBUF_INIT;
	struct child_result res;

	setenv("SCALETEST_Y", "parent", 1);
	o.env = env;
	o.capture = &out;
	o.timeout = 10;
	CHECK_EQ_INT(child_run(argv, &o, &res), 0);
	CHECK(child_ok(&res));
	CHECK_STR(out.buf, "1\nchild\n");
	unsetenv("SCALETEST_Y");
	sb_release(&out);
}

/* 1 while pid is a live process (not gone, not a zombie). */
static int alive(pid_t pid)
{
	char path[64], buf[256];
	FILE *f;
	char *p;
	int live = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) && p[1] == ' ')
		live = p[2] != 'Z' && p[2] != 'X';
	fclose(f);
	return live;
}

/* Until pid's command name starts with name (5 s at most). */
static void wait_comm(pid_t pid, const char *name)
{
	for (int i = 0; i < 500; i++) {
		char path[64], comm[32] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%ld/comm", (long)pid);
		f = fopen(path, "r");
		if (f && fgets(comm, sizeof(comm), f) && !strncmp(comm, name, strlen(name))) {
			fclose(f);
			return;
		}
		if (f)
			fclose(f);
		usleep(10000);
	}
}

/* A harness (a process forked here) starts argv with child_start(), waits
 * until it runs as becomes (NULL: not at all), then is SIGKILLed: the
 * child must die with it. */
static void dies_with_sigkilled_parent(const char *const *argv, const char *becomes)
{
	int fds[2];
	pid_t harness, orphan = 0;
	int status;

	CHECK_EQ_INT(pipe(fds), 0);
	harness = fork();
	CHECK(harness >= 0);
	if (harness == 0) {
		struct child c = CHILD_INIT;

		close(fds[0]);
		c.argv = argv;
		if (child_start(&c) < 0)
			_exit(1);
		(void)!write(fds[1], &c.pid, sizeof(c.pid));
		if (becomes)
			wait_comm(c.pid, becomes);
		raise(SIGKILL);
		_exit(2);
	}
	close(fds[1]);
	CHECK_EQ_INT((int)read(fds[0], &orphan, sizeof(orphan)), (int)sizeof(orphan));
	close(fds[0]);
	CHECK_EQ_INT((int)waitpid(harness, &status, 0), (int)harness);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	CHECK(orphan > 0);
	for (int i = 0; i < 500 && alive(orphan); i++)
		usleep(10000);
	CHECK(!alive(orphan));
	if (alive(orphan))
		kill(orphan, SIGKILL);
}

/* A harness killed by SIGKILL runs no handler and no atexit: its children
 * must still die with it (PR_SET_PDEATHSIG), or QEMU runs on as an orphan. */
TEST(child_dies_with_sigkilled_parent)
{
	const char *argv[] = { "sleep", "60", NULL };

	dies_with_sigkilled_parent(argv, NULL);
}

/* A child that drops its PR_SET_PDEATHSIG (apt-get does, by changing its
 * effective uid to try its sandbox user; here setpriv clears it) still
 * dies with a SIGKILLed harness: its watcher kills its group.  The kill
 * comes once setpriv has cleared it and become sleep. */
TEST(child_without_pdeathsig_dies_with_sigkilled_parent)
{
	const char *argv[] = { "setpriv", "--pdeathsig", "clear", "sleep", "60", NULL };

	dies_with_sigkilled_parent(argv, "sleep");
}
