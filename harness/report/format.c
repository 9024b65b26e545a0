// SPDX-License-Identifier: Apache-2.0
#include "report/format.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

long long fmt_round(double v)
{
	v = v < -9e18 ? -9e18 : v > 9e18 ? 9e18 : v;
	return (long long)(v < 0 ? v - 0.5 : v + 0.5);
}

void fmt_thousands(struct strbuf *out, long long v)
{
	char digits[32];
	int n, lead;

	unsigned long long mag = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;

	if (v < 0)
		sb_addch(out, '-');
	n = snprintf(digits, sizeof(digits), "%llu", mag);
	lead = n % 3 ? n % 3 : 3;
	sb_add(out, digits, (size_t)lead);
	for (int i = lead; i < n; i += 3) {
		sb_addch(out, ',');
		sb_add(out, digits + i, 3);
	}
}

void fmt_thousands_d(struct strbuf *out, double v)
{
	fmt_thousands(out, fmt_round(v));
}

/* A figure and its unit, or "n/a". */
static void fmt_in(struct strbuf *out, struct num v, const char *unit)
{
	if (!v.have) {
		sb_adds(out, "n/a");
		return;
	}
	fmt_thousands_d(out, v.v);
	sb_adds(out, unit);
}

void fmt_kb(struct strbuf *out, struct num v)
{
	fmt_in(out, v, " kB");
}

void fmt_signed_kb(struct strbuf *out, struct num v)
{
	if (v.have && fmt_round(v.v) > 0)
		sb_addch(out, '+');
	fmt_kb(out, v);
}

void fmt_per_disk(struct strbuf *out, struct num v)
{
	fmt_in(out, v, " B");
}

void fmt_value(struct strbuf *out, double v)
{
	double a = v < 0 ? -v : v;

	/* From 999.5 up, so that what %.3g rounds to 1000 is "1,000", never
	 * "1e+03"; %.3g drops trailing zeros (12, 12.5, 0.38). */
	if (a >= 999.5)
		fmt_thousands_d(out, v);
	else
		sb_addf(out, "%.3g", v);
}

static void fmt_signed_value(struct strbuf *out, double v)
{
	if (v > 0)
		sb_addch(out, '+');
	fmt_value(out, v);
}

size_t utf8_len(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/*
 * Every writer cleans what it embeds before it escapes it: a model's
 * strings come from result.json, which may come from anywhere (invalid
 * UTF-8, U+FFFF, U+202E, terminal escapes), so the cleaning of
 * sb_add_clean() (lib/util.h) is the first step of each escaper here.
 * *clean is a malloc'd copy; multiline keeps newlines and tabs.
 */
static const char *cleaned(const char *s, int multiline, char **clean)
{
	struct strbuf sb = STRBUF_INIT;

	if (!s)
		s = "";
	sb_add_clean(&sb, s, strlen(s), multiline);
	*clean = sb_detach(&sb, NULL);
	return *clean;
}

void text_clean(struct strbuf *out, const char *s)
{
	if (s)
		sb_add_clean(out, s, strlen(s), 0);
}

/* The entity for c in HTML (apos: "&#39;") or XML (apos: "&apos;"), or
 * NULL. */
static const char *entity(unsigned char c, int quotes, const char *apos)
{
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return quotes ? "&quot;" : NULL;
	case '\'':
		return quotes ? apos : NULL;
	}
	return NULL;
}

void md_escape(struct strbuf *out, const char *s)
{
	char *clean;

	for (s = cleaned(s, 0, &clean); *s; s++) {
		unsigned char c = (unsigned char)*s;
		const char *e = entity(c, 0, NULL);

		if (e)
			sb_adds(out, e);
		/* Mid-line, only these make markup (list markers and headings need a
		 * line start, which these strings never have). */
		else if (strchr("\\`*_[]|~", c))
			sb_addf(out, "\\%c", c);
		else
			sb_addch(out, (char)c);
	}
	free(clean);
}

void html_escape(struct strbuf *out, const char *s)
{
	char *clean;

	for (s = cleaned(s, 0, &clean); *s; s++) {
		const char *e = entity((unsigned char)*s, 1, "&#39;");

		if (e)
			sb_adds(out, e);
		else
			sb_addch(out, *s);
	}
	free(clean);
}

void html_escape_cut(struct strbuf *out, const char *s, size_t max)
{
	size_t chars = 0;
	const char *p;
	char *cut;

	if (!s)
		return;
	if (utf8_len(s) <= max) {
		html_escape(out, s);
		return;
	}
	for (p = s; *p; p++)
		if (((unsigned char)*p & 0xc0) != 0x80 && chars++ == max - 1)
			break;
	cut = xstrndup(s, (size_t)(p - s));
	html_escape(out, cut);
	free(cut);
	sb_adds(out, "\xe2\x80\xa6");
}

void xml_escape(struct strbuf *out, const char *s)
{
	char *clean;

	for (s = cleaned(s, 1, &clean); *s; s++) {
		const char *e = entity((unsigned char)*s, 1, "&apos;");

		if (e)
			sb_adds(out, e);
		else
			sb_addch(out, *s);
	}
	free(clean);
}

const char *fmt_verdict_class(const char *v)
{
	if (!strcmp(v, "regression"))
		return "regression";
	if (!strcmp(v, "improvement"))
		return "improvement";
	if (!strcmp(v, "worse"))
		return "worse";
	if (!strcmp(v, "better"))
		return "better";
	if (!strcmp(v, "no change"))
		return "nochange";
	return "na";
}

void fmt_verdict_html(struct strbuf *out, const char *v)
{
	if (!strcmp(v, "regression"))
		sb_adds(out, "\xe2\x96\xb2 REGRESSION");	/* an up triangle */
	else
		html_escape(out, v);
}

void fmt_unit_html(struct strbuf *out, const char *unit)
{
	if (unit && *unit) {
		sb_addch(out, ' ');
		html_escape(out, unit);
	}
}

const char *fmt_or(const char *s, const char *def)
{
	return s ? s : def;
}

/* fmt of v.v, or "n/a" when the figure is missing. */
static void fmt_have(struct strbuf *out, struct num v, void (*fmt)(struct strbuf *, double))
{
	if (v.have)
		fmt(out, v.v);
	else
		sb_adds(out, "n/a");
}

void fmt_count(struct strbuf *out, struct num v)
{
	fmt_have(out, v, fmt_thousands_d);
}

static void whole(struct strbuf *out, double v)
{
	sb_addf(out, "%lld", fmt_round(v));
}

void fmt_whole(struct strbuf *out, struct num v)
{
	fmt_have(out, v, whole);
}

void fmt_count_or_blank(struct strbuf *out, struct num v)
{
	if (v.have)
		fmt_thousands_d(out, v.v);
}

/* v.v with printf's fmt (one double), or "n/a". */
static void fmt_fixed(struct strbuf *out, struct num v, const char *fmt)
{
	if (v.have)
		sb_addf(out, fmt, v.v);
	else
		sb_adds(out, "n/a");
}

void fmt_percent(struct strbuf *out, struct num v)
{
	fmt_fixed(out, v, "%.1f%%");
}

void fmt_seconds(struct strbuf *out, struct num v)
{
	fmt_fixed(out, v, "%.2f s");
}

void fmt_ms(struct strbuf *out, struct num v)
{
	fmt_fixed(out, v, "%.3f ms");
}

void fmt_r2(struct strbuf *out, struct num v)
{
	fmt_fixed(out, v, "%.4f");
}

void fmt_ratio(struct strbuf *out, struct num v)
{
	fmt_fixed(out, v, "%.2f\xc3\x97");
}

char fmt_side_letter(size_t k)
{
	return (char)('A' + (int)(k % 26));
}

void fmt_amount(struct strbuf *out, struct num v)
{
	fmt_have(out, v, fmt_value);
}

void fmt_change(struct strbuf *out, struct num v)
{
	fmt_have(out, v, fmt_signed_value);
}

void fmt_mean_sd(struct strbuf *out, struct num mean, struct num sd, struct num n)
{
	fmt_amount(out, mean);
	if (!mean.have)
		return;
	if (n.v > 1 && sd.have) {
		sb_adds(out, " \xc2\xb1 ");
		fmt_value(out, sd.v);
	}
	if (n.v > 1)
		sb_addf(out, " (n=%lld)", fmt_round(n.v));
}

void fmt_p(struct strbuf *out, struct num p)
{
	if (!p.have || p.v < 0)
		sb_adds(out, "n/a");
	else if (p.v < 0.001)
		sb_adds(out, "< 0.001");
	else
		sb_addf(out, "%.3f", p.v);
}

void fmt_p_is(struct strbuf *out, struct num p)
{
	sb_adds(out, p.have && p.v >= 0 && p.v < 0.001 ? "p " : "p = ");
	fmt_p(out, p);
}

void fmt_signed_percent(struct strbuf *out, struct num v)
{
	fmt_fixed(out, v, "%+.1f%%");
}

void fmt_us(struct strbuf *out, struct num v)
{
	fmt_amount(out, v);
	if (v.have)
		sb_adds(out, " us");
}
