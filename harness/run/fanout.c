// SPDX-License-Identifier: Apache-2.0
#include "run/fanout.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "result/result.h"

enum { JOB_PENDING, JOB_RUNNING, JOB_DONE };

int fanout_add(struct fanout *f, const char *spec, struct strbuf *err)
{
	char *uri = xstrdup(spec), *comma;
	struct fanout_conn c = { NULL, 1, 0, 0, 0 };

	/* Options are trailing ",slots=N" and ",upload" words. */
	while ((comma = strrchr(uri, ','))) {
		const char *o = comma + 1;
		uint64_t n;

		if (!strncmp(o, "slots=", 6)) {
			if (parse_u64(o + 6, &n) < 0 || n < 1 || n > 64) {
				sb_addf(err, "--connect '%s': slots must be a count from 1 to 64", spec);
				free(uri);
				return -1;
			}
			c.slots = (int)n;
		} else if (!strcmp(o, "upload")) {
			c.upload = 1;
		} else {
			break;
		}
		*comma = '\0';
	}
	if (!*uri || !strstr(uri, ":/")) {
		sb_addf(err, "--connect '%s': not a libvirt URI (qemu:///system, "
			"qemu+ssh://HOST/system)", spec);
		free(uri);
		return -1;
	}
	c.uri = uri;
	ALLOC_GROW(f->c, f->n + 1, f->alloc);
	f->c[f->n++] = c;
	return 0;
}

void fanout_release(struct fanout *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->c[i].uri);
	free(f->c);
	memset(f, 0, sizeof(*f));
}

static char *fanout_connect_arg(const struct fanout_conn *c)
{
	return xstrfmt("%s%s", c->uri, c->upload ? ",upload" : "");
}

void fanout_jobs_release(struct fanout_job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(jobs[i].dir);
		free(jobs[i].slot);
		free(jobs[i].log);
		strvec_clear(&jobs[i].argv);
		jobs[i].dir = jobs[i].slot = jobs[i].log = NULL;
	}
}

static char *self_exe(void)
{
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0)
		return xstrdup("scaletest");
	buf[n] = '\0';
	return xstrdup(buf);
}

/* The connection with a free slot and the fewest runs, not excluded. */
static int pick(struct fanout *f, int exclude)
{
	int best = -1;

	for (size_t i = 0; i < f->n; i++) {
		struct fanout_conn *c = &f->c[i];

		if ((int)i == exclude || c->lost || c->busy >= c->slots)
			continue;
		if (best < 0 || c->busy * f->c[best].slots < f->c[best].busy * c->slots)
			best = (int)i;
	}
	return best;
}

/* Whether a connection other than this one is still usable. */
static int other_conn(const struct fanout *f, int conn)
{
	for (size_t i = 0; i < f->n; i++)
		if ((int)i != conn && !f->c[i].lost)
			return 1;
	return 0;
}

static int start_job(struct fanout *f, struct fanout_job *j, size_t idx, int conn,
		     const char *out, const char *exe, double t0)
{
	char *connect = fanout_connect_arg(&f->c[conn]);
	int fd;

	strvec_clear(&j->argv);
	free(j->slot);
	free(j->log);
	j->slot = xstrfmt("%s/.slot-%zu-%d", out, idx, j->tries);
	j->log = xstrfmt("%s/.slot-%zu-%d.log", out, idx, j->tries);
	remove_tree(j->slot);
	strvec_push(&j->argv, exe);
	strvec_push(&j->argv, "run");
	strvec_push(&j->argv, j->scenario);
	strvec_push(&j->argv, "--quiet");
	strvec_push(&j->argv, "--out");
	strvec_push(&j->argv, j->slot);
	strvec_push(&j->argv, "--connect");
	strvec_push(&j->argv, connect);
	for (size_t i = 0; j->sets && i < j->sets->n; i++) {
		strvec_push(&j->argv, "--set");
		strvec_push(&j->argv, j->sets->v[i]);
	}
	free(connect);
	fd = open(j->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return error_errno("cannot create '%s'", j->log);
	j->child = (struct child)CHILD_INIT;
	j->child.argv = (const char *const *)j->argv.v;
	j->child.out = fd;
	j->child.err = fd;
	if (child_start(&j->child) < 0) {
		close(fd);
		return -1;
	}
	close(fd);
	j->conn = conn;
	j->state = JOB_RUNNING;
	j->start = now_monotonic() - t0;
	f->c[conn].busy++;
	note("run %zu on %s (slot %d of %d)", idx + 1, f->c[conn].uri, f->c[conn].busy,
	     f->c[conn].slots);
	return 0;
}

/* The run directory the child made in its slot, or NULL. */
static char *slot_run(const char *slot)
{
	DIR *d = opendir(slot);
	struct dirent *de;
	char *found = NULL;

	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.' && strcmp(de->d_name, "latest") && !found) {
			char *p = xstrfmt("%s/%s", slot, de->d_name);
			if (is_dir(p))
				found = xstrdup(de->d_name);
			free(p);
		}
	if (d)
		closedir(d);
	return found;
}

/* Moves the run out of its slot; returns its status. */
static enum run_status collect(struct fanout *f, struct fanout_job *j, size_t idx,
			       const struct child_result *res, const char *out,
			       double t0, json_object *placements, int *lost)
{
	char *id = slot_run(j->slot), *dst = NULL, *p;
	json_object *root = NULL, *pl = json_object_new_object();
	struct strbuf err = STRBUF_INIT;
	enum run_status st = RUN_ERROR;

	*lost = 0;
	f->c[j->conn].busy--;
	if (id) {
		char *src = xstrfmt("%s/%s", j->slot, id);

		dst = xstrfmt("%s/%s", out, id);
		/* Runs started in the same second in other slots have the same
		 * id: the later one gets the job's number after it. */
		for (int k = 2; path_exists(dst) && k < 100; k++) {
			free(dst);
			dst = xstrfmt("%s/%s-j%zu-%d", out, id, idx + 1, k);
		}
		if (rename(src, dst) < 0) {
			error_errno("cannot move '%s' to '%s'", src, dst);
			free(dst);
			dst = src;
			src = NULL;
		}
		free(src);
		p = xstrfmt("%s/harness.log", dst);
		rename(j->log, p);
		free(p);
		if (result_load(dst, &root, &err) == 0) {
			const char *s = jstr(root, "status", "error");
			for (int k = RUN_PASS; k <= RUN_INTERRUPTED; k++)
				if (!strcmp(s, run_status_name((enum run_status)k)))
					st = (enum run_status)k;
			*lost = json_object_get_boolean(jget(root, "vm.connection_lost"));
		}
	} else {
		struct strbuf tail = STRBUF_INIT;

		log_tail(j->log, 5, &tail);
		error("run %zu on %s made no run directory (%s):\n%s", idx + 1,
		      f->c[j->conn].uri, child_describe(res), tail.buf);
		sb_release(&tail);
		if (res->outcome == CHILD_EXITED && res->status == EXIT_INTERRUPTED)
			st = RUN_INTERRUPTED;
	}
	/* The child harness's exit code says its error's class. */
	j->err = 0;
	if (st == RUN_ERROR)
		j->err = res->outcome == CHILD_EXITED && res->status == EXIT_ENV ? ERR_ENV
		       : res->outcome == CHILD_EXITED && res->status == EXIT_USAGE ? ERR_USAGE
		       : ERR_FAIL;
	p = xstrfmt("%s/latest", j->slot);
	unlink(p);
	free(p);
	rmdir(j->slot);
	json_object_object_add(pl, "run", dst ? json_object_new_string(path_basename(dst)) : NULL);
	json_object_object_add(pl, "uri", json_object_new_string(f->c[j->conn].uri));
	json_object_object_add(pl, "job", json_object_new_int64((long long)idx));
	json_object_object_add(pl, "start", json_seconds(j->start));
	json_object_object_add(pl, "end", json_seconds(now_monotonic() - t0));
	json_object_object_add(pl, "status", json_object_new_string(run_status_name(st)));
	json_object_object_add(pl, "connection_lost", json_object_new_boolean(*lost));
	json_object_object_add(pl, "attempt", json_object_new_int(j->tries + 1));
	json_object_array_add(placements, pl);
	free(j->dir);
	j->dir = dst;
	json_object_put(root);
	sb_release(&err);
	free(id);
	return st;
}

/* A lost attempt's directory goes to out/.retried/, out of compare's way. */
static void set_aside(struct fanout_job *j, const char *out)
{
	char *aside = xstrfmt("%s/.retried", out), *dst;

	if (!j->dir) {
		free(aside);
		return;
	}
	mkdir_p(aside, 0755);
	dst = xstrfmt("%s/%s", aside, path_basename(j->dir));
	if (rename(j->dir, dst) < 0)
		error_errno("cannot move '%s' to '%s'", j->dir, dst);
	free(dst);
	free(aside);
	free(j->dir);
	j->dir = NULL;
}

int fanout_run(struct fanout *f, struct fanout_job *jobs, size_t n, const char *out,
	       json_object *placements)
{
	char *exe = self_exe();
	double t0 = now_monotonic();
	size_t done = 0;
	int stopping = 0;

	if (mkdir_p(out, 0755) < 0) {
		free(exe);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		jobs[i].state = JOB_PENDING;
		jobs[i].exclude = -1;
		jobs[i].tries = 0;
		jobs[i].dir = NULL;
		jobs[i].status = RUN_ERROR;
		jobs[i].err = ERR_FAIL;
		strvec_init(&jobs[i].argv);
	}
	while (done < n) {
		struct pollfd pfd = { child_signal_fd(), POLLIN, 0 };

		if (child_interrupted() && !stopping) {
			stopping = 1;
			for (size_t i = 0; i < n; i++)
				if (jobs[i].state == JOB_PENDING) {
					jobs[i].state = JOB_DONE;
					jobs[i].status = RUN_INTERRUPTED;
					jobs[i].err = 0;
					done++;
				}
		}
		for (size_t i = 0; !stopping && i < n; i++) {
			int c;

			if (jobs[i].state != JOB_PENDING || (c = pick(f, jobs[i].exclude)) < 0)
				continue;
			if (start_job(f, &jobs[i], i, c, out, exe, t0) < 0) {
				jobs[i].state = JOB_DONE;
				done++;
			}
		}
		/* Nothing runs and nothing can start: every connection is lost. */
		int running = 0;
		for (size_t i = 0; i < n; i++)
			running += jobs[i].state == JOB_RUNNING;
		if (!running && done < n) {
			for (size_t i = 0; i < n; i++)
				if (jobs[i].state == JOB_PENDING) {
					error("run %zu: no connection left to run it on", i + 1);
					jobs[i].state = JOB_DONE;
					done++;
				}
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			struct fanout_job *j = &jobs[i];
			struct child_result res;
			int lost;

			if (j->state != JOB_RUNNING)
				continue;
			if (stopping)
				child_stop(&j->child, 30.0, &res);
			else if (!child_poll(&j->child, &res))
				continue;
			j->status = collect(f, j, i, &res, out, t0, placements, &lost);
			j->state = JOB_DONE;
			if (lost && !stopping) {
				f->c[j->conn].lost = 1;
				if (j->tries == 0 && other_conn(f, j->conn)) {
					warning("run %zu lost its connection to %s; running it again "
						"on another connection", i + 1, f->c[j->conn].uri);
					set_aside(j, out);
					j->exclude = j->conn;
					j->tries++;
					j->state = JOB_PENDING;
					continue;
				}
			}
			done++;
			note("run %zu: %s", i + 1, run_status_name(j->status));
		}
		if (done < n)
			poll(&pfd, 1, 250);
	}
	free(exe);
	return 0;
}
