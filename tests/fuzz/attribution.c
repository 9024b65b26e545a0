// SPDX-License-Identifier: Apache-2.0
/* attr_hist_parse and attr_source_json: the hist files of the guest's
 * hist triggers (initramfs/lib/attribution.sh, attr_start). */
#include "fuzz.h"

#include <string.h>

#include "record/attribution.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct attr_hist h = ATTR_HIST_INIT;
	struct strbuf err = STRBUF_INIT;

	if (attr_hist_parse(&h, (const char *)data, size, &err) == 0) {
		FUZZ_ASSERT(err.len == 0);
		for (size_t i = 0; i < h.n; i++) {
			const struct attr_entry *e = &h.e[i];

			FUZZ_ASSERT(e->hitcount >= 0 && e->hitcount <= ATTR_VALUE_MAX);
			FUZZ_ASSERT(e->order <= ATTR_MAX_ORDER);
			FUZZ_ASSERT(e->nframes <= ATTR_MAX_FRAMES);
			FUZZ_ASSERT(attr_entry_bytes(e, ATTR_PAGES) >= 0);
			FUZZ_ASSERT(attr_fold(e->frames, e->nframes) <= e->nframes);
			for (size_t f = 0; f < e->nframes; f++)
				FUZZ_ASSERT(strlen(e->frames[f]) < ATTR_FRAME_MAX);
		}
		for (int u = 0; u < 2; u++) {
			json_object *o = attr_source_json(&h, u ? ATTR_BYTES : ATTR_PAGES, 5);
			json_object *sites = json_object_object_get(o, "sites");
			long long total = json_object_get_int64(json_object_object_get(o, "bytes"));

			FUZZ_ASSERT(total >= 0);
			FUZZ_ASSERT(json_object_array_length(sites) <= 5);
			/* The result is JSON that reads back. */
			const char *txt = json_object_to_json_string(o);
			json_object *back = json_tokener_parse(txt);
			FUZZ_ASSERT(back != NULL);
			json_object_put(back);
			json_object_put(o);
		}
	} else {
		FUZZ_ASSERT(err.len > 0);
		FUZZ_ASSERT(h.n == 0 && h.e == NULL);
	}
	attr_hist_release(&h);
	sb_release(&err);
	return 0;
}
