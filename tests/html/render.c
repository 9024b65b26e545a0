// SPDX-License-Identifier: Apache-2.0
/*
 * render: write the HTML page of a result.json or of a comparison's JSON,
 * for tests/html/chromium.sh (which builds it against build/libscaletest.a):
 *
 *	render run RESULT.json OUT.html
 *	render compare COMPARE.json OUT.html
 *
 * The page is made as report.c makes it: the model built from the JSON
 * (report/model.h), then the HTML writer (report/html.h).
 *
 * Exit 0 when the page is written, 1 when the JSON cannot be read or the
 * page not written, 2 on a bad command line.
 */
#include <stdio.h>
#include <string.h>

#include <json.h>

#include "report/html.h"
#include "report/model.h"
#include "lib/strbuf.h"
#include "lib/util.h"

int main(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	json_object *root;
	int r;

	if (argc != 4 || (strcmp(argv[1], "run") && strcmp(argv[1], "compare"))) {
		fputs("usage: render run|compare IN.json OUT.html\n", stderr);
		return 2;
	}
	root = json_object_from_file(argv[2]);
	if (!root) {
		fprintf(stderr, "render: cannot read '%s': %s\n", argv[2], json_util_get_last_err());
		return 1;
	}
	if (!strcmp(argv[1], "run")) {
		struct report_model m;
		report_model_from_json(root, &m);
		html_run(&m, &sb);
		report_model_release(&m);
	} else {
		struct compare_model m;
		compare_model_from_json(root, &m);
		html_compare(&m, &sb);
		compare_model_release(&m);
	}
	r = write_file_atomic(argv[3], sb.buf, sb.len);
	json_object_put(root);
	sb_release(&sb);
	return r < 0;
}
