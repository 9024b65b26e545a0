// SPDX-License-Identifier: Apache-2.0
#include "record/stacks.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "record/attribution.h"
#include "lib/textscan.h"
#include "lib/util.h"

/*
 * The frames a stack is not charged to: the scheduler's, the waits'
 * generic machinery, preemption, and the paths in and out of the kernel.
 * What is left names what the task waits in (synchronize_rcu,
 * blk_mq_freeze_queue_wait, msleep, __mutex_lock_slowpath) or where it was
 * preempted.  Kept: synchronize_rcu, the locks' slow paths and the like,
 * which say what is waited for.
 */
static const char *const primitive_frames[] = {
	"__schedule", "schedule", "schedule_idle", "schedule_timeout",
	"schedule_timeout_uninterruptible", "schedule_timeout_interruptible",
	"schedule_timeout_killable", "schedule_timeout_idle",
	"schedule_hrtimeout_range_clock", "schedule_hrtimeout_range",
	"schedule_hrtimeout", "schedule_preempt_disabled", "io_schedule",
	"io_schedule_timeout", "preempt_schedule", "preempt_schedule_common",
	"preempt_schedule_irq", "preempt_schedule_notrace",
	"preempt_schedule_thunk", "preempt_schedule_notrace_thunk",
	"__preempt_schedule", "__cond_resched", "_cond_resched",
	"__wait_for_common", "wait_for_common", "wait_for_common_io",
	"do_wait_for_common", "wait_for_completion", "wait_for_completion_io",
	"wait_for_completion_timeout", "wait_for_completion_io_timeout",
	"wait_for_completion_killable", "wait_for_completion_interruptible",
	"wait_for_completion_state", "__wait_rcu_gp", "wait_rcu_gp",
	"__mutex_lock", "__down_common", "__rt_mutex_slowlock",
	/* A task that wakes another is preempted by it right there under
	 * preempt=full: the waking is the preemption point, the work is its
	 * caller's. */
	"try_to_wake_up", "wake_up_process", "wake_up_state", "wake_up_q",
	"__wake_up_common", "__wake_up_common_lock", "__wake_up", "__wake_up_sync_key",
	"complete", "complete_all", "swake_up_locked", "swake_up_one",
	"__mutex_unlock_slowpath", "rwsem_wake", "up_read", "up_write", "__up", "up",
	"irqentry_exit", "irqentry_exit_to_user_mode", "exit_to_user_mode_prepare",
	"exit_to_user_mode_loop", "syscall_exit_to_user_mode",
	"syscall_exit_to_user_mode_prepare", "raw_irqentry_exit_cond_resched",
	"irqentry_exit_cond_resched", "asm_sysvec_*", "sysvec_*", "handle_exception",
	"asm_common_interrupt", "common_interrupt", "__x86_indirect_thunk_*",
	"__x86_return_thunk", "x64_sys_call", "ia32_sys_call",
	"ret_from_intr", "restore_all_switch_stack", "resume_userspace",
	"do_syscall_64", "entry_SYSCALL_64_after_hwframe", "entry_SYSCALL_64",
	"do_int80_syscall_32", "entry_INT80_32", "__do_fast_syscall_32",
	"do_fast_syscall_32", "do_SYSENTER_32", "entry_SYSENTER_32",
	"entry_SYSCALL_compat", "entry_INT80_compat", "ret_from_fork",
	"ret_from_fork_asm",
};

size_t stk_fold(char *const *frames, size_t n)
{
	return attr_fold_past(frames, n, primitive_frames, ARRAY_SIZE(primitive_frames));
}

void stk_frame_name(const char *frame, struct strbuf *sb)
{
	/* The memory attribution's names (offsets, clone suffixes and 6.10's
	 * "_noprof" dropped, a site renamed across versions under one name),
	 * so that one site has one name in both attributions and on every
	 * kernel. */
	if (!strcspn(frame, "+ .["))
		sb_addch(sb, '?');	/* no name at all: never an empty site */
	else
		attr_site_name(frame, sb);
}

void stk_site(char *const *frames, size_t n, struct strbuf *sb)
{
	size_t i = stk_fold(frames, n);

	if (!n) {
		sb_adds(sb, "(no stack)");
		return;
	}
	if (i == n) {
		sb_adds(sb, "(user space)");
		return;
	}
	for (size_t k = 0; k < STK_SITE_FRAMES && i < n; k++) {
		if (k)
			sb_adds(sb, " <- ");
		stk_frame_name(frames[i], sb);
		i += 1 + stk_fold(frames + i + 1, n - i - 1);
	}
}

static void task_release(struct stk_task *t)
{
	for (size_t i = 0; i < t->nframes; i++)
		free(t->frames[i]);
	free(t->frames);
	free(t->comm);
}

static void sample_release(struct stk_sample *s)
{
	for (size_t i = 0; i < s->ntasks; i++)
		task_release(&s->tasks[i]);
	free(s->tasks);
}

void stk_chunk_release(struct stk_chunk *c)
{
	for (size_t i = 0; i < c->n; i++)
		sample_release(&c->s[i]);
	free(c->s);
	free(c->label);
	memset(c, 0, sizeof(*c));
	c->begin_t = -1;
}

/* A whole decimal integer in [lo, hi]. */
static int int_in(const char *s, long long lo, long long hi, long long *out)
{
	int64_t v;

	if (parse_i64(s, &v) < 0 || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* An uptime: decimal seconds, at most a billion. */
static int uptime(const char *s, double *out)
{
	return parse_double(s, out) < 0 || *out < 0 || *out > 1e9 ? -1 : 0;
}

/* "stacks 1 LABEL CHUNK TASKS": a label is insmod, rmmod or step-K. */
static int header(struct stk_chunk *c, char *line, const char **why)
{
	static const char *const sources[] = { "sched-debug", "proc" };
	char *f[6];
	long long k;

	if (split_fields(line, f, 5) != 5 || strcmp(f[0], "stacks") || strcmp(f[1], "1")) {
		*why = "expected 'stacks 1 LABEL CHUNK TASKS'";
		return -1;
	}
	if (strcmp(f[2], "insmod") && strcmp(f[2], "rmmod") &&
	    (strncmp(f[2], "step-", 5) || int_in(f[2] + 5, 1, 1000000, &k) < 0)) {
		*why = "the label is not insmod, rmmod or step-N";
		return -1;
	}
	if (int_in(f[3], 1, STK_MAX_CHUNK, &c->chunk) < 0) {
		*why = "bad chunk number";
		return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(sources); i++)
		if (!strcmp(f[4], sources[i]))
			c->tasks = sources[i];
	if (!c->tasks) {
		*why = "the tasks' source is not sched-debug or proc";
		return -1;
	}
	c->label = xstrdup(f[2]);
	return 0;
}

/* "s N UPTIME COST_US JOB" */
static int sample_line(struct stk_chunk *c, char *line, const char **why)
{
	struct stk_sample s;
	char *f[6];

	memset(&s, 0, sizeof(s));
	if (split_fields(line, f, 5) != 5 || int_in(f[1], 1, 1LL << 40, &s.n) < 0 ||
	    uptime(f[2], &s.t) < 0 || int_in(f[3], 0, STK_MAX_COST_US, &s.cost_us) < 0 ||
	    int_in(f[4], -1, STK_MAX_PID, &s.job) < 0 || s.job == 0) {
		*why = "expected 's N UPTIME COST_US JOB' (numbers in range)";
		return -1;
	}
	if (c->begin_t >= 0 && s.t < c->begin_t) {
		*why = "a sample before the sampler began";
		return -1;
	}
	if (c->n && (s.n <= c->s[c->n - 1].n || s.t < c->s[c->n - 1].t)) {
		*why = "a sample out of order (its number or uptime goes back)";
		return -1;
	}
	ALLOC_GROW(c->s, c->n + 1, c->alloc);
	c->s[c->n++] = s;
	return 0;
}

/* "t PID PPID STATE EXEC_NS COMM" (COMM: the rest of the line). */
static int task_line(struct stk_chunk *c, const char *p, size_t len, const char **why)
{
	struct stk_sample *s;
	struct stk_task t;
	char buf[160], *f[7];
	const char *comm = p;
	int nf;

	memset(&t, 0, sizeof(t));
	if (!c->n) {
		*why = "a task before any sample";
		return -1;
	}
	s = &c->s[c->n - 1];
	if (s->ntasks >= STK_MAX_TASKS) {
		*why = "too many tasks in a sample";
		return -1;
	}
	/* The five fields before COMM: skip them to find where it starts. */
	for (int k = 0; k < 5; k++) {
		while (comm < p + len && *comm != ' ')
			comm++;
		while (comm < p + len && *comm == ' ')
			comm++;
	}
	if ((size_t)(comm - p) >= sizeof(buf) || comm >= p + len) {
		*why = "expected 't PID PPID STATE EXEC_NS COMM'";
		return -1;
	}
	memcpy(buf, p, (size_t)(comm - p));
	buf[comm - p] = '\0';
	nf = split_fields(buf, f, 6);
	if (nf != 5 || int_in(f[1], 1, STK_MAX_PID, &t.pid) < 0 ||
	    int_in(f[2], 0, STK_MAX_PID, &t.ppid) < 0 || strlen(f[3]) != 1 ||
	    !isalpha((unsigned char)f[3][0])) {
		*why = "expected 't PID PPID STATE EXEC_NS COMM' (numbers in range, a state letter)";
		return -1;
	}
	if (!strcmp(f[4], "-"))
		t.exec_ns = -1;
	else if (int_in(f[4], 0, STK_MAX_EXEC_NS, &t.exec_ns) < 0) {
		*why = "bad schedstat nanoseconds";
		return -1;
	}
	if ((size_t)(p + len - comm) > STK_COMM_MAX) {
		*why = "comm too long";
		return -1;
	}
	for (size_t i = 0; i < s->ntasks; i++) {
		if (s->tasks[i].pid == t.pid) {
			*why = "a task twice in one sample";
			return -1;
		}
	}
	t.state = f[3][0];
	t.comm = xstrndup(comm, (size_t)(p + len - comm));
	ALLOC_GROW(s->tasks, s->ntasks + 1, s->alloc);
	s->tasks[s->ntasks++] = t;
	return 0;
}

static int frame_line(struct stk_chunk *c, const char *p, size_t len, const char **why)
{
	struct stk_task *t;

	if (!c->n || !c->s[c->n - 1].ntasks) {
		*why = "a frame before any task";
		return -1;
	}
	t = &c->s[c->n - 1].tasks[c->s[c->n - 1].ntasks - 1];
	while (len && (*p == ' ' || *p == '\t')) {
		p++;
		len--;
	}
	if (!len) {
		*why = "an empty frame";
		return -1;
	}
	if (len >= STK_FRAME_MAX) {
		*why = "frame too long";
		return -1;
	}
	if (t->nframes >= STK_MAX_FRAMES) {
		*why = "too many frames";
		return -1;
	}
	if (!t->frames)
		t->frames = xcalloc(STK_MAX_FRAMES, sizeof(*t->frames));
	t->frames[t->nframes++] = xstrndup(p, len);
	return 0;
}

/* "end N UPTIME COST_US TICKS": the last sample's number, not before it. */
static int end_line(struct stk_chunk *c, char *line, const char **why)
{
	char *f[6];

	if (split_fields(line, f, 5) != 5 || int_in(f[1], 0, 1LL << 40, &c->end_n) < 0 ||
	    uptime(f[2], &c->end_t) < 0 ||
	    int_in(f[3], 0, STK_MAX_COST_US, &c->end_cost_us) < 0 ||
	    int_in(f[4], 0, STK_MAX_COST_US, &c->end_ticks) < 0) {
		*why = "expected 'end N UPTIME COST_US TICKS' (numbers in range)";
		return -1;
	}
	if (c->n && (c->end_n != c->s[c->n - 1].n || c->end_t < c->s[c->n - 1].t ||
		     c->end_cost_us < c->s[c->n - 1].cost_us)) {
		*why = "end does not follow the last sample (its number, uptime or cost)";
		return -1;
	}
	if (c->begin_t >= 0 && c->end_t < c->begin_t) {
		*why = "end before the sampler began";
		return -1;
	}
	c->has_end = 1;
	return 0;
}

int stk_chunk_parse(struct stk_chunk *c, const char *buf, size_t len, struct strbuf *err)
{
	struct line_iter it;
	const char *why = NULL;

	memset(c, 0, sizeof(*c));
	c->begin_t = -1;
	line_iter_init(&it, buf, len);
	while (line_next(&it)) {
		const char *p = it.line;
		char line[256];

		if (line_has_nul(p, it.len)) {
			why = "a NUL byte";
			goto bad;
		}
		if (c->has_end) {
			why = "a line after 'end'";
			goto bad;
		}
		if (it.len && (*p == ' ' || *p == '\t')) {
			if (!c->label) {
				why = "expected 'stacks 1 LABEL CHUNK TASKS' first";
				goto bad;
			}
			if (frame_line(c, p, it.len, &why) < 0)
				goto bad;
			continue;
		}
		if (it.len >= 2 && p[0] == 't' && p[1] == ' ') {
			if (!c->label) {
				why = "expected 'stacks 1 LABEL CHUNK TASKS' first";
				goto bad;
			}
			if (task_line(c, p, it.len, &why) < 0)
				goto bad;
			continue;
		}
		if (it.len >= sizeof(line)) {
			why = "line too long";
			goto bad;
		}
		memcpy(line, p, it.len);
		line[it.len] = '\0';
		if (!c->label) {
			if (header(c, line, &why) < 0)
				goto bad;
		} else if (!strncmp(line, "s ", 2)) {
			if (sample_line(c, line, &why) < 0)
				goto bad;
		} else if (!strncmp(line, "b ", 2)) {
			char *f[3];

			if (c->chunk != 1 || c->n || c->begin_t >= 0) {
				why = "'b' only once, in the first chunk, before its samples";
				goto bad;
			}
			if (split_fields(line, f, 2) != 2 || uptime(f[1], &c->begin_t) < 0) {
				why = "expected 'b UPTIME'";
				goto bad;
			}
		} else if (!strncmp(line, "end ", 4)) {
			if (end_line(c, line, &why) < 0)
				goto bad;
		} else {
			why = "expected a sample 's', a task 't', a frame or 'end'";
			goto bad;
		}
	}
	if (!c->label) {
		sb_adds(err, "empty: no 'stacks 1 LABEL CHUNK TASKS' header");
		stk_chunk_release(c);
		return -1;
	}
	return 0;
bad:
	sb_addf(err, "line %u: %s", it.lineno, why);
	stk_chunk_release(c);
	return -1;
}
