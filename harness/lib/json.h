/* SPDX-License-Identifier: Apache-2.0 */
/*
 * json: json-c as the harness uses it, for every document it reads or
 * writes (result.json, host.json, compare.json, summary.json, bisect.json,
 * key.json): bounded loading, tolerant accessors, numbers that replay to
 * the same bytes, and clean strings.
 *
 * Reading.  Documents may come from anywhere (docs/trust.md): they are
 * loaded with a size bound and read through accessors that tolerate a
 * missing key or a value of another type, returning NULL or the default:
 *
 *	json_object *doc;
 *	if (json_load_object(path, &doc, &err) < 0) ...	// "path: not valid JSON ..."
 *	long long n = jint(doc, "deltas.insmod.per_disk_bytes.MemFree", -1);
 *	for (size_t i = 0; i < jlen(jarray(doc, "phases")); i++) ...
 *	json_object_put(doc);
 *
 * Writing.  A number that must replay byte for byte goes in with a fixed
 * number of decimals (json_seconds, json_fixed); a string from a guest or
 * from another document with json_clean_string(); json_save() cleans the
 * whole tree again (json_clean_strings) and writes it atomically, so no
 * document the harness writes holds invalid UTF-8, a control character, a
 * noncharacter or a bidi control.
 */
#ifndef SCALETEST_LIB_JSON_H
#define SCALETEST_LIB_JSON_H

#include <json.h>
#include <stddef.h>

#include "lib/strbuf.h"

/* The largest JSON document read (a 65,536-disk run's result.json is a
 * few MB). */
#define JSON_MAX_BYTES ((size_t)256 << 20)

/* A JSON file whose top level is an object, of at most JSON_MAX_BYTES, a
 * regular file: 0, or -1 with the reason (naming path) in err. */
int json_load_object(const char *path, json_object **root, struct strbuf *err);
/* Writes root (pretty, atomically: lib/util.h) after json_clean_strings(). */
int json_save(json_object *root, const char *path);
/* o as every document the harness writes it: json-c's pretty text (two
 * spaces, no escaped slashes), the same bytes whatever json-c's version:
 * an empty array or object is "[" and "]" on lines of their own, as
 * json-c 0.16 (bookworm) writes it, where 0.17 and later (trixie) write
 * "[]", so that golden files and replayed result.json agree on both. */
void json_pretty(struct strbuf *out, json_object *o);
/* The same for json-c's pretty text p (what json_pretty does to it). */
void json_pretty_text(struct strbuf *out, const char *p);

/* Accessors that tolerate missing keys: NULL / def. */
json_object *jget(json_object *o, const char *path);	/* "a.b.c" */
/* The value at path if it is an array, else NULL; and the length of any
 * value as an array (0 for NULL or anything else): json-c asserts on
 * json_object_array_length() of a non-array. */
json_object *jarray(json_object *o, const char *path);
size_t jlen(json_object *a);
/* A number at path, else def; NaN, an infinity (and for jint a double
 * past int64) counts as none. */
long long jint(json_object *o, const char *path, long long def);
double jdouble(json_object *o, const char *path, double def);
const char *jstr(json_object *o, const char *path, const char *def);

/* A number with two decimals ("12.35"; all of a double's digits from 1e15
 * on, so a large value is never cut short); NULL (null) if not finite. */
json_object *json_seconds(double s);
/* A double with a fixed number of decimals ("0.998213" for 6), so that a
 * replay gives the same bytes; no "-0.000"; NULL if not finite. */
json_object *json_fixed(double v, int decimals);

/* A string of n bytes made clean on one line (sb_add_clean, lib/util.h):
 * what a guest or another document says, as result.json keeps it. */
json_object *json_clean_string(const char *s, size_t n);
/* Every string and key of o's tree made valid UTF-8 without control
 * characters, noncharacters or bidi controls (sb_add_clean; newlines and
 * tabs kept in values), in place. */
void json_clean_strings(json_object *o);

#endif
