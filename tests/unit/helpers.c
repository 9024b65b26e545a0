// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>

#include "helpers.h"
#include "lib/child.h"
#include "lib/util.h"
#include "test.h"

char *kmod_tree(const char *variant)
{
	char *root = xstrfmt("%s/root%s%s", test_tmpdir(), *variant ? "-" : "", variant);
	const char *argv[] = { "sh", SCALETEST_SOURCE_ROOT "/tests/fixtures/kmod/mktree.sh",
			       root, variant, NULL };
	struct child_opts o = CHILD_OPTS_INIT;
	struct strbuf out = STRBUF_INIT;
	struct child_result res;

	o.capture = &out;
	o.timeout = 120;
	if (child_run(argv, &o, &res) < 0 || !child_ok(&res))
		test_abort(__FILE__, __LINE__, "mktree.sh %s failed (%s): %s", variant,
			   child_describe(&res), out.buf);
	sb_release(&out);
	return root;
}

void records_feed_all(struct records *rs, const char *buf, size_t len)
{
	stderr_capture_begin();
	records_feed(rs, buf, len);
	records_finish(rs);
	free(stderr_capture_end());
}

const char *records_rejection(const struct records *rs, size_t i)
{
	return json_object_get_string(json_object_array_get_idx(rs->rejections, i));
}
