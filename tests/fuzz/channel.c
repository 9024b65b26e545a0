// SPDX-License-Identifier: Apache-2.0
/*
 * channel_feed: the framed record stream from the guest, fed in pieces.
 *
 * The first two bytes seed the sizes of the pieces; the rest is the
 * stream.  The stream is fed twice, whole and in pieces, and both must
 * give the same records and rejections in the same order: the channel
 * promises the same answer for any split.
 */
#include "fuzz.h"

#include <zlib.h>

#include "record/channel.h"

static void on_record(void *ctx, const struct record *r)
{
	struct strbuf *log = ctx;

	FUZZ_ASSERT(r->len <= CHANNEL_MAX_PAYLOAD);
	sb_addf(log, "record %lu %s %s %zu %08lx\n", r->seq, r->type, r->phase,
		r->len, crc32(0L, (const unsigned char *)r->payload, (uInt)r->len));
}

static void on_reject(void *ctx, const char *reason)
{
	struct strbuf *log = ctx;

	for (const char *p = reason; *p; p++)
		FUZZ_ASSERT((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f);
	sb_addf(log, "reject %s\n", reason);
}

static void run(const char *buf, size_t len, unsigned seed, struct strbuf *log)
{
	struct channel ch;
	size_t off = 0;

	channel_init(&ch, on_record, on_reject, log);
	while (off < len) {
		size_t n = len - off;

		if (seed) {
			seed = seed * 1103515245u + 12345u;
			n = 1 + (seed >> 16) % 97;
			if (n > len - off)
				n = len - off;
		}
		channel_feed(&ch, buf + off, n);
		off += n;
	}
	channel_finish(&ch);
	channel_release(&ch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf whole = STRBUF_INIT, pieces = STRBUF_INIT;
	unsigned seed;

	if (size < 2)
		return 0;
	seed = (unsigned)data[0] << 8 | data[1] | 1u;
	run((const char *)data + 2, size - 2, 0, &whole);
	run((const char *)data + 2, size - 2, seed, &pieces);
	if (whole.len != pieces.len || memcmp(whole.buf, pieces.buf, whole.len)) {
		fprintf(stderr, "whole:\n%s\npieces:\n%s\n", whole.buf, pieces.buf);
		FUZZ_ASSERT(!"the same stream in pieces gave another answer");
	}
	sb_release(&whole);
	sb_release(&pieces);
	return 0;
}
