#include "lib/textscan.h"

#include <string.h>

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
