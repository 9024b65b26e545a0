// SPDX-License-Identifier: Apache-2.0
/* zoneinfo_parse: /proc/zoneinfo text from the guest. */
#include "fuzz.h"

#include "record/zoneinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zoneinfo z = ZONEINFO_INIT;
	struct strbuf err = STRBUF_INIT;

	if (zoneinfo_parse(&z, (const char *)data, size, &err) == 0) {
		long long all = zoneinfo_pcp_pages(&z, 0), low = zoneinfo_pcp_pages(&z, 1);

		FUZZ_ASSERT(z.n > 0 && z.n <= ZONEINFO_MAX_ZONES);
		/* The low zones' lists are some of them; nothing overflows. */
		FUZZ_ASSERT(low >= 0 && low <= all);
		for (size_t i = 0; i < z.n; i++)
			FUZZ_ASSERT(z.z[i].pcp_pages >= 0 && z.z[i].name[0]);
	} else {
		FUZZ_ASSERT(err.len > 0);
	}
	zoneinfo_release(&z);
	sb_release(&err);
	return 0;
}
