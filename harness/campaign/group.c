// SPDX-License-Identifier: Apache-2.0
#include "campaign/group.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare/compare.h"
#include "lib/child.h"
#include "result/result.h"
#include "lib/stats.h"
#include "run/fanout.h"
#include "lib/util.h"
#include "run/rundir.h"

/* Status severity, for "the worst status of the group". */
static int severity(enum run_status st)
{
	static const int order[] = {
		[RUN_PASS] = 0, [RUN_FAIL] = 1, [RUN_TIMEOUT] = 2, [RUN_CRASH] = 3,
		[RUN_OOM] = 4, [RUN_ERROR] = 5, [RUN_INTERRUPTED] = 6,
	};
	return order[st];
}

static void print_spread(const struct side *g)
{
	static const char *const keys[][2] = {
		{ "deltas.insmod.per_disk_bytes.LowFree", "LowFree per disk" },
		{ "deltas.insmod.per_disk_bytes.MemFree", "MemFree per disk" },
		{ "timings.enumerate_s", "enumeration (s)" },
	};

	for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
		double *v = xcalloc(g->n, sizeof(*v));
		size_t n = 0;
		struct stats st;

		for (size_t i = 0; i < g->n; i++)
			if (jget(g->roots[i], keys[k][0]))
				v[n++] = jdouble(g->roots[i], keys[k][0], 0);
		if (n) {
			stats_of(v, n, &st);
			printf("  %-18s mean %.6g, sd %.3g (%.2f%% of the mean), n=%zu\n",
			       keys[k][1], st.mean, st.sd,
			       st.mean ? 100 * st.sd / st.mean : 0, n);
		}
		free(v);
	}
}

/* The runs spread over rc->fanout's connections (run/fanout.h), each a
 * child harness; group.json also gets where each ran ("placements"). */
static enum run_status fan_out(const struct scenario *s, const struct run_config *rc,
			       int repeat, const char *gdir, json_object *g,
			       json_object *runs, json_object *sts, int *err)
{
	struct fanout_job *jobs = xcalloc((size_t)repeat, sizeof(*jobs));
	json_object *placements = json_object_new_array(), *conns = json_object_new_array();
	enum run_status worst = RUN_PASS;

	for (int i = 0; i < repeat; i++) {
		jobs[i].scenario = s->file;
		jobs[i].sets = rc->sets;
	}
	if (!s->file || fanout_run(rc->fanout, jobs, (size_t)repeat, gdir, placements) < 0) {
		worst = RUN_ERROR;
		*err = error("cannot fan the runs out");
	}
	for (int i = 0; worst != RUN_ERROR && i < repeat; i++) {
		if (jobs[i].dir)
			json_object_array_add(runs, json_object_new_string(path_basename(jobs[i].dir)));
		json_object_array_add(sts, json_object_new_string(run_status_name(jobs[i].status)));
		if (severity(jobs[i].status) > severity(worst))
			worst = jobs[i].status;
		*err = err_worse(*err, jobs[i].err);
	}
	for (size_t c = 0; c < rc->fanout->n; c++) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "uri", json_object_new_string(rc->fanout->c[c].uri));
		json_object_object_add(o, "slots", json_object_new_int(rc->fanout->c[c].slots));
		json_object_array_add(conns, o);
	}
	json_object_object_add(g, "connections", conns);
	json_object_object_add(g, "placements", placements);
	fanout_jobs_release(jobs, (size_t)repeat);
	free(jobs);
	return worst;
}

enum run_status group_execute(const struct scenario *s, const struct run_config *rc,
			      int repeat, char **dir, int *err)
{
	char stamp[32];
	char *gdir = NULL, *id = NULL;
	struct run_config sub = *rc;
	json_object *g = json_object_new_object(), *runs = json_object_new_array();
	json_object *sts = json_object_new_array();
	enum run_status worst = RUN_PASS;

	*dir = NULL;
	*err = 0;
	if (mkdir_p(rc->out, 0755) < 0) {
		json_object_put(g);
		json_object_put(runs);
		json_object_put(sts);
		*err = ERR_ENV;	/* the results directory (said) */
		return RUN_ERROR;
	}
	timestamp_id(stamp, sizeof(stamp));
	for (int i = 1; i < 1000 && !gdir; i++) {
		free(id);
		id = i == 1 ? xstrfmt("%s-%s-x%d", stamp, s->name, repeat)
			    : xstrfmt("%s-%s-x%d-%d", stamp, s->name, repeat, i);
		char *p = xstrfmt("%s/%s", rc->out, id);
		if (mkdir(p, 0755) == 0)
			gdir = p;
		else
			free(p);
	}
	if (!gdir) {
		*err = error("cannot create a group directory in '%s'", rc->out);
		free(id);
		json_object_put(g);
		json_object_put(runs);
		json_object_put(sts);
		return RUN_ERROR;
	}
	sub.out = gdir;
	sub.no_latest = 1;	/* the group's runs: <out>/latest is the group's */
	if (rc->fanout && rc->fanout->n) {
		worst = fan_out(s, rc, repeat, gdir, g, runs, sts, err);
		goto summary;
	}
	for (int i = 1; i <= repeat; i++) {
		char *rd = NULL;
		enum run_status st;
		int e;

		note("run %d of %d", i, repeat);
		st = run_execute(s, &sub, &rd, &e);
		*err = err_worse(*err, e);
		if (rd)
			json_object_array_add(runs, json_object_new_string(path_basename(rd)));
		json_object_array_add(sts, json_object_new_string(run_status_name(st)));
		if (severity(st) > severity(worst))
			worst = st;
		free(rd);
		if (st == RUN_INTERRUPTED || child_interrupted())
			break;
	}
summary:
	json_object_object_add(g, "scenario", json_object_new_string(s->name));
	json_object_object_add(g, "repeat", json_object_new_int(repeat));
	json_object_object_add(g, "runs", runs);
	json_object_object_add(g, "statuses", sts);
	json_object_object_add(g, "status", json_object_new_string(run_status_name(worst)));
	char *gj = xstrfmt("%s/group.json", gdir);
	json_save(g, gj);
	free(gj);
	json_object_put(g);

	if (worst == RUN_PASS) {
		struct side side;
		struct strbuf why = STRBUF_INIT;

		if (side_load(&side, gdir, &why) == 0) {
			printf_clean("group %s: %d runs, all passed\n", gdir, repeat);
			print_spread(&side);
		}
		side_release(&side);
		sb_release(&why);
		rundir_link_latest(rc->out, id);
	} else {
		printf_clean("group %s: %s\n", gdir, run_status_name(worst));
	}
	free(id);
	*dir = gdir;
	return worst;
}
