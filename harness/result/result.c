#include "result/result.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "guest/phase.h"
#include "lib/util.h"

json_object *result_new(void)
{
	json_object *root = json_object_new_object();

	json_object_object_add(root, "schema", json_object_new_int(RESULT_SCHEMA));
	return root;
}

json_object *json_seconds(double s)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.2f", s);
	return json_object_new_double_s(s, buf);
}

int result_save(json_object *root, const char *path)
{
	const char *text = json_object_to_json_string_ext(
		root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			      JSON_C_TO_STRING_NOSLASHESCAPE);
	struct strbuf sb = STRBUF_INIT;
	int r;

	sb_adds(&sb, text);
	sb_addch(&sb, '\n');
	r = write_file_atomic(path, sb.buf, sb.len);
	sb_release(&sb);
	return r;
}

int json_load_object(const char *path, json_object **root, struct strbuf *err)
{
	struct strbuf buf = STRBUF_INIT;
	json_tokener *tok;
	json_object *o;
	int r = -1;

	*root = NULL;
	if (sb_read_file(&buf, path) < 0) {
		sb_addf(err, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	tok = json_tokener_new();
	o = json_tokener_parse_ex(tok, buf.buf, (int)buf.len);
	if (!o || json_tokener_get_error(tok) != json_tokener_success) {
		sb_addf(err, "%s: not valid JSON (%s at byte %zu)", path,
			json_tokener_error_desc(json_tokener_get_error(tok)),
			json_tokener_get_parse_end(tok));
		json_object_put(o);
		json_tokener_free(tok);
		goto out;
	}
	json_tokener_free(tok);
	if (!json_object_is_type(o, json_type_object)) {
		sb_addf(err, "%s: not a JSON object", path);
		json_object_put(o);
		goto out;
	}
	*root = o;
	r = 0;
out:
	sb_release(&buf);
	return r;
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
	} else if (r == 0) {
		*root = o;
	}
	free(path);
	return r;
}

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
			val = json_object_new_string(v.buf);
		json_object_object_add(o, k->name, val);
	}
	sb_release(&v);
	return o;
}

json_object *result_meminfo(const struct meminfo *m)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; i < m->n; i++)
		json_object_object_add(o, m->f[i].name,
				       json_object_new_int64(m->f[i].value));
	return o;
}

json_object *result_slab(const struct slabinfo *si, long page_size)
{
	json_object *o = json_object_new_object();
	json_object *caches = json_object_new_object();
	long long total = 0;

	for (size_t i = 0; i < si->n; i++) {
		const struct slab_cache *c = &si->c[i];
		json_object *e = json_object_new_object();
		long long kb = slab_cache_bytes(c, page_size) / 1024;

		json_object_object_add(e, "active_objs", json_object_new_int64(c->active_objs));
		json_object_object_add(e, "num_objs", json_object_new_int64(c->num_objs));
		json_object_object_add(e, "objsize", json_object_new_int64(c->objsize));
		json_object_object_add(e, "objperslab", json_object_new_int64(c->objperslab));
		json_object_object_add(e, "pagesperslab", json_object_new_int64(c->pagesperslab));
		json_object_object_add(e, "num_slabs", json_object_new_int64(c->num_slabs));
		json_object_object_add(e, "kb", json_object_new_int64(kb));
		json_object_object_add(caches, c->name, e);
		total += kb;
	}
	json_object_object_add(o, "total_kb", json_object_new_int64(total));
	json_object_object_add(o, "caches", caches);
	return o;
}

json_object *jget(json_object *o, const char *path)
{
	char key[128];

	while (o && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, key, &o))
			return NULL;
		path += n;
		if (*path == '.')
			path++;
	}
	return o;
}

long long jint(json_object *o, const char *path, long long def)
{
	json_object *v = jget(o, path);

	if (!v || !(json_object_is_type(v, json_type_int) ||
		    json_object_is_type(v, json_type_double)))
		return def;
	return json_object_get_int64(v);
}

double jdouble(json_object *o, const char *path, double def)
{
	json_object *v = jget(o, path);

	if (!v || !(json_object_is_type(v, json_type_int) ||
		    json_object_is_type(v, json_type_double)))
		return def;
	return json_object_get_double(v);
}

const char *jstr(json_object *o, const char *path, const char *def)
{
	json_object *v = jget(o, path);

	if (!v || !json_object_is_type(v, json_type_string))
		return def;
	return json_object_get_string(v);
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

int result_highmem(json_object *root)
{
	json_object *h = jget(root, "kernel.highmem");
	json_object *lf = jget(result_phase(root, phase_name(PHASE_BEFORE_INSMOD)), "meminfo.LowFree");

	if (json_object_is_type(h, json_type_boolean))
		return json_object_get_boolean(h);
	return json_object_is_type(lf, json_type_int) || json_object_is_type(lf, json_type_double);
}
