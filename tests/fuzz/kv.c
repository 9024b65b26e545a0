// SPDX-License-Identifier: Apache-2.0
/* kv_lines and kv_words: the key=value payloads of small records.  The
 * first byte picks which. */
#include "fuzz.h"

#include "record/kv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kvlist kv = KVLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	int r;

	if (!size)
		return 0;
	if (data[0] & 1)
		r = kv_words(&kv, (const char *)data + 1, size - 1, &err);
	else
		r = kv_lines(&kv, (const char *)data + 1, size - 1, &err);
	FUZZ_ASSERT(r == 0 || err.len > 0);
	for (size_t i = 0; i < kv.n; i++) {
		/* Duplicates keep the first: each key once. */
		FUZZ_ASSERT(kv_get(&kv, kv.v[i].key) == kv.v[i].value);
		FUZZ_ASSERT(strlen(kv.v[i].value) <= KV_VALUE_MAX);
		(void)kv_get_num(&kv, kv.v[i].key);
	}
	kvlist_release(&kv);
	sb_release(&err);
	return 0;
}
