/* SPDX-License-Identifier: Apache-2.0 */
/*
 * xalloc: allocation that cannot fail, for every module.
 *
 * A harness that cannot allocate a few kilobytes has nothing sensible left
 * to do, so these never return NULL: on failure (or a size that overflows)
 * they write "scaletest: fatal: ..." to stderr and abort().  They depend on
 * nothing else in lib/, so strbuf can use them and util can re-export them.
 *
 *	struct item *v = NULL;
 *	size_t n = 0, alloc = 0;
 *	ALLOC_GROW(v, n + 1, alloc);	// v has room for n + 1 items
 *	v[n++] = item;
 *	char *copy = xstrdup(name);	// free() both when done
 *
 * xalloc_fatal() is the same exit for other impossible states (a strbuf
 * used beyond its end): it never returns.
 */
#ifndef SCALETEST_XALLOC_H
#define SCALETEST_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Grow arr (of *alloc elements of size sz) to hold at least n; returns it. */
void *xgrow(void *arr, size_t *alloc, size_t n, size_t sz);
#define ALLOC_GROW(arr, n, alloc) \
	((arr) = xgrow((arr), &(alloc), (n), sizeof(*(arr))))

/* "scaletest: fatal: <what><detail>\n" on stderr, then abort(). */
void xalloc_fatal(const char *what, const char *detail)
	__attribute__((noreturn));

#endif
