// SPDX-License-Identifier: Apache-2.0
/* owner_parse: the owner file of a run directory in progress (gc reads
 * those of other, maybe killed, harnesses). */
#include "fuzz.h"

#include "lib/owner.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct owner o;
	struct strbuf sb = STRBUF_INIT;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (owner_parse(text, &o) == 0) {
		struct owner back;

		FUZZ_ASSERT(o.pid > 0 && memchr(o.host, '\0', sizeof(o.host)));
		/* What parses formats back to something that parses the same. */
		owner_format(&o, &sb);
		FUZZ_ASSERT(owner_parse(sb.buf, &back) == 0);
		FUZZ_ASSERT(!strcmp(back.host, o.host) && back.pid == o.pid &&
			    back.start == o.start);
		(void)owner_alive(&o);
	}
	sb_release(&sb);
	free(text);
	return 0;
}
