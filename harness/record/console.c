#include "record/console.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "guest/phase.h"
#include "lib/util.h"

/* Where title_func finds the faulting function. */
enum {
	FROM_NONE,
	FROM_RIP,	/* the RIP:/EIP: line, else the call trace */
	FROM_TRACE,	/* the first call-trace frame that is not machinery */
	FROM_WARNING,	/* the WARNING line's "at FILE:LINE FUNC", else RIP, trace */
	FROM_IN,	/* the first line's "... in FUNC+0x..", else the trace */
};

typedef void title_fn(const struct crash_class *c, const struct console_report *r,
		      const struct console_scan *cs, const struct crash_host *h,
		      struct strbuf *title, struct strbuf *detail);
static title_fn title_func, title_panic, title_sanitizer, title_bug, title_oom,
	title_alloc, title_fixed, title_hang, title_channel, title_qemu;
static int host_channel(const struct console_scan *cs, const struct crash_host *h);
static int host_hang(const struct console_scan *cs, const struct crash_host *h);
static int host_qemu(const struct console_scan *cs, const struct crash_host *h);

#define KERNEL BLAME_KERNEL
#define HARNESS BLAME_HARNESS
#define CRASH CRASH_STATUS_CRASH
#define OOM CRASH_STATUS_OOM

/*
 * The crash classes.  Console rows: a line holding any of the marks starts
 * a report (the nth such line, for nth > 1); within a group (crash, OOM)
 * the first row that matches a line is its class, so the specific rows come
 * before the general ones.  Host rows (host != NULL) are tried in order
 * when the console holds no report.
 */
static const struct crash_class classes[] = {
	{ .name = "panic", .blame = KERNEL, .status = CRASH, .stop = 1,
	  .marks = { "Kernel panic - not syncing" },
	  .title = title_panic },
	{ .name = "page-fault", .blame = KERNEL, .status = CRASH, .stop = 1,
	  .marks = { "BUG: unable to handle page fault", "BUG: unable to handle kernel paging request",
		     "Unable to handle kernel paging request" },
	  .title = title_func, .from = FROM_RIP,
	  .fmt = "BUG: unable to handle page fault in %s",
	  .fallback = "BUG: unable to handle page fault" },
	{ .name = "null-deref", .blame = KERNEL, .status = CRASH, .stop = 1,
	  .marks = { "BUG: kernel NULL pointer dereference",
		     "BUG: unable to handle kernel NULL pointer dereference",
		     "Unable to handle kernel NULL pointer dereference" },
	  .title = title_func, .from = FROM_RIP,
	  .fmt = "BUG: kernel NULL pointer dereference in %s",
	  .fallback = "BUG: kernel NULL pointer dereference" },
	{ .name = "gpf", .blame = KERNEL, .status = CRASH, .stop = 1,
	  .marks = { "general protection fault" },
	  .title = title_func, .from = FROM_RIP,
	  .fmt = "general protection fault in %s",
	  .fallback = "general protection fault" },
	{ .name = "kernel-bug", .blame = KERNEL, .status = CRASH, .stop = 1,
	  .marks = { "kernel BUG at" },
	  .title = title_func, .from = FROM_RIP,
	  .fmt = "kernel BUG in %s", .fallback = "kernel BUG" },
	{ .name = "kasan", .blame = KERNEL, .status = CRASH,
	  .marks = { "BUG: KASAN:" },
	  .title = title_sanitizer, .from = FROM_IN },
	{ .name = "kfence", .blame = KERNEL, .status = CRASH,
	  .marks = { "BUG: KFENCE:" },
	  .title = title_sanitizer, .from = FROM_IN },
	{ .name = "ubsan", .blame = KERNEL, .status = CRASH,
	  .marks = { "UBSAN:" },
	  .title = title_sanitizer, .from = FROM_TRACE },
	{ .name = "soft-lockup", .blame = KERNEL, .status = CRASH, .stop = 1,
	  .marks = { "BUG: soft lockup" },
	  .title = title_func, .from = FROM_RIP,
	  .fmt = "BUG: soft lockup in %s", .fallback = "BUG: soft lockup" },
	{ .name = "hard-lockup", .blame = KERNEL, .status = CRASH, .stop = 1,
	  .marks = { "Watchdog detected hard LOCKUP" },
	  .title = title_func, .from = FROM_RIP,
	  .fmt = "hard lockup in %s", .fallback = "hard lockup" },
	{ .name = "hung-task", .blame = KERNEL, .status = CRASH, .stop = 1,
	  .marks = { "blocked for more than" },
	  .title = title_func, .from = FROM_TRACE,
	  .fmt = "INFO: task hung in %s", .fallback = "INFO: task hung" },
	{ .name = "rcu-stall", .blame = KERNEL, .status = CRASH, .stop = 1,
	  .marks = { "detected stalls on CPUs", "self-detected stall on CPU",
		     "detected expedited stalls" },
	  .title = title_func, .from = FROM_RIP,
	  .fmt = "INFO: rcu detected stall in %s", .fallback = "INFO: rcu detected stall" },
	{ .name = "warning", .blame = KERNEL, .status = CRASH,
	  .marks = { "WARNING: CPU: ", "WARNING: at " },
	  .title = title_func, .from = FROM_WARNING,
	  .fmt = "WARNING in %s", .fallback = "WARNING" },
	{ .name = "bug", .blame = KERNEL, .status = CRASH, .stop = 1,
	  .marks = { "BUG:" },
	  .title = title_bug, .from = FROM_TRACE },
	{ .name = "oops", .blame = KERNEL, .status = CRASH, .stop = 1,
	  .marks = { "Oops:", "Oops -", "double fault", "Unable to handle" },
	  .title = title_func, .from = FROM_RIP,
	  .fmt = "Oops in %s", .fallback = "Oops" },
	{ .name = "reboot", .blame = KERNEL, .status = CRASH,
	  .marks = { "Linux version " }, .nth = 2,
	  .title = title_fixed, .fallback = "unexpected reboot" },
	{ .name = "oom", .blame = KERNEL, .status = OOM, .stop = 1,
	  .marks = { "Out of memory", "invoked oom-killer", "oom-kill:",
		     "System is deadlocked on memory" },
	  .title = title_oom },
	{ .name = "alloc-failure", .blame = KERNEL, .status = OOM,
	  .marks = { "page allocation failure" },
	  .title = title_alloc, .from = FROM_TRACE },
	{ .name = "channel-lost", .blame = HARNESS, .status = CRASH_STATUS_ERROR,
	  .host = host_channel, .title = title_channel },
	{ .name = "hang", .blame = KERNEL, .status = CRASH_STATUS_TIMEOUT,
	  .host = host_hang, .title = title_hang },
	{ .name = "qemu-exited", .blame = HARNESS, .status = CRASH_STATUS_ERROR,
	  .host = host_qemu, .title = title_qemu },
};

_Static_assert(ARRAY_SIZE(classes) <= CONSOLE_CLASSES_MAX, "CONSOLE_CLASSES_MAX too small");

/* Call-trace frames that are the machinery of reporting, scheduling,
 * waiting or allocating, never the culprit (prefixes). */
static const char *const skip_frames[] = {
	"dump_stack", "show_stack", "sched_show_task", "show_regs", "panic", "__warn",
	"warn_", "report_bug", "handle_bug", "exc_", "asm_", "do_error_trap",
	"do_trap", "die", "__die", "oops_", "page_fault_oops", "kernelmode_fixup",
	"__bad_area", "bad_area", "do_user_addr_fault", "do_kern_addr_fault",
	"__schedule", "schedule", "io_schedule", "preempt_schedule", "wait_for_",
	"__wait_for", "wait_on_", "__wait_on", "out_of_line_wait", "bit_wait",
	"rwsem_", "down_", "__down", "mutex_", "__mutex_", "rt_mutex", "percpu_rwsem",
	"folio_wait", "__folio_lock", "__lock_page", "__alloc_pages", "alloc_pages",
	"warn_alloc", "__kmalloc", "kmalloc", "kmem_cache_alloc", "__vmalloc",
	"vmalloc", "kvmalloc", "krealloc", "__get_free_pages", "get_zeroed_page",
	"alloc_page", "ubsan_", "__ubsan_", "kasan_", "__asan_", "kfence_",
	"watchdog", "rcu_", "__rcu", "print_", "nmi_", "sysvec_", "__sysvec",
	"irq_exit", "__irq_exit", "do_syscall", "entry_SYSCALL", "do_int80",
	"do_fast_syscall", "entry_INT80", "ret_from_fork", "kthread",
};

void console_scan_init(struct console_scan *cs)
{
	memset(cs, 0, sizeof(*cs));
	for (size_t g = 0; g < ARRAY_SIZE(cs->rep); g++)
		strvec_init(&cs->rep[g].ctx);
	sb_init(&cs->partial);
}

void console_scan_release(struct console_scan *cs)
{
	for (size_t g = 0; g < ARRAY_SIZE(cs->rep); g++)
		strvec_clear(&cs->rep[g].ctx);
	for (size_t i = 0; i < CONSOLE_TAIL; i++)
		free(cs->tail[i]);
	sb_release(&cs->partial);
	memset(cs->tail, 0, sizeof(cs->tail));
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

static const char *body(const char *line)
{
	size_t len = strlen(line);

	return skip_stamp(line, &len);
}

static int contains(const char *s, size_t len, const char *mark)
{
	return memmem(s, len, mark, strlen(mark)) != NULL;
}

static int row_matches(const struct crash_class *c, const char *s, size_t len)
{
	for (size_t m = 0; m < ARRAY_SIZE(c->marks) && c->marks[m]; m++)
		if (contains(s, len, c->marks[m]))
			return 1;
	return 0;
}

static enum crash_group group_of(const struct crash_class *c)
{
	if (c->host)
		return CRASH_GROUP_HOST;
	return c->status == CRASH_STATUS_OOM ? CRASH_GROUP_OOM : CRASH_GROUP_CRASH;
}

int console_classify(const char *line, size_t len)
{
	int k = 0;

	line = skip_stamp(line, &len);
	for (size_t i = 0; i < ARRAY_SIZE(classes); i++) {
		const struct crash_class *c = &classes[i];

		if (c->host || c->nth > 1 || !row_matches(c, line, len))
			continue;
		if (group_of(c) == CRASH_GROUP_OOM)
			return 2;
		k = 1;
	}
	return k;
}

static void printable(struct strbuf *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		sb_addch(out, c < 0x20 || c >= 0x7f ? '?' : (char)c);
	}
}

static void keep_title(char *dst, const char *line)
{
	size_t len = strlen(line);

	line = skip_stamp(line, &len);
	if (len >= CONSOLE_TITLE_MAX)
		len = CONSOLE_TITLE_MAX - 1;
	memcpy(dst, line, len);
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

static void start_report(struct console_scan *cs, struct console_report *r,
			 const struct crash_class *c, const char *line)
{
	size_t before = cs->tail_n < CONSOLE_BEFORE ? cs->tail_n : CONSOLE_BEFORE;

	r->cls = c;
	r->line = cs->lines;
	for (size_t i = 0; i < before; i++) {
		size_t k = (cs->tail_next + CONSOLE_TAIL - before + i) % CONSOLE_TAIL;
		strvec_push(&r->ctx, cs->tail[k]);
	}
	r->at = r->ctx.n;
	strvec_push(&r->ctx, line);
}

static void scan_line(struct console_scan *cs, const char *raw, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	const struct crash_class *first[2] = { NULL, NULL };
	const char *s;
	size_t slen;

	while (len && raw[len - 1] == '\r')
		len--;
	cs->lines++;
	cs->examined += len;
	printable(&sb, raw, len);
	slen = sb.len;
	s = skip_stamp(sb.buf, &slen);
	guest_line(cs, s);

	/* Reports already open take the line as context. */
	for (size_t g = 0; g < ARRAY_SIZE(cs->rep); g++) {
		struct console_report *r = &cs->rep[g];
		if (r->cls && r->ctx.n < r->at + CONSOLE_AFTER)
			strvec_push(&r->ctx, sb.buf);
	}
	for (size_t i = 0; i < ARRAY_SIZE(classes); i++) {
		const struct crash_class *c = &classes[i];
		enum crash_group g = group_of(c);

		if (g == CRASH_GROUP_HOST || !row_matches(c, s, slen))
			continue;
		cs->seen[i]++;
		if (!first[g] && cs->seen[i] >= (c->nth ? c->nth : 1))
			first[g] = c;
	}
	for (size_t g = 0; g < ARRAY_SIZE(cs->rep); g++) {
		if (!first[g] || cs->rep[g].cls)
			continue;
		start_report(cs, &cs->rep[g], first[g], sb.buf);
		if (g == CRASH_GROUP_OOM) {
			cs->oom = 1;
			keep_title(cs->oom_line, sb.buf);
		} else {
			cs->crash = 1;
			keep_title(cs->crash_line, sb.buf);
		}
	}
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

const struct console_report *console_scan_stop(const struct console_scan *cs)
{
	for (int g = CRASH_GROUP_OOM; g >= CRASH_GROUP_CRASH; g--)
		if (cs->rep[g].cls && cs->rep[g].cls->stop)
			return &cs->rep[g];
	return NULL;
}

const struct crash_class *crash_classes(size_t *n)
{
	*n = ARRAY_SIZE(classes);
	return classes;
}

const char *crash_blame_name(enum crash_blame b)
{
	return b == BLAME_KERNEL ? "kernel" : "harness";
}

/* ---- titles ------------------------------------------------------------- */

static int is_ident(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '$';
}

static int hexrun(const char *s)
{
	int n = 0;

	while (isxdigit((unsigned char)s[n]))
		n++;
	return n;
}

/* A symbol at s, as traces print it: "func+0x12/0x40" or "func.cold+0x1/0x2
 * [module]".  The compiler's suffixes (.cold, .isra.0) are dropped: they
 * change from build to build.  0 if s is no symbol. */
static int symbol_at(const char *s, char *out, size_t size)
{
	size_t n = 0, keep;

	while (is_ident((unsigned char)s[n]))
		n++;
	if (!n || s[n] != '+' || strncmp(s + n + 1, "0x", 2) || !strncmp(s, "0x", 2) ||
	    isdigit((unsigned char)s[0]))
		return 0;
	keep = strcspn(s, ".");
	if (keep > n)
		keep = n;
	if (!keep || keep >= size)
		return 0;
	memcpy(out, s, keep);
	out[keep] = '\0';
	return 1;
}

static int skipped_frame(const char *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(skip_frames); i++)
		if (!strncmp(f, skip_frames[i], strlen(skip_frames[i])))
			return 1;
	return 0;
}

/* Past "[<ffffffff81234567>] " groups and blanks. */
static const char *skip_addrs(const char *p)
{
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (p[0] == '[' && p[1] == '<') {
			const char *q = strchr(p, ']');
			if (!q)
				return p;
			p = q + 1;
			continue;
		}
		return p;
	}
}

/* The function of the first RIP:/EIP:/IP: line that names one. */
static int func_rip(const struct console_report *r, char *out, size_t size)
{
	static const char *const regs[] = { "RIP: ", "EIP: ", "IP: ", "pc : " };

	for (size_t i = r->at; i < r->ctx.n; i++) {
		const char *s = body(r->ctx.v[i]);

		for (size_t k = 0; k < ARRAY_SIZE(regs); k++) {
			const char *p = strstr(s, regs[k]);
			if (!p || (p > s && p[-1] != ' '))
				continue;
			p = skip_addrs(p + strlen(regs[k]));
			if (hexrun(p) == 4 && p[4] == ':')	/* the code segment */
				p = skip_addrs(p + 5);
			if (symbol_at(p, out, size))
				return 1;
		}
	}
	return 0;
}

static int trace_marker(const char *s)
{
	return *s == '<' && s[strlen(s) - 1] == '>' && !strchr(s, ' ');
}

/* The first call-trace frame that is not machinery. */
static int func_trace(const struct console_report *r, char *out, size_t size)
{
	size_t i = r->at;

	for (; i < r->ctx.n; i++)
		if (strstr(r->ctx.v[i], "Call Trace:") || strstr(r->ctx.v[i], "Call trace:"))
			break;
	for (i++; i < r->ctx.n; i++) {
		const char *s = skip_addrs(body(r->ctx.v[i]));

		if (!*s || trace_marker(s))
			continue;
		if (s[0] == '?' && s[1] == ' ')	/* a stale frame */
			continue;
		if (!symbol_at(s, out, size))
			break;
		if (!skipped_frame(out))
			return 1;
	}
	return 0;
}

/* "WARNING: CPU: 0 PID: 1 at drivers/x.c:12 func+0x1/0x2 [mod]". */
static int func_warning(const struct console_report *r, char *out, size_t size)
{
	const char *s = body(r->ctx.v[r->at]), *p = strstr(s, " at ");

	if (!p)
		return 0;
	p += 4;
	p += strcspn(p, " ");
	return symbol_at(skip_addrs(p), out, size);
}

static int func_in(const struct console_report *r, char *out, size_t size)
{
	const char *p = strstr(body(r->ctx.v[r->at]), " in ");

	return p && symbol_at(p + 4, out, size);
}

static int find_func(int from, const struct console_report *r, char *out, size_t size)
{
	switch (from) {
	case FROM_RIP:
		return func_rip(r, out, size) || func_trace(r, out, size);
	case FROM_TRACE:
		return func_trace(r, out, size);
	case FROM_WARNING:
		return func_warning(r, out, size) || func_rip(r, out, size) ||
		       func_trace(r, out, size);
	case FROM_IN:
		return func_in(r, out, size) || func_trace(r, out, size);
	}
	return 0;
}

static int word_before(const char *start, const char *p, const char *w)
{
	size_t n = strlen(w);

	while (p > start && (p[-1] == ' ' || p[-1] == ':' || p[-1] == '#'))
		p--;
	return (size_t)(p - start) >= n && !strncmp(p - n, w, n) &&
	       (p - n == start || !isalnum((unsigned char)p[-(ptrdiff_t)n - 1]));
}

/* Free text made stable: offsets (+0x12/0x40) dropped, addresses (long hex
 * numbers) become ADDR, CPU and PID numbers N, blanks collapsed; at most
 * len bytes of s. */
static void clean_text(struct strbuf *out, const char *s, size_t len)
{
	const char *start = s, *end = s + len;

	while (s < end) {
		int n;

		if (s[0] == '+' && s + 2 < end && s[1] == '0' && s[2] == 'x' &&
		    (n = hexrun(s + 3)) > 0) {
			s += 3 + n;
			if (s + 2 < end && s[0] == '/' && s[1] == '0' && s[2] == 'x')
				s += 3 + hexrun(s + 3);
			continue;
		}
		if (isalnum((unsigned char)*s) && (s == start || !isalnum((unsigned char)s[-1]))) {
			const char *p = s + (s[0] == '0' && s[1] == 'x' ? 2 : 0);
			int hex = hexrun(p), letters = 0, word = 0;

			for (int k = 0; k < hex; k++)
				letters |= isalpha((unsigned char)p[k]);
			word = isalnum((unsigned char)p[hex]) || p[hex] == '_';
			if (!word && ((hex >= 8 && letters) || hex >= 12)) {
				sb_adds(out, "ADDR");
				s = p + hex;
				continue;
			}
			if (isdigit((unsigned char)*s) &&
			    (word_before(start, s, "CPU") || word_before(start, s, "cpu") ||
			     word_before(start, s, "PID") || word_before(start, s, "pid"))) {
				while (s < end && isdigit((unsigned char)*s))
					s++;
				sb_addch(out, 'N');
				continue;
			}
		}
		if (*s == ' ' && (!out->len || out->buf[out->len - 1] == ' ')) {
			s++;
			continue;
		}
		sb_addch(out, *s++);
	}
	while (out->len && out->buf[out->len - 1] == ' ')
		sb_setlen(out, out->len - 1);
}

static void title_func(const struct crash_class *c, const struct console_report *r,
		       const struct console_scan *cs, const struct crash_host *h,
		       struct strbuf *title, struct strbuf *detail)
{
	char func[128];

	(void)cs, (void)h, (void)detail;
	if (find_func(c->from, r, func, sizeof(func)))
		sb_addf(title, c->fmt, func);
	else
		sb_adds(title, c->fallback);
}

static void title_fixed(const struct crash_class *c, const struct console_report *r,
			const struct console_scan *cs, const struct crash_host *h,
			struct strbuf *title, struct strbuf *detail)
{
	(void)r, (void)cs, (void)h, (void)detail;
	sb_adds(title, c->fallback);
}

/* "Kernel panic - not syncing: MESSAGE", the message made stable. */
static void title_panic(const struct crash_class *c, const struct console_report *r,
			const struct console_scan *cs, const struct crash_host *h,
			struct strbuf *title, struct strbuf *detail)
{
	const char *s = strstr(body(r->ctx.v[r->at]), c->marks[0]);

	(void)cs, (void)h, (void)detail;
	s += strlen(c->marks[0]);
	if (*s == ':')
		s++;
	sb_adds(title, c->marks[0]);
	sb_adds(title, ": ");
	clean_text(title, s, strlen(s));
}

/* "BUG: KASAN: use-after-free in f+0x1/0x2", "UBSAN: shift-out-of-bounds in
 * lib/x.c:12:3": "KIND in FUNC". */
static void title_sanitizer(const struct crash_class *c, const struct console_report *r,
			    const struct console_scan *cs, const struct crash_host *h,
			    struct strbuf *title, struct strbuf *detail)
{
	const char *s = body(r->ctx.v[r->at]), *m = strstr(s, c->marks[0]), *in;
	char func[128];

	(void)cs, (void)h, (void)detail;
	if (!strncmp(m, "BUG: ", 5))
		m += 5;
	in = strstr(m, " in ");
	clean_text(title, m, in ? (size_t)(in - m) : strlen(m));
	if (find_func(c->from, r, func, sizeof(func))) {
		sb_addf(title, " in %s", func);
	} else if (in) {
		/* A source position: the file, without line and column. */
		in += 4;
		sb_adds(title, " in ");
		clean_text(title, in, strcspn(in, ": "));
	}
}

/* Any other "BUG: WHAT: details": "BUG: WHAT in FUNC". */
static void title_bug(const struct crash_class *c, const struct console_report *r,
		      const struct console_scan *cs, const struct crash_host *h,
		      struct strbuf *title, struct strbuf *detail)
{
	const char *s = strstr(body(r->ctx.v[r->at]), "BUG:") + 4, *p;
	size_t n;
	char func[128];

	(void)cs, (void)h, (void)detail;
	s += strspn(s, " ");
	n = strcspn(s, ":,!([");
	if ((p = strstr(s, " in process ")) && (size_t)(p - s) < n)
		n = (size_t)(p - s);
	sb_adds(title, "BUG: ");
	clean_text(title, s, n);
	if (find_func(c->from, r, func, sizeof(func)))
		sb_addf(title, " in %s", func);
}

static const char *report_has(const struct console_report *r, const char *what)
{
	for (size_t i = r->at; i < r->ctx.n; i++) {
		const char *p = strstr(r->ctx.v[i], what);
		if (p)
			return p;
	}
	return NULL;
}

static void title_oom(const struct crash_class *c, const struct console_report *r,
		      const struct console_scan *cs, const struct crash_host *h,
		      struct strbuf *title, struct strbuf *detail)
{
	(void)c, (void)cs, (void)h, (void)detail;
	sb_adds(title, "Out of memory");
	if (report_has(r, "System is deadlocked on memory"))
		sb_adds(title, ": System is deadlocked on memory");
	else if (report_has(r, "no killable processes"))
		sb_adds(title, ": no killable processes");
}

/* "dd: page allocation failure: order:5, mode:...": "... order:5 in FUNC". */
static void title_alloc(const struct crash_class *c, const struct console_report *r,
			const struct console_scan *cs, const struct crash_host *h,
			struct strbuf *title, struct strbuf *detail)
{
	const char *o = strstr(body(r->ctx.v[r->at]), "order:");
	char func[128];

	(void)cs, (void)h, (void)detail;
	sb_adds(title, "page allocation failure");
	if (o)
		sb_addf(title, ": order:%.*s", (int)strspn(o + 6, "0123456789"), o + 6);
	if (find_func(c->from, r, func, sizeof(func)))
		sb_addf(title, " in %s", func);
}

/* ---- the host-side classes ---------------------------------------------- */

static const char *phase_or(int i, const char *none)
{
	return i >= 0 && i < PHASE_COUNT ? phase_name((enum phase)i) : none;
}

static int host_channel(const struct console_scan *cs, const struct crash_host *h)
{
	return h->booted && !h->got_end &&
	       (cs->guest_end || phase_index(cs->guest_phase) > h->last_phase);
}

static int host_hang(const struct console_scan *cs, const struct crash_host *h)
{
	(void)cs;
	return h->booted && h->timed_out && !h->got_end;
}

static int host_qemu(const struct console_scan *cs, const struct crash_host *h)
{
	(void)cs;
	return h->booted && h->vm_exited && !h->got_end;
}

static void title_channel(const struct crash_class *c, const struct console_report *r,
			  const struct console_scan *cs, const struct crash_host *h,
			  struct strbuf *title, struct strbuf *detail)
{
	(void)c, (void)r;
	if (h->last_phase + 1 < PHASE_COUNT)
		sb_addf(title, "record channel lost: phase '%s' not received",
			phase_or(h->last_phase + 1, "?"));
	else
		sb_adds(title, "record channel lost: no end record");
	if (cs->guest_end)
		sb_adds(detail, "the console shows the guest's end");
	else
		sb_addf(detail, "the console shows phase '%s'", cs->guest_phase);
}

static void title_hang(const struct crash_class *c, const struct console_report *r,
		       const struct console_scan *cs, const struct crash_host *h,
		       struct strbuf *title, struct strbuf *detail)
{
	(void)c, (void)r, (void)cs;
	if (h->last_phase + 1 < PHASE_COUNT)
		sb_addf(title, "hang: phase '%s' not reached in time",
			phase_or(h->last_phase + 1, "?"));
	else
		sb_adds(title, "hang: the guest did not end in time");
	sb_addf(detail, "last reached: '%s'", phase_or(h->last_phase, "setup"));
}

static void title_qemu(const struct crash_class *c, const struct console_report *r,
		       const struct console_scan *cs, const struct crash_host *h,
		       struct strbuf *title, struct strbuf *detail)
{
	(void)c, (void)r, (void)cs;
	sb_adds(title, "QEMU exited before the guest finished");
	sb_addf(detail, "%s after phase '%s'; see console.log and qemu.log",
		h->vm_exit ? h->vm_exit : "it ended", phase_or(h->last_phase, "setup"));
}

/* ---- the choice --------------------------------------------------------- */

static void join(struct strbuf *out, char *const *lines, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		sb_adds(out, lines[i]);
		sb_addch(out, '\n');
	}
}

/* Titles stay one printable line of at most CONSOLE_TITLE_MAX - 1 bytes. */
static void fit(struct strbuf *sb)
{
	for (size_t i = 0; i < sb->len; i++)
		if ((unsigned char)sb->buf[i] < 0x20 || (unsigned char)sb->buf[i] >= 0x7f)
			sb->buf[i] = '?';
	if (sb->len >= CONSOLE_TITLE_MAX)
		sb_setlen(sb, CONSOLE_TITLE_MAX - 1);
}

int crash_classify(const struct console_scan *cs, const struct crash_host *h,
		   struct crash *c)
{
	static const struct crash_host none = CRASH_HOST_INIT;
	const struct console_report *r = NULL;

	if (!h)
		h = &none;
	c->cls = NULL;
	c->line = 0;
	sb_reset(&c->title);
	sb_reset(&c->detail);
	sb_reset(&c->context);
	if (cs->rep[CRASH_GROUP_OOM].cls)
		r = &cs->rep[CRASH_GROUP_OOM];
	else if (cs->rep[CRASH_GROUP_CRASH].cls)
		r = &cs->rep[CRASH_GROUP_CRASH];
	if (r) {
		c->cls = r->cls;
		c->line = r->line;
		join(&c->context, r->ctx.v, r->ctx.n);
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(classes) && !c->cls; i++)
			if (classes[i].host && classes[i].host(cs, h))
				c->cls = &classes[i];
		if (!c->cls)
			return 0;
		for (size_t i = 0; i < cs->tail_n; i++)
			join(&c->context, &cs->tail[(cs->tail_next + CONSOLE_TAIL -
						     cs->tail_n + i) % CONSOLE_TAIL], 1);
	}
	c->cls->title(c->cls, r, cs, h, &c->title, &c->detail);
	fit(&c->title);
	fit(&c->detail);
	return 1;
}

char *crash_reason(const struct crash *c)
{
	if (c->detail.len)
		return xstrfmt("%s (%s)", c->title.buf, c->detail.buf);
	return xstrdup(c->title.buf);
}

void crash_release(struct crash *c)
{
	sb_release(&c->title);
	sb_release(&c->detail);
	sb_release(&c->context);
	c->cls = NULL;
}
