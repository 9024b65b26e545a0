#include "run/run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm/accel.h"
#include "result/analysis.h"
#include "record/channel.h"
#include "record/console.h"
#include "record/disks.h"
#include "guest/guest.h"
#include "record/fiojson.h"
#include "record/inventory.h"
#include "record/monitor.h"
#include "guest/initramfs.h"
#include "kernel/kbuild.h"
#include "kernel/kernel.h"
#include "record/kv.h"
#include "record/meminfo.h"
#include "lib/child.h"
#include "report/report.h"
#include "result/result.h"
#include "record/slabinfo.h"
#include "lib/util.h"
#include "vm/vm.h"

#define MAX_PHASES 16
#define MAX_REJECTIONS 50
/* After a panic/Oops/OOM line, how long the guest may go on before we stop it. */
#define CRASH_GRACE_S 10.0
/* After the "end" record, how long QEMU may take to exit. */
#define EXIT_GRACE_S 30.0

static const char *const status_names[] = {
	"pass", "fail", "timeout", "crash", "oom", "error", "interrupted",
};

const char *run_status_name(enum run_status st)
{
	return status_names[st];
}

struct run {
	const struct scenario *s;
	const struct run_config *rc;
	char id[160];
	char *tmpdir;
	char *log;
	struct kernel_artifact k;
	char *initrd;
	struct accel_result accel;
	struct strvec disks;
	struct vm vm;
	int con_log, chan_log;
	struct console_scan cs;
	struct channel ch;

	json_object *root, *phases, *rejections, *io, *guest, *timings_guest;
	unsigned long nrejections;
	int phase;			/* index of the last phase reached, -1 */
	json_object *phase_obj[MAX_PHASES];
	double t0, t_vm, deadline, crash_at;
	int timed_out;			/* host deadline passed */
	char *error;			/* harness-side failure */

	struct blocklist base, after_sd, virtio;
	int have_base, have_sd, have_virtio;
	struct inventory inv;
	int have_inv;
	json_object *fio_jobs;		/* fiojson summaries, all groups */
	json_object *fio_groups;	/* per group: fio's status and first line */
	json_object *samples;		/* monitor samples */
	json_object *kmemleak;

	int got_end;
	char end_status[16];
	char *end_reason;
	char end_phase[CHANNEL_PHASE_MAX];

	enum run_status status;
	char *reason;
	char started[32];
};

static void set_error(struct run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_error(struct run *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (r->error)
		return;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	r->error = sb_detach(&sb, NULL);
}

static char *run_file(const struct run *r, const char *name)
{
	return xstrfmt("%s/%s", r->tmpdir, name);
}

static void reject(struct run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void reject(struct run *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	r->nrejections++;
	if (r->nrejections <= MAX_REJECTIONS)
		json_object_array_add(r->rejections, json_object_new_string(sb.buf));
	if (r->nrejections <= 5)
		warning("channel: %s", sb.buf);
	sb_release(&sb);
}

static void on_reject(void *ctx, const char *reason)
{
	reject(ctx, "%s", reason);
}

/* ---- records ---------------------------------------------------------- */

static long phase_page_size(const struct run *r)
{
	(void)r;
	return 4096;	/* x86 and i386 */
}

static void save_raw(struct run *r, const char *phase, const char *ext,
		     const struct record *rec)
{
	char *path = xstrfmt("%s/snapshots/%02d-%s.%s", r->tmpdir, r->phase,
			     phase, ext);

	write_file(path, rec->payload, rec->len);
	free(path);
}

static void on_mark(struct run *r, const struct record *rec)
{
	int idx = guest_phase_index(rec->phase);
	double now = now_monotonic(), up;
	char tmp[32];
	json_object *p;

	if (idx < 0 || idx <= r->phase || idx >= MAX_PHASES) {
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
	json_object_object_add(p, "host_s", json_seconds(now - r->t_vm));
	json_object_array_add(r->phases, p);
	r->phase_obj[idx] = p;

	/* The next phase has its own deadline, with slack so that the guest's
	 * own waits (which report more precisely) expire first. */
	if ((size_t)idx + 1 < guest_nphases) {
		long long t = guest_phases[idx + 1].timeout(r->s);
		r->deadline = now + (double)t * 1.1 + 5;
	} else {
		r->deadline = now + 60;
	}

	struct strbuf msg = STRBUF_INIT;
	sb_addf(&msg, "%7.1fs  %-14s guest uptime %.1f s", now - r->t_vm,
		rec->phase, up);
	note("%s", msg.buf);
	sb_release(&msg);
}

static json_object *current_phase(struct run *r, const struct record *rec)
{
	if (r->phase < 0 || strcmp(rec->phase, guest_phases[r->phase].name)) {
		reject(r, "record %lu: %s for phase '%s' outside that phase",
		       rec->seq, rec->type, rec->phase);
		return NULL;
	}
	return r->phase_obj[r->phase];
}

static void on_meminfo(struct run *r, const struct record *rec)
{
	json_object *p = current_phase(r, rec);
	struct meminfo m = MEMINFO_INIT;
	struct strbuf err = STRBUF_INIT;

	if (!p)
		return;
	save_raw(r, rec->phase, "meminfo", rec);
	if (meminfo_parse(&m, rec->payload, rec->len, &err) < 0)
		reject(r, "record %lu: meminfo for '%s': %s", rec->seq, rec->phase, err.buf);
	else
		json_object_object_add(p, "meminfo", result_meminfo(&m));
	meminfo_release(&m);
	sb_release(&err);
}

static void on_slabinfo(struct run *r, const struct record *rec)
{
	json_object *p = current_phase(r, rec);
	struct slabinfo si = SLABINFO_INIT;
	struct strbuf err = STRBUF_INIT;

	if (!p)
		return;
	save_raw(r, rec->phase, "slabinfo", rec);
	if (slabinfo_parse(&si, rec->payload, rec->len, &err) < 0)
		reject(r, "record %lu: slabinfo for '%s': %s", rec->seq, rec->phase, err.buf);
	else
		json_object_object_add(p, "slab", result_slab(&si, phase_page_size(r)));
	slabinfo_release(&si);
	sb_release(&err);
}

static void on_blocks(struct run *r, const struct record *rec)
{
	struct blocklist l = BLOCKLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	char *path = xstrfmt("%s/blocks/%s.txt", r->tmpdir, rec->phase);

	write_file(path, rec->payload, rec->len);
	free(path);
	if (blocklist_parse(&l, rec->payload, rec->len, &err) < 0) {
		reject(r, "record %lu: blocks for '%s': %s", rec->seq, rec->phase, err.buf);
		sb_release(&err);
		return;
	}
	sb_release(&err);
	if (!strcmp(rec->phase, "before-insmod") && !r->have_base) {
		r->base = l;
		r->have_base = 1;
	} else if (!strcmp(rec->phase, "after-insmod") && !r->have_sd) {
		r->after_sd = l;
		r->have_sd = 1;
	} else if (!strcmp(rec->phase, "after-virtio") && !r->have_virtio) {
		r->virtio = l;
		r->have_virtio = 1;
	} else {
		reject(r, "record %lu: unexpected blocks for '%s'", rec->seq, rec->phase);
		blocklist_release(&l);
	}
}

static void on_kv(struct run *r, const struct record *rec)
{
	struct kvlist kv = KVLIST_INIT;
	struct strbuf err = STRBUF_INIT;

	if (kv_lines(&kv, rec->payload, rec->len, &err) < 0) {
		reject(r, "record %lu: %s for '%s': %s", rec->seq, rec->type,
		       rec->phase, err.buf);
		goto out;
	}
	if (!strcmp(rec->type, "end")) {
		const char *st = kv_get(&kv, "status");
		if (!st || !guest_status_valid(st)) {
			reject(r, "record %lu: end with bad status", rec->seq);
			goto out;
		}
		r->got_end = 1;
		snprintf(r->end_status, sizeof(r->end_status), "%s", st);
		snprintf(r->end_phase, sizeof(r->end_phase), "%s",
			 kv_get(&kv, "phase") ? kv_get(&kv, "phase") : rec->phase);
		free(r->end_reason);
		r->end_reason = kv_get(&kv, "reason") ? xstrdup(kv_get(&kv, "reason")) : NULL;
		r->deadline = now_monotonic() + EXIT_GRACE_S;
		goto out;
	}
	json_object *dst = !strcmp(rec->type, "info") ? r->guest : r->timings_guest;
	for (size_t i = 0; i < kv.n; i++) {
		if (!strcmp(rec->type, "timing")) {
			/* "enumerate_cs=2726" -> {"after-insmod": {"enumerate_s": 27.26}} */
			long long cs = kv_get_num(&kv, kv.v[i].key);
			size_t kl = strlen(kv.v[i].key);
			json_object *ph;

			if (cs < 0 || kl < 4 || strcmp(kv.v[i].key + kl - 3, "_cs")) {
				reject(r, "record %lu: timing '%s' is not NAME_cs=NUMBER",
				       rec->seq, kv.v[i].key);
				continue;
			}
			if (!json_object_object_get_ex(dst, rec->phase, &ph)) {
				ph = json_object_new_object();
				json_object_object_add(dst, rec->phase, ph);
			}
			char *key = xstrfmt("%.*s_s", (int)(kl - 3), kv.v[i].key);
			json_object_object_add(ph, key, json_seconds((double)cs / 100));
			free(key);
		} else {
			json_object_object_add(dst, kv.v[i].key,
					       json_object_new_string(kv.v[i].value));
		}
	}
out:
	kvlist_release(&kv);
	sb_release(&err);
}

static void on_io(struct run *r, const struct record *rec)
{
	const char *p = rec->payload, *end = rec->payload + rec->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct kvlist kv = KVLIST_INIT;
		struct strbuf err = STRBUF_INIT;

		if (len && kv_words(&kv, p, len, &err) < 0) {
			reject(r, "record %lu: io: %s", rec->seq, err.buf);
		} else if (len) {
			json_object *o = json_object_new_object();
			const char *disk = kv_get(&kv, "disk");
			long long w = kv_get_num(&kv, "write_cs");
			long long rd = kv_get_num(&kv, "read_cs");
			long long bytes = kv_get_num(&kv, "bytes");

			json_object_object_add(o, "disk", json_object_new_string(disk ? disk : "?"));
			json_object_object_add(o, "ok", json_object_new_boolean(
				kv_get(&kv, "ok") && !strcmp(kv_get(&kv, "ok"), "1")));
			if (kv_get(&kv, "error"))
				json_object_object_add(o, "error", json_object_new_string(kv_get(&kv, "error")));
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

static void on_inventory(struct run *r, const struct record *rec)
{
	struct strbuf err = STRBUF_INIT;
	char *path = run_file(r, "inventory.txt");

	write_file(path, rec->payload, rec->len);
	free(path);
	if (r->have_inv) {
		reject(r, "record %lu: a second inventory", rec->seq);
	} else if (inventory_parse(&r->inv, rec->payload, rec->len, &err) < 0) {
		reject(r, "record %lu: inventory: %s", rec->seq, err.buf);
	} else {
		r->have_inv = 1;
	}
	sb_release(&err);
}

/* fio.groups.GROUP: {"status": exit status, "message": fio's first line} */
static json_object *fio_group(struct run *r, const char *group)
{
	json_object *g;

	if (!json_object_object_get_ex(r->fio_groups, group, &g)) {
		g = json_object_new_object();
		json_object_object_add(r->fio_groups, group, g);
	}
	return g;
}

static void on_fio(struct run *r, const struct record *rec)
{
	int log = !strcmp(rec->type, "fiolog");

	if (!strcmp(rec->type, "fiorc")) {
		struct kvlist kv = KVLIST_INIT;
		struct strbuf err = STRBUF_INIT;
		long long st;

		if (kv_lines(&kv, rec->payload, rec->len, &err) < 0 ||
		    (st = kv_get_num(&kv, "status")) < 0)
			reject(r, "record %lu: fiorc for '%s': bad status", rec->seq, rec->phase);
		else
			json_object_object_add(fio_group(r, rec->phase), "status",
					       json_object_new_int64(st));
		kvlist_release(&kv);
		sb_release(&err);
		return;
	}
	if (log) {
		/* The first line of what fio said, for the report and checks. */
		struct strbuf first = STRBUF_INIT;
		size_t l = strcspn(rec->payload, "\n");
		if (l > rec->len)
			l = rec->len;
		sb_add(&first, rec->payload, l > 200 ? 200 : l);
		for (size_t i = 0; i < first.len; i++)
			if ((unsigned char)first.buf[i] < 0x20 || first.buf[i] == 0x7f)
				first.buf[i] = '?';
		json_object_object_add(fio_group(r, rec->phase), "message",
				       json_object_new_string(first.buf));
		sb_release(&first);
	}
	char *path = xstrfmt("%s/fio/%s.%s", r->tmpdir, rec->phase, log ? "log" : "json");
	struct strbuf err = STRBUF_INIT;

	write_file(path, rec->payload, rec->len);
	free(path);
	if (!log && fio_json_summarize(rec->payload, rec->len, rec->phase, r->fio_jobs, &err) < 0)
		reject(r, "record %lu: fio output for '%s': %s", rec->seq, rec->phase, err.buf);
	sb_release(&err);
}

static void on_sample(struct run *r, const struct record *rec)
{
	struct strbuf err = STRBUF_INIT;
	json_object *o;
	long n;

	if (monitor_sample(rec->payload, rec->len, phase_page_size(r), &o, &n, &err) < 0)
		reject(r, "record %lu: monitor sample: %s", rec->seq, err.buf);
	else
		json_object_array_add(r->samples, o);
	sb_release(&err);
}

static void on_kmemleak(struct run *r, const struct record *rec)
{
	char *path = run_file(r, "kmemleak.txt");
	long long n = 0;

	write_file(path, rec->payload, rec->len);
	free(path);
	for (const char *p = rec->payload, *end = rec->payload + rec->len;
	     (p = memmem(p, (size_t)(end - p), "unreferenced object", 19)); p += 19)
		n++;
	json_object_put(r->kmemleak);
	r->kmemleak = json_object_new_object();
	json_object_object_add(r->kmemleak, "unreferenced", json_object_new_int64(n));
	json_object_object_add(r->kmemleak, "file", json_object_new_string("kmemleak.txt"));
}

static void on_record(void *ctx, const struct record *rec)
{
	struct run *r = ctx;

	if (!strcmp(rec->type, "mark"))
		on_mark(r, rec);
	else if (!strcmp(rec->type, "meminfo"))
		on_meminfo(r, rec);
	else if (!strcmp(rec->type, "slabinfo"))
		on_slabinfo(r, rec);
	else if (!strcmp(rec->type, "blocks"))
		on_blocks(r, rec);
	else if (!strcmp(rec->type, "timing") || !strcmp(rec->type, "info") ||
		 !strcmp(rec->type, "end"))
		on_kv(r, rec);
	else if (!strcmp(rec->type, "io"))
		on_io(r, rec);
	else if (!strcmp(rec->type, "inventory"))
		on_inventory(r, rec);
	else if (!strcmp(rec->type, "fio") || !strcmp(rec->type, "fiolog") ||
		 !strcmp(rec->type, "fiorc"))
		on_fio(r, rec);
	else if (!strcmp(rec->type, "sample"))
		on_sample(r, rec);
	else if (!strcmp(rec->type, "kmemleak"))
		on_kmemleak(r, rec);
	else
		reject(r, "record %lu: unknown type '%s'", rec->seq, rec->type);
}

/* ---- the watch loop ---------------------------------------------------- */

static int pump(struct run *r, int *fd, int is_channel)
{
	char buf[65536];
	ssize_t n = read(*fd, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		close(*fd);
		*fd = -1;
		return -1;
	}
	if (is_channel) {
		(void)write_all(r->chan_log, buf, (size_t)n);
		channel_feed(&r->ch, buf, (size_t)n);
	} else {
		int had = r->cs.crash || r->cs.oom;
		(void)write_all(r->con_log, buf, (size_t)n);
		console_scan_feed(&r->cs, buf, (size_t)n);
		if (!had && (r->cs.crash || r->cs.oom)) {
			warning("guest console: %s", r->cs.oom ? r->cs.oom_line : r->cs.crash_line);
			r->crash_at = now_monotonic() + CRASH_GRACE_S;
		}
	}
	return 0;
}

static void watch(struct run *r)
{
	struct child_result res;

	r->deadline = r->t_vm + (double)r->s->timeout_boot * 1.1 + 5;
	while (r->vm.console_fd >= 0 || r->vm.channel_fd >= 0) {
		double now = now_monotonic(), until = r->deadline;
		struct pollfd fds[3];
		int nfds = 0, ic = -1, ih = -1;

		if (child_interrupted())
			break;
		if (r->crash_at && r->crash_at < until)
			until = r->crash_at;
		if (now >= until) {
			if (r->crash_at && now >= r->crash_at)
				break;
			if (!r->got_end)
				r->timed_out = 1;
			break;
		}
		if (r->vm.console_fd >= 0) {
			ic = nfds;
			fds[nfds++] = (struct pollfd){ r->vm.console_fd, POLLIN, 0 };
		}
		if (r->vm.channel_fd >= 0) {
			ih = nfds;
			fds[nfds++] = (struct pollfd){ r->vm.channel_fd, POLLIN, 0 };
		}
		fds[nfds++] = (struct pollfd){ child_signal_fd(), POLLIN, 0 };
		int ms = (int)((until - now) * 1000) + 1;
		if (ms > 1000)
			ms = 1000;
		if (poll(fds, (nfds_t)nfds, ms) < 0 && errno != EINTR)
			break;
		if (ic >= 0 && fds[ic].revents)
			pump(r, &r->vm.console_fd, 0);
		if (ih >= 0 && fds[ih].revents)
			pump(r, &r->vm.channel_fd, 1);
	}
	r->vm.backend->stop(&r->vm, 3.0, &res);
	/* Whatever QEMU wrote before it went: read to EOF. */
	while (r->vm.console_fd >= 0 && pump(r, &r->vm.console_fd, 0) == 0)
		;
	while (r->vm.channel_fd >= 0 && pump(r, &r->vm.channel_fd, 1) == 0)
		;
	channel_finish(&r->ch);
	console_scan_finish(&r->cs);
	if (!r->got_end && !r->timed_out && !child_interrupted() &&
	    !r->cs.crash && !r->cs.oom)
		set_error(r, "the VM ended before the guest finished (%s); see console.log and qemu.log",
			  child_describe(&res));
}

/* ---- results ----------------------------------------------------------- */

static json_object *disk_json(const struct blockdev *d)
{
	json_object *o = json_object_new_object();
	char dev[32];

	snprintf(dev, sizeof(dev), "%u:%u", d->major, d->minor);
	json_object_object_add(o, "name", json_object_new_string(d->name));
	json_object_object_add(o, "dev", json_object_new_string(dev));
	return o;
}

static void finish_disks(struct run *r, json_object *checks)
{
	const struct scenario *s = r->s;
	json_object *d = json_object_new_object();
	struct blocklist sd = BLOCKLIST_INIT;
	long long tgts, luns;

	scenario_sd_layout(s, &tgts, &luns);
	json_object_object_add(d, "requested", json_object_new_int64(s->disks));
	if (r->have_base && r->have_sd)
		blocklist_minus(&r->after_sd, &r->base, &sd);
	blocklist_sort(&sd);
	blocklist_sort(&r->virtio);
	json_object_object_add(d, "present", r->have_sd || !s->disks
				       ? json_object_new_int64((long long)sd.n) : NULL);
	json_object_object_add(d, "first", sd.n ? disk_json(&sd.b[0]) : NULL);
	json_object_object_add(d, "last", sd.n ? disk_json(&sd.b[sd.n - 1]) : NULL);
	json_object *layout = json_object_new_object();
	json_object_object_add(layout, "add_host", json_object_new_int64(s->sd_hosts));
	json_object_object_add(layout, "num_tgts", json_object_new_int64(tgts));
	json_object_object_add(layout, "max_luns", json_object_new_int64(luns));
	json_object_object_add(d, "scsi_debug", layout);
	json_object_object_add(d, "virtio_requested", json_object_new_int64(s->virtio_disks));
	json_object_object_add(d, "virtio_present", r->have_virtio || !s->virtio_disks
				       ? json_object_new_int64((long long)r->virtio.n) : NULL);
	json_object_object_add(d, "virtio_bus", json_object_new_string(
				       s->virtio_bus == VIRTIO_BLK ? "blk" : "scsi"));
	json_object *va = json_object_new_array();
	for (size_t i = 0; i < r->virtio.n; i++)
		json_object_array_add(va, disk_json(&r->virtio.b[i]));
	json_object_object_add(d, "virtio", va);
	json_object_object_add(r->root, "disks", d);

	if (s->disks)
		analysis_add_check(checks, "scsi_debug disks present",
			  r->have_sd && (long long)sd.n == s->disks,
			  "%zu of %lld", sd.n, s->disks);
	if (s->virtio_disks)
		analysis_add_check(checks, "virtio disks present",
			  r->have_virtio && (long long)r->virtio.n == s->virtio_disks,
			  "%zu of %lld", r->virtio.n, s->virtio_disks);
	if (s->disks && s->virtio_disks && s->virtio_bus == VIRTIO_SCSI &&
	    r->have_sd && r->have_virtio && sd.n && r->virtio.n) {
		/* sd names are handed out in probe order: the virtio-scsi disks
		 * must take the indexes right after the last scsi_debug disk. */
		long last = disk_index(sd.b[sd.n - 1].name, NULL);
		int ok = 1;
		for (size_t i = 0; i < r->virtio.n; i++)
			if (disk_index(r->virtio.b[i].name, NULL) != last + 1 + (long)i)
				ok = 0;
		analysis_add_check(checks, "virtio disks follow scsi_debug", ok,
			  "last scsi_debug %s, virtio %s..%s", sd.b[sd.n - 1].name,
			  r->virtio.b[0].name, r->virtio.b[r->virtio.n - 1].name);
	}
	blocklist_release(&sd);
}

static void finish_checks(struct run *r, json_object *checks)
{
	size_t nph = json_object_array_length(r->phases);
	int complete = 1;

	for (size_t i = 0; i < guest_nphases; i++) {
		json_object *p = result_phase(r->root, guest_phases[i].name);
		if (!p || !jget(p, "meminfo") || !jget(p, "slab"))
			complete = 0;
	}
	analysis_add_check(checks, "all phases measured", complete, "%zu of %zu phases",
		  nph, guest_nphases);
	if (r->s->virtio_disks && !r->s->fio) {
		size_t ok = 0, n = json_object_array_length(r->io);
		for (size_t i = 0; i < n; i++)
			if (json_object_get_boolean(jget(json_object_array_get_idx(r->io, i), "ok")))
				ok++;
		analysis_add_check(checks, "virtio I/O verified", n && ok == n &&
			  (long long)n == r->s->virtio_disks,
			  "%zu of %lld disks", ok, r->s->virtio_disks);
	}
	analysis_add_check(checks, "no crash", !r->cs.crash, "%s",
		  r->cs.crash ? r->cs.crash_line : "none in console.log");
	analysis_add_check(checks, "no OOM", !r->cs.oom, "%s",
		  r->cs.oom ? r->cs.oom_line : "none in console.log");
}

static void decide(struct run *r, json_object *checks)
{
	int sig = child_interrupted();
	const char *where = r->phase >= 0 ? guest_phases[r->phase].name : "setup";

	free(r->reason);
	r->reason = NULL;
	if (sig) {
		r->status = RUN_INTERRUPTED;
		r->reason = xstrfmt("interrupted by signal %d after phase '%s'", sig, where);
	} else if (r->cs.oom) {
		r->status = RUN_OOM;
		r->reason = xstrdup(r->cs.oom_line);
	} else if (r->cs.crash) {
		r->status = RUN_CRASH;
		r->reason = xstrdup(r->cs.crash_line);
	} else if (r->timed_out) {
		const char *next = (size_t)(r->phase + 1) < guest_nphases
			? guest_phases[r->phase + 1].name : "end";
		r->status = RUN_TIMEOUT;
		r->reason = xstrfmt("phase '%s' not reached in time (last reached: '%s')",
				    next, where);
	} else if (r->error) {
		r->status = RUN_ERROR;
		r->reason = xstrdup(r->error);
	} else if (r->got_end && strcmp(r->end_status, "pass")) {
		r->status = !strcmp(r->end_status, "timeout") ? RUN_TIMEOUT : RUN_FAIL;
		r->reason = xstrfmt("phase '%s': %s", r->end_phase,
				    r->end_reason ? r->end_reason : "the guest reported a failure");
	} else {
		r->status = RUN_PASS;
		for (size_t i = 0; checks && i < json_object_array_length(checks); i++) {
			json_object *c = json_object_array_get_idx(checks, i);
			if (!json_object_get_boolean(jget(c, "pass"))) {
				r->status = RUN_FAIL;
				r->reason = xstrfmt("check failed: %s (%s)", jstr(c, "name", "?"),
						    jstr(c, "detail", ""));
				break;
			}
		}
	}
}

/* The inventory's summary and its checks. */
static void finish_inventory(struct run *r, json_object *checks)
{
	json_object *o = json_object_new_object(), *sched = json_object_new_object();
	json_object *nr = json_object_new_object(), *hwq = json_object_new_object();
	struct strvec sd = STRVEC_INIT, vio = STRVEC_INIT;
	struct blocklist sdl = BLOCKLIST_INIT;
	struct strbuf why = STRBUF_INIT;

	if (!r->have_inv) {
		json_object_put(o);
		json_object_put(sched);
		json_object_put(nr);
		json_object_put(hwq);
		analysis_add_check(checks, "disk inventory", 0, "no inventory from the guest");
		return;
	}
	for (size_t i = 0; i < r->inv.n; i++) {
		const struct inv_row *row = &r->inv.r[i];
		char key[32];
		json_object *c;

		c = NULL;
		json_object_object_get_ex(sched, row->sched, &c);
		json_object_object_add(sched, row->sched, json_object_new_int64(c ? json_object_get_int64(c) + 1 : 1));
		snprintf(key, sizeof(key), "%ld", row->nr_requests);
		c = NULL;
		json_object_object_get_ex(nr, key, &c);
		json_object_object_add(nr, key, json_object_new_int64(c ? json_object_get_int64(c) + 1 : 1));
		snprintf(key, sizeof(key), "%d", row->hw_queues);
		c = NULL;
		json_object_object_get_ex(hwq, key, &c);
		json_object_object_add(hwq, key, json_object_new_int64(c ? json_object_get_int64(c) + 1 : 1));
	}
	json_object_object_add(o, "devices", json_object_new_int64((long long)r->inv.n));
	json_object_object_add(o, "file", json_object_new_string("inventory.txt"));
	json_object_object_add(o, "schedulers", sched);
	json_object_object_add(o, "nr_requests", nr);
	json_object_object_add(o, "hw_queues", hwq);
	json_object_object_add(r->root, "inventory", o);

	analysis_add_check(checks, "dev_t unique", inventory_check_unique_devt(&r->inv, &why),
			   "%s", why.len ? why.buf : "every device has its own");
	sb_reset(&why);
	if (r->s->disks && r->have_base && r->have_sd) {
		blocklist_minus(&r->after_sd, &r->base, &sdl);
		for (size_t i = 0; i < sdl.n; i++)
			strvec_push(&sd, sdl.b[i].name);
		analysis_add_check(checks, "scsi_debug names and dev_t follow the sd sequence",
				   inventory_check_sd_sequence(&r->inv, &sd, r->s->disks, &why),
				   "%s", why.len ? why.buf : "sda .. index N-1, each with its dev_t");
		sb_reset(&why);
	}
	if (r->s->virtio_disks && r->s->virtio_bus == VIRTIO_SCSI && r->have_virtio) {
		for (size_t i = 0; i < r->virtio.n; i++)
			strvec_push(&vio, r->virtio.b[i].name);
		analysis_add_check(checks, "virtio disks named and numbered after the range",
				   inventory_check_after_range(&r->inv, &vio, r->s->disks, &why),
				   "%s", why.len ? why.buf : "indexes and dev_t follow the last scsi_debug disk");
		sb_reset(&why);
	}
	analysis_add_check(checks, "first block of every disk readable",
			   inventory_check_readable(&r->inv, &why), "%s",
			   why.len ? why.buf : "all read");
	strvec_clear(&sd);
	strvec_clear(&vio);
	blocklist_release(&sdl);
	sb_release(&why);
}

/* The monitor's series, and the samples that never arrived. */
static void finish_monitor(struct run *r)
{
	json_object *m = json_object_new_object(), *gaps = json_object_new_array();
	size_t n = json_object_array_length(r->samples);
	long next = 1;

	json_object_object_add(m, "interval_ms", json_object_new_int64(r->s->monitor_interval_ms));
	for (size_t i = 0; i < n; i++) {
		long k = (long)jint(json_object_array_get_idx(r->samples, i), "n", 0);
		if (k > next) {
			json_object *g = json_object_new_array();
			json_object_array_add(g, json_object_new_int64(next));
			json_object_array_add(g, json_object_new_int64(k - 1));
			json_object_array_add(gaps, g);
		}
		if (k >= next)
			next = k + 1;
	}
	json_object_object_add(m, "received", json_object_new_int64((long long)n));
	json_object_object_add(m, "gaps", gaps);
	json_object_object_add(m, "samples", json_object_get(r->samples));
	json_object_object_add(r->root, "monitor", m);
	analysis_monitor(r->root);
}

static void write_result(struct run *r)
{
	json_object *checks = json_object_new_array();
	json_object *t = json_object_new_object();
	char iso[32];
	char *path;

	if (r->vm.backend) {
		finish_disks(r, checks);
		analysis_deltas(r->root, r->s);
		analysis_slab_growth(r->root, r->s);
		finish_inventory(r, checks);
		if (r->s->monitor_interval_ms)
			finish_monitor(r);
		if (r->s->fio) {
			json_object *f = json_object_new_object();
			json_object_object_add(f, "jobs", json_object_get(r->fio_jobs));
			json_object_object_add(f, "groups", json_object_get(r->fio_groups));
			json_object_object_add(r->root, "fio", f);
		}
		if (r->kmemleak)
			json_object_object_add(r->root, "kmemleak", json_object_get(r->kmemleak));
		finish_checks(r, checks);
		analysis_fio(r->root, r->s, checks);
		analysis_leak(r->root, r->s, checks);
	}
	decide(r, r->vm.backend ? checks : NULL);
	json_object_object_add(r->root, "status",
			       json_object_new_string(run_status_name(r->status)));
	json_object_object_add(r->root, "reason",
			       r->reason ? json_object_new_string(r->reason) : NULL);
	json_object_object_add(r->root, "checks", checks);
	timestamp_iso(iso, sizeof(iso));
	json_object_object_add(r->root, "finished", json_object_new_string(iso));

	json_object *boot = result_phase(r->root, "boot");
	json_object_object_add(t, "setup_s", json_seconds((r->t_vm ? r->t_vm : now_monotonic()) - r->t0));
	json_object_object_add(t, "boot_s", boot ? json_object_get(jget(boot, "host_s")) : NULL);
	json_object_object_add(t, "guest_boot_s", boot ? json_object_get(jget(boot, "uptime_s")) : NULL);
	json_object *en = jget(r->timings_guest, "after-insmod.enumerate_s");
	json_object_object_add(t, "enumerate_s", en ? json_object_get(en) : NULL);
	json_object *ins = jget(r->timings_guest, "after-insmod.insmod_s");
	json_object_object_add(t, "insmod_s", ins ? json_object_get(ins) : NULL);
	json_object *ve = jget(r->timings_guest, "after-virtio.enumerate_s");
	json_object_object_add(t, "virtio_enumerate_s", ve ? json_object_get(ve) : NULL);
	json_object *inv = jget(r->timings_guest, "after-virtio.inventory_s");
	json_object_object_add(t, "inventory_s", inv ? json_object_get(inv) : NULL);
	json_object *rm = jget(r->timings_guest, "after-rmmod.rmmod_s");
	json_object_object_add(t, "rmmod_s", rm ? json_object_get(rm) : NULL);
	json_object_object_add(t, "vm_s", r->t_vm ? json_seconds(now_monotonic() - r->t_vm) : NULL);
	json_object_object_add(t, "total_s", json_seconds(now_monotonic() - r->t0));
	json_object_object_add(r->root, "timings", t);

	json_object *ch = json_object_new_object();
	json_object_object_add(ch, "records", json_object_new_int64((long long)r->ch.records));
	json_object_object_add(ch, "rejected", json_object_new_int64((long long)r->nrejections));
	json_object_object_add(ch, "rejections", json_object_get(r->rejections));
	json_object_object_add(r->root, "channel", ch);

	json_object *con = json_object_new_object();
	json_object_object_add(con, "lines", json_object_new_int64((long long)r->cs.lines));
	json_object_object_add(con, "crash", r->cs.crash ? json_object_new_string(r->cs.crash_line) : NULL);
	json_object_object_add(con, "oom", r->cs.oom ? json_object_new_string(r->cs.oom_line) : NULL);
	json_object_object_add(r->root, "console", con);

	path = run_file(r, "result.json");
	if (result_save(r->root, path) < 0)
		r->status = RUN_ERROR;
	free(path);
}

/* ---- setup --------------------------------------------------------------- */

static int make_run_dir(struct run *r)
{
	char stamp[32];

	if (mkdir_p(r->rc->out, 0755) < 0)
		return -1;
	timestamp_id(stamp, sizeof(stamp));
	for (int i = 1; i < 1000; i++) {
		char *final, *tmp;
		if (i == 1)
			snprintf(r->id, sizeof(r->id), "%s-%s", stamp, r->s->name);
		else
			snprintf(r->id, sizeof(r->id), "%s-%s-%d", stamp, r->s->name, i);
		final = xstrfmt("%s/%s", r->rc->out, r->id);
		tmp = xstrfmt("%s/.tmp-%s", r->rc->out, r->id);
		if (!path_exists(final) && mkdir(tmp, 0755) == 0) {
			free(final);
			r->tmpdir = tmp;
			break;
		}
		free(final);
		free(tmp);
	}
	if (!r->tmpdir)
		return error("cannot create a run directory in '%s'", r->rc->out);
	static const char *const sub[] = { "snapshots", "blocks", "disks", "fio" };
	for (size_t i = 0; i < ARRAY_SIZE(sub); i++) {
		char *p = run_file(r, sub[i]);
		int e = mkdir(p, 0755);
		free(p);
		if (e < 0)
			return error_errno("cannot create '%s/%s'", r->tmpdir, sub[i]);
	}
	return 0;
}

static int write_scenario_copy(struct run *r)
{
	struct strbuf sb = STRBUF_INIT, v = STRBUF_INIT;
	char *path = run_file(r, "scenario.scn");
	int ret;

	sb_addf(&sb, "# Resolved settings of run %s (from %s).\n", r->id,
		r->s->file ? r->s->file : "defaults");
	for (size_t i = 0; i < scenario_nkeys; i++) {
		sb_reset(&v);
		scenario_value(r->s, &scenario_keys[i], &v);
		if (!v.len)
			continue;
		if (strpbrk(v.buf, " #\t") && !strchr(v.buf, '"'))
			sb_addf(&sb, "%s = \"%s\"\n", scenario_keys[i].name, v.buf);
		else
			sb_addf(&sb, "%s = %s\n", scenario_keys[i].name, v.buf);
	}
	ret = write_file(path, sb.buf, sb.len);
	free(path);
	sb_release(&sb);
	sb_release(&v);
	return ret;
}

static int make_disks(struct run *r)
{
	for (long long i = 0; i < r->s->virtio_disks; i++) {
		char *p = xstrfmt("%s/disks/vd%lld.img", r->tmpdir, i);
		int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || ftruncate(fd, (off_t)r->s->virtio_disk_mb << 20) < 0) {
			error_errno("cannot create disk image '%s'", p);
			if (fd >= 0)
				close(fd);
			free(p);
			return -1;
		}
		close(fd);
		strvec_push(&r->disks, p);
		free(p);
	}
	return 0;
}

static int check_host_memory(const struct scenario *s)
{
	long long avail = host_mem_available_kb();
	long long need = (s->memory_mb + 256) * 1024;

	if (avail >= 0 && avail < need)
		return error_env("the host has %lld MiB available, the guest needs "
				 "%lld MiB plus QEMU's own; lower memory_mb or free memory",
				 avail / 1024, s->memory_mb);
	return 0;
}

static void record_setup(struct run *r)
{
	json_object *sc = json_object_new_object(), *k = json_object_new_object();
	json_object *vm = json_object_new_object();
	json_object_object_add(r->root, "run_id", json_object_new_string(r->id));
	json_object_object_add(r->root, "tool", json_object_new_string("scaletest " SCALETEST_VERSION));
	json_object_object_add(r->root, "started", json_object_new_string(r->started));
	json_object_object_add(sc, "name", json_object_new_string(r->s->name));
	json_object_object_add(sc, "file", r->s->file ? json_object_new_string(r->s->file) : NULL);
	json_object_object_add(sc, "description", json_object_new_string(r->s->description));
	json_object_object_add(r->root, "scenario", sc);
	json_object_object_add(r->root, "settings", result_settings(r->s));
	json_object_object_add(k, "version", r->k.version ? json_object_new_string(r->k.version) : NULL);
	json_object_object_add(k, "arch", json_object_new_string(arch_name(r->s->arch)));
	json_object_object_add(k, "source", r->k.source ? json_object_new_string(r->k.source) : NULL);
	json_object_object_add(k, "package", r->k.package ? json_object_new_string(r->k.package) : NULL);
	json_object_object_add(k, "package_version", r->k.package_version ? json_object_new_string(r->k.package_version) : NULL);
	json_object_object_add(k, "image", r->k.image ? json_object_new_string(r->k.image) : NULL);
	json_object_object_add(k, "highmem", r->k.highmem < 0 ? NULL : json_object_new_boolean(r->k.highmem));
	if (r->k.build_key) {
		json_object *b = json_object_new_object(), *p = json_object_new_array();
		json_object *f = json_object_new_array();

		json_object_object_add(b, "source_tree", json_object_new_string(r->k.build_source));
		json_object_object_add(b, "key", json_object_new_string(r->k.build_key));
		json_object_object_add(b, "config_base", json_object_new_string(r->k.build_base));
		for (size_t i = 0; i < r->k.build_patches.n; i++)
			json_object_array_add(p, json_object_new_string(r->k.build_patches.v[i]));
		for (size_t i = 0; i < r->k.build_fragments.n; i++)
			json_object_array_add(f, json_object_new_string(path_basename(r->k.build_fragments.v[i])));
		json_object_object_add(b, "patches", p);
		json_object_object_add(b, "fragments", f);
		json_object_object_add(k, "build", b);
	}
	json_object_object_add(r->root, "kernel", k);
	json_object_object_add(vm, "backend", json_object_new_string("qemu"));
	json_object_object_add(vm, "accel", *r->accel.accel ? json_object_new_string(r->accel.accel) : NULL);
	json_object_object_add(vm, "accel_reason", *r->accel.reason ? json_object_new_string(r->accel.reason) : NULL);
	json_object_object_add(vm, "memory_mb", json_object_new_int64(r->s->memory_mb));
	json_object_object_add(vm, "cpus", json_object_new_int64(r->s->cpus));
	json_object_object_add(vm, "qemu_version", json_object_new_string(vm_backend_qemu.version(r->s->arch)));
	json_object_object_add(vm, "initramfs", r->initrd ? json_object_new_string(r->initrd) : NULL);
	json_object_object_add(r->root, "vm", vm);
	json_object_object_add(r->root, "guest", json_object_get(r->guest));
}

static int setup_and_boot(struct run *r)
{
	struct initramfs ir = INITRAMFS_INIT;
	struct vm_config c;
	char *cmdline = NULL, *qlog = NULL, *path;
	int hit = 0, ret = -1;

	note("run %s in %s/%s", r->id, r->rc->out, r->id);
	if (kernel_obtain(r->s, r->log, kbuild_obtain, &r->k) < 0)
		goto out;
	note("kernel %s (%s%s%s)", r->k.version, r->k.source,
	     r->k.package ? " " : "", r->k.package ? r->k.package : "");
	if (guest_compose(r->s, &r->k, r->log, &ir) < 0 ||
	    initramfs_build_cached(&ir, &r->initrd, &hit) < 0)
		goto out;
	note("initramfs %s (%s)", path_basename(r->initrd), hit ? "cached" : "built");
	if (make_disks(r) < 0)
		goto out;
	path = run_file(r, "accel-probe.log");
	if (accel_choose(r->s, r->k.image, r->initrd, path, &r->accel) < 0) {
		free(path);
		goto out;
	}
	free(path);
	if (child_interrupted())
		goto out;
	note("accelerator %s: %s", r->accel.accel, r->accel.reason);

	cmdline = guest_cmdline(r->s);
	qlog = run_file(r, "qemu.log");
	memset(&c, 0, sizeof(c));
	c.arch = r->s->arch;
	c.kernel = r->k.image;
	c.initrd = r->initrd;
	c.cmdline = cmdline;
	c.memory_mb = r->s->memory_mb;
	c.cpus = r->s->cpus;
	c.accel = r->accel.accel;
	c.disks = &r->disks;
	c.virtio_bus = r->s->virtio_bus;
	c.log = qlog;
	r->t_vm = now_monotonic();
	if (vm_backend_qemu.start(&r->vm, &c) < 0) {
		r->t_vm = 0;
		goto out;
	}
	struct strbuf argv = STRBUF_INIT;
	for (size_t i = 0; i < r->vm.argv.n; i++)
		sb_addf(&argv, "%s\n", r->vm.argv.v[i]);
	path = run_file(r, "qemu-argv.txt");
	write_file(path, argv.buf, argv.len);
	free(path);
	sb_release(&argv);
	note("booting %lld disks + %lld virtio (%s, %lld MiB, %lld CPU)",
	     r->s->disks, r->s->virtio_disks, r->accel.accel, r->s->memory_mb,
	     r->s->cpus);
	ret = 0;
out:
	initramfs_release(&ir);
	free(cmdline);
	free(qlog);
	return ret;
}

static void finalize_dir(struct run *r, char **dir)
{
	char *final = xstrfmt("%s/%s", r->rc->out, r->id);

	/* The disk images are scratch: only the pattern written to them. */
	char *disks = run_file(r, "disks");
	remove_tree(disks);
	free(disks);
	if (rename(r->tmpdir, final) < 0) {
		error_errno("cannot rename '%s' to '%s'", r->tmpdir, final);
		*dir = xstrdup(r->tmpdir);
		free(final);
		return;
	}
	if (r->status == RUN_PASS) {
		char *tmp = xstrfmt("%s/.latest.tmp", r->rc->out);
		char *latest = xstrfmt("%s/latest", r->rc->out);
		unlink(tmp);
		if (symlink(r->id, tmp) < 0 || rename(tmp, latest) < 0)
			error_errno("cannot point '%s' at '%s'", latest, r->id);
		free(tmp);
		free(latest);
	}
	*dir = final;
}

enum run_status run_execute(const struct scenario *s, const struct run_config *rc,
			    char **dir)
{
	struct run r;
	char *p;

	memset(&r, 0, sizeof(r));
	r.s = s;
	r.rc = rc;
	r.phase = -1;
	r.con_log = r.chan_log = -1;
	r.vm = (struct vm)VM_INIT;
	strvec_init(&r.disks);
	r.t0 = now_monotonic();
	timestamp_iso(r.started, sizeof(r.started));
	*dir = NULL;

	if (vm_backend_qemu.check(s->arch) < 0 || check_host_memory(s) < 0)
		return RUN_ERROR;
	if (make_run_dir(&r) < 0)
		return RUN_ERROR;
	r.log = run_file(&r, "build.log");
	r.root = result_new();
	r.phases = json_object_new_array();
	r.rejections = json_object_new_array();
	r.io = json_object_new_array();
	r.guest = json_object_new_object();
	r.timings_guest = json_object_new_object();
	r.fio_jobs = json_object_new_array();
	r.fio_groups = json_object_new_object();
	r.samples = json_object_new_array();
	console_scan_init(&r.cs);
	channel_init(&r.ch, on_record, on_reject, &r);
	write_scenario_copy(&r);

	p = run_file(&r, "console.log");
	r.con_log = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	free(p);
	p = run_file(&r, "channel.log");
	r.chan_log = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	free(p);
	if (r.con_log < 0 || r.chan_log < 0) {
		set_error(&r, "cannot create the log files in '%s'", r.tmpdir);
	} else if (setup_and_boot(&r) < 0) {
		if (!child_interrupted())
			set_error(&r, "setup failed before boot%s; see build.log",
				  error_was_env ? " (missing package or tool)" : "");
	} else {
		watch(&r);
	}
	record_setup(&r);
	json_object_object_add(r.root, "phases", json_object_get(r.phases));
	json_object_object_add(r.root, "io", json_object_get(r.io));
	json_object_object_add(r.root, "guest_timings", json_object_get(r.timings_guest));
	write_result(&r);
	if (r.con_log >= 0)
		close(r.con_log);
	if (r.chan_log >= 0)
		close(r.chan_log);

	report_write_dir(r.tmpdir, rc->quiet ? NULL : stdout);
	finalize_dir(&r, dir);

	vm_release(&r.vm);
	kernel_release(&r.k);
	channel_release(&r.ch);
	console_scan_release(&r.cs);
	blocklist_release(&r.base);
	blocklist_release(&r.after_sd);
	blocklist_release(&r.virtio);
	strvec_clear(&r.disks);
	json_object_put(r.root);
	json_object_put(r.phases);
	json_object_put(r.rejections);
	json_object_put(r.io);
	json_object_put(r.guest);
	json_object_put(r.timings_guest);
	json_object_put(r.fio_jobs);
	json_object_put(r.fio_groups);
	json_object_put(r.samples);
	json_object_put(r.kmemleak);
	inventory_release(&r.inv);
	free(r.tmpdir);
	free(r.log);
	free(r.initrd);
	free(r.error);
	free(r.end_reason);
	free(r.reason);
	return r.status;
}

int run_exit_code(enum run_status st)
{
	switch (st) {
	case RUN_PASS:
		return EXIT_OK;
	case RUN_INTERRUPTED:
		return EXIT_INTERRUPTED;
	case RUN_ERROR:
		return error_was_env ? EXIT_ENV : EXIT_RUNFAIL;
	default:
		return EXIT_RUNFAIL;
	}
}
