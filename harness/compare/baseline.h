/* SPDX-License-Identifier: Apache-2.0 */
/*
 * baseline: the committed reference figures a night's runs are held to.
 *
 * results/baselines/ (or another directory) holds one directory per
 * baseline, named <scenario>--<hash>, with key.json (what makes figures
 * comparable) and the baseline's runs as 1/result.json, 2/result.json...
 * (so a baseline made from repeats keeps its spread for Welch's test; a
 * baseline directory is a side for compare.h).
 *
 * The key: scenario name, kernel version, source and package version or
 * build key, and compare.h's environment keys (arch, disk counts, guest
 * memory and CPUs, accelerator, QEMU version, the per-queue knobs), so a
 * baseline that matches is one compare accepts.
 *
 *	char *path;
 *	if (baseline_update("results/baselines", "results/<run>", &path) < 0) ...
 *	struct strbuf why = STRBUF_INIT;
 *	switch (baseline_find("results/baselines", run_root, &path, &why)) {
 *	case 1: compare against path; break;
 *	case 0: none for this scenario: why says so; break;
 *	case -1: one exists for the scenario but a key differs: why names it;
 *	}
 *
 * baseline_update refuses runs that are incomplete, failed or of another
 * schema version (side_load's rules), so nothing bad becomes a baseline.
 */
#ifndef SCALETEST_BASELINE_H
#define SCALETEST_BASELINE_H

#include <json.h>

#include "lib/strbuf.h"

/* key.json of baseline NAME in DIR ({"key": {field: "value"...}, "made",
 * "from"}), or NULL when NAME is not a baseline (a dot entry, no or a bad
 * key.json). */
json_object *baseline_meta(const char *dir, const char *name);
int baseline_update(const char *dir, const char *run, char **path);
int baseline_find(const char *dir, json_object *root, char **path, struct strbuf *why);

#endif
