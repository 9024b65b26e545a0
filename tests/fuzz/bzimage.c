// SPDX-License-Identifier: Apache-2.0
/* kernel_image_parse: the boot header of a file given to run --kernel. */
#include "fuzz.h"

#include "kernel/kernel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kernel_image_info info;
	struct strbuf err = STRBUF_INIT;
	int r = kernel_image_parse(data, size, &info, &err);

	FUZZ_ASSERT(r == 0 || err.len > 0);
	if (r == 0) {
		FUZZ_ASSERT(memchr(info.version, '\0', sizeof(info.version)));
		FUZZ_ASSERT(info.arch == ARCH_X86_64 || info.arch == ARCH_I386 || info.arch == -1);
		/* The version is one word, printable. */
		for (const char *c = info.version; *c; c++)
			FUZZ_ASSERT(*c > ' ' && *c < 0x7f);
	}
	sb_release(&err);
	return 0;
}
