/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report_check.h: every writer over a model, for the targets that end in
 * a report (records, result).  What a writer prints must be valid UTF-8
 * without control characters other than '\n' and '\t', whatever the JSON
 * held: report.md, report.html, junit.xml and the terminal summary.
 */
#ifndef SCALETEST_FUZZ_REPORT_CHECK_H
#define SCALETEST_FUZZ_REPORT_CHECK_H

#include "fuzz.h"

#include "report/html.h"
#include "report/junit.h"
#include "report/kcidb.h"
#include "report/markdown.h"
#include "report/model.h"
#include "report/text.h"

static inline void check_out(struct strbuf *sb)
{
	if (!text_is_clean(sb->buf, sb->len, 1)) {
		fwrite(sb->buf, 1, sb->len, stderr);
		FUZZ_ASSERT(!"a writer printed bytes that are not clean text");
	}
	sb_reset(sb);
}

/* No two entries of a KCIDB list share an id. */
static inline void check_ids_unique(json_object *doc, const char *list)
{
	json_object *a = NULL;

	json_object_object_get_ex(doc, list, &a);
	for (size_t i = 0; a && i < json_object_array_length(a); i++)
		for (size_t j = i + 1; j < json_object_array_length(a); j++) {
			json_object *x = NULL, *y = NULL;

			json_object_object_get_ex(json_object_array_get_idx(a, i), "id", &x);
			json_object_object_get_ex(json_object_array_get_idx(a, j), "id", &y);
			FUZZ_ASSERT(x && y && strcmp(json_object_get_string(x), json_object_get_string(y)));
		}
}

/* A KCIDB document: clean text, JSON that parses back, ids unique. */
static inline void check_kcidb(struct kcidb *k, struct strbuf *sb)
{
	json_object *back;

	kcidb_write(k, sb);
	back = json_tokener_parse(sb->buf);
	FUZZ_ASSERT(back && json_object_is_type(back, json_type_object));
	check_ids_unique(back, "checkouts");
	check_ids_unique(back, "builds");
	check_ids_unique(back, "tests");
	json_object_put(back);
	check_out(sb);
}

static inline void check_run_reports(json_object *root)
{
	struct report_model m;
	struct strbuf sb = STRBUF_INIT;

	report_model_from_json(root, &m);
	text_run(&m, &sb);
	check_out(&sb);
	markdown_run(&m, &sb);
	check_out(&sb);
	html_run(&m, &sb);
	check_out(&sb);
	junit_run(&m, &sb);
	check_out(&sb);
	{
		struct kcidb k;

		kcidb_init(&k, NULL);
		/* twice, as two runs that claim one run_id: ids apart still */
		kcidb_add_run(&k, m.run_id, "a", &m);
		kcidb_add_run(&k, m.run_id, "b", &m);
		check_kcidb(&k, &sb);
	}
	report_model_release(&m);
	sb_release(&sb);
}

#endif
