// SPDX-License-Identifier: Apache-2.0
/*
 * The result.json loader and the report models: what `scaletest report`
 * and compare read from a run directory or a comparison, which may be
 * damaged or hostile.  The input is written to RESULT/result.json and
 * loaded with result_load (else with json_load_object, as a comparison
 * or a night's summary); whatever loads is made into a run's, a
 * comparison's and a night's model and every writer renders it.  Nothing
 * may crash, abort in a json-c assertion, or print unclean text.
 */
#include "fuzz.h"

#include <unistd.h>

#include "report/html.h"
#include "report/junit.h"
#include "report/markdown.h"
#include "report/text.h"
#include "report_check.h"
#include "result/result.h"

static char dir[] = "/tmp/scaletest-fuzz-result.XXXXXX";
static char *file;

static void cleanup(void)
{
	remove_tree(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!mkdtemp(dir))
		abort();
	atexit(cleanup);
	file = xstrfmt("%s/result.json", dir);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	json_object *o = NULL;

	if (write_file(file, data, size) < 0)
		abort();
	if (result_load(dir, &o, &err) == 0) {
		check_run_reports(o);
		json_object_put(o);
		o = NULL;
	}
	sb_reset(&err);
	if (json_load_object(file, &o, &err) == 0) {
		struct compare_model c;
		struct nightly_model n;

		check_run_reports(o);
		compare_model_from_json(o, &c);
		markdown_compare(&c, &sb);
		check_out(&sb);
		html_compare(&c, &sb);
		check_out(&sb);
		junit_compare(&c, &sb);
		check_out(&sb);
		text_compare(&c, &sb);
		check_out(&sb);
		compare_model_release(&c);
		nightly_model_from_json(o, NULL, &n);
		markdown_nightly(&n, &sb);
		check_out(&sb);
		junit_nightly(&n, &sb);
		check_out(&sb);
		{
			struct kcidb k;

			kcidb_init(&k, NULL);
			kcidb_add_nightly(&k, &n);
			check_kcidb(&k, &sb);
		}
		nightly_model_release(&n);
		json_object_put(o);
	} else {
		FUZZ_ASSERT(err.len > 0 && !o);
	}
	sb_release(&err);
	sb_release(&sb);
	return 0;
}
