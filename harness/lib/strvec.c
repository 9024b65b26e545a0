// SPDX-License-Identifier: Apache-2.0
#include "lib/strvec.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

char *strvec_empty[1];

void strvec_init(struct strvec *sv)
{
	sv->v = strvec_empty;
	sv->n = sv->alloc = 0;
}

static void push_owned(struct strvec *sv, char *s)
{
	if (sv->v == strvec_empty)
		sv->v = NULL;
	ALLOC_GROW(sv->v, sv->n + 2, sv->alloc);
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
}

void strvec_push(struct strvec *sv, const char *s)
{
	push_owned(sv, xstrdup(s));
}

void strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	push_owned(sv, sb_detach(&sb, NULL));
}

long strvec_find(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return (long)i;
	return -1;
}

void strvec_clear(struct strvec *sv)
{
	if (sv->v != strvec_empty) {
		for (size_t i = 0; i < sv->n; i++)
			free(sv->v[i]);
		free(sv->v);
	}
	strvec_init(sv);
}
