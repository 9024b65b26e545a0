// SPDX-License-Identifier: Apache-2.0
/* slabinfo_parse: /proc/slabinfo text from the guest. */
#include "fuzz.h"

#include "record/slabinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct slabinfo s = SLABINFO_INIT;
	struct strbuf err = STRBUF_INIT;

	if (slabinfo_parse(&s, (const char *)data, size, &err) == 0) {
		for (size_t i = 0; i < s.n; i++) {
			FUZZ_ASSERT(slabinfo_find(&s, s.c[i].name) == &s.c[i]);
			FUZZ_ASSERT(slab_cache_bytes(&s.c[i], 4096) >= 0);
			FUZZ_ASSERT(slab_cache_bytes(&s.c[i], 65536) >= 0);
		}
	} else {
		FUZZ_ASSERT(err.len > 0);
	}
	slabinfo_release(&s);
	sb_release(&err);
	return 0;
}
