// SPDX-License-Identifier: Apache-2.0
#include "lib/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/xalloc.h"

char strbuf_empty[1];

void sb_init(struct strbuf *sb)
{
	sb->buf = strbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
}

void sb_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	sb_init(sb);
}

void sb_reset(struct strbuf *sb)
{
	if (sb->alloc)
		sb_setlen(sb, 0);
}

void sb_grow(struct strbuf *sb, size_t n)
{
	size_t need;

	if (n > SIZE_MAX - sb->len - 1)
		xalloc_fatal("strbuf: size overflow", NULL);
	need = sb->len + n + 1;
	if (need <= sb->alloc)
		return;
	size_t nalloc = sb->alloc ? sb->alloc : 64;
	while (nalloc < need)
		nalloc = nalloc < SIZE_MAX / 2 ? nalloc * 2 : need;
	if (sb->alloc) {
		sb->buf = xrealloc(sb->buf, nalloc);
	} else {
		sb->buf = xmalloc(nalloc);
		sb->buf[0] = '\0';
	}
	sb->alloc = nalloc;
}

void sb_add(struct strbuf *sb, const void *data, size_t n)
{
	if (!n)
		return;
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, data, n);
	sb_setlen(sb, sb->len + n);
}

void sb_adds(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_addch(struct strbuf *sb, int c)
{
	sb_grow(sb, 1);
	sb->buf[sb->len] = (char)c;
	sb_setlen(sb, sb->len + 1);
}

void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	sb_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		xalloc_fatal("strbuf: bad format ", fmt);
	if ((size_t)n >= sb->alloc - sb->len) {
		sb_grow(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
		if (n < 0 || (size_t)n >= sb->alloc - sb->len)
			xalloc_fatal("strbuf: format changed size: ", fmt);
	}
	sb_setlen(sb, sb->len + (size_t)n);
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

void sb_consume(struct strbuf *sb, size_t n)
{
	if (n > sb->len)
		xalloc_fatal("strbuf: consume past end", NULL);
	if (!n)
		return;
	memmove(sb->buf, sb->buf + n, sb->len - n);
	sb_setlen(sb, sb->len - n);
}

void sb_setlen(struct strbuf *sb, size_t n)
{
	if (n > (sb->alloc ? sb->alloc - 1 : 0))
		xalloc_fatal("strbuf: setlen beyond allocation", NULL);
	sb->len = n;
	sb->buf[n] = '\0';
}

char *sb_detach(struct strbuf *sb, size_t *len)
{
	char *r;

	sb_grow(sb, 0);
	r = sb->buf;
	if (len)
		*len = sb->len;
	sb_init(sb);
	return r;
}

int sb_read_fd_max(struct strbuf *sb, int fd, size_t max)
{
	size_t start = sb->len;

	for (;;) {
		ssize_t n;

		if (sb->len - start > max) {
			sb_setlen(sb, start);
			errno = EFBIG;
			return -1;
		}
		sb_grow(sb, 8192);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		sb_setlen(sb, sb->len + (size_t)n);
	}
}

int sb_read_file(struct strbuf *sb, const char *path)
{
	return sb_read_file_max(sb, path, SB_READ_MAX);
}

int sb_read_file_max(struct strbuf *sb, const char *path, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	int r, e;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		st.st_mode = 0;
	if (!S_ISREG(st.st_mode) || (uintmax_t)st.st_size > max) {
		e = errno;
		if (!S_ISREG(st.st_mode))
			e = st.st_mode ? EINVAL : e;
		else if ((uintmax_t)st.st_size > max)
			e = EFBIG;
		close(fd);
		errno = e;
		return -1;
	}
	r = sb_read_fd_max(sb, fd, max);
	e = errno;
	close(fd);
	errno = e;
	return r;
}

const char *sb_read_strerror(int e)
{
	if (e == EINVAL)
		return "not a regular file";
	if (e == EFBIG)
		return "larger than the harness reads for such a file";
	return strerror(e);
}
