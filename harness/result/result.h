/*
 * result: result.json, the one record of a run that every report is
 * derived from.  The schema is documented in the README ("result.json").
 *
 * Writing (build.c assembles it): a tree started by result_new() and filled
 * with the helpers below, written atomically with result_save().  Reading
 * (reports, compare): result_load() checks the schema version and the type
 * of each container (a "phases" that is not an array is an error naming
 * it) and hands back the tree.
 *
 *	json_object *root = result_new();
 *	json_object_object_add(phase, "meminfo", result_meminfo(&meminfo));
 *	result_save(root, "results/x/result.json");
 *	json_object_put(root);
 *
 *	json_object *r;
 *	if (result_load("results/x", &r, &err) < 0) ...
 */
#ifndef SCALETEST_RESULT_H
#define SCALETEST_RESULT_H

#include <json.h>

#include "record/meminfo.h"
#include "scenario/scenario.h"
#include "record/slabinfo.h"
#include "lib/strbuf.h"

#define RESULT_SCHEMA 1

json_object *result_new(void);
/* Writes root (pretty, atomically) after json_clean_strings(root). */
int result_save(json_object *root, const char *path);
/* Every string and key of o's tree made valid UTF-8 without control
 * characters, noncharacters or bidi controls (sb_add_clean; newlines and
 * tabs kept in values), in place. */
void json_clean_strings(json_object *o);
/* dir is a run directory; checks the schema version. */
int result_load(const char *dir, json_object **root, struct strbuf *err);
/* Any JSON file whose top level is an object (host.json, a comparison), of
 * at most JSON_MAX_BYTES (a 65,536-disk run's result.json is a few MB). */
#define JSON_MAX_BYTES ((size_t)256 << 20)
int json_load_object(const char *path, json_object **root, struct strbuf *err);

json_object *result_settings(const struct scenario *s);
json_object *result_meminfo(const struct meminfo *m);
/* {"total_kb": n, "caches": {name: {...}}} with page_size for bytes. */
json_object *result_slab(const struct slabinfo *si, long page_size);
/* A number with two decimals ("12.35"; all of a double's digits from 1e15
 * on, so a large value is never cut short); NULL (null) if not finite. */
json_object *json_seconds(double s);
/* A double with a fixed number of decimals ("0.998213" for 6), so that a
 * replay gives the same bytes; no "-0.000"; NULL if not finite. */
json_object *json_fixed(double v, int decimals);
/* The phase object called name in root's "phases", or NULL. */
json_object *result_phase(json_object *root, const char *name);
/* Whether the run's kernel has HIGHMEM (LowFree): kernel.highmem, else
 * whether before-insmod has a numeric LowFree. */
int result_highmem(json_object *root);

/* Accessors that tolerate missing keys: NULL / def. */
json_object *jget(json_object *o, const char *path);	/* "a.b.c" */
/* The value at path if it is an array, else NULL; and the length of any
 * value as an array (0 for NULL or anything else): json-c asserts on
 * json_object_array_length() of a non-array. */
json_object *jarray(json_object *o, const char *path);
size_t jlen(json_object *a);
/* A number at path, else def; NaN, an infinity (and for jint a double
 * past int64) counts as none. */
long long jint(json_object *o, const char *path, long long def);
double jdouble(json_object *o, const char *path, double def);
const char *jstr(json_object *o, const char *path, const char *def);

#endif
