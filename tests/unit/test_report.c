// SPDX-License-Identifier: Apache-2.0
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/bisect.h"
#include "report/kcidb.h"
#include "report/markdown.h"
#include "report/text.h"
#include "report/model.h"
#include "test.h"
#include "lib/util.h"

static const char *esc(const char *s)
{
	static struct strbuf out = STRBUF_INIT;

	sb_reset(&out);
	md_escape(&out, s);
	return out.buf;
}

static const char *clean(const char *s)
{
	static struct strbuf out = STRBUF_INIT;

	sb_reset(&out);
	text_clean(&out, s);
	return out.buf;
}

static const char *thousands(long long v)
{
	static char buf[64];
	struct strbuf out = STRBUF_INIT;

	fmt_thousands(&out, v);
	snprintf(buf, sizeof(buf), "%s", out.buf);
	sb_release(&out);
	return buf;
}

/* What fmt (a format.h function of a figure) writes for v; have: 0 for a
 * missing one. */
static const char *formatted(void (*fmt)(struct strbuf *, struct num), double v, int have)
{
	static char buf[64];
	struct strbuf out = STRBUF_INIT;

	fmt(&out, (struct num){ v, have });
	snprintf(buf, sizeof(buf), "%s", out.buf ? out.buf : "");
	sb_release(&out);
	return buf;
}

/* No raw '|', '<', '>' or control byte: every '|' is escaped (preceded by
 * an odd run of backslashes), and the others do not appear at all. */
static void check_md_safe(const char *in, const char *out, int line)
{
	size_t bs = 0;

	for (const char *p = out; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == 0x7f || c == '<' || c == '>') {
			test_fail(__FILE__, line, "md_escape(\"%s\") = \"%s\": raw byte 0x%02x",
				  in, out, c);
			return;
		}
		if (c == '|' && bs % 2 == 0) {
			test_fail(__FILE__, line, "md_escape(\"%s\") = \"%s\": raw '|'", in, out);
			return;
		}
		bs = c == '\\' ? bs + 1 : 0;
	}
}

TEST(report_md_escape_hostile)
{
	static const char *const hostile[] = {
		"a|b", "| x | y |", "**bold**", "<script>alert(1)</script>", "`code`",
		"line1\nline2", "\x1b[31mred\x1b[0m", "\\|", "\\\\|", "a\rb\tc\x7f",
		"[link](javascript:alert(1))", "<img src=x onerror=alert(1)>", "&lt;",
		"# heading", "_under_", "~~strike~~",
	};

	for (size_t i = 0; i < ARRAY_SIZE(hostile); i++)
		check_md_safe(hostile[i], esc(hostile[i]), __LINE__);
	CHECK_STR(esc("a|b"), "a\\|b");
	CHECK_STR(esc("**x**"), "\\*\\*x\\*\\*");
	CHECK_STR(esc("<script>"), "&lt;script&gt;");
	CHECK_STR(esc("`rm`"), "\\`rm\\`");
	CHECK_STR(esc("a\nb"), "a?b");
	CHECK_STR(esc("\x1b[31m"), "?\\[31m");
	CHECK_STR(esc("a&b"), "a&amp;b");
	CHECK_STR(esc("\\|"), "\\\\\\|");
	CHECK_STR(esc("sdewv 66:3952"), "sdewv 66:3952");
	CHECK_STR(esc(""), "");
	/* UTF-8 passes through. */
	CHECK_STR(esc("caf\xc3\xa9"), "caf\xc3\xa9");
}

TEST(report_text_clean)
{
	CHECK_STR(clean("plain text: 1,234 kB"), "plain text: 1,234 kB");
	CHECK_STR(clean("a\nb\rc\td"), "a?b?c?d");
	CHECK_STR(clean("\x1b[2J\x1b[31mred"), "?[2J?[31mred");
	CHECK_STR(clean("del\x7f"), "del?");
	CHECK_STR(clean("a|b <c>"), "a|b <c>");
	CHECK_STR(clean(""), "");
	for (const char *p = clean("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
				   "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f");
	     *p; p++)
		CHECK(*p == '?');
}

TEST(report_fmt_thousands)
{
	CHECK_STR(thousands(0), "0");
	CHECK_STR(thousands(7), "7");
	CHECK_STR(thousands(999), "999");
	CHECK_STR(thousands(1000), "1,000");
	CHECK_STR(thousands(12345), "12,345");
	CHECK_STR(thousands(123456), "123,456");
	CHECK_STR(thousands(1234567), "1,234,567");
	CHECK_STR(thousands(-1), "-1");
	CHECK_STR(thousands(-999), "-999");
	CHECK_STR(thousands(-1000), "-1,000");
	CHECK_STR(thousands(-711192), "-711,192");
	CHECK_STR(thousands(LLONG_MAX), "9,223,372,036,854,775,807");
}

/* The compact measurement format every writer shares: thousands from
 * 1,000 (including what %.3g would round up to "1e+03"), else %.3g; the
 * signed form and the missing marker. */
TEST(report_fmt_amount_and_change)
{
	CHECK_STR(formatted(fmt_amount, 133041.4, 1), "133,041");
	CHECK_STR(formatted(fmt_amount, -2496, 1), "-2,496");
	CHECK_STR(formatted(fmt_amount, 999.7, 1), "1,000");
	CHECK_STR(formatted(fmt_amount, 999.4, 1), "999");
	CHECK_STR(formatted(fmt_amount, 45.8, 1), "45.8");
	CHECK_STR(formatted(fmt_amount, 0.38, 1), "0.38");
	CHECK_STR(formatted(fmt_amount, 410.2, 1), "410");
	CHECK_STR(formatted(fmt_amount, 0, 0), "n/a");
	CHECK_STR(formatted(fmt_change, 16832, 1), "+16,832");
	CHECK_STR(formatted(fmt_change, -0.3, 1), "-0.3");
	CHECK_STR(formatted(fmt_change, 0, 1), "0");
	CHECK_STR(formatted(fmt_change, 0, 0), "n/a");
	CHECK_STR(formatted(fmt_us, 10813.4, 1), "10,813 us");
	CHECK_STR(formatted(fmt_us, 87.5, 1), "87.5 us");
	CHECK_STR(formatted(fmt_us, 0, 0), "n/a");
}

/* mean ± sd (n): the sd in the same format as the mean (never
 * "4.1e+02"), the sd and n only from two runs. */
TEST(report_fmt_mean_sd)
{
	struct strbuf out = STRBUF_INIT;

	fmt_mean_sd(&out, (struct num){ 133041, 1 }, (struct num){ 410.4, 1 }, (struct num){ 3, 1 });
	CHECK_STR(out.buf, "133,041 \xc2\xb1 410 (n=3)");
	sb_reset(&out);
	fmt_mean_sd(&out, (struct num){ 3.95, 1 }, (struct num){ 0, 0 }, (struct num){ 1, 1 });
	CHECK_STR(out.buf, "3.95");
	sb_reset(&out);
	fmt_mean_sd(&out, (struct num){ 0, 0 }, (struct num){ 1, 1 }, (struct num){ 3, 1 });
	CHECK_STR(out.buf, "n/a");
	sb_release(&out);
}

/* One precision per quantity: p-values, percentages, seconds. */
TEST(report_fmt_p_percent_seconds)
{
	CHECK_STR(formatted(fmt_p, 0.00012, 1), "< 0.001");
	CHECK_STR(formatted(fmt_p, 0.001, 1), "0.001");
	CHECK_STR(formatted(fmt_p, 0.2876, 1), "0.288");
	CHECK_STR(formatted(fmt_p, -1, 1), "n/a");
	CHECK_STR(formatted(fmt_p, 0, 0), "n/a");
	CHECK_STR(formatted(fmt_signed_percent, 12.74, 1), "+12.7%");
	CHECK_STR(formatted(fmt_signed_percent, -5, 1), "-5.0%");
	CHECK_STR(formatted(fmt_signed_percent, 0, 0), "n/a");
	CHECK_STR(formatted(fmt_percent, 97.84, 1), "97.8%");
	CHECK_STR(formatted(fmt_seconds, 423.4, 1), "423.40 s");
	CHECK_STR(formatted(fmt_ms, 14.625, 1), "14.625 ms");
}

TEST(report_fmt_thousands_llong_min)
{
	/* report.h: "negative numbers keep their sign".  LLONG_MIN cannot be
	 * negated in a long long; the result must still be the number. */
	CHECK_STR(thousands(LLONG_MIN), "-9,223,372,036,854,775,808");
}

/* One rule for a figure that is missing, in every writer: "n/a", never 0
 * (fmt_whole: the settings and counts shown as set).  A run that crashed
 * before its inventory has no disk counts; a damaged result.json may lack
 * the VM's memory and CPUs. */
TEST(report_missing_figure_is_na)
{
	json_object *root = json_tokener_parse(
		"{\"run_id\": \"r\", \"status\": \"crash\", \"vm\": {\"accel\": \"tcg\"},"
		" \"disks\": {\"requested\": 40, \"present\": null, \"virtio_requested\": 2,"
		" \"virtio_present\": null, \"virtio_bus\": \"scsi\"}}");
	struct strbuf text = STRBUF_INIT, md = STRBUF_INIT, doc = STRBUF_INIT;
	struct report_model m;
	struct kcidb k;

	CHECK_STR(formatted(fmt_whole, 2048, 1), "2048");
	CHECK_STR(formatted(fmt_whole, 0, 1), "0");
	CHECK_STR(formatted(fmt_whole, 0, 0), "n/a");
	REQUIRE(root);
	report_model_from_json(root, &m);
	text_run(&m, &text);
	CHECK(strstr(text.buf, ", n/a MiB, n/a CPU, ") != NULL);
	CHECK(strstr(text.buf, "disks: n/a of 40 scsi_debug; n/a of 2 virtio-scsi") != NULL);
	markdown_run(&m, &md);
	CHECK(strstr(md.buf, "n/a MiB, n/a CPU") != NULL);
	CHECK(strstr(md.buf, "disks: n/a of 40 scsi_debug; n/a of 2 virtio-scsi") != NULL);
	CHECK(strstr(md.buf, " 0 of ") == NULL && strstr(md.buf, " 0 MiB") == NULL);
	kcidb_init(&k, NULL);
	kcidb_add_run(&k, "r", NULL, &m);
	kcidb_write(&k, &doc);
	CHECK(strstr(doc.buf, "QEMU ? (tcg), n/a MiB, n/a CPUs") != NULL);
	sb_release(&text);
	sb_release(&md);
	sb_release(&doc);
	report_model_release(&m);
	json_object_put(root);
}

/* The per-disk figures are analysis.c's, taken from result.json, never
 * worked out again (SUnreclaim, which the analysis does not divide, is
 * derived the same way). */
TEST(report_model_per_disk_from_analysis)
{
	json_object *root = json_tokener_parse(
		"{\"settings\": {\"disks\": 10}, \"kernel\": {\"highmem\": false},"
		" \"phases\": [{\"name\": \"before-insmod\", \"meminfo\": {\"MemFree\": 5000, \"SUnreclaim\": 10}},"
		" {\"name\": \"after-insmod\", \"meminfo\": {\"MemFree\": 4000, \"SUnreclaim\": 20}}],"
		" \"deltas\": {\"insmod\": {\"MemFree_kb\": -1000, \"SUnreclaim_kb\": 10,"
		" \"per_disk_bytes\": {\"MemFree\": 12345, \"Slab\": null}}}}");
	struct report_model m;

	REQUIRE(root);
	report_model_from_json(root, &m);
	CHECK(m.have_insmod);
	CHECK_EQ_INT(m.nmem, 4);		/* no LowFree without HIGHMEM */
	CHECK_STR(m.mem[0].field, "MemFree");
	CHECK(m.mem[0].headline);
	CHECK(m.mem[0].per_disk.have && m.mem[0].per_disk.v == 12345);
	CHECK(m.mem[0].change.have && m.mem[0].change.v == -1000);
	CHECK_STR(m.mem[2].field, "Slab");
	CHECK(!m.mem[2].change.have && !m.mem[2].per_disk.have);
	CHECK_STR(m.mem[3].field, "SUnreclaim");
	CHECK(m.mem[3].per_disk.have && m.mem[3].per_disk.v == 1024);
	report_model_release(&m);
	json_object_put(root);
}

/* bisect.json read once into its model, the document drawn from it: the
 * first bad commit, a row per step, a hostile subject escaped, a step
 * without a figure left blank; a damaged file still makes a document. */
TEST(report_bisect_model_and_document)
{
	json_object *b = json_tokener_parse(
		"{\"outcome\": \"found\", \"first_bad\": {\"commit\": \"0123456789abcdef\","
		" \"subject\": \"block: *x* <y>\"}, \"criterion\": {\"text\": \"MemFree\", \"unit\": \"B\"},"
		" \"commits\": 120, \"steps_between\": 7, \"bound\": 7, \"candidates\": [\"c1\"],"
		" \"steps\": [{\"role\": \"good\", \"commit\": \"aaaaaaaaaaaaaaaaaaaa\", \"mean\": 1500,"
		" \"runs\": [1, 2], \"verdict\": \"good\", \"build_s\": 30},"
		" {\"role\": \"probe\", \"commit\": 42, \"verdict\": \"bad\"}]}");
	json_object *bad = json_tokener_parse("{\"steps\": \"no\", \"commits\": \"x\"}");
	struct bisect_model m;
	struct strbuf sb = STRBUF_INIT;

	REQUIRE(b && bad);
	bisect_model_from_json(b, &m);
	CHECK(m.have_first_bad);
	CHECK_EQ_INT(m.nsteps, 2);
	CHECK_EQ_INT(m.steps[0].runs, 2);
	CHECK(m.steps[0].mean.have && !m.steps[1].mean.have);
	CHECK(m.steps[1].commit == NULL);	/* not text */
	CHECK_EQ_INT(m.ncandidates, 1);
	document_bisect(&markdown_markup, &m, &sb);
	CHECK(strstr(sb.buf, "# scaletest bisect: first bad commit found\n"));
	CHECK(strstr(sb.buf, "block: \\*x\\* &lt;y&gt;"));
	/* format.c's figures: a missing run time is "n/a", not 0 */
	CHECK(strstr(sb.buf, "| 1 | good | aaaaaaaaaaaa |  | 1,500 B | 2 | good |  | 30.00 s | n/a |\n"));
	CHECK(strstr(sb.buf, "| 2 | probe |  |  |  | 0 | **bad** |"));
	bisect_model_release(&m);
	sb_reset(&sb);
	bisect_model_from_json(bad, &m);
	CHECK(!m.have_first_bad && !m.nsteps && !m.commits.have);
	document_bisect(&markdown_markup, &m, &sb);
	CHECK(strstr(sb.buf, "# scaletest bisect: unknown\n"));
	CHECK(strstr(sb.buf, "## Steps"));
	bisect_model_release(&m);
	sb_release(&sb);
	json_object_put(b);
	json_object_put(bad);
}
