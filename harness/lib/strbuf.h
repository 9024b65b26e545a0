/* SPDX-License-Identifier: Apache-2.0 */
/*
 * strbuf: a growable, NUL-terminated byte buffer.
 *
 * Invariants (after sb_init and until sb_release):
 *   - sb->buf is never NULL; it points at sb->len bytes followed by '\0';
 *   - sb->len < sb->alloc, or sb->alloc == 0 and sb->buf is a static "";
 *   - the buffer may hold NUL bytes: use sb->len, not strlen().
 *
 * Calling sequence:
 *
 *	struct strbuf sb = STRBUF_INIT;
 *	sb_addf(&sb, "%s=%d\n", key, value);
 *	sb_add(&sb, bytes, n);
 *	use(sb.buf, sb.len);
 *	sb_reset(&sb);			// len = 0, keeps memory
 *	sb_release(&sb);		// frees; sb is STRBUF_INIT again
 *
 * Allocation failure aborts the program (xalloc.h), and so does a call that
 * would break the invariants (a bug): a harness that cannot allocate a few
 * kilobytes has nothing sensible left to do.  strbuf depends on xalloc.h
 * only, so every other module can use it.
 */
#ifndef SCALETEST_STRBUF_H
#define SCALETEST_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

extern char strbuf_empty[];
#define STRBUF_INIT { strbuf_empty, 0, 0 }

void sb_init(struct strbuf *sb);
void sb_release(struct strbuf *sb);
void sb_reset(struct strbuf *sb);
/* Make room for at least n more bytes (plus the terminating NUL). */
void sb_grow(struct strbuf *sb, size_t n);
void sb_add(struct strbuf *sb, const void *data, size_t n);
void sb_adds(struct strbuf *sb, const char *s);
void sb_addch(struct strbuf *sb, int c);
void sb_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Drop the first n bytes (n <= len). */
void sb_consume(struct strbuf *sb, size_t n);
/* Shorten to n bytes (n <= len). */
void sb_setlen(struct strbuf *sb, size_t n);
/* Take ownership of the buffer; sb becomes STRBUF_INIT. */
char *sb_detach(struct strbuf *sb, size_t *len);

/*
 * Append everything readable from fd / the file at path: 0, or -1 with
 * errno.  Every file the harness reads is bounded: sb_read_file() takes a
 * regular file (a device, FIFO or directory is EINVAL: /dev/zero named as
 * a result.json must not fill memory) of at most SB_READ_MAX bytes
 * (EFBIG); sb_read_file_max() sets the bound for inputs that are smaller
 * by nature (a memo, a key.json).  sb_read_fd_max() stops with EFBIG once
 * more than max bytes came.
 */
#define SB_READ_MAX ((size_t)1 << 30)
int sb_read_fd_max(struct strbuf *sb, int fd, size_t max);
int sb_read_file(struct strbuf *sb, const char *path);
int sb_read_file_max(struct strbuf *sb, const char *path, size_t max);
/* strerror() for a failed read, saying what EINVAL and EFBIG mean here. */
const char *sb_read_strerror(int e);

#endif
