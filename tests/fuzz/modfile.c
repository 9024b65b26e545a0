// SPDX-License-Identifier: Apache-2.0
/* modfile_decode: a module file of a kernel package or modules tree, as
 * the harness decompresses it into the initramfs.  The first byte picks
 * how the name says it is compressed (none, xz, zstd, gzip, unknown); the
 * rest is the file. */
#include "fuzz.h"

#include "guest/modfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum modfile_comp comps[] = {
		MODFILE_NONE, MODFILE_XZ, MODFILE_ZSTD, MODFILE_GZIP, MODFILE_UNKNOWN,
	};
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int r;

	if (!size)
		return 0;
	sb_adds(&out, "kept");
	r = modfile_decode(data + 1, size - 1, comps[data[0] % ARRAY_SIZE(comps)],
			   "fuzz.ko", &out, &err);
	/* What came before is kept; a success is an ELF file within bounds,
	 * a failure says so, naming the file, and adds nothing. */
	FUZZ_ASSERT(out.len >= 4 && !memcmp(out.buf, "kept", 4));
	if (r == 0) {
		FUZZ_ASSERT(out.len >= 8 && !memcmp(out.buf + 4, "\177ELF", 4));
		FUZZ_ASSERT(out.len - 4 <= MODFILE_MAX);
		FUZZ_ASSERT(!err.len);
	} else {
		FUZZ_ASSERT(r == -1 && out.len == 4);
		FUZZ_ASSERT(strstr(err.buf, "'fuzz.ko'"));
	}
	sb_release(&out);
	sb_release(&err);
	return 0;
}
