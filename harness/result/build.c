// SPDX-License-Identifier: Apache-2.0
#include "result/build.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "record/disks.h"
#include "result/analysis.h"
#include "result/result.h"
#include "result/sweep.h"
#include "result/timeattr.h"
#include "result/timecurve.h"

static json_object *ref(json_object *o, const char *path)
{
	json_object *v = jget(o, path);

	return v ? json_object_get(v) : NULL;
}

static json_object *disk_json(const struct blockdev *d)
{
	json_object *o = json_object_new_object();
	char dev[32];

	snprintf(dev, sizeof(dev), "%u:%u", d->major, d->minor);
	json_object_object_add(o, "name", json_object_new_string(d->name));
	json_object_object_add(o, "dev", json_object_new_string(dev));
	return o;
}

static void add_disks(json_object *root, const struct scenario *s, const struct records *rs)
{
	json_object *d = json_object_new_object(), *layout, *va;
	struct blocklist sd = BLOCKLIST_INIT;
	long long tgts, luns;

	scenario_sd_layout(s, &tgts, &luns);
	records_scsi_debug(rs, &sd);
	json_object_object_add(d, "requested", json_object_new_int64(s->disks));
	json_object_object_add(d, "present", rs->have_sd || !s->disks
			       ? json_object_new_int64((long long)sd.n) : NULL);
	json_object_object_add(d, "first", sd.n ? disk_json(&sd.b[0]) : NULL);
	json_object_object_add(d, "last", sd.n ? disk_json(&sd.b[sd.n - 1]) : NULL);
	layout = json_object_new_object();
	json_object_object_add(layout, "add_host", json_object_new_int64(s->sd_hosts));
	json_object_object_add(layout, "num_tgts", json_object_new_int64(tgts));
	json_object_object_add(layout, "max_luns", json_object_new_int64(luns));
	json_object_object_add(d, "scsi_debug", layout);
	json_object_object_add(d, "virtio_requested", json_object_new_int64(s->virtio_disks));
	json_object_object_add(d, "virtio_present", rs->have_virtio || !s->virtio_disks
			       ? json_object_new_int64((long long)rs->virtio.n) : NULL);
	json_object_object_add(d, "virtio_bus", json_object_new_string(
			       s->virtio_bus == VIRTIO_BLK ? "blk" : "scsi"));
	va = json_object_new_array();
	for (size_t i = 0; i < rs->virtio.n; i++)
		json_object_array_add(va, disk_json(&rs->virtio.b[i]));
	json_object_object_add(d, "virtio", va);
	json_object_object_add(root, "disks", d);
	blocklist_release(&sd);
}

/* {"name": count} of one inventory column. */
static void count(json_object *o, const char *key)
{
	json_object *c = NULL;

	json_object_object_get_ex(o, key, &c);
	json_object_object_add(o, key, json_object_new_int64(c ? json_object_get_int64(c) + 1 : 1));
}

static void add_inventory(json_object *root, const struct records *rs)
{
	json_object *o, *sched, *nr, *hwq;

	if (!rs->have_inv)
		return;
	o = json_object_new_object();
	sched = json_object_new_object();
	nr = json_object_new_object();
	hwq = json_object_new_object();
	for (size_t i = 0; i < rs->inv.n; i++) {
		const struct inv_row *row = &rs->inv.r[i];
		char key[32];

		count(sched, row->sched);
		snprintf(key, sizeof(key), "%ld", row->nr_requests);
		count(nr, key);
		snprintf(key, sizeof(key), "%d", row->hw_queues);
		count(hwq, key);
	}
	json_object_object_add(o, "devices", json_object_new_int64((long long)rs->inv.n));
	json_object_object_add(o, "file", json_object_new_string("inventory.txt"));
	json_object_object_add(o, "schedulers", sched);
	json_object_object_add(o, "nr_requests", nr);
	json_object_object_add(o, "hw_queues", hwq);
	json_object_object_add(root, "inventory", o);
}

/*
 * The monitor's share of the guest's CPU between its first and its last
 * sample: each sample carries the monitor's CPU time before it (cpu_s,
 * guests since the duty cycle), so the share is the growth of cpu_s over
 * the growth of t; null with fewer than two such samples.
 */
static json_object *monitor_cpu_pct(json_object *samples)
{
	double t0 = 0, c0 = 0, t1 = 0, c1 = 0;
	int have = 0;

	for (size_t i = 0; i < json_object_array_length(samples); i++) {
		json_object *o = json_object_array_get_idx(samples, i), *c;

		if (!json_object_object_get_ex(o, "cpu_s", &c))
			continue;
		t1 = jdouble(o, "t", 0);
		c1 = json_object_get_double(c);
		if (!have++) {
			t0 = t1;
			c0 = c1;
		}
	}
	if (have < 2 || t1 <= t0)
		return NULL;
	return json_object_new_double(round((c1 - c0) / (t1 - t0) * 10000) / 100);
}

/* The progress records (monitor.h): how many came, and what those before
 * the last cost /init by the last one's count. */
static void add_progress(json_object *root, const struct records *rs)
{
	json_object *p = json_object_new_object();

	json_object_object_add(p, "records", json_object_new_int64(rs->progress_records));
	json_object_object_add(p, "cpu_s", rs->progress_cpu >= 0 ?
			       json_seconds((double)rs->progress_cpu / 100) : NULL);
	json_object_object_add(root, "progress", p);
}

/* The monitor's series, and the samples that never arrived. */
static void add_monitor(json_object *root, const struct scenario *s, const struct records *rs)
{
	json_object *m = json_object_new_object(), *gaps = json_object_new_array();
	size_t n = json_object_array_length(rs->samples);
	long next = 1;

	json_object_object_add(m, "interval_ms", json_object_new_int64(s->monitor_interval_ms));
	for (size_t i = 0; i < n; i++) {
		long k = (long)jint(json_object_array_get_idx(rs->samples, i), "n", 0);
		if (k > next) {
			json_object *g = json_object_new_array();
			json_object_array_add(g, json_object_new_int64(next));
			json_object_array_add(g, json_object_new_int64(k - 1));
			json_object_array_add(gaps, g);
		}
		if (k >= next)
			next = k + 1;
	}
	json_object_object_add(m, "max_cpu_pct", json_object_new_int64(s->monitor_max_cpu_pct));
	json_object_object_add(m, "cpu_pct", monitor_cpu_pct(rs->samples));
	json_object_object_add(m, "received", json_object_new_int64((long long)n));
	json_object_object_add(m, "gaps", gaps);
	json_object_object_add(m, "samples", json_object_get(rs->samples));
	json_object_object_add(root, "monitor", m);
	analysis_monitor(root);
}

static void add_timings(json_object *root, const struct records *rs, json_object *host)
{
	static const struct {
		const char *key;
		enum phase phase;	/* the guest's timing record: phase and name */
		const char *name;
	} guest_timings[] = {
		{ "enumerate_s", PHASE_AFTER_INSMOD, "enumerate_s" },
		{ "insmod_s", PHASE_AFTER_INSMOD, "insmod_s" },
		{ "virtio_enumerate_s", PHASE_AFTER_VIRTIO, "enumerate_s" },
		{ "inventory_s", PHASE_AFTER_VIRTIO, "inventory_s" },
		{ "rmmod_s", PHASE_AFTER_RMMOD, "rmmod_s" },
	};
	json_object *t = json_object_new_object();
	json_object *boot = rs->phase_obj[PHASE_BOOT];

	json_object_object_add(t, "setup_s", ref(host, "setup_s"));
	json_object_object_add(t, "boot_s", boot ? ref(boot, "host_s") : NULL);
	json_object_object_add(t, "guest_boot_s", boot ? ref(boot, "uptime_s") : NULL);
	for (size_t i = 0; i < ARRAY_SIZE(guest_timings); i++)
		json_object_object_add(t, guest_timings[i].key,
			ref(jget(rs->timings, phase_name(guest_timings[i].phase)),
			    guest_timings[i].name));
	json_object_object_add(t, "vm_s", ref(host, "vm_s"));
	json_object_object_add(t, "total_s", ref(host, "total_s"));
	json_object_object_add(root, "timings", t);
}

/* result.json's "crash": what went wrong, by class (record/console.h). */
static json_object *crash_json(const struct crash *c)
{
	json_object *o;

	if (!c->cls)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "class", json_object_new_string(c->cls->name));
	json_object_object_add(o, "blame", json_object_new_string(crash_blame_name(c->cls->blame)));
	json_object_object_add(o, "type", c->type ? json_object_new_string(c->type) : NULL);
	json_object_object_add(o, "title", json_object_new_string(c->title.buf));
	json_object_object_add(o, "detail", c->detail.len ? json_object_new_string(c->detail.buf) : NULL);
	json_object_object_add(o, "line", c->line ? json_object_new_int64((long long)c->line) : NULL);
	json_object_object_add(o, "context", json_object_new_string(c->context.buf));
	return o;
}

/* result.json's "findings", in console order: a hung-task report in a run
 * whose guest went on to finish (the detector's verdict on a long wait,
 * insmod or rmmod of tens of thousands of disks), taken out of *crash (the
 * status is the run's; the console scan keeps one report of the crash
 * group: a later non-fatal one, a WARNING, is hidden behind it); and the
 * first report that is a finding whatever the run (a page allocation
 * failure). */
static void add_findings(json_object *root, const struct console_scan *cs,
			 const struct records *rs, struct crash *crash)
{
	struct crash other = CRASH_INIT;
	int hung = crash->cls && crash->cls->finding == FINDING_IF_SURVIVED &&
		   verdict_crash_is_finding(cs, rs);
	int found = crash_finding(cs, &other);
	int found_first = found && (!hung || other.line < crash->line);
	json_object *f;

	if (!hung && !found) {
		crash_release(&other);
		return;
	}
	f = json_object_new_array();
	if (found_first)
		json_object_array_add(f, crash_json(&other));
	if (hung) {
		json_object_array_add(f, crash_json(crash));
		crash_release(crash);
		*crash = (struct crash)CRASH_INIT;
	}
	if (found && !found_first)
		json_object_array_add(f, crash_json(&other));
	json_object_object_add(root, "findings", f);
	crash_release(&other);
}

json_object *result_build(const struct scenario *s, const struct records *rs,
			  const struct console_scan *cs, json_object *host,
			  enum run_status *status)
{
	json_object *root = result_new(), *sc = json_object_new_object();
	json_object *checks = json_object_new_array(), *o;
	int booted = json_object_get_boolean(jget(host, "booted"));
	struct run_ending end = {
		.timed_out = json_object_get_boolean(jget(host, "timed_out")),
		.signal = (int)jint(host, "signal", 0),
		.error = jstr(host, "error", NULL),
	};
	struct crash_host facts = {
		.booted = booted,
		.timed_out = end.timed_out,
		.vm_exited = json_object_get_boolean(jget(host, "vm_exited")),
		.vm_exit = jstr(host, "vm_exit", NULL),
		.got_end = rs->got_end,
		.last_phase = rs->phase,
		.hung = &rs->hung,
	};
	struct crash crash = CRASH_INIT;
	char *reason;

	json_object_object_add(root, "run_id", ref(host, "run_id"));
	json_object_object_add(root, "tool", ref(host, "tool"));
	json_object_object_add(root, "started", ref(host, "started"));
	if (jget(host, "hostname"))
		json_object_object_add(root, "hostname", ref(host, "hostname"));
	json_object_object_add(sc, "name", json_object_new_string(s->name));
	json_object_object_add(sc, "file", ref(host, "scenario_file"));
	json_object_object_add(sc, "description", json_object_new_string(s->description));
	if (jarray(host, "scenario_overrides")) {
		/* host.json may come from elsewhere (a replay): its strings only */
		json_object *from = jarray(host, "scenario_overrides"), *ov = json_object_new_array();

		for (size_t i = 0; i < jlen(from); i++) {
			json_object *v = json_object_array_get_idx(from, i);
			if (json_object_is_type(v, json_type_string))
				json_object_array_add(ov, json_object_get(v));
		}
		json_object_object_add(sc, "overrides", ov);
	}
	json_object_object_add(root, "scenario", sc);
	json_object_object_add(root, "settings", result_settings(s));
	json_object_object_add(root, "kernel", ref(host, "kernel"));
	json_object_object_add(root, "vm", ref(host, "vm"));
	json_object_object_add(root, "guest", json_object_get(rs->guest));
	/* The host's clock at each phase. */
	for (size_t i = 0; i < json_object_array_length(rs->phases); i++) {
		json_object *p = json_object_array_get_idx(rs->phases, i);
		json_object_object_add(p, "host_s",
			ref(jget(host, "phase_host_s"), jstr(p, "name", "?")));
	}
	json_object_object_add(root, "phases", json_object_get(rs->phases));
	json_object_object_add(root, "io", json_object_get(rs->io));
	json_object_object_add(root, "guest_timings", json_object_get(rs->timings));

	if (booted) {
		add_disks(root, s, rs);
		analysis_deltas(root, s);
		if (*s->sweep)
			sweep_build(root, s, rs->points);
		analysis_slab_growth(root, s);
		analysis_attribution(root, s, rs->attribution);
		timeattr_build(root, s, rs);
		timecurve_build(root, s, rs);
		add_inventory(root, rs);
		if (s->monitor_interval_ms)
			add_monitor(root, s, rs);
		add_progress(root, rs);
		if (s->fio) {
			json_object *f = json_object_new_object();
			json_object_object_add(f, "jobs", json_object_get(rs->fio_jobs));
			json_object_object_add(f, "groups", json_object_get(rs->fio_groups));
			json_object_object_add(root, "fio", f);
		}
		if (rs->kmemleak)
			json_object_object_add(root, "kmemleak", json_object_get(rs->kmemleak));
		verdict_checks(s, rs, cs, checks);
		analysis_fio(root, s, checks);
		analysis_leak(root, s, checks);
	}
	crash_classify(cs, &facts, &crash);
	add_findings(root, cs, rs, &crash);
	*status = verdict_decide(&end, rs, &crash, booted ? checks : NULL, &reason);
	json_object_object_add(root, "status", json_object_new_string(run_status_name(*status)));
	json_object_object_add(root, "reason", reason ? json_object_new_string(reason) : NULL);
	free(reason);
	json_object_object_add(root, "crash", crash_json(&crash));
	crash_release(&crash);
	json_object_object_add(root, "checks", checks);
	json_object_object_add(root, "finished", ref(host, "finished"));
	add_timings(root, rs, host);

	o = json_object_new_object();
	json_object_object_add(o, "records", json_object_new_int64((long long)rs->ch.records));
	json_object_object_add(o, "rejected", json_object_new_int64((long long)rs->nrejections));
	json_object_object_add(o, "rejections", json_object_get(rs->rejections));
	json_object_object_add(root, "channel", o);

	o = json_object_new_object();
	json_object_object_add(o, "lines", json_object_new_int64((long long)cs->lines));
	json_object_object_add(o, "crash", cs->crash ? json_object_new_string(cs->crash_line) : NULL);
	json_object_object_add(o, "oom", cs->oom ? json_object_new_string(cs->oom_line) : NULL);
	json_object_object_add(root, "console", o);
	return root;
}
