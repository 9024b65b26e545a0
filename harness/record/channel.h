/* SPDX-License-Identifier: Apache-2.0 */
/*
 * channel: the framed, checksummed record stream from the guest.
 *
 * The guest (initramfs/lib/channel.sh, emit()) writes records on a virtio-serial
 * port, or its second serial port (vm.h, guest.h):
 *
 *	@@ST1 <seq> <type> <phase> <len> <crc32>\n
 *	<len bytes of payload>
 *	@@END <seq>\n
 *
 * seq counts from 1; type is [a-z]{1,15}; phase is [a-z0-9-]{1,31}; len is
 * decimal, at most CHANNEL_MAX_PAYLOAD; crc32 is 8 lowercase hex digits of
 * zlib's CRC-32 of the payload.
 *
 * The parser is fed whatever bytes arrive, in pieces of any size, and calls
 * back once per complete, verified record, or once per rejection with a
 * reason ("bad header", "checksum mismatch", "bad trailer", "stray bytes",
 * "sequence gap", "sequence error", "truncated record").  A record after a
 * gap is still delivered; one whose seq goes backwards is not.  When input
 * ends inside a frame, channel_finish() rejects that frame and still
 * delivers any complete record that follows its header.  Nothing the guest
 * sends can make it
 * crash or allocate without bound: a rejected frame is skipped and the
 * parser hunts for the next header.
 *
 *	struct channel ch;
 *	channel_init(&ch, on_record, on_reject, ctx);
 *	while ((n = read(fd, buf, sizeof(buf))) > 0)
 *		channel_feed(&ch, buf, n);
 *	channel_finish(&ch);		// reports a record cut off by EOF
 *	channel_release(&ch);
 */
#ifndef SCALETEST_CHANNEL_H
#define SCALETEST_CHANNEL_H

#include <stddef.h>

#include "lib/strbuf.h"

#define CHANNEL_MAX_PAYLOAD (16u << 20)
#define CHANNEL_TYPE_MAX 16
#define CHANNEL_PHASE_MAX 32

struct record {
	unsigned long seq;
	char type[CHANNEL_TYPE_MAX];
	char phase[CHANNEL_PHASE_MAX];
	const char *payload;	/* valid during the callback only */
	size_t len;
};

typedef void (*record_fn)(void *ctx, const struct record *r);
typedef void (*reject_fn)(void *ctx, const char *reason);

struct channel {
	record_fn on_record;
	reject_fn on_reject;
	void *ctx;
	int state;		/* hunting, in payload, in trailer */
	struct strbuf buf;	/* bytes received; those from off on are pending */
	size_t off;
	size_t moved;		/* bytes moved to the front, in all (tests) */
	struct record cur;
	unsigned long crc;
	unsigned long last_seq;
	size_t stray;		/* stray bytes seen since the last report */
	unsigned long records, rejects;
};

void channel_init(struct channel *ch, record_fn on_record, reject_fn on_reject,
		  void *ctx);
void channel_feed(struct channel *ch, const char *data, size_t n);
void channel_finish(struct channel *ch);
void channel_release(struct channel *ch);

/* The header and trailer for a payload, as the guest would write them
 * (for tests and fuzzing). */
void channel_frame(struct strbuf *out, unsigned long seq, const char *type,
		   const char *phase, const char *payload, size_t len);

#endif
