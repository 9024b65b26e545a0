#include "report/bisect.h"

#include <string.h>

#include "lib/util.h"
#include "result/result.h"

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

void document_bisect(const struct markup *mk, json_object *b, struct strbuf *out)
{
	static const struct mk_col cols[] = {
		{ "#", MK_RIGHT }, { "role", MK_LEFT }, { "commit", MK_LEFT },
		{ "subject", MK_LEFT }, { "figure", MK_RIGHT }, { "runs", MK_RIGHT },
		{ "verdict", MK_LEFT }, { "why", MK_LEFT }, { "build s", MK_RIGHT },
		{ "run s", MK_RIGHT },
	};
	json_object *steps = jarray(b, "steps"), *fb = jget(b, "first_bad");
	const char *unit = jstr(b, "criterion.unit", "");
	struct doc d;

	doc_init(&d, mk, out);
	mk_block(&d, MK_H1, NULL, NULL);
	mk_lit(&d, "scaletest bisect: ");
	mk_lit(&d, outcome_words(jstr(b, "outcome", "")));
	mk_block_end(&d, MK_H1);
	if (fb) {
		mk_block(&d, MK_P, "headline", NULL);
		mk_lit(&d, "First bad commit: ");
		mk_text_inline(&d, MK_CODE, NULL, jstr(fb, "commit", ""));
		mk_lit(&d, " ");
		mk_text(&d, jstr(fb, "subject", ""));
		mk_block_end(&d, MK_P);
	}
	if (jget(b, "why") && *jstr(b, "why", "")) {
		mk_block(&d, MK_P, NULL, NULL);
		mk_text(&d, jstr(b, "why", ""));
		mk_block_end(&d, MK_P);
	}
	json_object *cands = jarray(b, "candidates");
	if (jlen(cands)) {
		mk_block(&d, MK_P, NULL, NULL);
		mk_lit(&d, "Candidates (one of them is the first bad commit):");
		mk_block_end(&d, MK_P);
		mk_block(&d, MK_LIST, NULL, NULL);
		for (size_t i = 0; i < jlen(cands); i++) {
			mk_block(&d, MK_ITEM, NULL, NULL);
			mk_text(&d, json_object_get_string(json_object_array_get_idx(cands, i)));
			mk_block_end(&d, MK_ITEM);
		}
		mk_block_end(&d, MK_LIST);
	}
	mk_block(&d, MK_LIST, NULL, NULL);
	mk_block(&d, MK_ITEM, NULL, NULL);
	mk_lit(&d, "criterion: ");
	mk_text(&d, jstr(b, "criterion.text", ""));
	mk_block_end(&d, MK_ITEM);
	mk_block(&d, MK_ITEM, NULL, NULL);
	mk_lit(&d, "range: ");
	mk_text(&d, jstr(b, "good_rev", ""));
	mk_lit(&d, " (good) .. ");
	mk_text(&d, jstr(b, "bad_rev", ""));
	mk_addf(&d, " (bad), %lld commits; steps between the ends: %lld (git bisect's bound %lld)",
		jint(b, "commits", 0), jint(b, "steps_between", 0), jint(b, "bound", 0));
	mk_block_end(&d, MK_ITEM);
	mk_block(&d, MK_ITEM, NULL, NULL);
	mk_lit(&d, "tree: ");
	mk_text(&d, jstr(b, "source", ""));
	mk_lit(&d, ", scenario ");
	mk_text(&d, jstr(b, "scenario", ""));
	mk_block_end(&d, MK_ITEM);
	mk_block_end(&d, MK_LIST);

	mk_lit_block(&d, MK_H2, NULL, "steps", "Steps");
	mk_table(&d, "steps", cols, ARRAY_SIZE(cols));
	for (size_t i = 0; i < jlen(steps); i++) {
		json_object *s = json_object_array_get_idx(steps, i);
		const char *verdict = jstr(s, "verdict", "");
		char sha[16];

		snprintf(sha, sizeof(sha), "%.12s", jstr(s, "commit", ""));
		mk_row(&d, NULL);
		mk_cell(&d, NULL, 0);
		mk_addf(&d, "%zu", i + 1);
		mk_cell_end(&d);
		mk_lit_cell(&d, jstr(s, "role", ""));
		mk_text_cell(&d, sha);
		mk_text_cell(&d, jstr(s, "subject", ""));
		mk_cell(&d, NULL, 0);
		if (jget(s, "mean"))
			mk_addf(&d, "%.0f %s", jdouble(s, "mean", 0), unit);
		mk_cell_end(&d);
		mk_cell(&d, NULL, 0);
		mk_addf(&d, "%zu", jlen(jarray(s, "runs")));
		mk_cell_end(&d);
		mk_cell(&d, !strcmp(verdict, "bad") ? "fail" : NULL, !strcmp(verdict, "bad"));
		mk_text(&d, verdict);
		mk_cell_end(&d);
		mk_text_cell(&d, jstr(s, "why", ""));
		mk_cell(&d, NULL, 0);
		mk_addf(&d, "%.0f", jdouble(s, "build_s", 0));
		mk_cell_end(&d);
		mk_cell(&d, NULL, 0);
		mk_addf(&d, "%.0f", jdouble(s, "run_s", 0));
		mk_cell_end(&d);
		mk_row_end(&d);
	}
	mk_table_end(&d);
	mk_block(&d, MK_P, "note", NULL);
	mk_lit(&d, "Every run is in runs/, every build log in builds/, git's own log in bisect.log; "
	       "bisect.json holds all of it.");
	mk_block_end(&d, MK_P);
}
