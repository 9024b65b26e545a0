// SPDX-License-Identifier: Apache-2.0
#include "compare/side.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "result/result.h"
#include "lib/util.h"

const char *const compare_env_keys[] = {
	"kernel.arch", "settings.disks", "settings.virtio_disks", "settings.virtio_bus",
	"settings.sd_hosts", "settings.sd_dev_size_mb", "settings.sd_fake_rw",
	"settings.memory_mb", "settings.cpus", "vm.accel", "vm.qemu_version", "vm.backend",
	"settings.scheduler", "settings.nr_requests", "settings.sd_max_queue",
	"settings.sd_submit_queues", "settings.slab_nomerge", "settings.nullb_queue_mode",
	"settings.nullb_submit_queues", "settings.nullb_shared_tags", "settings.nullb_memory_backed",
	"settings.nvme_ns_per_subsys", "settings.nvme_transport", "settings.nvme_io_queues", NULL,
};

const char *const compare_subject_keys[] = {
	"scenario.name", "kernel.version", "kernel.source", "kernel.package_version",
	"kernel.build.source_tree", "kernel.build.patches", "kernel.build.fragments",
	"kernel.build.config_base", "settings.cmdline", "settings.disk_class", NULL,
};

void compare_key_value(json_object *root, const char *key, struct strbuf *out)
{
	json_object *v = jget(root, key);

	if (!v)
		return;
	if (json_object_is_type(v, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			if (i)
				sb_addch(out, ',');
			sb_adds(out, json_object_get_string(json_object_array_get_idx(v, i)));
		}
		return;
	}
	sb_adds(out, json_object_get_string(v));
}

void side_release(struct side *s)
{
	for (size_t i = 0; i < s->n; i++)
		json_object_put(s->roots[i]);
	free(s->roots);
	strvec_clear(&s->runs);
	free(s->path);
	free(s->label);
	memset(s, 0, sizeof(*s));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One run: complete, passed, this schema. */
static int load_run(struct side *s, const char *dir, struct strbuf *err)
{
	json_object *root;
	const char *st;

	if (result_load(dir, &root, err) < 0)
		return -1;
	st = jstr(root, "status", "");
	if (strcmp(st, "pass")) {
		sb_addf(err, "'%s' has status %s", dir, *st ? st : "(none)");
		if (jstr(root, "reason", NULL))
			sb_addf(err, " (%s)", jstr(root, "reason", ""));
		sb_adds(err, ": only runs that passed are compared");
		json_object_put(root);
		return -1;
	}
	if (!jget(root, "deltas.insmod")) {
		sb_addf(err, "'%s' is incomplete: no insmod figures", dir);
		json_object_put(root);
		return -1;
	}
	/* Only the first run's monitor samples are read (compare.c's curve):
	 * the rest are most of a long run's document, and a group holds up
	 * to SIDE_MAX_RUNS of them. */
	if (s->n && json_object_is_type(jget(root, "monitor"), json_type_object))
		json_object_object_del(jget(root, "monitor"), "samples");
	s->roots = xrealloc(s->roots, (s->n + 1) * sizeof(*s->roots));
	s->roots[s->n++] = root;
	strvec_push(&s->runs, dir);
	return 0;
}

/* The last component of path, trailing slashes ignored; malloc'd. */
static char *last_component(const char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	char *p = xstrndup(path, n);
	char *b = xstrdup(path_basename(p));

	free(p);
	return b;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/*
 * What a side is called: a run by its run id (which holds the scenario's
 * name; the name is put in front when it does not), a group by its
 * directory's name (scaletest run --repeat names it <stamp>-<scenario>-xN),
 * a baseline as "baseline <its directory>".  A directory whose name says
 * nothing (".", a baseline's "1") gets the scenario's name instead.
 */
static char *side_label(const struct side *s)
{
	const char *scen = jstr(s->roots[0], "scenario.name", "");
	char *base = last_component(s->path), *l;

	if (s->n == 1 && !strcmp(s->runs.v[0], s->path)) {
		const char *id = jstr(s->roots[0], "run_id", "");
		if (*id && (!*scen || strstr(id, scen)))
			l = xstrdup(id);
		else if (*id)
			l = xstrfmt("%s %s", scen, id);
		else
			l = xstrdup(*scen ? scen : base);
	} else {
		char *key = xstrfmt("%s/key.json", s->path);
		if (path_exists(key))
			l = xstrfmt("baseline %s", base);
		else if (!all_digits(base) && strcmp(base, ".") && strcmp(base, "..") && strcmp(base, "/"))
			l = xstrdup(base);
		else
			l = xstrfmt("%s-x%zu", *scen ? scen : "runs", s->n);
		free(key);
	}
	if (!*l) {
		free(l);
		l = xstrdup(s->path);
	}
	free(base);
	return l;
}

int side_load(struct side *s, const char *path, struct strbuf *err)
{
	char *rj = xstrfmt("%s/result.json", path);
	int r = -1;

	memset(s, 0, sizeof(*s));
	strvec_init(&s->runs);
	s->path = xstrdup(path);
	if (path_exists(rj)) {
		r = load_run(s, path, err);
	} else if (is_dir(path)) {
		/* A group: every subdirectory holding a result.json; not a
		 * link (the "latest" that runs made into the same --out
		 * directory leave, which would count a run twice). */
		struct strvec subs = STRVEC_INIT;
		DIR *d = opendir(path);
		struct dirent *de;

		while (d && (de = readdir(d)) && subs.n <= SIDE_MAX_RUNS) {
			struct stat st;

			if (de->d_name[0] == '.')
				continue;
			char *dir = xstrfmt("%s/%s", path, de->d_name);
			char *sub = xstrfmt("%s/result.json", dir);
			if (lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && path_exists(sub))
				strvec_push(&subs, de->d_name);
			free(dir);
			free(sub);
		}
		if (d)
			closedir(d);
		qsort(subs.v, subs.n, sizeof(*subs.v), cmp_str);
		r = subs.n && subs.n <= SIDE_MAX_RUNS ? 0 : -1;
		if (!subs.n)
			sb_addf(err, "'%s' holds no result.json, nor runs that do", path);
		else if (subs.n > SIDE_MAX_RUNS)
			sb_addf(err, "'%s' holds more than %d runs, the most a group may hold "
				"(run --repeat makes at most %d)", path, SIDE_MAX_RUNS, SIDE_MAX_RUNS);
		for (size_t i = 0; !r && i < subs.n; i++) {
			char *dir = xstrfmt("%s/%s", path, subs.v[i]);
			r = load_run(s, dir, err);
			free(dir);
		}
		strvec_clear(&subs);
	} else {
		sb_addf(err, "'%s' is not a run directory", path);
	}
	free(rj);
	if (r)
		return -1;
	s->label = side_label(s);
	/* The runs of one side must be alike. */
	for (size_t i = 1; i < s->n; i++)
		for (const char *const *k = compare_env_keys; *k; k++) {
			struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
			compare_key_value(s->roots[0], *k, &x);
			compare_key_value(s->roots[i], *k, &y);
			int same = !strcmp(x.buf, y.buf);
			if (!same)
				sb_addf(err, "'%s' mixes runs that differ in %s (%s vs %s)",
					path, *k, x.buf, y.buf);
			sb_release(&x);
			sb_release(&y);
			if (!same)
				return -1;
		}
	return 0;
}

/* The sides' labels, made unique: a label two sides share gets each
 * side's number ("#1", "#2"). */
static char **plain_labels(const struct side *const *s, size_t n)
{
	char **l = xcalloc(n, sizeof(*l));

	for (size_t i = 0; i < n; i++) {
		int dup = 0;
		for (size_t j = 0; j < n; j++)
			dup |= j != i && !strcmp(s[i]->label, s[j]->label);
		l[i] = dup ? xstrfmt("%s #%zu", s[i]->label, i + 1) : xstrdup(s[i]->label);
	}
	return l;
}

/* A kernel series: each side named by its kernel ("6.12.118+deb12-amd64,
 * debian", "6.12.118+, build 95fa81af", "6.1.0-57-amd64, build 0123abcd +
 * 1 patch"), then by the usual label where two kernels are one. */
static char **series_labels(const struct side *const *s, size_t n)
{
	char **l = xcalloc(n, sizeof(*l)), **base = plain_labels(s, n);

	for (size_t i = 0; i < n; i++) {
		json_object *r = s[i]->roots[0];
		const char *src = jstr(r, "kernel.source", "?");
		const char *key = jstr(r, "kernel.build.key", NULL);
		size_t patches = jlen(jget(r, "kernel.build.patches"));
		struct strbuf sb = STRBUF_INIT;

		sb_addf(&sb, "%s, %s", jstr(r, "kernel.version", "?"), src);
		if (key)
			sb_addf(&sb, " %.8s", key);
		if (patches)
			sb_addf(&sb, " + %zu patch%s", patches, patches > 1 ? "es" : "");
		l[i] = sb_detach(&sb, NULL);
	}
	/* Which labels two sides share, all found before any is changed: a
	 * label changed in place no longer matched the last of its kind,
	 * which kept the kernel alone (three sides of one kernel, the third
	 * unnamed). */
	int *dup = xcalloc(n, sizeof(*dup));
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			dup[i] |= j != i && !strcmp(l[i], l[j]);
	for (size_t i = 0; i < n; i++)
		if (dup[i]) {
			char *t = xstrfmt("%s (%s)", l[i], base[i]);
			free(l[i]);
			l[i] = t;
		}
	free(dup);
	for (size_t i = 0; i < n; i++)
		free(base[i]);
	free(base);
	return l;
}

char **side_labels(const struct side *const *s, size_t n, int series)
{
	return series ? series_labels(s, n) : plain_labels(s, n);
}

/* The keys of a list whose value differs between a side and the base:
 * [{"key", "values": [one per side]}]. */
json_object *side_key_diffs(const struct side *const *s, size_t n, const char *const *keys)
{
	json_object *out = json_object_new_array();
	struct strbuf *v = xcalloc(n, sizeof(*v));

	for (const char *const *k = keys; *k; k++) {
		int differs = 0;
		for (size_t i = 0; i < n; i++) {
			sb_init(&v[i]);
			compare_key_value(s[i]->roots[0], *k, &v[i]);
			differs |= i && strcmp(v[i].buf, v[0].buf);
		}
		if (differs) {
			json_object *d = json_object_new_object(), *vals = json_object_new_array();
			for (size_t i = 0; i < n; i++)
				json_object_array_add(vals, json_object_new_string(v[i].buf));
			json_object_object_add(d, "key", json_object_new_string(*k));
			json_object_object_add(d, "values", vals);
			json_object_array_add(out, d);
		}
		for (size_t i = 0; i < n; i++)
			sb_release(&v[i]);
	}
	free(v);
	return out;
}

int side_mismatch(const struct side *const *s, size_t n, int allow, json_object **mm,
		  struct strbuf *err)
{
	json_object *diffs = side_key_diffs(s, n, compare_env_keys);

	*mm = NULL;
	if (json_object_array_length(diffs) && !allow) {
		sb_adds(err, n == 2 ? "the two sides ran in different environments"
			: "the sides ran in different environments");
		sb_adds(err, ", so their figures do not compare:");
		for (size_t i = 0; i < json_object_array_length(diffs); i++) {
			json_object *d = json_object_array_get_idx(diffs, i), *v = jget(d, "values");
			sb_addf(err, "\n  %s: ", jstr(d, "key", ""));
			for (size_t k = 0; k < jlen(v); k++)
				sb_addf(err, "%s%s", k ? " vs " : "",
					json_object_get_string(json_object_array_get_idx(v, k)));
		}
		sb_adds(err, "\n(--allow-mismatch compares them anyway, with a warning)");
		json_object_put(diffs);
		return -1;
	}
	*mm = diffs;
	return 0;
}
