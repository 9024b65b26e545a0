// SPDX-License-Identifier: Apache-2.0
/*
 * console_scan_feed and crash_classify: the guest's serial console.
 *
 * The first byte picks what only the host saw (timed out, VM exited, the
 * end record, the last phase); the second seeds the sizes of the pieces
 * the rest is fed in.  Fed whole and in pieces, the console must give the
 * same class, type, title and context; titles and context are printable,
 * and the work done is linear in the input.
 */
#include "fuzz.h"

#include "record/console.h"

static void scan(const char *buf, size_t len, unsigned seed,
		 const struct crash_host *h, struct strbuf *out)
{
	struct console_scan cs;
	struct crash c = CRASH_INIT;
	size_t off = 0;

	console_scan_init(&cs);
	while (off < len) {
		size_t n = len - off;

		if (seed) {
			seed = seed * 1103515245u + 12345u;
			n = 1 + (seed >> 16) % 211;
			if (n > len - off)
				n = len - off;
		}
		console_scan_feed(&cs, buf + off, n);
		off += n;
	}
	console_scan_finish(&cs);
	(void)console_scan_stop(&cs);
	if (crash_classify(&cs, h, &c)) {
		char *reason = crash_reason(&c);

		FUZZ_ASSERT(c.cls != NULL);
		FUZZ_ASSERT(c.type != NULL && *c.type);
		FUZZ_ASSERT(text_is_clean(c.title.buf, c.title.len, 0));
		FUZZ_ASSERT(text_is_clean(c.detail.buf, c.detail.len, 0));
		FUZZ_ASSERT(text_is_clean(c.context.buf, c.context.len, 1));
		FUZZ_ASSERT(text_is_clean(reason, strlen(reason), 0));
		FUZZ_ASSERT(c.title.len > 0);
		sb_addf(out, "%s|%s|%s|%s|%lu|%s", c.cls->name, c.type, c.title.buf,
			c.detail.buf, c.line, c.context.buf);
		free(reason);
	}
	/* Linear however it is split: each byte looked at for its newline
	 * once (one more at each cut of an overlong line) and once as part of
	 * a line. */
	FUZZ_ASSERT(cs.examined <= 3 * (unsigned long long)len + 1);
	FUZZ_ASSERT(text_is_clean(cs.crash_line, strlen(cs.crash_line), 0));
	FUZZ_ASSERT(text_is_clean(cs.oom_line, strlen(cs.oom_line), 0));
	sb_addf(out, "|%s|%s|%lu", cs.crash_line, cs.oom_line, cs.lines);
	crash_release(&c);
	console_scan_release(&cs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct crash_host h = CRASH_HOST_INIT;
	struct strbuf whole = STRBUF_INIT, pieces = STRBUF_INIT;
	const char *buf = (const char *)data + 2;
	size_t len;

	if (size < 2)
		return 0;
	len = size - 2;
	h.booted = data[0] & 1;
	h.timed_out = !!(data[0] & 2);
	h.vm_exited = !!(data[0] & 4);
	h.vm_exit = data[0] & 8 ? "exited with status 1" : NULL;
	h.got_end = !!(data[0] & 16);
	h.last_phase = (int)(data[0] >> 5) - 1;
	scan(buf, len, 0, &h, &whole);
	scan(buf, len, (unsigned)data[1] | 1u, &h, &pieces);
	if (whole.len != pieces.len || memcmp(whole.buf, pieces.buf, whole.len)) {
		fprintf(stderr, "whole:\n%s\npieces:\n%s\n", whole.buf, pieces.buf);
		FUZZ_ASSERT(!"the same console in pieces gave another answer");
	}
	/* Each line on its own, as triage does. */
	for (const char *p = buf, *end = buf + len; p < end; ) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		FUZZ_ASSERT(console_classify(p, l) >= 0);
		p += l + 1;
	}
	sb_release(&whole);
	sb_release(&pieces);
	return 0;
}
