// SPDX-License-Identifier: Apache-2.0
/* monitor_sample (a "sample" record: header, meminfo, slabinfo, vmstat)
 * and vmstat_parse on its own; the first byte picks which. */
#include "fuzz.h"

#include "record/monitor.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;

	if (!size)
		return 0;
	if (data[0] & 1) {
		struct vmstat v = VMSTAT_INIT;

		if (vmstat_parse(&v, (const char *)data + 1, size - 1, &err) < 0)
			FUZZ_ASSERT(err.len > 0);
		for (size_t i = 0; i < v.n; i++)
			(void)vmstat_get(&v, v.f[i].name);
		vmstat_release(&v);
	} else {
		json_object *o = NULL;
		long n = 0;

		if (monitor_sample((const char *)data + 1, size - 1, 4096, &o, &n, &err) == 0) {
			FUZZ_ASSERT(n >= 1);
			fuzz_check_json(o);
		} else {
			FUZZ_ASSERT(!o && err.len > 0);
		}
		json_object_put(o);
	}
	sb_release(&err);
	return 0;
}
