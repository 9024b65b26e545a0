// SPDX-License-Identifier: Apache-2.0
#include "lib/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"

extern char **environ;

/* Live child process groups; fixed size so the signal handler can walk it. */
#define MAX_LIVE 64
static volatile pid_t live[MAX_LIVE];
static volatile sig_atomic_t interrupted;
static int sigpipe_fds[2] = { -1, -1 };

/*
 * A child that changes its credentials loses PR_SET_PDEATHSIG (apt-get
 * does: it tries its sandbox user with seteuid), and would outlive a
 * SIGKILLed harness.  So each child also has a watcher: a process forked
 * beside it that holds only the read end of a pipe whose write end only
 * the harness holds.  The harness writes a byte once it has reaped the
 * child (the watcher then leaves the group alone); when the harness goes
 * without writing, however it went, the read sees the end of the pipe and
 * the watcher kills the child's whole group.
 */
static volatile pid_t live_watcher[MAX_LIVE];
static volatile int live_line[MAX_LIVE] = { [0 ... MAX_LIVE - 1] = -1 };

/* In the watcher: async-signal-safe calls only (the harness may have
 * threads).  Never returns. */
static void watch(int rfd, pid_t group)
{
	struct sigaction sa;
	char b;
	ssize_t r;

	/* Every other descriptor goes: a watcher holding another child's
	 * write end would keep that pipe open after the harness died. */
	if (rfd > 0)
		close_range(0, (unsigned)rfd - 1, 0);
	close_range((unsigned)rfd + 1, ~0U, 0);
	/* The terminal's ^C reaches the harness's whole group: the harness
	 * answers it, and the watcher must live until the harness is gone. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	do
		r = read(rfd, &b, 1);
	while (r < 0 && errno == EINTR);
	if (r != 1)
		kill(-group, SIGKILL);
	_exit(0);
}

/* A watcher for the child group pid; 0, or -1 (the child then runs with
 * PR_SET_PDEATHSIG alone). */
static int watcher_start(pid_t pid, int *line, pid_t *watcher)
{
	int fds[2];
	pid_t w;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	w = fork();
	if (w < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (w == 0)
		watch(fds[0], pid);
	close(fds[0]);
	*line = fds[1];
	*watcher = w;
	return 0;
}

/* The child was reaped: its watcher is told and reaped in turn. */
static void watcher_done(int slot)
{
	int line = live_line[slot];
	pid_t w = live_watcher[slot];

	live_line[slot] = -1;
	live_watcher[slot] = 0;
	if (line >= 0) {
		(void)!write(line, "d", 1);
		close(line);
	}
	while (w > 0 && waitpid(w, NULL, 0) < 0 && errno == EINTR)
		;
}

/* 0, or -1 (said) when there is no room to track pid: it is killed. */
static int live_add(pid_t pid)
{
	for (int i = 0; i < MAX_LIVE; i++)
		if (!live[i]) {
			live[i] = pid;
			if (watcher_start(pid, (int *)&live_line[i], (pid_t *)&live_watcher[i]) < 0)
				warning("cannot start a watcher for process %ld: only PR_SET_PDEATHSIG "
					"ties it to the harness", (long)pid);
			return 0;
		}
	/* Too many children: refuse rather than lose track of one. */
	kill(-pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return error("too many child processes (%d)", MAX_LIVE);
}

static void live_del(pid_t pid)
{
	for (int i = 0; i < MAX_LIVE; i++)
		if (live[i] == pid) {
			live[i] = 0;
			watcher_done(i);
		}
}

static void child_kill_all(void)
{
	int any = 0;

	for (int i = 0; i < MAX_LIVE; i++)
		if (live[i] > 0) {
			kill(-live[i], SIGTERM);
			kill(live[i], SIGTERM);
			any = 1;
		}
	if (!any)
		return;
	/* A short grace, then make sure. Async-signal-safe: usleep is not,
	 * so sleep via nanosleep. */
	struct timespec ts = { 0, 300 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	for (int i = 0; i < MAX_LIVE; i++)
		if (live[i] > 0) {
			kill(-live[i], SIGKILL);
			kill(live[i], SIGKILL);
		}
}

static void on_signal(int sig)
{
	int e = errno;

	if (interrupted) {
		/* Second request: stop now. */
		child_kill_all();
		signal(sig, SIG_DFL);
		raise(sig);
		_exit(128 + sig);
	}
	interrupted = sig;
	child_kill_all();
	if (sigpipe_fds[1] >= 0)
		(void)!write(sigpipe_fds[1], "x", 1);
	errno = e;
}

static void on_exit_kill(void)
{
	child_kill_all();
}

int child_signals_init(void)
{
	struct sigaction sa;

	if (pipe2(sigpipe_fds, O_CLOEXEC | O_NONBLOCK) < 0)
		return error_env("cannot create a pipe: %s", strerror(errno));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	atexit(on_exit_kill);
	return 0;
}

int child_interrupted(void)
{
	return interrupted;
}

int child_signal_fd(void)
{
	return sigpipe_fds[0];
}

/* In the child: only async-signal-safe calls from here to exec. */
static void child_fd(int from, int to, int devnull)
{
	if (from == -2)
		return;
	if (from == -1)
		from = devnull;
	if (from != to)
		dup2(from, to);
	else
		fcntl(to, F_SETFD, 0);
}

int child_start(struct child *c)
{
	char *path = find_in_path(c->argv[0]);
	size_t nenv = 0, n = 0;
	char **envp;
	int errpipe[2], devnull, e;
	pid_t pid, parent;
	ssize_t r;

	if (!path) {
		/* A program that is not there is the environment's. */
		errno = ENOENT;
		return error_env("cannot run '%s': not found in PATH", c->argv[0]);
	}
	for (char **p = environ; *p; p++)
		nenv++;
	for (const char *const *p = c->env; p && *p; p++)
		nenv++;
	envp = xcalloc(nenv + 1, sizeof(*envp));
	for (const char *const *p = c->env; p && *p; p++)
		envp[n++] = (char *)*p;
	for (char **p = environ; *p; p++) {
		/* Entries in c->env override the inherited ones. */
		size_t klen = strcspn(*p, "=");
		int dup = 0;
		for (const char *const *q = c->env; q && *q; q++)
			if (!strncmp(*q, *p, klen) && (*q)[klen] == '=')
				dup = 1;
		if (!dup)
			envp[n++] = *p;
	}
	envp[n] = NULL;

	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (devnull < 0 || pipe2(errpipe, O_CLOEXEC) < 0) {
		e = errno;
		free(path);
		free(envp);
		errno = e;
		return error_errno("cannot start '%s'", c->argv[0]);
	}

	parent = getpid();
	pid = fork();
	if (pid < 0) {
		e = errno;
		close(errpipe[0]);
		close(errpipe[1]);
		close(devnull);
		free(path);
		free(envp);
		errno = e;
		return error_errno("cannot fork for '%s'", c->argv[0]);
	}
	if (pid == 0) {
		struct sigaction sa;
		sigset_t none;

		setpgid(0, 0);
		/* Die with the harness even when it is SIGKILLed and no handler
		 * runs; if it is already gone, the signal will never come. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			_exit(127);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_DFL;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		sigaction(SIGPIPE, &sa, NULL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		child_fd(c->in, 0, devnull);
		child_fd(c->out, 1, devnull);
		child_fd(c->err, 2, devnull);
		for (int i = 0; i < c->nkeep; i++)
			fcntl(c->keep[i], F_SETFD, 0);
		if (c->dir && chdir(c->dir) < 0)
			goto fail;
		execve(path, (char *const *)c->argv, envp);
fail:
		e = errno;
		(void)!write(errpipe[1], &e, sizeof(e));
		_exit(127);
	}
	setpgid(pid, pid);
	close(errpipe[1]);
	close(devnull);
	free(path);
	free(envp);
	if (live_add(pid) < 0) {
		close(errpipe[0]);
		return -1;
	}
	do
		r = read(errpipe[0], &e, sizeof(e));
	while (r < 0 && errno == EINTR);
	close(errpipe[0]);
	if (r == sizeof(e)) {
		waitpid(pid, NULL, 0);
		live_del(pid);
		errno = e;
		return error_errno("cannot run '%s'", c->argv[0]);
	}
	c->pid = pid;
	return 0;
}

static void fill_result(int status, struct child_result *res)
{
	if (WIFEXITED(status)) {
		res->outcome = CHILD_EXITED;
		res->status = WEXITSTATUS(status);
	} else {
		res->outcome = CHILD_SIGNALLED;
		res->status = WTERMSIG(status);
	}
}

int child_poll(struct child *c, struct child_result *res)
{
	int status;
	pid_t r;

	if (!c->pid)
		return 1;
	do
		r = waitpid(c->pid, &status, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return 0;
	if (r < 0) {
		/* Already reaped elsewhere: nothing to report. */
		res->outcome = CHILD_SIGNALLED;
		res->status = 0;
	} else {
		fill_result(status, res);
	}
	/* The group may still hold grandchildren: take them down too. */
	kill(-c->pid, SIGKILL);
	live_del(c->pid);
	c->pid = 0;
	return 1;
}

void child_stop(struct child *c, double grace, struct child_result *res)
{
	double end;

	if (!c->pid)
		return;
	kill(-c->pid, SIGTERM);
	end = now_monotonic() + grace;
	while (now_monotonic() < end) {
		if (child_poll(c, res))
			return;
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	kill(-c->pid, SIGKILL);
	kill(c->pid, SIGKILL);
	/* SIGKILL cannot be refused, but a process in uninterruptible sleep
	 * (a QEMU stuck in D state on a dead disk) dies only when it wakes:
	 * wait a bounded time, then leave it to init rather than hang. */
	int status = 0;
	pid_t r = 0;
	end = now_monotonic() + CHILD_REAP_SECONDS;
	while (((r = waitpid(c->pid, &status, WNOHANG)) == 0 || (r < 0 && errno == EINTR)) &&
	       now_monotonic() < end) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	if (r == c->pid) {
		fill_result(status, res);
	} else {
		warning("process %ld (%s) did not die within %d s of SIGKILL "
			"(uninterruptible sleep?); not waiting for it", (long)c->pid,
			c->argv && c->argv[0] ? c->argv[0] : "?", CHILD_REAP_SECONDS);
		res->outcome = CHILD_SIGNALLED;
		res->status = SIGKILL;
	}
	live_del(c->pid);
	c->pid = 0;
}

int child_ok(const struct child_result *res)
{
	return res->outcome == CHILD_EXITED && res->status == 0;
}

const char *child_describe(const struct child_result *res)
{
	static char buf[64];

	switch (res->outcome) {
	case CHILD_EXITED:
		snprintf(buf, sizeof(buf), "exit status %d", res->status);
		break;
	case CHILD_SIGNALLED:
		snprintf(buf, sizeof(buf), "killed by signal %d", res->status);
		break;
	case CHILD_TIMEDOUT:
		snprintf(buf, sizeof(buf), "timed out after %.0f s", res->seconds);
		break;
	case CHILD_INTERRUPTED:
		snprintf(buf, sizeof(buf), "interrupted");
		break;
	}
	return buf;
}

struct progress {
	const char *label;
	int tty;
	double start, last;
	struct strbuf line;
};

static void progress_draw(struct progress *p, const char *text, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	double now = now_monotonic();

	if (now - p->last < 0.1)
		return;
	p->last = now;
	if (len > 90)
		len = 90;
	sb_adds(&sb, "\r\033[K");
	/* a program's output, and a label naming a file: cleaned as guest text */
	sb_add_clean(&sb, p->label, strlen(p->label), 0);
	sb_addf(&sb, " [%.0fs] ", now - p->start);
	sb_add_clean(&sb, text, len, 0);
	(void)write_all(2, sb.buf, sb.len);
	sb_release(&sb);
}

static void progress_feed(struct progress *p, const char *buf, size_t n)
{
	if (!p->label || !p->tty)
		return;
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			if (p->line.len)
				progress_draw(p, p->line.buf, p->line.len);
			sb_reset(&p->line);
		} else if (p->line.len < 200) {
			sb_addch(&p->line, buf[i]);
		}
	}
}

static void progress_tick(struct progress *p)
{
	double now = now_monotonic();

	if (!p->label || p->tty || now - p->last < 60)
		return;
	p->last = now;
	note("%s: still running (%.0f s)", p->label, now - p->start);
}

static void progress_end(struct progress *p)
{
	if (p->label && p->tty)
		(void)write_all(2, "\r\033[K", 4);
	sb_release(&p->line);
}

int child_run(const char *const *argv, const struct child_opts *o,
		struct child_result *res)
{
	struct progress prog = { o->progress, o->progress && isatty(2) && !util_quiet,
				 now_monotonic(), now_monotonic(), STRBUF_INIT };
	struct child c = CHILD_INIT;
	int pfd[2], logfd = -1;
	double start = now_monotonic();
	double deadline = o->timeout > 0 ? start + o->timeout : 0;
	int eof = 0, e;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return error_errno("cannot create a pipe");
	if (o->log) {
		logfd = open(o->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (logfd < 0) {
			close(pfd[0]);
			close(pfd[1]);
			return error_errno("cannot open '%s'", o->log);
		}
	}
	c.argv = argv;
	c.env = o->env;
	c.dir = o->dir;
	c.out = pfd[1];
	c.err = pfd[1];
	if ((e = child_start(&c)) < 0) {
		close(pfd[0]);
		close(pfd[1]);
		if (logfd >= 0)
			close(logfd);
		return e;
	}
	close(pfd[1]);

	while (!eof) {
		struct pollfd fds[2] = {
			{ pfd[0], POLLIN, 0 },
			{ child_signal_fd(), POLLIN, 0 },
		};
		int ms = -1;

		if (deadline) {
			double left = deadline - now_monotonic();
			if (left <= 0)
				break;
			ms = (int)(left * 1000) + 1;
		}
		if (prog.label && (ms < 0 || ms > 5000))
			ms = 5000;
		progress_tick(&prog);
		if (child_interrupted())
			break;
		int r = poll(fds, fds[1].fd >= 0 ? 2 : 1, ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		if (fds[0].revents) {
			char buf[8192];
			ssize_t n = read(pfd[0], buf, sizeof(buf));

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				eof = 1;
				break;
			}
			if (logfd >= 0)
				(void)write_all(logfd, buf, (size_t)n);
			if (o->capture)
				sb_add(o->capture, buf, (size_t)n);
			if (o->show)
				(void)write_all(2, buf, (size_t)n);
			progress_feed(&prog, buf, (size_t)n);
		}
	}
	progress_end(&prog);
	close(pfd[0]);
	if (eof) {
		/* Output closed; wait for the exit (bounded by the deadline). */
		while (!child_poll(&c, res)) {
			if ((deadline && now_monotonic() > deadline) ||
			    child_interrupted())
				break;
			struct timespec ts = { 0, 10 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
	}
	if (c.pid) {
		child_stop(&c, 2.0, res);
		res->outcome = child_interrupted() ? CHILD_INTERRUPTED : CHILD_TIMEDOUT;
	}
	res->seconds = now_monotonic() - start;
	if (logfd >= 0)
		close(logfd);
	return 0;
}

int child_step(const char *const *argv, const char *dir, const char *const *env,
	     const char *log, double timeout, const char *progress, const char *what)
{
	struct child_opts o = CHILD_OPTS_INIT;
	struct child_result res;
	struct stat st;
	/* Where this step's output starts in the log (steps append to it). */
	size_t from = log && stat(log, &st) == 0 ? (size_t)st.st_size : 0;
	int r;

	o.dir = dir;
	o.env = env;
	o.log = log;
	o.timeout = timeout;
	o.progress = progress;
	if ((r = child_run(argv, &o, &res)) < 0)
		return r;
	if (res.outcome == CHILD_INTERRUPTED)
		return error("%s: interrupted", what);
	if (!child_ok(&res)) {
		struct strbuf tail = STRBUF_INIT, errs = STRBUF_INIT;

		log_tail(log, 20, &tail);
		if (log_errors(log, from, 10, &errs) > 0)
			error("%s failed (%s); the compiler's errors:\n%sthe end of '%s':\n%s",
			      what, child_describe(&res), errs.buf, log, tail.buf);
		else
			error("%s failed (%s); the end of '%s':\n%s", what,
			      child_describe(&res), log, tail.buf);
		sb_release(&tail);
		sb_release(&errs);
		return -1;
	}
	return 0;
}
