/* SPDX-License-Identifier: Apache-2.0 */
/*
 * format: the one place where reports turn numbers into text and escape
 * strings for the format they land in.  Every writer (text.c,
 * doc_*.c for markdown and HTML, svg.c, junit.c) formats through these,
 * so that "1,234 kB" or an escaped device name looks the same in every
 * report.
 *
 *	struct num v = { 711168, 1 };		// a figure, maybe missing
 *	fmt_kb(&sb, v);				// "711,168 kB", or "n/a"
 *	fmt_signed_kb(&sb, v);			// "+711,168 kB"
 *	fmt_per_disk(&sb, v);			// "182,059 B", or "n/a"
 *	fmt_thousands(&sb, -711168);		// "-711,168"
 *	md_escape(&sb, name);			// report.md, outside code
 *	html_escape(&sb, name);			// HTML text and attributes
 *	xml_escape(&sb, name);			// JUnit XML
 *	text_clean(&sb, name);			// the terminal
 *
 * One missing-value marker in every writer (terminal, markdown, HTML,
 * JUnit): "n/a" for a figure that is missing, "?" for a missing name or
 * identity (fmt_or(s, "?")).  One precision per quantity, whichever writer
 * prints it:
 *
 *	quantity		function		precision		missing
 *	memory, kB		fmt_kb, fmt_signed_kb	whole, 1,234 kB		n/a
 *	bytes per disk		fmt_per_disk		whole, 1,234 B		n/a
 *	counts, IOPS		fmt_count		whole, 1,234		n/a
 *	a setting, a count	fmt_whole		whole, 2048 (as set)	n/a
 *	a measurement, sd	fmt_amount, fmt_value	1,234; else %.3g	n/a
 *	a change of one		fmt_change		the same, signed	n/a
 *	mean ± sd (n)		fmt_mean_sd		fmt_value each		n/a
 *	percentage		fmt_percent		%.1f%%			n/a
 *	change in percent	fmt_signed_percent	%+.1f%%			n/a
 *	p-value			fmt_p			%.3f, "< 0.001"		n/a
 *	seconds			fmt_seconds		%.2f s			n/a
 *	milliseconds		fmt_ms			%.3f ms			n/a
 *	microseconds (fio)	fmt_us			fmt_value, 1,234 us	n/a
 *	R²			fmt_r2			%.4f			n/a
 *	ratio			fmt_ratio		%.2f×			n/a
 *
 * Machine formats are not formatted here and keep their own exact
 * numbers: result.json, compare.json, KCIDB JSON (kcidb.c, %.15g), the
 * sweep TSV (tsv.c), JUnit's time="" attributes (junit.c) and the SVG's
 * coordinates and axis ticks (svg.c).
 *
 * Every escaper first cleans its string as sb_add_clean() does (lib/util.h:
 * invalid UTF-8, controls, noncharacters and bidi controls become '?'; XML
 * keeps tab and newline), so that nothing from a guest or a result.json
 * from elsewhere can move a cursor, end a line, reorder text or make XML
 * ill-formed, and appends nothing for NULL.  (shell_quote() for commands
 * shown is in lib/util.h.)
 */
#ifndef SCALETEST_REPORT_FORMAT_H
#define SCALETEST_REPORT_FORMAT_H

#include "lib/strbuf.h"

/* A figure from a JSON document: have is 0 when it was missing, null or
 * not a finite number (then v is 0). */
struct num {
	double v;
	int have;
};

/* v rounded to the nearest integer (halves away from zero), clamped to
 * +-9e18. */
long long fmt_round(double v);

/* 1234567 -> "1,234,567"; negative numbers keep their sign. */
void fmt_thousands(struct strbuf *out, long long v);
/* fmt_thousands of a rounded double. */
void fmt_thousands_d(struct strbuf *out, double v);
/* "1,234 kB" / "+1,234 kB" ('+' when it rounds above zero); "n/a" when
 * the figure is missing. */
void fmt_kb(struct strbuf *out, struct num v);
void fmt_signed_kb(struct strbuf *out, struct num v);
/* Bytes per disk: "182,059 B", or "n/a". */
void fmt_per_disk(struct strbuf *out, struct num v);
/* A whole number with thousands separators, or "n/a"; the _or_blank form
 * writes nothing for a missing one (a direction fio did not run). */
void fmt_count(struct strbuf *out, struct num v);
/* A whole number as it was set, without separators (2048 MiB, 4000 of
 * 4000 disks, 1 CPU), or "n/a": never 0 for a figure that is missing. */
void fmt_whole(struct strbuf *out, struct num v);
void fmt_count_or_blank(struct strbuf *out, struct num v);
/* One precision per quantity, "n/a" when missing: a percentage "12.3%",
 * seconds "1.25 s", milliseconds "0.412 ms", R² "0.9987", a ratio
 * "1.25×". */
void fmt_percent(struct strbuf *out, struct num v);
void fmt_seconds(struct strbuf *out, struct num v);
void fmt_ms(struct strbuf *out, struct num v);
void fmt_r2(struct strbuf *out, struct num v);
void fmt_ratio(struct strbuf *out, struct num v);
/* A measurement of any size, in every writer: thousands separators from
 * 1,000 up, else three significant digits, %.3g (123, 12.5, 12, 0.38). */
void fmt_value(struct strbuf *out, double v);
/* fmt_value of a figure, or "n/a"; the change adds '+' above zero. */
void fmt_amount(struct strbuf *out, struct num v);
void fmt_change(struct strbuf *out, struct num v);
/* "133,041 ± 410 (n=3)": the sd and n only with two runs or more; "n/a"
 * for a missing mean. */
void fmt_mean_sd(struct strbuf *out, struct num mean, struct num sd, struct num n);
/* A p-value, "0.042" or "< 0.001" (the '<' is for the caller to escape),
 * or "n/a" (missing or negative). */
void fmt_p(struct strbuf *out, struct num p);
/* "p = 0.042", "p < 0.001", "p = n/a": a p-value in words ("bends (p < 0.001)"). */
void fmt_p_is(struct strbuf *out, struct num p);
/* A change in percent, "+12.7%", or "n/a". */
void fmt_signed_percent(struct strbuf *out, struct num v);
/* A fio latency in microseconds, fmt_value's "10,813 us", "412 us", or
 * "n/a". */
void fmt_us(struct strbuf *out, struct num v);

/* s, or def when s is NULL (a missing string from a model). */
const char *fmt_or(const char *s, const char *def);
/* Side k of a comparison by its letter: A (the base), B, ... (k mod 26). */
char fmt_side_letter(size_t k);

/* Characters (UTF-8 sequences) in s; 0 for NULL. */
size_t utf8_len(const char *s);

void text_clean(struct strbuf *out, const char *s);
/* Outside code spans: < > & as entities, the markup characters
 * \ ` * _ [ ] | ~ behind a backslash. */
void md_escape(struct strbuf *out, const char *s);
/* & < > " ' as entities: safe in text and quoted attribute values. */
void html_escape(struct strbuf *out, const char *s);
/* html_escape() of at most max characters of s, an ellipsis when cut. */
void html_escape_cut(struct strbuf *out, const char *s, size_t max);
/* & < > " ' as entities; tab and newline kept. */
void xml_escape(struct strbuf *out, const char *s);

/* A comparison's verdict on a page: its CSS class suffix (regression,
 * improvement, worse, better, nochange, na) and its words (a regression gets a mark). */
const char *fmt_verdict_class(const char *verdict);
void fmt_verdict_html(struct strbuf *out, const char *verdict);
/* " unit", escaped for HTML; nothing for an empty unit or NULL. */
void fmt_unit_html(struct strbuf *out, const char *unit);

#endif
