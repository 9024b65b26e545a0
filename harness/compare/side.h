/* SPDX-License-Identifier: Apache-2.0 */
/*
 * side: one side of a comparison, loaded and checked; compare.h compares
 * sides and nothing here knows of metrics or verdicts.
 *
 * A side is a run directory (holding result.json), a group directory made
 * by "run --repeat N" (holding run directories), or a baseline directory
 * (baseline.h).  Every run on a side must be complete, passed, and of this
 * schema; the runs of one side must agree on the environment keys
 * (compare_env_keys).  A group holds at most SIDE_MAX_RUNS runs, and of
 * its runs after the first the monitor samples are dropped as they load
 * (compare reads the first's only).  A side is labelled by what it is
 * (side_load): a run by its run id, a group by its directory's name, a
 * baseline as "baseline <directory>".
 *
 *	struct side s[3];
 *	side_load(&s[0], "results/x", &err);		// -1: err says why
 *	...
 *	const struct side *v[3] = { &s[0], &s[1], &s[2] };
 *	json_object *mm;
 *	if (side_mismatch(v, 3, allow, &mm, &err) < 0)	// environments differ:
 *		...					// err names each key
 *	json_object *d = side_key_diffs(v, 3, compare_subject_keys);
 *	char **l = side_labels(v, 3, series);		// unique; free each, then l
 *	...
 *	side_release(&s[0]); ...
 *
 * Sides compared together are labelled by side_labels: their own labels,
 * where two share one each gets its number ("#1", "#2"); for a kernel
 * series each is named by its kernel instead.
 */
#ifndef SCALETEST_SIDE_H
#define SCALETEST_SIDE_H

#include <json.h>

#include "lib/strbuf.h"
#include "lib/strvec.h"

/* The most runs one side holds: a group is made by run --repeat N, N at
 * most this; a directory of more is refused, not loaded (each run is a
 * parsed result.json: 10,000 of them took 14.7 GB). */
#define SIDE_MAX_RUNS 100

struct side {
	char *path;
	char *label;
	struct strvec runs;	/* run directories */
	json_object **roots;	/* their result.json */
	size_t n;
};

int side_load(struct side *s, const char *path, struct strbuf *err);
void side_release(struct side *s);

/* The keys that make figures comparable (environment), and the ones that
 * are the subject of a comparison (shown, never refused). */
extern const char *const compare_env_keys[];
extern const char *const compare_subject_keys[];
/* The value of a key in a result as text ("" if absent); arrays joined. */
void compare_key_value(json_object *root, const char *key, struct strbuf *out);

/* The keys of KEYS whose value (in each side's first run) differs between
 * a side and the first: [{"key", "values": [one per side]}]. */
json_object *side_key_diffs(const struct side *const *s, size_t n, const char *const *keys);
/* The environment keys that differ (side_key_diffs of compare_env_keys)
 * in *mm; -1 (*mm NULL, err naming each key) when any does and !allow. */
int side_mismatch(const struct side *const *s, size_t n, int allow, json_object **mm,
		  struct strbuf *err);
/* The sides' labels for a comparison, malloc'd (series: by kernel). */
char **side_labels(const struct side *const *s, size_t n, int series);

#endif
