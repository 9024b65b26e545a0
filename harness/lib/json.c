// SPDX-License-Identifier: Apache-2.0
#include "lib/json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strvec.h"
#include "lib/util.h"

json_object *json_fixed(double v, int decimals)
{
	char buf[64];

	if (!isfinite(v))
		return NULL;
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	if (!strncmp(buf, "-0", 2) && strspn(buf + 2, ".0") == strlen(buf + 2))
		memmove(buf, buf + 1, strlen(buf));	/* no "-0.000" */
	return json_object_new_double_s(atof(buf), buf);
}

json_object *json_seconds(double s)
{
	char buf[40];

	/* Two decimals while they fit in buf (below 1e15 they do, with
	 * room to spare); beyond, all the digits a double has.  JSON has no
	 * NaN or infinity: those are null. */
	if (!isfinite(s))
		return NULL;
	if (fabs(s) < 1e15)
		snprintf(buf, sizeof(buf), "%.2f", s);
	else
		snprintf(buf, sizeof(buf), "%.17g", s);
	return json_object_new_double_s(s, buf);
}



/* A string of o's tree made clean (lib/util.h, sb_add_clean; newlines and
 * tabs kept): a new string object, or NULL when it needs no change. */
static json_object *clean_copy(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	json_object *o;

	if (text_is_clean(s, n, 1))
		return NULL;
	sb_add_clean(&sb, s, n, 1);
	o = json_object_new_string_len(sb.buf, (int)sb.len);
	sb_release(&sb);
	return o;
}

void json_clean_strings(json_object *o)
{
	if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++) {
			json_object *e = json_object_array_get_idx(o, i), *c;

			if (json_object_is_type(e, json_type_string) &&
			    (c = clean_copy(json_object_get_string(e),
					    (size_t)json_object_get_string_len(e))))
				json_object_array_put_idx(o, i, c);
			else
				json_clean_strings(e);
		}
	} else if (json_object_is_type(o, json_type_object)) {
		struct strvec dirty = STRVEC_INIT;

		json_object_object_foreach(o, key, val) {
			json_object *c;

			if (!text_is_clean(key, strlen(key), 0))
				strvec_push(&dirty, key);
			else if (json_object_is_type(val, json_type_string) &&
				 (c = clean_copy(json_object_get_string(val),
						 (size_t)json_object_get_string_len(val))))
				json_object_object_add(o, key, c);	/* replaces in place */
			else
				json_clean_strings(val);
		}
		/* A dirty key: its entry again under the clean key (the order of
		 * such entries changes; none of the harness's own keys is dirty). */
		for (size_t i = 0; i < dirty.n; i++) {
			json_object *v = json_object_get(json_object_object_get(o, dirty.v[i]));
			char *k = xstrclean(dirty.v[i], strlen(dirty.v[i]));

			json_object_object_del(o, dirty.v[i]);
			json_clean_strings(v);
			if (json_object_is_type(v, json_type_string)) {
				json_object *c = clean_copy(json_object_get_string(v),
							    (size_t)json_object_get_string_len(v));
				if (c) {
					json_object_put(v);
					v = c;
				}
			}
			json_object_object_add(o, k, v);
			free(k);
		}
		strvec_clear(&dirty);
	}
}

void json_pretty(struct strbuf *out, json_object *o)
{
	json_pretty_text(out, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
								JSON_C_TO_STRING_SPACED |
								JSON_C_TO_STRING_NOSLASHESCAPE));
}

void json_pretty_text(struct strbuf *out, const char *p)
{
	size_t bol = out->len;	/* where the current line starts in out */
	int in_string = 0;

	for (; *p; p++) {
		if (in_string) {
			sb_addch(out, *p);
			if (*p == '\\' && p[1])
				sb_addch(out, *++p);
			else if (*p == '"')
				in_string = 0;
			continue;
		}
		if ((p[0] == '[' && p[1] == ']') || (p[0] == '{' && p[1] == '}')) {
			size_t indent = 0;

			while (bol + indent < out->len && out->buf[bol + indent] == ' ')
				indent++;
			sb_addch(out, p[0]);
			sb_addch(out, '\n');
			bol = out->len;
			for (size_t i = 0; i < indent; i++)
				sb_addch(out, ' ');
			sb_addch(out, *++p);
			continue;
		}
		sb_addch(out, *p);
		if (*p == '"')
			in_string = 1;
		else if (*p == '\n')
			bol = out->len;
	}
}

int json_save(json_object *root, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	/* Whatever it was built from (host.json, another run's result.json),
	 * a document the harness writes is valid UTF-8 without controls. */
	json_clean_strings(root);
	json_pretty(&sb, root);
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
	if (sb_read_file_max(&buf, path, JSON_MAX_BYTES) < 0) {
		sb_addf(err, "cannot read '%s': %s", path, sb_read_strerror(errno));
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
	/* NaN, an infinity or a double past int64 (fio's "bw": NaN) is no number:
	 * json_object_get_int64() would make it INT64_MIN. */
	if (json_object_is_type(v, json_type_double)) {
		double d = json_object_get_double(v);

		if (!isfinite(d) || d < -9.2e18 || d > 9.2e18)
			return def;
	}
	return json_object_get_int64(v);
}

double jdouble(json_object *o, const char *path, double def)
{
	json_object *v = jget(o, path);

	if (!v || !(json_object_is_type(v, json_type_int) ||
		    json_object_is_type(v, json_type_double)))
		return def;
	if (!isfinite(json_object_get_double(v)))
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

json_object *jarray(json_object *o, const char *path)
{
	json_object *a = jget(o, path);

	return json_object_is_type(a, json_type_array) ? a : NULL;
}

size_t jlen(json_object *a)
{
	return json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

json_object *json_clean_string(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	json_object *o;

	sb_add_clean(&sb, s, n, 0);
	o = json_object_new_string_len(sb.buf, (int)sb.len);
	sb_release(&sb);
	return o;
}
