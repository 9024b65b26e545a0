// SPDX-License-Identifier: Apache-2.0
#include "record/records.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest/guest.h"
#include "record/attribution.h"
#include "record/fiojson.h"
#include "record/kv.h"
#include "record/meminfo.h"
#include "record/monitor.h"
#include "record/slabinfo.h"
#include "record/sweep.h"
#include "record/timeattr.h"
#include "record/zoneinfo.h"
#include "scenario/scenario.h"
#include "lib/json.h"
#include "lib/textscan.h"
#include "lib/util.h"

/* x86 and i386 */
#define PAGE_SIZE_BYTES 4096

/* Every string that comes from the guest enters result.json through here:
 * valid UTF-8, no control characters (lib/json.h, json_clean_string). */
static json_object *guest_str(const char *s)
{
	return json_clean_string(s, strlen(s));
}

static void reject(struct records *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void reject(struct records *r, const char *fmt, ...)
{
	struct strbuf raw = STRBUF_INIT, sb = STRBUF_INIT;
	va_list ap;

	/* Reasons quote the guest's bytes: clean them for result.json and
	 * for the terminal. */
	va_start(ap, fmt);
	sb_vaddf(&raw, fmt, ap);
	va_end(ap);
	sb_add_clean(&sb, raw.buf, raw.len, 0);
	r->nrejections++;
	if (r->nrejections <= RECORDS_MAX_REJECTIONS)
		json_object_array_add(r->rejections,
				      json_object_new_string_len(sb.buf, (int)sb.len));
	if (r->nrejections <= 5)
		warning("channel: %s", sb.buf);
	sb_release(&raw);
	sb_release(&sb);
}

static void on_reject(void *ctx, const char *reason)
{
	reject(ctx, "%s", reason);
}

/*
 * Keeps an accepted record's raw payload as <dir>/<name>, when there is a
 * dir.  Only after its parser and the record's place in the run were
 * checked, so a guest cannot make files by sending what is rejected; each
 * name is created anew (a second record cannot overwrite a kept one), and
 * the run keeps at most RECORDS_MAX_KEPT_FILES files and
 * RECORDS_MAX_KEPT_BYTES bytes.
 */
static void keep(struct records *r, const struct record *rec, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void keep(struct records *r, const struct record *rec, const char *fmt, ...)
{
	struct strbuf path = STRBUF_INIT;
	va_list ap;

	if (!r->dir)
		return;
	if (r->kept_files >= RECORDS_MAX_KEPT_FILES ||
	    rec->len > r->max_kept_bytes - r->kept_bytes) {
		reject(r, "record %lu: %s for '%s' not kept: the run keeps at most %d files "
		       "and %d MiB of the guest's payloads", rec->seq, rec->type, rec->phase,
		       RECORDS_MAX_KEPT_FILES, (int)(r->max_kept_bytes >> 20));
		return;
	}
	sb_addf(&path, "%s/", r->dir);
	va_start(ap, fmt);
	sb_vaddf(&path, fmt, ap);
	va_end(ap);
	{
		/* (snapshots/ and the like exist; sweep/ comes with the first point) */
		char *slash = strrchr(path.buf, '/');
		*slash = '\0';
		if (!is_dir(path.buf))
			(void)mkdir_p(path.buf, 0755);
		*slash = '/';
	}
	if (write_file_excl(path.buf, rec->payload, rec->len) == 0) {
		r->kept_files++;
		r->kept_bytes += rec->len;
	}
	sb_release(&path);
}

static void on_mark(struct records *r, const struct record *rec)
{
	int idx = phase_index(rec->phase);
	char tmp[32];
	double up;
	json_object *p;

	if (idx < 0 || idx <= r->phase) {
		reject(r, "record %lu: unexpected phase '%s'", rec->seq, rec->phase);
		return;
	}
	if (rec->len >= sizeof(tmp)) {
		reject(r, "record %lu: bad uptime", rec->seq);
		return;
	}
	memcpy(tmp, rec->payload, rec->len);
	tmp[rec->len] = '\0';
	tmp[strcspn(tmp, "\n")] = '\0';
	if (parse_double(tmp, &up) < 0 || up < 0) {
		reject(r, "record %lu: bad uptime '%s'", rec->seq, tmp);
		return;
	}
	r->phase = idx;
	p = json_object_new_object();
	json_object_object_add(p, "name", json_object_new_string(rec->phase));
	json_object_object_add(p, "uptime_s", json_seconds(up));
	/* The host's clock is not in the record: result_build() fills it in. */
	json_object_object_add(p, "host_s", NULL);
	json_object_array_add(r->phases, p);
	r->phase_obj[idx] = p;
	if (r->ops && r->ops->phase)
		r->ops->phase(r->ctx, idx, up);
}

static json_object *current_phase(struct records *r, const struct record *rec)
{
	if (r->phase < 0 || strcmp(rec->phase, phase_name(r->phase))) {
		reject(r, "record %lu: %s for phase '%s' outside that phase",
		       rec->seq, rec->type, rec->phase);
		return NULL;
	}
	return r->phase_obj[r->phase];
}

static void on_meminfo(struct records *r, const struct record *rec)
{
	json_object *p = current_phase(r, rec);
	struct meminfo m = MEMINFO_INIT;
	struct strbuf err = STRBUF_INIT;

	if (!p)
		return;
	if (jget(p, "meminfo")) {
		reject(r, "record %lu: a second meminfo for '%s'", rec->seq, rec->phase);
	} else if (meminfo_parse(&m, rec->payload, rec->len, &err) < 0) {
		reject(r, "record %lu: meminfo for '%s': %s", rec->seq, rec->phase, err.buf);
	} else {
		json_object_object_add(p, "meminfo", meminfo_json(&m));
		keep(r, rec, "snapshots/%02d-%s.meminfo", r->phase, rec->phase);
	}
	meminfo_release(&m);
	sb_release(&err);
}

static void on_slabinfo(struct records *r, const struct record *rec)
{
	json_object *p = current_phase(r, rec);
	struct slabinfo si = SLABINFO_INIT;
	struct strbuf err = STRBUF_INIT;

	if (!p)
		return;
	if (jget(p, "slab")) {
		reject(r, "record %lu: a second slabinfo for '%s'", rec->seq, rec->phase);
	} else if (slabinfo_parse(&si, rec->payload, rec->len, &err) < 0) {
		reject(r, "record %lu: slabinfo for '%s': %s", rec->seq, rec->phase, err.buf);
	} else {
		json_object_object_add(p, "slab", slabinfo_json(&si, PAGE_SIZE_BYTES));
		keep(r, rec, "snapshots/%02d-%s.slabinfo", r->phase, rec->phase);
	}
	slabinfo_release(&si);
	sb_release(&err);
}

/* The free pages on the per-CPU lists (record/zoneinfo.h): a phase's
 * "zoneinfo": {"pcp_kb", "pcp_low_kb"}, which the analysis counts as free. */
static void on_zoneinfo(struct records *r, const struct record *rec)
{
	json_object *p = current_phase(r, rec);
	struct zoneinfo z = ZONEINFO_INIT;
	struct strbuf err = STRBUF_INIT;

	if (!p)
		return;
	if (jget(p, "zoneinfo")) {
		reject(r, "record %lu: a second zoneinfo for '%s'", rec->seq, rec->phase);
	} else if (zoneinfo_parse(&z, rec->payload, rec->len, &err) < 0) {
		reject(r, "record %lu: zoneinfo for '%s': %s", rec->seq, rec->phase, err.buf);
	} else {
		json_object_object_add(p, "zoneinfo", zoneinfo_json(&z, PAGE_SIZE_BYTES));
		keep(r, rec, "snapshots/%02d-%s.zoneinfo", r->phase, rec->phase);
	}
	zoneinfo_release(&z);
	sb_release(&err);
}

/* A "snapshot" record: a phase's mark, meminfo, zoneinfo and slabinfo in
 * one frame, as sections (lib/channel.sh's snapshot); each goes to the
 * handler of the record that used to carry it, so both kinds of guest end
 * up the same.  zoneinfo is optional: guests before it sent none. */
static void on_snapshot(struct records *r, const struct record *rec)
{
	static const struct {
		const char *name;
		void (*fn)(struct records *, const struct record *);
		int optional;
	} parts[] = {
		{ "mark", on_mark, 0 }, { "meminfo", on_meminfo, 0 },
		{ "zoneinfo", on_zoneinfo, 1 }, { "slabinfo", on_slabinfo, 0 },
	};
	const char *b[ARRAY_SIZE(parts)], *e[ARRAY_SIZE(parts)];
	int before = r->phase;

	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		if (!(b[i] = text_section(rec->payload, rec->len, parts[i].name, &e[i])) &&
		    !parts[i].optional) {
			reject(r, "record %lu: snapshot for '%s' has no %s section",
			       rec->seq, rec->phase, parts[i].name);
			return;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		struct record sub = *rec;

		if (!b[i])
			continue;

		snprintf(sub.type, sizeof(sub.type), "%s", parts[i].name);
		sub.payload = b[i];
		sub.len = (size_t)(e[i] - b[i]);
		parts[i].fn(r, &sub);
		if (r->phase == before)
			return;	/* the mark was rejected: so is the rest */
	}
}

static void on_blocks(struct records *r, const struct record *rec)
{
	struct blocklist l = BLOCKLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	struct {
		enum phase phase;
		struct blocklist *list;
		int *have;
	} lists[] = {
		{ PHASE_BEFORE_INSMOD, &r->base, &r->have_base },
		{ PHASE_AFTER_INSMOD, &r->after_sd, &r->have_sd },
		{ PHASE_AFTER_VIRTIO, &r->virtio, &r->have_virtio },
	};
	int idx = phase_index(rec->phase);

	if (blocklist_parse(&l, rec->payload, rec->len, &err) < 0) {
		reject(r, "record %lu: blocks for '%s': %s", rec->seq, rec->phase, err.buf);
		sb_release(&err);
		return;
	}
	sb_release(&err);
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		if ((int)lists[i].phase == idx && !*lists[i].have) {
			*lists[i].list = l;
			*lists[i].have = 1;
			keep(r, rec, "blocks/%s.txt", rec->phase);
			return;
		}
	}
	reject(r, "record %lu: unexpected blocks for '%s'", rec->seq, rec->phase);
	blocklist_release(&l);
}

static void on_end(struct records *r, const struct record *rec, struct kvlist *kv)
{
	const char *st = kv_get(kv, "status");

	if (!st || !guest_status_valid(st)) {
		reject(r, "record %lu: end with bad status", rec->seq);
		return;
	}
	if (r->got_end) {
		/* Only the first counts: a guest cannot buy itself more time. */
		reject(r, "record %lu: a second end record", rec->seq);
		return;
	}
	r->got_end = 1;
	snprintf(r->end_status, sizeof(r->end_status), "%s", st);
	const char *ph = kv_get(kv, "phase") ? kv_get(kv, "phase") : rec->phase;
	char *clean = xstrclean(ph, strlen(ph));
	snprintf(r->end_phase, sizeof(r->end_phase), "%s", clean);
	free(clean);
	r->end_reason = kv_get(kv, "reason")
		? xstrclean(kv_get(kv, "reason"), strlen(kv_get(kv, "reason"))) : NULL;
	if (r->ops && r->ops->end)
		r->ops->end(r->ctx);
}

/* "enumerate_cs=2726" in after-insmod -> timings.PHASE.enumerate_s = 27.26 */
static void on_timing(struct records *r, const struct record *rec, struct kvlist *kv)
{
	for (size_t i = 0; i < kv->n; i++) {
		long long cs = kv_num(kv->v[i].value);
		size_t kl = strlen(kv->v[i].key);
		json_object *ph;
		char *key;

		if (cs < 0 || kl < 4 || strcmp(kv->v[i].key + kl - 3, "_cs")) {
			reject(r, "record %lu: timing '%s' is not NAME_cs=NUMBER",
			       rec->seq, kv->v[i].key);
			continue;
		}
		if (!json_object_object_get_ex(r->timings, rec->phase, &ph)) {
			if (json_object_object_length(r->timings) >= RECORDS_MAX_TIMING_PHASES) {
				reject(r, "record %lu: timing for a phase past the first %d",
				       rec->seq, RECORDS_MAX_TIMING_PHASES);
				return;
			}
			ph = json_object_new_object();
			json_object_object_add(r->timings, rec->phase, ph);
		}
		if (json_object_object_length(ph) >= RECORDS_MAX_TIMING_KEYS) {
			reject(r, "record %lu: more than %d timings for '%s'", rec->seq,
			       RECORDS_MAX_TIMING_KEYS, rec->phase);
			return;
		}
		key = xstrfmt("%.*s_s", (int)(kl - 3), kv->v[i].key);
		json_object_object_add(ph, key, json_seconds((double)cs / 100));
		free(key);
	}
}

static void on_info(struct records *r, const struct record *rec, struct kvlist *kv)
{
	for (size_t i = 0; i < kv->n; i++) {
		if (json_object_object_length(r->guest) >= RECORDS_MAX_INFO &&
		    !json_object_object_get_ex(r->guest, kv->v[i].key, NULL)) {
			reject(r, "record %lu: more than %d info keys", rec->seq, RECORDS_MAX_INFO);
			return;
		}
		json_object_object_add(r->guest, kv->v[i].key, guest_str(kv->v[i].value));
	}
}

/* Records whose payload is key=value lines: timing, info, end. */
static void on_kv(struct records *r, const struct record *rec)
{
	static const struct {
		const char *type;
		void (*fn)(struct records *, const struct record *, struct kvlist *);
	} kinds[] = {
		{ "end", on_end }, { "timing", on_timing }, { "info", on_info },
	};
	struct kvlist kv = KVLIST_INIT;
	struct strbuf err = STRBUF_INIT;

	if (kv_lines(&kv, rec->payload, rec->len, &err) < 0) {
		reject(r, "record %lu: %s for '%s': %s", rec->seq, rec->type,
		       rec->phase, err.buf);
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
			if (!strcmp(kinds[i].type, rec->type))
				kinds[i].fn(r, rec, &kv);
	}
	kvlist_release(&kv);
	sb_release(&err);
}

static void on_io(struct records *r, const struct record *rec)
{
	const char *p = rec->payload, *end = rec->payload + rec->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct kvlist kv = KVLIST_INIT;
		struct strbuf err = STRBUF_INIT;

		if (len && kv_words(&kv, p, len, &err) < 0) {
			reject(r, "record %lu: io: %s", rec->seq, err.buf);
		} else if (len && json_object_array_length(r->io) >= RECORDS_MAX_IO) {
			reject(r, "record %lu: io: more than %d disks", rec->seq, RECORDS_MAX_IO);
			kvlist_release(&kv);
			sb_release(&err);
			return;
		} else if (len) {
			json_object *o = json_object_new_object();
			const char *disk = kv_get(&kv, "disk");
			long long w = kv_get_num(&kv, "write_cs");
			long long rd = kv_get_num(&kv, "read_cs");
			long long bytes = kv_get_num(&kv, "bytes");

			json_object_object_add(o, "disk", guest_str(disk ? disk : "?"));
			json_object_object_add(o, "ok", json_object_new_boolean(
				kv_get(&kv, "ok") && !strcmp(kv_get(&kv, "ok"), "1")));
			if (kv_get(&kv, "error"))
				json_object_object_add(o, "error", guest_str(kv_get(&kv, "error")));
			if (bytes >= 0)
				json_object_object_add(o, "bytes", json_object_new_int64(bytes));
			if (w >= 0)
				json_object_object_add(o, "write_s", json_seconds((double)w / 100));
			if (rd >= 0)
				json_object_object_add(o, "read_s", json_seconds((double)rd / 100));
			json_object_array_add(r->io, o);
		}
		kvlist_release(&kv);
		sb_release(&err);
		p += len + 1;
	}
}

static void on_inventory(struct records *r, const struct record *rec)
{
	struct strbuf err = STRBUF_INIT;

	if (r->have_inv) {
		reject(r, "record %lu: a second inventory", rec->seq);
	} else if (inventory_parse(&r->inv, rec->payload, rec->len, &err) < 0) {
		reject(r, "record %lu: inventory: %s", rec->seq, err.buf);
		free(r->inv_refused);
		r->inv_refused = sb_detach(&err, NULL);
	} else {
		r->have_inv = 1;
		keep(r, rec, "inventory.txt");
	}
	sb_release(&err);
}

/* The groups the guest runs fio as (initramfs/lib/io.sh, run_fio): a record
 * for any other is rejected, so a guest cannot grow fio.groups or the
 * files of fio/ with names of its own. */
static const char *const fio_groups[] = { "verify-write", "verify", "sample", "all" };
enum { FIO_SEEN_STATUS = 1, FIO_SEEN_MESSAGE = 2, FIO_SEEN_JSON = 4 };

/* fio.groups.GROUP: {"status": exit status, "message": fio's first line},
 * or NULL (rejected, said) for a group the guest does not run or a second
 * record of one kind (what: FIO_SEEN_STATUS, _MESSAGE or _JSON). */
static json_object *fio_group(struct records *r, const struct record *rec, unsigned what)
{
	json_object *g;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fio_groups) && strcmp(fio_groups[i], rec->phase); i++)
		;
	if (i == ARRAY_SIZE(fio_groups)) {
		reject(r, "record %lu: %s for an unknown fio group '%s'", rec->seq, rec->type,
		       rec->phase);
		return NULL;
	}
	if (!json_object_object_get_ex(r->fio_groups, rec->phase, &g)) {
		g = json_object_new_object();
		json_object_object_add(r->fio_groups, rec->phase, g);
	}
	if (r->fio_seen[i] & what) {
		reject(r, "record %lu: a second %s for fio group '%s'", rec->seq, rec->type,
		       rec->phase);
		return NULL;
	}
	r->fio_seen[i] |= what;
	return g;
}

static void on_fiorc(struct records *r, const struct record *rec)
{
	struct kvlist kv = KVLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	json_object *g;
	long long st;

	if (kv_lines(&kv, rec->payload, rec->len, &err) < 0 ||
	    (st = kv_get_num(&kv, "status")) < 0)
		reject(r, "record %lu: fiorc for '%s': bad status", rec->seq, rec->phase);
	else if ((g = fio_group(r, rec, FIO_SEEN_STATUS)))
		json_object_object_add(g, "status", json_object_new_int64(st));
	kvlist_release(&kv);
	sb_release(&err);
}

static void on_fiolog(struct records *r, const struct record *rec)
{
	/* The first line of what fio said, for the report and checks. */
	const char *nl = memchr(rec->payload, '\n', rec->len);
	size_t l = nl ? (size_t)(nl - rec->payload) : rec->len;
	json_object *g = fio_group(r, rec, FIO_SEEN_MESSAGE);

	if (!g)
		return;
	json_object_object_add(g, "message", json_clean_string(rec->payload, l > 200 ? 200 : l));
	keep(r, rec, "fio/%s.log", rec->phase);
}

static void on_fio(struct records *r, const struct record *rec)
{
	struct strbuf err = STRBUF_INIT;
	json_object *g = fio_group(r, rec, FIO_SEEN_JSON);

	if (!g)
		return;
	if (fio_json_summarize(rec->payload, rec->len, rec->phase, r->fio_jobs, &err) < 0)
		reject(r, "record %lu: fio output for '%s': %s", rec->seq, rec->phase, err.buf);
	else
		keep(r, rec, "fio/%s.json", rec->phase);
	sb_release(&err);
}

static void on_sample(struct records *r, const struct record *rec)
{
	struct strbuf err = STRBUF_INIT;
	json_object *o;
	long n;

	if (json_object_array_length(r->samples) >= RECORDS_MAX_SAMPLES)
		reject(r, "record %lu: monitor sample past the first %d", rec->seq,
		       RECORDS_MAX_SAMPLES);
	else if (monitor_sample(rec->payload, rec->len, PAGE_SIZE_BYTES, &o, &n, &err) < 0)
		reject(r, "record %lu: monitor sample: %s", rec->seq, err.buf);
	else
		json_object_array_add(r->samples, o);
	sb_release(&err);
}

/* /init's block device count while it waits (monitor.h, struct progress):
 * the live line, and what these records cost. */
static void on_progress(struct records *r, const struct record *rec)
{
	struct strbuf err = STRBUF_INIT;
	struct progress p;

	if (progress_parse(rec->payload, rec->len, &p, &err) < 0) {
		reject(r, "record %lu: progress: %s", rec->seq, err.buf);
	} else {
		r->progress_records++;
		r->progress_cpu = p.cpu;
		if (r->nprogress < RECORDS_MAX_PROGRESS) {
			ALLOC_GROW(r->progress_pts, r->nprogress + 1, r->progress_alloc);
			r->progress_pts[r->nprogress].phase = phase_index(rec->phase);
			r->progress_pts[r->nprogress].t = p.t;
			r->progress_pts[r->nprogress++].blocks = p.blocks;
		}
		if (r->ops && r->ops->progress)
			r->ops->progress(r->ctx, p.t, p.blocks, p.queues);
	}
	sb_release(&err);
}

/* Whether a point may come next: the list's next step with its count;
 * with sweep_floor_mb, past the list, one host more than the last point
 * (the way to the knee) or, once, the list's last count again (the way
 * back), within SWEEP_MAX_STEPS. */
static int point_expected(const struct records *r, long step, long long disks,
			  struct strbuf *why)
{
	long long last = r->npoints ? r->last_disks : 0;

	if (r->npoints < r->nsteps) {
		if (step == (long)r->npoints + 1 && disks == r->steps[r->npoints])
			return 1;
		sb_addf(why, "is not the next step (%zu: %lld disks)", r->npoints + 1,
			r->steps[r->npoints]);
		return 0;
	}
	if (step != (long)r->npoints + 1) {
		sb_addf(why, "is not the next step (%zu)", r->npoints + 1);
		return 0;
	}
	if (!r->s->sweep_floor_mb || r->returned || r->npoints >= SWEEP_MAX_STEPS) {
		sb_addf(why, "is beyond the sweep's %zu steps", r->npoints);
		return 0;
	}
	if (disks == last + r->host_disks || (disks == r->steps[r->nsteps - 1] && disks < last))
		return 1;
	sb_addf(why, "is neither one host more (%lld disks) nor the list's last count (%lld)",
		last + r->host_disks, r->steps[r->nsteps - 1]);
	return 0;
}

/* A sweep's step: only the next one of the scenario's list, with its
 * count, between before-insmod and after-insmod. */
static void on_point(struct records *r, const struct record *rec)
{
	struct strbuf err = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	json_object *o;
	long step;
	long long disks;

	if (sweep_point_parse(rec->payload, rec->len, PAGE_SIZE_BYTES, &o, &step, &disks,
			      &err) < 0) {
		reject(r, "record %lu: sweep point: %s", rec->seq, err.buf);
	} else if (r->phase != PHASE_BEFORE_INSMOD) {
		reject(r, "record %lu: sweep point outside the insmod phase", rec->seq);
		json_object_put(o);
	} else if (!point_expected(r, step, disks, &why)) {
		reject(r, "record %lu: sweep point %ld (%lld disks) %s", rec->seq, step, disks,
		       why.buf);
		json_object_put(o);
	} else {
		if (r->npoints >= r->nsteps && disks < r->last_disks)
			r->returned = 1;
		r->last_disks = disks;
		keep(r, rec, "sweep/%02ld-%lld.point", step, disks);
		json_object_array_add(r->points, o);
		r->npoints++;
		if (r->ops && r->ops->point)
			r->ops->point(r->ctx, step, disks);
	}
	sb_release(&err);
	sb_release(&why);
}

static void on_kmemleak(struct records *r, const struct record *rec)
{
	long long n = 0;

	if (r->kmemleak) {
		reject(r, "record %lu: a second kmemleak report", rec->seq);
		return;
	}
	keep(r, rec, "kmemleak.txt");
	for (const char *p = rec->payload, *end = rec->payload + rec->len;
	     (p = memmem(p, (size_t)(end - p), "unreferenced object", 19)); p += 19)
		n++;
	r->kmemleak = json_object_new_object();
	json_object_object_add(r->kmemleak, "unreferenced", json_object_new_int64(n));
	json_object_object_add(r->kmemleak, "file", json_object_new_string("kmemleak.txt"));
}

/* The guest's hist files (initramfs/lib/attribution.sh, attr_start): the record's
 * phase names the source; each becomes attribution.sources.KEY. */
static const struct {
	const char *name, *key;
	enum attr_unit unit;
} attr_sources[] = {
	{ "page-alloc", "page_alloc", ATTR_PAGES },
	{ "page-free", "page_free", ATTR_PAGES },
	{ "kmalloc", "kmalloc", ATTR_BYTES },
	{ "kmalloc-node", "kmalloc_node", ATTR_BYTES },
	{ "cache", "kmem_cache", ATTR_BYTES },
	{ "cache-node", "kmem_cache_node", ATTR_BYTES },
};

static json_object *attribution(struct records *r)
{
	if (!r->attribution) {
		r->attribution = json_object_new_object();
		json_object_object_add(r->attribution, "sources", json_object_new_object());
	}
	return r->attribution;
}

static void on_hist(struct records *r, const struct record *rec)
{
	struct attr_hist h = ATTR_HIST_INIT;
	struct strbuf err = STRBUF_INIT;
	json_object *src;

	for (size_t i = 0; i < ARRAY_SIZE(attr_sources); i++) {
		if (strcmp(attr_sources[i].name, rec->phase))
			continue;
		src = jget(attribution(r), "sources");
		if (jget(src, attr_sources[i].key)) {
			reject(r, "record %lu: a second hist for '%s'", rec->seq, rec->phase);
		} else if (attr_hist_parse(&h, rec->payload, rec->len, &err) < 0) {
			reject(r, "record %lu: hist for '%s': %s", rec->seq, rec->phase, err.buf);
		} else {
			json_object_object_add(src, attr_sources[i].key,
					       attr_source_json(&h, attr_sources[i].unit,
								ATTR_TOP_SITES));
			keep(r, rec, "attribution/%s.hist", rec->phase);
		}
		attr_hist_release(&h);
		sb_release(&err);
		return;
	}
	reject(r, "record %lu: hist for an unknown source '%s'", rec->seq, rec->phase);
}

/* A sweep step's page hists (initramfs/lib/attribution.sh, attr_step): "stephist"
 * records, phase SOURCE-STEP ("page-alloc-2"), right after that step's
 * point, cumulative since before-insmod.  Each step becomes an entry of
 * attribution.steps: {step, disks, page_alloc_bytes, page_free_bytes,
 * sites: every page_alloc site as {site, bytes}} (result/analysis.c keeps
 * the top ones and fits each site against the disks). */
static const struct {
	const char *name, *key;
} step_sources[] = {
	{ "page-alloc", "page_alloc_bytes" },
	{ "page-free", "page_free_bytes" },
};

/* "page-alloc-12" -> the row of step_sources and 12; -1 if it is neither. */
static int stephist_phase(const char *phase, size_t *src, long *step)
{
	const char *dash = strrchr(phase, '-');
	int64_t v;

	if (!dash || parse_i64(dash + 1, &v) < 0 || v < 1 || v > SWEEP_MAX_STEPS)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(step_sources); i++) {
		if (strlen(step_sources[i].name) == (size_t)(dash - phase) &&
		    !strncmp(step_sources[i].name, phase, (size_t)(dash - phase))) {
			*src = i;
			*step = (long)v;
			return 0;
		}
	}
	return -1;
}

/* The steps' entry for the last point's step, made when its first hist comes. */
static json_object *step_entry(struct records *r, long step)
{
	json_object *steps = jget(attribution(r), "steps"), *e;
	size_t n;

	if (!steps) {
		steps = json_object_new_array();
		json_object_object_add(r->attribution, "steps", steps);
	}
	n = jlen(steps);
	e = n ? json_object_array_get_idx(steps, n - 1) : NULL;
	if (e && jint(e, "step", 0) == step)
		return e;
	e = json_object_new_object();
	json_object_object_add(e, "step", json_object_new_int64(step));
	json_object_object_add(e, "disks", json_object_new_int64(r->last_disks));
	json_object_array_add(steps, e);
	return e;
}

static void on_stephist(struct records *r, const struct record *rec)
{
	struct attr_hist h = ATTR_HIST_INIT;
	struct strbuf err = STRBUF_INIT;
	json_object *e, *src, *sites;
	size_t i;
	long step;

	if (stephist_phase(rec->phase, &i, &step) < 0) {
		reject(r, "record %lu: stephist for an unknown source or step '%s'", rec->seq,
		       rec->phase);
		return;
	}
	if (r->phase != PHASE_BEFORE_INSMOD || !r->npoints || step != (long)r->npoints) {
		reject(r, "record %lu: stephist for step %ld, not right after its point", rec->seq,
		       step);
	} else if (attr_hist_parse(&h, rec->payload, rec->len, &err) < 0) {
		reject(r, "record %lu: stephist '%s': %s", rec->seq, rec->phase, err.buf);
	} else if (jget(e = step_entry(r, step), step_sources[i].key)) {
		reject(r, "record %lu: a second stephist '%s'", rec->seq, rec->phase);
	} else {
		src = attr_source_json(&h, ATTR_PAGES, SIZE_MAX);
		json_object_object_add(e, step_sources[i].key,
				       json_object_get(jget(src, "bytes")));
		if (i == 0) {
			sites = json_object_new_array();
			for (size_t k = 0; k < jlen(jget(src, "sites")); k++) {
				json_object *s = json_object_array_get_idx(jget(src, "sites"), k);
				json_object *o = json_object_new_object();

				json_object_object_add(o, "site", json_object_get(jget(s, "site")));
				json_object_object_add(o, "bytes", json_object_get(jget(s, "bytes")));
				json_object_array_add(sites, o);
			}
			json_object_object_add(e, "sites", sites);
		}
		json_object_put(src);
		keep(r, rec, "attribution/%s@%02ld.hist", step_sources[i].name, step);
	}
	attr_hist_release(&h);
	sb_release(&err);
}

/* page_owner, folded by the guest (pageowner.h): before-insmod is kept
 * until after-insmod comes, then the difference is
 * attribution.sources.page_owner. */
static void on_pageowner(struct records *r, const struct record *rec)
{
	struct po_snapshot ps = PO_SNAPSHOT_INIT;
	struct strbuf err = STRBUF_INIT;
	int ph = phase_index(rec->phase), after = ph == PHASE_AFTER_INSMOD;
	json_object *src;

	if (!after && ph != PHASE_BEFORE_INSMOD) {
		reject(r, "record %lu: pageowner for an unknown phase '%s'", rec->seq, rec->phase);
		return;
	}
	if (after ? r->have_po_after : r->have_po_before) {
		reject(r, "record %lu: a second pageowner for '%s'", rec->seq, rec->phase);
	} else if (after && !r->have_po_before) {
		reject(r, "record %lu: pageowner after insmod without one before", rec->seq);
	} else if (po_parse(&ps, rec->payload, rec->len, &err) < 0) {
		reject(r, "record %lu: pageowner for '%s': %s", rec->seq, rec->phase, err.buf);
	} else if (!after) {
		r->po_before = ps;
		r->have_po_before = 1;
		memset(&ps, 0, sizeof(ps));
		keep(r, rec, "attribution/page_owner-%s.txt", rec->phase);
	} else {
		r->have_po_after = 1;
		keep(r, rec, "attribution/page_owner-%s.txt", rec->phase);
		src = jget(attribution(r), "sources");
		json_object_object_add(src, "page_owner",
				       po_source_json(&r->po_before, &ps, ATTR_TOP_SITES));
		po_release(&r->po_before);
	}
	po_release(&ps);
	sb_release(&err);
}

/* page_owner=unavailable page_owner_reason=...: the source's status
 * (page_owner=ok needs the two pageowner records). */
static void attr_page_owner(struct records *r, const struct kvlist *kv)
{
	const char *st = kv_get(kv, "page_owner");
	json_object *src = jget(attribution(r), "sources"), *o;

	if (!st)
		return;
	if ((o = jget(src, "page_owner"))) {
		static const char *const k[] = { "page_owner_before_cs", "page_owner_after_cs" };
		static const char *const n[] = { "read_before_s", "read_after_s" };

		for (size_t i = 0; i < ARRAY_SIZE(k); i++) {
			long long cs = kv_get_num(kv, k[i]);
			json_object_object_add(o, n[i], cs >= 0 ? json_seconds((double)cs / 100) : NULL);
		}
		return;
	}
	o = json_object_new_object();
	json_object_object_add(o, "status", json_object_new_string("unavailable"));
	if (!strcmp(st, "unavailable") && kv_get(kv, "page_owner_reason"))
		json_object_object_add(o, "reason", guest_str(kv_get(kv, "page_owner_reason")));
	else
		json_object_object_add(o, "reason", json_object_new_string(
			"the guest sent no page_owner records"));
	json_object_object_add(src, "page_owner", o);
}

/* status=ok key=STACKKEY sources=... start_cs= collect_cs= steps_cs=, or
 * status=unavailable reason=...; and page_owner=ok|unavailable,
 * page_owner_reason=... */
static void on_attr(struct records *r, const struct record *rec)
{
	struct kvlist kv = KVLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	const char *st;
	json_object *a;

	if (kv_lines(&kv, rec->payload, rec->len, &err) < 0 ||
	    !(st = kv_get(&kv, "status")) || (strcmp(st, "ok") && strcmp(st, "unavailable"))) {
		reject(r, "record %lu: attr: %s", rec->seq, err.len ? err.buf : "bad status");
	} else if (r->attribution && jget(r->attribution, "status")) {
		reject(r, "record %lu: a second attr record", rec->seq);
	} else {
		a = attribution(r);
		json_object_object_add(a, "status", json_object_new_string(st));
		json_object_object_add(a, "reason", kv_get(&kv, "reason")
				       ? guest_str(kv_get(&kv, "reason")) : NULL);
		json_object_object_add(a, "stack_key", kv_get(&kv, "key")
				       ? guest_str(kv_get(&kv, "key")) : NULL);
		for (size_t i = 0; i < 2; i++) {
			static const char *const k[] = { "start_cs", "collect_cs" };
			static const char *const o[] = { "start_s", "collect_s" };
			long long cs = kv_get_num(&kv, k[i]);
			json_object_object_add(a, o[i], cs >= 0 ? json_seconds((double)cs / 100) : NULL);
		}
		/* steps_cs: the per-step reads of a sweep (on_stephist). */
		if (jget(a, "steps")) {
			long long cs = kv_get_num(&kv, "steps_cs");
			json_object_object_add(a, "steps_read_s",
					       cs >= 0 ? json_seconds((double)cs / 100) : NULL);
		}
		attr_page_owner(r, &kv);
		keep(r, rec, "attribution/attr.txt");
	}
	kvlist_release(&kv);
	sb_release(&err);
}

/* Whether a label's samples may come now: insmod while scsi_debug is
 * loaded without a sweep, step-K during the sweep's step K (before its
 * point), rmmod after the I/O. */
static int stacks_expected(const struct records *r, const char *label)
{
	int64_t k;

	if (!strcmp(label, "insmod"))
		return r->phase == PHASE_BEFORE_INSMOD && !r->nsteps;
	if (!strcmp(label, "rmmod"))
		return r->phase == PHASE_AFTER_IO;
	return !strncmp(label, "step-", 5) && parse_i64(label + 5, &k) == 0 &&
	       r->phase == PHASE_BEFORE_INSMOD && r->nsteps && k == (int64_t)r->npoints + 1;
}

/* A chunk of the time attribution's stack samples (record/stacks.h,
 * initramfs/lib/timeattr.sh): phase the label; folded as they come
 * (record/timeattr.h), the raw chunk kept as timeattr/LABEL-NNN.stacks. */
static void on_stacks(struct records *r, const struct record *rec)
{
	struct stk_chunk c = STK_CHUNK_INIT;
	struct strbuf err = STRBUF_INIT;

	if (stk_chunk_parse(&c, rec->payload, rec->len, &err) < 0) {
		reject(r, "record %lu: stacks for '%s': %s", rec->seq, rec->phase, err.buf);
	} else if (strcmp(c.label, rec->phase)) {
		reject(r, "record %lu: stacks for '%s' labelled '%s'", rec->seq, rec->phase,
		       c.label);
	} else if (!stacks_expected(r, c.label)) {
		reject(r, "record %lu: stacks for '%s' outside its phase", rec->seq, c.label);
	} else if (ta_add(&r->ta, &c, &err) < 0) {
		reject(r, "record %lu: stacks: %s", rec->seq, err.buf);
	} else {
		keep(r, rec, "timeattr/%s-%03lld.stacks", c.label, c.chunk);
	}
	stk_chunk_release(&c);
	sb_release(&err);
}

/* What the guest found before insmod: status=ok tasks=... preempt=..., or
 * status=unavailable reason=... (it cannot sample stacks). */
static void on_timeattr(struct records *r, const struct record *rec)
{
	struct kvlist kv = KVLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	const char *st = NULL, *why = NULL;

	if (kv_lines(&kv, rec->payload, rec->len, &err) < 0)
		why = err.buf;
	else if (!(st = kv_get(&kv, "status")) ||
		 (strcmp(st, "unavailable") && strcmp(st, "ok")) ||
		 (!strcmp(st, "unavailable") && !kv_get(&kv, "reason")))
		why = "expected status=ok, or status=unavailable and a reason";
	else if (r->ta.unavailable || r->ta.preempt)
		why = "a second timeattr record";
	if (why) {
		reject(r, "record %lu: timeattr: %s", rec->seq, why);
	} else if (!strcmp(st, "ok")) {
		const char *pm = kv_get(&kv, "preempt");

		r->ta.preempt = xstrclean(pm ? pm : "unknown", strlen(pm ? pm : "unknown"));
		keep(r, rec, "timeattr/setup.txt");
	} else {
		char *reason = xstrclean(kv_get(&kv, "reason"), strlen(kv_get(&kv, "reason")));

		ta_unavailable(&r->ta, reason);
		free(reason);
		keep(r, rec, "timeattr/setup.txt");
	}
	kvlist_release(&kv);
	sb_release(&err);
}

/* The stacks of the tasks in D state, read when the hung-task detector
 * spoke (initramfs/lib/hung.sh): kept, and used to title a hung-task report
 * whose stack did not reach the console (record/hung.h). */
static void on_hung(struct records *r, const struct record *rec)
{
	struct strbuf err = STRBUF_INIT;

	if (hung_parse(&r->hung, rec->payload, rec->len, &err) < 0)
		reject(r, "record %lu: hung: %s", rec->seq, err.buf);
	else
		keep(r, rec, "hung/%03lu.txt", rec->seq);
	sb_release(&err);
}

static const struct {
	const char *type;
	void (*fn)(struct records *r, const struct record *rec);
} handlers[] = {
	{ "snapshot", on_snapshot },
	{ "mark", on_mark },
	{ "meminfo", on_meminfo },
	{ "slabinfo", on_slabinfo },
	{ "blocks", on_blocks },
	{ "timing", on_kv },
	{ "info", on_kv },
	{ "end", on_kv },
	{ "io", on_io },
	{ "inventory", on_inventory },
	{ "fio", on_fio },
	{ "fiolog", on_fiolog },
	{ "fiorc", on_fiorc },
	{ "sample", on_sample },
	{ "progress", on_progress },
	{ "kmemleak", on_kmemleak },
	{ "point", on_point },
	{ "hist", on_hist },
	{ "stephist", on_stephist },
	{ "attr", on_attr },
	{ "pageowner", on_pageowner },
	{ "stacks", on_stacks },
	{ "timeattr", on_timeattr },
	{ "hung", on_hung },
};

static void on_record(void *ctx, const struct record *rec)
{
	struct records *r = ctx;

	for (size_t i = 0; i < ARRAY_SIZE(handlers); i++) {
		if (!strcmp(handlers[i].type, rec->type)) {
			handlers[i].fn(r, rec);
			return;
		}
	}
	reject(r, "record %lu: unknown type '%s'", rec->seq, rec->type);
}

void records_init(struct records *rs, const struct scenario *s, const char *dir,
		  const struct records_ops *ops, void *ctx)
{
	memset(rs, 0, sizeof(*rs));
	rs->s = s;
	rs->dir = dir;
	rs->ops = ops;
	rs->ctx = ctx;
	rs->phase = -1;
	rs->phases = json_object_new_array();
	rs->rejections = json_object_new_array();
	rs->io = json_object_new_array();
	rs->guest = json_object_new_object();
	rs->timings = json_object_new_object();
	rs->fio_jobs = json_object_new_array();
	rs->fio_groups = json_object_new_object();
	rs->samples = json_object_new_array();
	rs->progress_cpu = -1;
	rs->max_kept_bytes = RECORDS_MAX_KEPT_BYTES;
	rs->points = json_object_new_array();
	scenario_sweep(s, &rs->steps, &rs->nsteps);
	rs->host_disks = rs->nsteps ? scenario_sd_host_disks(s) : 0;
	ta_init(&rs->ta);
	channel_init(&rs->ch, on_record, on_reject, rs);
}

void records_feed(struct records *rs, const char *buf, size_t len)
{
	channel_feed(&rs->ch, buf, len);
}

void records_finish(struct records *rs)
{
	channel_finish(&rs->ch);
	blocklist_sort(&rs->virtio);
}

void records_scsi_debug(const struct records *rs, struct blocklist *sd)
{
	if (rs->have_base && rs->have_sd)
		blocklist_minus(&rs->after_sd, &rs->base, sd);
	blocklist_sort(sd);
}

void records_release(struct records *rs)
{
	channel_release(&rs->ch);
	blocklist_release(&rs->base);
	blocklist_release(&rs->after_sd);
	blocklist_release(&rs->virtio);
	inventory_release(&rs->inv);
	free(rs->inv_refused);
	rs->inv_refused = NULL;
	json_object_put(rs->phases);
	json_object_put(rs->rejections);
	json_object_put(rs->io);
	json_object_put(rs->guest);
	json_object_put(rs->timings);
	json_object_put(rs->fio_jobs);
	json_object_put(rs->fio_groups);
	json_object_put(rs->samples);
	json_object_put(rs->points);
	free(rs->steps);
	json_object_put(rs->kmemleak);
	json_object_put(rs->attribution);
	po_release(&rs->po_before);
	ta_release(&rs->ta);
	hung_release(&rs->hung);
	free(rs->progress_pts);
	free(rs->end_reason);
}
