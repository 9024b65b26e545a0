// SPDX-License-Identifier: Apache-2.0
/*
 * The rules in this file (title patterns, skip patterns, crash types) are
 * ported from syzkaller's pkg/report/linux.go, Copyright 2015 syzkaller
 * project authors, Apache License 2.0 (tests/fixtures/syzkaller/LICENSE).
 */
#include "record/crash.h"

#include <ctype.h>
#include <pthread.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest/phase.h"
#include "lib/util.h"

/* ---- patterns ------------------------------------------------------------ */

#define RE_GROUPS 24

/* A pattern of the tables: a POSIX extended regular expression with (?:...)
 * for a group that is no argument; compiled on first use.  One without
 * any special character is looked for as a plain string. */
struct re {
	const char *src;
	int icase;
	int state;			/* 0 not compiled, 1 regex, 2 plain, -1 broken */
	regex_t rx;
	unsigned char ncap;		/* the arguments (capturing groups) */
	unsigned char cap[RE_GROUPS];	/* their POSIX group numbers */
	char need[32];			/* a string every match holds, or "" */
};
#define R(s) (&(struct re){ .src = (s) })
#define RI(s) (&(struct re){ .src = (s), .icase = 1 })

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

static int re_ready(struct re *re)
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

/* Find re in s[0..len): 1 and, when m is not NULL, m[0] the match and
 * m[1..ncap] the arguments (rm_so -1: the group took no part). */
static int re_find(struct re *re, const char *s, size_t len, regmatch_t *m)
{
	regmatch_t all[RE_GROUPS + 1];
	int state = re_ready(re);

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

static int re_any(struct re *const *res, const char *s, size_t len)
{
	for (size_t i = 0; res[i]; i++)
		if (re_find(res[i], s, len, NULL))
			return 1;
	return 0;
}

/* ---- the classes --------------------------------------------------------- */

enum {
	C_NONE, C_PANIC, C_PAGE_FAULT, C_NULL_DEREF, C_GPF, C_KERNEL_BUG, C_KASAN, C_KFENCE,
	C_KMSAN, C_KCSAN, C_UBSAN, C_SOFT_LOCKUP, C_HARD_LOCKUP, C_HUNG_TASK,
	C_RCU_STALL, C_WARNING, C_LOCKDEP, C_MEMORY_LEAK, C_BUG, C_OOPS, C_REBOOT,
	C_OOM, C_ALLOC_FAILURE, C_CHANNEL_LOST, C_HANG, C_QEMU_EXITED, C_COUNT
};

static int host_channel(const struct crash_guest *g, const struct crash_host *h);
static int host_hang(const struct crash_guest *g, const struct crash_host *h);
static int host_qemu(const struct crash_guest *g, const struct crash_host *h);
static void title_channel(const struct crash_guest *g, const struct crash_host *h,
			  struct strbuf *title, struct strbuf *detail);
static void title_hang(const struct crash_guest *g, const struct crash_host *h,
		       struct strbuf *title, struct strbuf *detail);
static void title_qemu(const struct crash_guest *g, const struct crash_host *h,
		       struct strbuf *title, struct strbuf *detail);

#define KERNEL BLAME_KERNEL
#define HARNESS BLAME_HARNESS
#define CRASH CRASH_STATUS_CRASH

/*
 * The harness's classes: result.json's crash.class, who is to blame, the
 * run status, whether a live run stops the VM for it (the kernel cannot go
 * on, or will not say more).  Each oops format below names its class; the
 * host-side rows are tried in order when the console holds no report.
 */
static const struct crash_class classes[C_COUNT] = {
	[C_NONE] = { NULL, KERNEL, CRASH, 0, NULL, NULL, NULL },
	[C_PANIC] = { "panic", KERNEL, CRASH, 1, NULL, NULL, NULL },
	[C_PAGE_FAULT] = { "page-fault", KERNEL, CRASH, 1, NULL, NULL, NULL },
	[C_NULL_DEREF] = { "null-deref", KERNEL, CRASH, 1, NULL, NULL, NULL },
	[C_GPF] = { "gpf", KERNEL, CRASH, 1, NULL, NULL, NULL },
	[C_KERNEL_BUG] = { "kernel-bug", KERNEL, CRASH, 1, NULL, NULL, NULL },
	[C_KASAN] = { "kasan", KERNEL, CRASH, 0, NULL, NULL, NULL },
	[C_KFENCE] = { "kfence", KERNEL, CRASH, 0, NULL, NULL, NULL },
	[C_KMSAN] = { "kmsan", KERNEL, CRASH, 0, NULL, NULL, NULL },
	[C_KCSAN] = { "kcsan", KERNEL, CRASH, 0, NULL, NULL, NULL },
	[C_UBSAN] = { "ubsan", KERNEL, CRASH, 0, NULL, NULL, NULL },
	[C_SOFT_LOCKUP] = { "soft-lockup", KERNEL, CRASH, 1, NULL, NULL, NULL },
	[C_HARD_LOCKUP] = { "hard-lockup", KERNEL, CRASH, 1, "HANG", NULL, NULL },
	[C_HUNG_TASK] = { "hung-task", KERNEL, CRASH, 1, NULL, NULL, NULL },
	[C_RCU_STALL] = { "rcu-stall", KERNEL, CRASH, 1, NULL, NULL, NULL },
	[C_WARNING] = { "warning", KERNEL, CRASH, 0, NULL, NULL, NULL },
	[C_LOCKDEP] = { "lockdep", KERNEL, CRASH, 0, NULL, NULL, NULL },
	[C_MEMORY_LEAK] = { "memory-leak", KERNEL, CRASH, 0, NULL, NULL, NULL },
	[C_BUG] = { "bug", KERNEL, CRASH, 1, NULL, NULL, NULL },
	[C_OOPS] = { "oops", KERNEL, CRASH, 1, "DoS", NULL, NULL },
	[C_REBOOT] = { "reboot", KERNEL, CRASH, 0, NULL, NULL, NULL },
	[C_OOM] = { "oom", KERNEL, CRASH_STATUS_OOM, 1, "OOM", NULL, NULL },
	[C_ALLOC_FAILURE] = { "alloc-failure", KERNEL, CRASH_STATUS_OOM, 0, "OOM", NULL, NULL },
	[C_CHANNEL_LOST] = { "channel-lost", HARNESS, CRASH_STATUS_ERROR, 0, "LOST_CONNECTION",
			     host_channel, title_channel },
	[C_HANG] = { "hang", KERNEL, CRASH_STATUS_TIMEOUT, 0, "HANG", host_hang, title_hang },
	[C_QEMU_EXITED] = { "qemu-exited", HARNESS, CRASH_STATUS_ERROR, 0, "LOST_CONNECTION",
			    host_qemu, title_qemu },
};

/* ---- stacks (syzkaller's linuxStackParams) ---------------------------------- */

/* syzkaller's {{PC}}, {{FUNC}}, {{SRC}}, {{TASK}}. */
#define PC "\\[<?(?:0x)?[0-9a-f]+>?\\]"
#define FUNC "([a-zA-Z0-9_]+)(?:\\.|\\+)"
#define SRC "([-a-zA-Z0-9_/.]+\\.[a-z]+:[0-9]+)"
#define TASK ".{0,100}"
#define RIP_FRAME "(?:IP|NIP|pc |PC is at):? (?:(?:[0-9]+:)?(?:" PC " +){0,2}" FUNC \
	"|(?:[0-9]+:)?0x[0-9a-f]+|(?:[0-9]+:)?" PC " +\\[< *\\(null\\)>\\] +\\(null\\)" \
	"|[0-9]+: +\\(null\\))"

static struct re parse_stack;		/* the marker: walk a stack trace here */
#define PARSE (&parse_stack)
static struct re rip = { .src = RIP_FRAME };
#define RIP (&rip)
static struct re call_trace = { .src = "(?:Call (?:T|t)race:)|(?:Backtrace:)" };
#define CALLTRACE (&call_trace)

/* Lines where a stack trace starts (and so the one being walked ends). */
static struct re *const stack_starts[] = {
	R("Call (?:T|t)race"),
	R("Allocated:"),
	R("Allocated by task [0-9]+:"),
	R("Freed:"),
	R("Freed by task [0-9]+:"),
	R("[^k] backtrace(?: \\(crc [[:xdigit:]]*\\))?:"),
	R("Backtrace:"),
	R("Uninit was stored to memory at"),
	R("status: [0-9a-f]{16} badaddr: [0-9a-f]{16} cause: [0-9a-f]{16}"),
	NULL
};

/* A frame on a line of a stack trace: the function, and arm's two. */
static struct re *const frame_res[] = {
	R("^ *(?:" PC " ){0,2}" FUNC),
	R("^ *" PC " \\(([a-zA-Z0-9_.]+)\\) from " PC " \\(" FUNC),
	NULL
};

/* Fault injection's stacks, mixed into a report, make it unreliable. */
static struct re *const corrupted_lines[] = {
	R("^( " PC ")? should_fail(slab)?(\\.[a-z0-9.]+)?\\+0x"),
	NULL
};

/* The frames never named in a title (syzkaller's skipPatterns: matched
 * anywhere in the function's name). */
static const char *const skip[] = {
	"__sanitizer", "__asan", "kasan", "hwasan", "__msan", "kmsan",
	"kcsan_setup_watchpoint", "check_memory_region", "check_heap_object",
	"check_object", "read_word_at_a_time", "(read|write)_once_.*nocheck",
	"print_address_description", "panic", "invalid_op", "report_bug", "fixup_bug",
	"print_report", "print_usage_bug", "do_error", "_trap$|do_trap", "show_stack",
	"dump_stack", "walk_stack", "dump_backtrace", "warn_slowpath", "warn_alloc",
	"warn_bogus", "__warn", "alloc_page", "k?v?(m|z|c)alloc", "krealloc",
	"kmem_cache", "allocate_slab", "__alloc_frozen_pages_noprof",
	"folio_(alloc|unlock)", "filemap_alloc_folio", "__filemap_get_folio",
	"find_or_create_page", "do_read_cache_folio", "read_cache_page",
	"pagecache_get_page", "grab_cache_page_write_begin", "slab_", "debug_object",
	"timer_is_static_object", "work_is_static_object", "__might_fault",
	"print_unlock", "imbalance_bug", "lockdep", "bh_enable", "bh_disable",
	"perf_trace", "lock_acquire", "lock_release", "lock_class", "mark_lock",
	"(reacquire|mark)_held_locks", "raw_spin_rq", "spin_lock", "spin_trylock",
	"spin_unlock", "read_lock", "read_trylock", "write_lock", "write_trylock",
	"read_unlock", "write_unlock", "^down$", "down_read", "down_write",
	"down_read_trylock", "down_write_trylock", "down_trylock", "up_read",
	"up_write", "^mutex_", "^__mutex_", "^rt_mutex_", "owner_on_cpu", "osq_lock",
	"osq_unlock",
	"atomic(64)?_(dec|inc|read|set|or|xor|and|add|sub|fetch|xchg|cmpxchg|try)",
	"(set|clear|change|test)_bit", "__wake_up", "^refcount_", "^kref_",
	"ref_tracker", "seqprop_assert", "memcpy", "memcmp", "memset", "memchr",
	"memmove", "memdup", "strcmp", "strncmp", "strcpy", "strlcpy", "strncpy",
	"strscpy", "strlen", "strstr", "strnstr", "strnlen", "strchr", "strdup",
	"strndup", "copy_to_user", "copy_from_user", "copy_to_iter", "copy_from_iter",
	"copy_page_to_iter", "copy_page_from_iter", "copy_folio_to_iter", "^copyin$",
	"^copyout$", "put_user", "get_user", "might_fault", "might_sleep", "list_add",
	"list_del", "list_replace", "list_move", "list_splice", "^rb_", "^__rb_",
	"_indirect_thunk_", "string", "pointer", "snprintf", "scnprintf", "kasprintf",
	"kvasprintf", "printk", "va_format", "dev_info", "dev_notice", "dev_warn",
	"dev_err", "dev_alert", "dev_crit", "dev_emerg", "program_check_exception",
	"program_check_common", "del_timer", "flush_work", "__cancel_work_timer",
	"cancel_work_sync", "try_to_grab_pending", "flush_workqueue",
	"drain_workqueue", "destroy_workqueue", "queue_work", "finish_wait",
	"kthread_stop", "kobject_", "add_uevent_var", "get_device_parent",
	"device_add", "device_del", "device_unregister", "device_destroy",
	"device_release", "devres_release_all", "hwrng_unregister", "i2c_del_adapter",
	"__unregister_client", "device_for_each_child", "rollback_registered",
	"unregister_netdev", "sysfs_remove", "device_remove_file",
	"tty_unregister_device", "dummy_urb_enqueue", "usb_kill_urb",
	"usb_kill_anchored_urbs", "usb_control_msg", "usb_hcd_submit_urb",
	"usb_submit_urb", "^complete$", "wait_for_completion", "^kv?free$",
	"kfree_skb", "readb$", "readw$", "readl$", "readq$", "writeb$", "writew$",
	"writel$", "writeq$", "logic_in", "logic_out", "^crc[0-9]+", "crc_itu_t",
	"__might_resched", "assertfail", "^iput$", "^iput_final$", "^ihold$",
	"hex_dump_to_buffer", "print_hex_dump", "^klist_",
	"(trace|lockdep)_(hard|soft)irq", "^(un)?lock_page",
	"stack_trace_consume_entry", "arch_stack_walk", "stack_trace_save",
	"insert_work", "__queue_delayed_work", "queue_delayed_work_on", "ida_free",
	"do_(kernel|translation)_fault", "do_mem_abort", "el1_abort",
	"el1h_64_sync(_handler)?", "print_tainted", "xas_(start|load|find)",
	"find_lock_entries", "truncate_inode_pages_range", "__phys_addr",
	"__fortify_report", "cleanup_srcu_struct", "rhashtable_lookup",
	"extract_(user|iter)_to_sg", "drop_nlink", "^get_taint$", "^put_device$",
	"lock_timer_base", "__timer_delete_sync", "sk_stop_timer_sync", "__mod_timer",
	"fast_dput", "dput", "mark_buffer_dirty",
};

/* The prefixes of syscall entry points, which differ between arches: a
 * frame is named by the shortest of its names without one. */
static const char *const strip_prefixes[] = {
	"SYSC_", "SyS_", "sys_", "__x64_", "__ia32_", "__arm64_", "____sys_",
	"___sys_", "__sys_", "__se_", "__se_sys_", "__do_sys_", "compat_SYSC_",
	"compat_SyS_", "ksys_",
};

/* The stall extractor's anchors: the frame before the first of these names
 * a stall (syzkaller's linuxStallAnchorFrames). */
static const char *const stall_anchors[] = {
	"process_one_work", "do_syscall_", "do_fast_syscall_", "sysenter_dispatch",
	"tracesys_phase2", "el0_svc_handler", "invoke_syscall", "ret_fast_syscall",
	"netif_receive_skb", "do_softirq", "call_timer_fn", "_run_timers",
	"run_timer_softirq", "hrtimer_run", "run_ksoftirqd", "smpboot_thread_fn",
	"^kthread$", "start_secondary", "cpu_startup_entry", "ret_from_fork",
	"vfs_write", "vfs_read", "vfs_iter_read", "vfs_iter_write", "do_iter_read",
	"do_iter_write", "call_read_iter", "call_write_iter", "new_sync_read",
	"new_sync_write", "vfs_ioctl", "ksys_ioctl", "compat_ioctl",
	"compat_sys_ioctl", "blkdev_driver_ioctl", "blkdev_ioctl", "^call_read_iter",
	"^call_write_iter", "do_iter_readv_writev", "^call_mmap", "mmap_region",
	"do_mmap", "do_dentry_open", "vfs_open", "^sock_sendmsg", "^sock_recvmsg",
	"^sock_release", "^__sock_release", "^setsockopt$", "kernel_setsockopt",
	"sock_common_setsockopt", "^listen$", "kernel_listen", "sk_common_release",
	"^sock_mmap", "^accept$", "kernel_accept", "^sock_do_ioctl", "^sock_ioctl",
	"^compat_sock_ioctl", "^nfnetlink_rcv_msg", "^rtnetlink_rcv_msg",
	"^netlink_dump", "^(sys_)?(socketpair|connect|ioctl)", "__do_fault",
	"do_page_fault", "^page_fault$", "__fput", "task_work_run", "exit_to_usermode",
	"smp_call_function", "tasklet_action", "tasklet_hi_action",
};

/* The hung-task extractor: the buckets syzkaller keeps together (a task
 * stuck in synchronize_rcu is named by it), then the frames that are
 * waiting, not hanging. */
static const struct {
	const char *frame, *as;
} hang_anchors[] = {
	{ "rtnl_lock", NULL },
	{ "synchronize_rcu", "synchronize_rcu" },
	{ "synchronize_srcu", "synchronize_rcu" },
	{ "synchronize_net", "synchronize_rcu" },
	{ "synchronize_sched", "synchronize_rcu" },
};
static const char *const hang_skip[] = {
	"sched", "_lock", "_slowlock", "down", "rwsem", "completion", "kthread",
	"wait", "synchronize", "context_switch", "__switch_to", "cancel_delayed_work",
	"rcu_barrier",
};

enum extractor { EX_FIRST, EX_STALL, EX_HANG };

/* Where a title's frame comes from: parts matched on the report's lines in
 * turn (PARSE walks a stack trace), parts2 when parts find none (and, the
 * harness's own, parts3 when neither does, rather than a title "in
 * corrupted"); frames matching skip (and the global skip[]) are passed
 * over; the extractor picks one among the rest. */
struct stack {
	struct re *parts[4];
	struct re *parts2[4];
	struct re *parts3[4];		/* the harness's own last try */
	struct re *skip;
	enum extractor ex;
};
#define STACK(...) (&(const struct stack){ __VA_ARGS__ })
#define RIP_STACK STACK(.parts = { RIP, CALLTRACE, PARSE })
#define TRACE_STACK STACK(.parts = { CALLTRACE, PARSE })

/* syzkaller's warningStackFmt: the RIP line (powerpc's "--- interrupt:")
 * and the trace after it, or a call trace. */
#define WARNING_STACK(skips)						\
	STACK(.parts = { R("(?:" RIP_FRAME "|--- interrupt: [0-9]+ at " FUNC ")"), PARSE }, \
	      .parts2 = { CALLTRACE, PARSE }, .skip = (skips))

/* ---- the oops table ------------------------------------------------------ */

/*
 * A format: the title pattern, found on a line of the report (title2, when
 * set, on a later line too); report patterns on later and later lines,
 * whose arguments replace the title's; the title, "%[N]v" being the Nth
 * argument (the patterns' groups, then the stack's frame); the class when
 * not the row's.  Among a row's formats the one whose title is found
 * first in the report wins, the earlier in the table on a tie; a format
 * whose report patterns are not found gives way to the next.
 */
struct format {
	struct re *title, *title2;
	int title2_next;		/* title2 on the very next line */
	struct re *report[4];
	const char *fmt;
	const struct stack *stack;
	int cls;			/* C_*, or C_NONE for the row's */
};

struct oops {
	const char *header;		/* a line holding it starts a report ... */
	struct re *suppress[12];	/* ... unless it matches one of these */
	enum crash_group group;
	int cls;
	unsigned nth;			/* the nth such line (0 means 1) */
	int after_kernel;		/* only after a line with a timestamp */
	int harness;			/* the harness's: ends no report, titles kept as made */
	const struct format *formats;	/* ended by a row without fmt */
};

#define F(...) { __VA_ARGS__ }
#define FORMATS(...) ((const struct format[]){ __VA_ARGS__, { .fmt = NULL } })

static const struct format oom_formats[] = {
	F(.title = R("."), .report = { R("System is deadlocked on memory") },
	  .fmt = "Out of memory: System is deadlocked on memory"),
	F(.title = R("."), .report = { R("no killable processes") },
	  .fmt = "Out of memory: no killable processes"),
	F(.title = R("."), .fmt = "Out of memory"),
	{ .fmt = NULL },
};

/*
 * syzkaller's linuxOopses, in its order, with the formats of kernel
 * consoles (not the executor's and Go's own messages, SYZFAIL:, panic:,
 * fatal error:; not Rust's panics, whose titles need demangling); then the
 * harness's rows.  A line is tried against the rows in order and starts
 * the first whose header it holds and no suppression matches.
 */
static const struct oops oopses[] = {
	{ "BUG:", {
		R("ODEBUG:"), R("Boot_DEBUG:"), R("xlog_status:"), R("DEBUG:"),
		R("BUG: no syscalls can create resource"), NULL },
	  CRASH_GROUP_CRASH, C_BUG, 0, 0, 0, FORMATS(
	F(.title = R("BUG: KASAN:"),
	  .report = { R("BUG: KASAN: ([-a-z]+) in " FUNC),
		      R("(Read|Write) (?:of size|at addr) (?:[0-9a-f]+)") },
	  .fmt = "KASAN: %[1]v %[3]v in %[4]v", .cls = C_KASAN,
	  .stack = STACK(.parts = { R("BUG: KASAN: (?:[-a-z]+) in " FUNC), CALLTRACE, PARSE },
			 .skip = R("kernel_fault|tag_check|mem_abort|^el1_|^el1h_"))),
	F(.title = R("BUG: KASAN:"),
	  .report = { R("BUG: KASAN: (?:double-free or invalid-free|double-free|invalid-free) in " FUNC) },
	  .fmt = "KASAN: invalid-free in %[2]v", .cls = C_KASAN,
	  .stack = STACK(.parts = { R("BUG: KASAN: (?:double-free or invalid-free|double-free|invalid-free) in " FUNC),
				    CALLTRACE, PARSE },
			 .skip = R("slab_|kfree|vunmap|vfree"))),
	F(.title = R("BUG: KASAN: ([-a-z]+) on address"), .title2 = R("(Read|Write) of size ([0-9]+)"),
	  .fmt = "KASAN: %[1]v %[2]v", .cls = C_KASAN),
	F(.title = R("BUG: KASAN: (.*)"), .fmt = "KASAN: %[1]v", .cls = C_KASAN),
	F(.title = R("BUG: KMSAN: kernel-usb-infoleak"),
	  .report = { R("BUG: KMSAN: kernel-usb-infoleak in " FUNC) },
	  .fmt = "KMSAN: kernel-usb-infoleak in %[2]v", .cls = C_KMSAN,
	  .stack = STACK(.parts = { PARSE, R("(Local variable .* created at:|Uninit was created at:)"), PARSE },
			 .skip = R("alloc_skb|usb_submit_urb|usb_start_wait_urb|usb_bulk_msg|usb_interrupt_msg|usb_control_msg"))),
	F(.title = R("BUG: KMSAN:"), .report = { R("BUG: KMSAN: ([-a-z]+) in " FUNC) },
	  .fmt = "KMSAN: %[1]v in %[3]v", .cls = C_KMSAN,
	  .stack = STACK(.parts = { PARSE, R("(Local variable .* created at:|Uninit was created at:)"), PARSE },
			 .skip = R("alloc_skb|netlink_ack|netlink_rcv_skb|_encrypt$|^(crypto|cipher|drbg|rng)_"))),
	F(.title = R("BUG: KCSAN: data-race"), .report = { R("BUG: KCSAN: (.*)") },
	  .fmt = "KCSAN: %[1]v", .cls = C_KCSAN),
	F(.title = R("BUG: KCSAN:"), .report = { R("BUG: KCSAN: (.*)") },
	  .fmt = "KCSAN: %[1]v", .cls = C_KCSAN),
	F(.title = R("BUG: KFENCE: (use-after-free|out-of-bounds) (read|write) in " FUNC),
	  .fmt = "KFENCE: %[1]v %[2]v in %[4]v", .cls = C_KFENCE,
	  .stack = STACK(.parts = { R("BUG: KFENCE: (?:[- a-z]+) in " FUNC), PARSE })),
	F(.title = R("BUG: KFENCE: invalid free in " FUNC),
	  .fmt = "KFENCE: invalid free in %[2]v", .cls = C_KFENCE,
	  .stack = STACK(.parts = { R("BUG: KFENCE: (?:[- a-z]+) in " FUNC), PARSE })),
	F(.title = R("BUG: KFENCE: invalid (read|write) in " FUNC),
	  .fmt = "KFENCE: invalid %[1]v in %[3]v", .cls = C_KFENCE,
	  .stack = STACK(.parts = { R("BUG: KFENCE: (?:[- a-z]+) in " FUNC), PARSE })),
	F(.title = R("BUG: KFENCE: memory corruption in " FUNC),
	  .fmt = "KFENCE: memory corruption in %[2]v", .cls = C_KFENCE,
	  .stack = STACK(.parts = { R("BUG: KFENCE: (?:[- a-z]+) in " FUNC), PARSE })),
	F(.title = R("BUG: (?:unable to handle kernel paging request|unable to handle page fault for address|Unable to handle kernel data access)"),
	  .fmt = "BUG: unable to handle kernel paging request in %[1]v", .cls = C_PAGE_FAULT,
	  .stack = RIP_STACK),
	F(.title = R("BUG: (?:unable to handle kernel NULL pointer dereference|kernel NULL pointer dereference|Kernel NULL pointer dereference)"),
	  .fmt = "BUG: unable to handle kernel NULL pointer dereference in %[1]v", .cls = C_NULL_DEREF,
	  .stack = RIP_STACK),
	F(.title = R("BUG: (?:unable to handle kernel|Unable to handle kernel)"),
	  .fmt = "BUG: unable to handle kernel", .cls = C_PAGE_FAULT),
	F(.title = R("BUG: (spinlock|rwlock) (lockup suspected|already unlocked|recursion|cpu recursion|bad magic|wrong owner|wrong CPU|trylock failure on UP)"),
	  .fmt = "BUG: %[1]v %[2]v in %[3]v", .cls = C_LOCKDEP,
	  .stack = STACK(.parts = { CALLTRACE, PARSE }, .skip = R("spin_|_lock|_unlock"))),
	F(.title = R("BUG: soft lockup"), .fmt = "BUG: soft lockup in %[1]v", .cls = C_SOFT_LOCKUP,
	  .stack = STACK(.parts = { RIP, CALLTRACE, PARSE }, .ex = EX_STALL)),
	F(.title = R("BUG: .*still has locks held!"),
	  .report = { R("BUG: .*still has locks held!"), R(PC " +" FUNC) },
	  .fmt = "BUG: still has locks held in %[1]v", .cls = C_LOCKDEP),
	F(.title = R("BUG: scheduling while atomic"), .fmt = "BUG: scheduling while atomic in %[1]v",
	  .stack = STACK(.parts = { CALLTRACE, PARSE }, .skip = R("schedule"))),
	F(.title = R("BUG: lock held when returning to user space"),
	  .report = { R("BUG: lock held when returning to user space"),
		      R("leaving the kernel with locks still held"),
		      R("at: (?:" PC " +)?" FUNC) },
	  .fmt = "BUG: lock held when returning to user space in %[1]v", .cls = C_LOCKDEP),
	F(.title = R("BUG: bad unlock balance detected!"), .fmt = "BUG: bad unlock balance in %[1]v",
	  .cls = C_LOCKDEP, .stack = STACK(.parts = { R(PC " +" FUNC), CALLTRACE, PARSE })),
	F(.title = R("BUG: held lock freed!"), .report = { R("BUG: held lock freed!"), R(PC " +" FUNC) },
	  .fmt = "BUG: held lock freed in %[1]v", .cls = C_LOCKDEP),
	F(.title = R("BUG: Bad rss-counter state"), .fmt = "BUG: Bad rss-counter state"),
	F(.title = R("BUG: non-zero nr_ptes on freeing mm"), .fmt = "BUG: non-zero nr_ptes on freeing mm"),
	F(.title = R("BUG: non-zero nr_pmds on freeing mm"), .fmt = "BUG: non-zero nr_pmds on freeing mm"),
	F(.title = R("BUG: Dentry .* still in use"),
	  .report = { R("BUG: Dentry .* still in use \\([0-9]+\\) \\[(unmount) of ([^]]+)\\]") },
	  .fmt = "BUG: Dentry still in use in %[1]v"),
	F(.title = R("BUG: Bad page (state|cache)"), .fmt = "BUG: Bad page %[1]v in %[2]v",
	  .stack = STACK(.parts = { R("page last allocated"), PARSE },
			 .skip = R("(free|put|get|update|release)_page|free_unref|^_*folio|truncate_inode_pages|page_frag_free|alloc|vmap|page_owner"))),
	F(.title = R("BUG: Bad page map"), .fmt = "BUG: Bad page map"),
	F(.title = R("BUG: workqueue lockup"), .fmt = "BUG: workqueue lockup"),
	F(.title = R("BUG: sleeping function called from invalid context at (.*)"),
	  .fmt = "BUG: sleeping function called from invalid context in %[2]v", .stack = TRACE_STACK),
	F(.title = R("BUG: using ([a-z_]+)\\(\\) in preemptible"),
	  .fmt = "BUG: using %[1]v() in preemptible code in %[2]v",
	  .stack = STACK(.parts = { CALLTRACE, PARSE },
			 .skip = R("dump_stack|preemption|preempt|debug_|processor_id|this_cpu"))),
	F(.title = R("BUG: workqueue leaked lock or atomic"),
	  .report = { R("BUG: workqueue leaked lock or atomic"), R("last function: ([a-zA-Z0-9_]+)$") },
	  .fmt = "BUG: workqueue leaked lock or atomic in %[1]v", .cls = C_LOCKDEP),
	F(.title = R("BUG: memory leak"), .fmt = "memory leak in %[1]v", .cls = C_MEMORY_LEAK,
	  .stack = STACK(.parts = { R("backtrace(?: \\(crc [[:xdigit:]]*\\))?:"), PARSE },
			 .skip = R("kmemleak|mmap|kmem|slab|alloc|create_object|idr_get|list_lru_init|kasprintf|kvasprintf|pcpu_create|strdup|strndup|memdup"))),
	F(.title = R("BUG: .*stack guard page was hit at"), .fmt = "BUG: stack guard page was hit in %[1]v",
	  .stack = STACK(.parts = { RIP, CALLTRACE, PARSE }, .ex = EX_STALL)),
	F(.title = R("BUG: Invalid wait context"), .fmt = "WARNING: locking bug in %[1]v", .cls = C_LOCKDEP,
	  .stack = STACK(.parts = { CALLTRACE, PARSE }, .skip = R("lock_sock|release_sock"))),
	F(.title = R("BUG:[[:space:]]*$"), .fmt = "BUG: corrupted")) },

	{ "WARNING:", {
		R("WARNING: /etc/ssh/moduli does not exist, using fixed modulus"),
		R("WARNING: workqueue cpumask: online intersect > possible intersect"),
		R("WARNING: [Tt]he mand mount option"),
		R("WARNING: Unsupported flag value\\(s\\) of 0x%x in DT_FLAGS_1"),
		R("WARNING: Unprivileged eBPF is enabled with eIBRS"),
		R("WARNING: fbcon: Driver '(.*)' missed to adjust virtual screen size (\\((?:[0-9]+)x(?:[0-9]+) vs\\. (?:[0-9]+)x(?:[0-9]+)\\))"),
		R("WARNING: See https.* for mitigation options."),
		R("WARNING: kernel not compiled with CPU_SRSO"),
		R("EXT4-[Ff][Ss](?: \\(.*\\))?:"),
		RI("warning: .* uses (deprecated v2 capabilities|wireless extensions)"),
		R("XFS \\([[:alnum:]_]+\\): WARNING"), NULL },
	  CRASH_GROUP_CRASH, C_WARNING, 0, 0, 0, FORMATS(
	F(.title = R("WARNING: .*lib/debugobjects\\.c.* (?:debug_print|debug_check|at)"),
	  .fmt = "WARNING: ODEBUG bug in %[1]v",
	  .stack = WARNING_STACK(R("debug_|rcu|hrtimer_|timer_|work_|percpu_|vunmap|vfree|__free_|debug_check|kobject_"))),
	F(.title = R("WARNING: .*mm/usercopy\\.c.* (?:usercopy_warn|at)"),
	  .fmt = "WARNING: bad usercopy in %[1]v", .stack = WARNING_STACK(R("usercopy|__check"))),
	F(.title = R("WARNING: .*lib/kobject\\.c.* (?:kobject_|at)"),
	  .fmt = "WARNING: kobject bug in %[1]v", .stack = WARNING_STACK(R("kobject_"))),
	F(.title = R("WARNING: .*fs/proc/generic\\.c.* (?:proc_register|at)"),
	  .fmt = "WARNING: proc registration bug in %[1]v", .stack = WARNING_STACK(R("proc_"))),
	F(.title = R("WARNING: .*lib/refcount\\.c.* (?:refcount_|at)"),
	  .fmt = "WARNING: refcount bug in %[1]v", .stack = WARNING_STACK(R("refcount|kobject_"))),
	F(.title = R("WARNING: .*kernel/locking/lockdep\\.c.*lock_"),
	  .fmt = "WARNING: locking bug in %[1]v", .cls = C_LOCKDEP,
	  .stack = WARNING_STACK(R("lock_sock|release_sock"))),
	F(.title = R("WARNING: .*still has locks held!"),
	  .report = { R("WARNING: .*still has locks held!"), R("at: " FUNC) },
	  .fmt = "WARNING: still has locks held in %[1]v", .cls = C_LOCKDEP),
	F(.title = R("WARNING: Nested lock was not taken"),
	  .fmt = "WARNING: nested lock was not taken in %[1]v", .cls = C_LOCKDEP,
	  .stack = WARNING_STACK(NULL)),
	F(.title = R("WARNING: lock held when returning to user space"),
	  .report = { R("WARNING: lock held when returning to user space"),
		      R("leaving the kernel with locks still held"),
		      R("at: (?:" PC " +)?" FUNC) },
	  .fmt = "WARNING: lock held when returning to user space in %[1]v", .cls = C_LOCKDEP),
	F(.title = R("WARNING: .*mm/.*\\.c.* k?.?malloc"),
	  .fmt = "WARNING: kmalloc bug in %[1]v", .stack = WARNING_STACK(R("kmalloc|krealloc|slab|kmem"))),
	F(.title = R("WARNING: .*mm/vmalloc.c.*__vmalloc_node"),
	  .fmt = "WARNING: zero-size vmalloc in %[1]v", .stack = WARNING_STACK(NULL)),
	F(.title = R("WARNING: .* usb_submit_urb"),
	  .fmt = "WARNING in %[1]v/usb_submit_urb",
	  .stack = WARNING_STACK(R("usb_submit_urb|usb_start_wait_urb|usb_bulk_msg|usb_interrupt_msg|usb_control_msg"))),
	/* The format of recent kernels: WARNING: fs/x.c:12 at 0x.., CPU#1: ... */
	F(.title = R("WARNING: " SRC " at 0x[0-9]+, CPU#[0-9]+"),
	  .fmt = "WARNING in %[2]v", .stack = WARNING_STACK(NULL)),
	F(.title = R("WARNING: .* at " SRC " " FUNC), .fmt = "WARNING in %[3]v", .stack = WARNING_STACK(NULL)),
	F(.title = R("WARNING: " SRC " at " FUNC), .fmt = "WARNING in %[3]v", .stack = WARNING_STACK(NULL)),
	F(.title = R("WARNING: \\[.*\\] " SRC " at " FUNC ".*"), .fmt = "WARNING in %[3]v",
	  .stack = WARNING_STACK(NULL)),
	F(.title = R("WARNING: possible circular locking dependency detected"),
	  .report = { R("WARNING: possible circular locking dependency detected"),
		      R("is trying to acquire lock") },
	  .fmt = "possible deadlock in %[1]v", .cls = C_LOCKDEP,
	  .stack = STACK(.parts = { R("at: (?:" PC " +)?" FUNC), R("at: (?:" PC " +)?" FUNC), PARSE },
			 .skip = R("process_one_work|flush_workqueue|drain_workqueue|destroy_workqueue"))),
	F(.title = R("WARNING: possible irq lock inversion dependency detected"),
	  .report = { R("WARNING: possible irq lock inversion dependency detected"),
		      R("just changed the state of lock"), R("at: (?:" PC " +)?" FUNC) },
	  .fmt = "possible deadlock in %[1]v", .cls = C_LOCKDEP),
	F(.title = R("WARNING: .*-safe -> .*-unsafe lock order detected"),
	  .fmt = "possible deadlock in %[1]v", .cls = C_LOCKDEP,
	  .stack = STACK(.parts = { R("which became (?:.*) at:"), PARSE })),
	F(.title = R("WARNING: possible recursive locking detected"),
	  .report = { R("WARNING: possible recursive locking detected"),
		      R("is trying to acquire lock"), R("at: (?:" PC " +)?" FUNC) },
	  .fmt = "possible deadlock in %[1]v", .cls = C_LOCKDEP),
	F(.title = R("WARNING: inconsistent lock state"),
	  .report = { R("WARNING: inconsistent lock state"), R("takes"), R("at: (?:" PC " +)?" FUNC) },
	  .fmt = "inconsistent lock state in %[2]v", .cls = C_LOCKDEP, .stack = TRACE_STACK),
	F(.title = R("WARNING: suspicious RCU usage"),
	  .report = { R("WARNING: suspicious RCU usage"), R(SRC) },
	  .fmt = "WARNING: suspicious RCU usage in %[2]v", .cls = C_LOCKDEP,
	  .stack = STACK(.parts = { CALLTRACE, PARSE }, .skip = R("rcu|kmem|slab"))),
	F(.title = R("WARNING: kernel stack regs at [0-9a-f]+ in [^ ]* has bad '([^']+)' value"),
	  .fmt = "WARNING: kernel stack regs has bad '%[1]v' value"),
	F(.title = R("WARNING: kernel stack frame pointer at [0-9a-f]+ in [^ ]* has bad value"),
	  .fmt = "WARNING: kernel stack frame pointer has bad value"),
	F(.title = R("WARNING: bad unlock balance detected!"), .fmt = "WARNING: bad unlock balance in %[1]v",
	  .cls = C_LOCKDEP, .stack = STACK(.parts = { R(PC " +" FUNC), CALLTRACE, PARSE })),
	F(.title = R("WARNING: held lock freed!"),
	  .report = { R("WARNING: held lock freed!"), R("at:(?: " PC ")? +" FUNC) },
	  .fmt = "WARNING: held lock freed in %[1]v", .cls = C_LOCKDEP),
	F(.title = R("WARNING: kernel stack regs .* has bad 'bp' value"),
	  .fmt = "WARNING: kernel stack regs has bad value"),
	F(.title = R("WARNING: kernel stack frame pointer .* has bad value"),
	  .fmt = "WARNING: kernel stack regs has bad value"),
	F(.title = R("WARNING:[[:space:]]*$"), .fmt = "WARNING: corrupted")) },

	{ "INFO:", {
		R("INFO: lockdep is turned off"), R("INFO: Stall ended before state dump start"),
		R("INFO: NMI handler"), R("INFO: recovery required on readonly filesystem"),
		R("(handler|interrupt).*took too long"), R("INFO: sys_.* is not present in /proc/kallsyms"),
		R("INFO: no syscalls can create resource"), R("rmt_storage:INFO:"), R("_INFO:"), NULL },
	  CRASH_GROUP_CRASH, C_BUG, 0, 0, 0, FORMATS(
	F(.title = R("INFO: possible circular locking dependency detected"),
	  .report = { R("INFO: possible circular locking dependency detected \\]"),
		      R("is trying to acquire lock"), R("at: " PC " +" FUNC) },
	  .fmt = "possible deadlock in %[1]v", .cls = C_LOCKDEP),
	F(.title = R("INFO: possible irq lock inversion dependency detected"),
	  .report = { R("INFO: possible irq lock inversion dependency detected \\]"),
		      R("just changed the state of lock"), R("at: " PC " +" FUNC) },
	  .fmt = "possible deadlock in %[1]v", .cls = C_LOCKDEP),
	F(.title = R("INFO: SOFTIRQ-safe -> SOFTIRQ-unsafe lock order detected"),
	  .report = { R("INFO: SOFTIRQ-safe -> SOFTIRQ-unsafe lock order detected \\]"),
		      R("is trying to acquire"), R("at: " PC " +" FUNC) },
	  .fmt = "possible deadlock in %[1]v", .cls = C_LOCKDEP),
	F(.title = R("INFO: possible recursive locking detected"),
	  .report = { R("INFO: possible recursive locking detected \\]"),
		      R("is trying to acquire lock"), R("at: " PC " +" FUNC) },
	  .fmt = "possible deadlock in %[1]v", .cls = C_LOCKDEP),
	F(.title = R("INFO: inconsistent lock state"),
	  .report = { R("INFO: inconsistent lock state \\]"), R("takes"), R("at: " PC " +" FUNC) },
	  .fmt = "inconsistent lock state in %[1]v", .cls = C_LOCKDEP),
	F(.title = R("INFO: rcu_(?:preempt|sched|bh|tasks) (?:self-)?detected(?: expedited)? stall"),
	  .fmt = "INFO: rcu detected stall in %[1]v", .cls = C_RCU_STALL,
	  .stack = STACK(.parts = { R("apic_timer_interrupt"), RIP, PARSE },
			 .parts2 = { R("(?:apic_timer_interrupt|Exception stack|el1h_64_irq)"), PARSE },
			 .parts3 = { RIP, CALLTRACE, PARSE },
			 .skip = R("apic_timer_interrupt|rcu"), .ex = EX_STALL)),
	F(.title = R("INFO: trying to register non-static key"),
	  .fmt = "INFO: trying to register non-static key in %[1]v", .cls = C_LOCKDEP,
	  .stack = STACK(.parts = { CALLTRACE, PARSE }, .skip = R("stack|lock|IRQ"))),
	F(.title = R("INFO: suspicious RCU usage"), .report = { R("INFO: suspicious RCU usage"), R(SRC) },
	  .fmt = "INFO: suspicious RCU usage in %[2]v", .cls = C_LOCKDEP,
	  .stack = STACK(.parts = { CALLTRACE, PARSE }, .skip = R("rcu|kmem|slab"))),
	F(.title = R("INFO: task " TASK " blocked (?:in I/O wait )?for more than [0-9]+ seconds"),
	  .fmt = "INFO: task hung in %[1]v", .cls = C_HUNG_TASK,
	  .stack = STACK(.parts = { CALLTRACE, PARSE }, .ex = EX_HANG)),
	/* The task's name broken over two lines (syzkaller's {{TASK}} spans them). */
	F(.title = R("INFO: task .{0,100}$"), .title2_next = 1,
	  .title2 = R("^.{0,100}blocked (?:in I/O wait )?for more than [0-9]+ seconds"),
	  .fmt = "INFO: task hung in %[1]v", .cls = C_HUNG_TASK,
	  .stack = STACK(.parts = { CALLTRACE, PARSE }, .ex = EX_HANG)),
	F(.title = R("INFO: task " TASK " can't die for more than .* seconds"),
	  .fmt = "INFO: task can't die in %[1]v", .cls = C_HUNG_TASK,
	  .stack = STACK(.parts = { CALLTRACE, PARSE }, .skip = R("schedule"))),
	F(.title = R("INFO: (Freed|Allocated) in (.*)"), .fmt = "INFO: %[1]v in %[2]v", .cls = C_KASAN),
	F(.title = R("INFO:[[:space:]]*$"), .fmt = "INFO: corrupted")) },

	{ "Unable to handle kernel", { NULL }, CRASH_GROUP_CRASH, C_PAGE_FAULT, 0, 0, 0, FORMATS(
	F(.title = R("Unable to handle kernel (paging request|NULL pointer dereference|access to user memory)"),
	  .fmt = "BUG: unable to handle kernel %[1]v in %[2]v", .stack = RIP_STACK)) },

	{ "general protection fault", { R("general protection fault .* error:[0-9]+ in "), NULL },
	  CRASH_GROUP_CRASH, C_GPF, 0, 0, 0, FORMATS(
	F(.title = R("general protection fault.*:"), .fmt = "general protection fault in %[1]v",
	  .stack = RIP_STACK)) },

	{ "stack segment: ", { NULL }, CRASH_GROUP_CRASH, C_OOPS, 0, 0, 0, FORMATS(
	F(.title = R("stack segment: "), .fmt = "stack segment fault in %[1]v", .stack = RIP_STACK)) },

	{ "Kernel panic", { NULL }, CRASH_GROUP_CRASH, C_PANIC, 0, 0, 0, FORMATS(
	F(.title = R("Kernel panic - not syncing: stack-protector:"),
	  .report = { R("Kernel panic - not syncing: stack-protector: Kernel stack is corrupted in: " FUNC) },
	  .fmt = "kernel panic: stack is corrupted in %[1]v"),
	F(.title = R("Kernel panic - not syncing: stack-protector:"),
	  .report = { R("Kernel panic - not syncing: stack-protector: Kernel stack is corrupted in: [a-f0-9]+") },
	  .fmt = "kernel panic: stack is corrupted in %[1]v",
	  .stack = STACK(.parts = { CALLTRACE, PARSE }, .skip = R("stack_chk"))),
	F(.title = R("Kernel panic - not syncing: corrupted stack end"),
	  .report = { R("Kernel panic - not syncing: corrupted stack end detected inside scheduler") },
	  .fmt = "kernel panic: corrupted stack end in %[1]v",
	  .stack = STACK(.parts = { CALLTRACE, PARSE }, .skip = R("schedule|retint_kernel"), .ex = EX_STALL)),
	F(.title = R("Kernel panic - not syncing: kernel stack overflow"),
	  .fmt = "kernel stack overflow in %[1]v",
	  .stack = STACK(.parts = { CALLTRACE, PARSE }, .skip = R("bad_stack"), .ex = EX_STALL)),
	F(.title = R("Kernel panic - not syncing: Attempted to kill init!"),
	  .fmt = "kernel panic: Attempted to kill init!"),
	F(.title = R("Kernel panic - not syncing: Couldn't open N_TTY ldisc for [^ ]+ --- error -[0-9]+"),
	  .fmt = "kernel panic: Couldn't open N_TTY ldisc"),
	F(.title = R("Kernel panic - not syncing: Fatal exception"), .fmt = "kernel panic: Fatal exception"),
	F(.title = R("Kernel panic - not syncing: panic_on_warn set"), .fmt = "kernel panic: panic_on_warn set"),
	F(.title = R("Kernel panic - not syncing: hung_task: blocked tasks"),
	  .fmt = "kernel panic: hung_task: blocked tasks"),
	F(.title = R("Kernel panic - not syncing: (.*)"), .fmt = "kernel panic: %[1]v")) },

	{ "PANIC: double fault", { NULL }, CRASH_GROUP_CRASH, C_OOPS, 0, 0, 0, FORMATS(
	F(.title = R("PANIC: double fault"), .fmt = "PANIC: double fault in %[1]v",
	  .stack = STACK(.parts = { RIP }))) },

	{ "kernel BUG", { NULL }, CRASH_GROUP_CRASH, C_KERNEL_BUG, 0, 0, 0, FORMATS(
	F(.title = R("kernel BUG at mm/usercopy.c"), .fmt = "BUG: bad usercopy in %[1]v",
	  .stack = STACK(.parts = { CALLTRACE, PARSE }, .skip = R("usercopy|__check"))),
	F(.title = R("kernel BUG at lib/list_debug.c"), .fmt = "BUG: corrupted list in %[1]v",
	  .stack = TRACE_STACK),
	F(.title = R("kernel BUG at (.*)"), .fmt = "kernel BUG in %[2]v",
	  .stack = STACK(.parts = { RIP, CALLTRACE, PARSE }, .skip = R("^skb_")))) },

	{ "Kernel BUG", { NULL }, CRASH_GROUP_CRASH, C_KERNEL_BUG, 0, 0, 0, FORMATS(
	F(.title = R("Kernel BUG (.*)"), .fmt = "kernel BUG %[1]v")) },

	{ "BUG kmalloc-", { NULL }, CRASH_GROUP_CRASH, C_BUG, 0, 0, 0, FORMATS(
	F(.title = R("BUG kmalloc-.*: Object already free"), .fmt = "BUG: Object already free")) },

	{ "divide error:", { NULL }, CRASH_GROUP_CRASH, C_OOPS, 0, 0, 0, FORMATS(
	F(.title = R("divide error: "), .fmt = "divide error in %[1]v", .stack = STACK(.parts = { RIP }))) },

	{ "divide_error:", { NULL }, CRASH_GROUP_CRASH, C_OOPS, 0, 0, 0, FORMATS(
	F(.title = R("divide_error: "), .fmt = "divide error in %[1]v", .stack = STACK(.parts = { RIP }))) },

	{ "invalid opcode:", { NULL }, CRASH_GROUP_CRASH, C_OOPS, 0, 0, 0, FORMATS(
	F(.title = R("invalid opcode: "), .fmt = "invalid opcode in %[1]v", .stack = STACK(.parts = { RIP }))) },

	{ "int3:", { NULL }, CRASH_GROUP_CRASH, C_OOPS, 0, 0, 0, FORMATS(
	F(.title = R("int3: "), .fmt = "int3 in %[1]v", .stack = RIP_STACK)) },

	{ "UBSAN:", { NULL }, CRASH_GROUP_CRASH, C_UBSAN, 0, 0, 0, FORMATS(
	F(.title = R("UBSAN:"), .report = { R("UBSAN: Undefined behaviour in") },
	  .fmt = "UBSAN: undefined-behaviour in %[1]v",
	  .stack = STACK(.parts = { CALLTRACE, PARSE }, .skip = R("ubsan|overflow"))),
	F(.title = R("UBSAN: array-index-out-of-bounds in"), .fmt = "UBSAN: array-index-out-of-bounds in %[1]v",
	  .stack = STACK(.parts = { CALLTRACE, PARSE }, .skip = R("ubsan|overflow"))),
	F(.title = R("UBSAN:"), .report = { R("UBSAN: ([^ ]*(?: [^ ]+)*?) in") },
	  .fmt = "UBSAN: %[1]v in %[2]v",
	  .stack = STACK(.parts = { CALLTRACE, PARSE }, .skip = R("ubsan|overflow")))) },

	{ "Booting the kernel", { R("Parsing ELF|Decompressing Linux|Unknown parameter '"), NULL },
	  CRASH_GROUP_CRASH, C_REBOOT, 0, 1, 0, FORMATS(
	F(.title = R("^Booting the kernel"), .fmt = "unexpected kernel reboot")) },

	{ "unregister_netdevice: waiting for", { NULL }, CRASH_GROUP_CRASH, C_BUG, 0, 0, 0, FORMATS(
	F(.title = R("unregister_netdevice: waiting for (?:.*) to become free"),
	  .fmt = "unregister_netdevice: waiting for DEV to become free")) },

	{ "VFS: Close: file count is 0", { NULL }, CRASH_GROUP_CRASH, C_BUG, 0, 0, 0, FORMATS(
	F(.title = R("VFS: Close: file count is 0"), .fmt = "VFS: Close: file count is zero (use-after-free)")) },

	{ "VFS: Busy inodes after unmount", { NULL }, CRASH_GROUP_CRASH, C_BUG, 0, 0, 0, FORMATS(
	F(.title = R("VFS: Busy inodes after unmount"), .fmt = "VFS: Busy inodes after unmount (use-after-free)")) },

	{ "Internal error:", { NULL }, CRASH_GROUP_CRASH, C_OOPS, 0, 0, 0, FORMATS(
	F(.title = R("Internal error:"), .fmt = "Internal error in %[1]v", .stack = RIP_STACK)) },

	{ "Unhandled fault:", { NULL }, CRASH_GROUP_CRASH, C_OOPS, 0, 0, 0, FORMATS(
	F(.title = R("Unhandled fault:"), .fmt = "Unhandled fault in %[1]v", .stack = RIP_STACK)) },

	{ "Alignment trap:", { NULL }, CRASH_GROUP_CRASH, C_OOPS, 0, 0, 0, FORMATS(
	F(.title = R("Alignment trap:"), .fmt = "Alignment trap in %[1]v", .stack = RIP_STACK)) },

	{ "trusty: panic", { NULL }, CRASH_GROUP_CRASH, C_PANIC, 0, 0, 0, FORMATS(
	F(.title = R("trusty: panic.* ASSERT FAILED"),
	  .report = { R("trusty: panic \\([^)]*\\):(?: DEBUG)? ASSERT FAILED at \\([^)]*\\): (.+)") },
	  .fmt = "trusty: ASSERT FAILED: %[1]v"),
	F(.title = R("trusty: panic.* ASSERT FAILED.*: *(.*)"), .fmt = "trusty: ASSERT FAILED: %[1]v"),
	F(.title = R("trusty: panic"), .report = { R("trusty: panic \\([^)]*\\): (.+)") },
	  .fmt = "trusty: panic: %[1]v")) },

	/* The harness's own rows. */
	{ "Linux version ", { NULL }, CRASH_GROUP_CRASH, C_REBOOT, 2, 0, 0, FORMATS(
	F(.title = R("Linux version "), .fmt = "unexpected kernel reboot")) },
	{ "double fault: ", { NULL }, CRASH_GROUP_CRASH, C_OOPS, 0, 0, 1, FORMATS(
	F(.title = R("double fault: "), .fmt = "PANIC: double fault in %[1]v", .stack = STACK(.parts = { RIP }))) },
	{ "Watchdog detected hard LOCKUP", { NULL }, CRASH_GROUP_CRASH, C_HARD_LOCKUP, 0, 0, 1, FORMATS(
	F(.title = R("Watchdog detected hard LOCKUP"), .fmt = "hard lockup in %[1]v",
	  .stack = STACK(.parts = { RIP, CALLTRACE, PARSE }, .ex = EX_STALL))) },
	{ "Oops: ", { NULL }, CRASH_GROUP_CRASH, C_OOPS, 0, 0, 1, FORMATS(
	F(.title = R("Oops: "), .fmt = "Oops in %[1]v", .stack = RIP_STACK)) },
	{ "invoked oom-killer", { NULL }, CRASH_GROUP_OOM, C_OOM, 0, 0, 1, oom_formats },
	{ "Out of memory: Kill", { NULL }, CRASH_GROUP_OOM, C_OOM, 0, 0, 1, oom_formats },
	{ "oom-kill:", { NULL }, CRASH_GROUP_OOM, C_OOM, 0, 0, 1, oom_formats },
	{ "System is deadlocked on memory", { NULL }, CRASH_GROUP_OOM, C_OOM, 0, 0, 1, oom_formats },
	{ "Out of memory and no killable processes", { NULL }, CRASH_GROUP_OOM, C_OOM, 0, 0, 1,
	  oom_formats },
	{ "page allocation failure", { NULL }, CRASH_GROUP_OOM, C_ALLOC_FAILURE, 0, 0, 1, FORMATS(
	F(.title = R("page allocation failure: order:([0-9]+)"),
	  .fmt = "page allocation failure: order:%[1]v in %[2]v", .stack = TRACE_STACK),
	F(.title = R("page allocation failure"), .fmt = "page allocation failure")) },
};

/* Lines that hold a header and still do not start a new report: they
 * belong to the report before them. */
static const char *const start_ignores[] = {
	"invalid opcode: 0000", "Kernel panic - not syncing",
	"unregister_netdevice: waiting for", "PANIC: double fault", "Internal error:",
};

/* Reports that are no bug but print a stack: one in the middle of another
 * report ends it. */
static const char *const info_with_stack[] = {
	"vmalloc: allocation failure:", "FAULT_INJECTION: forcing a failure",
	"FAULT_FLAG_ALLOW_RETRY missing",
};

/* ---- crash types (syzkaller's pkg/report/crash, TitleToType) ------------ */

/* The first row with a prefix of the title gives its type. */
static const struct {
	const char *type;
	const char *prefixes[20];
} types[] = {
	{ "KFENCE-USE-AFTER-FREE-WRITE", { "KFENCE: use-after-free write" } },
	{ "KFENCE-USE-AFTER-FREE-READ", { "KFENCE: use-after-free read", "KFENCE: use-after-free" } },
	{ "KFENCE-WRITE", { "KFENCE: invalid write", "KFENCE: out-of-bounds write" } },
	{ "KFENCE-READ", { "KFENCE: invalid read", "KFENCE: out-of-bounds read", "KFENCE: out-of-bounds" } },
	{ "KFENCE-MEMORY-CORRUPTION", { "KFENCE: memory corruption" } },
	{ "KFENCE-INVALID-FREE", { "KFENCE: invalid free" } },
	{ "KMSAN-UNINIT-VALUE", { "KMSAN: uninit-value" } },
	{ "KMSAN-USE-AFTER-FREE-READ", { "KMSAN: kernel-infoleak-after-free",
					 "KMSAN: kernel-usb-infoleak-after-free", "KMSAN: use-after-free" } },
	{ "KMSAN-INFO-LEAK", { "KMSAN: kernel-infoleak", "KMSAN: kernel-usb-infoleak" } },
	{ "KASAN-NULL-POINTER-DEREFERENCE-WRITE", { "KASAN: null-ptr-deref Write" } },
	{ "KASAN-NULL-POINTER-DEREFERENCE-READ", { "KASAN: null-ptr-deref Read" } },
	{ "NULL-POINTER-DEREFERENCE", { "BUG: unable to handle kernel NULL pointer dereference in" } },
	{ "KASAN-WRITE", { "KASAN: global-out-of-bounds Write", "KASAN: out-of-bounds Write",
			   "KASAN: slab-out-of-bounds Write", "KASAN: stack-out-of-bounds Write",
			   "KASAN: user-memory-access Write", "KASAN: vmalloc-out-of-bounds Write",
			   "KASAN: wild-memory-access Write" } },
	{ "KASAN-READ", { "KASAN: global-out-of-bounds Read", "KASAN: invalid-access Read",
			  "KASAN: out-of-bounds Read", "KASAN: slab-out-of-bounds Read",
			  "KASAN: slab-out-of-bounds", "KASAN: stack-out-of-bounds Read",
			  "KASAN: stack-out-of-bounds", "KASAN: unknown-crash Read",
			  "KASAN: user-memory-access Read", "KASAN: vmalloc-out-of-bounds Read",
			  "KASAN: wild-memory-access Read", "KASAN: wild-memory-access" } },
	{ "KASAN-INVALID-FREE", { "KASAN: double-free or invalid-free", "KASAN: invalid-free" } },
	{ "KASAN-USE-AFTER-FREE-WRITE", { "KASAN: slab-use-after-free Write", "KASAN: use-after-free Write" } },
	{ "KASAN-USE-AFTER-FREE-READ", { "KASAN: slab-use-after-free Read", "KASAN: use-after-free Read",
					 "KASAN: use-after-free" } },
	{ "MEMORY_SAFETY_BUG", { "BUG: corrupted list", "BUG: unable to handle kernel paging request" } },
	{ "REFCOUNT_WARNING", { "WARNING: refcount bug" } },
	{ "MEMORY_SAFETY_UBSAN", { "UBSAN: array-index-out-of-bounds" } },
	{ "KCSAN-DATARACE", { "KCSAN: data-race" } },
	{ "KCSAN-ASSERT", { "KCSAN: assert: race in" } },
	{ "LOCKDEP", { "BUG: bad unlock balance in", "BUG: held lock freed in", "BUG: rwlock",
		       "BUG: spinlock", "BUG: still has locks held in", "BUG: using",
		       "WARNING: bad unlock balance in", "WARNING: held lock freed in",
		       "WARNING: lock held", "WARNING: locking bug in",
		       "WARNING: nested lock was not taken in", "WARNING: still has locks held in",
		       "WARNING: suspicious RCU usage in", "inconsistent lock state in",
		       "possible deadlock in" } },
	{ "ATOMIC_SLEEP", { "BUG: scheduling while atomic in",
			    "BUG: sleeping function called from invalid context in" } },
	{ "LEAK", { "memory leak in" } },
	{ "BUG", { "BUG: bad usercopy in", "kernel BUG" } },
	{ "WARNING", { "WARNING in" } },
	{ "UNKNOWN", { "BUG: stack guard page was hit in", "WARNING: corrupted",
		       "WARNING: kernel stack frame pointer has bad value",
		       "WARNING: kernel stack regs has bad" } },
	{ "HANG", { "BUG: soft lockup in", "INFO: rcu detected stall in", "INFO: task can't die in",
		    "INFO: task hung in" } },
	{ "DoS", { "Alignment trap in", "BUG: Object already free", "Internal error in",
		   "PANIC: double fault", "Unhandled fault in",
		   "VFS: Busy inodes after unmount (use-after-free)",
		   "VFS: Close: file count is zero (use-after-free)", "divide error in",
		   "general protection fault in", "go runtime error", "int3 in", "invalid opcode in",
		   "kernel panic:", "kernel stack overflow", "panic:", "rust_kernel panicked",
		   "stack segment fault in", "trusty:",
		   "unregister_netdevice: waiting for DEV to become free" } },
	{ "NO_OUTPUT", { "no output from test machine" } },
	{ "REBOOT", { "unexpected kernel reboot" } },
	{ "SYZ_FAILURE", { "SYZFAIL", "SYZFATAL:" } },
	{ "WARNING", { "WARNING:" } },
	{ "UNKNOWN", { "BUG:", "INFO:" } },
	{ "KASAN-UNKNOWN", { "KASAN:" } },
	{ "KFENCE-UNKNOWN", { "KFENCE:" } },
	{ "KMSAN-UNKNOWN", { "KMSAN:" } },
	{ "UBSAN", { "UBSAN:" } },
	{ "KCSAN-UNKNOWN", { "KCSAN:" } },
};

const char *crash_title_type(const char *title)
{
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		for (size_t k = 0; k < ARRAY_SIZE(types[i].prefixes) && types[i].prefixes[k]; k++)
			if (!strncmp(title, types[i].prefixes[k], strlen(types[i].prefixes[k])))
				return types[i].type;
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
static uint8_t pair_next[ARRAY_SIZE(oopses)];	/* 1 + the next row with it */
static size_t header_len[ARRAY_SIZE(oopses)];
static pthread_once_t headers_once = PTHREAD_ONCE_INIT;

_Static_assert(ARRAY_SIZE(oopses) <= 64, "crash_line.heads has 64 bits");

static unsigned pair_at(const char *s)
{
	return (unsigned)(unsigned char)s[0] << 8 | (unsigned char)s[1];
}

static void index_headers(void)
{
	for (size_t k = ARRAY_SIZE(oopses); k-- > 0; ) {
		unsigned p = pair_at(oopses[k].header);

		header_len[k] = strlen(oopses[k].header);
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
			    !memcmp(s + i, oopses[k - 1].header, header_len[k - 1]))
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

static int line_has_any(const struct crash_line *l, const char *const *what, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (line_has(l, what[i]))
			return 1;
	return 0;
}

int crash_line_oops(const struct crash_line *l, enum crash_group g)
{
	for (size_t k = 0; k < ARRAY_SIZE(oopses); k++) {
		if (oopses[k].group != g || !(l->heads >> k & 1))
			continue;
		if (!re_any(oopses[k].suppress, l->s, l->len))
			return (int)k;
	}
	return -1;
}

int crash_oops_counts(int k, unsigned seen, int stamped)
{
	const struct oops *o = &oopses[k];

	return seen >= (o->nth ? o->nth : 1) && (!o->after_kernel || stamped);
}

size_t crash_oops_count(void)
{
	return ARRAY_SIZE(oopses);
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
	r->cls = &classes[oopses[k].cls];
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
	const struct oops *o = &oopses[r->oops];
	int k, second, caller_ids = r->kind == 'T' || r->kind == 'C';
	unsigned min_lines;

	if (!r->open)
		return 0;
	/* The next report ends this one, unless caller ids tell them apart. */
	k = crash_line_oops(l, CRASH_GROUP_CRASH);
	second = (k >= 0 && !oopses[k].harness &&
		  !line_has_any(l, start_ignores, ARRAY_SIZE(start_ignores))) ||
		 line_has_any(l, info_with_stack, ARRAY_SIZE(info_with_stack));
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

/* skip[] and stall_anchors[] as one alternation each, as syzkaller joins
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
	skip_all.src = join_alternatives(skip, ARRAY_SIZE(skip));
	stall_all.src = join_alternatives(stall_anchors, ARRAY_SIZE(stall_anchors));
}

static struct re *joined(struct re *re)
{
	pthread_once(&joined_once, join_tables);
	return re;
}

static int skipped(const char *frame, struct re *extra)
{
	size_t len = strlen(frame);

	return re_find(joined(&skip_all), frame, len, NULL) ||
	       (extra && re_find(extra, frame, len, NULL));
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

/* A frame's name without a syscall prefix: the shortest. */
static const char *stripped(const char *frame)
{
	const char *best = frame;

	for (size_t i = 0; i < ARRAY_SIZE(strip_prefixes); i++) {
		size_t n = strlen(strip_prefixes[i]);

		if (!strncmp(frame, strip_prefixes[i], n) && strlen(frame + n) < strlen(best))
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

			if (re_find(joined(&stall_all), f, strlen(f), NULL)) {
				sb_adds(out, strstr(f, "smp_call_function") ? "smp_call_function" : prev);
				return 1;
			}
			prev = f;
		}
		return 0;
	case EX_HANG:
		for (size_t i = 0; i < raw->n; i++) {
			const char *f = stripped(raw->v[i]);

			for (size_t k = 0; k < ARRAY_SIZE(hang_anchors); k++) {
				if (strstr(f, hang_anchors[k].frame)) {
					sb_adds(out, hang_anchors[k].as ? hang_anchors[k].as : f);
					return 1;
				}
			}
		}
		for (size_t i = 0; i < raw->n; i++) {
			const char *f = stripped(raw->v[i]);
			size_t k = 0;

			while (k < ARRAY_SIZE(hang_skip) && !strstr(f, hang_skip[k]))
				k++;
			if (k == ARRAY_SIZE(hang_skip)) {
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
			if (re_any(corrupted_lines, ln, len)) {
				ok = 0;
				break;
			}
			if (parts[pi] != PARSE) {
				if (re_find(parts[pi], ln, len, m)) {
					add_frames(&raw, ln, m, parts[pi]->ncap, st->skip);
					break;
				}
				continue;
			}
			if (re_any(stack_starts, ln, len))
				break;
			if (pi + 1 < np && parts[pi + 1] != PARSE && re_find(parts[pi + 1], ln, len, m)) {
				add_frames(&raw, ln, m, parts[pi + 1]->ncap, st->skip);
				pi++;
				break;
			}
			for (size_t f = 0; frame_res[f]; f++) {
				if (re_find(frame_res[f], ln, len, m)) {
					add_frames(&raw, ln, m, frame_res[f]->ncap, st->skip);
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
static int find_title(const struct format *f, const struct strvec *body, size_t *li,
		      size_t *col, struct strvec *args)
{
	regmatch_t m[RE_GROUPS + 1], m2[RE_GROUPS + 1];

	for (size_t i = 0; i < body->n; i++) {
		size_t j = i + 1;

		if (!re_find(f->title, body->v[i], strlen(body->v[i]), m))
			continue;
		if (f->title2) {
			int found = 0;

			for (; j < body->n; j++) {
				found = re_find(f->title2, body->v[j], strlen(body->v[j]), m2);
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
static int find_report(const struct format *f, const struct strvec *body, size_t *li,
		       size_t *col, struct strvec *args)
{
	regmatch_t m[RE_GROUPS + 1];

	for (size_t i = 0; i < body->n; i++) {
		size_t j = i, p;

		if (!re_find(f->report[0], body->v[i], strlen(body->v[i]), m))
			continue;
		strvec_clear(args);
		add_args(args, body->v[i], m, f->report[0]->ncap);
		*col = (size_t)m[0].rm_so;
		for (p = 1; p < ARRAY_SIZE(f->report) && f->report[p]; p++) {
			for (j++; j < body->n; j++) {
				if (re_find(f->report[p], body->v[j], strlen(body->v[j]), m)) {
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
	for (const struct format *f = o->formats; f->fmt; f++) {
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

/* What varies between two nights, out of a title (syzkaller's
 * dynamicTitleReplacement): each pattern replaced until it is found no
 * more; "${N}" is the Nth argument. */
static const struct {
	struct re *re;
	const char *with;
} replacements[] = {
	{ R("syz-executor\\.?[0-9]+(?:(?:/|:)[0-9]+)?"), "syz-executor" },
	{ R("syzkaller[0-9]+(?:(?:/|:)[0-9]+)?"), "syzkaller" },
	{ R("([^a-zA-Z0-9])(?:0x)?[0-9a-f]{6,}"), "${1}ADDR" },
	{ R("[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}"), "IP" },
	{ R("(\\.[[:alnum:]_]+)(?::[0-9]+)+"), "${1}:LINE" },
	{ R("([a-zA-Z][a-zA-Z0-9_.]+)\\+0x[0-9a-z]+/0x[0-9a-z]+"), "${1}" },
	{ R("CPU#[0-9]+"), "CPU" },
	{ R("([^[:alnum:]_])[0-9]+([^[:alnum:]_]|$)"), "${1}NUM${2}" },
	{ R("[0-9]{7,}"), "NUM" },
};

/* Every match of re in s, left to right, replaced; 1 if s changed. */
static int replace_all(struct re *re, const char *with, struct strbuf *s)
{
	struct strbuf out = STRBUF_INIT;
	regmatch_t all[RE_GROUPS + 1], m[RE_GROUPS + 1];
	size_t pos = 0;
	int any = 0;

	if (re_ready(re) != 1)
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

int crash_of_report(const struct crash_report *r, struct crash *c)
{
	struct strbuf raw = STRBUF_INIT;
	int cls;

	sb_reset(&c->title);
	sb_reset(&c->detail);
	if (!r->cls)
		return 0;
	describe(&oopses[r->oops], &r->body, &raw, &cls);
	for (size_t i = 0; i < ARRAY_SIZE(replacements) && !oopses[r->oops].harness; i++)
		for (int n = 0; n < 100 && replace_all(replacements[i].re, replacements[i].with, &raw); n++)
			;
	sanitize(raw.buf, &c->title);
	sb_release(&raw);
	c->cls = cls != C_NONE ? &classes[cls] : r->cls;
	c->type = crash_title_type(c->title.buf);
	if (!strcmp(c->type, "UNKNOWN") && c->cls->type)
		c->type = c->cls->type;
	return 1;
}

/* ---- the host-side classes ---------------------------------------------- */

static const char *phase_or(int i, const char *none)
{
	return i >= 0 && i < PHASE_COUNT ? phase_name((enum phase)i) : none;
}

static int host_channel(const struct crash_guest *g, const struct crash_host *h)
{
	return h->booted && !h->got_end && (g->ended || phase_index(g->phase) > h->last_phase);
}

static int host_hang(const struct crash_guest *g, const struct crash_host *h)
{
	(void)g;
	return h->booted && h->timed_out && !h->got_end;
}

static int host_qemu(const struct crash_guest *g, const struct crash_host *h)
{
	(void)g;
	return h->booted && h->vm_exited && !h->got_end;
}

static void title_channel(const struct crash_guest *g, const struct crash_host *h,
			  struct strbuf *title, struct strbuf *detail)
{
	if (h->last_phase + 1 < PHASE_COUNT)
		sb_addf(title, "record channel lost: phase '%s' not received",
			phase_or(h->last_phase + 1, "?"));
	else
		sb_adds(title, "record channel lost: no end record");
	if (g->ended)
		sb_adds(detail, "the console shows the guest's end");
	else
		sb_addf(detail, "the console shows phase '%s'", g->phase);
}

static void title_hang(const struct crash_guest *g, const struct crash_host *h,
		       struct strbuf *title, struct strbuf *detail)
{
	(void)g;
	if (h->last_phase + 1 < PHASE_COUNT)
		sb_addf(title, "hang: phase '%s' not reached in time",
			phase_or(h->last_phase + 1, "?"));
	else
		sb_adds(title, "hang: the guest did not end in time");
	sb_addf(detail, "last reached: '%s'", phase_or(h->last_phase, "setup"));
}

static void title_qemu(const struct crash_guest *g, const struct crash_host *h,
		       struct strbuf *title, struct strbuf *detail)
{
	(void)g;
	sb_adds(title, "QEMU exited before the guest finished");
	sb_addf(detail, "%s after phase '%s'; see console.log and qemu.log",
		h->vm_exit ? h->vm_exit : "it ended", phase_or(h->last_phase, "setup"));
}

int crash_of_host(const struct crash_guest *g, const struct crash_host *h, struct crash *c)
{
	sb_reset(&c->title);
	sb_reset(&c->detail);
	c->cls = NULL;
	for (size_t i = 1; i < ARRAY_SIZE(classes); i++) {
		if (classes[i].host && classes[i].host(g, h)) {
			c->cls = &classes[i];
			c->cls->title(g, h, &c->title, &c->detail);
			c->type = c->cls->type;
			return 1;
		}
	}
	return 0;
}

/* ---- the rest ------------------------------------------------------------ */

const struct crash_class *crash_classes(size_t *n)
{
	*n = ARRAY_SIZE(classes) - 1;
	return classes + 1;
}

const char *crash_blame_name(enum crash_blame b)
{
	return b == BLAME_KERNEL ? "kernel" : "harness";
}

static int check(struct re *re, const char *where)
{
	if (!re || re == PARSE || re_ready(re) > 0)
		return 0;
	fprintf(stderr, "%s: pattern does not compile: %s\n", where, re->src);
	return 1;
}

int crash_check_patterns(void)
{
	int bad = 0;

	for (size_t k = 0; k < ARRAY_SIZE(oopses); k++) {
		const struct oops *o = &oopses[k];

		for (size_t i = 0; o->suppress[i]; i++)
			bad += check(o->suppress[i], o->header);
		for (const struct format *f = o->formats; f->fmt; f++) {
			bad += check(f->title, f->fmt) + check(f->title2, f->fmt);
			for (size_t i = 0; i < ARRAY_SIZE(f->report); i++)
				bad += check(f->report[i], f->fmt);
			if (!f->stack)
				continue;
			bad += check(f->stack->skip, f->fmt);
			for (size_t i = 0; i < ARRAY_SIZE(f->stack->parts); i++)
				bad += check(f->stack->parts[i], f->fmt) + check(f->stack->parts2[i], f->fmt);
		}
	}
	for (size_t i = 0; stack_starts[i]; i++)
		bad += check(stack_starts[i], "stack starts");
	for (size_t i = 0; frame_res[i]; i++)
		bad += check(frame_res[i], "frames");
	for (size_t i = 0; corrupted_lines[i]; i++)
		bad += check(corrupted_lines[i], "corrupted lines");
	for (size_t i = 0; i < ARRAY_SIZE(replacements); i++)
		bad += check(replacements[i].re, "replacements");
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
