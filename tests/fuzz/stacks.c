// SPDX-License-Identifier: Apache-2.0
/* stk_chunk_parse, and ta_add/ta_json over what it accepts: the guest's
 * kernel stack samples (initramfs/lib/timeattr.sh). */
#include "fuzz.h"

#include <math.h>
#include <string.h>

#include "record/stacks.h"
#include "record/timeattr.h"
#include "result/result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stk_chunk c = STK_CHUNK_INIT;
	struct strbuf err = STRBUF_INIT;
	struct ta_run r;
	int added;

	if (stk_chunk_parse(&c, (const char *)data, size, &err) < 0) {
		FUZZ_ASSERT(err.len > 0);
		FUZZ_ASSERT(c.n == 0 && c.s == NULL && c.label == NULL);
		sb_release(&err);
		return 0;
	}
	FUZZ_ASSERT(err.len == 0 && c.label && c.tasks);
	for (size_t i = 0; i < c.n; i++) {
		const struct stk_sample *s = &c.s[i];

		FUZZ_ASSERT(isfinite(s->t) && s->t >= 0);
		FUZZ_ASSERT(!i || (s->n > c.s[i - 1].n && s->t >= c.s[i - 1].t));
		FUZZ_ASSERT(s->ntasks <= STK_MAX_TASKS);
		for (size_t k = 0; k < s->ntasks; k++) {
			struct strbuf site = STRBUF_INIT;

			FUZZ_ASSERT(s->tasks[k].nframes <= STK_MAX_FRAMES);
			FUZZ_ASSERT(strlen(s->tasks[k].comm) <= STK_COMM_MAX);
			for (size_t f = 0; f < s->tasks[k].nframes; f++)
				FUZZ_ASSERT(strlen(s->tasks[k].frames[f]) < STK_FRAME_MAX);
			stk_site(s->tasks[k].frames, s->tasks[k].nframes, &site);
			FUZZ_ASSERT(site.len > 0);
			sb_release(&site);
		}
	}
	/* Folded, twice (the second is out of order unless it is a label's
	 * end): never a crash, and the JSON is clean and adds up. */
	ta_init(&r);
	{
		struct stk_chunk c2 = STK_CHUNK_INIT;
		struct strbuf e2 = STRBUF_INIT;

		FUZZ_ASSERT(stk_chunk_parse(&c2, (const char *)data, size, &e2) == 0);
		added = ta_add(&r, &c, &err) == 0;
		sb_reset(&err);
		added |= ta_add(&r, &c2, &err) == 0;
		stk_chunk_release(&c2);
		sb_release(&e2);
	}
	{
		json_object *o = ta_json(&r), *labels = jget(o, "labels");

		FUZZ_ASSERT((o != NULL) == added);
		if (o)
			fuzz_check_json(o);
		for (size_t i = 0; i < jlen(labels); i++) {
			json_object *l = json_object_array_get_idx(labels, i);

			FUZZ_ASSERT(jlen(jget(l, "sites")) <= TA_TOP_SITES);
			FUZZ_ASSERT(jdouble(l, "on_cpu_s", 0) >= 0 && jdouble(l, "wait_s", 0) >= 0);
		}
		json_object_put(o);
	}
	ta_release(&r);
	stk_chunk_release(&c);
	sb_release(&err);
	return 0;
}
