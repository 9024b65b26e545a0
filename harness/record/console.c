// SPDX-License-Identifier: Apache-2.0
#include "record/console.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "lib/xalloc.h"
#include "record/hung.h"

void console_scan_init(struct console_scan *cs)
{
	memset(cs, 0, sizeof(*cs));
	for (size_t g = 0; g < ARRAY_SIZE(cs->rep); g++) {
		crash_report_init(&cs->rep[g].r);
		strvec_init(&cs->rep[g].ctx);
	}
	cs->seen = xcalloc(crash_oops_count(), sizeof(*cs->seen));
	sb_init(&cs->partial);
}

void console_scan_release(struct console_scan *cs)
{
	for (size_t g = 0; g < ARRAY_SIZE(cs->rep); g++) {
		crash_report_release(&cs->rep[g].r);
		strvec_clear(&cs->rep[g].ctx);
	}
	for (size_t i = 0; i < CONSOLE_TAIL; i++)
		free(cs->tail[i]);
	free(cs->seen);
	cs->seen = NULL;
	sb_release(&cs->partial);
	memset(cs->tail, 0, sizeof(cs->tail));
}

static void printable(struct strbuf *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		sb_addch(out, c < 0x20 || c >= 0x7f ? '?' : (char)c);
	}
}

/* The report's first line, without timestamp and caller id. */
static void keep_title(char *dst, const struct crash_line *l)
{
	const char *p = l->msg;
	size_t len = l->msglen;

	while (len && *p == ' ') {
		p++;
		len--;
	}
	if (len >= CONSOLE_TITLE_MAX)
		len = CONSOLE_TITLE_MAX - 1;
	memcpy(dst, p, len);
	dst[len] = '\0';
}

/* The guest's own lines: "scaletest[UPTIME]: phase NAME", "...: end: ...". */
static void guest_line(struct console_scan *cs, const char *s)
{
	const char *p;
	size_t n;

	if (strncmp(s, "scaletest[", 10) || !(p = strstr(s, "]: ")))
		return;
	p += 3;
	if (!strncmp(p, "end: ", 5)) {
		cs->guest_end = 1;
	} else if (!strncmp(p, "phase ", 6)) {
		p += 6;
		n = strspn(p, "abcdefghijklmnopqrstuvwxyz-");
		if (n && n < sizeof(cs->guest_phase) && !p[n]) {
			memcpy(cs->guest_phase, p, n);
			cs->guest_phase[n] = '\0';
		}
	}
}

static void start_report(struct console_scan *cs, struct console_report *r, int k,
			 const struct crash_line *l)
{
	size_t before = cs->tail_n < CONSOLE_BEFORE ? cs->tail_n : CONSOLE_BEFORE;

	crash_report_start(&r->r, k, l);
	r->line = cs->lines;
	for (size_t i = 0; i < before; i++) {
		size_t j = (cs->tail_next + CONSOLE_TAIL - before + i) % CONSOLE_TAIL;
		strvec_push(&r->ctx, cs->tail[j]);
	}
	r->at = r->ctx.n;
	strvec_push(&r->ctx, l->s);
}

static void scan_line(struct console_scan *cs, const char *raw, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	struct crash_line l;

	while (len && raw[len - 1] == '\r')
		len--;
	cs->lines++;
	cs->examined += len;
	printable(&sb, raw, len);
	crash_line_parse(&l, sb.buf, sb.len);
	guest_line(cs, l.msg);

	/* Reports already open take the line. */
	for (size_t g = 0; g < ARRAY_SIZE(cs->rep); g++) {
		struct console_report *r = &cs->rep[g];

		if (!r->r.cls)
			continue;
		if (r->ctx.n < r->at + CONSOLE_AFTER)
			strvec_push(&r->ctx, sb.buf);
		crash_report_add(&r->r, &l);
	}
	/* Does it start the first report of a group? */
	for (size_t g = 0; g < ARRAY_SIZE(cs->rep); g++) {
		struct console_report *r = &cs->rep[g];
		int k;

		if (r->r.cls || (k = crash_line_oops(&l, (enum crash_group)g)) < 0)
			continue;
		if (!crash_oops_counts(k, ++cs->seen[k], cs->stamped))
			continue;
		start_report(cs, r, k, &l);
		if (g == CRASH_GROUP_OOM) {
			cs->oom = 1;
			keep_title(cs->oom_line, &l);
		} else if (g == CRASH_GROUP_CRASH) {
			cs->crash = 1;
			keep_title(cs->crash_line, &l);
		}
	}
	if (l.kind)
		cs->stamped = 1;
	free(cs->tail[cs->tail_next]);
	cs->tail[cs->tail_next] = sb_detach(&sb, NULL);
	cs->tail_next = (cs->tail_next + 1) % CONSOLE_TAIL;
	if (cs->tail_n < CONSOLE_TAIL)
		cs->tail_n++;
}

void console_scan_feed(struct console_scan *cs, const char *buf, size_t n)
{
	const char *end = buf + n;

	while (buf < end) {
		/* The newline is looked for only as far as the line may still
		 * grow: a huge line is looked at once, not once per cut. */
		size_t room = CONSOLE_LINE_MAX - cs->partial.len, avail = (size_t)(end - buf);
		size_t look = avail < room + 1 ? avail : room + 1;
		const char *nl = memchr(buf, '\n', look);
		size_t take = nl ? (size_t)(nl - buf) : look;

		cs->examined += nl ? take + 1 : look;
		if (take > room) {
			/* Cut an overlong line: scan what we have as a line. */
			sb_add(&cs->partial, buf, room);
			scan_line(cs, cs->partial.buf, cs->partial.len);
			sb_reset(&cs->partial);
			buf += room;
			continue;
		}
		sb_add(&cs->partial, buf, take);
		buf += take;
		if (nl) {
			scan_line(cs, cs->partial.buf, cs->partial.len);
			sb_reset(&cs->partial);
			buf++;
		}
	}
}

void console_scan_finish(struct console_scan *cs)
{
	if (cs->partial.len)
		scan_line(cs, cs->partial.buf, cs->partial.len);
	sb_reset(&cs->partial);
}

/* The report crash_classify() names: the earlier; on the same line, the
 * OOM.  An OOM the kernel survived hides no later crash: it names the run
 * only when the crash after it is the boot's end it brought (its class
 * says so: a panic once init was killed, a reboot). */
static const struct console_report *first_report(const struct console_scan *cs)
{
	const struct console_report *c = &cs->rep[CRASH_GROUP_CRASH], *o = &cs->rep[CRASH_GROUP_OOM];

	if (!o->r.cls)
		return c->r.cls ? c : NULL;
	if (!c->r.cls)
		return o;
	if (c->line < o->line)
		return c;
	if (c->line == o->line)
		return o;
	return crash_report_class(&c->r)->boot_end ? o : c;
}

const struct console_report *console_scan_stop(const struct console_scan *cs)
{
	const struct console_report *c = &cs->rep[CRASH_GROUP_CRASH], *o = &cs->rep[CRASH_GROUP_OOM];
	int cs_ = c->r.cls && c->r.cls->stop, os = o->r.cls && o->r.cls->stop;

	if (cs_ && os)
		return c->line < o->line ? c : o;
	return os ? o : cs_ ? c : NULL;
}

int console_classify(const char *line, size_t len)
{
	char *s = xmalloc(len + 1);	/* crash.h wants a C string */
	struct crash_line l;
	int k, found = 0;

	memcpy(s, line, len);
	s[len] = '\0';
	crash_line_parse(&l, s, len);
	for (int g = CRASH_GROUP_CRASH; g <= CRASH_GROUP_OOM && !found; g++)
		if ((k = crash_line_oops(&l, (enum crash_group)g)) >= 0 && crash_oops_counts(k, 1, 0))
			found = g + 1;
	free(s);
	return found;
}

static void join(struct strbuf *out, char *const *lines, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		sb_adds(out, lines[i]);
		sb_addch(out, '\n');
	}
}

/* Titles stay one printable line of at most CONSOLE_TITLE_MAX - 1 bytes. */
static void printable_line(struct strbuf *sb)
{
	for (size_t i = 0; i < sb->len; i++)
		if ((unsigned char)sb->buf[i] < 0x20 || (unsigned char)sb->buf[i] >= 0x7f)
			sb->buf[i] = '?';
	if (sb->len >= CONSOLE_TITLE_MAX)
		sb_setlen(sb, CONSOLE_TITLE_MAX - 1);
}

/* A report classified, with its line and context; titled with the stack
 * the guest read of the task it names, if it has none of its own. */
static void report_crash(const struct console_report *r, const struct hung_tasks *hung,
			 struct crash *c)
{
	const struct hung_task *t = hung ? hung_find(hung, crash_report_task(&r->r)) : NULL;

	if (t)
		crash_of_report_trace(&r->r, t->frames, t->nframes, c);
	else
		crash_of_report(&r->r, c);
	c->line = r->line;
	join(&c->context, r->ctx.v, r->ctx.n);
	printable_line(&c->title);
	printable_line(&c->detail);
}

int crash_classify(const struct console_scan *cs, const struct crash_host *h,
		   struct crash *c)
{
	static const struct crash_host none = CRASH_HOST_INIT;
	const struct crash_guest guest = { cs->guest_phase, cs->guest_end };
	const struct console_report *r = first_report(cs);

	crash_reset(c);
	if (r) {
		report_crash(r, h ? h->hung : NULL, c);
		return 1;
	}
	if (!crash_of_host(&guest, h ? h : &none, c))
		return 0;
	for (size_t i = 0; i < cs->tail_n; i++)
		join(&c->context, &cs->tail[(cs->tail_next + CONSOLE_TAIL - cs->tail_n + i) %
					    CONSOLE_TAIL], 1);
	printable_line(&c->title);
	printable_line(&c->detail);
	return 1;
}

int crash_finding(const struct console_scan *cs, struct crash *c)
{
	const struct console_report *r = &cs->rep[CRASH_GROUP_FINDING];

	crash_reset(c);
	if (!r->r.cls)
		return 0;
	report_crash(r, NULL, c);
	return 1;
}
