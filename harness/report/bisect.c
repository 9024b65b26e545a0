// SPDX-License-Identifier: Apache-2.0
#include "report/bisect.h"

#include <string.h>

#include "lib/util.h"
#include "report/doc_parts.h"
#include "report/format.h"

static const char *outcome_words(const char *o)
{
	static const struct {
		const char *outcome, *words;
	} t[] = {
		{ "found", "first bad commit found" },
		{ "undecided", "undecided: only skipped commits are left" },
		{ "good_is_bad", "nothing to bisect: the good end is bad" },
		{ "good_untestable", "nothing to bisect: the good end cannot be judged" },
		{ "bad_is_good", "nothing to bisect: the bad end is good" },
		{ "bad_untestable", "nothing to bisect: the bad end cannot be judged" },
		{ "interrupted", "interrupted" },
		{ "running", "still running (or killed)" },
		{ "error", "stopped by an error" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		if (!strcmp(t[i].outcome, o))
			return t[i].words;
	return "unknown";
}

/* A figure formatted by format.c, escaped as text. */
static void figure(struct doc *d, void (*fmt)(struct strbuf *, struct num), struct num v)
{
	struct strbuf sb = STRBUF_INIT;

	fmt(&sb, v);
	mk_text(d, sb.buf);
	sb_release(&sb);
}

void document_bisect(const struct markup *mk, const struct bisect_model *m, struct strbuf *out)
{
	static const struct mk_col cols[] = {
		{ "#", MK_RIGHT }, { "role", MK_LEFT }, { "commit", MK_LEFT },
		{ "subject", MK_LEFT }, { "figure", MK_RIGHT }, { "runs", MK_RIGHT },
		{ "verdict", MK_LEFT }, { "why", MK_LEFT }, { "build", MK_RIGHT },
		{ "run", MK_RIGHT },
	};
	const char *unit = fmt_or(m->unit, "");
	struct doc d;

	doc_init(&d, mk, out);
	mk_block(&d, MK_H1, NULL, NULL);
	mk_lit(&d, "scaletest bisect: ");
	mk_lit(&d, outcome_words(fmt_or(m->outcome, "")));
	mk_block_end(&d, MK_H1);
	if (m->have_first_bad) {
		mk_block(&d, MK_P, "headline", NULL);
		mk_lit(&d, "First bad commit: ");
		mk_text_inline(&d, MK_CODE, NULL, fmt_or(m->first_bad_commit, ""));
		mk_lit(&d, " ");
		mk_text(&d, fmt_or(m->first_bad_subject, ""));
		mk_block_end(&d, MK_P);
	}
	if (m->why && *m->why) {
		mk_block(&d, MK_P, NULL, NULL);
		mk_text(&d, m->why);
		mk_block_end(&d, MK_P);
	}
	if (m->ncandidates) {
		mk_block(&d, MK_P, NULL, NULL);
		mk_lit(&d, "Candidates (one of them is the first bad commit):");
		mk_block_end(&d, MK_P);
		mk_block(&d, MK_LIST, NULL, NULL);
		for (size_t i = 0; i < m->ncandidates; i++) {
			mk_block(&d, MK_ITEM, NULL, NULL);
			mk_text(&d, m->candidates[i]);
			mk_block_end(&d, MK_ITEM);
		}
		mk_block_end(&d, MK_LIST);
	}
	mk_block(&d, MK_LIST, NULL, NULL);
	mk_block(&d, MK_ITEM, NULL, NULL);
	mk_lit(&d, "criterion: ");
	mk_text(&d, fmt_or(m->criterion, ""));
	mk_block_end(&d, MK_ITEM);
	mk_block(&d, MK_ITEM, NULL, NULL);
	mk_lit(&d, "range: ");
	mk_text(&d, fmt_or(m->good_rev, ""));
	mk_lit(&d, " (good) .. ");
	mk_text(&d, fmt_or(m->bad_rev, ""));
	mk_lit(&d, " (bad), ");
	doc_num(&d, fmt_whole, m->commits);
	mk_lit(&d, " commits; steps between the ends: ");
	doc_num(&d, fmt_whole, m->steps_between);
	mk_lit(&d, " (git bisect's bound ");
	doc_num(&d, fmt_whole, m->bound);
	mk_lit(&d, ")");
	mk_block_end(&d, MK_ITEM);
	mk_block(&d, MK_ITEM, NULL, NULL);
	mk_lit(&d, "tree: ");
	mk_text(&d, fmt_or(m->source, ""));
	mk_lit(&d, ", scenario ");
	mk_text(&d, fmt_or(m->scenario, ""));
	mk_block_end(&d, MK_ITEM);
	mk_block_end(&d, MK_LIST);

	mk_lit_block(&d, MK_H2, NULL, "steps", "Steps");
	mk_table(&d, "steps", cols, ARRAY_SIZE(cols));
	for (size_t i = 0; i < m->nsteps; i++) {
		const struct bisect_step *s = &m->steps[i];
		const char *verdict = fmt_or(s->verdict, "");
		char sha[16];

		snprintf(sha, sizeof(sha), "%.12s", fmt_or(s->commit, ""));
		mk_row(&d, NULL);
		mk_cell(&d, NULL, 0);
		mk_addf(&d, "%zu", i + 1);
		mk_cell_end(&d);
		mk_lit_cell(&d, fmt_or(s->role, ""));
		mk_text_cell(&d, sha);
		mk_text_cell(&d, fmt_or(s->subject, ""));
		mk_cell(&d, NULL, 0);
		if (s->mean.have) {
			figure(&d, fmt_amount, s->mean);
			mk_text(&d, " ");
			mk_text(&d, unit);
		}
		mk_cell_end(&d);
		mk_cell(&d, NULL, 0);
		mk_addf(&d, "%zu", s->runs);
		mk_cell_end(&d);
		mk_cell(&d, !strcmp(verdict, "bad") ? "fail" : NULL, !strcmp(verdict, "bad"));
		mk_text(&d, verdict);
		mk_cell_end(&d);
		mk_text_cell(&d, fmt_or(s->why, ""));
		mk_cell(&d, NULL, 0);
		figure(&d, fmt_seconds, s->build_s);
		mk_cell_end(&d);
		mk_cell(&d, NULL, 0);
		figure(&d, fmt_seconds, s->run_s);
		mk_cell_end(&d);
		mk_row_end(&d);
	}
	mk_table_end(&d);
	mk_block(&d, MK_P, "note", NULL);
	mk_lit(&d, "Every run is in runs/, every build log in builds/, git's own log in bisect.log; "
	       "bisect.json holds all of it.");
	mk_block_end(&d, MK_P);
}
