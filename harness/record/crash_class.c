// SPDX-License-Identifier: Apache-2.0
/*
 * The harness's crash classes (crash_class.h): the table, and the
 * host-side rows' tests and titles.
 */
#include "record/crash_class.h"

#include <stddef.h>

#include "guest/phase.h"
#include "lib/util.h"

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
 * on, or will not say more), and, last, what a report of it is to a run
 * when not an ending (crash_class.h).  Each rule's format names its class
 * (crash_syzkaller.c, crash_own.c); the host-side rows are tried in order
 * when the console holds no report.
 */
static const struct crash_class classes[C_COUNT] = {
	[C_NONE] = { NULL, KERNEL, CRASH, 0, NULL, NULL, NULL },
	[C_PANIC] = { "panic", KERNEL, CRASH, 1, .boot_end = 1 },
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
	[C_HUNG_TASK] = { "hung-task", KERNEL, CRASH, 1, .finding = FINDING_IF_SURVIVED },
	[C_RCU_STALL] = { "rcu-stall", KERNEL, CRASH, 1, NULL, NULL, NULL },
	[C_WARNING] = { "warning", KERNEL, CRASH, 0, NULL, NULL, NULL },
	[C_LOCKDEP] = { "lockdep", KERNEL, CRASH, 0, NULL, NULL, NULL },
	[C_MEMORY_LEAK] = { "memory-leak", KERNEL, CRASH, 0, NULL, NULL, NULL },
	[C_BUG] = { "bug", KERNEL, CRASH, 1, NULL, NULL, NULL },
	[C_OOPS] = { "oops", KERNEL, CRASH, 1, "DoS", NULL, NULL },
	[C_REBOOT] = { "reboot", KERNEL, CRASH, 0, .boot_end = 1 },
	[C_OOM] = { "oom", KERNEL, CRASH_STATUS_OOM, 1, "OOM", NULL, NULL },
	[C_ALLOC_FAILURE] = { "alloc-failure", KERNEL, CRASH_STATUS_OOM, 0, "OOM",
			      .finding = FINDING_ALWAYS },
	[C_CHANNEL_LOST] = { "channel-lost", HARNESS, CRASH_STATUS_ERROR, 0, "LOST_CONNECTION",
			     host_channel, title_channel },
	[C_HANG] = { "hang", KERNEL, CRASH_STATUS_TIMEOUT, 0, "HANG", host_hang, title_hang },
	[C_QEMU_EXITED] = { "qemu-exited", HARNESS, CRASH_STATUS_ERROR, 0, "LOST_CONNECTION",
			    host_qemu, title_qemu },
};

const struct crash_class *crash_class_at(enum crash_class_id id)
{
	return &classes[id];
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

const struct crash_class *crash_host_class(const struct crash_guest *g, const struct crash_host *h)
{
	for (size_t i = 1; i < ARRAY_SIZE(classes); i++)
		if (classes[i].host && classes[i].host(g, h))
			return &classes[i];
	return NULL;
}

const struct crash_class *crash_classes(size_t *n)
{
	*n = ARRAY_SIZE(classes) - 1;
	return classes + 1;
}

const char *crash_blame_name(enum crash_blame b)
{
	return b == BLAME_KERNEL ? "kernel" : "harness";
}

