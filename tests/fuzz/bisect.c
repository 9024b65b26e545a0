// SPDX-License-Identifier: Apache-2.0
/* bisect_parse_mark: what git bisect printed after a mark (commit
 * subjects included, so any bytes).  A hash it returns is 40 lowercase
 * hex digits that stood alone before " is the first bad commit". */
#include "fuzz.h"

#include "campaign/bisect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf first = STRBUF_INIT;
	json_object *cands = json_object_new_array();
	int r = bisect_parse_mark((const char *)data, size, &first, cands);

	FUZZ_ASSERT(r == BISECT_MARK_MORE || r == BISECT_MARK_FOUND || r == BISECT_MARK_SKIPPED);
	FUZZ_ASSERT((r == BISECT_MARK_FOUND) == (first.len > 0));
	if (first.len) {
		FUZZ_ASSERT(first.len == 40 && strspn(first.buf, "0123456789abcdef") == 40);
		FUZZ_ASSERT(memmem(data, size, first.buf, first.len) != NULL);
	}
	FUZZ_ASSERT(r == BISECT_MARK_SKIPPED || json_object_array_length(cands) == 0);
	for (size_t i = 0; i < json_object_array_length(cands); i++) {
		const char *h = json_object_get_string(json_object_array_get_idx(cands, i));
		FUZZ_ASSERT(strlen(h) == 40 || strlen(h) == 64);
	}
	json_object_put(cands);
	sb_release(&first);
	return 0;
}
