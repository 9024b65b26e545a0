// SPDX-License-Identifier: Apache-2.0
/*
 * The crash engine: applies the rules (crash_rules.h; syzkaller's in
 * crash_syzkaller.c, the harness's own in crash_own.c) to console lines.
 * A line split into timestamp, caller id and message (the patterns are
 * crash_re.c's), the headers a line holds found in one pass, a report's
 * lines gathered, its title built from the formats of its row (the stack
 * walked, frames skipped, one picked), what varies replaced.  It follows
 * syzkaller's pkg/report/linux.go step by step; the names of those steps
 * are in the comments.
 */
#include "record/crash.h"

#include <ctype.h>
#include <pthread.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "record/crash_rules.h"

/* ---- the oops rows ------------------------------------------------------- */

/* Row k of the oops table: syzkaller's rows, then the harness's. */
static const struct oops *row(size_t k)
{
	return k < crash_syzkaller_noopses ? &crash_syzkaller_oopses[k]
					   : &crash_own_oopses[k - crash_syzkaller_noopses];
}

static size_t rows(void)
{
	return crash_syzkaller_noopses + crash_own_noopses;
}

static size_t count(const char *const *v)
{
	size_t n = 0;

	while (v[n])
		n++;
	return n;
}

/* ---- crash types (syzkaller's pkg/report/crash, TitleToType) ------------ */

const char *crash_title_type(const char *title)
{
	for (const struct crash_type *t = crash_types; t->type; t++)
		for (size_t k = 0; k < ARRAY_SIZE(t->prefixes) && t->prefixes[k]; k++)
			if (!strncmp(title, t->prefixes[k], strlen(t->prefixes[k])))
				return t->type;
	return "UNKNOWN";
}

/* ---- lines --------------------------------------------------------------- */

static const char *digits(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && isdigit((unsigned char)*q))
		q++;
	return q > p ? q : NULL;
}

/* "<N>[ 12.345678][  T1042] " at p: the message after it, or NULL. */
static const char *stamp_at(const char *p, const char *end, struct crash_line *l)
{
	const char *q;

	if (p < end && *p == '<') {
		if (!(q = digits(p + 1, end)) || q >= end || *q != '>')
			return NULL;
		p = q + 1;
	}
	if (p >= end || *p++ != '[')
		return NULL;
	while (p < end && *p == ' ')
		p++;
	if (!(p = digits(p, end)) || p >= end || *p != '.' || !(p = digits(p + 1, end)) ||
	    p >= end || *p != ']')
		return NULL;
	p++;
	l->kind = 'S';
	if (p < end && *p == '[') {
		q = p + 1;
		while (q < end && *q == ' ')
			q++;
		if (q < end && (*q == 'T' || *q == 'C')) {
			char kind = *q;
			const char *e = digits(q + 1, end);

			if (e && e < end && *e == ']') {
				l->kind = kind;
				l->id = strtoul(q + 1, NULL, 10);
				p = e + 1;
			}
		}
	}
	if (p >= end || *p != ' ') {
		l->kind = 0;
		l->id = 0;
		return NULL;
	}
	return p + 1;
}

/* The headers, indexed by their first two bytes: one pass over a line
 * finds every header it holds. */
static uint8_t pair_first[1 << 16];		/* 1 + the first row with that pair */
static uint8_t pair_next[CRASH_OOPS_MAX];	/* 1 + the next row with it */
static size_t header_len[CRASH_OOPS_MAX];
static pthread_once_t headers_once = PTHREAD_ONCE_INIT;

_Static_assert(CRASH_OOPS_MAX <= 64, "crash_line.heads has 64 bits");

static unsigned pair_at(const char *s)
{
	return (unsigned)(unsigned char)s[0] << 8 | (unsigned char)s[1];
}

static void index_headers(void)
{
	for (size_t k = rows(); k-- > 0; ) {
		unsigned p = pair_at(row(k)->header);

		header_len[k] = strlen(row(k)->header);
		pair_next[k] = pair_first[p];
		pair_first[p] = (uint8_t)(k + 1);
	}
}

static unsigned long long find_headers(const char *s, size_t len)
{
	unsigned long long heads = 0;

	pthread_once(&headers_once, index_headers);
	for (size_t i = 0; i + 1 < len; i++) {
		for (unsigned k = pair_first[pair_at(s + i)]; k; k = pair_next[k - 1]) {
			if (header_len[k - 1] <= len - i &&
			    !memcmp(s + i, row(k - 1)->header, header_len[k - 1]))
				heads |= 1ULL << (k - 1);
		}
	}
	return heads;
}

void crash_line_parse(struct crash_line *l, const char *s, size_t len)
{
	static const char dropped[] = " printk messages dropped ** ";
	static const char login[] = " login: ";
	const char *end = s + len, *p = s, *q, *msg;

	l->s = s;
	l->len = len;
	l->kind = 0;
	l->id = 0;
	if (len > 3 && !memcmp(p, "** ", 3) && (q = digits(p + 3, end)) &&
	    (size_t)(end - q) >= sizeof(dropped) - 1 && !memcmp(q, dropped, sizeof(dropped) - 1))
		p = q + sizeof(dropped) - 1;
	msg = stamp_at(p, end, l);
	/* A getty's "host login: " before the kernel's line: the last one that
	 * a timestamp follows (of the last few, in one pass). */
	if (!msg) {
		const char *hits[8];
		size_t n = 0;

		for (q = p; (q = memmem(q, (size_t)(end - q), login, sizeof(login) - 1)); q++)
			hits[n++ % ARRAY_SIZE(hits)] = q + sizeof(login) - 1;
		for (size_t i = 0; i < n && i < ARRAY_SIZE(hits) && !msg; i++)
			msg = stamp_at(hits[(n - 1 - i) % ARRAY_SIZE(hits)], end, l);
	}
	l->msg = msg ? msg : s;
	l->msglen = (size_t)(end - l->msg);
	l->heads = find_headers(s, len);
}

static int line_has(const struct crash_line *l, const char *what)
{
	return memmem(l->s, l->len, what, strlen(what)) != NULL;
}

static int line_has_any(const struct crash_line *l, const char *const *what)
{
	for (size_t i = 0; what[i]; i++)
		if (line_has(l, what[i]))
			return 1;
	return 0;
}

int crash_line_oops(const struct crash_line *l, enum crash_group g)
{
	for (size_t k = 0; k < rows(); k++) {
		if (row(k)->group != g || !(l->heads >> k & 1))
			continue;
		if (!crash_re_any(row(k)->suppress, l->s, l->len))
			return (int)k;
	}
	return -1;
}

int crash_oops_counts(int k, unsigned seen, int stamped)
{
	const struct oops *o = row((size_t)k);

	return seen >= (o->nth ? o->nth : 1) && (!o->after_kernel || stamped);
}

size_t crash_oops_count(void)
{
	return rows();
}

/* The per-disk chatter of the SCSI stack, which a scale test prints by the
 * thousand while a task hangs: "sd 0:0:17:0: [sdr] Attached SCSI disk",
 * "scsi 0:0:17:0: Direct-Access ...", "scsi host3: ...".  Never part of a
 * report. */
static int chatter(const struct crash_line *l)
{
	static const char *const words[] = { "sd ", "scsi ", "sr ", "sg ", "st " };
	const char *p = l->msg, *end = l->msg + l->msglen;

	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		size_t n = strlen(words[i]);

		if ((size_t)(end - p) <= n || memcmp(p, words[i], n))
			continue;
		p += n;
		if ((size_t)(end - p) > 4 && !memcmp(p, "host", 4))
			p += 4;
		if (!(p = digits(p, end)))
			return 0;
		while (p < end && (*p == ':' || isdigit((unsigned char)*p)))
			p++;
		return p + 1 < end && p[-1] == ':' && *p == ' ';
	}
	return 0;
}

/* ---- reports ------------------------------------------------------------- */

void crash_report_init(struct crash_report *r)
{
	memset(r, 0, sizeof(*r));
	strvec_init(&r->body);
}

void crash_report_release(struct crash_report *r)
{
	strvec_clear(&r->body);
	memset(r, 0, sizeof(*r));
	strvec_init(&r->body);
}

static void body_push(struct crash_report *r, const struct crash_line *l)
{
	char *s = xstrfmt("%.*s", (int)l->msglen, l->msg);

	strvec_push(&r->body, s);
	free(s);
	if (r->body.n >= CRASH_BODY_MAX)
		r->open = 0;
}

void crash_report_start(struct crash_report *r, int k, const struct crash_line *first)
{
	strvec_clear(&r->body);
	r->cls = crash_class_at(row((size_t)k)->cls);
	r->oops = k;
	r->kind = first->kind;
	r->id = first->id;
	r->open = 1;
	r->cpu_traceback = r->skip_rest = 0;
	r->text_lines = 1;
	body_push(r, first);
}

/* A stale frame ("? func+0x1/0x2"), which syzkaller does not name. */
static int questionable(const struct crash_line *l)
{
	if (!l->kind || memmem(l->msg, l->msglen, "<EOI>", 5))
		return 0;
	return memmem(l->msg, l->msglen, " ? ", 3) ||
	       (l->msglen >= 13 && !memcmp(l->msg + l->msglen - 13, " (unreliable)", 13));
}

int crash_report_add(struct crash_report *r, const struct crash_line *l)
{
	const struct oops *o = row((size_t)r->oops);
	int k, second, caller_ids = r->kind == 'T' || r->kind == 'C';
	unsigned min_lines;

	if (!r->open)
		return 0;
	/* The next report ends this one, unless caller ids tell them apart. */
	k = crash_line_oops(l, CRASH_GROUP_CRASH);
	second = (k >= 0 && !row((size_t)k)->harness && !line_has_any(l, crash_start_ignores)) ||
		 line_has_any(l, crash_info_with_stack);
	if (second && !caller_ids) {
		r->open = 0;
		return 0;
	}
	if (chatter(l) || questionable(l))
		return 1;
	if (!(l->kind == r->kind && (!caller_ids || l->id == r->id)) &&
	    !(r->cpu_traceback && l->kind == 'C'))
		return 1;
	r->text_lines++;
	if (line_has(l, "Disabling lock debugging due to kernel taint"))
		return 1;
	if (line_has(l, "Sending NMI from CPU")) {
		r->cpu_traceback = 1;
	} else if (o->group == CRASH_GROUP_CRASH &&
		   (line_has(l, "Kernel panic - not syncing") ||
		    line_has(l, "WARNING: possible circular locking dependency detected"))) {
		/* panic_on_warn's panic after a report: the report is enough,
		 * the panic's own stack is not the bug's. */
		min_lines = memmem(r->body.v[0], strlen(r->body.v[0]), "BUG: KMSAN:", 11) ? 16 : 22;
		if (r->text_lines > min_lines) {
			r->open = 0;
			return 0;
		}
	}
	body_push(r, l);
	return r->open;
}

/* ---- frames -------------------------------------------------------------- */

/* crash_skip[] and crash_stall_anchors[] as one alternation each, as syzkaller joins
 * them. */
static struct re skip_all, stall_all;
static pthread_once_t joined_once = PTHREAD_ONCE_INIT;

static const char *join_alternatives(const char *const *v, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		if (i)
			sb_addch(&sb, '|');
		sb_adds(&sb, v[i]);
	}
	return sb_detach(&sb, NULL);
}

static void join_tables(void)
{
	skip_all.src = join_alternatives(crash_skip, count(crash_skip));
	stall_all.src = join_alternatives(crash_stall_anchors, count(crash_stall_anchors));
}

static struct re *joined(struct re *re)
{
	pthread_once(&joined_once, join_tables);
	return re;
}

static int skipped(const char *frame, struct re *extra)
{
	size_t len = strlen(frame);

	return crash_re_find(joined(&skip_all), frame, len, NULL) ||
	       (extra && crash_re_find(extra, frame, len, NULL));
}

/* A C++ function's name out of its mangled one, as syzkaller's demangle
 * filter gives it without parameters: "_Z8fakeNameiii" is "fakeName",
 * "_ZN3foo3barEv" is "foo::bar"; anything else (templates, operators) is
 * left as it is. */
static char *demangle(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = s + 2;
	int nested;

	if (strncmp(s, "_Z", 2))
		return xstrdup(s);
	if ((nested = *p == 'N'))
		p++;
	do {
		char *e;
		unsigned long n = isdigit((unsigned char)*p) ? strtoul(p, &e, 10) : 0;

		if (!n || strnlen(e, n) < n) {
			sb_release(&sb);
			return xstrdup(s);
		}
		if (sb.len)
			sb_adds(&sb, "::");
		sb_add(&sb, e, n);
		p = e + n;
	} while (nested && *p != 'E');
	return sb_detach(&sb, NULL);
}

/* The arguments of a match that name frames, less the skipped ones. */
static void add_frames(struct strvec *raw, const char *ln, const regmatch_t *m, unsigned n,
		       struct re *extra)
{
	for (unsigned i = 1; i <= n; i++) {
		char *mangled, *frame;

		if (m[i].rm_so < 0)
			continue;
		mangled = xstrfmt("%.*s", (int)(m[i].rm_eo - m[i].rm_so), ln + m[i].rm_so);
		frame = demangle(mangled);
		free(mangled);
		if (!skipped(frame, extra))
			strvec_push(raw, frame);
		free(frame);
	}
}

/* A frame's name without a syscall prefix: the shortest, never empty (a
 * frame named just "__do_sys_" keeps it). */
static const char *stripped(const char *frame)
{
	const char *best = frame;

	for (size_t i = 0; crash_strip_prefixes[i]; i++) {
		size_t n = strlen(crash_strip_prefixes[i]);

		if (!strncmp(frame, crash_strip_prefixes[i], n) && frame[n] &&
		    strlen(frame + n) < strlen(best))
			best = frame + n;
	}
	return best;
}

/* The frame that names the stack, among those not skipped; 0 if none. */
static int pick_frame(enum extractor ex, const struct strvec *raw, struct strbuf *out)
{
	const char *prev;

	if (!raw->n)
		return 0;
	switch (ex) {
	case EX_FIRST:
		sb_adds(out, stripped(raw->v[0]));
		return 1;
	case EX_STALL:
		/* A stall loops across functions: the frame before the first
		 * dispatcher (syscall entry, work item, timer) names it. */
		prev = stripped(raw->v[0]);
		for (size_t i = 0; i < raw->n; i++) {
			const char *f = stripped(raw->v[i]);

			if (crash_re_find(joined(&stall_all), f, strlen(f), NULL)) {
				sb_adds(out, strstr(f, "smp_call_function") ? "smp_call_function" : prev);
				return 1;
			}
			prev = f;
		}
		return 0;
	case EX_HANG:
		for (size_t i = 0; i < raw->n; i++) {
			const char *f = stripped(raw->v[i]);

			for (const struct crash_hang_anchor *a = crash_hang_anchors; a->frame; a++) {
				if (strstr(f, a->frame)) {
					sb_adds(out, a->as ? a->as : f);
					return 1;
				}
			}
		}
		for (size_t i = 0; i < raw->n; i++) {
			const char *f = stripped(raw->v[i]);
			size_t k = 0;

			while (crash_hang_skip[k] && !strstr(f, crash_hang_skip[k]))
				k++;
			if (!crash_hang_skip[k]) {
				sb_adds(out, f);
				return 1;
			}
		}
		return 0;
	}
	return 0;
}

/*
 * Walk the report's lines from body[li] + col with the parts in turn
 * (syzkaller's extractStackFrameImpl): a pattern part takes the first line
 * it matches (and its frames); PARSE takes the frames of the lines after,
 * up to the next stack trace or the next part's line.  Each stack walked
 * gives one frame to keys ("corrupted" when none is left).  0 when the
 * report looks corrupted.
 */
static int walk_stack(const struct stack *st, struct re *const *parts, const struct strvec *body,
		      size_t li, size_t col, struct strvec *keys)
{
	struct strvec raw = STRVEC_INIT;
	regmatch_t m[RE_GROUPS + 1];
	size_t np = 0;
	int ok = 1, stacks = 0;

	while (np < ARRAY_SIZE(st->parts) && parts[np])
		np++;
	for (size_t pi = 0;; pi++) {
		if (pi == np || (parts[pi] == PARSE && stacks > 0)) {
			struct strbuf key = STRBUF_INIT;

			if (!pick_frame(st->ex, &raw, &key)) {
				sb_adds(&key, "corrupted");
				ok = 0;
			}
			strvec_push(keys, key.buf);
			sb_release(&key);
			strvec_clear(&raw);
		}
		if (pi == np)
			break;
		if (parts[pi] == PARSE)
			stacks++;
		while (li < body->n) {
			const char *ln = body->v[li] + col;
			size_t len = strlen(ln);

			li++;
			col = 0;
			if (crash_re_any(crash_corrupted_lines, ln, len)) {
				ok = 0;
				break;
			}
			if (parts[pi] != PARSE) {
				if (crash_re_find(parts[pi], ln, len, m)) {
					add_frames(&raw, ln, m, parts[pi]->ncap, st->skip);
					break;
				}
				continue;
			}
			if (crash_re_any(crash_stack_starts, ln, len))
				break;
			if (pi + 1 < np && parts[pi + 1] != PARSE && crash_re_find(parts[pi + 1], ln, len, m)) {
				add_frames(&raw, ln, m, parts[pi + 1]->ncap, st->skip);
				pi++;
				break;
			}
			for (size_t f = 0; crash_frame_res[f]; f++) {
				if (crash_re_find(crash_frame_res[f], ln, len, m)) {
					add_frames(&raw, ln, m, crash_frame_res[f]->ncap, st->skip);
					break;
				}
			}
		}
	}
	strvec_clear(&raw);
	return ok;
}

/* parts, else parts2, else parts3: the frames of the first that finds its
 * own; of the last tried when none does. */
static void walk_stacks(const struct stack *st, const struct strvec *body, size_t li, size_t col,
			struct strvec *keys)
{
	struct re *const *tries[] = { st->parts, st->parts2, st->parts3 };

	for (size_t t = 0; t < ARRAY_SIZE(tries); t++) {
		if (t && !tries[t][0])
			break;
		strvec_clear(keys);
		if (walk_stack(st, tries[t], body, li, col, keys))
			break;
	}
}

/* ---- titles -------------------------------------------------------------- */

static void add_args(struct strvec *args, const char *ln, const regmatch_t *m, unsigned n)
{
	for (unsigned i = 1; i <= n; i++) {
		char *a = m[i].rm_so < 0 ? xstrdup("") :
			  xstrfmt("%.*s", (int)(m[i].rm_eo - m[i].rm_so), ln + m[i].rm_so);
		strvec_push(args, a);
		free(a);
	}
}

/* The first line with f's title (and title2 on a later one, or the next): 1, its line
 * and column, and its arguments. */
static int find_title(const struct crash_format *f, const struct strvec *body, size_t *li,
		      size_t *col, struct strvec *args)
{
	regmatch_t m[RE_GROUPS + 1], m2[RE_GROUPS + 1];

	for (size_t i = 0; i < body->n; i++) {
		size_t j = i + 1;

		if (!crash_re_find(f->title, body->v[i], strlen(body->v[i]), m))
			continue;
		if (f->title2) {
			int found = 0;

			for (; j < body->n; j++) {
				found = crash_re_find(f->title2, body->v[j], strlen(body->v[j]), m2);
				if (found || f->title2_next)
					break;
			}
			if (!found && f->title2_next)
				continue;
			if (!found)	/* nor after a later line */
				return 0;
		}
		add_args(args, body->v[i], m, f->title->ncap);
		if (f->title2)
			add_args(args, body->v[j], m2, f->title2->ncap);
		*li = i;
		*col = (size_t)m[0].rm_so;
		return 1;
	}
	return 0;
}

/* f's report patterns on a line and on later and later ones: 1, where the
 * first matched, and their arguments. */
static int find_report(const struct crash_format *f, const struct strvec *body, size_t *li,
		       size_t *col, struct strvec *args)
{
	regmatch_t m[RE_GROUPS + 1];

	for (size_t i = 0; i < body->n; i++) {
		size_t j = i, p;

		if (!crash_re_find(f->report[0], body->v[i], strlen(body->v[i]), m))
			continue;
		strvec_clear(args);
		add_args(args, body->v[i], m, f->report[0]->ncap);
		*col = (size_t)m[0].rm_so;
		for (p = 1; p < ARRAY_SIZE(f->report) && f->report[p]; p++) {
			for (j++; j < body->n; j++) {
				if (crash_re_find(f->report[p], body->v[j], strlen(body->v[j]), m)) {
					add_args(args, body->v[j], m, f->report[p]->ncap);
					break;
				}
			}
			if (j >= body->n)
				break;
		}
		if (p < ARRAY_SIZE(f->report) && f->report[p])
			break;	/* nor after a later line */
		*li = i;
		return 1;
	}
	strvec_clear(args);
	return 0;
}

/* fmt with "%[N]v" replaced by the Nth argument. */
static void format_title(struct strbuf *out, const char *fmt, const struct strvec *args)
{
	for (const char *p = fmt; *p; p++) {
		if (p[0] == '%' && p[1] == '[' && isdigit((unsigned char)p[2])) {
			char *e;
			unsigned long n = strtoul(p + 2, &e, 10);

			if (e[0] == ']' && e[1] == 'v') {
				sb_adds(out, n >= 1 && n <= args->n ? args->v[n - 1] : "%!v(BADINDEX)");
				p = e + 1;
				continue;
			}
		}
		sb_addch(out, *p);
	}
}

/*
 * The title of a report from its row's formats (syzkaller's
 * extractDescription): the format whose title is found first wins; with
 * no format, the first line from the header on.  *cls is the format's
 * class, or C_NONE.
 */
static void describe(const struct oops *o, const struct strvec *body, struct strbuf *title,
		     int *cls)
{
	struct strvec args = STRVEC_INIT, keys = STRVEC_INIT;
	size_t best_line = (size_t)-1, best_col = 0;
	int have = 0;

	*cls = C_NONE;
	for (const struct crash_format *f = o->formats; f->fmt; f++) {
		size_t li, col;

		strvec_clear(&args);
		if (!find_title(f, body, &li, &col, &args))
			continue;
		if (li > best_line || (li == best_line && col > best_col))
			continue;
		if (li == best_line && col == best_col && have)
			continue;
		if (li < best_line || col < best_col) {
			have = 0;
			best_line = li;
			best_col = col;
		}
		if (f->report[0] && !find_report(f, body, &li, &col, &args))
			continue;
		strvec_clear(&keys);
		if (f->stack)
			walk_stacks(f->stack, body, li, col, &keys);
		for (size_t i = 0; i < keys.n; i++)
			strvec_push(&args, keys.v[i]);
		sb_reset(title);
		format_title(title, f->fmt, &args);
		*cls = f->cls;
		have = 1;
	}
	if (!have) {
		for (size_t i = 0; i < body->n; i++) {
			const char *p = strstr(body->v[i], o->header);
			if (p) {
				sb_adds(title, p);
				break;
			}
		}
	}
	strvec_clear(&args);
	strvec_clear(&keys);
}

/* syzkaller's sanitizeTitle: printable, single blanks, CRASH_TITLE_MAX. */
static void sanitize(const char *in, struct strbuf *out)
{
	char prev = ' ';

	for (size_t i = 0; in[i] && i < CRASH_TITLE_MAX; i++) {
		char ch = in[i];

		if (ch == '\t')
			ch = ' ';
		else if ((unsigned char)ch < 0x20 || (unsigned char)ch >= 0x7f)
			continue;
		if (ch == ' ' && prev == ' ')
			continue;
		sb_addch(out, ch);
		prev = ch;
	}
	while (out->len && out->buf[out->len - 1] == ' ')
		sb_setlen(out, out->len - 1);
}

/* Classify and title a report from body: its own lines, or those and a
 * trace from elsewhere. */
static int of_report(const struct crash_report *r, const struct strvec *body, struct crash *c)
{
	struct strbuf raw = STRBUF_INIT;
	int cls;

	sb_reset(&c->title);
	sb_reset(&c->detail);
	if (!r->cls)
		return 0;
	describe(row((size_t)r->oops), body, &raw, &cls);
	for (const struct crash_replacement *p = crash_replacements; p->re && !row((size_t)r->oops)->harness; p++)
		for (int n = 0; n < 100 && crash_re_replace_all(p->re, p->with, &raw); n++)
			;
	sanitize(raw.buf, &c->title);
	sb_release(&raw);
	c->cls = cls != C_NONE ? crash_class_at(cls) : r->cls;
	c->type = crash_title_type(c->title.buf);
	if (!strcmp(c->type, "UNKNOWN") && c->cls->type)
		c->type = c->cls->type;
	return 1;
}

int crash_of_report(const struct crash_report *r, struct crash *c)
{
	return of_report(r, &r->body, c);
}

int crash_of_report_trace(const struct crash_report *r, char *const *frames, size_t n,
			  struct crash *c)
{
	struct strvec body = STRVEC_INIT;
	int ret;

	for (size_t i = 0; i < r->body.n; i++)
		if (crash_re_find(CALLTRACE, r->body.v[i], strlen(r->body.v[i]), NULL))
			n = 0;	/* the report has its own */
	if (!n)
		return crash_of_report(r, c);
	for (size_t i = 0; i < r->body.n; i++)
		strvec_push(&body, r->body.v[i]);
	strvec_push(&body, "Call Trace:");
	for (size_t i = 0; i < n; i++) {
		char *line = xstrfmt(" %s", frames[i]);

		strvec_push(&body, line);
		free(line);
	}
	ret = of_report(r, &body, c);
	strvec_clear(&body);
	return ret;
}

long long crash_report_task(const struct crash_report *r)
{
	regmatch_t m[RE_GROUPS + 1];
	const char *s;
	int64_t pid;
	char num[16];
	size_t len;

	if (!r->cls || !r->body.n)
		return -1;
	s = r->body.v[0];
	if (!crash_re_find(&crash_re_task, s, strlen(s), m) || m[1].rm_so < 0)
		return -1;
	len = (size_t)(m[1].rm_eo - m[1].rm_so);
	if (len >= sizeof(num))
		return -1;
	memcpy(num, s + m[1].rm_so, len);
	num[len] = '\0';
	return parse_i64(num, &pid) < 0 ? -1 : pid;
}

/* ---- the host-side classes ---------------------------------------------- */

int crash_of_host(const struct crash_guest *g, const struct crash_host *h, struct crash *c)
{
	sb_reset(&c->title);
	sb_reset(&c->detail);
	c->cls = crash_host_class(g, h);
	if (!c->cls)
		return 0;
	c->cls->title(g, h, &c->title, &c->detail);
	c->type = c->cls->type;
	return 1;
}

/* ---- the rest ------------------------------------------------------------ */

static int check(struct re *re, const char *where)
{
	if (!re || re == PARSE || crash_re_ready(re) > 0)
		return 0;
	fprintf(stderr, "%s: pattern does not compile: %s\n", where, re->src);
	return 1;
}

int crash_check_patterns(void)
{
	int bad = 0;

	for (size_t k = 0; k < rows(); k++) {
		const struct oops *o = row(k);

		for (size_t i = 0; o->suppress[i]; i++)
			bad += check(o->suppress[i], o->header);
		for (const struct crash_format *f = o->formats; f->fmt; f++) {
			bad += check(f->title, f->fmt) + check(f->title2, f->fmt);
			for (size_t i = 0; i < ARRAY_SIZE(f->report); i++)
				bad += check(f->report[i], f->fmt);
			if (!f->stack)
				continue;
			bad += check(f->stack->skip, f->fmt);
			for (size_t i = 0; i < ARRAY_SIZE(f->stack->parts); i++)
				bad += check(f->stack->parts[i], f->fmt) + check(f->stack->parts2[i], f->fmt) +
				       check(f->stack->parts3[i], f->fmt);
		}
	}
	for (size_t i = 0; crash_stack_starts[i]; i++)
		bad += check(crash_stack_starts[i], "stack starts");
	for (size_t i = 0; crash_frame_res[i]; i++)
		bad += check(crash_frame_res[i], "frames");
	for (size_t i = 0; crash_corrupted_lines[i]; i++)
		bad += check(crash_corrupted_lines[i], "corrupted lines");
	for (const struct crash_replacement *p = crash_replacements; p->re; p++)
		bad += check(p->re, "replacements");
	bad += check(joined(&skip_all), "skip") + check(joined(&stall_all), "stall anchors");
	return bad;
}

char *crash_reason(const struct crash *c)
{
	if (c->detail.len)
		return xstrfmt("%s (%s)", c->title.buf, c->detail.buf);
	return xstrdup(c->title.buf);
}

void crash_reset(struct crash *c)
{
	c->cls = NULL;
	c->type = NULL;
	c->line = 0;
	sb_reset(&c->title);
	sb_reset(&c->detail);
	sb_reset(&c->context);
}

void crash_release(struct crash *c)
{
	sb_release(&c->title);
	sb_release(&c->detail);
	sb_release(&c->context);
	c->cls = NULL;
	c->type = NULL;
}

const struct crash_class *crash_report_class(const struct crash_report *r)
{
	struct crash c = CRASH_INIT;
	const struct crash_class *cls;

	if (!r->cls)
		return NULL;
	crash_of_report(r, &c);
	cls = c.cls;		/* a row of the static class table */
	crash_release(&c);
	return cls;
}
