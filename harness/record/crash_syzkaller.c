// SPDX-License-Identifier: Apache-2.0
/*
 * syzkaller's crash rules, ported row by row from google/syzkaller
 * pkg/report/linux.go (linuxOopses, linuxStackParams, the skip patterns,
 * the stall and hang anchors, dynamicTitleReplacement) and
 * pkg/report/crash (TitleToType), Copyright 2015 syzkaller project
 * authors, Apache License 2.0 (tests/fixtures/syzkaller/LICENSE).  Data
 * only: their shape is crash_rules.h, the engine that applies them
 * crash.c; the harness's own rows are in crash_own.c.
 */
#include "record/crash_rules.h"

#include "lib/util.h"

/* ---- stacks (syzkaller's linuxStackParams) ---------------------------------- */

/* syzkaller's {{PC}}, {{FUNC}}, {{SRC}}, {{TASK}}. */
#define PC "\\[<?(?:0x)?[0-9a-f]+>?\\]"
#define FUNC "([a-zA-Z0-9_]+)(?:\\.|\\+)"
#define SRC "([-a-zA-Z0-9_/.]+\\.[a-z]+:[0-9]+)"
#define TASK ".{0,100}"
#define RIP_FRAME "(?:IP|NIP|pc |PC is at):? (?:(?:[0-9]+:)?(?:" PC " +){0,2}" FUNC \
	"|(?:[0-9]+:)?0x[0-9a-f]+|(?:[0-9]+:)?" PC " +\\[< *\\(null\\)>\\] +\\(null\\)" \
	"|[0-9]+: +\\(null\\))"

/* syzkaller's parseStackTrace: a marker among a stack's parts, never
 * compiled: walk a stack trace here. */
struct re crash_re_parse;
struct re crash_re_rip = { .src = RIP_FRAME };
struct re crash_re_call_trace = { .src = "(?:Call (?:T|t)race:)|(?:Backtrace:)" };

/* Lines where a stack trace starts (and so the one being walked ends). */
struct re *const crash_stack_starts[] = {
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
struct re *const crash_frame_res[] = {
	R("^ *(?:" PC " ){0,2}" FUNC),
	R("^ *" PC " \\(([a-zA-Z0-9_.]+)\\) from " PC " \\(" FUNC),
	NULL
};

/* Fault injection's stacks, mixed into a report, make it unreliable. */
struct re *const crash_corrupted_lines[] = {
	R("^( " PC ")? should_fail(slab)?(\\.[a-z0-9.]+)?\\+0x"),
	NULL
};

/* The frames never named in a title (syzkaller's skipPatterns: matched
 * anywhere in the function's name). */
const char *const crash_skip[] = {
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
	NULL
};

/* The prefixes of syscall entry points, which differ between arches: a
 * frame is named by the shortest of its names without one. */
const char *const crash_strip_prefixes[] = {
	"SYSC_", "SyS_", "sys_", "__x64_", "__ia32_", "__arm64_", "____sys_",
	"___sys_", "__sys_", "__se_", "__se_sys_", "__do_sys_", "compat_SYSC_",
	"compat_SyS_", "ksys_",
	NULL
};

/* The stall extractor's anchors: the frame before the first of these names
 * a stall (syzkaller's linuxStallAnchorFrames). */
const char *const crash_stall_anchors[] = {
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
	NULL
};

/* The hung-task extractor: the buckets syzkaller keeps together (a task
 * stuck in synchronize_rcu is named by it), then the frames that are
 * waiting, not hanging. */
const struct crash_hang_anchor crash_hang_anchors[] = {
	{ "rtnl_lock", NULL },
	{ "synchronize_rcu", "synchronize_rcu" },
	{ "synchronize_srcu", "synchronize_rcu" },
	{ "synchronize_net", "synchronize_rcu" },
	{ "synchronize_sched", "synchronize_rcu" },
	{ NULL, NULL }
};
const char *const crash_hang_skip[] = {
	"sched", "_lock", "_slowlock", "down", "rwsem", "completion", "kthread",
	"wait", "synchronize", "context_switch", "__switch_to", "cancel_delayed_work",
	"rcu_barrier",
	NULL
};

/* syzkaller's warningStackFmt: the RIP line (powerpc's "--- interrupt:")
 * and the trace after it, or a call trace. */
#define WARNING_STACK(skips)						\
	STACK(.parts = { R("(?:" RIP_FRAME "|--- interrupt: [0-9]+ at " FUNC ")"), PARSE }, \
	      .parts2 = { CALLTRACE, PARSE }, .skip = (skips))


/* ---- the oops table ------------------------------------------------------ */

/*
 * syzkaller's linuxOopses, in its order, with the formats of kernel
 * consoles (not the executor's and Go's own messages, SYZFAIL:, panic:,
 * fatal error:; not Rust's panics, whose titles need demangling).  The
 * harness's own rows (crash_own.c) come after these.  A line is tried
 * against the rows in order and starts the first whose header it holds
 * and no suppression matches.
 */
const struct oops crash_syzkaller_oopses[] = {
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
};

const size_t crash_syzkaller_noopses = ARRAY_SIZE(crash_syzkaller_oopses);
_Static_assert(ARRAY_SIZE(crash_syzkaller_oopses) <= CRASH_OOPS_SYZKALLER_MAX,
	       "more of syzkaller's rows than crash_rules.h has room for");


/* Lines that hold a header and still do not start a new report: they
 * belong to the report before them. */
const char *const crash_start_ignores[] = {
	"invalid opcode: 0000", "Kernel panic - not syncing",
	"unregister_netdevice: waiting for", "PANIC: double fault", "Internal error:",
	NULL
};

/* Reports that are no bug but print a stack: one in the middle of another
 * report ends it. */
const char *const crash_info_with_stack[] = {
	"vmalloc: allocation failure:", "FAULT_INJECTION: forcing a failure",
	"FAULT_FLAG_ALLOW_RETRY missing",
	NULL
};

/* ---- crash types (syzkaller's pkg/report/crash, TitleToType) ------------ */

/* The first row with a prefix of the title gives its type. */
const struct crash_type crash_types[] = {
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
	{ NULL, { NULL } }
};


/* What varies between two nights, out of a title (syzkaller's
 * dynamicTitleReplacement): each pattern replaced until it is found no
 * more; "${N}" is the Nth argument. */
const struct crash_replacement crash_replacements[] = {
	{ R("syz-executor\\.?[0-9]+(?:(?:/|:)[0-9]+)?"), "syz-executor" },
	{ R("syzkaller[0-9]+(?:(?:/|:)[0-9]+)?"), "syzkaller" },
	{ R("([^a-zA-Z0-9])(?:0x)?[0-9a-f]{6,}"), "${1}ADDR" },
	{ R("[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}"), "IP" },
	{ R("(\\.[[:alnum:]_]+)(?::[0-9]+)+"), "${1}:LINE" },
	{ R("([a-zA-Z][a-zA-Z0-9_.]+)\\+0x[0-9a-z]+/0x[0-9a-z]+"), "${1}" },
	{ R("CPU#[0-9]+"), "CPU" },
	{ R("([^[:alnum:]_])[0-9]+([^[:alnum:]_]|$)"), "${1}NUM${2}" },
	{ R("[0-9]{7,}"), "NUM" },
	{ NULL, NULL }
};
