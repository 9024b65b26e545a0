// SPDX-License-Identifier: Apache-2.0
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

#include "report/bisect.h"
#include "report/html.h"
#include "report/junit.h"
#include "report/kcidb.h"
#include "report/markdown.h"
#include "report/model.h"
#include "report/text.h"
#include "report/tsv.h"
#include "report/reproduce.h"
#include "result/result.h"
#include "lib/util.h"

/* dir/name from sb (a script runnable: reproduce.sh); sb is emptied for
 * the next file. */
static int put(const char *dir, const char *name, struct strbuf *sb)
{
	char *path = xstrfmt("%s/%s", dir, name);
	size_t l = strlen(name);
	int r = write_file_atomic_mode(path, sb->buf, sb->len,
				       l > 3 && !strcmp(name + l - 3, ".sh") ? 0755 : 0644);

	free(path);
	sb_reset(sb);
	return r;
}

static void print(FILE *out, const struct strbuf *sb)
{
	if (out)
		fwrite(sb->buf, 1, sb->len, out);
}

int report_write_run(json_object *root, const char *dir, FILE *out)
{
	struct report_model m;
	struct strbuf sb = STRBUF_INIT;
	int r = 0;

	report_model_from_json(root, &m);
	markdown_run(&m, &sb);
	r |= put(dir, "report.md", &sb);
	html_run(&m, &sb);
	r |= put(dir, "report.html", &sb);
	junit_run(&m, &sb);
	r |= put(dir, "junit.xml", &sb);
	reproduce_script(root, &sb);
	r |= put(dir, "reproduce.sh", &sb);
	if (m.have_sweep) {
		tsv_sweep(&m, &sb);
		r |= put(dir, "sweep.tsv", &sb);
	}
	text_run(&m, &sb);
	print(out, &sb);
	report_model_release(&m);
	sb_release(&sb);
	return r ? -1 : 0;
}

int report_write_dir(const char *dir, FILE *out)
{
	struct strbuf err = STRBUF_INIT;
	json_object *root;
	int r;

	if (result_load(dir, &root, &err) < 0) {
		error("%s", err.buf);
		sb_release(&err);
		return -1;
	}
	r = report_write_run(root, dir, out);
	json_object_put(root);
	sb_release(&err);
	return r;
}

int report_write_compare(json_object *cmp, const char *dir, FILE *out)
{
	struct compare_model m;
	struct strbuf sb = STRBUF_INIT;
	int r = 0;

	compare_model_from_json(cmp, &m);
	markdown_compare(&m, &sb);
	print(out, &sb);
	if (dir) {
		r |= put(dir, "compare.md", &sb);
		html_compare(&m, &sb);
		r |= put(dir, "compare.html", &sb);
		junit_compare(&m, &sb);
		r |= put(dir, "compare.xml", &sb);
	}
	compare_model_release(&m);
	sb_release(&sb);
	return r ? -1 : 0;
}

static const struct {
	const char *name;
	void (*write)(const struct compare_model *m, struct strbuf *sb);
} compare_formats[] = {
	{ "text", text_compare },
	{ "md", markdown_compare },
	{ "json", NULL },	/* the document itself, compare.json's text */
};

int report_compare_format(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(compare_formats); i++)
		if (!strcmp(name, compare_formats[i].name))
			return 0;
	return -1;
}

int report_print_compare(json_object *cmp, const char *format, FILE *out)
{
	struct compare_model m;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(compare_formats) && strcmp(format, compare_formats[i].name); i++)
		;
	if (i == ARRAY_SIZE(compare_formats))
		return error("unknown format '%s' (text, md or json)", format);
	if (!compare_formats[i].write) {
		json_clean_strings(cmp);
		json_pretty(&sb, cmp);
		sb_addch(&sb, '\n');
	} else {
		compare_model_from_json(cmp, &m);
		compare_formats[i].write(&m, &sb);
		compare_model_release(&m);
	}
	print(out, &sb);
	sb_release(&sb);
	return 0;
}

int report_write_nightly(const char *night_dir, const char *dir, FILE *out)
{
	struct nightly_model m;
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/summary.json", night_dir);
	struct strbuf err = STRBUF_INIT;
	json_object *sum;
	int r = 0;

	if (json_load_object(path, &sum, &err) < 0) {
		r = error("%s", err.buf);
		sb_release(&err);
		free(path);
		return r;
	}
	free(path);
	nightly_model_from_json(sum, night_dir, &m);
	json_object_put(sum);
	markdown_nightly(&m, &sb);
	print(out, &sb);
	r |= put(dir, "summary.md", &sb);
	junit_nightly(&m, &sb);
	r |= put(dir, "summary.xml", &sb);
	nightly_model_release(&m);
	sb_release(&sb);
	return r ? -1 : 0;
}

int report_write_bisect(json_object *bisect, const char *dir, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	struct bisect_model m;
	int r;

	bisect_model_from_json(bisect, &m);
	document_bisect(&markdown_markup, &m, &sb);
	bisect_model_release(&m);
	print(out, &sb);
	r = put(dir, "bisect.md", &sb);
	sb_release(&sb);
	return r;
}

/* The document on out, or in dir/kcidb.json when dir is given. */
static int kcidb_put(struct kcidb *k, const char *dir, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	int r = 0;

	kcidb_write(k, &sb);
	if (dir)
		r = put(dir, "kcidb.json", &sb);
	else
		print(out, &sb);
	sb_release(&sb);
	return r;
}

int report_kcidb_runs(char *const *runs, size_t n, const char *origin, const char *dir,
		      FILE *out)
{
	struct kcidb k;
	int r = 0;

	kcidb_init(&k, origin);
	for (size_t i = 0; i < n; i++) {
		struct strbuf err = STRBUF_INIT;
		struct report_model m;
		json_object *root;
		char *name;

		if (result_load(runs[i], &root, &err) < 0) {
			r = error("%s", err.buf);
			sb_release(&err);
			continue;
		}
		report_model_from_json(root, &m);
		json_object_put(root);
		/* a directory's name: without a trailing slash */
		name = xstrdup(runs[i]);
		while (strlen(name) > 1 && name[strlen(name) - 1] == '/')
			name[strlen(name) - 1] = '\0';
		kcidb_add_run(&k, m.run_id ? m.run_id : path_basename(name), runs[i], &m);
		free(name);
		report_model_release(&m);
		sb_release(&err);
	}
	r |= kcidb_put(&k, dir, out);
	return r ? -1 : 0;
}

int report_kcidb_nightly(const char *night_dir, const char *origin, const char *dir, FILE *out)
{
	struct nightly_model m;
	char *path = xstrfmt("%s/summary.json", night_dir);
	struct strbuf err = STRBUF_INIT;
	struct kcidb k;
	json_object *sum;
	int r;

	r = json_load_object(path, &sum, &err);
	free(path);
	if (r < 0) {
		r = error("%s", err.buf);
		sb_release(&err);
		return r;
	}
	nightly_model_from_json(sum, night_dir, &m);
	json_object_put(sum);
	kcidb_init(&k, origin);
	kcidb_add_nightly(&k, &m);
	nightly_model_release(&m);
	return kcidb_put(&k, dir, out) < 0 ? -1 : 0;
}
