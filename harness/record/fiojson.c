// SPDX-License-Identifier: Apache-2.0
#include "record/fiojson.h"

#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/util.h"

/* Two decimals, as json_seconds() writes them (null when not finite). */
static json_object *round2(double v)
{
	return json_seconds(v);
}

/* One direction ("read"/"write"); NULL when it did no I/O. */
static json_object *direction(json_object *job, const char *dir)
{
	json_object *d = jget(job, dir), *o;
	char p50[64], p99[64];

	if (!d || !json_object_is_type(d, json_type_object))
		return NULL;
	/* verify_only runs report a "write" side that did nothing. */
	if (jint(d, "total_ios", 0) <= 0 || jdouble(d, "iops", 0) <= 0)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "iops", round2(jdouble(d, "iops", 0)));
	json_object_object_add(o, "bw_kib", json_object_new_int64(jint(d, "bw", 0)));
	json_object_object_add(o, "ios", json_object_new_int64(jint(d, "total_ios", 0)));
	/* Percentile keys have dots ("50.000000"): look them up directly. */
	json_object *pct = jget(d, "clat_ns.percentile");
	json_object *v50 = NULL, *v99 = NULL;
	snprintf(p50, sizeof(p50), "50.000000");
	snprintf(p99, sizeof(p99), "99.000000");
	if (pct && json_object_is_type(pct, json_type_object)) {
		json_object_object_get_ex(pct, p50, &v50);
		json_object_object_get_ex(pct, p99, &v99);
	}
	json_object_object_add(o, "clat_p50_us", v50 ? round2(json_object_get_double(v50) / 1000) : NULL);
	json_object_object_add(o, "clat_p99_us", v99 ? round2(json_object_get_double(v99) / 1000) : NULL);
	return o;
}

int fio_json_summarize(const char *buf, size_t len, const char *group,
		       json_object *jobs, struct strbuf *err)
{
	const char *p = buf, *end = buf + len;
	json_object *root, *arr;
	int failed = 0;

	/* Skip lines fio writes before the document. */
	while (p < end && *p != '{') {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {
			sb_adds(err, "no JSON document in fio's output");
			return -1;
		}
		p = nl + 1;
	}
	if (p == end) {
		sb_adds(err, "no JSON document in fio's output");
		return -1;
	}
	/* The guest's: within a document's limits (lib/json.h). */
	if (json_parse_object(p, (size_t)(end - p), "fio output", &json_document_limits,
			      &root, err) < 0)
		return -1;
	arr = jget(root, "jobs");
	if (!arr || !json_object_is_type(arr, json_type_array)) {
		sb_adds(err, "fio output has no \"jobs\" array");
		json_object_put(root);
		return -1;
	}
	json_object *mine = json_object_new_array();

	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *job = json_object_array_get_idx(arr, i);
		json_object *o, *r, *w, *opts;
		const char *fn = NULL, *jname;

		if (!json_object_is_type(job, json_type_object)) {
			sb_addf(err, "fio job %zu is not an object", i);
			json_object_put(mine);
			json_object_put(root);
			return -1;
		}
		o = json_object_new_object();
		json_object_object_add(o, "group", json_object_new_string(group));
		jname = jstr(job, "jobname", "?");
		json_object_object_add(o, "job", json_clean_string(jname, strlen(jname)));
		if (json_object_object_get_ex(job, "job options", &opts))
			fn = jstr(opts, "filename", NULL);
		json_object_object_add(o, "filename", fn ? json_clean_string(fn, strlen(fn)) : NULL);
		long long e = jint(job, "error", 0);
		json_object_object_add(o, "error", json_object_new_int64(e));
		if (e)
			failed++;
		if ((r = direction(job, "read")))
			json_object_object_add(o, "read", r);
		if ((w = direction(job, "write")))
			json_object_object_add(o, "write", w);
		json_object_array_add(mine, o);
	}
	/* Only now, so that an error leaves jobs as it was. */
	for (size_t i = 0; i < json_object_array_length(mine); i++)
		json_object_array_add(jobs, json_object_get(json_object_array_get_idx(mine, i)));
	json_object_put(mine);
	json_object_put(root);
	return failed;
}
