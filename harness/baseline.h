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
 * build key, arch, accelerator, guest memory and CPUs, and QEMU version.
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

#include "strbuf.h"

extern const char *const baseline_key_fields[];

/* The key's fields of a result, as a JSON object {field: "value"}. */
json_object *baseline_key(json_object *root);
int baseline_update(const char *dir, const char *run, char **path);
int baseline_find(const char *dir, json_object *root, char **path, struct strbuf *why);

#endif
