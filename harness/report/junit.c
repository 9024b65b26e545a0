// SPDX-License-Identifier: Apache-2.0
#include "report/junit.h"

#include <string.h>

#include "lib/util.h"
#include "report/outcome.h"
#include "report/reproduce.h"
#include "report/runname.h"
#include "report/text.h"

/*
 * A suite is written into its own buffer while its test cases are counted,
 * then its header with the counts: every <failure> counts in failures,
 * every <error> in errors, every <skipped> in skipped, so that the counts
 * always match the elements.
 */
struct counts {
	size_t tests, failures, errors, skipped;
};

static void counts_add(struct counts *to, const struct counts *c)
{
	to->tests += c->tests;
	to->failures += c->failures;
	to->errors += c->errors;
	to->skipped += c->skipped;
}

static void attr(struct strbuf *out, const char *name, const char *value)
{
	if (!value)
		return;
	sb_addf(out, " %s=\"", name);
	xml_escape(out, value);
	sb_adds(out, "\"");
}

static void property(struct strbuf *out, const char *name, const char *value)
{
	sb_adds(out, "      <property");
	attr(out, "name", name);
	attr(out, "value", fmt_or(value, ""));
	sb_adds(out, "/>\n");
}

static void testcase_open(struct strbuf *out, struct counts *n, const char *classname,
			  const char *name, double seconds)
{
	n->tests++;
	sb_adds(out, "    <testcase");
	attr(out, "classname", classname);
	attr(out, "name", name);
	sb_addf(out, " time=\"%.2f\"", seconds);
}

/* A test case's <failure>, <error> or <skipped> (outcome.h decides which):
 * the one-line message as an attribute, the whole story (text) as the
 * element's text, which is what GitLab and Jenkins show.  Text, not CDATA:
 * xml_escape() makes anything in it, "]]>" included, plain character data.
 * A pass closes the test case. */
static void verdict(struct strbuf *out, struct counts *n, enum outcome_junit o,
		    const char *type, const char *message, const char *text)
{
	static const char *const elements[] = {
		[OUTCOME_FAILURE] = "failure", [OUTCOME_ERROR] = "error",
		[OUTCOME_SKIPPED] = "skipped",
	};
	const char *el;

	if (o == OUTCOME_PASS || o >= ARRAY_SIZE(elements)) {
		sb_adds(out, "/>\n");
		return;
	}
	el = elements[o];
	if (o == OUTCOME_FAILURE)
		n->failures++;
	else if (o == OUTCOME_ERROR)
		n->errors++;
	else
		n->skipped++;
	sb_addf(out, ">\n      <%s", el);
	attr(out, "message", message);
	if (o != OUTCOME_SKIPPED)	/* <skipped> has no type */
		attr(out, "type", type);
	sb_adds(out, ">");
	xml_escape(out, text);
	sb_addf(out, "</%s>\n    </testcase>\n", el);
}

static void testcase_pass(struct strbuf *out)
{
	sb_adds(out, "/>\n");
}

static void system_out(struct strbuf *out, const char *text)
{
	sb_adds(out, "    <system-out>");
	xml_escape(out, text);
	sb_adds(out, "</system-out>\n");
}

/* The suite: its header with the counts, then the body written before. */
static void suite(struct strbuf *out, const char *name, const struct counts *n,
		  const char *time, const char *timestamp, const char *hostname,
		  const struct strbuf *body)
{
	sb_adds(out, "  <testsuite");
	attr(out, "name", name);
	sb_addf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\"", n->tests, n->failures,
		n->errors);
	if (n->skipped)
		sb_addf(out, " skipped=\"%zu\"", n->skipped);
	attr(out, "time", time);
	attr(out, "timestamp", timestamp);
	attr(out, "hostname", hostname);
	sb_adds(out, ">\n");
	sb_add(out, body->buf, body->len);
	sb_adds(out, "  </testsuite>\n");
}

/* A suite's name, which is also its test cases' class name:
 * "scaletest[.KIND].SCENARIO.RUN", RUN as runname.h names it, so that no
 * two suites of a document share one (Jenkins and GitLab would merge
 * them) and each says which run it is, as KCIDB's ids do. */
static void suite_name(struct strbuf *sb, const char *kind, const char *scenario,
		       const char *run)
{
	sb_adds(sb, "scaletest.");
	if (kind)
		sb_addf(sb, "%s.", kind);
	sb_adds(sb, fmt_or(scenario, "run"));
	if (run)
		sb_addf(sb, ".%s", run);
}

/* What a run's crash (result.json's crash) says, for a failure's text:
 * the class, the blame, the title and the console around the report. */
static void crash_text(const struct report_model *m, struct strbuf *t)
{
	if (!m->crash_class)
		return;
	sb_addf(t, "crash: %s (blamed on the %s): %s\n", m->crash_class,
		fmt_or(m->crash_blame, "?"), fmt_or(m->crash_title, "?"));
	if (m->crash_context && *m->crash_context) {
		if (m->crash_line.have && m->crash_line.v >= 1)
			sb_addf(t, "console.log around line %lld, where the report starts:\n", fmt_round(m->crash_line.v));
		else
			sb_adds(t, "console.log around the report:\n");
		sb_adds(t, m->crash_context);
		if (m->crash_context[strlen(m->crash_context) - 1] != '\n')
			sb_addch(t, '\n');
	}
}

/*
 * A run's status as a test case, as outcome.h has it: pass passes; fail,
 * and a crash, OOM or hang blamed on the kernel, are a <failure> (of the
 * crash's class when there is one); a run the harness could not finish
 * (error, interrupted, a timeout without a class, a class blamed on the
 * harness) is an <error>.
 */
static void run_status_case(const struct report_model *m, const char *cls,
			    struct counts *n, struct strbuf *out)
{
	const char *status = fmt_or(m->status, "?");
	const struct outcome *o = outcome_run(m);
	struct strbuf msg = STRBUF_INIT, text = STRBUF_INIT;

	testcase_open(out, n, cls, "run status", m->total_s.v);
	if (o->junit == OUTCOME_PASS) {
		testcase_pass(out);
		return;
	}
	sb_addf(&msg, "%s: %s", status, fmt_or(m->reason, ""));
	sb_addf(&text, "status: %s\nreason: %s\n", status, fmt_or(m->reason, ""));
	crash_text(m, &text);
	verdict(out, n, o->junit, m->crash_class ? m->crash_class : status, msg.buf, text.buf);
	sb_release(&msg);
	sb_release(&text);
}

static void check_case(const struct report_model *m, const struct report_check *c,
		       const char *cls, struct counts *n, struct strbuf *out)
{
	const struct outcome *o = outcome_check(m, c);
	struct strbuf text = STRBUF_INIT, msg = STRBUF_INIT;

	/* Checks are judged after the run, from what it recorded: no time of
	 * their own. */
	testcase_open(out, n, cls, fmt_or(c->name, "?"), 0);
	if (o->junit == OUTCOME_PASS) {
		testcase_pass(out);
		return;
	}
	if (o->junit == OUTCOME_SKIPPED) {
		sb_addf(&msg, "not judged: the run ended early (%s: %s)", fmt_or(m->status, "?"),
			fmt_or(m->reason, ""));
		sb_addf(&text, "check not judged: %s\nwhat it found: %s\n", fmt_or(c->name, "?"),
			fmt_or(c->detail, ""));
	} else {
		sb_adds(&msg, fmt_or(c->detail, ""));
		sb_addf(&text, "check failed: %s\nreason: %s\n", fmt_or(c->name, "?"),
			fmt_or(c->detail, ""));
	}
	if (m->status && strcmp(m->status, "pass") && strcmp(m->status, "fail"))
		sb_addf(&text, "the run ended with status %s: %s\n", m->status, fmt_or(m->reason, ""));
	crash_text(m, &text);
	verdict(out, n, o->junit, "check", msg.buf, text.buf);
	sb_release(&text);
	sb_release(&msg);
}

/* A run's suite, named for the run (run: runname.h's name, or NULL). */
static void suite_run(const struct report_model *m, const char *run, struct strbuf *out,
		      struct counts *total)
{
	struct strbuf cls = STRBUF_INIT, body = STRBUF_INIT, time = STRBUF_INIT;
	struct strbuf summary = STRBUF_INIT;
	struct counts n = { 0, 0, 0, 0 };

	suite_name(&cls, NULL, m->scenario, run);
	sb_adds(&body, "    <properties>\n");
	for (size_t i = 0; i < m->nprops; i++)
		property(&body, m->props[i].name, m->props[i].value);
	/* How to run it again (report/reproduce.h). */
	property(&body, "reproduce", REPRODUCE_COMMAND);
	sb_adds(&body, "    </properties>\n");
	/* The run as a whole: a crash, timeout or OOM shows even when no
	 * check ran. */
	run_status_case(m, cls.buf, &n, &body);
	for (size_t i = 0; i < m->nchecks; i++)
		check_case(m, &m->checks[i], cls.buf, &n, &body);
	/* The headline figures, as the terminal summary has them: CI pages
	 * show system-out, where Jenkins drops properties and GitLab
	 * ignores them. */
	text_run(m, &summary);
	system_out(&body, summary.buf);

	sb_addf(&time, "%.2f", m->total_s.v);
	suite(out, cls.buf, &n, time.buf, m->started, m->hostname, &body);
	counts_add(total, &n);
	sb_release(&cls);
	sb_release(&body);
	sb_release(&time);
	sb_release(&summary);
}

/* Side k's letter: A is the base, B the first side compared with it... */
static char side_letter(size_t k)
{
	return (char)('A' + (k < 26 ? k : 25));
}

/* "LowFree per disk: 133041 -> 149873 B (+12.7%)": side k against the base */
static void metric_line(const struct compare_metric *x, size_t k, struct strbuf *sb)
{
	const struct compare_stat *a = &x->sides[0], *b = &x->sides[k];

	sb_addf(sb, "%s: %s -> %s %s", fmt_or(x->name, "?"), fmt_or(a->mean_text, "n/a"),
		fmt_or(b->mean_text, "n/a"), fmt_or(x->unit, ""));
	if (b->change_pct.have)
	{
		sb_adds(sb, " (");
		fmt_signed_percent(sb, b->change_pct);
		sb_addch(sb, ')');
	}
}

/* A gating metric's figures for side k, for its failure text and the
 * suite's system-out. */
static void metric_text(const struct compare_metric *x, size_t k, struct strbuf *sb)
{
	const struct compare_stat *a = &x->sides[0], *b = &x->sides[k];

	metric_line(x, k, sb);
	sb_addf(sb, "\n  A mean %s, %c mean %s, change %s%%, p %s: %s\n",
		fmt_or(a->mean_text, "n/a"), side_letter(k), fmt_or(b->mean_text, "n/a"),
		fmt_or(b->change_pct_text, "n/a"), fmt_or(b->p_text, "n/a"),
		fmt_or(b->verdict, "n/a"));
}

/* Property names of side k's figures: "KEY.b_mean", ...; with more than
 * two sides the change, p and verdict carry the side's letter too. */
static void metric_properties(const struct compare_model *m, const struct compare_metric *x,
			      struct strbuf *body)
{
	const char *key = fmt_or(x->key, fmt_or(x->name, "?"));
	struct strbuf pn = STRBUF_INIT;

	for (size_t k = 0; k < m->nsides; k++) {
		const struct compare_stat *s = &x->sides[k];
		const char *fig[] = { "change_pct", "p", "verdict" };
		const char *v[] = { s->change_pct_text, s->p_text, s->verdict };
		char l = (char)(side_letter(k) - 'A' + 'a');

		sb_reset(&pn);
		sb_addf(&pn, "%s.%c_mean", key, l);
		property(body, pn.buf, s->mean_text);
		for (size_t f = 0; k > 0 && f < ARRAY_SIZE(fig); f++) {
			sb_reset(&pn);
			if (m->nsides > 2)
				sb_addf(&pn, "%s.%s_%c", key, fig[f], l);
			else
				sb_addf(&pn, "%s.%s", key, fig[f]);
			property(body, pn.buf, v[f]);
		}
	}
	sb_release(&pn);
}

static void suite_compare(const struct compare_model *m, const char *scenario, const char *run,
			  struct strbuf *out, struct counts *total)
{
	struct strbuf cls = STRBUF_INIT, body = STRBUF_INIT, summary = STRBUF_INIT;
	struct strbuf tc = STRBUF_INIT;
	struct counts n = { 0, 0, 0, 0 };

	suite_name(&cls, "compare", scenario, run);
	/* The figures of every gating metric as properties (a test case has
	 * none in the JUnit schema), named by the metric's result.json key. */
	sb_adds(&body, "    <properties>\n");
	property(&body, "verdict", m->verdict);
	for (size_t k = 0; k < m->nsides; k++) {
		char l[2] = { (char)(side_letter(k) - 'A' + 'a'), '\0' };
		property(&body, l, m->sides[k].path);
	}
	for (size_t i = 0; i < m->nmetrics; i++)
		if (m->metrics[i].gating)
			metric_properties(m, &m->metrics[i], &body);
	sb_adds(&body, "    </properties>\n");
	for (size_t k = 1; k < m->nsides; k++)
		sb_addf(&summary, "compare %s (%s) with %s (%s): %s\n",
			fmt_or(m->sides[k].label, "B"), fmt_or(m->sides[k].path, "?"),
			fmt_or(m->sides[0].label, "A"), fmt_or(m->sides[0].path, "?"),
			fmt_or(m->nsides > 2 ? m->sides[k].verdict : m->verdict, "?"));
	for (size_t i = 0; i < m->nmetrics; i++) {
		const struct compare_metric *x = &m->metrics[i];

		if (!x->gating)
			continue;
		for (size_t k = 1; k < m->nsides; k++) {	/* each side against the base */
			metric_text(x, k, &summary);
			sb_reset(&tc);
			sb_adds(&tc, fmt_or(x->name, "?"));
			if (m->nsides > 2)
				sb_addf(&tc, " (%s)", fmt_or(m->sides[k].label, "?"));
			testcase_open(&body, &n, cls.buf, tc.buf, 0);
			if (!strcmp(fmt_or(x->sides[k].verdict, ""), "regression")) {
				struct strbuf msg = STRBUF_INIT, text = STRBUF_INIT;

				metric_line(x, k, &msg);
				sb_addf(&text, "regression: %c (%s) is worse than A (%s)\n",
					side_letter(k), fmt_or(m->sides[k].path, "?"),
					fmt_or(m->sides[0].path, "?"));
				metric_text(x, k, &text);
				verdict(&body, &n, OUTCOME_FAILURE, "regression", msg.buf, text.buf);
				sb_release(&msg);
				sb_release(&text);
			} else {
				testcase_pass(&body);
			}
		}
	}
	system_out(&body, summary.buf);
	suite(out, cls.buf, &n, NULL, NULL, NULL, &body);
	counts_add(total, &n);
	sb_release(&cls);
	sb_release(&body);
	sb_release(&summary);
	sb_release(&tc);
}

/* The document: <testsuites> with the sum of its suites' counts (the
 * schema has no skipped there: each suite has its own). */
static void document(struct strbuf *out, const struct counts *n, const struct strbuf *suites)
{
	sb_addf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n",
		n->tests, n->failures, n->errors);
	sb_add(out, suites->buf, suites->len);
	sb_adds(out, "</testsuites>\n");
}

void junit_run(const struct report_model *m, struct strbuf *out)
{
	struct strbuf suites = STRBUF_INIT;
	struct counts n = { 0, 0, 0, 0 };
	struct run_names names;
	char *run;

	/* A run without a run_id (an older or damaged result.json) is the
	 * document's one suite: "scaletest.SCENARIO". */
	run_names_init(&names);
	run = m->run_id ? run_name_take(&names, m->run_id) : NULL;
	suite_run(m, run, &suites, &n);
	document(out, &n, &suites);
	free(run);
	run_names_release(&names);
	sb_release(&suites);
}

void junit_compare(const struct compare_model *m, struct strbuf *out)
{
	struct strbuf suites = STRBUF_INIT;
	struct counts n = { 0, 0, 0, 0 };

	suite_compare(m, m->nsides > 1 ? m->sides[1].scenario : NULL, NULL, &suites, &n);
	document(out, &n, &suites);
	sb_release(&suites);
}

/* A run that passed with no baseline on this runner: a failure of its own,
 * so that CI shows it as the night's exit status (4) says. */
static void suite_no_baseline(const struct nightly_row *r, const char *run, struct strbuf *out,
			      struct counts *total)
{
	struct strbuf cls = STRBUF_INIT, body = STRBUF_INIT, msg = STRBUF_INIT;
	struct counts n = { 0, 0, 0, 0 };

	suite_name(&cls, "baseline", r->scenario, run);
	testcase_open(&body, &n, cls.buf, "baseline on this runner", 0);
	sb_addf(&msg, "no baseline for %s on this runner (accel %s, qemu %s): run "
		"make nightly-first / scaletest nightly --record-baselines to record them",
		fmt_or(r->scenario, "?"), fmt_or(r->accel, "?"), fmt_or(r->qemu, "?"));
	verdict(&body, &n, OUTCOME_FAILURE, "no baseline", msg.buf, msg.buf);
	suite(out, cls.buf, &n, NULL, NULL, NULL, &body);
	counts_add(total, &n);
	sb_release(&cls);
	sb_release(&body);
	sb_release(&msg);
}

/* Each row's suites are named for its run as KCIDB names it
 * (run_name_night_row). */
void junit_nightly(const struct nightly_model *m, struct strbuf *out)
{
	struct strbuf suites = STRBUF_INIT;
	struct counts n = { 0, 0, 0, 0 };
	struct run_names names;

	run_names_init(&names);
	for (size_t i = 0; i < m->nrows; i++) {
		const struct nightly_row *r = &m->rows[i];
		char *run = run_name_night_row(&names, m, i);

		if (r->have_run)
			suite_run(&r->run_model, run, &suites, &n);
		if (r->have_compare)
			suite_compare(&r->compare, r->scenario, run, &suites, &n);
		if (r->without_baseline)
			suite_no_baseline(r, run, &suites, &n);
		free(run);
	}
	document(out, &n, &suites);
	run_names_release(&names);
	sb_release(&suites);
}
