// SPDX-License-Identifier: Apache-2.0
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/model.h"
#include "report/report.h"
#include "report/format.h"
#include "report/text.h"
#include "result/curve.h"
#include "result/result.h"
#include "test.h"
#include "lib/util.h"

static const char *esc(const char *s)
{
	static struct strbuf out = STRBUF_INIT;

	sb_reset(&out);
	html_escape(&out, s);
	return out.buf;
}

/* The pages, through the model as report.c makes them. */
static void page_run(json_object *root, struct strbuf *sb)
{
	struct report_model m;

	report_model_from_json(root, &m);
	html_run(&m, sb);
	report_model_release(&m);
}

static void page_compare(json_object *cmp, struct strbuf *sb)
{
	struct compare_model m;

	compare_model_from_json(cmp, &m);
	html_compare(&m, sb);
	compare_model_release(&m);
}

static json_object *parse(const char *text)
{
	json_object *o = json_tokener_parse(text);

	REQUIRE(o != NULL);
	return o;
}

static json_object *parse_fixture(const char *relpath)
{
	char *buf = fixture(relpath, NULL);
	json_object *o = json_tokener_parse(buf);

	free(buf);
	REQUIRE(o != NULL);
	return o;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0, len = strlen(needle);

	for (const char *p = strstr(hay, needle); p; p = strstr(p + len, needle))
		n++;
	return n;
}

/*
 * What every page must be, whatever it was made from: one whole document,
 * every <svg> closed, no control byte but newlines, no number that is not
 * one (nan, inf) and no negative width or height in a drawing.
 */
static void check_page(const struct strbuf *sb, int line)
{
	static const char *const bad[] = {
		"height=\"-", "width=\"-", "<script", "=\"\"",
	};
	static const char *const words[] = { "nan", "inf", "infinity" };

	if (strncmp(sb->buf, "<!DOCTYPE html>\n<html lang=\"en\">", 31))
		test_fail(__FILE__, line, "page does not start with the doctype");
	if (sb->len < 16 || strcmp(sb->buf + sb->len - 16, "</body>\n</html>\n"))
		test_fail(__FILE__, line, "page does not end with </body></html>");
	if (strlen(sb->buf) != sb->len)
		test_fail(__FILE__, line, "page holds a NUL byte");
	for (size_t i = 0; i < sb->len; i++) {
		unsigned char c = (unsigned char)sb->buf[i];
		if ((c < 0x20 && c != '\n') || c == 0x7f) {
			test_fail(__FILE__, line, "control byte 0x%02x at offset %zu", c, i);
			break;
		}
	}
	if (count(sb->buf, "<svg") != count(sb->buf, "</svg>"))
		test_fail(__FILE__, line, "%zu <svg> but %zu </svg>", count(sb->buf, "<svg"),
			  count(sb->buf, "</svg>"));
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *p = strstr(sb->buf, bad[i]);
		if (p)
			test_fail(__FILE__, line, "page holds '%s': ...%.40s...", bad[i],
				  p > sb->buf + 20 ? p - 20 : sb->buf);
	}
	/* printf's words for what is not a number, as whole words */
	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		size_t n = strlen(words[i]);
		for (const char *p = strcasestr(sb->buf, words[i]); p; p = strcasestr(p + 1, words[i])) {
			int before = p > sb->buf && isalpha((unsigned char)p[-1]);
			int after = isalpha((unsigned char)p[n]);
			if (!before && !after) {
				test_fail(__FILE__, line, "page holds '%s': ...%.40s...", words[i],
					  p > sb->buf + 20 ? p - 20 : sb->buf);
				break;
			}
		}
	}
}

TEST(report_html_escape)
{
	CHECK_STR(esc("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
	CHECK_STR(esc("a & b"), "a &amp; b");
	CHECK_STR(esc("x=\"1\" y='2'"), "x=&quot;1&quot; y=&#39;2&#39;");
	CHECK_STR(esc("&lt;"), "&amp;lt;");
	CHECK_STR(esc("a\nb\rc\td\x1b[31m\x7f"), "a?b?c?d?[31m?");
	CHECK_STR(esc("sdewv 129:4080 kmalloc-1k"), "sdewv 129:4080 kmalloc-1k");
	CHECK_STR(esc("caf\xc3\xa9"), "caf\xc3\xa9");
	CHECK_STR(esc(""), "");
	CHECK_STR(esc(NULL), "");
	for (const char *p = esc("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
				 "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f");
	     *p; p++)
		CHECK(*p == '?');
}

TEST(report_html_run_fixture)
{
	json_object *root = parse_fixture("run/result.json");
	struct strbuf sb = STRBUF_INIT;

	page_run(root, &sb);
	check_page(&sb, __LINE__);
	CHECK_CONTAINS(sb.buf, "<title>20261203-054926-smoke: pass</title>");
	CHECK_CONTAINS(sb.buf, "<span class=\"status st-ok\">pass</span>");
	CHECK_CONTAINS(sb.buf, "kernel 6.1.0-57-amd64 x86_64, tcg, 512 MiB, 1 CPU, QEMU 7.2.22");
	CHECK_CONTAINS(sb.buf, "MemFree is the headline: a 64-bit kernel has no LowFree");
	CHECK(!strstr(sb.buf, "<td>LowFree</td>"));
	CHECK_CONTAINS(sb.buf, "<td class=\"n\">470,732 B</td>");
	/* memory by phase: 6 phases x (MemFree, Slab); slab growth: 10 caches */
	CHECK_EQ_INT(count(sb.buf, "<svg"), 2);
	CHECK_EQ_INT(count(sb.buf, "<rect class=\"bar\""), 6 * 2 + 10);
	CHECK_EQ_INT(count(sb.buf, "<polyline"), 0);
	CHECK_CONTAINS(sb.buf, ">+1,656 kB</text>");
	CHECK_CONTAINS(sb.buf, ">inode_cache</text>");
	CHECK_CONTAINS(sb.buf, "<td>last scsi_debug</td><td>sdan</td><td>66:112</td>");
	CHECK_CONTAINS(sb.buf, "<td class=\"pass\">pass</td>");
	/* round ticks with thousands separators on the kB axis */
	CHECK_CONTAINS(sb.buf, ">400,000</text>");
	sb_release(&sb);
	json_object_put(root);
}

TEST(report_html_i386_monitor_fio)
{
	json_object *root = parse_fixture("run-i386/result.json");
	struct strbuf sb = STRBUF_INIT;
	size_t samples = json_object_array_length(jget(root, "monitor.samples"));

	page_run(root, &sb);
	check_page(&sb, __LINE__);
	CHECK_CONTAINS(sb.buf, "<span class=\"status st-bad\">fail</span>");
	CHECK_CONTAINS(sb.buf, "<p class=\"reason\"><b>Reason:</b> check failed:");
	CHECK_CONTAINS(sb.buf, "LowFree is the headline");
	CHECK_CONTAINS(sb.buf, "<tr class=\"headline\"><td>LowFree</td>");
	/* three series by phase, a monitor chart of three lines over four steps */
	CHECK_EQ_INT(count(sb.buf, "<svg"), 3);
	CHECK_EQ_INT(count(sb.buf, "<rect class=\"bar\""), 6 * 3 + 10);
	CHECK_EQ_INT(count(sb.buf, "<polyline"), 3);
	CHECK_EQ_INT(count(sb.buf, "<rect class=\"step\""), 4);
	CHECK_EQ_INT(count(sb.buf, "<rect class=\"gap\""), 0);
	CHECK(samples > 100);
	CHECK_CONTAINS(sb.buf, ">guest uptime, s</text>");
	CHECK_CONTAINS(sb.buf, ">rmmod</text>");
	/* fio's jobs */
	CHECK_CONTAINS(sb.buf, "<h2 id=\"fio\">fio</h2>");
	CHECK_CONTAINS(sb.buf, "<td>verify-write</td><td>verify-sdeww</td>");
	CHECK_CONTAINS(sb.buf, "<td>virtio</td><td>sdeww</td><td>130:3840</td>");
	CHECK_CONTAINS(sb.buf, "<td class=\"fail\">FAIL</td>");
	sb_release(&sb);
	json_object_put(root);
}

TEST(report_html_hostile_strings)
{
	json_object *root = parse_fixture("run-hostile/result.json");
	struct strbuf sb = STRBUF_INIT;

	page_run(root, &sb);
	check_page(&sb, __LINE__);	/* no '<script', no control byte */
	CHECK_CONTAINS(sb.buf, "sd&lt;script&gt;alert(1)&lt;/script&gt;|x");
	CHECK_CONTAINS(sb.buf, "guest said ?[2J&lt;b&gt;hi&lt;/b&gt;");
	CHECK_CONTAINS(sb.buf, "evil|cache`rm -rf`?[31m");
	CHECK_CONTAINS(sb.buf, "<td>virtio</td><td>sd?[31mred</td>");
	CHECK(!strstr(sb.buf, "<b>hi</b>"));
	sb_release(&sb);
	json_object_put(root);

	/* Console lines, rejected records, step and cache names. */
	root = parse("{\"console\": {\"crash\": \"BUG: <img src=x onerror=alert(1)>\\u001b[0m\","
		     " \"oom\": \"Out of memory & <i>\"}, \"channel\": {\"rejected\": 1,"
		     " \"rejections\": [\"record 3: <script>\\\"'\"]}, \"monitor\": {\"samples\": ["
		     "{\"n\": 1, \"t\": 1, \"step\": \"<svg onload=alert(1)>\", \"slab_kb\": 1},"
		     "{\"n\": 2, \"t\": 2, \"step\": \"io\", \"slab_kb\": 2}]}}");
	sb_reset(&sb);
	page_run(root, &sb);
	check_page(&sb, __LINE__);
	CHECK_CONTAINS(sb.buf, "<b>Console:</b> <code>BUG: &lt;img src=x onerror=alert(1)&gt;?[0m</code>");
	CHECK_CONTAINS(sb.buf, "<b>OOM:</b> <code>Out of memory &amp; &lt;i&gt;</code>");
	CHECK_CONTAINS(sb.buf, "<li><code>record 3: &lt;script&gt;&quot;&#39;</code></li>");
	CHECK_CONTAINS(sb.buf, ">&lt;svg onload=alert(1)&gt;</text>");
	CHECK_EQ_INT(count(sb.buf, "<svg"), 1);
	CHECK(!strstr(sb.buf, "<img"));
	json_object_put(root);
	sb_reset(&sb);

	/* In attribute values (aria-label) quotes are escaped too. */
	root = parse("{\"verdict\": \"regression\\\" onload=\\\"x\", \"metrics\": [{\"name\": "
		     "\"a\\\" onmouseover=\\\"alert(1)\\\" '<svg>\", \"gating\": true, "
		     "\"a\": {\"mean\": 1, \"n\": 1}, \"b\": {\"mean\": 2, \"n\": 1}}]}");
	page_compare(root, &sb);
	check_page(&sb, __LINE__);
	CHECK(!strstr(sb.buf, "\" onmouseover=\""));
	CHECK(!strstr(sb.buf, "\" onload=\""));
	CHECK_CONTAINS(sb.buf, "aria-label=\"a&quot; onmouseover=&quot;alert(1)&quot; &#39;&lt;svg&gt;, A against B\"");
	CHECK_EQ_INT(count(sb.buf, "<svg"), 1);
	sb_release(&sb);
	json_object_put(root);
}

/* Nothing, little, or the wrong types: never a crash, always a page. */
TEST(report_html_missing_data)
{
	static const char *const runs[] = {
		"{}",
		"[]",
		"{\"schema\": 1, \"status\": null, \"phases\": []}",
		"{\"phases\": \"x\", \"monitor\": {\"samples\": 5, \"gaps\": 3}, \"fio\": {\"jobs\": {}},"
		" \"checks\": [1, \"x\", null], \"slab_growth\": {\"a\": 1}, \"disks\": {\"virtio\": 1}}",
		"{\"phases\": [null, 1, {\"name\": 7, \"meminfo\": {\"MemFree\": \"x\"}}],"
		" \"monitor\": {\"samples\": [null, {}, {\"t\": \"x\"}], \"gaps\": [[1], \"x\", [2, null]]},"
		" \"channel\": {\"rejections\": [1, null, \"bad <record>\"]}}",
		/* one phase, zero values */
		"{\"run_id\": \"one\", \"status\": \"pass\", \"phases\": [{\"name\": \"boot\","
		" \"meminfo\": {\"MemFree\": 0, \"LowFree\": 0, \"Slab\": 0}}],"
		" \"slab_growth\": [{\"cache\": \"c\", \"kb\": 0}]}",
		/* negative and huge values, a single monitor sample, a gap at the start */
		"{\"phases\": [{\"name\": \"before-insmod\", \"meminfo\": {\"MemFree\": -5, \"Slab\": 1e300}},"
		" {\"name\": \"after-insmod\", \"meminfo\": {\"MemFree\": -1e300}}],"
		" \"deltas\": {\"insmod\": {\"MemFree_kb\": -1e300}}, \"settings\": {\"disks\": 0},"
		" \"slab_growth\": [{\"cache\": \"shrank\", \"kb\": -300}, {\"cache\": \"grew\", \"kb\": 100}],"
		" \"monitor\": {\"samples\": [{\"n\": 3, \"t\": 5, \"step\": \"io\", \"slab_kb\": 7}],"
		" \"gaps\": [[1, 2]]}}",
		/* every sample at the same time, with the same values */
		"{\"monitor\": {\"samples\": [{\"n\": 1, \"t\": 1, \"meminfo\": {\"MemFree\": 5}},"
		" {\"n\": 2, \"t\": 1, \"meminfo\": {\"MemFree\": 5}}]}}",
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(runs); i++) {
		json_object *root = parse(runs[i]);
		sb_reset(&sb);
		page_run(root, &sb);
		check_page(&sb, __LINE__);
		json_object_put(root);
	}
	sb_reset(&sb);
	page_run(NULL, &sb);
	check_page(&sb, __LINE__);
	CHECK_CONTAINS(sb.buf, "No phase was measured.");

	/* one phase with zeros still draws its axes and (empty) bars */
	json_object *root = parse(runs[5]);
	sb_reset(&sb);
	page_run(root, &sb);
	CHECK_EQ_INT(count(sb.buf, "<rect class=\"bar\""), 3 + 1);
	CHECK_CONTAINS(sb.buf, ">kB</text>");
	json_object_put(root);

	/* negative growth is drawn left of zero, its label before the bar */
	root = parse(runs[6]);
	sb_reset(&sb);
	page_run(root, &sb);
	CHECK_CONTAINS(sb.buf, ">-300 kB</text>");
	CHECK_CONTAINS(sb.buf, ">+100 kB</text>");
	CHECK_EQ_INT(count(sb.buf, "<rect class=\"gap\""), 1);
	CHECK_EQ_INT(count(sb.buf, "<circle class=\"pt\""), 1);	/* one sample: a dot */
	json_object_put(root);

	for (size_t i = 0; i < ARRAY_SIZE(runs); i++) {
		root = parse(runs[i]);
		sb_reset(&sb);
		page_compare(root, &sb);
		check_page(&sb, __LINE__);
		json_object_put(root);
	}
	sb_reset(&sb);
	page_compare(NULL, &sb);
	check_page(&sb, __LINE__);
	CHECK_CONTAINS(sb.buf, "No metric was compared.");
	sb_release(&sb);
}

/* Thousands of samples make a bounded path, broken at the lost ones. */
TEST(report_html_monitor_many_samples)
{
	json_object *root = json_object_new_object(), *m = json_object_new_object();
	json_object *samples = json_object_new_array(), *gaps = json_object_new_array();
	json_object *gap = json_object_new_array();
	struct strbuf sb = STRBUF_INIT;
	static const char *const steps[] = { "insmod", "virtio", "io", "rmmod" };
	const int n = 20000;

	for (int i = 1; i <= n; i++) {
		json_object *s, *mi;
		if (i >= 9000 && i <= 9010)	/* lost */
			continue;
		s = json_object_new_object();
		mi = json_object_new_object();
		json_object_object_add(s, "n", json_object_new_int(i));
		json_object_object_add(s, "t", json_object_new_double(i * 0.01));
		json_object_object_add(s, "step", json_object_new_string(steps[i * 4 / (n + 1)]));
		/* a saw tooth: every pixel column holds a low and a high value */
		json_object_object_add(mi, "MemFree", json_object_new_int(1000000 - i * 10 - (i % 7) * 1000));
		json_object_object_add(mi, "LowFree", json_object_new_int(800000 - i * 10));
		json_object_object_add(s, "meminfo", mi);
		json_object_object_add(s, "slab_kb", json_object_new_int(9000 + i));
		json_object_array_add(samples, s);
	}
	json_object_array_add(gap, json_object_new_int(9000));
	json_object_array_add(gap, json_object_new_int(9010));
	json_object_array_add(gaps, gap);
	json_object_object_add(m, "interval_ms", json_object_new_int(10));
	json_object_object_add(m, "received", json_object_new_int(n - 11));
	json_object_object_add(m, "gaps", gaps);
	json_object_object_add(m, "samples", samples);
	json_object_object_add(root, "monitor", m);

	page_run(root, &sb);
	check_page(&sb, __LINE__);
	/* three series, each broken in two by the gap */
	CHECK_EQ_INT(count(sb.buf, "<polyline"), 6);
	CHECK_EQ_INT(count(sb.buf, "<rect class=\"gap\""), 1);
	CHECK_CONTAINS(sb.buf, ">lost 9000..9010</text>");
	CHECK_CONTAINS(sb.buf, "lost on the channel: 9000..9010");
	CHECK_EQ_INT(count(sb.buf, "<rect class=\"step\""), 4);
	/* at most two points per pixel column of an 800-pixel plot, per line */
	for (const char *p = strstr(sb.buf, "points=\""); p; p = strstr(p + 1, "points=\"")) {
		size_t pts = 1;
		for (const char *q = p + 8; *q != '"'; q++)
			pts += *q == ' ';
		CHECK(pts <= 2 * 800 + 2);
	}
	CHECK(sb.len < 200000);
	sb_release(&sb);
	json_object_put(root);
}

TEST(report_html_compare_regression)
{
	json_object *cmp = parse_fixture("compare/regression.json");
	struct strbuf sb = STRBUF_INIT;

	page_compare(cmp, &sb);
	check_page(&sb, __LINE__);
	CHECK_CONTAINS(sb.buf, "<title>stock vs sched-tags-64: regression</title>");
	CHECK_CONTAINS(sb.buf, "<p class=\"verdict v-regression\">Verdict: \xe2\x96\xb2 REGRESSION</p>");
	/* the environment mismatch is a visible warning */
	CHECK_CONTAINS(sb.buf, "<div class=\"warn\" id=\"mismatch\">");
	CHECK_CONTAINS(sb.buf, "<code>vm.qemu_version</code>: A 7.2.22, B 8.0.0");
	CHECK_CONTAINS(sb.buf, "Welch&#39;s t-test, alpha 0.05, threshold 5%");
	/* the differences, hostile ones escaped */
	CHECK_CONTAINS(sb.buf, "<td><code>kernel.build.patches</code></td><td><i class=\"note\">(none)</i></td>");
	CHECK_CONTAINS(sb.buf, "quiet x=&quot;1&quot; y=&#39;2&#39; &lt;script&gt;alert(1)&lt;/script&gt;?[31m");
	/* the metrics: three regressions marked; rmmod time, which does not
	 * gate, is only better (schema 1 called it an improvement) */
	CHECK_EQ_INT(count(sb.buf, "<tr class=\"regression\">"), 3);
	CHECK_EQ_INT(count(sb.buf, "<tr class=\"improvement\">"), 0);
	CHECK_CONTAINS(sb.buf, "<tr class=\"better\"><td>rmmod time</td>");
	CHECK_EQ_INT(count(sb.buf, "<td class=\"v-regression\">\xe2\x96\xb2 REGRESSION</td>"), 3);
	CHECK_CONTAINS(sb.buf, "<td class=\"n\">133,041 \xc2\xb1 412 B <span class=\"note\">(n=3)</span></td>");
	CHECK_CONTAINS(sb.buf, "<td class=\"n\">+16,832 B</td><td class=\"n\">+12.7%</td><td class=\"n\">&lt; 0.001</td>");
	CHECK_CONTAINS(sb.buf, "<td class=\"n\">-2,496 B</td><td class=\"n\">-5.0%</td>");
	/* a chart per gating metric with data (5 of 6), each with error bars
	 * (3 lines a side) and a dot per run; then the slab chart */
	CHECK_EQ_INT(count(sb.buf, "<svg"), 5 + 1);
	CHECK_EQ_INT(count(sb.buf, "<line class=\"err\""), 5 * 2 * 3);
	CHECK_EQ_INT(count(sb.buf, "<circle class=\"run\""), 5 * 2 * 3);
	CHECK_EQ_INT(count(sb.buf, "<rect class=\"bar\""), 5 * 2 + 8);
	CHECK_CONTAINS(sb.buf, ">scsi_sense_cache</text>");
	CHECK_CONTAINS(sb.buf, ">-3,256 kB</text>");
	CHECK_CONTAINS(sb.buf, "<td class=\"n\">+65,536 kB</td>");
	sb_release(&sb);
	json_object_put(cmp);
}

TEST(report_html_compare_single_runs)
{
	json_object *cmp = parse_fixture("compare/n1-improvement.json");
	struct strbuf sb = STRBUF_INIT;

	page_compare(cmp, &sb);
	check_page(&sb, __LINE__);
	CHECK_CONTAINS(sb.buf, "<p class=\"verdict v-improvement\">Verdict: improvement</p>");
	CHECK(!strstr(sb.buf, "class=\"warn\""));
	/* one run a side: no sd, no error bars, no p */
	CHECK_EQ_INT(count(sb.buf, "<line class=\"err\""), 0);
	CHECK_EQ_INT(count(sb.buf, "\xc2\xb1 "), 2);	/* the table header's only */
	CHECK(strstr(sb.buf, "<td class=\"n\">n/a</td><td class=\"v-improvement\">") != NULL);
	/* a gating metric without figures gets no chart */
	CHECK_EQ_INT(count(sb.buf, "<svg"), 5 + 1);
	/* unchanged caches are left out */
	CHECK(!strstr(sb.buf, ">0 kB</text>"));
	sb_release(&sb);
	json_object_put(cmp);
}

TEST(report_html_written_by_report_write_dir)
{
	const char *dir = test_tmpdir();
	char *src = fixture("run/result.json", NULL), *path;
	struct strbuf html = STRBUF_INIT, md = STRBUF_INIT;

	path = xstrfmt("%s/result.json", dir);
	REQUIRE(write_file(path, src, strlen(src)) == 0);
	free(path);
	REQUIRE(report_write_dir(dir, NULL) == 0);
	path = xstrfmt("%s/report.html", dir);
	REQUIRE(sb_read_file(&html, path) == 0);
	free(path);
	check_page(&html, __LINE__);
	CHECK_CONTAINS(html.buf, "20261203-054926-smoke");
	path = xstrfmt("%s/report.md", dir);
	REQUIRE(sb_read_file(&md, path) == 0);
	free(path);
	CHECK_CONTAINS(md.buf, "# scaletest run ");
	CHECK_CONTAINS(md.buf, "## Memory at insmod");
	path = xstrfmt("%s/report.html.tmp", dir);
	CHECK(!path_exists(path));
	free(path);
	sb_release(&html);
	sb_release(&md);
	free(src);
}

/* Many gaps close together: every one drawn, labels that would overlap
 * left out, the list in the text cut short. */
TEST(report_html_monitor_many_gaps)
{
	struct strbuf js = STRBUF_INIT, sb = STRBUF_INIT;
	json_object *root;

	sb_adds(&js, "{\"monitor\": {\"samples\": [");
	for (int i = 1; i <= 200; i += 2)	/* every even sample lost */
		sb_addf(&js, "%s{\"n\": %d, \"t\": %d, \"step\": \"io\", \"slab_kb\": %d}",
			i > 1 ? ", " : "", i, i, i);
	sb_adds(&js, "], \"gaps\": [");
	for (int i = 2; i < 200; i += 2)
		sb_addf(&js, "%s[%d, %d]", i > 2 ? ", " : "", i, i);
	sb_adds(&js, "]}}");
	root = parse(js.buf);
	page_run(root, &sb);
	check_page(&sb, __LINE__);
	CHECK_EQ_INT(count(sb.buf, "<rect class=\"gap\""), 99);
	CHECK(count(sb.buf, "<text class=\"gaplabel\"") < 20);
	CHECK(count(sb.buf, "<text class=\"gaplabel\"") > 3);
	CHECK_CONTAINS(sb.buf, "; lost on the channel: 2..2, 4..4, ");
	CHECK_CONTAINS(sb.buf, ", 40..40 and more.");
	/* every sample stands alone between gaps: a dot each, no line */
	CHECK_EQ_INT(count(sb.buf, "<polyline"), 0);
	CHECK_EQ_INT(count(sb.buf, "<circle class=\"pt\""), 100);
	sb_release(&sb);
	sb_release(&js);
	json_object_put(root);
}

/* The page a person reads: a run made with --set says so beside its
 * description; a finding's console lines stay lines (a <pre> with line
 * breaks, not '?'); a fit that bends at p < 0.001 reads "p < 0.001", not
 * "p = < 0.001", on the page and in the terminal. */
TEST(report_html_overrides_context_and_p)
{
	json_object *root = parse(
		"{\"run_id\": \"r\", \"status\": \"pass\","
		" \"scenario\": {\"name\": \"x86_64-4000\", \"file\": \"scenarios/x86_64-4000\","
		"  \"description\": \"4000 scsi_debug disks\","
		"  \"overrides\": [\"disks=65536\", \"memory_mb=16384\", \"loglevel=4\"]},"
		" \"findings\": [{\"class\": \"hung-task\", \"blame\": \"kernel\", \"title\": \"INFO: task hung\","
		"  \"line\": 4, \"context\": \"line one <a>\\nline two\\n\"}],"
		" \"time_curves\": {\"insmod\": {\"disks\": 100, \"wall_s\": 3,"
		"  \"points\": [[0, 0], [50, 1], [100, 3]],"
		"  \"fit\": {\"points\": 5, \"ms_per_disk\": 30, \"fixed_s\": 0, \"r2\": 0.99,"
		"   \"p_quadratic\": 0.0001, \"nonlinear\": true,"
		"   \"marginal_first_ms\": 16, \"marginal_last_ms\": 31}}}}");
	struct strbuf sb = STRBUF_INIT, t = STRBUF_INIT;
	struct report_model m;

	page_run(root, &sb);
	check_page(&sb, __LINE__);
	CHECK_CONTAINS(sb.buf, "4000 scsi_debug disks; <span class=\"overridden\">overridden: "
		       "<code>disks=65536</code>, <code>memory_mb=16384</code>, <code>loglevel=4</code>"
		       "</span>");
	CHECK_CONTAINS(sb.buf, "<pre>line one &lt;a&gt;\nline two\n</pre>");
	CHECK(!strstr(sb.buf, "line one &lt;a&gt;?line two"));
	CHECK_CONTAINS(sb.buf, "bends (p &lt; 0.001)");
	CHECK(!strstr(sb.buf, "p = &lt;"));
	/* The curves: disks against time, ms per disk against disks. */
	CHECK_EQ_INT(count(sb.buf, "class=\"chart curves disks-time\""), 1);
	CHECK_EQ_INT(count(sb.buf, "class=\"chart curves ms-per-disk\""), 1);
	report_model_from_json(root, &m);
	text_run(&m, &t);
	CHECK(!strstr(t.buf, "p = <"));
	report_model_release(&m);
	json_object_put(root);
	sb_release(&sb);
	sb_release(&t);
}

/* The time per disk along a curve (result/curve.h), from result.json's
 * points: stretches of a fortieth of the disks, the time before the first
 * disk (the fixed cost) left out, rmmod's removed disks counted down. */
TEST(report_curve_points_and_rates)
{
	json_object *root = parse(
		"{\"time_curves\": {"
		" \"insmod\": {\"disks\": 80, \"points\": [[0, 0], [0, 0.5], [40, 1.3], [80, 3.3]]},"
		" \"rmmod\": {\"disks\": 80, \"points\": [[0, 0], [40, 0.4], [80, 1.2]]}}}");
	struct curve_point *p;
	struct curve_rate *r;
	size_t n, k;

	n = curve_read(root, CURVE_INSMOD, &p);
	REQUIRE(n == 4);
	k = curve_rates(p, n, &r);
	REQUIRE(k == 2);
	/* 40 disks in 0.8 s after the first appeared, then 40 in 2 s: it bends */
	CHECK(r[0].disks == 40 && r[0].ms > 19.99 && r[0].ms < 20.01);
	CHECK(r[1].disks == 80 && r[1].ms > 49.99 && r[1].ms < 50.01);
	CHECK(r[1].ms > r[0].ms);
	free(p);
	free(r);
	n = curve_read(root, CURVE_RMMOD, &p);
	REQUIRE(n == 3);
	CHECK(p[0].disks == 80 && p[2].disks == 0);	/* present, counted down */
	k = curve_rates(p, n, &r);
	REQUIRE(k == 2);
	CHECK(r[0].disks == 40 && r[0].ms > 9.99 && r[0].ms < 10.01);
	CHECK(r[1].disks == 0 && r[1].ms > 19.99 && r[1].ms < 20.01);
	free(p);
	free(r);
	/* Nothing to read: none, and no memory. */
	CHECK(curve_read(root, CURVE_SWEEP_REMOVE, &p) == 0 && !p);
	json_object_put(root);
}
