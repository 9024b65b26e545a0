/* SPDX-License-Identifier: Apache-2.0 */
/*
 * strvec: a NULL-terminated, growable array of owned strings; the argv
 * builder (git's strvec).
 *
 *	struct strvec av = STRVEC_INIT;
 *	strvec_push(&av, "qemu-system-x86_64");
 *	strvec_pushf(&av, "%lld", mem);
 *	child.argv = (const char *const *)av.v;	// av.v[av.n] == NULL
 *	strvec_clear(&av);
 */
#ifndef SCALETEST_STRVEC_H
#define SCALETEST_STRVEC_H

#include <stddef.h>

struct strvec {
	char **v;
	size_t n, alloc;
};

extern char *strvec_empty[];
#define STRVEC_INIT { strvec_empty, 0, 0 }

void strvec_init(struct strvec *sv);
void strvec_push(struct strvec *sv, const char *s);
void strvec_pushf(struct strvec *sv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Index of s, or -1. */
long strvec_find(const struct strvec *sv, const char *s);
void strvec_clear(struct strvec *sv);

#endif
