// SPDX-License-Identifier: Apache-2.0
/*
 * lib/json.h's bounded reader: a document from anywhere (result.json,
 * host.json, compare.json, key.json; fio's output from the guest).  Fed in
 * chunks whose size the input's first byte picks, its counts of objects,
 * arrays and values must never be below the tree json-c made of the same
 * bytes: the limits bound memory only if json-c can make nothing the
 * reader did not count (a quote inside a comment, a '/' ending no comment,
 * a string in single quotes).
 */
#include "fuzz.h"

#include "lib/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct json_limits lim = { (size_t)1 << 20, 256, 1024 };
	struct strbuf err = STRBUF_INIT;
	struct json_reader r;
	size_t step, off = 1;
	int st = 0;

	if (!size)
		return 0;
	step = (size_t)data[0] % 17 + 1;
	json_reader_init(&r, "fuzz", &lim);
	while (st == 0 && off < size) {
		size_t n = size - off < step ? size - off : step;

		st = json_reader_feed(&r, (const char *)data + off, n, &err);
		off += n;
	}
	if (st == 0)
		st = json_reader_end(&r, &err);
	FUZZ_ASSERT(st == 1 || st == -1);
	FUZZ_ASSERT(st == 1 || err.len > 0);
	if (st == 1) {
		json_object *o = json_reader_root(&r);
		size_t c = 0, v = 0;

		json_tree_cost(o, &c, &v);
		FUZZ_ASSERT(c <= r.containers && v <= r.values);
		FUZZ_ASSERT(r.containers <= lim.containers && r.values <= lim.values);
		json_object_put(o);
	}
	json_reader_release(&r);
	sb_release(&err);
	return 0;
}
