// SPDX-License-Identifier: Apache-2.0
/* fio_json_summarize: fio's JSON output, sent by the guest. */
#include "fuzz.h"

#include "record/fiojson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_object *jobs = json_object_new_array();
	struct strbuf err = STRBUF_INIT;
	int r = fio_json_summarize((const char *)data, size, "sample", jobs, &err);

	if (r < 0) {
		/* Nothing partial is appended. */
		FUZZ_ASSERT(err.len > 0 && json_object_array_length(jobs) == 0);
	} else {
		FUZZ_ASSERT((size_t)r <= json_object_array_length(jobs));
	}
	fuzz_check_json(jobs);
	json_object_put(jobs);
	sb_release(&err);
	return 0;
}
