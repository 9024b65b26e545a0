// SPDX-License-Identifier: Apache-2.0
/*
 * records_feed and result_build: the guest's records, decoded by the whole
 * table of handlers (record/records.c), made into result.json and into
 * every report.
 *
 * The input is a channel stream as channel.log holds it.  Unless the first
 * byte is odd, each "@@ST1 SEQ TYPE PHASE ..." header is rewritten with
 * the length and CRC of the payload that follows it (up to its "@@END"),
 * so that mutated payloads still reach the handlers instead of failing the
 * checksum.  Bit 1 of the first byte makes it a booted run (the analyses
 * run), bit 2 a sweep of 0,20,40,20 disks (point records are taken), bit
 * 3 attribution = on (the hist and stephist records reach result.json's
 * attribution, steps and step_fit).  result.json and the reports must
 * be clean text whatever the guest sent.
 */
#include "fuzz.h"

#include "lib/textscan.h"
#include "record/console.h"
#include "record/records.h"
#include "result/build.h"
#include "report_check.h"
#include "scenario/scenario.h"

static const char ST[] = "@@ST1 ", END[] = "@@END ";

static void reframe(const char *p, const char *end, struct strbuf *out)
{
	while (p < end) {
		const char *h = memmem(p, (size_t)(end - p), ST, 6), *nl, *pe, *next;
		char *line, *f[4], *tail;
		unsigned long seq;

		if (!h) {
			sb_add(out, p, (size_t)(end - p));
			return;
		}
		sb_add(out, p, (size_t)(h - p));
		nl = memchr(h, '\n', (size_t)(end - h));
		if (!nl) {
			sb_add(out, h, (size_t)(end - h));
			return;
		}
		line = fuzz_cstr((const uint8_t *)h + 6, (size_t)(nl - h - 6));
		pe = memmem(nl + 1, (size_t)(end - nl - 1), END, 6);
		next = pe ? memchr(pe, '\n', (size_t)(end - pe)) : NULL;
		if (!pe)
			pe = end;
		next = next ? next + 1 : end;
		if (split_fields(line, f, 3) >= 3 && (seq = strtoul(f[0], &tail, 10)) &&
		    !*tail)
			channel_frame(out, seq, f[1], f[2], nl + 1, (size_t)(pe - nl - 1));
		else
			sb_add(out, h, (size_t)(next - h));
		free(line);
		p = next;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf in = STRBUF_INIT;
	struct scenario s;
	struct records rs;
	struct console_scan cs;
	enum run_status status;
	json_object *host, *root;

	if (!size)
		return 0;
	if (data[0] & 1)
		sb_add(&in, data + 1, size - 1);
	else
		reframe((const char *)data + 1, (const char *)data + size, &in);
	scenario_init(&s);
	s.disks = 1 + data[0] % 7;
	if (data[0] & 4) {
		/* A sweep: its points are taken, and result.json gets a sweep. */
		free(s.sweep);
		s.sweep = xstrdup("0,20,40,20");
		s.disks = 20;
	}
	if (data[0] & 8)
		s.attribution = 1;
	records_init(&rs, &s, NULL, NULL, NULL);
	records_feed(&rs, in.buf, in.len / 2);
	records_feed(&rs, in.buf + in.len / 2, in.len - in.len / 2);
	records_finish(&rs);
	console_scan_init(&cs);
	console_scan_finish(&cs);
	host = host_new();
	/* Half the inputs as a booted run: the analyses and the sweep too. */
	if (data[0] & 2)
		json_object_object_add(host, "booted", json_object_new_boolean(1));
	root = result_build(&s, &rs, &cs, host, &status);
	fuzz_check_json(root);
	check_run_reports(root);
	json_object_put(root);
	json_object_put(host);
	console_scan_release(&cs);
	records_release(&rs);
	scenario_release(&s);
	sb_release(&in);
	return 0;
}
