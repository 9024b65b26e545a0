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
 * on, or will not say more), the type when the title gives none, the
 * host-side rows' test and title; named: what a report of it is to a run
 * when not an ending, and whether it is the boot's end rather than a bug
 * of its own (crash_class.h).  Each rule's format names its class
 * (crash_syzkaller.c, crash_own.c); the host-side rows are tried in order
 * when the console holds no report.
 */
static const struct crash_class classes[C_COUNT] = {
	[C_NONE] = { .name = NULL },
	[C_PANIC] = { .name = "panic", .blame = KERNEL, .status = CRASH, .stop = 1, .boot_end = 1 },
	[C_PAGE_FAULT] = { .name = "page-fault", .blame = KERNEL, .status = CRASH, .stop = 1 },
	[C_NULL_DEREF] = { .name = "null-deref", .blame = KERNEL, .status = CRASH, .stop = 1 },
	[C_GPF] = { .name = "gpf", .blame = KERNEL, .status = CRASH, .stop = 1 },
	[C_KERNEL_BUG] = { .name = "kernel-bug", .blame = KERNEL, .status = CRASH, .stop = 1 },
	[C_KASAN] = { .name = "kasan", .blame = KERNEL, .status = CRASH, .stop = 0 },
	[C_KFENCE] = { .name = "kfence", .blame = KERNEL, .status = CRASH, .stop = 0 },
	[C_KMSAN] = { .name = "kmsan", .blame = KERNEL, .status = CRASH, .stop = 0 },
	[C_KCSAN] = { .name = "kcsan", .blame = KERNEL, .status = CRASH, .stop = 0 },
	[C_UBSAN] = { .name = "ubsan", .blame = KERNEL, .status = CRASH, .stop = 0 },
	[C_SOFT_LOCKUP] = { .name = "soft-lockup", .blame = KERNEL, .status = CRASH, .stop = 1 },
	[C_HARD_LOCKUP] = { .name = "hard-lockup", .blame = KERNEL, .status = CRASH, .stop = 1, .type = "HANG" },
	[C_HUNG_TASK] = { .name = "hung-task", .blame = KERNEL, .status = CRASH, .stop = 1, .finding = FINDING_IF_SURVIVED },
	[C_RCU_STALL] = { .name = "rcu-stall", .blame = KERNEL, .status = CRASH, .stop = 1 },
	[C_WARNING] = { .name = "warning", .blame = KERNEL, .status = CRASH, .stop = 0 },
	[C_LOCKDEP] = { .name = "lockdep", .blame = KERNEL, .status = CRASH, .stop = 0 },
	[C_MEMORY_LEAK] = { .name = "memory-leak", .blame = KERNEL, .status = CRASH, .stop = 0 },
	[C_BUG] = { .name = "bug", .blame = KERNEL, .status = CRASH, .stop = 1 },
	[C_OOPS] = { .name = "oops", .blame = KERNEL, .status = CRASH, .stop = 1, .type = "DoS" },
	[C_REBOOT] = { .name = "reboot", .blame = KERNEL, .status = CRASH, .stop = 0, .boot_end = 1 },
	[C_OOM] = { .name = "oom", .blame = KERNEL, .status = CRASH_STATUS_OOM, .stop = 1, .type = "OOM" },
	[C_ALLOC_FAILURE] = { .name = "alloc-failure", .blame = KERNEL, .status = CRASH_STATUS_OOM,
			      .type = "OOM", .finding = FINDING_ALWAYS },
	[C_CHANNEL_LOST] = { .name = "channel-lost", .blame = HARNESS, .status = CRASH_STATUS_ERROR,
			     .type = "LOST_CONNECTION", .host = host_channel, .title = title_channel },
	[C_HANG] = { .name = "hang", .blame = KERNEL, .status = CRASH_STATUS_TIMEOUT, .type = "HANG",
		     .host = host_hang, .title = title_hang },
	[C_QEMU_EXITED] = { .name = "qemu-exited", .blame = HARNESS, .status = CRASH_STATUS_ERROR,
			    .type = "LOST_CONNECTION", .host = host_qemu, .title = title_qemu },
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

