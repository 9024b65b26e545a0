// SPDX-License-Identifier: Apache-2.0
#include "lib/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void xalloc_fatal(const char *what, const char *detail)
{
	/* No stdio and no allocation: this runs when memory is gone. */
	const char *parts[] = { "scaletest: fatal: ", what, detail ? detail : "", "\n" };

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (write(2, parts[i], strlen(parts[i])) < 0)
			break;
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		xalloc_fatal("out of memory", NULL);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		xalloc_fatal("out of memory", NULL);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		xalloc_fatal("out of memory", NULL);
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void *xgrow(void *arr, size_t *alloc, size_t n, size_t sz)
{
	size_t a = *alloc;

	if (n <= a)
		return arr;
	a = a ? a : 8;
	while (a < n) {
		if (a > SIZE_MAX / 2)
			xalloc_fatal("array size overflow", NULL);
		a *= 2;
	}
	if (a > SIZE_MAX / sz)
		xalloc_fatal("array size overflow", NULL);
	arr = xrealloc(arr, a * sz);
	*alloc = a;
	return arr;
}
