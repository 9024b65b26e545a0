/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model_read: how the models (model_run.c, model_compare.c,
 * model_nightly.c, model_bisect.c) read their JSON; for those files only
 * (model.h is what the writers call).
 *
 * Every JSON access goes through these type-checking helpers, so that a
 * hostile or truncated file cannot trip json-c's assertions (an array
 * function on an object, say).  Most of a model is fields read straight
 * from a path of its JSON: a table of them per struct, each row the
 * field's path, where it goes and whether it is a string (jstr), a figure
 * (num_at) or the JSON's own text of a value (text_at).
 *
 *	m->root = clean_ref(root);		// what the model keeps
 *	static const struct field f[] = {
 *		FIELD(struct report_model, F_STR, run_id, "run_id"),
 *		FIELD(struct report_model, F_NUM, boot_s, "timings.boot_s"),
 *	};
 *	fields_of(m->root, m, f, ARRAY_SIZE(f));
 *	for (size_t i = 0; i < alen(jarr(m->root, "checks")); i++)
 *		... aget(jarr(m->root, "checks"), i) ...
 *	json_object_put(m->root);		// at release
 */
#ifndef SCALETEST_REPORT_MODEL_READ_H
#define SCALETEST_REPORT_MODEL_READ_H

#include <json.h>
#include <stddef.h>

#include "report/format.h"

/* The array at path, or NULL (missing, or not an array). */
json_object *jarr(json_object *o, const char *path);
/* Its length (0 for NULL) and its i-th entry. */
size_t alen(json_object *a);
json_object *aget(json_object *a, size_t i);
/* A finite number at path, or { 0, 0 }. */
struct num num_at(json_object *o, const char *path);
/* The boolean at path; 0 when missing. */
int bool_at(json_object *o, const char *path);
/* The JSON's own text of the value at path, or NULL when missing. */
const char *text_at(json_object *o, const char *path);

enum field_kind { F_STR, F_NUM, F_TEXT };

struct field {
	enum field_kind kind;
	size_t offset;
	const char *path;
};
#define FIELD(type, kind, member, path) { kind, offsetof(type, member), path }

/* Each field f[i] of base read from o (missing: NULL, or have = 0). */
void fields_of(json_object *o, void *base, const struct field *f, size_t n);

/*
 * A new reference to o, or to a cleaned copy of it when a string or key
 * is not valid UTF-8 or holds a control character other than newline and
 * tab (lib/util.h, sb_add_clean): no escape makes those valid in XML or
 * safe on a terminal.  The caller puts it.
 */
json_object *clean_ref(json_object *o);

#endif
