// SPDX-License-Identifier: Apache-2.0
#include "result/verdict.h"

#include <stdlib.h>
#include <string.h>

#include "lib/strvec.h"
#include "lib/util.h"
#include "record/disks.h"
#include "record/inventory.h"
#include "result/analysis.h"
#include "result/result.h"

static const char *const status_names[] = {
	[RUN_PASS] = "pass",
	[RUN_FAIL] = "fail",
	[RUN_TIMEOUT] = "timeout",
	[RUN_CRASH] = "crash",
	[RUN_OOM] = "oom",
	[RUN_ERROR] = "error",
	[RUN_INTERRUPTED] = "interrupted",
};

const char *run_status_name(enum run_status st)
{
	return status_names[st];
}

static void disk_checks(const struct scenario *s, const struct records *rs,
			const struct blocklist *sd, json_object *checks)
{
	const struct blocklist *vio = &rs->virtio;

	if (s->disks)
		analysis_add_check(checks, "scsi_debug disks present",
				   rs->have_sd && (long long)sd->n == s->disks,
				   "%zu of %lld", sd->n, s->disks);
	if (s->virtio_disks)
		analysis_add_check(checks, "virtio disks present",
				   rs->have_virtio && (long long)vio->n == s->virtio_disks,
				   "%zu of %lld", vio->n, s->virtio_disks);
	if (s->disks && s->virtio_disks && s->virtio_bus == VIRTIO_SCSI &&
	    rs->have_sd && rs->have_virtio && sd->n && vio->n) {
		/* sd names are handed out in probe order: the virtio-scsi disks
		 * must take the indexes right after the last scsi_debug disk. */
		long last = disk_index(sd->b[sd->n - 1].name, NULL);
		int ok = 1;

		for (size_t i = 0; i < vio->n; i++)
			if (disk_index(vio->b[i].name, NULL) != last + 1 + (long)i)
				ok = 0;
		analysis_add_check(checks, "virtio disks follow scsi_debug", ok,
				   "last scsi_debug %s, virtio %s..%s", sd->b[sd->n - 1].name,
				   vio->b[0].name, vio->b[vio->n - 1].name);
	}
}

static void inventory_checks(const struct scenario *s, const struct records *rs,
			     const struct blocklist *sdl, json_object *checks)
{
	struct strvec sd = STRVEC_INIT, vio = STRVEC_INIT;
	struct strbuf why = STRBUF_INIT;

	if (!rs->have_inv) {
		if (rs->inv_refused)
			analysis_add_check(checks, "disk inventory", 0, "the guest's inventory was "
					   "refused: %s", rs->inv_refused);
		else
			analysis_add_check(checks, "disk inventory", 0, "no inventory from the guest");
		return;
	}
	analysis_add_check(checks, "dev_t unique", inventory_check_unique_devt(&rs->inv, &why),
			   "%s", why.len ? why.buf : "every device has its own");
	sb_reset(&why);
	if (s->disks && rs->have_base && rs->have_sd) {
		for (size_t i = 0; i < sdl->n; i++)
			strvec_push(&sd, sdl->b[i].name);
		analysis_add_check(checks, "scsi_debug names and dev_t follow the sd sequence",
				   inventory_check_sd_sequence(&rs->inv, &sd, s->disks, &why),
				   "%s", why.len ? why.buf : "sda .. index N-1, each with its dev_t");
		sb_reset(&why);
	}
	if (s->virtio_disks && s->virtio_bus == VIRTIO_SCSI && rs->have_virtio) {
		for (size_t i = 0; i < rs->virtio.n; i++)
			strvec_push(&vio, rs->virtio.b[i].name);
		analysis_add_check(checks, "virtio disks named and numbered after the range",
				   inventory_check_after_range(&rs->inv, &vio, s->disks, &why),
				   "%s", why.len ? why.buf : "indexes and dev_t follow the last scsi_debug disk");
		sb_reset(&why);
	}
	analysis_add_check(checks, "first block of every disk readable",
			   inventory_check_readable(&rs->inv, &why), "%s",
			   why.len ? why.buf : "all read");
	strvec_clear(&sd);
	strvec_clear(&vio);
	sb_release(&why);
}

static void phase_checks(const struct scenario *s, const struct records *rs,
			 const struct console_scan *cs, json_object *checks)
{
	size_t nph = json_object_array_length(rs->phases);
	int complete = 1;

	for (int i = 0; i < PHASE_COUNT; i++) {
		json_object *p = rs->phase_obj[i];
		if (!p || !jget(p, "meminfo") || !jget(p, "slab"))
			complete = 0;
	}
	analysis_add_check(checks, "all phases measured", complete, "%zu of %d phases",
			   nph, PHASE_COUNT);
	if (s->virtio_disks && !s->fio) {
		size_t ok = 0, n = json_object_array_length(rs->io);
		for (size_t i = 0; i < n; i++)
			if (json_object_get_boolean(jget(json_object_array_get_idx(rs->io, i), "ok")))
				ok++;
		analysis_add_check(checks, "virtio I/O verified", n && ok == n &&
				   (long long)n == s->virtio_disks,
				   "%zu of %lld disks", ok, s->virtio_disks);
	}
	if (verdict_crash_is_finding(cs, rs))
		analysis_add_check(checks, "no crash", 1, "none that ended the run; a finding: %s",
				   cs->crash_line);
	else
		analysis_add_check(checks, "no crash", !cs->crash, "%s",
				   cs->crash ? cs->crash_line : "none in console.log");
	analysis_add_check(checks, "no OOM", !cs->oom, "%s",
			   cs->oom ? cs->oom_line : "none in console.log");
}

int verdict_crash_is_finding(const struct console_scan *cs, const struct records *rs)
{
	const struct crash_class *c;

	if (!cs->crash || !rs->got_end || strcmp(rs->end_status, "pass"))
		return 0;
	c = crash_report_class(&cs->rep[CRASH_GROUP_CRASH].r);
	return c && c->finding == FINDING_IF_SURVIVED;
}

void verdict_checks(const struct scenario *s, const struct records *rs,
		    const struct console_scan *cs, json_object *checks)
{
	struct blocklist sd = BLOCKLIST_INIT;

	records_scsi_debug(rs, &sd);
	disk_checks(s, rs, &sd, checks);
	inventory_checks(s, rs, &sd, checks);
	phase_checks(s, rs, cs, checks);
	blocklist_release(&sd);
}

/* A run that ended inside a sweep (before its after-insmod phase, with
 * steps left): where, so that the reason says which step it was taking.
 * NULL otherwise. */
static char *sweep_where(const struct records *rs)
{
	if (!rs->nsteps || rs->phase >= PHASE_AFTER_INSMOD)
		return NULL;
	if (rs->npoints < rs->nsteps)
		return xstrfmt("in sweep step %zu of %zu (to %lld disks; %zu point%s kept)",
			       rs->npoints + 1, rs->nsteps, rs->steps[rs->npoints], rs->npoints,
			       rs->npoints == 1 ? "" : "s");
	return xstrfmt("in sweep step %zu, past the list (to %lld disks; %zu points kept)",
		       rs->npoints + 1, rs->last_disks + rs->host_disks, rs->npoints);
}

/* REASON, then where in the sweep it happened when it did. */
static char *with_sweep(char *reason, const struct records *rs)
{
	char *w = sweep_where(rs), *r;

	if (!w)
		return reason;
	r = xstrfmt("%s, %s", reason, w);
	free(reason);
	free(w);
	return r;
}

/* The status each crash class gives (console.h). */
static const enum run_status crash_status[] = {
	[CRASH_STATUS_CRASH] = RUN_CRASH,
	[CRASH_STATUS_OOM] = RUN_OOM,
	[CRASH_STATUS_TIMEOUT] = RUN_TIMEOUT,
	[CRASH_STATUS_ERROR] = RUN_ERROR,
};

enum run_status verdict_decide(const struct run_ending *end, const struct records *rs,
			       const struct crash *crash, json_object *checks,
			       char **reason)
{
	const char *where = rs->phase >= 0 ? phase_name(rs->phase) : "setup";

	*reason = NULL;
	if (end->signal) {
		*reason = xstrfmt("interrupted by signal %d after phase '%s'", end->signal, where);
		*reason = with_sweep(*reason, rs);
		return RUN_INTERRUPTED;
	}
	if (crash && crash->cls) {
		*reason = crash_reason(crash);
		*reason = with_sweep(*reason, rs);
		return crash_status[crash->cls->status];
	}
	if (end->timed_out) {
		*reason = xstrfmt("phase '%s' not reached in time (last reached: '%s')",
				  phase_name(rs->phase + 1), where);
		*reason = with_sweep(*reason, rs);
		return RUN_TIMEOUT;
	}
	if (end->error) {
		*reason = xstrdup(end->error);
		return RUN_ERROR;
	}
	if (rs->got_end && strcmp(rs->end_status, "pass")) {
		*reason = xstrfmt("phase '%s': %s", rs->end_phase,
				  rs->end_reason ? rs->end_reason : "the guest reported a failure");
		return !strcmp(rs->end_status, "timeout") ? RUN_TIMEOUT : RUN_FAIL;
	}
	for (size_t i = 0; checks && i < json_object_array_length(checks); i++) {
		json_object *c = json_object_array_get_idx(checks, i);
		if (!json_object_get_boolean(jget(c, "pass"))) {
			*reason = xstrfmt("check failed: %s (%s)", jstr(c, "name", "?"),
					  jstr(c, "detail", ""));
			return RUN_FAIL;
		}
	}
	return RUN_PASS;
}
