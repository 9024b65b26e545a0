// SPDX-License-Identifier: Apache-2.0
#include "report/model.h"

#include <stdlib.h>
#include <string.h>

#include "report/model_read.h"
#include "result/result.h"
#include "lib/util.h"

static void row_runs(struct nightly_row *r, const char *night_dir)
{
	struct strbuf err = STRBUF_INIT;
	json_object *root, *cmp;
	char *dir, *cj;

	if (!night_dir || !r->run)
		return;
	dir = xstrfmt("%s/%s", night_dir, path_basename(r->run));
	if (result_load(dir, &root, &err) == 0) {
		report_model_from_json(root, &r->run_model);
		json_object_put(root);
		r->have_run = 1;
	}
	cj = xstrfmt("%s/compare.json", dir);
	sb_reset(&err);
	if (path_exists(cj) && json_load_object(cj, &cmp, &err) == 0) {
		compare_model_from_json(cmp, &r->compare);
		json_object_put(cmp);
		r->have_compare = 1;
	}
	free(cj);
	free(dir);
	sb_release(&err);
}

#define NIGHT(kind, member, path) FIELD(struct nightly_model, kind, member, path)
static const struct field night_fields[] = {
	NIGHT(F_STR, stamp, "stamp"), NIGHT(F_NUM, scenarios, "scenarios"),
	NIGHT(F_NUM, failed, "failed"), NIGHT(F_NUM, regressed, "regressed"),
	NIGHT(F_NUM, without_baseline, "without_baseline"), NIGHT(F_NUM, seconds, "seconds"),
	NIGHT(F_NUM, recorded, "recorded"),
};
#undef NIGHT

#define ROW(kind, member, path) FIELD(struct nightly_row, kind, member, path)
static const struct field row_fields[] = {
	ROW(F_STR, scenario, "scenario"), ROW(F_STR, status, "status"), ROW(F_STR, reason, "reason"),
	ROW(F_STR, run, "run"), ROW(F_STR, baseline, "baseline"), ROW(F_STR, verdict, "verdict"),
	ROW(F_STR, per_disk_field, "per_disk.field"), ROW(F_NUM, per_disk, "per_disk.bytes"),
	ROW(F_STR, accel, "accel"), ROW(F_STR, qemu, "qemu"),
};
#undef ROW

void nightly_model_from_json(json_object *summary, const char *night_dir,
			     struct nightly_model *m)
{
	json_object *rows;

	memset(m, 0, sizeof(*m));
	summary = m->summary = clean_ref(summary);
	rows = jarr(summary, "runs");
	fields_of(summary, m, night_fields, ARRAY_SIZE(night_fields));
	m->nrows = alen(rows);
	m->rows = xcalloc(m->nrows + 1, sizeof(*m->rows));
	for (size_t i = 0; i < m->nrows; i++) {
		json_object *o = aget(rows, i);
		struct nightly_row *r = &m->rows[i];

		fields_of(o, r, row_fields, ARRAY_SIZE(row_fields));
		r->without_baseline = json_object_is_type(jget(o, "without_baseline"), json_type_boolean) &&
				      json_object_get_boolean(jget(o, "without_baseline"));
		row_runs(r, night_dir);
	}
}

void nightly_model_release(struct nightly_model *m)
{
	for (size_t i = 0; i < m->nrows; i++) {
		if (m->rows[i].have_run)
			report_model_release(&m->rows[i].run_model);
		if (m->rows[i].have_compare)
			compare_model_release(&m->rows[i].compare);
	}
	free(m->rows);
	json_object_put(m->summary);
	memset(m, 0, sizeof(*m));
}
