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
	if (errno) {
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

int meminfo_parse(struct meminfo *m, const char *buf, size_t len,
		  struct strbuf *err)
{
	struct line_iter it;
	struct meminfo out = MEMINFO_INIT;

	line_iter_init(&it, buf, len);
	while (line_next(&it)) {
		struct meminfo_field f;
		const char *why = NULL;

		if (!it.len && it.p == it.end)
			break;
		if (line_has_nul(it.line, it.len))
			why = "NUL byte";
		else if (parse_line(&f, it.line, it.len, &why) == 0 &&
			 meminfo_find(&out, f.name))
			why = "duplicate field";
		if (why) {
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
