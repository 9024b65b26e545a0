/* SPDX-License-Identifier: Apache-2.0 */
/*
 * result: result.json, the one record of a run that every report is
 * derived from.  The schema is documented in docs/result-json.md.
 *
 * Writing (build.c assembles it): a tree started by result_new() and filled
 * with the helpers below, written atomically with result_save().  Reading
 * (reports, compare): result_load() checks the schema version and the type
 * of each container (a "phases" that is not an array is an error naming
 * it) and hands back the tree.
 *
 *	json_object *root = result_new();
 *	json_object_object_add(phase, "meminfo", meminfo_json(&meminfo));
 *	result_save(root, "results/x/result.json");
 *	json_object_put(root);
 *
 *	json_object *r;
 *	if (result_load("results/x", &r, &err) < 0) ...
 */
#ifndef SCALETEST_RESULT_H
#define SCALETEST_RESULT_H

#include <json.h>

#include "lib/json.h"
#include "lib/strbuf.h"
#include "scenario/scenario.h"

#define RESULT_SCHEMA 1

json_object *result_new(void);
/* result.json written as every document is (lib/json.h, json_save). */
int result_save(json_object *root, const char *path);
/* dir is a run directory; checks the schema version. */
int result_load(const char *dir, json_object **root, struct strbuf *err);

/* Every key's value, as settings holds them: a disk class's own keys
 * (scenario_key.cls) only in a run of that class. */
json_object *result_settings(const struct scenario *s);
/* The phase object called name in root's "phases", or NULL. */
json_object *result_phase(json_object *root, const char *name);
/* Whether the run's kernel has HIGHMEM (LowFree): kernel.highmem, else
 * whether before-insmod has a numeric LowFree. */
int result_highmem(json_object *root);

/*
 * Free memory counts the free pages on the per-CPU lists as free
 * (record/zoneinfo.h: MemFree, LowFree and MemAvailable leave them out).
 * result_pcp_key(): the zoneinfo (and deltas) key of the lists a free
 * measure leaves out: "pcp_low_kb" for LowFree, "pcp_kb" for MemFree and
 * MemAvailable, NULL for any other field.  result_free_change(): a
 * deltas object's FIELD_kb plus that key's change (0 where the run has no
 * zoneinfo); dflt when FIELD_kb is absent.
 */
const char *result_pcp_key(const char *field);
long long result_free_change(json_object *delta, const char *field, long long dflt);

#endif
