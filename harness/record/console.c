#include "record/console.h"

#include <string.h>

#include "lib/util.h"

static const char *const crash_marks[] = {
	"Kernel panic",
	"Oops:",
	"Oops -",
	"BUG:",
	"kernel BUG at",
	"general protection fault",
	"Unable to handle",
	"double fault",
	"stack-protector:",
};

static const char *const oom_marks[] = {
	"Out of memory",
	"invoked oom-killer",
	"oom-kill:",
};

void console_scan_init(struct console_scan *cs)
{
	memset(cs, 0, sizeof(*cs));
	sb_init(&cs->partial);
}

void console_scan_release(struct console_scan *cs)
{
	sb_release(&cs->partial);
}

/* Skip "[    1.234567] " if present. */
static const char *skip_stamp(const char *s, size_t *len)
{
	const char *end = s + *len, *p = s;

	if (p < end && *p == '[') {
		const char *q = memchr(p, ']', (size_t)(end - p));
		if (q && q - p < 20) {
			p = q + 1;
			while (p < end && *p == ' ')
				p++;
		}
	}
	*len = (size_t)(end - p);
	return p;
}

static int contains(const char *s, size_t len, const char *mark)
{
	return memmem(s, len, mark, strlen(mark)) != NULL;
}

int console_classify(const char *line, size_t len)
{
	line = skip_stamp(line, &len);
	for (size_t i = 0; i < ARRAY_SIZE(oom_marks); i++)
		if (contains(line, len, oom_marks[i]))
			return 2;
	for (size_t i = 0; i < ARRAY_SIZE(crash_marks); i++)
		if (contains(line, len, crash_marks[i]))
			return 1;
	return 0;
}

static void keep_title(char *dst, const char *line, size_t len)
{
	line = skip_stamp(line, &len);
	if (len >= CONSOLE_TITLE_MAX)
		len = CONSOLE_TITLE_MAX - 1;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];
		dst[i] = c < 0x20 || c >= 0x7f ? '?' : (char)c;
	}
	dst[len] = '\0';
}

static void scan_line(struct console_scan *cs, const char *line, size_t len)
{
	int k;

	while (len && line[len - 1] == '\r')
		len--;
	cs->lines++;
	k = console_classify(line, len);
	if (k == 1 && !cs->crash) {
		cs->crash = 1;
		keep_title(cs->crash_line, line, len);
	} else if (k == 2 && !cs->oom) {
		cs->oom = 1;
		keep_title(cs->oom_line, line, len);
	}
}

void console_scan_feed(struct console_scan *cs, const char *buf, size_t n)
{
	const char *end = buf + n;

	while (buf < end) {
		const char *nl = memchr(buf, '\n', (size_t)(end - buf));
		size_t take = nl ? (size_t)(nl - buf) : (size_t)(end - buf);

		if (cs->partial.len + take > CONSOLE_LINE_MAX) {
			/* Cut an overlong line: scan what we have as a line. */
			size_t room = CONSOLE_LINE_MAX - cs->partial.len;
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
