// SPDX-License-Identifier: Apache-2.0
#include "record/channel.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "lib/util.h"

enum { HUNT, FRAME };

static const char MAGIC[] = "@@ST1 ";
#define MAGIC_LEN (sizeof(MAGIC) - 1)
#define HEADER_MAX 128

/* The first MAGIC in b[0..len), or NULL: memmem's answer, found by
 * memchr for its first byte and a compare, which read no further than the
 * match.  (Under AddressSanitizer, memmem's interceptor checks all len
 * bytes on every call, whatever it finds: hunting through 4 MiB of bad
 * headers inside a 16 MiB claim took 50 s there, 0.1 s without.) */
static const char *find_magic(const char *b, size_t len)
{
	const char *end = b + len;

	while ((b = memchr(b, MAGIC[0], (size_t)(end - b)))) {
		if ((size_t)(end - b) < MAGIC_LEN)
			return NULL;
		if (!memcmp(b, MAGIC, MAGIC_LEN))
			return b;
		b++;
	}
	return NULL;
}

void channel_init(struct channel *ch, record_fn on_record, reject_fn on_reject,
		  void *ctx)
{
	memset(ch, 0, sizeof(*ch));
	ch->on_record = on_record;
	ch->on_reject = on_reject;
	ch->ctx = ctx;
	ch->state = HUNT;
	sb_init(&ch->buf);
}

void channel_release(struct channel *ch)
{
	sb_release(&ch->buf);
}

static void reject(struct channel *ch, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void reject(struct channel *ch, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* Reasons quote guest bytes: keep them printable. */
	for (char *p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '?';
	ch->rejects++;
	if (ch->on_reject)
		ch->on_reject(ch->ctx, msg);
}

static void flush_stray(struct channel *ch)
{
	if (ch->stray) {
		reject(ch, "stray bytes: %zu outside any record", ch->stray);
		ch->stray = 0;
	}
}

/* The pending bytes start at buf.buf + off: consuming moves off, not the
 * bytes, so skipping many bad headers in a large buffer stays linear.
 * channel_feed() moves the rest to the front only when what was consumed
 * is at least as long as what is left (each byte is moved at most once
 * per time it is consumed). */
static const char *pending(const struct channel *ch)
{
	return ch->buf.buf + ch->off;
}

static size_t pending_len(const struct channel *ch)
{
	return ch->buf.len - ch->off;
}

static void consume(struct channel *ch, size_t n)
{
	ch->off += n;
	if (ch->off == ch->buf.len) {
		sb_reset(&ch->buf);
		ch->off = 0;
	}
}

static int token_ok(const char *s, size_t max, int allow_digits_dash)
{
	size_t n = strlen(s);

	if (!n || n >= max)
		return 0;
	for (; *s; s++) {
		if (*s >= 'a' && *s <= 'z')
			continue;
		if (allow_digits_dash && ((*s >= '0' && *s <= '9') || *s == '-'))
			continue;
		return 0;
	}
	return 1;
}

static int dec_ok(const char *s, unsigned long long max, unsigned long long *out)
{
	unsigned long long v = 0;

	if (!*s || strlen(s) > 10 || (s[0] == '0' && s[1]))
		return 0;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return 0;
		v = v * 10 + (unsigned)(*s - '0');
	}
	if (v > max)
		return 0;
	*out = v;
	return 1;
}

/* Parse "@@ST1 seq type phase len crc" (without '\n'); 0 or -1. */
static int parse_header(struct channel *ch, const char *line, size_t len)
{
	char tmp[HEADER_MAX + 1];
	char *f[6], *s;
	int n = 0;
	unsigned long long seq, plen, crc = 0;

	if (len > HEADER_MAX || memchr(line, '\0', len))
		return -1;
	memcpy(tmp, line + MAGIC_LEN, len - MAGIC_LEN);
	tmp[len - MAGIC_LEN] = '\0';
	for (s = tmp; n < 6; ) {
		f[n++] = s;
		s = strchr(s, ' ');
		if (!s)
			break;
		*s++ = '\0';
	}
	if (n != 5 || s)
		return -1;
	if (!dec_ok(f[0], 0xffffffffull, &seq) || seq == 0 ||
	    !token_ok(f[1], CHANNEL_TYPE_MAX, 0) ||
	    !token_ok(f[2], CHANNEL_PHASE_MAX, 1) ||
	    !dec_ok(f[3], CHANNEL_MAX_PAYLOAD, &plen) || strlen(f[4]) != 8)
		return -1;
	for (s = f[4]; *s; s++) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else
			return -1;
		crc = crc * 16 + (unsigned)d;
	}
	ch->cur.seq = (unsigned long)seq;
	memcpy(ch->cur.type, f[1], strlen(f[1]) + 1);
	memcpy(ch->cur.phase, f[2], strlen(f[2]) + 1);
	ch->cur.len = (size_t)plen;
	ch->crc = (unsigned long)crc;
	return 0;
}

/* Hunting: find a header line.  Returns 1 if progress was made. */
static int hunt(struct channel *ch)
{
	const char *b = pending(ch);
	size_t len = pending_len(ch);
	const char *m = find_magic(b, len);
	const char *nl;

	if (!m) {
		/* Keep a tail that could be the start of the magic. */
		size_t keep = len < MAGIC_LEN - 1 ? len : MAGIC_LEN - 1;
		while (keep && memcmp(b + len - keep, MAGIC, keep))
			keep--;
		if (len - keep) {
			ch->stray += len - keep;
			consume(ch, len - keep);
		}
		return 0;
	}
	if (m > b) {
		ch->stray += (size_t)(m - b);
		consume(ch, (size_t)(m - b));
		return 1;
	}
	nl = memchr(b, '\n', len < HEADER_MAX + 1 ? len : HEADER_MAX + 1);
	if (!nl) {
		if (len <= HEADER_MAX)
			return 0;	/* wait for the rest of the header */
		flush_stray(ch);
		reject(ch, "bad header: no end of line within %d bytes", HEADER_MAX);
		consume(ch, 1);
		return 1;
	}
	flush_stray(ch);
	if (parse_header(ch, b, (size_t)(nl - b)) < 0) {
		reject(ch, "bad header: '%.*s'", (int)(nl - b) > 80 ? 80 : (int)(nl - b), b);
		/* Skip the bad line, or up to a header that starts inside it. */
		const char *next = find_magic(b + 1, (size_t)(nl - b));
		consume(ch, next ? (size_t)(next - b) : (size_t)(nl - b) + 1);
		return 1;
	}
	ch->state = FRAME;
	return 1;
}

/* In a frame: header line at buf start; wait for payload and trailer. */
static int frame(struct channel *ch)
{
	const char *b = pending(ch);
	size_t hlen = (size_t)((const char *)memchr(b, '\n', pending_len(ch)) - b) + 1;
	char trailer[32];
	int tlen = snprintf(trailer, sizeof(trailer), "@@END %lu\n", ch->cur.seq);
	size_t need = hlen + ch->cur.len + (size_t)tlen;
	size_t have = pending_len(ch);
	size_t tcmp;

	/* Check the trailer as far as it has arrived, to fail early. */
	if (have <= hlen + ch->cur.len)
		return 0;
	tcmp = have - hlen - ch->cur.len;
	if (tcmp > (size_t)tlen)
		tcmp = (size_t)tlen;
	if (memcmp(b + hlen + ch->cur.len, trailer, tcmp)) {
		reject(ch, "bad trailer: record %lu (%s %s, %zu bytes) cut short or corrupted",
		       ch->cur.seq, ch->cur.type, ch->cur.phase, ch->cur.len);
		/* Hunt again from just after the header: a new record may
		 * have started inside what we took for the payload. */
		consume(ch, hlen);
		ch->state = HUNT;
		return 1;
	}
	if (have < need)
		return 0;

	unsigned long crc = crc32(0L, (const unsigned char *)b + hlen,
				  (uInt)ch->cur.len);
	if (crc != ch->crc) {
		reject(ch, "checksum mismatch: record %lu (%s %s): want %08lx, got %08lx",
		       ch->cur.seq, ch->cur.type, ch->cur.phase, ch->crc, crc);
	} else if (ch->cur.seq <= ch->last_seq) {
		reject(ch, "sequence error: record %lu after %lu",
		       ch->cur.seq, ch->last_seq);
	} else {
		if (ch->cur.seq != ch->last_seq + 1)
			reject(ch, "sequence gap: records %lu..%lu lost",
			       ch->last_seq + 1, ch->cur.seq - 1);
		ch->last_seq = ch->cur.seq;
		ch->cur.payload = b + hlen;
		ch->records++;
		if (ch->on_record)
			ch->on_record(ch->ctx, &ch->cur);
	}
	consume(ch, need);
	ch->state = HUNT;
	return 1;
}

void channel_feed(struct channel *ch, const char *data, size_t n)
{
	if (ch->off && ch->off >= ch->buf.len - ch->off) {
		ch->moved += ch->buf.len - ch->off;
		sb_consume(&ch->buf, ch->off);
		ch->off = 0;
	}
	sb_add(&ch->buf, data, n);
	for (;;) {
		int progress = ch->state == HUNT ? hunt(ch) : frame(ch);
		if (!progress || !pending_len(ch))
			break;
	}
}

void channel_finish(struct channel *ch)
{
	/* A frame still open at EOF claimed more bytes than came: reject it
	 * and hunt again after its header, where whole records may wait. */
	while (ch->state == FRAME) {
		const char *b = pending(ch);
		const char *nl = memchr(b, '\n', pending_len(ch));
		size_t hlen = (size_t)(nl - b) + 1;
		size_t got = pending_len(ch) - hlen;

		reject(ch, "truncated record: %lu (%s %s) has %zu of %zu payload bytes",
		       ch->cur.seq, ch->cur.type, ch->cur.phase,
		       got < ch->cur.len ? got : ch->cur.len, ch->cur.len);
		/* The bytes it claimed are its own, not stray: skip to the
		 * next header inside them, if any. */
		const char *next = find_magic(b + hlen, got);
		consume(ch, next ? (size_t)(next - b) : pending_len(ch));
		ch->state = HUNT;
		channel_feed(ch, "", 0);
	}
	if (pending_len(ch) >= MAGIC_LEN && !memcmp(pending(ch), MAGIC, MAGIC_LEN)) {
		reject(ch, "truncated record: header cut off");
	} else {
		ch->stray += pending_len(ch);
	}
	flush_stray(ch);
	sb_reset(&ch->buf);
	ch->off = 0;
	ch->state = HUNT;
}

void channel_frame(struct strbuf *out, unsigned long seq, const char *type,
		   const char *phase, const char *payload, size_t len)
{
	unsigned long crc = crc32(0L, (const unsigned char *)payload, (uInt)len);

	sb_addf(out, "@@ST1 %lu %s %s %zu %08lx\n", seq, type, phase, len, crc);
	sb_add(out, payload, len);
	sb_addf(out, "@@END %lu\n", seq);
}
