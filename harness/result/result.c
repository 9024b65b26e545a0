// SPDX-License-Identifier: Apache-2.0
#include "result/result.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest/phase.h"
#include "lib/strvec.h"
#include "lib/util.h"

json_object *result_new(void)
{
	json_object *root = json_object_new_object();

	json_object_object_add(root, "schema", json_object_new_int(RESULT_SCHEMA));
	return root;
}

int result_save(json_object *root, const char *path)
{
	return json_save(root, path);
}

/*
 * The containers of result.json (docs/result-json.md): when one of these
 * keys is there and not null, it has this type.  A file that breaks this is
 * not a result this scaletest wrote, and result_load refuses it with the
 * key's name (the readers' accessors would otherwise meet an object where
 * they iterate an array).
 */
static const struct {
	const char *path;
	json_type type;
} result_shape[] = {
	{ "scenario", json_type_object },	{ "settings", json_type_object },
	{ "kernel", json_type_object },		{ "vm", json_type_object },
	{ "disks", json_type_object },		{ "disks.first", json_type_object },
	{ "disks.last", json_type_object },	{ "disks.scsi_debug", json_type_object },
	{ "disks.virtio", json_type_array },	{ "phases", json_type_array },
	{ "deltas", json_type_object },		{ "deltas.insmod", json_type_object },
	{ "deltas.rmmod", json_type_object },	{ "slab_growth", json_type_array },
	{ "slab_growth_rest", json_type_array }, { "checks", json_type_array },
	{ "channel", json_type_object },	{ "channel.rejections", json_type_array },
	{ "console", json_type_object },	{ "crash", json_type_object },
	{ "fio", json_type_object },		{ "fio.jobs", json_type_array },
	{ "fio.groups", json_type_object },	{ "monitor", json_type_object },
	{ "monitor.samples", json_type_array },	{ "monitor.gaps", json_type_array },
	{ "monitor.peak", json_type_object },	{ "inventory", json_type_object },
	{ "io", json_type_array },		{ "guest", json_type_object },
	{ "timings", json_type_object },	{ "guest_timings", json_type_object },
};

static int check_shape(json_object *root, const char *path, struct strbuf *err)
{
	for (size_t i = 0; i < ARRAY_SIZE(result_shape); i++) {
		json_object *v = jget(root, result_shape[i].path);

		if (v && !json_object_is_type(v, result_shape[i].type)) {
			sb_addf(err, "%s: '%s' should be %s, not %s", path,
				result_shape[i].path,
				json_type_to_name(result_shape[i].type),
				json_type_to_name(json_object_get_type(v)));
			return -1;
		}
	}
	return 0;
}

int result_load(const char *dir, json_object **root, struct strbuf *err)
{
	char *path = xstrfmt("%s/result.json", dir);
	json_object *o;
	int r = json_load_object(path, &o, err);

	*root = NULL;
	if (r == 0 && jint(o, "schema", -1) != RESULT_SCHEMA) {
		sb_addf(err, "%s: schema version %lld, this scaletest reads %d",
			path, jint(o, "schema", -1), RESULT_SCHEMA);
		json_object_put(o);
		r = -1;
	} else if (r == 0 && check_shape(o, path, err) < 0) {
		json_object_put(o);
		r = -1;
	} else if (r == 0) {
		*root = o;
	}
	free(path);
	return r;
}

/* result.json's "settings": every key of the scenario with its value as
 * scenario_value() writes it, an int key as a number, a bool as true or
 * false, any other as a clean string (valid UTF-8, no control
 * characters). */
json_object *result_settings(const struct scenario *s)
{
	json_object *o = json_object_new_object();
	struct strbuf v = STRBUF_INIT;

	for (size_t i = 0; i < scenario_nkeys; i++) {
		const struct scenario_key *k = &scenario_keys[i];
		json_object *val;

		sb_reset(&v);
		scenario_value(s, k, &v);
		if (k->type == KT_INT)
			val = json_object_new_int64(strtoll(v.buf, NULL, 10));
		else if (k->type == KT_BOOL)
			val = json_object_new_boolean(v.buf[0] == '1');
		else
			val = json_clean_string(v.buf, v.len);
		json_object_object_add(o, k->name, val);
	}
	sb_release(&v);
	return o;
}

json_object *result_phase(json_object *root, const char *name)
{
	json_object *phases = jget(root, "phases");

	if (!json_object_is_type(phases, json_type_array))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(phases); i++) {
		json_object *p = json_object_array_get_idx(phases, i);
		if (!strcmp(jstr(p, "name", ""), name))
			return p;
	}
	return NULL;
}

const char *result_pcp_key(const char *field)
{
	if (!strcmp(field, "LowFree"))
		return "pcp_low_kb";
	if (!strcmp(field, "MemFree") || !strcmp(field, "MemAvailable"))
		return "pcp_kb";
	return NULL;
}

long long result_free_change(json_object *delta, const char *field, long long dflt)
{
	char key[64];
	const char *pcp = result_pcp_key(field);
	json_object *v;

	snprintf(key, sizeof(key), "%s_kb", field);
	if (!(v = jget(delta, key)) || !json_object_is_type(v, json_type_int))
		return dflt;
	return json_object_get_int64(v) + (pcp ? jint(delta, pcp, 0) : 0);
}

int result_highmem(json_object *root)
{
	json_object *h = jget(root, "kernel.highmem");
	json_object *lf = jget(result_phase(root, phase_name(PHASE_BEFORE_INSMOD)), "meminfo.LowFree");

	if (json_object_is_type(h, json_type_boolean))
		return json_object_get_boolean(h);
	return json_object_is_type(lf, json_type_int) || json_object_is_type(lf, json_type_double);
}

