// SPDX-License-Identifier: Apache-2.0
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/channel.h"
#include "test.h"
#include "lib/util.h"

/* What the callbacks saw, in order. */
struct seen_rec {
	unsigned long seq;
	char type[CHANNEL_TYPE_MAX];
	char phase[CHANNEL_PHASE_MAX];
	char *payload;
	size_t len;
};

struct seen {
	struct seen_rec *rec;
	size_t nrec, arec;
	char **rej;
	size_t nrej, arej;
	struct strbuf events;	/* "R<seq>\n" and "J<reason>\n", in order */
};

static void on_record(void *ctx, const struct record *r)
{
	struct seen *s = ctx;
	struct seen_rec *x;

	ALLOC_GROW(s->rec, s->nrec + 1, s->arec);
	x = &s->rec[s->nrec++];
	x->seq = r->seq;
	memcpy(x->type, r->type, sizeof(x->type));
	memcpy(x->phase, r->phase, sizeof(x->phase));
	x->payload = xmalloc(r->len + 1);
	memcpy(x->payload, r->payload, r->len);
	x->payload[r->len] = '\0';
	x->len = r->len;
	sb_addf(&s->events, "R%lu\n", r->seq);
}

static void on_reject(void *ctx, const char *reason)
{
	struct seen *s = ctx;

	ALLOC_GROW(s->rej, s->nrej + 1, s->arej);
	s->rej[s->nrej++] = xstrdup(reason);
	sb_addf(&s->events, "J%s\n", reason);
}

static void seen_init(struct seen *s)
{
	memset(s, 0, sizeof(*s));
	sb_init(&s->events);
}

static void seen_release(struct seen *s)
{
	for (size_t i = 0; i < s->nrec; i++)
		free(s->rec[i].payload);
	for (size_t i = 0; i < s->nrej; i++)
		free(s->rej[i]);
	free(s->rec);
	free(s->rej);
	sb_release(&s->events);
	memset(s, 0, sizeof(*s));
}

/* Index of the first rejection containing needle, or -1. */
static long find_rej(const struct seen *s, const char *needle)
{
	for (size_t i = 0; i < s->nrej; i++)
		if (strstr(s->rej[i], needle))
			return (long)i;
	return -1;
}

static uint64_t rng_state;

static uint64_t xorshift(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

static size_t rnd(size_t n)
{
	return n ? (size_t)(xorshift() % n) : 0;
}

enum feed_mode { WHOLE, BYTES, CHUNKS };
static const char *const mode_name[] = { "whole", "byte by byte", "chunks" };

/* Feed buf to a fresh channel in the given way, then finish. */
static void run_stream(const char *buf, size_t len, enum feed_mode mode,
		       struct seen *out)
{
	struct channel ch;

	seen_init(out);
	channel_init(&ch, on_record, on_reject, out);
	if (mode == WHOLE) {
		channel_feed(&ch, buf, len);
	} else {
		size_t i = 0;
		while (i < len) {
			size_t n = mode == BYTES ? 1 : 1 + rnd(64);
			if (n > len - i)
				n = len - i;
			channel_feed(&ch, buf + i, n);
			i += n;
		}
	}
	channel_finish(&ch);
	CHECK_EQ_INT(ch.buf.len, 0);
	CHECK_EQ_INT(ch.records, out->nrec);
	CHECK_EQ_INT(ch.rejects, out->nrej);
	channel_release(&ch);
}

static void frame(struct strbuf *sb, unsigned long seq, const char *type,
		  const char *phase, const char *payload)
{
	channel_frame(sb, seq, type, phase, payload, strlen(payload));
}

static void check_rec(const struct seen *s, size_t i, unsigned long seq,
		      const char *type, const char *phase, const char *payload,
		      size_t len, const char *mode)
{
	if (i >= s->nrec) {
		test_fail(__FILE__, __LINE__, "%s: record #%zu (seq %lu) not delivered",
			  mode, i, seq);
		return;
	}
	CHECK_EQ_INT(s->rec[i].seq, seq);
	CHECK_STR(s->rec[i].type, type);
	CHECK_STR(s->rec[i].phase, phase);
	CHECK_EQ_INT(s->rec[i].len, len);
	if (s->rec[i].len != len || memcmp(s->rec[i].payload, payload, len))
		test_fail(__FILE__, __LINE__, "%s: record %lu payload differs", mode, seq);
}

TEST(channel_frame_format)
{
	struct strbuf sb = STRBUF_INIT;

	channel_frame(&sb, 1, "meminfo", "boot", "hello", 5);
	CHECK_STR(sb.buf, "@@ST1 1 meminfo boot 5 3610a686\nhello@@END 1\n");
	sb_reset(&sb);
	channel_frame(&sb, 42, "end", "after-rmmod", "", 0);
	CHECK_STR(sb.buf, "@@ST1 42 end after-rmmod 0 00000000\n@@END 42\n");
	sb_release(&sb);
}

/* Records with awkward payloads, fed in every way. */
TEST(channel_records_delivered_exactly)
{
	static const char bin[] = "a\0b\n@@END 1\n\r\xff\x01@@ST1 9 x y 1 00000000\nz";
	struct {
		const char *type, *phase, *p;
		size_t len;
	} r[] = {
		{ "mark", "boot", "12.34\n", 6 },
		{ "meminfo", "before-insmod", "MemTotal: 1 kB\nMemFree: 1 kB\n", 30 },
		{ "end", "after-rmmod", "", 0 },
		{ "blob", "phase-2", bin, sizeof(bin) - 1 },
		{ "abcdefghijklmno", "a234567890123456789012345678901", "x", 1 },
	};
	struct strbuf s = STRBUF_INIT;
	char *big = xmalloc(100000);

	for (size_t i = 0; i < 100000; i++)
		big[i] = (char)(i * 7 + 3);
	for (size_t i = 0; i < ARRAY_SIZE(r); i++)
		channel_frame(&s, i + 1, r[i].type, r[i].phase, r[i].p, r[i].len);
	channel_frame(&s, ARRAY_SIZE(r) + 1, "slabinfo", "x", big, 100000);
	for (int m = WHOLE; m <= CHUNKS; m++) {
		struct seen got;

		rng_state = 0x9e3779b97f4a7c15ull + (uint64_t)m;
		run_stream(s.buf, s.len, m, &got);
		CHECK_EQ_INT(got.nrec, ARRAY_SIZE(r) + 1);
		for (size_t i = 0; i < ARRAY_SIZE(r); i++)
			check_rec(&got, i, i + 1, r[i].type, r[i].phase, r[i].p,
				  r[i].len, mode_name[m]);
		check_rec(&got, ARRAY_SIZE(r), ARRAY_SIZE(r) + 1, "slabinfo", "x",
			  big, 100000, mode_name[m]);
		if (got.nrej)
			test_fail(__FILE__, __LINE__, "%s: unexpected rejection '%s'",
				  mode_name[m], got.rej[0]);
		seen_release(&got);
	}
	free(big);
	sb_release(&s);
}

TEST(channel_magic_split_across_feeds)
{
	struct strbuf s = STRBUF_INIT;
	struct channel ch;
	struct seen got;

	frame(&s, 1, "mark", "boot", "hi");
	seen_init(&got);
	channel_init(&ch, on_record, on_reject, &got);
	channel_feed(&ch, "junk@", 5);
	channel_feed(&ch, s.buf, 3);	/* "@@S" after a '@' */
	channel_feed(&ch, s.buf + 3, s.len - 3);
	channel_finish(&ch);
	CHECK_EQ_INT(got.nrec, 1);
	check_rec(&got, 0, 1, "mark", "boot", "hi", 2, "split");
	CHECK_EQ_INT(got.nrej, 1);
	if (got.nrej)
		CHECK_STR(got.rej[0], "stray bytes: 5 outside any record");
	channel_release(&ch);
	seen_release(&got);
	sb_release(&s);
}

TEST(channel_checksum_mismatch)
{
	struct strbuf s = STRBUF_INIT;

	for (int m = WHOLE; m <= CHUNKS; m++) {
		struct seen got;
		size_t hl;

		sb_reset(&s);
		frame(&s, 1, "meminfo", "boot", "MemFree: 1 kB\n");
		hl = (size_t)(strchr(s.buf, '\n') - s.buf) + 1;
		s.buf[hl + 9] ^= 0x01;		/* '1' -> '0' in the payload */
		frame(&s, 2, "slabinfo", "boot", "ok");
		rng_state = 12345 + (uint64_t)m;
		run_stream(s.buf, s.len, m, &got);
		CHECK(find_rej(&got, "checksum mismatch") == 0);
		if (got.nrej)
			CHECK_CONTAINS(got.rej[0], "checksum mismatch: record 1 (meminfo boot)");
		/* The bad record is dropped; the next one arrives (with a gap,
		 * since record 1 never came). */
		CHECK_EQ_INT(got.nrec, 1);
		check_rec(&got, 0, 2, "slabinfo", "boot", "ok", 2, mode_name[m]);
		CHECK(find_rej(&got, "sequence gap: records 1..1 lost") >= 0);
		seen_release(&got);
	}
	sb_release(&s);
}

TEST(channel_bad_trailer)
{
	struct strbuf s = STRBUF_INIT;

	for (int m = WHOLE; m <= CHUNKS; m++) {
		struct seen got;

		sb_reset(&s);
		/* Trailer names the wrong record. */
		sb_adds(&s, "@@ST1 1 mark boot 2 ");
		sb_addf(&s, "%08lx\nhi@@END 2\n", 0x0ab1c1b0ul);
		frame(&s, 2, "mark", "x", "ok");
		rng_state = 777 + (uint64_t)m;
		run_stream(s.buf, s.len, m, &got);
		CHECK(find_rej(&got, "bad trailer: record 1 (mark boot, 2 bytes)") >= 0);
		CHECK_EQ_INT(got.nrec, 1);
		check_rec(&got, 0, 2, "mark", "x", "ok", 2, mode_name[m]);
		seen_release(&got);
	}
	/* A length shorter than the payload: the trailer is not where the
	 * header says. */
	sb_reset(&s);
	frame(&s, 1, "mark", "boot", "hello world");
	{
		char *p = strstr(s.buf, " 11 ");
		REQUIRE(p);
		p[1] = '1';
		p[2] = ' ';
		memmove(p + 2, p + 3, s.len - (size_t)(p + 3 - s.buf) + 1);
		s.len--;
	}
	CHECK_CONTAINS(s.buf, "@@ST1 1 mark boot 1 ");
	{
		struct seen got;
		run_stream(s.buf, s.len, WHOLE, &got);
		CHECK_EQ_INT(got.nrec, 0);
		CHECK(find_rej(&got, "bad trailer: record 1 (mark boot, 1 bytes)") >= 0);
		seen_release(&got);
	}
	sb_release(&s);
}

TEST(channel_truncated_at_eof)
{
	struct strbuf s = STRBUF_INIT;

	for (int m = WHOLE; m <= CHUNKS; m++) {
		struct seen got;

		sb_reset(&s);
		frame(&s, 1, "mark", "boot", "ok");
		frame(&s, 2, "slabinfo", "after-insmod", "0123456789");
		sb_setlen(&s, s.len - strlen("3456789@@END 2\n"));
		rng_state = 4242 + (uint64_t)m;
		run_stream(s.buf, s.len, m, &got);
		CHECK_EQ_INT(got.nrec, 1);
		check_rec(&got, 0, 1, "mark", "boot", "ok", 2, mode_name[m]);
		CHECK_EQ_INT(got.nrej, 1);
		if (got.nrej)
			CHECK_STR(got.rej[0], "truncated record: 2 (slabinfo after-insmod) "
				  "has 3 of 10 payload bytes");
		seen_release(&got);
	}
	/* Payload complete, trailer cut. */
	{
		struct seen got;
		sb_reset(&s);
		frame(&s, 1, "mark", "boot", "ok");
		sb_setlen(&s, s.len - 3);
		run_stream(s.buf, s.len, BYTES, &got);
		CHECK_EQ_INT(got.nrec, 0);
		CHECK(find_rej(&got, "truncated record: 1 (mark boot) has 2 of 2") >= 0);
		seen_release(&got);
	}
	/* Header cut. */
	{
		struct seen got;
		static const char cut[] = "@@ST1 3 meminfo bo";
		run_stream(cut, sizeof(cut) - 1, WHOLE, &got);
		CHECK_EQ_INT(got.nrec, 0);
		CHECK_EQ_INT(got.nrej, 1);
		if (got.nrej)
			CHECK_STR(got.rej[0], "truncated record: header cut off");
		seen_release(&got);
	}
	sb_release(&s);
}

TEST(channel_stray_bytes)
{
	struct strbuf s = STRBUF_INIT;

	for (int m = WHOLE; m <= CHUNKS; m++) {
		struct seen got;

		sb_reset(&s);
		sb_adds(&s, "login: \r\n");
		frame(&s, 1, "mark", "boot", "ok");
		sb_adds(&s, "@@");	/* stray at the end, could have been a magic */
		rng_state = 99 + (uint64_t)m;
		run_stream(s.buf, s.len, m, &got);
		CHECK_EQ_INT(got.nrec, 1);
		check_rec(&got, 0, 1, "mark", "boot", "ok", 2, mode_name[m]);
		CHECK_EQ_INT(got.nrej, 2);
		if (got.nrej == 2) {
			CHECK_STR(got.rej[0], "stray bytes: 9 outside any record");
			CHECK_STR(got.rej[1], "stray bytes: 2 outside any record");
		}
		/* The stray report comes before the record that follows. */
		CHECK(!strncmp(got.events.buf, "Jstray bytes: 9", 15));
		seen_release(&got);
	}
	sb_release(&s);
}

TEST(channel_garbage_bounded)
{
	/* A megabyte without a magic: nothing piles up. */
	struct channel ch;
	struct seen got;
	char chunk[4096];

	for (size_t i = 0; i < sizeof(chunk); i++)
		chunk[i] = (char)("@@ST@\n x"[i % 8]);
	seen_init(&got);
	channel_init(&ch, on_record, on_reject, &got);
	for (int i = 0; i < 256; i++) {
		channel_feed(&ch, chunk, sizeof(chunk));
		if (ch.buf.len > 16) {
			test_fail(__FILE__, __LINE__, "%zu bytes held after garbage",
				  ch.buf.len);
			break;
		}
	}
	channel_finish(&ch);
	CHECK_EQ_INT(got.nrec, 0);
	CHECK_EQ_INT(got.nrej, 1);
	if (got.nrej)
		CHECK_STR(got.rej[0], "stray bytes: 1048576 outside any record");
	channel_release(&ch);
	seen_release(&got);
}

TEST(channel_sequence_gap_still_delivers)
{
	struct strbuf s = STRBUF_INIT;

	for (int m = WHOLE; m <= CHUNKS; m++) {
		struct seen got;

		sb_reset(&s);
		frame(&s, 1, "mark", "boot", "a");
		frame(&s, 4, "mark", "boot", "b");
		frame(&s, 5, "mark", "boot", "c");
		rng_state = 5 + (uint64_t)m;
		run_stream(s.buf, s.len, m, &got);
		CHECK_EQ_INT(got.nrec, 3);
		check_rec(&got, 1, 4, "mark", "boot", "b", 1, mode_name[m]);
		check_rec(&got, 2, 5, "mark", "boot", "c", 1, mode_name[m]);
		CHECK_EQ_INT(got.nrej, 1);
		if (got.nrej)
			CHECK_STR(got.rej[0], "sequence gap: records 2..3 lost");
		/* Reported, then delivered. */
		CHECK_STR(got.events.buf, "R1\nJsequence gap: records 2..3 lost\nR4\nR5\n");
		seen_release(&got);
	}
	sb_release(&s);
}

TEST(channel_replayed_sequence_rejected)
{
	struct strbuf s = STRBUF_INIT;
	struct seen got;

	frame(&s, 1, "mark", "boot", "a");
	frame(&s, 2, "mark", "boot", "b");
	frame(&s, 2, "mark", "boot", "evil");	/* replayed */
	frame(&s, 1, "mark", "boot", "older");	/* going back */
	frame(&s, 3, "mark", "boot", "c");
	run_stream(s.buf, s.len, WHOLE, &got);
	CHECK_EQ_INT(got.nrec, 3);
	check_rec(&got, 0, 1, "mark", "boot", "a", 1, "whole");
	check_rec(&got, 1, 2, "mark", "boot", "b", 1, "whole");
	check_rec(&got, 2, 3, "mark", "boot", "c", 1, "whole");
	CHECK_EQ_INT(got.nrej, 2);
	if (got.nrej == 2) {
		CHECK_CONTAINS(got.rej[0], "record 2 after 2");
		CHECK_CONTAINS(got.rej[1], "record 1 after 2");
	}
	for (size_t i = 0; i < got.nrec; i++)
		CHECK(strcmp(got.rec[i].payload, "evil") && strcmp(got.rec[i].payload, "older"));
	seen_release(&got);
	sb_release(&s);
}

TEST(channel_header_too_long)
{
	struct strbuf s = STRBUF_INIT;

	for (int m = WHOLE; m <= CHUNKS; m++) {
		struct seen got;

		sb_reset(&s);
		sb_adds(&s, "@@ST1 1 mark boot 2 00000000 ");
		for (int i = 0; i < 300; i++)
			sb_addch(&s, 'a');
		sb_addch(&s, '\n');
		frame(&s, 1, "mark", "boot", "ok");
		rng_state = 31 + (uint64_t)m;
		run_stream(s.buf, s.len, m, &got);
		CHECK(find_rej(&got, "bad header: no end of line within 128 bytes") == 0);
		CHECK_EQ_INT(got.nrec, 1);
		check_rec(&got, 0, 1, "mark", "boot", "ok", 2, mode_name[m]);
		seen_release(&got);
	}
	sb_release(&s);
}

/* Each header must be refused, and the good record after it delivered. */
static void expect_bad_header(const char *header, int line)
{
	struct strbuf s = STRBUF_INIT;

	for (int m = WHOLE; m <= CHUNKS; m++) {
		struct seen got;

		sb_reset(&s);
		sb_adds(&s, header);
		sb_adds(&s, "\nhello@@END 1\n");
		frame(&s, 1, "mark", "boot", "ok");
		rng_state = 1 + (uint64_t)m;
		run_stream(s.buf, s.len, m, &got);
		if (find_rej(&got, "bad header: '") != 0)
			test_fail(__FILE__, line, "%s: header '%s' not refused first (%s)",
				  mode_name[m], header,
				  got.nrej ? got.rej[0] : "no rejection");
		if (got.nrec != 1 || got.rec[0].len != 2 || strcmp(got.rec[0].payload, "ok"))
			test_fail(__FILE__, line, "%s: after header '%s': %zu records, "
				  "first '%s'", mode_name[m], header, got.nrec,
				  got.nrec ? got.rec[0].payload : "");
		seen_release(&got);
	}
	sb_release(&s);
}

TEST(channel_bad_header_fields)
{
	expect_bad_header("@@ST1 0 mark boot 5 3610a686", __LINE__);
	expect_bad_header("@@ST1 12345678901 mark boot 5 3610a686", __LINE__);
	expect_bad_header("@@ST1 4294967296 mark boot 5 3610a686", __LINE__);
	expect_bad_header("@@ST1 01 mark boot 5 3610a686", __LINE__);
	expect_bad_header("@@ST1 -1 mark boot 5 3610a686", __LINE__);
	expect_bad_header("@@ST1 1 Mark boot 5 3610a686", __LINE__);
	expect_bad_header("@@ST1 1 mark-x boot 5 3610a686", __LINE__);
	expect_bad_header("@@ST1 1 abcdefghijklmnop boot 5 3610a686", __LINE__);
	expect_bad_header("@@ST1 1 mark Boot 5 3610a686", __LINE__);
	expect_bad_header("@@ST1 1 mark a2345678901234567890123456789012 5 3610a686", __LINE__);
	expect_bad_header("@@ST1 1 mark boot 16777217 3610a686", __LINE__);
	expect_bad_header("@@ST1 1 mark boot 05 3610a686", __LINE__);
	expect_bad_header("@@ST1 1 mark boot 5 3610a68g", __LINE__);
	expect_bad_header("@@ST1 1 mark boot 5 3610A686", __LINE__);
	expect_bad_header("@@ST1 1 mark boot 5 3610a68", __LINE__);
	expect_bad_header("@@ST1 1 mark boot 5 3610a6861", __LINE__);
	expect_bad_header("@@ST1 1 mark boot 5", __LINE__);
	expect_bad_header("@@ST1 1 mark boot 5 3610a686 extra", __LINE__);
	expect_bad_header("@@ST1 1 mark boot 5 3610a686 ", __LINE__);
	expect_bad_header("@@ST1 1  mark boot 5 3610a686", __LINE__);
	expect_bad_header("@@ST1 1 mark boot 5 3610a686\r", __LINE__);
	expect_bad_header("@@ST1 ", __LINE__);
}

TEST(channel_header_limits_accepted)
{
	/* The largest legal values: the header is taken (the record is then
	 * cut off by EOF, which names it). */
	struct seen got;
	static const char h1[] = "@@ST1 4294967295 abcdefghijklmno "
		"a234567890123456789012345678901 16777216 ffffffff\nabc";

	run_stream(h1, sizeof(h1) - 1, WHOLE, &got);
	CHECK_EQ_INT(got.nrej, 1);
	if (got.nrej)
		CHECK_STR(got.rej[0], "truncated record: 4294967295 (abcdefghijklmno "
			  "a234567890123456789012345678901) has 3 of 16777216 payload bytes");
	seen_release(&got);
}

TEST(channel_good_record_after_garbage)
{
	struct strbuf s = STRBUF_INIT;

	for (int m = WHOLE; m <= CHUNKS; m++) {
		struct seen got;

		sb_reset(&s);
		sb_adds(&s, "\x1b[0m@@ST@@ST1 @@END 7\n@@@@ST1 1 x y 3 zz");
		sb_addch(&s, '\0');
		sb_adds(&s, "\n");
		/* A bad header line with a real header starting inside it. */
		sb_adds(&s, "@@ST1 junk ");
		frame(&s, 1, "mark", "boot", "ok");
		sb_adds(&s, "garbage between\n");
		frame(&s, 2, "meminfo", "boot", "MemFree: 1 kB\n");
		rng_state = 2024 + (uint64_t)m;
		run_stream(s.buf, s.len, m, &got);
		CHECK_EQ_INT(got.nrec, 2);
		check_rec(&got, 0, 1, "mark", "boot", "ok", 2, mode_name[m]);
		check_rec(&got, 1, 2, "meminfo", "boot", "MemFree: 1 kB\n", 14, mode_name[m]);
		CHECK(find_rej(&got, "bad header") >= 0);
		CHECK(find_rej(&got, "stray bytes") >= 0);
		/* Reasons quote guest bytes but stay printable. */
		for (size_t i = 0; i < got.nrej; i++)
			for (const char *c = got.rej[i]; *c; c++)
				if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f) {
					test_fail(__FILE__, __LINE__, "unprintable byte in '%s'",
						  got.rej[i]);
					break;
				}
		seen_release(&got);
	}
	sb_release(&s);
}

TEST(channel_record_inside_overlong_length_recovered)
{
	/* A header whose length runs past its record swallows the next one;
	 * when the trailer is not where it should be, the parser hunts again
	 * from just after the bad header and finds the real records. */
	struct strbuf s = STRBUF_INIT;
	struct seen got;

	sb_adds(&s, "@@ST1 1 mark boot 60 00000000\nshort");
	frame(&s, 1, "mark", "boot", "ok");
	frame(&s, 2, "meminfo", "boot", "0123456789012345678901234567890123456789");
	run_stream(s.buf, s.len, WHOLE, &got);
	CHECK(find_rej(&got, "bad trailer: record 1 (mark boot, 60 bytes)") == 0);
	CHECK_EQ_INT(got.nrec, 2);
	check_rec(&got, 0, 1, "mark", "boot", "ok", 2, "whole");
	check_rec(&got, 1, 2, "meminfo", "boot",
		  "0123456789012345678901234567890123456789", 40, "whole");
	seen_release(&got);
	sb_release(&s);
}

TEST(channel_finish_hunts_after_truncated_frame)
{
	/* As above, but the stream ends before the bad length is used up:
	 * "a rejected frame is skipped and the parser hunts for the next
	 * header" (channel.h) should hold at EOF too, so the complete record
	 * inside the swallowed bytes is still delivered. */
	struct strbuf s = STRBUF_INIT;
	struct seen got;

	sb_adds(&s, "@@ST1 1 slabinfo boot 100 12345678\ncut short\n");
	frame(&s, 2, "end", "boot", "status=ok\n");
	run_stream(s.buf, s.len, WHOLE, &got);
	CHECK(find_rej(&got, "truncated record: 1 (slabinfo boot)") >= 0);
	CHECK_EQ_INT(got.nrec, 1);
	if (got.nrec)
		check_rec(&got, 0, 2, "end", "boot", "status=ok\n", 10, "whole");
	seen_release(&got);
	sb_release(&s);
}

/* ---- fuzzing ---- */

/* Fragments that look like framing.  None of them completes a valid frame
 * by itself: a header for an empty payload ("0 00000000") would, and a
 * stream holding one has in effect sent that record. "1 00000000" needs a
 * one-byte payload whose CRC-32 is 0, and there is none. */
static const char *const fuzz_bits[] = {
	"@@ST1 ", "@@END ", "\n", "@", "1 ", "0", " ", "\r\n", "@@END 1\n",
	"@@ST1 1 a b 1 00000000\n",
};

static void random_payload(struct strbuf *p)
{
	size_t n = rnd(4) == 0 ? 0 : rnd(200);

	for (size_t i = 0; i < n; i++) {
		if (rnd(8) == 0) {
			sb_adds(p, fuzz_bits[rnd(ARRAY_SIZE(fuzz_bits))]);
		} else {
			sb_addch(p, (char)xorshift());
		}
	}
}

static void random_token(char *out, size_t max, int digits)
{
	static const char al[] = "abcdefghijklmnopqrstuvwxyz0123456789-";
	size_t n = 1 + rnd(max - 1);

	for (size_t i = 0; i < n; i++)
		out[i] = al[rnd(digits ? sizeof(al) - 1 : 26)];
	out[n] = '\0';
}

static void mutate(struct strbuf *s)
{
	size_t pos = s->len ? rnd(s->len) : 0;

	switch (rnd(5)) {
	case 0:		/* flip one bit */
		if (s->len)
			s->buf[pos] ^= (char)(1u << rnd(8));
		break;
	case 1: {	/* insert a byte or a telling fragment */
		struct strbuf ins = STRBUF_INIT;
		if (rnd(2))
			sb_addch(&ins, (char)xorshift());
		else
			sb_adds(&ins, fuzz_bits[rnd(ARRAY_SIZE(fuzz_bits))]);
		sb_grow(s, ins.len);
		memmove(s->buf + pos + ins.len, s->buf + pos, s->len - pos);
		memcpy(s->buf + pos, ins.buf, ins.len);
		sb_setlen(s, s->len + ins.len);
		sb_release(&ins);
		break;
	}
	case 2: {	/* delete a few bytes */
		size_t n = 1 + rnd(4);
		if (pos + n > s->len)
			n = s->len - pos;
		memmove(s->buf + pos, s->buf + pos + n, s->len - pos - n);
		sb_setlen(s, s->len - n);
		break;
	}
	case 3: {	/* replay a slice elsewhere */
		size_t n = rnd(s->len - pos + 1);
		size_t to = rnd(s->len + 1);
		char *copy = xmalloc(n + 1);
		memcpy(copy, s->buf + pos, n);
		sb_grow(s, n);
		memmove(s->buf + to + n, s->buf + to, s->len - to);
		memcpy(s->buf + to, copy, n);
		sb_setlen(s, s->len + n);
		free(copy);
		break;
	}
	default:	/* cut the stream short */
		sb_setlen(s, pos);
		break;
	}
}

TEST(channel_fuzz_never_delivers_corrupt_payload)
{
	size_t delivered = 0, rejected = 0, records_sent = 0;

	rng_state = 0x2545f4914f6cdd1dull;
	for (int iter = 0; iter < 2000; iter++) {
		size_t nrec = 1 + rnd(5);
		struct strbuf *payloads = xcalloc(nrec, sizeof(*payloads));
		struct strbuf stream = STRBUF_INIT;
		struct seen got;
		int failed = 0;

		for (size_t i = 0; i < nrec; i++) {
			char type[CHANNEL_TYPE_MAX], phase[CHANNEL_PHASE_MAX];

			sb_init(&payloads[i]);
			random_payload(&payloads[i]);
			random_token(type, sizeof(type), 0);
			random_token(phase, sizeof(phase), 1);
			if (rnd(4) == 0)
				sb_adds(&stream, fuzz_bits[rnd(ARRAY_SIZE(fuzz_bits))]);
			channel_frame(&stream, i + 1, type, phase, payloads[i].buf,
				      payloads[i].len);
		}
		records_sent += nrec;
		for (size_t k = 1 + rnd(4); k; k--)
			mutate(&stream);
		run_stream(stream.buf, stream.len, (enum feed_mode)rnd(3), &got);

		for (size_t i = 0; i < got.nrec && !failed; i++) {
			const struct seen_rec *r = &got.rec[i];
			int match = 0;

			for (size_t j = 0; j < nrec && !match; j++)
				match = payloads[j].len == r->len &&
					!memcmp(payloads[j].buf, r->payload, r->len);
			if (!match) {
				test_fail(__FILE__, __LINE__, "iteration %d: record %lu "
					  "delivered with a payload never sent", iter, r->seq);
				failed = 1;
			}
			if (i && r->seq <= got.rec[i - 1].seq) {
				test_fail(__FILE__, __LINE__, "iteration %d: seq %lu after %lu",
					  iter, r->seq, got.rec[i - 1].seq);
				failed = 1;
			}
		}
		if (got.nrec > nrec && !failed)
			test_fail(__FILE__, __LINE__, "iteration %d: %zu records from %zu sent",
				  iter, got.nrec, nrec);
		delivered += got.nrec;
		rejected += got.nrej;
		seen_release(&got);
		for (size_t i = 0; i < nrec; i++)
			sb_release(&payloads[i]);
		free(payloads);
		sb_release(&stream);
		if (failed)
			break;
	}
	/* The loop did exercise both sides. */
	CHECK(delivered > records_sent / 4);
	CHECK(rejected > 1000);
}

/* Counts, for the big streams below (the seen lists would hold millions). */
struct tally {
	unsigned long records, bad_headers, other;
	unsigned long last_seq;
};

static void tally_record(void *ctx, const struct record *r)
{
	struct tally *t = ctx;

	t->records++;
	t->last_seq = r->seq;
}

static void tally_reject(void *ctx, const char *reason)
{
	struct tally *t = ctx;

	if (!strncmp(reason, "bad header", 10))
		t->bad_headers++;
	else
		t->other++;
}

TEST(channel_bad_headers_inside_a_frame_linear)
{
	/* A header claims 16 MiB; inside what it claims, 4 MiB of bad
	 * headers; then a good record.  Each bad header used to move the
	 * rest of the buffer to its front (40 s for one channel_feed); the
	 * bytes consumed are now an offset, and the buffer is compacted
	 * only when the consumed part is as large as the rest: the bytes
	 * moved in all stay below the bytes fed. */
	const size_t claim = CHANNEL_MAX_PAYLOAD, bad = 4u << 20;
	struct strbuf s = STRBUF_INIT;
	struct channel ch;
	struct tally t = { 0, 0, 0, 0 };
	size_t nbad = 0;

	sb_addf(&s, "@@ST1 1 mark boot %zu 00000000\n", claim);
	while (s.len < bad) {
		sb_adds(&s, "@@ST1 x\n");
		nbad++;
	}
	while (s.len < claim + 64)
		sb_adds(&s, "filler filler filler filler filler filler filler\n");
	frame(&s, 2, "mark", "boot", "ok");
	channel_init(&ch, tally_record, tally_reject, &t);
	for (size_t off = 0; off < s.len; off += 65536)
		channel_feed(&ch, s.buf + off, s.len - off < 65536 ? s.len - off : 65536);
	channel_finish(&ch);
	CHECK_EQ_INT(t.records, 1);
	CHECK_EQ_INT(t.last_seq, 2);
	CHECK_EQ_INT(t.bad_headers, nbad);
	CHECK(ch.moved <= s.len);
	channel_release(&ch);
	sb_release(&s);
}

TEST(channel_bad_headers_in_one_feed_linear)
{
	/* The same in one channel_feed of everything: nothing is moved at
	 * all until the next feed. */
	struct strbuf s = STRBUF_INIT;
	struct channel ch;
	struct tally t = { 0, 0, 0, 0 };

	sb_addf(&s, "@@ST1 1 mark boot %u 00000000\n", 1u << 20);
	for (int i = 0; i < 200000; i++)
		sb_adds(&s, "@@ST1 x\n");
	frame(&s, 2, "mark", "boot", "ok");
	channel_init(&ch, tally_record, tally_reject, &t);
	channel_feed(&ch, s.buf, s.len);
	CHECK_EQ_INT(ch.moved, 0);
	channel_finish(&ch);
	CHECK_EQ_INT(t.records, 1);
	CHECK(t.bad_headers >= 200000);
	channel_release(&ch);
	sb_release(&s);
}
