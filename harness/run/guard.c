// SPDX-License-Identifier: Apache-2.0
#include "run/guard.h"

#include <stdlib.h>
#include <string.h>

#include "guest/phase.h"
#include "lib/child.h"
#include "lib/util.h"
#include "record/crash.h"
#include "record/crash_class.h"
#include "result/host.h"
#include "vm/watch.h"

/* After a panic/Oops/OOM line, how long the guest may go on before we stop it. */
#define CRASH_GRACE_S 10.0
/* After the "end" record, how long the VM may take to exit. */
#define EXIT_GRACE_S 30.0

static void on_phase(void *ctx, int phase, double uptime)
{
	struct guard *g = ctx;
	double now = now_monotonic();

	/* A deferred hung-task report: the step ended, so did its wait. */
	if (progress_phase(&g->progress, phase, uptime) && g->deferred)
		g->crash_at = 0;

	host_phase(g->host, phase_name(phase), now - g->t_vm);
	/* The next phase has its own deadline, with slack so that the guest's
	 * own waits (which report more precisely) expire first. */
	if (phase + 1 < PHASE_COUNT)
		g->deadline = now + (double)phase_timeout(phase + 1, g->s) * 1.1 + 5;
	else
		g->deadline = now + 60;
	note("%7.1fs  %-14s guest uptime %.1f s", now - g->t_vm, phase_name(phase), uptime);
}

static void on_progress(void *ctx, double uptime, long long blocks, long long queues)
{
	struct guard *g = ctx;

	/* A deferred hung-task report waits while the step's count moves. */
	if (progress_update(&g->progress, uptime, blocks, queues) && g->deferred && g->crash_at)
		g->crash_at = now_monotonic() + progress_patience(&g->progress);
}

static void on_end(void *ctx)
{
	struct guard *g = ctx;

	g->deadline = now_monotonic() + EXIT_GRACE_S;
}

/* A sweep's step is done: the next step has the insmod deadline again. */
static void on_point(void *ctx, long step, long long disks)
{
	struct guard *g = ctx;
	double now = now_monotonic();

	g->deadline = now + (double)g->s->timeout_insmod * 1.1 + 5;
	note("%7.1fs  sweep step %ld: %lld disks", now - g->t_vm, step, disks);
}

static const struct records_ops guard_records_ops = {
	.phase = on_phase,
	.progress = on_progress,
	.point = on_point,
	.end = on_end,
};

/* The guest may write at most guest_output_mb on each stream: past it, no
 * more is kept or decoded, and the watch ends (over_budget). */
static int within_budget(struct guard *g, unsigned long long *bytes, size_t n, const char *what)
{
	unsigned long long max = (unsigned long long)g->s->guest_output_mb << 20;

	if (g->over_budget)
		return 0;
	if (*bytes + n > max) {
		g->error = xstrfmt("the guest wrote more than %lld MiB on its %s (guest_output_mb): "
				   "the rest was not kept and the VM was stopped",
				   g->s->guest_output_mb, what);
		g->over_budget = 1;
		return 0;
	}
	*bytes += n;
	return 1;
}

/* A hung-task report, by the class its title gives (the oops row is
 * "INFO:"). */
static int is_hung_task(struct guard *g, const struct console_report *rep)
{
	const struct crash_class *c;

	/* Once per report, not once per console chunk while it waits. */
	if (rep != g->asked) {
		c = crash_report_class(&rep->r);
		g->asked = rep;
		g->asked_hung = c && c->finding == FINDING_IF_SURVIVED;
	}
	return g->asked_hung;
}

static void on_console(void *ctx, const char *buf, size_t n)
{
	struct guard *g = ctx;
	const struct console_report *stop;
	int had = g->cs.crash || g->cs.oom;

	if (!within_budget(g, &g->con_bytes, n, "console"))
		return;
	(void)write_all(g->con_log, buf, n);
	console_scan_feed(&g->cs, buf, n);
	if (!had && (g->cs.crash || g->cs.oom))
		warning("guest console: %s", g->cs.oom ? g->cs.oom_line : g->cs.crash_line);
	/* A report that ends the run: let the guest finish printing it.  A
	 * hung-task report while insmod or rmmod (or a sweep's step) is still
	 * making or removing disks is the detector's verdict on a long wait,
	 * not a hang: the run goes on, and ends on it only when the count
	 * does not move for the step's phase deadline (on_progress moves
	 * crash_at); result/build.c then records it as a finding if the guest
	 * finished.  A later report of another group (an OOM) ends it as any. */
	stop = console_scan_stop(&g->cs);
	if (stop && stop == g->deferred)
		return;
	if (stop && is_hung_task(g, stop) && progress_step(&g->progress) && !g->deferred) {
		g->deferred = stop;
		g->crash_at = now_monotonic() + progress_patience(&g->progress);
		warning("a hung-task report while %s goes on: recorded as a finding; the run "
			"ends on it only if the disk count does not move for %.0f s",
			progress_step(&g->progress), progress_patience(&g->progress));
		return;
	}
	if (stop && !g->crash_at)
		g->crash_at = now_monotonic() + CRASH_GRACE_S;
	else if (stop && stop != g->deferred && g->deferred &&
		 g->crash_at > now_monotonic() + CRASH_GRACE_S)
		g->crash_at = now_monotonic() + CRASH_GRACE_S;
}

static void on_channel(void *ctx, const char *buf, size_t n)
{
	struct guard *g = ctx;

	if (!within_budget(g, &g->chan_bytes, n, "record channel"))
		return;
	(void)write_all(g->chan_log, buf, n);
	records_feed(&g->rs, buf, n);
}

static int watch_done(void *ctx)
{
	return ((struct guard *)ctx)->over_budget;
}

static double next_deadline(void *ctx)
{
	struct guard *g = ctx;

	return g->crash_at && g->crash_at < g->deadline ? g->crash_at : g->deadline;
}

void guard_watch(struct guard *g, struct vm *vm, double t_vm)
{
	struct vm_watch w = {
		.ctx = g, .console = on_console, .channel = on_channel,
		.deadline = next_deadline, .done = watch_done,
	};
	struct child_result res;
	enum vm_watch_end end;
	int timed_out = 0;

	g->t_vm = t_vm;
	g->deadline = g->t_vm + (double)phase_timeout(PHASE_BOOT, g->s) * 1.1 + 5;
	end = vm_watch(vm, &w, 3.0, &res);
	records_finish(&g->rs);
	progress_stop(&g->progress);
	console_scan_finish(&g->cs);
	/* The backend's own failure (a lost libvirt connection) is the
	 * harness's, not the guest's. */
	if (vm->fault && !g->error)
		g->error = xstrdup(vm->fault);
	if (end == VM_WATCH_DEADLINE && !(g->crash_at && now_monotonic() >= g->crash_at) &&
	    !g->rs.got_end)
		timed_out = 1;
	/* The VM ended on its own before the guest's end: result_build()
	 * names why (a kernel report, the record channel, or QEMU itself).
	 * When the backend lost the VM (its libvirt connection), the VM did
	 * not end: the error above says what happened. */
	host_watch_end(g->host, timed_out, end == VM_WATCH_EXITED && !g->rs.got_end && !vm->fault,
		       child_describe(&res));
}

void guard_init(struct guard *g, const struct scenario *s, const char *dir, json_object *host,
		int quiet)
{
	memset(g, 0, sizeof(*g));
	g->s = s;
	g->host = host;
	g->con_log = g->chan_log = -1;
	console_scan_init(&g->cs);
	records_init(&g->rs, s, dir, &guard_records_ops, g);
	progress_init(&g->progress, s, &g->rs, quiet);
}

void guard_release(struct guard *g)
{
	records_release(&g->rs);
	console_scan_release(&g->cs);
	free(g->error);
	g->error = NULL;
}
