// SPDX-License-Identifier: Apache-2.0
#include "record/hung.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/textscan.h"
#include "lib/util.h"
#include "lib/xalloc.h"

static void task_release(struct hung_task *t)
{
	for (size_t i = 0; i < t->nframes; i++)
		free(t->frames[i]);
	free(t->frames);
	free(t->comm);
}

void hung_release(struct hung_tasks *h)
{
	for (size_t i = 0; i < h->n; i++)
		task_release(&h->v[i]);
	free(h->v);
	memset(h, 0, sizeof(*h));
}

const struct hung_task *hung_find(const struct hung_tasks *h, long long pid)
{
	for (size_t i = 0; i < h->n; i++)
		if (h->v[i].pid == pid)
			return &h->v[i];
	return NULL;
}

/* "hung 1 UPTIME" */
static int header(const char *p, size_t len, double *t)
{
	char line[64], *f[4];

	if (len >= sizeof(line))
		return -1;
	memcpy(line, p, len);
	line[len] = '\0';
	return split_fields(line, f, 3) == 3 && !strcmp(f[0], "hung") && !strcmp(f[1], "1") &&
	       !parse_double(f[2], t) && *t >= 0 && *t <= 1e9 ? 0 : -1;
}

/* "t PID COMM" (COMM: the rest of the line, not empty). */
static int task_line(struct hung_task *t, const char *p, size_t len, const char **why)
{
	const char *end = p + len, *q = p + 2, *comm;
	int64_t pid;
	char num[16];

	comm = q;
	while (comm < end && *comm >= '0' && *comm <= '9')
		comm++;
	if (comm == q || (size_t)(comm - q) >= sizeof(num) || comm >= end || *comm != ' ' ||
	    comm + 1 >= end) {
		*why = "expected 't PID COMM'";
		return -1;
	}
	memcpy(num, q, (size_t)(comm - q));
	num[comm - q] = '\0';
	if (parse_i64(num, &pid) < 0 || pid < 1 || pid > HUNG_MAX_PID) {
		*why = "pid out of range";
		return -1;
	}
	comm++;
	if ((size_t)(end - comm) > HUNG_COMM_MAX) {
		*why = "comm too long";
		return -1;
	}
	t->pid = pid;
	t->comm = xstrndup(comm, (size_t)(end - comm));
	return 0;
}

static int frame_line(struct hung_task *t, const char *p, size_t len, const char **why)
{
	while (len && (*p == ' ' || *p == '\t')) {
		p++;
		len--;
	}
	if (!len) {
		*why = "an empty frame";
		return -1;
	}
	if (len >= HUNG_FRAME_MAX) {
		*why = "frame too long";
		return -1;
	}
	if (t->nframes >= HUNG_MAX_FRAMES) {
		*why = "too many frames";
		return -1;
	}
	if (!t->frames)
		t->frames = xcalloc(HUNG_MAX_FRAMES, sizeof(*t->frames));
	t->frames[t->nframes++] = xstrndup(p, len);
	return 0;
}

int hung_parse(struct hung_tasks *h, const char *buf, size_t len, struct strbuf *err)
{
	struct line_iter it;
	const char *why = NULL;
	size_t first = h->n;
	double t = -1;

	line_iter_init(&it, buf, len);
	while (line_next(&it)) {
		const char *p = it.line;

		if (line_has_nul(p, it.len)) {
			why = "a NUL byte";
			goto bad;
		}
		if (t < 0) {
			if (header(p, it.len, &t) < 0) {
				why = "expected 'hung 1 UPTIME' first";
				goto bad;
			}
		} else if (it.len && (*p == ' ' || *p == '\t')) {
			if (h->n == first) {
				why = "a frame before any task";
				goto bad;
			}
			if (frame_line(&h->v[h->n - 1], p, it.len, &why) < 0)
				goto bad;
		} else if (it.len >= 2 && p[0] == 't' && p[1] == ' ') {
			if (h->n >= HUNG_MAX_TASKS) {
				why = "too many tasks";
				goto bad;
			}
			ALLOC_GROW(h->v, h->n + 1, h->alloc);
			memset(&h->v[h->n], 0, sizeof(h->v[h->n]));
			h->v[h->n].t = t;
			if (task_line(&h->v[h->n], p, it.len, &why) < 0) {
				task_release(&h->v[h->n]);
				goto bad;
			}
			for (size_t i = first; i < h->n; i++) {
				if (h->v[i].pid == h->v[h->n].pid) {
					task_release(&h->v[h->n]);
					why = "a task twice in one record";
					goto bad;
				}
			}
			h->n++;
		} else {
			why = "expected a task 't' or a frame";
			goto bad;
		}
	}
	if (t < 0) {
		sb_adds(err, "empty: no 'hung 1 UPTIME' header");
		return -1;
	}
	return 0;
bad:
	sb_addf(err, "line %u: %s", it.lineno, why);
	while (h->n > first)
		task_release(&h->v[--h->n]);
	return -1;
}
