// SPDX-License-Identifier: Apache-2.0
/* What the harness reads of apt's and dpkg's output: apt-cache show
 * (deb_parse_stanza, a split kernel's parts included), apt-get source
 * --print-uris (fio_parse_print_uris) and dpkg-deb -c listings, then the
 * kernel layout rules over them (layout.h).  The first byte picks which. */
#include "fuzz.h"

#include "guest/fio.h"
#include "kernel/deb.h"
#include "kernel/layout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, *a = NULL, *b = NULL;

	if (!size)
		return 0;
	s = fuzz_cstr(data + 1, size - 1);
	if ((data[0] & 3) == 1) {
		int r = fio_parse_print_uris(s, &a, &b);

		FUZZ_ASSERT(r == FIO_SRC_OK ? a && b : !a && !b);
	} else if ((data[0] & 3) == 2) {
		struct strvec e = STRVEC_INIT;
		struct strbuf err = STRBUF_INIT;
		struct kernel_layout l = KERNEL_LAYOUT_INIT;

		if (layout_parse_listing(s, strlen(s), &e, &err) == 0 &&
		    kernel_layout_find(&e, &l, &err) == 0)
			FUZZ_ASSERT(l.version && l.image && l.modules &&
				    kernel_release_valid(l.version));
		kernel_layout_release(&l);
		strvec_clear(&e);
		sb_release(&err);
	} else {
		struct deb_stanza st;

		if (deb_parse_stanza(s, &st) == 0) {
			/* Checked against Debian's charsets: nothing that could
			 * be an option or a path reaches apt. */
			FUZZ_ASSERT(st.version && *st.version && !strchr(st.version, '/'));
			for (int k = 0; k < DEB_PARTS; k++)
				FUZZ_ASSERT(!st.part[k] || (st.part[k][0] != '-' &&
							    !strchr(st.part[k], '/')));
			deb_stanza_release(&st);
		}
	}
	free(a);
	free(b);
	free(s);
	return 0;
}
