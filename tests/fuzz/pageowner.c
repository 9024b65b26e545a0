// SPDX-License-Identifier: Apache-2.0
/* po_parse and po_source_json: the guest's folded page_owner reads
 * (initramfs/lib/attribution.sh, po_fold).  The input is two reads, before and after,
 * split at the first form feed (without one, the same text is both). */
#include "fuzz.h"

#include <string.h>

#include "record/attribution.h"
#include "record/pageowner.h"

static int parse(struct po_snapshot *ps, const char *buf, size_t len)
{
	struct strbuf err = STRBUF_INIT;
	int r = po_parse(ps, buf, len, &err);

	if (r == 0) {
		FUZZ_ASSERT(err.len == 0);
		for (size_t i = 0; i < ps->n; i++) {
			const struct po_stack *s = &ps->s[i];

			FUZZ_ASSERT(s->count >= 1 && s->count <= ATTR_VALUE_MAX);
			FUZZ_ASSERT(s->order >= 0 && s->order <= ATTR_MAX_ORDER);
			FUZZ_ASSERT(s->nframes <= ATTR_MAX_FRAMES);
			for (size_t f = 0; f < s->nframes; f++)
				FUZZ_ASSERT(strlen(s->frames[f]) > 0 &&
					    strlen(s->frames[f]) < ATTR_FRAME_MAX);
		}
	} else {
		FUZZ_ASSERT(err.len > 0);
		FUZZ_ASSERT(ps->n == 0 && ps->s == NULL);
	}
	sb_release(&err);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data, *ff = memchr(buf, '\f', size);
	size_t blen = ff ? (size_t)(ff - buf) : size;
	const char *a = ff ? ff + 1 : buf;
	size_t alen = ff ? size - blen - 1 : size;
	struct po_snapshot before = PO_SNAPSHOT_INIT, after = PO_SNAPSHOT_INIT;

	if (parse(&before, buf, blen) == 0 && parse(&after, a, alen) == 0) {
		json_object *o = po_source_json(&before, &after, 5), *back;
		long long bytes = json_object_get_int64(json_object_object_get(o, "bytes"));
		long long freed = json_object_get_int64(json_object_object_get(o, "freed_bytes"));
		long long net = json_object_get_int64(json_object_object_get(o, "net_bytes"));

		FUZZ_ASSERT(bytes >= 0 && freed >= 0);
		FUZZ_ASSERT(net == bytes - freed);
		FUZZ_ASSERT(json_object_array_length(json_object_object_get(o, "sites")) <= 5);
		/* The result is JSON that reads back. */
		back = json_tokener_parse(json_object_to_json_string(o));
		FUZZ_ASSERT(back != NULL);
		json_object_put(back);
		json_object_put(o);
		/* A read against itself gains nothing. */
		o = po_source_json(&after, &after, 5);
		FUZZ_ASSERT(json_object_get_int64(json_object_object_get(o, "bytes")) == 0);
		FUZZ_ASSERT(json_object_get_int64(json_object_object_get(o, "freed_bytes")) == 0);
		json_object_put(o);
	}
	po_release(&before);
	po_release(&after);
	return 0;
}
