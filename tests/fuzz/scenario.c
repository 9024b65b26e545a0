// SPDX-License-Identifier: Apache-2.0
/* scenario_parse and scenario_check: scenario files (and --set lines). */
#include "fuzz.h"

#include "result/result.h"
#include "scenario/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scenario s;
	struct strbuf err = STRBUF_INIT;

	scenario_init(&s);
	if (scenario_parse(&s, "fuzz.scn", (const char *)data, size, &err) == 0 &&
	    scenario_check(&s, &err) == 0) {
		json_object *set = result_settings(&s);
		long long tgts, luns;
		long *idx = NULL;
		size_t n = 0;

		fuzz_check_json(set);
		json_object_put(set);
		scenario_sd_layout(&s, &tgts, &luns);
		scenario_fio_sample(&s, &idx, &n);
		free(idx);
		(void)scenario_disk_cost_kb(&s);
	} else {
		FUZZ_ASSERT(err.len > 0);
	}
	scenario_release(&s);
	sb_release(&err);

	/* The same bytes, each line as a --set. */
	scenario_init(&s);
	for (const char *p = (const char *)data, *end = p + size; p < end; ) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = fuzz_cstr((const uint8_t *)p, l);

		if (!memchr(p, '\0', l))
			(void)scenario_set(&s, line, "--set", &err);
		free(line);
		p += l + 1;
	}
	scenario_release(&s);
	sb_release(&err);
	return 0;
}
