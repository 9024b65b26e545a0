// SPDX-License-Identifier: Apache-2.0
/* meminfo_parse: /proc/meminfo text from the guest. */
#include "fuzz.h"

#include "record/meminfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct meminfo m = MEMINFO_INIT;
	struct strbuf err = STRBUF_INIT;

	if (meminfo_parse(&m, (const char *)data, size, &err) == 0) {
		FUZZ_ASSERT(m.n > 0);
		for (size_t i = 0; i < m.n; i++) {
			FUZZ_ASSERT(m.f[i].value >= 0);
			/* Names are unique: find() gives each field itself. */
			FUZZ_ASSERT(meminfo_find(&m, m.f[i].name) == &m.f[i]);
		}
	} else {
		FUZZ_ASSERT(err.len > 0);
	}
	meminfo_release(&m);
	sb_release(&err);
	return 0;
}
