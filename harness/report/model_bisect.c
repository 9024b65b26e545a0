// SPDX-License-Identifier: Apache-2.0
#include "report/model.h"

#include <stdlib.h>
#include <string.h>

#include "report/model_read.h"
#include "result/result.h"
#include "lib/util.h"

#define BISECT(kind, member, path) FIELD(struct bisect_model, kind, member, path)
static const struct field bisect_fields[] = {
	BISECT(F_STR, outcome, "outcome"), BISECT(F_STR, why, "why"),
	BISECT(F_STR, first_bad_commit, "first_bad.commit"),
	BISECT(F_STR, first_bad_subject, "first_bad.subject"),
	BISECT(F_STR, criterion, "criterion.text"), BISECT(F_STR, unit, "criterion.unit"),
	BISECT(F_STR, good_rev, "good_rev"), BISECT(F_STR, bad_rev, "bad_rev"),
	BISECT(F_STR, source, "source"), BISECT(F_STR, scenario, "scenario"),
	BISECT(F_NUM, commits, "commits"), BISECT(F_NUM, steps_between, "steps_between"),
	BISECT(F_NUM, bound, "bound"),
};
#undef BISECT

#define STEP(kind, member, path) FIELD(struct bisect_step, kind, member, path)
static const struct field step_fields[] = {
	STEP(F_STR, role, "role"), STEP(F_STR, commit, "commit"),
	STEP(F_STR, subject, "subject"), STEP(F_STR, verdict, "verdict"),
	STEP(F_STR, why, "why"), STEP(F_NUM, mean, "mean"),
	STEP(F_NUM, build_s, "build_s"), STEP(F_NUM, run_s, "run_s"),
};
#undef STEP

void bisect_model_from_json(json_object *b, struct bisect_model *m)
{
	json_object *a;

	memset(m, 0, sizeof(*m));
	m->root = clean_ref(b);
	fields_of(m->root, m, bisect_fields, ARRAY_SIZE(bisect_fields));
	m->have_first_bad = jget(m->root, "first_bad") != NULL;
	a = jarr(m->root, "candidates");
	m->ncandidates = alen(a);
	m->candidates = xcalloc(m->ncandidates + 1, sizeof(*m->candidates));
	for (size_t i = 0; i < m->ncandidates; i++)
		m->candidates[i] = json_object_get_string(aget(a, i));
	a = jarr(m->root, "steps");
	m->nsteps = alen(a);
	m->steps = xcalloc(m->nsteps + 1, sizeof(*m->steps));
	for (size_t i = 0; i < m->nsteps; i++) {
		json_object *s = aget(a, i);

		fields_of(s, &m->steps[i], step_fields, ARRAY_SIZE(step_fields));
		m->steps[i].runs = alen(jarr(s, "runs"));
	}
}

void bisect_model_release(struct bisect_model *m)
{
	free(m->candidates);
	free(m->steps);
	json_object_put(m->root);
	memset(m, 0, sizeof(*m));
}
