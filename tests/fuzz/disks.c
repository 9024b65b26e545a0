// SPDX-License-Identifier: Apache-2.0
/* blocklist_parse: the guest's "blocks" records, and the sd naming. */
#include "fuzz.h"

#include "record/disks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct blocklist l = BLOCKLIST_INIT, base = BLOCKLIST_INIT, out = BLOCKLIST_INIT;
	struct strbuf err = STRBUF_INIT;

	if (blocklist_parse(&l, (const char *)data, size, &err) == 0) {
		/* The first half as the "before" list: what was added. */
		for (size_t i = 0; i < l.n / 2; i++) {
			ALLOC_GROW(base.b, base.n + 1, base.alloc);
			base.b[base.n++] = l.b[i];
		}
		blocklist_minus(&l, &base, &out);
		blocklist_sort(&out);
		for (size_t i = 0; i < l.n; i++) {
			char pfx[3], name[DISK_NAME_MAX];
			long idx = disk_index(l.b[i].name, pfx);

			FUZZ_ASSERT(blocklist_find(&l, l.b[i].name) != NULL);
			if (idx >= 0) {
				/* The naming rule both ways. */
				FUZZ_ASSERT(disk_name(pfx, idx, name, sizeof(name)) == 0);
				FUZZ_ASSERT(!strcmp(name, l.b[i].name));
			}
		}
	} else {
		FUZZ_ASSERT(err.len > 0);
	}
	blocklist_release(&l);
	blocklist_release(&base);
	blocklist_release(&out);
	sb_release(&err);
	return 0;
}
