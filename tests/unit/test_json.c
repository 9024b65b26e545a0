// SPDX-License-Identifier: Apache-2.0
/* lib/json.h's bounded reader: what a document costs, counted before
 * json-c makes it, and the limits against what the harness itself writes. */
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/util.h"
#include "record/records.h"
#include "test.h"

/* text fed in chunks of `step` bytes within lim: the reader's status. */
static int feed(const char *text, size_t step, const struct json_limits *lim,
		struct json_reader *r, struct strbuf *err)
{
	size_t len = strlen(text), off = 0;
	int st = 0;

	json_reader_init(r, "doc", lim);
	while (st == 0 && off < len) {
		size_t n = len - off < step ? len - off : step;

		st = json_reader_feed(r, text + off, n, err);
		off += n;
	}
	return st == 0 ? json_reader_end(r, err) : st;
}

static const struct json_limits unlimited = { (size_t)1 << 30, (size_t)1 << 30, (size_t)1 << 30 };

/* Strings in either quote with escapes, and json-c's comments, hide
 * braces and quotes from a naive count: the reader's counts are never
 * below the tree json-c makes, whatever the chunks. */
TEST(json_reader_counts_what_jsonc_makes)
{
	static const char *const docs[] = {
		"{\"a\": [{}, {}, []], \"b\": {\"c\": null}}",
		"{\"a\": '\"', \"b\": [{}, {}, {}, {}], \"c\": '\"'}",
		"{\"a\": \"\\\"\", \"b\": [{}, {}, {}], \"c\": \"\\\\\"}",
		"{'a\\\"': [{}, {}], \"q\": 'x\"y\\\\', \"r\": [{}]}",
		"{/* \" */ \"a\": [{}, {}, {}] /* \" */, \"b\": 1}",
		"{// \" '\n \"a\": [{}, {}], \"b\": [[[]]]}",
		"{\"a\": [1, -2.5e3, true, false, null, NaN, -Infinity], \"b\": \"{[\"}",
		/* json-c's comments: three stars and a slash do not end one */
		"{\"a\": [/***/ \" */ {}, {}, {}, {}]}",
		"{/**/\"a\": /**/ [{}, /* * / */ {}]}",
	};

	for (size_t i = 0; i < ARRAY_SIZE(docs); i++)
		for (size_t step = 1; step <= 64; step *= 4) {
			struct json_reader r;
			struct strbuf err = STRBUF_INIT;
			size_t c = 0, v = 0;
			json_object *o = NULL;
			int st = feed(docs[i], step, &unlimited, &r, &err);

			if (st == 1)
				o = json_reader_root(&r);
			CHECKF(o, "doc %zu (step %zu): %s", i, step, err.buf);
			if (o) {
				json_tree_cost(o, &c, &v);
				CHECKF(r.containers >= c && r.values >= v,
				       "doc %zu (step %zu): counted %zu containers, %zu values; "
				       "json-c made %zu, %zu", i, step, r.containers, r.values, c, v);
			}
			json_object_put(o);
			json_reader_release(&r);
			sb_release(&err);
		}
}

/* At the limit a document loads; one more object, array or value and it
 * is refused, naming the document and the limit. */
TEST(json_reader_refuses_past_its_limits)
{
	const struct json_limits lim = { 1 << 20, 4, 8 };
	struct json_reader r;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(feed("{\"a\": [{}, {}], \"b\": 1}", 3, &lim, &r, &err), 1);
	CHECK_EQ_INT(r.containers, 4);
	json_reader_release(&r);
	CHECK_EQ_INT(feed("{\"a\": [{}, {}, {}]}", 3, &lim, &r, &err), -1);
	CHECK_CONTAINS(err.buf, "doc: more than 4 objects and arrays");
	json_reader_release(&r);
	sb_reset(&err);
	/* quotes that hide nothing from the reader */
	CHECK_EQ_INT(feed("{'\"': [{}, {}, {}], \"x\": '\"'}", 1, &lim, &r, &err), -1);
	CHECK_CONTAINS(err.buf, "more than 4 objects and arrays");
	json_reader_release(&r);
	sb_reset(&err);
	CHECK_EQ_INT(feed("{\"a\": [1, 2, 3, 4, 5, 6, 7]}", 5, &lim, &r, &err), -1);
	CHECK_CONTAINS(err.buf, "doc: more than 8 values");
	json_reader_release(&r);
	sb_reset(&err);
	{
		const struct json_limits small = { 10, 100, 100 };

		CHECK_EQ_INT(feed("{\"a\": \"0123456789\"}", 4, &small, &r, &err), -1);
		CHECK_CONTAINS(err.buf, "larger than the harness reads for such a file "
					"(more than 10 bytes)");
		json_reader_release(&r);
	}
	sb_release(&err);
}

TEST(json_parse_object_says_what_is_wrong)
{
	json_object *o = (json_object *)1;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(json_parse_object("{\"a\": [", 7, "x", &unlimited, &o, &err), -1);
	CHECK(o == NULL);
	CHECK_CONTAINS(err.buf, "x: not valid JSON (unexpected end of data at byte 7)");
	sb_reset(&err);
	CHECK_EQ_INT(json_parse_object("[1]", 3, "x", &unlimited, &o, &err), -1);
	CHECK_CONTAINS(err.buf, "x: not a JSON object");
	sb_reset(&err);
	CHECK_EQ_INT(json_parse_object("{\"a\": }", 7, "x", &unlimited, &o, &err), -1);
	CHECK_CONTAINS(err.buf, "x: not valid JSON");
	sb_reset(&err);
	/* the first value; what follows is not read */
	CHECK_EQ_INT(json_parse_object("{\"a\": 1}\ntrailer", 16, "x", &unlimited, &o, &err), 0);
	CHECK_EQ_INT(jint(o, "a", 0), 1);
	json_object_put(o);
	sb_release(&err);
}

/* Whatever the guest sends, a run's result.json is within what the
 * harness reads back: the largest real one (4000 disks), its monitor
 * samples as many as records keep (RECORDS_MAX_SAMPLES), each number at
 * ten digits, with as many dd checks (RECORDS_MAX_IO) and guest timings
 * (RECORDS_MAX_TIMING_PHASES by RECORDS_MAX_TIMING_KEYS) as records keep,
 * written as the harness writes it, loads. */
TEST(json_limits_hold_a_result_at_the_records_bounds)
{
	char *in = xstrfmt("%s/replay/seed-i386-4000/result.json", fixtures_dir);
	char *out = xstrfmt("%s/result.json", test_tmpdir());
	struct strbuf err = STRBUF_INIT;
	json_object *root, *one = NULL, *samples, *io, *timings;	/* deep_copy wants *dst NULL */

	REQUIRE(json_load_object(in, &root, &err) == 0);
	REQUIRE(jlen(jarray(root, "monitor.samples")) > 0);
	REQUIRE(json_object_deep_copy(json_object_array_get_idx(jarray(root, "monitor.samples"), 0),
				      &one, NULL) == 0);
	json_object_object_foreach(one, k, v) {
		if (json_object_is_type(v, json_type_object)) {
			json_object_object_foreach(v, k2, v2) {
				(void)v2;
				json_object_object_add(v, k2, json_object_new_int64(9999999999LL));
			}
		} else if (json_object_is_type(v, json_type_int)) {
			json_object_object_add(one, k, json_object_new_int64(9999999999LL));
		}
	}
	samples = json_object_new_array();
	for (int i = 0; i < RECORDS_MAX_SAMPLES; i++)
		json_object_array_add(samples, json_object_get(one));
	json_object_object_add(jget(root, "monitor"), "samples", samples);
	io = json_object_new_array();
	for (int i = 0; i < RECORDS_MAX_IO; i++) {
		json_object *d = json_object_new_object();

		json_object_object_add(d, "disk", json_object_new_string("sdabcd"));
		json_object_object_add(d, "ok", json_object_new_boolean(1));
		json_object_object_add(d, "bytes", json_object_new_int64(1073741824));
		json_object_object_add(d, "write_s", json_seconds(12345.67));
		json_object_object_add(d, "read_s", json_seconds(12345.67));
		json_object_array_add(io, d);
	}
	json_object_object_add(root, "io", io);
	timings = json_object_new_object();
	for (int p = 0; p < RECORDS_MAX_TIMING_PHASES; p++) {
		json_object *ph = json_object_new_object();
		char name[32];

		for (int j = 0; j < RECORDS_MAX_TIMING_KEYS; j++) {
			snprintf(name, sizeof(name), "timing_key_%02d_s", j);
			json_object_object_add(ph, name, json_seconds(12345.67));
		}
		snprintf(name, sizeof(name), "phase-%02d", p);
		json_object_object_add(timings, name, ph);
	}
	json_object_object_add(root, "guest_timings", timings);
	REQUIRE(json_save(root, out) == 0);
	json_object_put(root);
	json_object_put(one);
	root = NULL;
	CHECKF(json_load_object(out, &root, &err) == 0,
	       "a result.json at the records' bounds is refused: %s", err.buf);
	json_object_put(root);
	sb_release(&err);
	free(in);
	free(out);
}
