/* SPDX-License-Identifier: Apache-2.0 */
/*
 * json: json-c as the harness uses it, for every document it reads or
 * writes (result.json, host.json, compare.json, summary.json, bisect.json,
 * key.json): bounded loading, tolerant accessors, numbers that replay to
 * the same bytes, and clean strings.
 *
 * Reading.  Documents may come from anywhere (docs/trust.md): they are
 * loaded within limits on what they cost, not only on their bytes (json-c
 * spends about 780 bytes on an empty object "{}", 150 on an empty array and
 * 70 to 110 on a number, a string or a key: a 9 MB file of "{}" once took
 * 2.3 GB).  The reader counts the objects, arrays and values of each chunk
 * before json-c sees it and refuses the document past a limit, naming the
 * file and the limit, so memory stays bounded whatever the input; then it
 * is read through accessors that tolerate a missing key or a value of
 * another type, returning NULL or the default:
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

/*
 * What one document may hold, sized from real ones (docs/trust.md "What a
 * document may cost"): the largest result.json here (4000 disks, 148
 * monitor samples) is 564 KB: 1,436 objects and arrays, 38,279 values; a
 * monitor sample is 2.3 KB, 3 objects and 155 values (keys included); a run
 * keeps at most RECORDS_MAX_SAMPLES of them (record/records.h; a unit test
 * loads a result.json at that bound).  A 98,304-disk run (4,901 s, at most
 * a sample a second) comes to about 11.5 MB, 16,800 objects and arrays and
 * 781,000 values.  A document at these limits made of the costliest values
 * (65,533 "{}", a million keys of doubles) peaked at 274 MB.
 */
#define JSON_MAX_BYTES ((size_t)32 << 20)
#define JSON_MAX_CONTAINERS ((size_t)65536)	/* objects and arrays */
#define JSON_MAX_VALUES ((size_t)2097152)	/* every value, keys included */

struct json_limits {
	size_t bytes, containers, values;
};
/* JSON_MAX_BYTES, JSON_MAX_CONTAINERS, JSON_MAX_VALUES. */
extern const struct json_limits json_document_limits;

/* A JSON file whose top level is an object, a regular file, within the
 * document limits: 0, or -1 with the reason (naming path, and the limit
 * passed) in err. */
int json_load_object(const char *path, json_object **root, struct strbuf *err);
/* The same within other limits (a baseline's key.json: 1 MB). */
int json_load_object_max(const char *path, const struct json_limits *lim,
			 json_object **root, struct strbuf *err);
/* The first JSON value of buf[0..len) (what follows it is not read),
 * parsed within lim; it must be an object: 0, or -1 with the reason
 * (naming name) in err.  For a document inside other input (fio's). */
int json_parse_object(const char *buf, size_t len, const char *name,
		      const struct json_limits *lim, json_object **root, struct strbuf *err);

/*
 * The reader under all three, for a caller that wants the counts (the fuzz
 * target holds them against the tree json-c made):
 *
 *	struct json_reader r;
 *	json_reader_init(&r, path, &json_document_limits);
 *	while (have a chunk && (st = json_reader_feed(&r, chunk, n, &err)) == 0)
 *		...;
 *	if (st == 0)
 *		st = json_reader_end(&r, &err);		// input ended early: -1
 *	if (st == 1)
 *		root = json_reader_root(&r);		// the caller's now
 *	json_reader_release(&r);
 *
 * json_reader_feed scans each chunk first as json-c will read it (strings
 * in either quote with their escapes, json-c's comments), counting every
 * object and array and every value (a string, a key, a number or literal,
 * an object or array), and refuses the chunk when a count would pass its
 * limit; only then does json-c parse it.  The counts are never below what
 * json-c makes of the same bytes.  Returns 1 when a value is complete, 0
 * when it needs more, -1 when refused or not JSON (err says which).
 */
struct json_reader {
	const char *name;
	const struct json_limits *lim;
	json_tokener *tok;
	json_object *root;
	size_t bytes, containers, values;
	char quote;		/* inside a string: its quote, else 0 */
	unsigned char esc;	/* the string's next byte is escaped */
	unsigned char token;	/* inside a number or literal */
	unsigned char comment;	/* 0, or where in a comment (json.c) */
};
void json_reader_init(struct json_reader *r, const char *name, const struct json_limits *lim);
int json_reader_feed(struct json_reader *r, const char *buf, size_t n, struct strbuf *err);
int json_reader_end(struct json_reader *r, struct strbuf *err);
json_object *json_reader_root(struct json_reader *r);
void json_reader_release(struct json_reader *r);
/* What json-c made of a document, counted as the reader counts: its
 * objects and arrays to *containers, its values (keys included) to
 * *values.  The reader's counts of the same bytes are never below these
 * (the unit test and the fuzz target of the reader hold them to it). */
void json_tree_cost(json_object *o, size_t *containers, size_t *values);
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
