// SPDX-License-Identifier: Apache-2.0
#include "compare/baseline.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare/compare.h"
#include "lib/cache.h"
#include "result/result.h"
#include "lib/util.h"

/* What a baseline is of; with compare_env_keys (what compare requires to
 * match), the key.  One list of environment keys for both, so a baseline
 * that baseline_find() matches is one compare_sides() accepts. */
static const char *const identity_keys[] = {
	"scenario.name", "kernel.version", "kernel.source", "kernel.package_version",
	"kernel.build.key", NULL,
};

static json_object *baseline_key(json_object *root)
{
	const char *const *lists[] = { identity_keys, compare_env_keys };
	json_object *k = json_object_new_object();
	struct strbuf v = STRBUF_INIT;

	for (size_t l = 0; l < ARRAY_SIZE(lists); l++)
		for (const char *const *f = lists[l]; *f; f++) {
			sb_reset(&v);
			compare_key_value(root, *f, &v);
			json_object_object_add(k, *f, json_object_new_string(v.buf));
		}
	sb_release(&v);
	return k;
}

/* A key field: their names hold dots, so not through jget(). */
static const char *field(json_object *key, const char *name)
{
	json_object *v = NULL;

	if (!key || !json_object_object_get_ex(key, name, &v) ||
	    !json_object_is_type(v, json_type_string))
		return "";
	return json_object_get_string(v);
}

static char *entry_name(json_object *key)
{
	const char *text = json_object_to_json_string_ext(key, JSON_C_TO_STRING_PLAIN);
	struct hash_ctx *h = hash_new();
	char hex[65];
	struct strbuf name = STRBUF_INIT;

	hash_adds(h, text);
	hash_hex(h, hex);
	/* The scenario name is checked by the scenario parser, but a
	 * result.json may come from anywhere: keep only safe characters. */
	for (const char *c = *field(key, "scenario.name") ? field(key, "scenario.name") : "run"; *c; c++)
		sb_addch(&name, (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
				(*c >= '0' && *c <= '9') || *c == '-' || *c == '_' || *c == '.'
				? *c : '_');
	sb_addf(&name, "--%.12s", hex);
	return sb_detach(&name, NULL);
}

int baseline_update(const char *dir, const char *run, char **path)
{
	struct side s;
	struct strbuf err = STRBUF_INIT;
	json_object *key;
	char *name, *final, *tmp, *lockp = NULL;
	struct cache_lock lk = { -1 };
	int r = -1;

	if (side_load(&s, run, &err) < 0) {
		error("not a baseline: %s", err.buf);
		sb_release(&err);
		side_release(&s);
		return -1;
	}
	key = baseline_key(s.roots[0]);
	name = entry_name(key);
	final = xstrfmt("%s/%s", dir, name);
	tmp = xstrfmt("%s/.tmp-%s", dir, name);
	/* One update of a baselines directory at a time (two nightly runners
	 * sharing it): the lock is dir/.update.lock, waited for. */
	lockp = xstrfmt("%s/.update", dir);
	if (mkdir_p(dir, 0755) < 0 || cache_lock(&lk, lockp) < 0)
		goto out;
	remove_tree(tmp);
	if (mkdir_p(tmp, 0755) < 0)
		goto out;
	for (size_t i = 0; i < s.n; i++) {
		char *sub = xstrfmt("%s/%zu", tmp, i + 1);
		char *from = xstrfmt("%s/result.json", s.runs.v[i]);
		char *to = xstrfmt("%s/result.json", sub);
		int bad = mkdir(sub, 0755) < 0 || copy_file(from, to, 0644) < 0;
		free(sub);
		free(from);
		free(to);
		if (bad)
			goto out;
	}
	{
		char *kp = xstrfmt("%s/key.json", tmp);
		json_object *meta = json_object_new_object();
		char iso[32];

		timestamp_iso(iso, sizeof(iso));
		json_object_object_add(meta, "key", json_object_get(key));
		json_object_object_add(meta, "made", json_object_new_string(iso));
		json_object_object_add(meta, "from", json_object_new_string(run));
		int bad = json_save(meta, kp) < 0;
		json_object_put(meta);
		free(kp);
		if (bad)
			goto out;
	}
	/* The old baseline is swapped out in one step (a reader finds the old
	 * or the new, never none), then removed. */
	if (is_dir(final)) {
		if (renameat2(AT_FDCWD, tmp, AT_FDCWD, final, RENAME_EXCHANGE) < 0) {
			error_errno("cannot swap '%s' with '%s'", tmp, final);
			goto out;
		}
		remove_tree(tmp);	/* now the old one */
	} else if (rename(tmp, final) < 0) {
		error_errno("cannot rename '%s' to '%s'", tmp, final);
		goto out;
	}
	fsync_parent(final);
	*path = final;
	final = NULL;
	r = 0;
out:
	if (r)
		remove_tree(tmp);
	cache_unlock(&lk);
	free(lockp);
	json_object_put(key);
	side_release(&s);
	sb_release(&err);
	free(name);
	free(final);
	free(tmp);
	return r;
}

json_object *baseline_meta(const char *dir, const char *name)
{
	/* A key.json is a few hundred bytes: 1 MB, a thousand objects. */
	static const struct json_limits key_limits = { (size_t)1 << 20, 1024, 65536 };
	char *kp = xstrfmt("%s/%s/key.json", dir, name);
	struct strbuf buf = STRBUF_INIT;
	json_object *meta = NULL;

	if (name[0] != '.' && json_load_object_max(kp, &key_limits, &meta, &buf) < 0)
		meta = NULL;
	if (meta && !json_object_is_type(jget(meta, "key"), json_type_object)) {
		json_object_put(meta);
		meta = NULL;
	}
	sb_release(&buf);
	free(kp);
	return meta;
}

int baseline_find(const char *dir, json_object *root, char **path, struct strbuf *why)
{
	json_object *want = baseline_key(root);
	const char *scenario = field(want, "scenario.name");
	DIR *d = opendir(dir);
	struct dirent *de;
	int found = 0, near = 0;

	*path = NULL;
	while (d && (de = readdir(d)) && !found) {
		json_object *meta = baseline_meta(dir, de->d_name);
		json_object *have = jget(meta, "key");
		char *entry = xstrfmt("%s/%s", dir, de->d_name);

		if (have && !strcmp(field(have, "scenario.name"), scenario)) {
			struct strbuf diffs = STRBUF_INIT;
			json_object_object_foreach(want, f, val) {
				const char *x = field(have, f), *y = json_object_get_string(val);
				if (strcmp(x, y))
					sb_addf(&diffs, "\n  %s: baseline %s, run %s", f,
						*x ? x : "(none)", *y ? y : "(none)");
			}
			if (!diffs.len) {
				found = 1;
				*path = xstrdup(entry);
			} else if (!near++) {
				sb_addf(why, "the baseline '%s' is for another environment:%s",
					entry, diffs.buf);
			}
			sb_release(&diffs);
		}
		json_object_put(meta);
		free(entry);
	}
	if (d)
		closedir(d);
	if (found)
		sb_reset(why);
	else if (!near)		/* scenario points into want: use it first */
		sb_addf(why, "no baseline for scenario '%s' in '%s' "
			"('scaletest baseline update RUN' makes one)", scenario, dir);
	json_object_put(want);
	return found ? 1 : near ? -1 : 0;
}
