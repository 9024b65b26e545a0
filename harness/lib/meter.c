// SPDX-License-Identifier: Apache-2.0
#include "lib/meter.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"

#define ERASE "\r\033[K"

/* The meter whose line is on the terminal, for util.c's messages. */
static struct meter *on_screen;

static void erase_on_screen(void)
{
	if (on_screen && on_screen->shown)
		(void)write_all(2, ERASE, strlen(ERASE));
	if (on_screen)
		on_screen->shown = 0;
	on_screen = NULL;
	util_before_message = NULL;
}

enum meter_mode meter_mode_for(int fd, int quiet)
{
	if (quiet)
		return METER_OFF;
	return isatty(fd) ? METER_TTY : METER_LINES;
}

static void copy_word(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src);
}

void meter_start(struct meter *m, enum meter_mode mode, const char *label,
		 const char *unit, const char *verb, long long from, long long to,
		 double t0)
{
	memset(m, 0, sizeof(*m));
	m->mode = mode;
	m->active = mode != METER_OFF;
	copy_word(m->label, sizeof(m->label), label);
	copy_word(m->unit, sizeof(m->unit), unit);
	copy_word(m->verb, sizeof(m->verb), verb);
	m->from = from;
	m->to = to;
	m->t0 = m->t = m->printed_t = t0;
	m->count = m->printed_count = from;
}

static long long span(const struct meter *m)
{
	return m->to >= m->from ? m->to - m->from : m->from - m->to;
}

static long long done(const struct meter *m)
{
	long long d = m->to >= m->from ? m->count - m->from : m->from - m->count;

	return d < 0 ? 0 : d;
}

/* Tenths of the way done, 0..10. */
static int tenth(const struct meter *m)
{
	long long s = span(m), d = done(m);

	if (s <= 0)
		return 10;
	return d >= s ? 10 : (int)(d * 10 / s);
}

void meter_line(const struct meter *m, struct strbuf *out)
{
	long long s = span(m), d = done(m);
	double el = m->t - m->t0;

	sb_addf(out, "%s: %lld/%lld %s %s", m->label, d, s, m->unit, m->verb);
	if (s > 0)
		sb_addf(out, " (%lld%%)", (d >= s ? s : d) * 100 / s);
	if (el >= 0.05)
		sb_addf(out, ", %.1f %s/s", (double)d / el, m->unit);
	sb_addf(out, ", %.0f s", el < 0 ? 0.0 : el);
}

static void show(struct meter *m, struct strbuf *out)
{
	if (m->mode == METER_TTY) {
		sb_adds(out, ERASE);
		sb_addf(out, "%s: ", progname);
		meter_line(m, out);
		m->shown = 1;
		on_screen = m;
		util_before_message = erase_on_screen;
	} else {
		sb_addf(out, "%s: ", progname);
		meter_line(m, out);
		sb_addch(out, '\n');
		m->printed_t = m->t;
		m->printed_tenth = tenth(m);
		m->printed_count = m->count;
	}
}

void meter_update(struct meter *m, double t, long long count, struct strbuf *out)
{
	if (!m->active)
		return;
	if (t > m->t)
		m->t = t;
	m->count = count < 0 ? 0 : count;
	if (m->mode == METER_TTY || tenth(m) > m->printed_tenth ||
	    (m->t - m->printed_t >= METER_EVERY_S && m->count != m->printed_count))
		show(m, out);
}

void meter_finish(struct meter *m, double t, long long count, struct strbuf *out)
{
	if (!m->active)
		return;
	if (t > m->t)
		m->t = t;
	m->count = count < 0 ? 0 : count;
	if (m->mode == METER_TTY) {
		if (m->shown)
			sb_adds(out, ERASE);
		m->shown = 0;
		if (on_screen == m) {
			on_screen = NULL;
			util_before_message = NULL;
		}
	} else {
		show(m, out);
	}
	m->active = 0;
}

void meter_write(struct strbuf *out)
{
	if (out->len)
		(void)write_all(2, out->buf, out->len);
	sb_reset(out);
}
