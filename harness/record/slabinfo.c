// SPDX-License-Identifier: Apache-2.0
#include "record/slabinfo.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/textscan.h"
#include "lib/util.h"

static int valid_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= SLAB_NAME_MAX)
		return 0;
	for (; *s; s++)
		if (!isgraph((unsigned char)*s))
			return 0;
	return 1;
}

static const char *parse_line(struct slab_cache *c, char *line)
{
	char *f[17];
	int n = split_fields(line, f, 16);

	if (n != 16)
		return "expected 16 fields";
	if (strcmp(f[6], ":") || strcmp(f[7], "tunables") ||
	    strcmp(f[11], ":") || strcmp(f[12], "slabdata"))
		return "missing ': tunables' or ': slabdata'";
	if (!valid_name(f[0]))
		return "bad cache name";
	memcpy(c->name, f[0], strlen(f[0]) + 1);	/* length checked above */
	/* The numeric columns: where each goes (NULL: checked, not kept). */
	const struct {
		int field;
		long long *to;
	} cols[] = {
		{ 1, &c->active_objs }, { 2, &c->num_objs }, { 3, &c->objsize },
		{ 4, &c->objperslab }, { 5, &c->pagesperslab }, { 8, NULL }, { 9, NULL },
		{ 10, NULL }, { 13, &c->active_slabs }, { 14, &c->num_slabs }, { 15, NULL },
	};
	long long unused;

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		if (parse_count(f[cols[i].field], SLAB_NUM_MAX, cols[i].to ? cols[i].to : &unused))
			return "bad number";
	if (c->active_objs > c->num_objs || c->active_slabs > c->num_slabs)
		return "active count larger than total";
	if (c->pagesperslab && c->num_slabs > SLAB_PAGES_MAX / c->pagesperslab)
		return "cache holds more than 2^36 pages";
	return NULL;
}

/* The index of the first cache whose name an earlier one has, or s->n. */
static size_t first_duplicate(const struct slabinfo *s)
{
	const char **names = xmalloc((s->n + 1) * sizeof(*names));
	unsigned char *rep = xmalloc(s->n + 1);
	size_t i;

	for (i = 0; i < s->n; i++)
		names[i] = s->c[i].name;
	mark_repeats(names, s->n, rep);
	for (i = 0; i < s->n && !rep[i]; i++)
		;
	free(names);
	free(rep);
	return i;
}

int slabinfo_parse(struct slabinfo *s, const char *buf, size_t len,
		   struct strbuf *err)
{
	static const char head[] = "slabinfo - version: 2.1";
	struct slabinfo out = SLABINFO_INIT;
	struct line_iter it;
	struct strbuf line = STRBUF_INIT;

	line_iter_init(&it, buf, len);
	while (line_next(&it)) {
		const char *why = NULL;

		if (line_has_nul(it.line, it.len)) {
			why = "NUL byte";
		} else if (it.lineno == 1) {
			if (it.len != sizeof(head) - 1 || memcmp(it.line, head, it.len))
				why = "not slabinfo version 2.1";
		} else if (it.lineno == 2) {
			if (!it.len || it.line[0] != '#')
				why = "missing column header";
		} else {
			struct slab_cache c;

			sb_reset(&line);
			sb_add(&line, it.line, it.len);
			why = parse_line(&c, line.buf);
			if (!why && out.n >= SLABINFO_MAX_CACHES)
				why = "more caches than a kernel has (SLABINFO_MAX_CACHES)";
			if (!why) {
				ALLOC_GROW(out.c, out.n + 1, out.alloc);
				out.c[out.n++] = c;
			}
		}
		if (why) {
			/* Cache i is line i + 3: a duplicate before this line
			 * is the first error. */
			size_t dup = first_duplicate(&out);

			if (dup < out.n)
				sb_addf(err, "line %zu: duplicate cache", dup + 3);
			else
				sb_addf(err, "line %u: %s", it.lineno, why);
			sb_release(&line);
			slabinfo_release(&out);
			return -1;
		}
	}
	sb_release(&line);
	if (it.lineno == 1) {
		sb_adds(err, "line 2: missing column header");
		return -1;
	}
	size_t dup = first_duplicate(&out);
	if (dup < out.n) {
		sb_addf(err, "line %zu: duplicate cache", dup + 3);
		slabinfo_release(&out);
		return -1;
	}
	slabinfo_release(s);
	*s = out;
	return 0;
}

long long slab_cache_bytes(const struct slab_cache *c, long page_size)
{
	return c->num_slabs * c->pagesperslab * page_size;
}

const struct slab_cache *slabinfo_find(const struct slabinfo *s,
				       const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->c[i].name, name))
			return &s->c[i];
	return NULL;
}

void slabinfo_release(struct slabinfo *s)
{
	free(s->c);
	s->c = NULL;
	s->n = s->alloc = 0;
}

json_object *slabinfo_json(const struct slabinfo *si, long page_size)
{
	json_object *o = json_object_new_object();
	json_object *caches = json_object_new_object();
	long long total = 0;

	for (size_t i = 0; i < si->n; i++) {
		const struct slab_cache *c = &si->c[i];
		json_object *e = json_object_new_object();
		long long kb = slab_cache_bytes(c, page_size) / 1024;

		json_object_object_add(e, "active_objs", json_object_new_int64(c->active_objs));
		json_object_object_add(e, "num_objs", json_object_new_int64(c->num_objs));
		json_object_object_add(e, "objsize", json_object_new_int64(c->objsize));
		json_object_object_add(e, "objperslab", json_object_new_int64(c->objperslab));
		json_object_object_add(e, "pagesperslab", json_object_new_int64(c->pagesperslab));
		json_object_object_add(e, "num_slabs", json_object_new_int64(c->num_slabs));
		json_object_object_add(e, "kb", json_object_new_int64(kb));
		json_object_object_add(caches, c->name, e);
		total += kb;
	}
	json_object_object_add(o, "total_kb", json_object_new_int64(total));
	json_object_object_add(o, "caches", caches);
	return o;
}
