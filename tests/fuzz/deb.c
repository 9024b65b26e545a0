// SPDX-License-Identifier: Apache-2.0
/* What the harness reads of apt's output: apt-cache show
 * (deb_parse_show) and apt-get source --print-uris
 * (fio_parse_print_uris).  The first byte picks which. */
#include "fuzz.h"

#include "guest/fio.h"
#include "kernel/deb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, *a = NULL, *b = NULL;

	if (!size)
		return 0;
	s = fuzz_cstr(data + 1, size - 1);
	if (data[0] & 1) {
		int r = fio_parse_print_uris(s, &a, &b);

		FUZZ_ASSERT(r == FIO_SRC_OK ? a && b : !a && !b);
	} else {
		(void)deb_parse_show(s, &a, &b);
	}
	free(a);
	free(b);
	free(s);
	return 0;
}
