// SPDX-License-Identifier: Apache-2.0
#include "record/pageowner.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "record/attribution.h"
#include "lib/util.h"
#include "lib/xalloc.h"

static void stack_release(struct po_stack *s)
{
	for (size_t i = 0; i < s->nframes; i++)
		free(s->frames[i]);
	free(s->frames);
}

void po_release(struct po_snapshot *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		stack_release(&ps->s[i]);
	free(ps->s);
	memset(ps, 0, sizeof(*ps));
}

/* A decimal number filling [p, end) exactly, at most max. */
static int whole_number(const char *p, const char *end, long long max, long long *out)
{
	long long v = 0;

	if (p == end)
		return -1;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		if (v > (max - (*p - '0')) / 10)
			return -1;
		v = v * 10 + (*p - '0');
	}
	*out = v;
	return 0;
}

/* "COUNT ORDER" */
static int count_line(struct po_stack *s, const char *p, const char *end, struct strbuf *err)
{
	const char *sp = memchr(p, ' ', (size_t)(end - p));
	long long count, order;

	if (!sp || whole_number(p, sp, ATTR_VALUE_MAX, &count) < 0 ||
	    whole_number(sp + 1, end, LLONG_MAX, &order) < 0) {
		sb_adds(err, "expected \"COUNT ORDER\", a frame or \"end N\"");
		return -1;
	}
	if (count < 1) {
		sb_adds(err, "a stack with a count of 0");
		return -1;
	}
	if (order > ATTR_MAX_ORDER) {
		sb_addf(err, "order %lld above %d", order, ATTR_MAX_ORDER);
		return -1;
	}
	s->count = count;
	s->order = (int)order;
	return 0;
}

static int parse(struct po_snapshot *ps, const char *buf, size_t len, struct strbuf *err)
{
	const char *p = buf, *end = buf + len;
	size_t lineno = 0, alloc = 0;
	struct po_stack *cur = NULL;
	int ended = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		lineno++;
		sb_addf(err, "line %zu: ", lineno);
		if (memchr(p, '\0', (size_t)(le - p))) {
			sb_adds(err, "a NUL byte");
			return -1;
		}
		if (ended) {
			sb_adds(err, "text after the end line");
			return -1;
		}
		if (lineno == 1) {
			static const char *const files[] = { "page_owner", "show_stacks" };
			static const char hdr[] = "pageowner 1 ";
			size_t hl = sizeof(hdr) - 1;

			if ((size_t)(le - p) < hl || memcmp(p, hdr, hl)) {
				sb_adds(err, "not a folded page_owner record (no \"pageowner 1\" header)");
				return -1;
			}
			for (size_t i = 0; i < ARRAY_SIZE(files) && !ps->file[0]; i++)
				if ((size_t)(le - p) - hl == strlen(files[i]) &&
				    !memcmp(p + hl, files[i], strlen(files[i])))
					snprintf(ps->file, sizeof(ps->file), "%s", files[i]);
			if (!ps->file[0]) {
				sb_adds(err, "unknown source file (page_owner or show_stacks)");
				return -1;
			}
		} else if (*p == ' ' || *p == '\t') {
			const char *f = p;

			while (f < le && (*f == ' ' || *f == '\t'))
				f++;
			if (!cur) {
				sb_adds(err, "a frame before any \"COUNT ORDER\" line");
				return -1;
			}
			if (f == le) {
				sb_adds(err, "an empty frame");
				return -1;
			}
			if (le - f >= ATTR_FRAME_MAX) {
				sb_addf(err, "a frame of %d bytes or more", ATTR_FRAME_MAX);
				return -1;
			}
			if (cur->nframes >= ATTR_MAX_FRAMES) {
				sb_addf(err, "more than %d frames", ATTR_MAX_FRAMES);
				return -1;
			}
			ALLOC_GROW(cur->frames, cur->nframes + 1, alloc);
			cur->frames[cur->nframes++] = xstrndup(f, (size_t)(le - f));
		} else if (le - p > 4 && !memcmp(p, "end ", 4)) {
			long long n;

			if (whole_number(p + 4, le, LLONG_MAX, &n) < 0) {
				sb_adds(err, "expected \"end N\"");
				return -1;
			}
			if ((unsigned long long)n != ps->n) {
				sb_addf(err, "end says %lld stacks, there were %zu", n, ps->n);
				return -1;
			}
			ended = 1;
		} else {
			if (ps->n >= ATTR_MAX_ENTRIES) {
				sb_addf(err, "more than %d stacks", ATTR_MAX_ENTRIES);
				return -1;
			}
			ALLOC_GROW(ps->s, ps->n + 1, ps->alloc);
			cur = &ps->s[ps->n];
			memset(cur, 0, sizeof(*cur));
			alloc = 0;
			ps->n++;
			if (count_line(cur, p, le, err) < 0)
				return -1;
		}
		sb_reset(err);
		p = nl ? nl + 1 : end;
	}
	if (!lineno) {
		sb_adds(err, "empty");
		return -1;
	}
	if (!ended) {
		sb_addf(err, "line %zu: cut off (no end line)", lineno);
		return -1;
	}
	return 0;
}

int po_parse(struct po_snapshot *ps, const char *buf, size_t len, struct strbuf *err)
{
	if (parse(ps, buf, len, err) < 0) {
		po_release(ps);
		return -1;
	}
	return 0;
}

/* A stack as one comparable key: the order, then the frames. */
struct keyed {
	const struct po_stack *s;
	int side;		/* 0 before, 1 after */
};

static int cmp_stack(const struct po_stack *a, const struct po_stack *b)
{
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	for (size_t i = 0; i < a->nframes && i < b->nframes; i++) {
		int c = strcmp(a->frames[i], b->frames[i]);
		if (c)
			return c;
	}
	if (a->nframes != b->nframes)
		return a->nframes < b->nframes ? -1 : 1;
	return 0;
}

static int cmp_keyed(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	int c = cmp_stack(a->s, b->s);

	if (c)
		return c;
	if (a->side != b->side)
		return a->side - b->side;
	return a->s < b->s ? -1 : a->s > b->s;
}

static long long sat_add(long long a, long long b)
{
	return a > LLONG_MAX - b ? LLONG_MAX : a + b;
}

static long long block_bytes(int order, long long count)
{
	struct attr_entry e = { .order = order, .hitcount = count };

	return attr_entry_bytes(&e, ATTR_PAGES);
}

json_object *po_source_json(const struct po_snapshot *before,
			    const struct po_snapshot *after, size_t top)
{
	size_t n = before->n + after->n, k = 0;
	struct keyed *all = xcalloc(n ? n : 1, sizeof(*all));
	struct attr_hist h = ATTR_HIST_INIT;
	long long freed = 0, gained = 0, blocks = 0;
	json_object *o;

	for (size_t i = 0; i < before->n; i++)
		all[k++] = (struct keyed){ &before->s[i], 0 };
	for (size_t i = 0; i < after->n; i++)
		all[k++] = (struct keyed){ &after->s[i], 1 };
	qsort(all, n, sizeof(*all), cmp_keyed);
	h.e = xcalloc(n ? n : 1, sizeof(*h.e));
	for (size_t i = 0; i < n;) {
		size_t j = i;
		long long cnt[2] = { 0, 0 }, d;

		while (j < n && !cmp_stack(all[i].s, all[j].s)) {
			cnt[all[j].side] = sat_add(cnt[all[j].side], all[j].s->count);
			j++;
		}
		d = cnt[1] - cnt[0];
		if (d > 0) {
			/* The frames are borrowed from after: attr_hist_release
			 * is not called on h. */
			struct attr_entry *e = &h.e[h.n++];

			e->frames = all[i].s->frames;
			e->nframes = all[i].s->nframes;
			e->order = all[i].s->order;
			e->hitcount = d;
			e->bytes_req = e->bytes_alloc = -1;
			gained = sat_add(gained, block_bytes(e->order, d));
			blocks = sat_add(blocks, d);
		} else if (d < 0) {
			freed = sat_add(freed, block_bytes(all[i].s->order, -d));
		}
		i = j;
	}
	h.hits = blocks;
	h.entries = (long long)h.n;
	o = attr_source_json(&h, ATTR_PAGES, top);
	json_object_object_add(o, "status", json_object_new_string("ok"));
	json_object_object_add(o, "file", json_object_new_string(after->file));
	json_object_object_add(o, "freed_bytes", json_object_new_int64(freed));
	json_object_object_add(o, "net_bytes", json_object_new_int64(gained - freed));
	json_object_object_add(o, "stacks_before", json_object_new_int64((long long)before->n));
	json_object_object_add(o, "stacks_after", json_object_new_int64((long long)after->n));
	free(h.e);
	free(all);
	return o;
}
