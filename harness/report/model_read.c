// SPDX-License-Identifier: Apache-2.0
#include "report/model_read.h"

#include <math.h>
#include <string.h>

#include "result/result.h"
#include "lib/util.h"

json_object *jarr(json_object *o, const char *path)
{
	json_object *a = jget(o, path);

	return a && json_object_is_type(a, json_type_array) ? a : NULL;
}

size_t alen(json_object *a)
{
	return a ? json_object_array_length(a) : 0;
}

json_object *aget(json_object *a, size_t i)
{
	return json_object_array_get_idx(a, i);
}

struct num num_at(json_object *o, const char *path)
{
	json_object *x = jget(o, path);
	struct num n = { 0, 0 };

	if (x && (json_object_is_type(x, json_type_int) ||
		  json_object_is_type(x, json_type_double))) {
		n.v = json_object_get_double(x);
		n.have = isfinite(n.v);
		if (!n.have)
			n.v = 0;
	}
	return n;
}

int bool_at(json_object *o, const char *path)
{
	json_object *x = jget(o, path);

	return x && json_object_get_boolean(x);
}

/* The JSON's own text of the value at path, or NULL when missing. */
const char *text_at(json_object *o, const char *path)
{
	json_object *x = jget(o, path);

	return x ? json_object_get_string(x) : NULL;
}

void fields_of(json_object *o, void *base, const struct field *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *p = (char *)base + f[i].offset;

		if (f[i].kind == F_NUM)
			*(struct num *)p = num_at(o, f[i].path);
		else if (f[i].kind == F_TEXT)
			*(const char **)p = text_at(o, f[i].path);
		else
			*(const char **)p = jstr(o, f[i].path, NULL);
	}
}
/*
 * The writers escape what the model holds for their format, but no escape
 * makes invalid UTF-8 or a control character valid in XML, or safe on a
 * terminal.  A result.json written by this harness is clean already
 * (guest strings are cleaned where they enter it); one that is damaged,
 * hand-edited or hostile is read through a cleaned copy: every string and
 * key made valid UTF-8 without controls (lib/util.h, sb_add_clean), the
 * rest shared.
 */
static int tree_is_clean(json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_string:
		return text_is_clean(json_object_get_string(o),
				     (size_t)json_object_get_string_len(o), 1);
	case json_type_array:
		for (size_t i = 0; i < json_object_array_length(o); i++)
			if (!tree_is_clean(json_object_array_get_idx(o, i)))
				return 0;
		return 1;
	case json_type_object: {
		json_object_object_foreach(o, k, v)
			if (!text_is_clean(k, strlen(k), 0) || !tree_is_clean(v))
				return 0;
		return 1;
	}
	default:
		return 1;
	}
}

static json_object *clean_copy(json_object *o)
{
	struct strbuf sb = STRBUF_INIT;
	json_object *c;

	switch (json_object_get_type(o)) {
	case json_type_string:
		sb_add_clean(&sb, json_object_get_string(o),
			     (size_t)json_object_get_string_len(o), 1);
		c = json_object_new_string_len(sb.buf, (int)sb.len);
		break;
	case json_type_array:
		c = json_object_new_array();
		for (size_t i = 0; i < json_object_array_length(o); i++)
			json_object_array_add(c, clean_copy(json_object_array_get_idx(o, i)));
		break;
	case json_type_object: {
		c = json_object_new_object();
		json_object_object_foreach(o, k, v) {
			sb_reset(&sb);
			sb_add_clean(&sb, k, strlen(k), 0);
			json_object_object_add(c, sb.buf, clean_copy(v));
		}
		break;
	}
	default:
		c = json_object_get(o);
		break;
	}
	sb_release(&sb);
	return c;
}

/* A new reference to o, or to a cleaned copy of it. */
json_object *clean_ref(json_object *o)
{
	return tree_is_clean(o) ? json_object_get(o) : clean_copy(o);
}
