// SPDX-License-Identifier: Apache-2.0
#include "record/crash_re.h"

#include <ctype.h>
#include <pthread.h>
#include <string.h>

static pthread_mutex_t re_lock = PTHREAD_MUTEX_INITIALIZER;

/* The ']' that closes the bracket expression opening at p, or NULL. */
static const char *bracket_end(const char *p)
{
	const char *q = p + 1;

	if (*q == '^')
		q++;
	if (*q == ']')
		q++;
	while (*q && *q != ']') {
		if (*q == '[' && (q[1] == ':' || q[1] == '.' || q[1] == '=')) {
			const char *e = strchr(q + 2, q[1]);

			while (e && e[1] != ']')
				e = strchr(e + 1, q[1]);
			q = e ? e + 2 : q + 1;
		} else {
			q++;
		}
	}
	return *q ? q : NULL;
}

/* "(?:" becomes "(" that is not an argument; bracket expressions and
 * escapes are copied as they are.  -1 on too many groups. */
static int re_translate(struct re *re, struct strbuf *out)
{
	unsigned group = 0;

	re->ncap = 0;
	for (const char *p = re->src; *p; p++) {
		if (*p == '\\' && p[1]) {
			sb_add(out, p, 2);
			p++;
		} else if (*p == '[') {
			const char *q = bracket_end(p);

			if (!q)
				return -1;
			sb_add(out, p, (size_t)(q - p) + 1);
			p = q;
		} else if (*p == '(') {
			if (++group >= RE_GROUPS)
				return -1;
			sb_addch(out, '(');
			if (p[1] == '?' && p[2] == ':')
				p += 2;
			else
				re->cap[re->ncap++] = (unsigned char)group;
		} else {
			sb_addch(out, *p);
		}
	}
	return 0;
}

/* The longest run of plain characters outside groups that every match
 * must hold (a pattern with a top-level "|" has none): the line is looked
 * for it before the regex runs, as RE2 does with its prefilter. */
static void re_need(struct re *re)
{
	char cur[sizeof(re->need)];
	size_t n = 0, best = 0;
	int depth = 0;

	re->need[0] = '\0';
	if (re->icase)
		return;
	for (const char *p = re->src;; p++) {
		int lit = -1;

		if (*p == '\\' && p[1] && !strchr("wWsSbB<>`'", p[1]))
			lit = *++p;
		else if (*p == '\\' && p[1])
			p++;		/* a class (\w, \s): no plain character */
		else if (*p == '|' && !depth)
			return;
		else if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (*p == '*' || *p == '?' || *p == '{')
			n = n ? n - 1 : 0;	/* the last one may be absent */
		else if (*p && !strchr(".[]^$+\\|", *p))
			lit = *p;
		if (lit >= 0 && !depth && n + 1 < sizeof(cur)) {
			cur[n++] = (char)lit;
			continue;
		}
		if (n > best && n > 1) {
			memcpy(re->need, cur, n);
			re->need[n] = '\0';
			best = n;
		}
		n = 0;
		if (!*p)
			return;
		if (*p == '[' && !(p = bracket_end(p)))
			return;
		else if (*p == '{')
			while (p[1] && *p != '}')
				p++;
	}
}

int crash_re_ready(struct re *re)
{
	int state = __atomic_load_n(&re->state, __ATOMIC_ACQUIRE);

	if (state)
		return state;
	pthread_mutex_lock(&re_lock);
	if (!re->state) {
		struct strbuf sb = STRBUF_INIT;

		if (!re->icase && !strpbrk(re->src, ".[]()*+?{}|^$\\")) {
			state = 2;
		} else if (re_translate(re, &sb) < 0 ||
			   regcomp(&re->rx, sb.buf, REG_EXTENDED | (re->icase ? REG_ICASE : 0))) {
			state = -1;
		} else {
			state = re->rx.re_nsub < RE_GROUPS ? 1 : -1;
		}
		re_need(re);
		sb_release(&sb);
		__atomic_store_n(&re->state, state, __ATOMIC_RELEASE);
	}
	state = re->state;
	pthread_mutex_unlock(&re_lock);
	return state;
}

int crash_re_find(struct re *re, const char *s, size_t len, regmatch_t *m)
{
	regmatch_t all[RE_GROUPS + 1];
	int state = crash_re_ready(re);

	if (state == 2) {
		const char *p = memmem(s, len, re->src, strlen(re->src));
		if (p && m) {
			m[0].rm_so = (regoff_t)(p - s);
			m[0].rm_eo = m[0].rm_so + (regoff_t)strlen(re->src);
		}
		return p != NULL;
	}
	if (state != 1)
		return 0;
	if (re->need[0] && !memmem(s, len, re->need, strlen(re->need)))
		return 0;
	all[0].rm_so = 0;
	all[0].rm_eo = (regoff_t)len;
	if (regexec(&re->rx, s, m ? re->rx.re_nsub + 1 : 0, all, REG_STARTEND))
		return 0;
	if (m) {
		m[0] = all[0];
		for (unsigned i = 0; i < re->ncap; i++)
			m[i + 1] = all[re->cap[i]];
	}
	return 1;
}

int crash_re_any(struct re *const *res, const char *s, size_t len)
{
	for (size_t i = 0; res[i]; i++)
		if (crash_re_find(res[i], s, len, NULL))
			return 1;
	return 0;
}

int crash_re_replace_all(struct re *re, const char *with, struct strbuf *s)
{
	struct strbuf out = STRBUF_INIT;
	regmatch_t all[RE_GROUPS + 1], m[RE_GROUPS + 1];
	size_t pos = 0;
	int any = 0;

	if (crash_re_ready(re) != 1)
		return 0;
	while (pos <= s->len) {
		all[0].rm_so = (regoff_t)pos;
		all[0].rm_eo = (regoff_t)s->len;
		if (regexec(&re->rx, s->buf, re->rx.re_nsub + 1, all,
			    REG_STARTEND | (pos ? REG_NOTBOL : 0)))
			break;
		m[0] = all[0];
		for (unsigned i = 0; i < re->ncap; i++)
			m[i + 1] = all[re->cap[i]];
		sb_add(&out, s->buf + pos, (size_t)m[0].rm_so - pos);
		for (const char *w = with; *w; w++) {
			unsigned n;

			if (w[0] == '$' && w[1] == '{' && isdigit((unsigned char)w[2]) && w[3] == '}') {
				n = (unsigned)(w[2] - '0');
				if (n >= 1 && n <= re->ncap && m[n].rm_so >= 0)
					sb_add(&out, s->buf + m[n].rm_so, (size_t)(m[n].rm_eo - m[n].rm_so));
				w += 3;
				continue;
			}
			sb_addch(&out, *w);
		}
		any = 1;
		if (m[0].rm_eo == m[0].rm_so) {
			if ((size_t)m[0].rm_eo < s->len)
				sb_addch(&out, s->buf[m[0].rm_eo]);
			pos = (size_t)m[0].rm_eo + 1;
		} else {
			pos = (size_t)m[0].rm_eo;
		}
	}
	if (pos < s->len)
		sb_add(&out, s->buf + pos, s->len - pos);
	any = any && (out.len != s->len || memcmp(out.buf, s->buf, s->len));
	if (any) {
		sb_reset(s);
		sb_add(s, out.buf, out.len);
	}
	sb_release(&out);
	return any;
}
