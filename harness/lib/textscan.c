// SPDX-License-Identifier: Apache-2.0
#include "lib/textscan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

void line_iter_init(struct line_iter *it, const char *buf, size_t len)
{
	it->p = buf;
	it->end = buf + len;
	it->line = NULL;
	it->len = 0;
	it->lineno = 0;
}

int line_next(struct line_iter *it)
{
	const char *nl;

	if (it->p >= it->end)
		return 0;
	nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	it->line = it->p;
	it->len = nl ? (size_t)(nl - it->p) : (size_t)(it->end - it->p);
	it->p = nl ? nl + 1 : it->end;
	it->lineno++;
	return 1;
}

int line_next_copy(struct line_iter *it, struct strbuf *line)
{
	while (line_next(it)) {
		if (!it->len)
			continue;
		sb_reset(line);
		sb_add(line, it->line, it->len);
		return 1;
	}
	return 0;
}

int line_has_nul(const char *line, size_t len)
{
	return memchr(line, '\0', len) != NULL;
}

int split_fields(char *s, char **fields, int max)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		fields[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

struct named {
	const char *name;
	size_t i;
};

static int cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

void mark_repeats(const char *const *names, size_t n, unsigned char *rep)
{
	struct named *s;

	if (!n)
		return;
	s = xmalloc(n * sizeof(*s));
	for (size_t i = 0; i < n; i++) {
		s[i].name = names[i];
		s[i].i = i;
		rep[i] = 0;
	}
	qsort(s, n, sizeof(*s), cmp_named);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(s[i - 1].name, s[i].name))
			rep[s[i].i] = 1;
	free(s);
}

const char *text_section(const char *buf, size_t len, const char *name,
			 const char **end)
{
	char head[32];
	int hl = snprintf(head, sizeof(head), "@@@ %s\n", name);
	const char *p = buf, *e = buf + len;

	if (hl < 0 || (size_t)hl >= sizeof(head))
		return NULL;
	while (p < e) {
		if ((size_t)(e - p) >= (size_t)hl && !memcmp(p, head, (size_t)hl)) {
			const char *body = p + hl, *q = body;
			while (q < e) {
				if ((size_t)(e - q) >= 4 && !memcmp(q, "@@@ ", 4))
					break;
				const char *nl = memchr(q, '\n', (size_t)(e - q));
				q = nl ? nl + 1 : e;
			}
			*end = q;
			return body;
		}
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		p = nl ? nl + 1 : e;
	}
	return NULL;
}
