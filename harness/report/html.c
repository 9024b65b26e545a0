#include "report/html.h"

#include <string.h>

#include "report/svg.h"
#include "lib/util.h"

#define SLAB_SHOWN 15		/* bars in a slab chart; its table has every cache */
#define GAPS_LISTED 20		/* lost samples listed in the text */

/* ---- page ---- */

static const char css[] =
	"body{font:14px/1.45 \"DejaVu Sans\",system-ui,sans-serif;color:#222;background:#fff;"
	"max-width:960px;margin:0 auto;padding:12px 24px 40px}\n"
	"h1{font-size:22px;margin:10px 0 6px}\n"
	"h2{font-size:17px;margin:30px 0 8px;padding-bottom:3px;border-bottom:1px solid #ddd}\n"
	"h3{font-size:14px;margin:14px 0 4px}\n"
	"p{margin:6px 0}\n"
	"table{border-collapse:collapse;margin:6px 0 10px}\n"
	"th,td{padding:3px 10px;border-bottom:1px solid #e6e6e6;text-align:left;vertical-align:top}\n"
	"th{background:#f4f5f7;font-weight:600}\n"
	"td.n,th.n{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}\n"
	"tr.headline td{font-weight:600}\n"
	".status{display:inline-block;padding:0 10px;border-radius:4px;color:#fff}\n"
	".st-ok{background:#2e7d32}.st-bad{background:#c62828}.st-unknown{background:#757575}\n"
	".reason{background:#fdecea;border-left:4px solid #c62828;padding:6px 10px}\n"
	".env,.note{color:#555}.note{font-size:13px}\n"
	".warn{background:#fff4e5;border:1px solid #f0a040;border-left:4px solid #e67e00;"
	"padding:8px 12px;margin:10px 0}\n"
	".pass{color:#2e7d32}.fail{color:#c62828;font-weight:700}\n"
	".verdict{font-size:17px;padding:6px 12px;margin:8px 0;border-radius:4px}\n"
	".v-regression{background:#fdecea;color:#b71c1c;font-weight:700}\n"
	".v-improvement{background:#e8f5e9;color:#1b5e20;font-weight:700}\n"
	".v-nochange{background:#f4f5f7;color:#333}.v-na{background:#f4f5f7;color:#757575}\n"
	"svg text.v-regression{fill:#b71c1c;font-weight:700}svg text.v-improvement{fill:#1b5e20;font-weight:700}\n"
	"tr.regression td{background:#fdecea}tr.improvement td{background:#f1f8f1}\n"
	"td.v-regression,td.v-improvement,td.v-nochange,td.v-na{white-space:nowrap}\n"
	".gating{font-size:11px;border:1px solid #999;border-radius:3px;padding:0 4px;color:#555}\n"
	".charts{display:flex;flex-wrap:wrap;gap:8px 16px}\n"
	"svg.chart{display:block;margin:8px 0;max-width:100%;height:auto;overflow:visible}\n"
	"svg text{font-family:\"DejaVu Sans\",sans-serif;font-size:11px;fill:#333}\n"
	"svg text.axt{font-size:12px;fill:#555}svg text.val{font-size:10.5px;fill:#222}\n"
	"svg text.title{font-size:12.5px;font-weight:600}\n"
	"svg text.steplabel{font-size:10.5px;fill:#666}svg text.gaplabel{font-size:10px;fill:#b71c1c}\n"
	"svg line.grid{stroke:#e4e4e4;stroke-width:1}svg line.grid.zero,svg line.axis{stroke:#666;stroke-width:1}\n"
	"svg rect.frame{fill:none;stroke:#bbb}svg line.err{stroke:#222;stroke-width:1.5}\n"
	"code{font-family:\"DejaVu Sans Mono\",monospace;font-size:13px}\n"
	"footer{margin-top:30px;color:#777;font-size:12px}\n";

static void page_begin(struct strbuf *out, const char *title1, const char *title2)
{
	sb_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	html_escape(out, title1);
	sb_adds(out, ": ");
	html_escape(out, title2);
	sb_addf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", css);
}

static void page_end(struct strbuf *out, const char *tool, const char *started,
		     const char *finished)
{
	sb_adds(out, "<footer>");
	html_escape(out, fmt_or(tool, "scaletest"));
	if (started) {
		sb_adds(out, ", started ");
		html_escape(out, started);
	}
	if (finished) {
		sb_adds(out, ", finished ");
		html_escape(out, finished);
	}
	sb_adds(out, ". Generated from the JSON alone; no scripts, nothing fetched.</footer>\n"
		"</body>\n</html>\n");
}

/* A number cell's content: the figure in kB, or n/a. */
static void td_kb(struct strbuf *out, struct num v)
{
	sb_adds(out, "<td class=\"n\">");
	fmt_kb(out, v);
	sb_adds(out, "</td>");
}

/* ---- a run ---- */

static const char *status_class(const char *status)
{
	static const char *const bad[] = { "fail", "timeout", "crash", "oom", "error", "interrupted" };

	if (!strcmp(status, "pass"))
		return "st-ok";
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (!strcmp(status, bad[i]))
			return "st-bad";
	return "st-unknown";
}

static void disk_cell(struct strbuf *out, const struct report_disk *d)
{
	html_escape(out, fmt_or(d->name, "?"));
	sb_adds(out, " (");
	html_escape(out, fmt_or(d->dev, "?"));
	sb_adds(out, ")");
}

static void run_head(struct strbuf *out, const struct report_model *m)
{
	static const struct {
		const char *name;
		size_t offset;
	} times[] = {
		{ "enumeration", offsetof(struct report_model, enumerate_s) },
		{ "boot", offsetof(struct report_model, boot_s) },
		{ "rmmod", offsetof(struct report_model, rmmod_s) },
		{ "total", offsetof(struct report_model, total_s) },
		{ "setup", offsetof(struct report_model, setup_s) },
	};
	const char *status = fmt_or(m->status, "?");

	sb_adds(out, "<h1>scaletest run <span class=\"runid\">");
	html_escape(out, fmt_or(m->run_id, "?"));
	sb_addf(out, "</span>: <span class=\"status %s\">", status_class(status));
	html_escape(out, status);
	sb_adds(out, "</span></h1>\n");
	if (m->reason) {
		sb_adds(out, "<p class=\"reason\"><b>Reason:</b> ");
		html_escape(out, m->reason);
		sb_adds(out, "</p>\n");
	}
	sb_adds(out, "<p>Scenario <b>");
	html_escape(out, fmt_or(m->scenario, "?"));
	sb_adds(out, "</b>");
	if (m->description) {
		sb_adds(out, ": ");
		html_escape(out, m->description);
	}
	sb_adds(out, "</p>\n<p class=\"env\">kernel ");
	html_escape(out, fmt_or(m->kernel_version, "?"));
	sb_adds(out, " ");
	html_escape(out, fmt_or(m->kernel_arch, "?"));
	sb_adds(out, ", ");
	html_escape(out, fmt_or(m->accel, "?"));
	sb_adds(out, ", ");
	if (m->memory_mb.have)
		fmt_thousands_d(out, m->memory_mb.v);
	else
		sb_adds(out, "?");
	sb_adds(out, " MiB, ");
	if (m->cpus.have)
		sb_addf(out, "%lld", fmt_round(m->cpus.v));
	else
		sb_adds(out, "?");
	sb_adds(out, " CPU, QEMU ");
	html_escape(out, fmt_or(m->qemu_version, "?"));
	if (m->accel_reason) {
		sb_adds(out, " <span class=\"note\">(");
		html_escape(out, m->accel_reason);
		sb_adds(out, ")</span>");
	}
	sb_adds(out, "</p>\n<p class=\"env\">disks: ");
	fmt_thousands_d(out, m->disks_present.v);
	sb_adds(out, " of ");
	fmt_thousands_d(out, m->disks_requested.v);
	sb_adds(out, " scsi_debug");
	if (m->have_first && m->have_last) {
		sb_adds(out, ", ");
		disk_cell(out, &m->first);
		sb_adds(out, " .. ");
		disk_cell(out, &m->last);
	}
	sb_addf(out, "; %lld of %lld virtio-", fmt_round(m->virtio_present.v),
		fmt_round(m->virtio_requested.v));
	html_escape(out, fmt_or(m->virtio_bus, "?"));
	sb_adds(out, "<br>time:");
	for (size_t i = 0; i < ARRAY_SIZE(times); i++) {
		const struct num *t = (const struct num *)((const char *)m + times[i].offset);
		sb_addf(out, "%s %s ", i ? "," : "", times[i].name);
		if (t->have)
			sb_addf(out, "%.1f s", t->v);
		else
			sb_adds(out, "n/a");
	}
	sb_adds(out, "</p>\n");
	if (m->console_crash) {
		sb_adds(out, "<p class=\"reason\"><b>Console:</b> <code>");
		html_escape(out, m->console_crash);
		sb_adds(out, "</code></p>\n");
	}
	if (m->console_oom) {
		sb_adds(out, "<p class=\"reason\"><b>OOM:</b> <code>");
		html_escape(out, m->console_oom);
		sb_adds(out, "</code></p>\n");
	}
}

static void mem_table(struct strbuf *out, const struct report_model *m)
{
	sb_adds(out, "<h2 id=\"insmod\">Memory at insmod scsi_debug</h2>\n<p class=\"note\">");
	sb_adds(out, m->highmem ? "LowFree is the headline: a HIGHMEM kernel's disks live in lowmem."
				: "MemFree is the headline: a 64-bit kernel has no LowFree "
				  "(all its memory is directly mapped).");
	sb_adds(out, " Per disk is the change divided by the number of scsi_debug disks, "
		"with the sign turned so that a cost is positive.</p>\n"
		"<table class=\"mem\">\n<tr><th></th><th class=\"n\">before insmod</th>"
		"<th class=\"n\">after insmod</th><th class=\"n\">change</th>"
		"<th class=\"n\">per disk</th></tr>\n");
	for (size_t i = 0; i < m->nmem; i++) {
		const struct report_mem_row *r = &m->mem[i];

		sb_addf(out, "<tr%s><td>%s</td>", r->headline ? " class=\"headline\"" : "", r->field);
		td_kb(out, r->before);
		td_kb(out, r->after);
		sb_adds(out, "<td class=\"n\">");
		fmt_signed_kb(out, r->change);
		sb_adds(out, "</td><td class=\"n\">");
		fmt_per_disk(out, r->per_disk);
		sb_adds(out, "</td></tr>\n");
	}
	sb_adds(out, "</table>\n");
	if (m->unaccounted_kb.have) {
		sb_adds(out, "<p>MemFree drop not in Slab/PageTables/KernelStack/VmallocUsed/Percpu: ");
		fmt_kb(out, m->unaccounted_kb);
		sb_adds(out, " <span class=\"note\">(blk-mq request pools and other page "
			"allocations never appear in slabinfo)</span></p>\n");
	}
	if (m->lowmem_unaccounted_kb.have) {
		sb_adds(out, "<p>LowFree drop not in Slab/PageTables/KernelStack/Percpu: ");
		fmt_kb(out, m->lowmem_unaccounted_kb);
		sb_adds(out, "</p>\n");
	}
	if (m->returned_pct.have) {
		sb_addf(out, "<p>After rmmod: %.0f%% of the MemFree taken at insmod came back (",
			m->returned_pct.v);
		fmt_signed_kb(out, m->rmmod_memfree_kb);
		sb_adds(out, ").</p>\n");
	}
}

static void phase_table(struct strbuf *out, const struct report_model *m)
{
	sb_adds(out, "<table class=\"phases\">\n<tr><th>phase</th><th class=\"n\">uptime</th>"
		"<th class=\"n\">LowFree</th><th class=\"n\">MemFree</th>"
		"<th class=\"n\">MemAvailable</th><th class=\"n\">Slab</th></tr>\n");
	for (size_t i = 0; i < m->nphases; i++) {
		const struct report_phase *p = &m->phases[i];
		sb_adds(out, "<tr><td>");
		html_escape(out, fmt_or(p->name, "?"));
		sb_adds(out, "</td><td class=\"n\">");
		if (p->uptime_s.have)
			sb_addf(out, "%.2f s", p->uptime_s.v);
		else
			sb_adds(out, "n/a");
		sb_adds(out, "</td>");
		for (int k = PHASE_LOWFREE; k <= PHASE_SLAB; k++)
			td_kb(out, p->mem[k]);
		sb_adds(out, "</tr>\n");
	}
	sb_adds(out, "</table>\n");
}

static void slab_section(struct strbuf *out, const struct report_model *m)
{
	struct svg_bar b[SLAB_SHOWN];
	size_t k = 0;

	if (!m->nslab)
		return;
	for (size_t i = 0; i < m->nslab && k < SLAB_SHOWN; i++) {
		if (!m->slab[i].kb.have)
			continue;
		b[k].v = m->slab[i].kb.v;
		b[k++].label = fmt_or(m->slab[i].cache, "?");
	}
	sb_adds(out, "<h2 id=\"slab\">Slab caches that grew most at insmod</h2>\n");
	if (k)
		svg_hbars(out, "slab caches that grew most at insmod, kB", b, k, "#59a14f", "#e15759");
	sb_adds(out, "<table class=\"slab\">\n<tr><th>cache</th><th class=\"n\">growth</th>"
		"<th class=\"n\">objects</th><th class=\"n\">per disk</th></tr>\n");
	for (size_t i = 0; i < m->nslab; i++) {
		const struct report_slab *c = &m->slab[i];
		sb_adds(out, "<tr><td>");
		html_escape(out, fmt_or(c->cache, "?"));
		sb_adds(out, "</td><td class=\"n\">");
		fmt_signed_kb(out, c->kb);
		sb_adds(out, "</td><td class=\"n\">");
		if (c->objs.have)
			fmt_thousands_d(out, c->objs.v);
		else
			sb_adds(out, "n/a");
		sb_adds(out, "</td><td class=\"n\">");
		fmt_per_disk(out, c->bytes_per_disk);
		sb_adds(out, "</td></tr>\n");
	}
	sb_adds(out, "</table>\n");
}

static void peak_row(struct strbuf *out, const char *what, struct num steady, struct num io)
{
	sb_addf(out, "<tr><td>%s</td>", what);
	td_kb(out, steady);
	td_kb(out, io);
	sb_adds(out, "</tr>\n");
}

static void monitor_section(struct strbuf *out, const struct report_model *m)
{
	if (!m->have_monitor)
		return;
	sb_adds(out, "<h2 id=\"monitor\">Memory while it ran</h2>\n<p>");
	fmt_thousands_d(out, m->received.have ? m->received.v : (double)m->nsamples_listed);
	sb_adds(out, " samples");
	if (m->interval_ms.have) {
		sb_adds(out, ", one every ");
		fmt_thousands_d(out, m->interval_ms.v);
		sb_adds(out, " ms");
	}
	for (size_t i = 0; i < m->ngaps; i++) {
		if (i == GAPS_LISTED) {
			sb_adds(out, " and more");
			break;
		}
		sb_addf(out, "%s%lld..%lld", i ? ", " : "; lost on the channel: ",
			fmt_round(m->gaps[i].first), fmt_round(m->gaps[i].last));
	}
	sb_adds(out, ". The guest's steps are shaded.</p>\n");
	if (m->nsamples_listed)
		svg_monitor(out, m);
	if (!m->have_peak)
		return;
	sb_adds(out, "<table class=\"peak\">\n<tr><th></th><th class=\"n\">steady after insmod</th>"
		"<th class=\"n\">during I/O</th></tr>\n");
	peak_row(out, "MemFree (lowest during I/O)", m->steady_memfree, m->io_memfree_min);
	peak_row(out, "LowFree (lowest)", m->steady_lowfree, m->io_lowfree_min);
	peak_row(out, "Slab (highest)", m->steady_slab, m->io_slab_max);
	sb_adds(out, "</table>\n");
	if (m->io_extra_kb.have) {
		sb_adds(out, "<p>The I/O peak took ");
		fmt_kb(out, m->io_extra_kb);
		sb_adds(out, " of MemFree beyond the steady state after insmod.</p>\n");
	}
}

static void td_latency(struct strbuf *out, struct num p50, struct num p99)
{
	sb_adds(out, "<td class=\"n\">");
	if (p50.have && p99.have)
		sb_addf(out, "%.1f / %.1f us", p50.v, p99.v);
	sb_adds(out, "</td>");
}

static void td_iops(struct strbuf *out, struct num v)
{
	sb_adds(out, "<td class=\"n\">");
	if (v.have)
		fmt_thousands_d(out, v.v);
	sb_adds(out, "</td>");
}

static void fio_section(struct strbuf *out, const struct report_model *m)
{
	if (!m->njobs)
		return;
	sb_adds(out, "<h2 id=\"fio\">fio</h2>\n<table class=\"fio\">\n<tr><th>group</th><th>job</th>"
		"<th class=\"n\">read IOPS</th><th class=\"n\">write IOPS</th>"
		"<th class=\"n\">read p50 / p99</th><th class=\"n\">write p50 / p99</th>"
		"<th class=\"n\">error</th></tr>\n");
	for (size_t i = 0; i < m->njobs; i++) {
		const struct report_fio_job *j = &m->jobs[i];
		sb_adds(out, "<tr><td>");
		html_escape(out, fmt_or(j->group, "?"));
		sb_adds(out, "</td><td>");
		html_escape(out, fmt_or(j->job, "?"));
		sb_adds(out, "</td>");
		td_iops(out, j->read_iops);
		td_iops(out, j->write_iops);
		td_latency(out, j->read_p50, j->read_p99);
		td_latency(out, j->write_p50, j->write_p99);
		sb_addf(out, "<td class=\"n%s\">%lld</td></tr>\n", j->error.v ? " fail" : "",
			fmt_round(j->error.v));
	}
	sb_adds(out, "</table>\n<p class=\"note\">Latencies are completion latencies; "
		"fio's own JSON for each group is in fio/ in the run directory.</p>\n");
}

static void checks_section(struct strbuf *out, const struct report_model *m)
{
	if (!m->nchecks)
		return;
	sb_adds(out, "<h2 id=\"checks\">Checks</h2>\n<table class=\"checks\">\n"
		"<tr><th>check</th><th>result</th><th>detail</th></tr>\n");
	for (size_t i = 0; i < m->nchecks; i++) {
		const struct report_check *c = &m->checks[i];
		sb_adds(out, "<tr><td>");
		html_escape(out, fmt_or(c->name, "?"));
		sb_addf(out, "</td><td class=\"%s\">%s</td><td>", c->pass ? "pass" : "fail",
			c->pass ? "pass" : "FAIL");
		html_escape(out, c->detail);
		sb_adds(out, "</td></tr>\n");
	}
	sb_adds(out, "</table>\n");
}

static void disk_row(struct strbuf *out, const char *what, const struct report_disk *d)
{
	sb_addf(out, "<tr><td>%s</td><td>", what);
	html_escape(out, fmt_or(d->name, "?"));
	sb_adds(out, "</td><td>");
	html_escape(out, fmt_or(d->dev, "?"));
	sb_adds(out, "</td></tr>\n");
}

static void disks_section(struct strbuf *out, const struct report_model *m)
{
	sb_adds(out, "<h2 id=\"disks\">Disks</h2>\n<table class=\"disks\">\n"
		"<tr><th>disk</th><th>name</th><th>dev_t</th></tr>\n");
	if (m->have_first)
		disk_row(out, "first scsi_debug", &m->first);
	if (m->have_last)
		disk_row(out, "last scsi_debug", &m->last);
	for (size_t i = 0; i < m->nvirtio; i++)
		disk_row(out, "virtio", &m->virtio[i]);
	sb_adds(out, "</table>\n");
}

static void rejections_section(struct strbuf *out, const struct report_model *m)
{
	if (!m->nrejections)
		return;
	sb_addf(out, "<h2 id=\"rejected\">Rejected channel records (%lld)</h2>\n<ul>\n",
		m->rejected.have ? fmt_round(m->rejected.v) : (long long)m->nrejections);
	for (size_t i = 0; i < m->nrejections; i++) {
		sb_adds(out, "<li><code>");
		html_escape(out, m->rejections[i]);
		sb_adds(out, "</code></li>\n");
	}
	sb_adds(out, "</ul>\n");
}

void html_run(const struct report_model *m, struct strbuf *out)
{
	page_begin(out, fmt_or(m->run_id, "scaletest run"), fmt_or(m->status, "?"));
	run_head(out, m);
	if (m->have_insmod)
		mem_table(out, m);
	sb_adds(out, "<h2 id=\"phases\">Memory by phase</h2>\n");
	if (m->nphases) {
		svg_phases(out, m->phases, m->nphases);
		phase_table(out, m);
	} else {
		sb_adds(out, "<p class=\"note\">No phase was measured.</p>\n");
	}
	slab_section(out, m);
	monitor_section(out, m);
	fio_section(out, m);
	checks_section(out, m);
	disks_section(out, m);
	rejections_section(out, m);
	page_end(out, m->tool, m->started, m->finished);
}

/* ---- a comparison ---- */

static void sides_row(struct strbuf *out, const char *what, const char *a, const char *b)
{
	sb_addf(out, "</tr>\n<tr><td>%s</td><td>", what);
	html_escape(out, fmt_or(a, "n/a"));
	sb_adds(out, "</td><td>");
	html_escape(out, fmt_or(b, "n/a"));
	sb_adds(out, "</td>");
}

static void sides_table(struct strbuf *out, const struct compare_model *m)
{
	const struct compare_side_model *sides[2] = { &m->a, &m->b };

	sb_adds(out, "<h2 id=\"sides\">The two sides</h2>\n<table class=\"sides\">\n"
		"<tr><th></th><th>A</th><th>B</th></tr>\n<tr><td>label</td>");
	for (int s = 0; s < 2; s++) {
		sb_adds(out, "<td><b>");
		html_escape(out, fmt_or(sides[s]->label, "n/a"));
		sb_adds(out, "</b></td>");
	}
	sides_row(out, "scenario", m->a.scenario, m->b.scenario);
	sides_row(out, "kernel", m->a.kernel, m->b.kernel);
	if (m->a.path || m->b.path)
		sides_row(out, "path", m->a.path, m->b.path);
	sb_adds(out, "</tr>\n<tr><td>runs</td>");
	for (int s = 0; s < 2; s++) {
		sb_adds(out, "<td>");
		if (sides[s]->n.have)
			sb_addf(out, "%lld", fmt_round(sides[s]->n.v));
		else
			sb_adds(out, "n/a");
		for (size_t i = 0; i < sides[s]->nruns; i++) {
			sb_adds(out, "<br><code>");
			html_escape(out, sides[s]->runs[i]);
			sb_adds(out, "</code>");
		}
		sb_adds(out, "</td>");
	}
	sb_adds(out, "</tr>\n</table>\n");
}

static void rule_line(struct strbuf *out, const struct compare_model *m)
{
	const char *test = fmt_or(m->rule_test, "?");

	sb_adds(out, "<p class=\"rule\"><b>Rule:</b> ");
	if (!strcmp(test, "welch"))
		sb_adds(out, "Welch&#39;s t-test");
	else
		html_escape(out, test);
	if (m->alpha.have)
		sb_addf(out, ", alpha %g", m->alpha.v);
	if (m->threshold_pct.have)
		sb_addf(out, ", threshold %g%%", m->threshold_pct.v);
	sb_adds(out, ". ");
	if (m->alpha.have && m->threshold_pct.have)
		sb_addf(out, "A change counts when it is at least %g%% of side A&#39;s mean and, "
			"with two runs or more on both sides, the test gives p &lt; %g; "
			"only gating metrics decide the verdict.", m->threshold_pct.v, m->alpha.v);
	sb_adds(out, "</p>\n");
}

static void kv_value(struct strbuf *out, const char *v)
{
	if (!v || !*v)
		sb_adds(out, "<i class=\"note\">(none)</i>");
	else
		html_escape(out, v);
}

static void mismatch_block(struct strbuf *out, const struct compare_model *m)
{
	if (!m->nmismatch)
		return;
	sb_adds(out, "<div class=\"warn\" id=\"mismatch\"><b>Warning: the two sides ran in "
		"different environments</b>, so their figures may not be comparable:\n<ul>\n");
	for (size_t i = 0; i < m->nmismatch; i++) {
		sb_adds(out, "<li><code>");
		html_escape(out, fmt_or(m->mismatch[i].key, "?"));
		sb_adds(out, "</code>: A ");
		kv_value(out, m->mismatch[i].a);
		sb_adds(out, ", B ");
		kv_value(out, m->mismatch[i].b);
		sb_adds(out, "</li>\n");
	}
	sb_adds(out, "</ul></div>\n");
}

static void differences_table(struct strbuf *out, const struct compare_model *m)
{
	if (!m->ndifferences)
		return;
	sb_adds(out, "<h2 id=\"differences\">What differs</h2>\n<table class=\"differences\">\n"
		"<tr><th>key</th><th>A</th><th>B</th></tr>\n");
	for (size_t i = 0; i < m->ndifferences; i++) {
		sb_adds(out, "<tr><td><code>");
		html_escape(out, fmt_or(m->differences[i].key, "?"));
		sb_adds(out, "</code></td><td>");
		kv_value(out, m->differences[i].a);
		sb_adds(out, "</td><td>");
		kv_value(out, m->differences[i].b);
		sb_adds(out, "</td></tr>\n");
	}
	sb_adds(out, "</table>\n");
}

/* "mean ± sd unit (n=3)" */
static void mean_sd(struct strbuf *out, const struct compare_stat *s, const char *unit)
{
	if (!s->mean.have) {
		sb_adds(out, "n/a");
		return;
	}
	fmt_value(out, s->mean.v);
	if (s->n.v > 1 && s->sd.have) {
		sb_adds(out, " \xc2\xb1 ");
		fmt_value(out, s->sd.v);
	}
	fmt_unit_html(out, unit);
	if (s->n.v > 0)
		sb_addf(out, " <span class=\"note\">(n=%lld)</span>", fmt_round(s->n.v));
}

static void metrics_table(struct strbuf *out, const struct compare_model *m)
{
	sb_adds(out, "<h2 id=\"metrics\">Metrics</h2>\n");
	if (!m->nmetrics) {
		sb_adds(out, "<p class=\"note\">No metric was compared.</p>\n");
		return;
	}
	sb_adds(out, "<table class=\"metrics\">\n<tr><th>metric</th><th class=\"n\">A mean \xc2\xb1 sd</th>"
		"<th class=\"n\">B mean \xc2\xb1 sd</th><th class=\"n\">change</th>"
		"<th class=\"n\">change %</th><th class=\"n\">p</th><th>verdict</th></tr>\n");
	for (size_t i = 0; i < m->nmetrics; i++) {
		const struct compare_metric *x = &m->metrics[i];
		const char *verdict = fmt_or(x->verdict, "n/a");

		sb_addf(out, "<tr class=\"%s\"><td>", fmt_verdict_class(verdict));
		html_escape(out, fmt_or(x->name, fmt_or(x->key, "?")));
		if (x->gating)
			sb_adds(out, " <span class=\"gating\">gating</span>");
		sb_adds(out, "</td><td class=\"n\">");
		mean_sd(out, &x->a, x->unit);
		sb_adds(out, "</td><td class=\"n\">");
		mean_sd(out, &x->b, x->unit);
		sb_adds(out, "</td><td class=\"n\">");
		if (x->change.have) {
			fmt_signed_value(out, x->change.v);
			fmt_unit_html(out, x->unit);
		} else {
			sb_adds(out, "n/a");
		}
		sb_adds(out, "</td><td class=\"n\">");
		if (x->change_pct.have)
			sb_addf(out, "%+.1f%%", x->change_pct.v);
		else
			sb_adds(out, "n/a");
		sb_adds(out, "</td><td class=\"n\">");
		if (x->p.have && x->p.v >= 0 && x->p.v < 0.001)
			sb_adds(out, "&lt; 0.001");
		else if (x->p.have && x->p.v >= 0)
			sb_addf(out, "%.3f", x->p.v);
		else
			sb_adds(out, "n/a");
		sb_addf(out, "</td><td class=\"v-%s\">", fmt_verdict_class(verdict));
		fmt_verdict_html(out, verdict);
		sb_adds(out, "</td></tr>\n");
	}
	sb_adds(out, "</table>\n<p class=\"note\">p is n/a when a side has fewer than two runs; "
		"then the threshold alone decides.</p>\n");
}

static void td_kb_or_na(struct strbuf *out, struct num v)
{
	sb_adds(out, "</td><td class=\"n\">");
	fmt_kb(out, v);
}

static void slab_changes(struct strbuf *out, const struct compare_model *m)
{
	struct svg_bar b[COMPARE_CHANGED_MAX];

	if (!m->nslab)
		return;
	sb_adds(out, "<h2 id=\"slab\">Slab caches that changed most</h2>\n");
	if (!m->nchanged) {
		sb_adds(out, "<p class=\"note\">No slab cache changed.</p>\n");
		return;
	}
	sb_adds(out, "<p class=\"note\">Each cache&#39;s growth at insmod, in kB (the mean of a side&#39;s runs), "
		"and B minus A: red where B takes more, green where it takes less.</p>\n");
	for (size_t i = 0; i < m->nchanged; i++) {
		b[i].label = fmt_or(m->changed[i].cache, "?");
		b[i].v = m->changed[i].change;
	}
	svg_hbars(out, "slab caches that changed most, B against A, kB", b, m->nchanged,
		  "#e15759", "#59a14f");
	sb_adds(out, "<table class=\"slab\">\n<tr><th>cache</th><th class=\"n\">A growth</th>"
		"<th class=\"n\">B growth</th><th class=\"n\">B minus A</th></tr>\n");
	for (size_t i = 0; i < m->nchanged; i++) {
		const struct compare_slab *c = &m->changed[i];
		sb_adds(out, "<tr><td>");
		html_escape(out, fmt_or(c->cache, "?"));
		td_kb_or_na(out, c->a_kb);
		td_kb_or_na(out, c->b_kb);
		sb_adds(out, "</td><td class=\"n\">");
		fmt_signed_kb(out, (struct num){ c->change, 1 });
		sb_adds(out, "</td></tr>\n");
	}
	sb_adds(out, "</table>\n");
}

void html_compare(const struct compare_model *m, struct strbuf *out)
{
	const char *verdict = fmt_or(m->verdict, "n/a");
	struct strbuf title = STRBUF_INIT;
	int charts = 0;

	sb_adds(&title, fmt_or(m->a.label, "A"));
	sb_adds(&title, " vs ");
	sb_adds(&title, fmt_or(m->b.label, "B"));
	page_begin(out, title.buf, verdict);
	sb_release(&title);

	sb_adds(out, "<h1>scaletest comparison: <span class=\"side\">");
	html_escape(out, fmt_or(m->a.label, "A"));
	sb_adds(out, "</span> against <span class=\"side\">");
	html_escape(out, fmt_or(m->b.label, "B"));
	sb_addf(out, "</span></h1>\n<p class=\"verdict v-%s\">Verdict: ", fmt_verdict_class(verdict));
	fmt_verdict_html(out, verdict);
	sb_adds(out, "</p>\n");
	mismatch_block(out, m);
	rule_line(out, m);
	sides_table(out, m);
	differences_table(out, m);
	metrics_table(out, m);
	for (size_t i = 0; i < m->nmetrics; i++) {
		const struct compare_metric *x = &m->metrics[i];
		if (!x->gating || (!x->a.mean.have && !x->b.mean.have))
			continue;
		if (!charts++)
			sb_adds(out, "<h2 id=\"gating\">Gating metrics</h2>\n<div class=\"charts\">\n");
		svg_metric(out, x, fmt_or(m->a.label, "a"), fmt_or(m->b.label, "b"));
	}
	if (charts)
		sb_adds(out, "</div>\n");
	slab_changes(out, m);
	page_end(out, NULL, NULL, NULL);
}
