/* SPDX-License-Identifier: Apache-2.0 */
/*
 * crash_re: the patterns of the crash rules (crash_rules.h), as syzkaller
 * writes them: POSIX extended regular expressions (regcomp) with (?:...)
 * for a group that is no argument, compiled on first use (thread-safe);
 * one without any special character is looked for as a plain string, and
 * a regex only runs on a line that holds the longest plain run every match
 * must hold (as RE2's prefilter does).
 *
 *	static struct re re = { .src = "BUG: KASAN: ([-a-z]+) in " };	// or R("...")
 *	regmatch_t m[RE_GROUPS + 1];
 *	if (crash_re_find(&re, s, len, m))	// m[1..re.ncap]: the arguments
 *		...;
 *	crash_re_replace_all(&re, "${1}ADDR", &title);	// every match replaced
 */
#ifndef SCALETEST_CRASH_RE_H
#define SCALETEST_CRASH_RE_H

#include <regex.h>
#include <stddef.h>

#include "lib/strbuf.h"

#define RE_GROUPS 24

struct re {
	const char *src;
	int icase;
	int state;			/* 0 not compiled, 1 regex, 2 plain, -1 broken */
	regex_t rx;
	unsigned char ncap;		/* the arguments (capturing groups) */
	unsigned char cap[RE_GROUPS];	/* their POSIX group numbers */
	char need[32];			/* a string every match holds, or "" */
};
#define R(s) (&(struct re){ .src = (s) })
#define RI(s) (&(struct re){ .src = (s), .icase = 1 })

/* Compile re if it is not yet: 1 a regex, 2 a plain string, -1 broken. */
int crash_re_ready(struct re *re);
/* re in s[0..len) (s[len] is '\0'): 1 and, when m is not NULL, m[0] the
 * match and m[1..ncap] the arguments (rm_so -1: the group took no part). */
int crash_re_find(struct re *re, const char *s, size_t len, regmatch_t *m);
/* Whether any of the NULL-ended res is in s. */
int crash_re_any(struct re *const *res, const char *s, size_t len);
/* Every match of re in s, left to right, replaced by with ("${N}" the Nth
 * argument); 1 if s changed. */
int crash_re_replace_all(struct re *re, const char *with, struct strbuf *s);

#endif
