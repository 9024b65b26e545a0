/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model: what a report says, read once from its JSON; the writers (text.h,
 * markdown.h and html.h through document.h, junit.h, with svg.h for the
 * plots) only format and escape it.
 *
 * Four documents have a model, each read in its own file (model_run.c,
 * model_compare.c, model_nightly.c, model_bisect.c; model_read.h is how
 * they read JSON):
 *
 *	struct report_model m;			// a run, from result.json
 *	report_model_from_json(root, &m);
 *	text_run(&m, &sb); markdown_run(&m, &sb); html_run(&m, &sb); junit_run(&m, &sb);
 *	report_model_release(&m);
 *
 *	struct compare_model c;			// a comparison, from its JSON
 *	compare_model_from_json(cmp, &c);	// (compare.h's compare_sides)
 *	markdown_compare(&c, &sb); html_compare(&c, &sb); junit_compare(&c, &sb);
 *	compare_model_release(&c);
 *
 *	struct nightly_model n;			// a night, from summary.json
 *	nightly_model_from_json(sum, night_dir, &n);
 *	markdown_nightly(&n, &sb); junit_nightly(&n, &sb);
 *	nightly_model_release(&n);
 *
 *	struct bisect_model b;			// a bisect, from bisect.json
 *	bisect_model_from_json(doc, &b);
 *	document_bisect(&markdown_markup, &b, &sb);	// bisect.h
 *	bisect_model_release(&b);
 *
 * Building a model never fails: a field that is missing, null or of the
 * wrong type is left out (a struct num with have = 0, a NULL string, an
 * empty list), so a damaged or hostile file still makes a whole report.
 * Strings point into the JSON tree, which the model holds a reference to
 * until it is released (a cleaned copy when the tree has a string or key
 * that is not valid UTF-8 or holds a control character other than
 * newline and tab); every writer escapes them for its format.
 *
 * The figures are result.json's own: the per-disk costs are analysis.c's
 * deltas.insmod.per_disk_bytes, the slab growth its slab_growth, never
 * worked out again here.  (SUnreclaim, which the analysis does not divide
 * per disk, is the one per-disk figure the model derives, from its delta
 * and settings.disks, the same way.)  What the model does add is
 * grouping: fio's jobs summed per group, a comparison's changed slab
 * caches in order of size.
 */
#ifndef SCALETEST_REPORT_MODEL_H
#define SCALETEST_REPORT_MODEL_H

#include <json.h>
#include <stddef.h>

#include "report/format.h"
#include "result/curve.h"

struct report_disk {
	const char *name, *dev;
};

/* A row of "memory at insmod": before, after, change in kB, per disk in
 * bytes (a cost is positive). */
struct report_mem_row {
	const char *field;		/* LowFree, MemFree, MemAvailable, Slab, SUnreclaim,
					 * or the per-CPU lists' free pages */
	int headline;			/* LowFree on HIGHMEM kernels, else MemFree */
	struct num before, after, change, per_disk;
};

struct report_phase {
	const char *name;
	struct num uptime_s;
	struct num mem[4];		/* LowFree, MemFree, MemAvailable, Slab (kB) */
};
enum { PHASE_LOWFREE, PHASE_MEMFREE, PHASE_MEMAVAILABLE, PHASE_SLAB };

struct report_slab {
	const char *cache;
	struct num kb, objs, bytes_per_disk;
};

/* A monitor sample: guest uptime, sample number, step, and MemFree,
 * LowFree and slab in kB (NAN when missing). */
struct report_sample {
	double t, n;
	double v[3];
	const char *step;
};

struct report_gap {
	double first, last;		/* sample numbers lost */
};

struct report_fio_job {
	const char *group, *job;
	int has_read, has_write;	/* the direction is there at all */
	struct num read_iops, write_iops, error;
	struct num read_p50, read_p99, write_p50, write_p99;	/* us */
};

/* fio's jobs by group: jobs, errors, IOPS summed (reads and writes), the
 * worst p99 completion latency of any job (us). */
struct report_fio_group {
	const char *name;
	long jobs, errors;
	double iops, p99;
};

/* A sweep's step (result.json sweep.points): its count, the memory it
 * took against before-insmod (kB), its enumeration. */
struct report_sweep_point {
	struct num disks, memfree_kb, lowfree_kb, slab_kb, unaccounted_kb;
	struct num enumerate_s, rate;
};

/* A fitted line (sweep.fit.FIGURE): per disk (bytes, or ms for the
 * enumeration) with its standard error, the fixed part (kB, or s), R^2,
 * the quadratic term's p and the nonlinear flag. */
struct report_sweep_fit {
	const char *figure;
	int have, nonlinear;
	struct num points, per_disk, per_disk_se, fixed, r2, p;
};
/* A call site of result.json's attribution: which source (page_alloc,
 * kmalloc, kmem_cache...), its bytes per disk and share of the MemFree drop. */
struct report_site {
	const char *source, *site;
	struct num bytes, per_disk, share_pct;
	struct num lowfree_share_pct;	/* HIGHMEM: of the LowFree drop */
};
/* A call site's bytes fitted against the disk count over a sweep's steps
 * (attribution.step_fit): bytes per disk, R^2 (absent with two points),
 * the number of steps. */
struct report_step_fit {
	const char *site;
	struct num per_disk, r2, points;
};
/* A call site of result.json's time_attribution (a phase's sites): its
 * class (command, kthread, harness, none) and the comm of its task, its
 * seconds on the CPU and waiting, per disk and share of the phase. */
struct report_ta_site {
	const char *site, *cls, *comm;
	struct num s, on_cpu_s, wait_s, ms_per_disk, share_pct;
};
/* A whole stack of a phase (the flame graph): "class;outer;...;inner". */
struct report_ta_stack {
	const char *stack;
	double on, wait;
};
/* A phase of time_attribution (insmod, rmmod, the sweep; steps are
 * counted, not listed): its figures, its top sites and stacks. */
struct report_ta_phase {
	const char *phase;
	int complete, closes;
	struct num disks, wall_s, samples, interval_s, cost_pct;
	struct num on_cpu_s, wait_s, idle_s, command_cpu_s, command_sampled_cpu_s;
	struct num attributed_s, closure_pct;
	struct report_ta_site *sites;
	size_t nsites;
	struct report_ta_stack *stacks;
	size_t nstacks;
};
#define REPORT_TA_SITES 10
/* A sweep's site whose time per disk changes with the count
 * (time_attribution.growth): ms per disk at the first and the last rising
 * step, their ratio, its share and the fit's slope and shape. */
struct report_ta_growth {
	const char *site, *cls;
	struct num first, last, growth, share_pct, per_disk, marginal_last;
	int nonlinear;
};
/* A curve of seconds against disks (time_curves.insmod, .rmmod; the
 * sweep's enumeration and removal fits): per disk (ms), fixed (s), R²,
 * the quadratic test, the marginal cost at the first and the last disk;
 * and, for the plots, its points (result/curve.h reads them): the disks
 * present against the seconds since the phase began, and the ms per disk
 * made or removed along it against the disks present at each stretch's
 * end.  first_disks and last_disks: the disks present where the fit's
 * first and last marginal costs are (rmmod's first is all of them). */
struct report_time_curve {
	const char *what;
	int have, nonlinear;
	struct num disks, wall_s, per_disk, per_disk_se, fixed, r2, p;
	struct num marginal_first, marginal_last;
	double first_disks, last_disks;
	struct curve_point *pts;
	size_t npts;
	struct curve_rate *rate;
	size_t nrate;
};
/* Sites shown per source: page allocations, then each slab source. */
#define REPORT_SITES_PAGES 10
#define REPORT_SITES_SLAB 5

struct report_check {
	const char *name, *detail;
	int pass;
};

/* result.json's findings: kernel reports that did not end the run. */
struct report_finding {
	const char *cls, *blame, *title, *context;
	struct num line;
};

struct report_count {
	const char *name;
	long long count;
};

/* A headline figure for JUnit: its result.json path and its JSON text
 * ("" when missing). */
struct report_prop {
	const char *name, *value;
};

struct report_model {
	json_object *root;

	const char *run_id, *status, *reason;
	const char *scenario, *description;	/* description: NULL when empty */
	/* scenario.overrides: the --set assignments the run was made with, on
	 * top of its scenario file (an entry that is not text is NULL) */
	const char **overrides;
	size_t noverrides;
	const char *tool, *started, *finished;
	const char *hostname;		/* the host that ran it, or NULL */
	const char *kernel_version, *kernel_arch, *kernel_source;
	const char *kernel_package, *kernel_package_version;
	/* kernel.build, for a kernel built from source (NULL source tree
	 * otherwise): "debian:PKG=VER", "TREE@COMMIT" or a path, the
	 * config base, the patches and config fragments applied (an entry
	 * that is not text is NULL) */
	const char *build_source_tree, *build_config_base;
	const char **build_patches, **build_fragments;
	size_t nbuild_patches, nbuild_fragments;
	/* kernel.build.patchset_hash (KCIDB's: "" without patches) and
	 * git_url (where the tree's commit can be fetched), or NULL */
	const char *build_patchset_hash, *build_git_url;
	const char *accel, *accel_reason, *qemu_version;
	struct num memory_mb, cpus;
	const char *console_crash, *console_oom;
	/* result.json's crash: NULL class when the console held no report. */
	const char *crash_class, *crash_blame, *crash_title, *crash_context;
	struct num crash_line;		/* console.log line of its first line */
	struct report_finding *findings;
	size_t nfindings;

	struct num disks_present, disks_requested, virtio_present, virtio_requested;
	const char *virtio_bus;
	/* The disk class (disks.class; none: scsi_debug) and the words for its
	 * devices and their making: "scsi_debug disks", "scsi_debug disk",
	 * "insmod scsi_debug" (scenario/diskclass.h; the name holds only
	 * letters, digits, "_" and "-";
	 * a class this build does not know: "NAME devices"). */
	const char *disk_class;
	char class_name[32], class_devices[80], class_device[80], class_making[80];
	char class_unit[80];		/* what a sweep adds: "scsi_debug hosts" */
	int have_first, have_last;
	struct report_disk first, last;
	struct report_disk *virtio;
	size_t nvirtio;

	struct num enumerate_s, boot_s, inventory_s, rmmod_s, total_s, setup_s;
	const char *rmmod_rcu;		/* guest.rmmod_rcu_expedited: on, unavailable, or NULL */

	int highmem;
	int have_insmod;		/* before-insmod and after-insmod measured */
	struct report_mem_row mem[6];
	size_t nmem;
	int pcp_counted;		/* the per-disk free figures count the per-CPU
					 * lists' free pages (record/zoneinfo.h) */
	struct num unaccounted_kb, lowmem_unaccounted_kb;
	struct num returned_pct, rmmod_memfree_kb;

	struct report_phase *phases;
	size_t nphases;
	struct report_slab *slab;	/* slab_growth, largest first */
	size_t nslab;

	int have_monitor, have_peak;
	struct num received, interval_ms;
	size_t nsamples_listed;		/* entries of monitor.samples */
	struct report_sample *samples;	/* those with a time */
	size_t nsamples;
	struct report_gap *gaps;
	size_t ngaps;
	struct num steady_memfree, steady_lowfree, steady_slab;
	struct num io_memfree_min, io_lowfree_min, io_slab_max, io_extra_kb;

	struct report_fio_job *jobs;
	size_t njobs;
	struct report_fio_group groups[8];
	size_t ngroups;

	int have_inventory;
	struct num inventory_devices;
	struct report_count *schedulers;
	size_t nschedulers;

	int have_sweep, sweep_complete;
	struct num sweep_steps, host_disks;
	struct report_sweep_point *sweep;
	size_t nsweep;
	struct report_sweep_fit sweep_fit[5];	/* MemFree, LowFree, Slab, unaccounted, enumerate */
	struct report_sweep_fit sweep_down[4];	/* the falling steps: the memory figures */
	int have_knee, knee_reached;	/* sweep.knee */
	const char *knee_field;
	struct num knee_max, knee_free, knee_floor, knee_per_disk;
	/* attribution: status NULL when result.json has none; the top sites of
	 * page_alloc, page_owner, then of kmalloc, kmalloc_node, kmem_cache(_node) */
	const char *attr_status, *attr_reason;
	struct report_site *sites;
	size_t nsites;
	struct num attr_drop, attr_net, attr_explained_pct, attr_tolerance_pct;
	struct num attr_unexplained, attr_unexplained_per_disk, attr_disks;
	int attr_closes;		/* 1, 0, or -1 when not worked out */
	/* attribution.sources.page_owner: status NULL when absent; its sites
	 * are among sites (source "page_owner") */
	const char *po_status, *po_reason;
	struct num po_net, po_net_per_disk, po_net_share_pct;
	/* attribution.step_fit (a sweep), in its order; steps_read_s */
	struct report_step_fit *step_fit;
	size_t nstep_fit;
	struct num attr_steps_read_s;
	/* time_attribution: status NULL when result.json has none */
	const char *ta_status, *ta_reason, *ta_preempt, *ta_growing;
	struct num ta_cost_pct, ta_max_cpu_pct, ta_tolerance_pct;
	struct report_ta_phase *ta_phases;
	size_t nta_phases, ta_steps;
	struct report_ta_growth *ta_growth;
	size_t nta_growth;
	struct report_ta_growth *ta_growth_fn;	/* growth.functions: site is the function */
	size_t nta_growth_fn;
	const char *ta_growing_fn;
	/* time_curves, and the sweep's enumeration and removal fits */
	struct report_time_curve curves[4];
	size_t ncurves;

	struct report_check *checks;
	size_t nchecks;
	const char **rejections;	/* NULL for an entry that is not text */
	size_t nrejections;
	struct num rejected;

	struct report_prop props[16];
	size_t nprops;
};

void report_model_from_json(json_object *root, struct report_model *m);
void report_model_release(struct report_model *m);

/* ---- a comparison ---- */

/* A side: the first is the base.  Its memory by phase (mem[] of
 * MemFree, LowFree and Slab: the mean of its runs, kB) and its first
 * run's monitor samples during insmod (t counted from the first; v[]
 * MemFree, LowFree, slab) are for the page's overlays.  verdict: a side
 * after the base, against it. */
/* One range of disks of a side's insmod curve: from, to (the disks
 * present), the milliseconds per disk it took (mean, sd over the runs). */
struct compare_curve_bin {
	struct num from, to, ms, sd, n;
};

struct compare_side_model {
	const char *label, *path, *scenario, *kernel, *verdict;
	const char *disk_class;	/* NULL: scsi_debug (scenario/diskclass.h) */
	struct num n;
	int highmem;
	const char **runs;		/* NULL for an entry that is not text */
	size_t nruns;
	struct report_phase *phases;
	size_t nphases;
	const char *monitor_run;
	struct report_sample *samples;
	size_t nsamples;
	/* compare --series: the time per disk against the disks present (the
	 * mean of the runs' insmod, range by range), and the first run's
	 * reproduce.sh */
	struct compare_curve_bin *bins;
	size_t nbins;
	const char *reproduce;
	/* its first run's enumeration (compare.json's time_curve, result/curve.h):
	 * the disks present against the seconds since insmod began ("insmod"),
	 * or a sweep's rising steps ("sweep"), and the ms per disk along it */
	const char *curve_run, *curve_what;
	struct curve_point *curve;
	size_t ncurve;
	struct curve_rate *curve_rate;
	size_t ncurve_rate;
};

/* A key whose value differs between the sides: one value a side, as
 * text, NULL when missing. */
struct compare_kv {
	const char *key;
	const char **values;
};

/* A metric on one side; a side after the base also has the change from
 * the base's mean, its p and the verdict. */
struct compare_stat {
	struct num mean, sd, n;
	struct num se;			/* a sweep's fit: the slope's standard error */
	const char *mean_text;		/* mean as the JSON has it, or NULL */
	double *values;			/* every run's value */
	size_t nvalues;
	struct num change, change_pct, p;
	const char *change_pct_text, *p_text, *verdict;
};

/* verdict: the worst of its sides' ("regression" and "improvement" on a
 * gating metric, "worse" and "better" on the others, "no change", "n/a"). */
struct compare_metric {
	const char *name, *key, *unit, *verdict;
	int gating;
	struct compare_stat *sides;	/* one per side of the model */
};

struct compare_slab {
	const char *cache;
	struct num *kb;			/* growth at insmod per side */
	struct num *change;		/* per side, from the base (none for it) */
	double most;			/* the largest |change| */
};

/*
 * A comparison of nsides sides, the first the base.  Schema 1 files (two
 * sides as "a" and "b", as older harnesses wrote them) are read as two
 * sides.
 */
struct compare_model {
	json_object *cmp;
	const char *verdict;
	int series;			/* compare --series: a kernel series */
	const char *command;		/* compare --series: the command that made it */
	struct compare_side_model *sides;
	size_t nsides;
	const char *rule_test;
	struct num alpha, threshold_pct;
	struct compare_kv *mismatch, *differences;
	size_t nmismatch, ndifferences;
	struct compare_metric *metrics;
	size_t nmetrics;
	struct compare_slab *slab;	/* as the comparison lists them */
	size_t nslab;
	struct compare_slab *changed;	/* those that changed, largest change
					 * first, at most COMPARE_CHANGED_MAX */
	size_t nchanged;
	struct compare_site *sites;	/* page_alloc's (attribution) */
	size_t nsites;
	struct compare_site *po_sites;	/* page_owner's (attribution_page_owner) */
	size_t npo_sites;
	struct compare_site *time_sites;	/* time_attribution's, phase by phase (ms per disk) */
	size_t ntime_sites;
};
#define COMPARE_CHANGED_MAX 15

/* A page-allocation call site (result.json's attribution): its bytes per
 * disk per side (missing for a side without attribution) and the change
 * from the base, as the comparison lists them (largest change first). */
struct compare_site {
	const char *phase;		/* time_attribution's: insmod, rmmod, sweep; else NULL */
	const char *site;
	struct num *per_disk, *change;
};

void compare_model_from_json(json_object *cmp, struct compare_model *m);
void compare_model_release(struct compare_model *m);

/* ---- a night (campaign/nightly.h writes summary.json) ---- */

struct nightly_row {
	const char *scenario, *status, *reason, *run, *baseline, *verdict;
	const char *accel, *qemu;		/* the runner, as the baselines' key has it */
	int without_baseline;		/* passed, but no baseline on this runner */
	const char *per_disk_field;	/* LowFree or MemFree, or NULL */
	struct num per_disk;
	int have_run, have_compare;
	struct report_model run_model;	/* the run's result.json */
	struct compare_model compare;	/* the run's compare.json */
};

struct nightly_model {
	json_object *summary;
	const char *stamp;
	struct num scenarios, failed, regressed, without_baseline, recorded, seconds;
	struct nightly_row *rows;
	size_t nrows;
};

/* With night_dir, each row's run is read from night_dir/<basename of its
 * run>/ (result.json, and compare.json when there is one): a night's runs
 * live in its directory, wherever it has been moved since. */
void nightly_model_from_json(json_object *summary, const char *night_dir,
			     struct nightly_model *m);
void nightly_model_release(struct nightly_model *m);


/* ---- a bisect (campaign/bisect.h writes bisect.json) ---- */

/* A commit tested: its role (good, bad, probe...), commit, subject,
 * figure (mean of its runs), verdict and why, build and run seconds. */
struct bisect_step {
	const char *role, *commit, *subject, *verdict, *why;
	struct num mean, build_s, run_s;
	size_t runs;
};

/* The outcome, the first bad commit (have_first_bad: bisect.json has
 * one) or the candidates, the criterion and range, and the steps. */
struct bisect_model {
	json_object *root;
	const char *outcome, *why;
	int have_first_bad;
	const char *first_bad_commit, *first_bad_subject;
	const char *criterion, *unit, *good_rev, *bad_rev, *source, *scenario;
	struct num commits, steps_between, bound;
	const char **candidates;	/* the JSON's text of each entry */
	size_t ncandidates;
	struct bisect_step *steps;
	size_t nsteps;
};

void bisect_model_from_json(json_object *bisect, struct bisect_model *m);
void bisect_model_release(struct bisect_model *m);

#endif
