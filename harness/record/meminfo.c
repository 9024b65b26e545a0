// SPDX-License-Identifier: Apache-2.0
#include "record/meminfo.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/textscan.h"
#include "lib/util.h"

static int parse_line(struct meminfo_field *f, const char *line, size_t len,
		      const char **why)
{
	const char *colon = memchr(line, ':', len);
	const char *p, *end = line + len;
	size_t nlen;
	char num[32];
	size_t dl = 0;

	if (!colon) {
		*why = "missing ':'";
		return -1;
	}
	nlen = (size_t)(colon - line);
	if (!nlen || nlen >= MEMINFO_NAME_MAX) {
		*why = nlen ? "name too long" : "empty name";
		return -1;
	}
	for (p = line; p < colon; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '(' && *p != ')') {
			*why = "bad character in name";
			return -1;
		}
	memcpy(f->name, line, nlen);
	f->name[nlen] = '\0';
	for (p = colon + 1; p < end && *p == ' '; p++)
		;
	while (p < end && isdigit((unsigned char)*p) && dl < sizeof(num) - 1)
		num[dl++] = *p++;
	num[dl] = '\0';
	if (!dl) {
		*why = "missing number";
		return -1;
	}
	if (p < end && isdigit((unsigned char)*p)) {
		*why = "number too long";
		return -1;
	}
	errno = 0;
	f->value = strtoll(num, NULL, 10);
	if (errno || f->value > MEMINFO_VALUE_MAX) {
		*why = "number out of range";
		return -1;
	}
	f->is_kb = 0;
	if ((size_t)(end - p) == 3 && !memcmp(p, " kB", 3)) {
		f->is_kb = 1;
		p += 3;
	}
	while (p < end && *p == ' ')
		p++;
	if (p != end) {
		*why = "trailing garbage";
		return -1;
	}
	return 0;
}

/* The index of the first of fields [0, n) whose name an earlier one has,
 * or n. */
static size_t first_duplicate(const struct meminfo *m, size_t n)
{
	const char **names = xmalloc((n + 1) * sizeof(*names));
	unsigned char *rep = xmalloc(n + 1);
	size_t i;

	for (i = 0; i < n; i++)
		names[i] = m->f[i].name;
	mark_repeats(names, n, rep);
	for (i = 0; i < n && !rep[i]; i++)
		;
	free(names);
	free(rep);
	return i;
}

int meminfo_parse(struct meminfo *m, const char *buf, size_t len,
		  struct strbuf *err)
{
	struct line_iter it;
	struct meminfo out = MEMINFO_INIT;
	size_t dup;

	line_iter_init(&it, buf, len);
	while (line_next(&it)) {
		struct meminfo_field f;
		const char *why = NULL;

		if (!it.len && it.p == it.end)
			break;
		if (line_has_nul(it.line, it.len))
			why = "NUL byte";
		else if (out.n >= MEMINFO_MAX_FIELDS)
			why = "more fields than /proc/meminfo has (MEMINFO_MAX_FIELDS)";
		else
			(void)parse_line(&f, it.line, it.len, &why);
		if (why) {
			/* Field i is line i + 1: a duplicate before this
			 * line is the first error. */
			if ((dup = first_duplicate(&out, out.n)) < out.n)
				sb_addf(err, "line %zu: duplicate field", dup + 1);
			else
				sb_addf(err, "line %u: %s", it.lineno, why);
			meminfo_release(&out);
			return -1;
		}
		ALLOC_GROW(out.f, out.n + 1, out.alloc);
		out.f[out.n++] = f;
	}
	if (!out.n) {
		sb_adds(err, "no fields");
		return -1;
	}
	if ((dup = first_duplicate(&out, out.n)) < out.n) {
		sb_addf(err, "line %zu: duplicate field", dup + 1);
		meminfo_release(&out);
		return -1;
	}
	meminfo_release(m);
	*m = out;
	return 0;
}

const struct meminfo_field *meminfo_find(const struct meminfo *m,
					 const char *name)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->f[i].name, name))
			return &m->f[i];
	return NULL;
}

long long meminfo_get(const struct meminfo *m, const char *name)
{
	const struct meminfo_field *f = meminfo_find(m, name);

	return f ? f->value : -1;
}

void meminfo_release(struct meminfo *m)
{
	free(m->f);
	m->f = NULL;
	m->n = m->alloc = 0;
}

json_object *meminfo_json(const struct meminfo *m)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; i < m->n; i++)
		json_object_object_add(o, m->f[i].name,
				       json_object_new_int64(m->f[i].value));
	return o;
}
