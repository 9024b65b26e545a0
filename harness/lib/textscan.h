/* SPDX-License-Identifier: Apache-2.0 */
/*
 * textscan: walking a buffer line by line, for the parsers.
 *
 *	struct line_iter it;
 *	line_iter_init(&it, buf, len);
 *	while (line_next(&it)) {
 *		use(it.line, it.len, it.lineno);	// no '\n'; not NUL-terminated
 *	}
 *
 * Parsers of "NAME VALUE" lines that want each line as a C string:
 *
 *	struct strbuf line = STRBUF_INIT;
 *	while (line_next_copy(&it, &line)) {	// empty lines skipped
 *		if (line_has_nul(line.buf, line.len)) ...
 *		split_fields(line.buf, f, 2) ...
 *	}
 *	sb_release(&line);
 *
 * A final line without '\n' is returned too.  A NUL byte inside the buffer
 * is reported by line_has_nul() so parsers can reject binary garbage.
 */
#ifndef SCALETEST_TEXTSCAN_H
#define SCALETEST_TEXTSCAN_H

#include <stddef.h>

#include "lib/strbuf.h"

struct line_iter {
	const char *p, *end;
	const char *line;
	size_t len;
	unsigned lineno;
};

void line_iter_init(struct line_iter *it, const char *buf, size_t len);
int line_next(struct line_iter *it);
/* The next line that is not empty, copied into line (NUL-terminated; a NUL
 * byte inside stays, for line_has_nul): 1, or 0 at the end.  it->line,
 * it->len and it->lineno are that line's, as after line_next(). */
int line_next_copy(struct line_iter *it, struct strbuf *line);
int line_has_nul(const char *line, size_t len);

/* Split a line on runs of blanks into at most max fields (pointers into a
 * caller's NUL-terminated copy, modified in place).  Returns the count,
 * or max + 1 when there were more. */
int split_fields(char *s, char **fields, int max);

/* Which of n names repeat an earlier one: rep[i] = 1 when names[i] equals
 * names[j] for some j < i, else 0.  Sorts, O(n log n): the parsers'
 * duplicate checks on guest input of any length. */
void mark_repeats(const char *const *names, size_t n, unsigned char *rep);

/* Records made of sections (monitor samples, sweep points): finds the line
 * "@@@ NAME" and returns the start of the lines after it, setting *end to
 * the next line starting "@@@ " (or the buffer's end); NULL if there is
 * no such section. */
const char *text_section(const char *buf, size_t len, const char *name,
			 const char **end);

#endif
