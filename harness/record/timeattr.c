// SPDX-License-Identifier: Apache-2.0
#include "record/timeattr.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/util.h"

/* ---- a small string map: key -> on, wait (open addressing) ---- */

static unsigned long hash_str(const char *s)
{
	unsigned long h = 1469598103934665603UL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211UL;
	return h;
}

static void map_release(struct ta_map *m)
{
	for (size_t i = 0; i < m->cap; i++) {
		free(m->e[i].key);
		free(m->e[i].stack);
		free(m->e[i].comm);
	}
	free(m->e);
	memset(m, 0, sizeof(*m));
}

static struct ta_entry *map_slot(struct ta_entry *e, size_t cap, const char *key)
{
	size_t i = hash_str(key) & (cap - 1);

	while (e[i].key && strcmp(e[i].key, key))
		i = (i + 1) & (cap - 1);
	return &e[i];
}

/* The entry for key, made if new; past TA_MAX_STACKS entries, "(other)". */
static struct ta_entry *map_get(struct ta_map *m, const char *key)
{
	struct ta_entry *e;

	if (m->cap && (e = map_slot(m->e, m->cap, key))->key)
		return e;
	if (m->n >= TA_MAX_STACKS) {
		m->full = 1;
		key = "(other)";
		if (m->cap && (e = map_slot(m->e, m->cap, key))->key)
			return e;
	}
	if ((m->n + 1) * 2 > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		struct ta_entry *ne = xcalloc(cap, sizeof(*ne));

		for (size_t i = 0; i < m->cap; i++)
			if (m->e[i].key)
				*map_slot(ne, cap, m->e[i].key) = m->e[i];
		free(m->e);
		m->e = ne;
		m->cap = cap;
	}
	e = map_slot(m->e, m->cap, key);
	e->key = xstrdup(key);
	m->n++;
	return e;
}

static void map_add(struct ta_map *m, const char *key, double on, double wait,
		    const char *stack, const char *comm)
{
	struct ta_entry *e = map_get(m, key);

	e->on += on;
	e->wait += wait;
	if (stack && on + wait > e->best) {
		e->best = on + wait;
		free(e->stack);
		free(e->comm);
		e->stack = xstrdup(stack);
		e->comm = comm ? xstrdup(comm) : NULL;
	}
}

/* ---- labels ---- */

void ta_init(struct ta_run *r)
{
	memset(r, 0, sizeof(*r));
}

static void sample_free(struct stk_sample *s)
{
	for (size_t i = 0; i < s->ntasks; i++) {
		for (size_t f = 0; f < s->tasks[i].nframes; f++)
			free(s->tasks[i].frames[f]);
		free(s->tasks[i].frames);
		free(s->tasks[i].comm);
	}
	free(s->tasks);
	memset(s, 0, sizeof(*s));
}

static void label_release(struct ta_label *l)
{
	free(l->name);
	sample_free(&l->pending);
	map_release(&l->sites);
	map_release(&l->stacks);
	free(l->prev);
}

void ta_release(struct ta_run *r)
{
	for (size_t i = 0; i < r->n; i++)
		label_release(&r->l[i]);
	free(r->l);
	free(r->unavailable);
	free(r->preempt);
	memset(r, 0, sizeof(*r));
}

void ta_unavailable(struct ta_run *r, const char *reason)
{
	if (!r->unavailable)
		r->unavailable = xstrdup(reason);
}

enum cls { CLS_COMMAND, CLS_KTHREAD, CLS_HARNESS };
static const char *const cls_name[] = { "command", "kthread", "harness" };

static enum cls task_class(const struct stk_sample *s, const struct stk_task *t)
{
	if (s->job > 0 && (t->pid == s->job || t->ppid == s->job))
		return CLS_COMMAND;
	if (t->pid == 2 || t->ppid == 2)
		return CLS_KTHREAD;
	return CLS_HARNESS;
}

/* One task's share w of a sample: to its site and its whole stack. */
static void charge(struct ta_label *l, const struct stk_sample *s, const struct stk_task *t,
		   double w, int on)
{
	struct strbuf key = STRBUF_INIT, stack = STRBUF_INIT;
	const char *c = cls_name[task_class(s, t)];

	sb_addf(&key, "%s\t", c);
	stk_site(t->frames, t->nframes, &key);
	for (size_t f = 0; f < t->nframes; f++) {
		if (f)
			sb_addch(&stack, '\n');
		sb_adds(&stack, t->frames[f]);
	}
	map_add(&l->sites, key.buf, on ? w : 0, on ? 0 : w, stack.buf, t->comm);
	/* The flame graph's key: class;outermost;...;innermost. */
	sb_reset(&key);
	sb_adds(&key, c);
	for (size_t f = t->nframes; f-- > 0;) {
		sb_addch(&key, ';');
		stk_frame_name(t->frames[f], &key);
	}
	if (!t->nframes)
		sb_adds(&key, ";(no stack)");
	map_add(&l->stacks, key.buf, on ? w : 0, on ? 0 : w, NULL, NULL);
	if (on)
		l->on_s += w;
	else
		l->wait_s += w;
	sb_release(&key);
	sb_release(&stack);
}

/* A sample's time w by the wall view (timeattr.h). */
static void account(struct ta_label *l, const struct stk_sample *s, double w)
{
	size_t nr = 0, nd = 0, nc = 0;

	for (size_t i = 0; i < s->ntasks; i++) {
		nr += s->tasks[i].state == 'R';
		nd += s->tasks[i].state == 'D';
		nc += task_class(s, &s->tasks[i]) == CLS_COMMAND;
	}
	for (size_t i = 0; i < s->ntasks; i++) {
		const struct stk_task *t = &s->tasks[i];

		if (nr && t->state == 'R')
			charge(l, s, t, w / (double)nr, 1);
		else if (!nr && nd && t->state == 'D')
			charge(l, s, t, w / (double)nd, 0);
		else if (!nr && !nd && task_class(s, t) == CLS_COMMAND)
			charge(l, s, t, w / (double)nc, 0);
	}
	if (!nr && !nd && !nc) {
		map_add(&l->sites, "none\t(idle)", 0, w, NULL, NULL);
		map_add(&l->stacks, "none;(idle)", 0, w, NULL, NULL);
		l->idle_s += w;
	}
}

/* The command's on-CPU nanoseconds, from one sample to the next. */
static void command_exec(struct ta_label *l, const struct stk_sample *s)
{
	struct ta_prev *now = NULL;
	size_t n = 0;

	for (size_t i = 0; i < s->ntasks; i++) {
		const struct stk_task *t = &s->tasks[i];

		if (task_class(s, t) != CLS_COMMAND || t->exec_ns < 0)
			continue;
		for (size_t k = 0; k < l->nprev; k++) {
			if (l->prev[k].pid == t->pid && t->exec_ns >= l->prev[k].exec_ns) {
				l->cmd_exec_s += (double)(t->exec_ns - l->prev[k].exec_ns) / 1e9;
				l->cmd_exec_known = 1;
			}
		}
		now = xrealloc(now, (n + 1) * sizeof(*now));
		now[n].pid = t->pid;
		now[n++].exec_ns = t->exec_ns;
	}
	free(l->prev);
	l->prev = now;
	l->nprev = n;
}

/* The pending sample's time runs until t. */
static void settle(struct ta_label *l, double t)
{
	if (!l->have_pending)
		return;
	account(l, &l->pending, t - l->pending.t);
	sample_free(&l->pending);
	l->have_pending = 0;
}

int ta_add(struct ta_run *r, struct stk_chunk *c, struct strbuf *why)
{
	struct ta_label *l = NULL;

	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->l[i].name, c->label))
			l = &r->l[i];
	if (!l) {
		if (c->chunk != 1) {
			sb_addf(why, "chunk %lld of '%s' before its first", c->chunk, c->label);
			return -1;
		}
		if (r->n >= TA_MAX_LABELS) {
			sb_addf(why, "more than %d labels", TA_MAX_LABELS);
			return -1;
		}
		ALLOC_GROW(r->l, r->n + 1, r->alloc);
		l = &r->l[r->n++];
		memset(l, 0, sizeof(*l));
		l->name = xstrdup(c->label);
		l->tasks = c->tasks;
		l->next_chunk = 1;
		l->t0 = -1;
	}
	if (l->done) {
		sb_addf(why, "chunk %lld of '%s' after its end", c->chunk, c->label);
		return -1;
	}
	if (c->chunk != l->next_chunk) {
		sb_addf(why, "chunk %lld of '%s' where %lld was due", c->chunk, c->label,
			l->next_chunk);
		return -1;
	}
	if (c->n && l->samples && (c->s[0].n <= l->last_n || c->s[0].t < l->t_last)) {
		sb_addf(why, "chunk %lld of '%s' goes back in time", c->chunk, c->label);
		return -1;
	}
	if (c->has_end && l->samples && !c->n &&
	    (c->end_n != l->last_n || c->end_t < l->t_last)) {
		sb_addf(why, "the end of '%s' does not follow its last sample", c->label);
		return -1;
	}
	if (r->samples + (long long)c->n > TA_MAX_SAMPLES) {
		sb_addf(why, "more than %d samples in all", TA_MAX_SAMPLES);
		return -1;
	}
	l->next_chunk++;
	if (c->begin_t >= 0 && l->t0 < 0)
		l->t0 = c->begin_t;
	for (size_t i = 0; i < c->n; i++) {
		if (l->t0 < 0)
			l->t0 = c->s[i].t;
		l->t_last = c->s[i].t;
		l->last_n = c->s[i].n;
		l->cost_us = c->s[i].cost_us;
		l->samples++;
		r->samples++;
		/* From the sampler's start to the first sample that found a
		 * task (the first waits for bg_wait's job, which then forks
		 * the command): as that sample found it. */
		if (!l->seen) {
			if (!c->s[i].ntasks)
				continue;
			l->seen = 1;
			if (c->s[i].t > l->t0)
				account(l, &c->s[i], c->s[i].t - l->t0);
		}
		settle(l, c->s[i].t);
		command_exec(l, &c->s[i]);
		l->pending = c->s[i];
		l->have_pending = 1;
		memset(&c->s[i], 0, sizeof(c->s[i]));
	}
	if (c->has_end) {
		/* Nothing found all along: idle from start to end. */
		if (!l->seen && l->t0 >= 0 && c->end_t > l->t0) {
			struct stk_sample none = { 0, 0, -1, 0, NULL, 0, 0 };

			account(l, &none, c->end_t - l->t0);
		}
		settle(l, c->end_t);
		l->done = 1;
		l->t_end = c->end_t;
		l->cost_us = c->end_cost_us;
		l->ticks = c->end_ticks;
		if (l->t0 < 0)
			l->t0 = c->end_t;
	}
	return 0;
}

/* ---- JSON ---- */

static json_object *secs(double s)
{
	return json_fixed(s, 3);
}

static json_object *clean(const char *s)
{
	return json_clean_string(s, strlen(s));
}

/* A comm without its numbers: kworker/u2:5+events_unbound ->
 * kworker/uN:N+events_unbound. */
static json_object *comm_json(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	json_object *o;

	for (; *s; s++) {
		if (isdigit((unsigned char)*s)) {
			while (isdigit((unsigned char)s[1]))
				s++;
			sb_addch(&sb, 'N');
		} else {
			sb_addch(&sb, *s);
		}
	}
	o = clean(sb.buf);
	sb_release(&sb);
	return o;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct ta_entry *x = *(const struct ta_entry *const *)a;
	const struct ta_entry *y = *(const struct ta_entry *const *)b;
	double sx = x->on + x->wait, sy = y->on + y->wait;

	if (sx != sy)
		return sx < sy ? 1 : -1;
	return strcmp(x->key, y->key);
}

static struct ta_entry **sorted(const struct ta_map *m)
{
	struct ta_entry **v = xcalloc(m->n + 1, sizeof(*v));
	size_t k = 0;

	for (size_t i = 0; i < m->cap; i++)
		if (m->e[i].key)
			v[k++] = &m->e[i];
	qsort(v, k, sizeof(*v), cmp_entry);
	return v;
}

static json_object *sites_json(const struct ta_map *m, double *other)
{
	struct ta_entry **v = sorted(m);
	json_object *a = json_object_new_array();

	*other = 0;
	for (size_t i = 0; i < m->n; i++) {
		json_object *o, *st;
		const char *tab = strchr(v[i]->key, '\t');
		char *cls;

		if (i >= TA_TOP_SITES || !tab) {
			*other += v[i]->on + v[i]->wait;
			continue;
		}
		cls = xstrndup(v[i]->key, (size_t)(tab - v[i]->key));
		o = json_object_new_object();
		json_object_object_add(o, "site", clean(tab + 1));
		json_object_object_add(o, "class", json_object_new_string(cls));
		json_object_object_add(o, "comm", v[i]->comm ? comm_json(v[i]->comm) : NULL);
		json_object_object_add(o, "s", secs(v[i]->on + v[i]->wait));
		json_object_object_add(o, "on_cpu_s", secs(v[i]->on));
		json_object_object_add(o, "wait_s", secs(v[i]->wait));
		st = json_object_new_array();
		for (const char *p = v[i]->stack; p && *p;) {
			size_t n = strcspn(p, "\n");
			char *f = xstrndup(p, n);

			json_object_array_add(st, clean(f));
			free(f);
			p += n + (p[n] == '\n');
		}
		json_object_object_add(o, "stack", st);
		json_object_array_add(a, o);
		free(cls);
	}
	free(v);
	return a;
}

static json_object *stacks_json(const struct ta_map *m, double *other)
{
	struct ta_entry **v = sorted(m);
	json_object *a = json_object_new_array();

	*other = 0;
	for (size_t i = 0; i < m->n; i++) {
		json_object *o;

		if (i >= TA_TOP_STACKS) {
			*other += v[i]->on + v[i]->wait;
			continue;
		}
		o = json_object_new_object();
		json_object_object_add(o, "stack", clean(v[i]->key));
		json_object_object_add(o, "on_cpu_s", secs(v[i]->on));
		json_object_object_add(o, "wait_s", secs(v[i]->wait));
		json_object_array_add(a, o);
	}
	free(v);
	return a;
}

static json_object *label_json(const struct ta_label *l, int with_stacks)
{
	json_object *o = json_object_new_object();
	double t1 = l->done ? l->t_end : l->t_last, other;

	json_object_object_add(o, "label", json_object_new_string(l->name));
	json_object_object_add(o, "complete", json_object_new_boolean(l->done));
	json_object_object_add(o, "tasks_from", l->tasks ? json_object_new_string(l->tasks) : NULL);
	json_object_object_add(o, "samples", json_object_new_int64(l->samples));
	json_object_object_add(o, "t0", l->t0 >= 0 ? secs(l->t0) : NULL);
	json_object_object_add(o, "t1", l->t0 >= 0 ? secs(t1) : NULL);
	json_object_object_add(o, "span_s", l->t0 >= 0 ? secs(t1 - l->t0) : NULL);
	json_object_object_add(o, "cost_s", secs((double)l->cost_us / 1e6));
	json_object_object_add(o, "cost_ticks_s", l->done ? secs((double)l->ticks / 100) : NULL);
	json_object_object_add(o, "on_cpu_s", secs(l->on_s));
	json_object_object_add(o, "wait_s", secs(l->wait_s));
	json_object_object_add(o, "idle_s", secs(l->idle_s));
	json_object_object_add(o, "command_cpu_s", l->cmd_exec_known ? secs(l->cmd_exec_s) : NULL);
	json_object_object_add(o, "sites_total", json_object_new_int64((long long)l->sites.n));
	json_object_object_add(o, "sites", sites_json(&l->sites, &other));
	json_object_object_add(o, "other_s", secs(other));
	if (with_stacks) {
		json_object_object_add(o, "stacks", stacks_json(&l->stacks, &other));
		json_object_object_add(o, "other_stacks_s", secs(other));
	}
	return o;
}

/* Every step's samples as one label, "sweep". */
static void merge_steps(const struct ta_run *r, struct ta_label *sw)
{
	memset(sw, 0, sizeof(*sw));
	sw->name = xstrdup("sweep");
	sw->tasks = NULL;
	sw->t0 = -1;
	sw->done = 1;
	for (size_t i = 0; i < r->n; i++) {
		const struct ta_label *l = &r->l[i];

		if (strncmp(l->name, "step-", 5))
			continue;
		for (size_t k = 0; k < l->sites.cap; k++)
			if (l->sites.e[k].key)
				map_add(&sw->sites, l->sites.e[k].key, l->sites.e[k].on,
					l->sites.e[k].wait, l->sites.e[k].stack, l->sites.e[k].comm);
		for (size_t k = 0; k < l->stacks.cap; k++)
			if (l->stacks.e[k].key)
				map_add(&sw->stacks, l->stacks.e[k].key, l->stacks.e[k].on,
					l->stacks.e[k].wait, NULL, NULL);
		if (sw->t0 < 0)
			sw->t0 = l->t0;
		sw->t_end = sw->t_last = l->done ? l->t_end : l->t_last;
		sw->done &= l->done;
		sw->samples += l->samples;
		sw->cost_us += l->cost_us;
		sw->ticks += l->ticks;
		sw->on_s += l->on_s;
		sw->wait_s += l->wait_s;
		sw->idle_s += l->idle_s;
		sw->cmd_exec_s += l->cmd_exec_s;
		sw->cmd_exec_known |= l->cmd_exec_known;
	}
}

json_object *ta_json(const struct ta_run *r)
{
	json_object *o, *labels;
	int steps = 0;

	if (!r->n && !r->unavailable)
		return NULL;
	o = json_object_new_object();
	labels = json_object_new_array();
	json_object_object_add(o, "status", json_object_new_string(
		r->n ? "ok" : "unavailable"));
	json_object_object_add(o, "reason", r->unavailable ? clean(r->unavailable) : NULL);
	json_object_object_add(o, "preempt", r->preempt ? clean(r->preempt) : NULL);
	for (size_t i = 0; i < r->n; i++) {
		int step = !strncmp(r->l[i].name, "step-", 5);

		json_object_array_add(labels, label_json(&r->l[i], !step));
		/* The sweep as a whole, after its last step. */
		if (step && !steps++) {
			struct ta_label sw;
			size_t k = i;

			while (k + 1 < r->n && !strncmp(r->l[k + 1].name, "step-", 5))
				k++;
			for (size_t j = i + 1; j <= k; j++)
				json_object_array_add(labels, label_json(&r->l[j], 0));
			i = k;
			merge_steps(r, &sw);
			json_object_array_add(labels, label_json(&sw, 1));
			label_release(&sw);
		}
	}
	json_object_object_add(o, "labels", labels);
	return o;
}
