#include "report/junit.h"

#include <string.h>

#include "lib/util.h"

static void open_doc(struct strbuf *out)
{
	sb_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
}

static void close_doc(struct strbuf *out)
{
	sb_adds(out, "</testsuites>\n");
}

static void property(struct strbuf *out, const char *name, const char *value)
{
	sb_adds(out, "      <property name=\"");
	xml_escape(out, name);
	sb_adds(out, "\" value=\"");
	xml_escape(out, fmt_or(value, ""));
	sb_adds(out, "\"/>\n");
}

static void testcase_open(struct strbuf *out, const char *classname, const char *name)
{
	sb_adds(out, "    <testcase classname=\"");
	xml_escape(out, classname);
	sb_adds(out, "\" name=\"");
	xml_escape(out, name);
	sb_adds(out, "\"");
}

static void failure(struct strbuf *out, const char *message)
{
	sb_adds(out, "      <failure message=\"");
	xml_escape(out, message);
	sb_adds(out, "\"/>\n");
}

static void suite_run(const struct report_model *m, struct strbuf *out)
{
	const char *status = fmt_or(m->status, "?");
	int run_failed = strcmp(status, "pass") != 0;
	size_t failures = 0;
	struct strbuf cls = STRBUF_INIT;

	for (size_t i = 0; i < m->nchecks; i++)
		failures += !m->checks[i].pass;
	sb_adds(&cls, "scaletest.");
	sb_adds(&cls, fmt_or(m->scenario, "run"));
	sb_adds(out, "  <testsuite name=\"");
	xml_escape(out, cls.buf);
	sb_addf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%d\" time=\"%.2f\">\n",
		m->nchecks + 1, failures, run_failed && !failures, m->total_s.v);
	sb_adds(out, "    <properties>\n");
	for (size_t i = 0; i < m->nprops; i++)
		property(out, m->props[i].name, m->props[i].value);
	sb_adds(out, "    </properties>\n");
	/* The run as a whole: a crash, timeout or OOM shows even when no
	 * check ran. */
	testcase_open(out, cls.buf, "run status");
	if (run_failed) {
		struct strbuf msg = STRBUF_INIT;
		sb_addf(&msg, "%s: %s", status, fmt_or(m->reason, ""));
		sb_adds(out, ">\n");
		failure(out, msg.buf);
		sb_adds(out, "    </testcase>\n");
		sb_release(&msg);
	} else {
		sb_adds(out, "/>\n");
	}
	for (size_t i = 0; i < m->nchecks; i++) {
		const struct report_check *c = &m->checks[i];

		testcase_open(out, cls.buf, fmt_or(c->name, "?"));
		if (c->pass) {
			sb_adds(out, "/>\n");
			continue;
		}
		sb_adds(out, ">\n");
		failure(out, fmt_or(c->detail, ""));
		sb_adds(out, "    </testcase>\n");
	}
	sb_adds(out, "  </testsuite>\n");
	sb_release(&cls);
}

/* A gating metric's test case: side k against the base (with more than
 * two sides, one per metric and side, the side named after the metric). */
static void testcase_compare(const struct compare_model *m, const struct compare_metric *x,
			     size_t k, const char *cls, struct strbuf *out)
{
	const struct compare_stat *a = &x->sides[0], *b = &x->sides[k];
	struct strbuf tc = STRBUF_INIT;

	sb_adds(&tc, fmt_or(x->name, "?"));
	if (m->nsides > 2)
		sb_addf(&tc, " (%s)", fmt_or(m->sides[k].label, "?"));
	testcase_open(out, cls, tc.buf);
	sb_release(&tc);
	sb_adds(out, ">\n      <properties>\n");
	property(out, "a_mean", a->mean_text);
	property(out, "b_mean", b->mean_text);
	property(out, "change_pct", b->change_pct_text);
	property(out, "p", b->p_text);
	property(out, "verdict", b->verdict);
	sb_adds(out, "      </properties>\n");
	if (!strcmp(fmt_or(b->verdict, ""), "regression")) {
		struct strbuf msg = STRBUF_INIT;
		sb_addf(&msg, "%s: %s -> %s %s (%+.1f%%)", fmt_or(x->name, "?"),
			fmt_or(a->mean_text, "n/a"), fmt_or(b->mean_text, "n/a"),
			fmt_or(x->unit, ""), b->change_pct.v);
		failure(out, msg.buf);
		sb_release(&msg);
	}
	sb_adds(out, "    </testcase>\n");
}

static void suite_compare(const struct compare_model *m, const char *name, struct strbuf *out)
{
	size_t tests = 0, failures = 0;
	struct strbuf cls = STRBUF_INIT;

	for (size_t i = 0; i < m->nmetrics; i++) {
		if (!m->metrics[i].gating)
			continue;
		for (size_t k = 1; k < m->nsides; k++) {	/* each side against the base */
			tests++;
			failures += !strcmp(fmt_or(m->metrics[i].sides[k].verdict, ""), "regression");
		}
	}
	sb_adds(&cls, "scaletest.compare.");
	sb_adds(&cls, name);
	sb_adds(out, "  <testsuite name=\"");
	xml_escape(out, cls.buf);
	sb_addf(out, "\" tests=\"%zu\" failures=\"%zu\">\n", tests, failures);
	for (size_t i = 0; i < m->nmetrics; i++)
		for (size_t k = 1; k < m->nsides && m->metrics[i].gating; k++)
			testcase_compare(m, &m->metrics[i], k, cls.buf, out);
	sb_adds(out, "  </testsuite>\n");
	sb_release(&cls);
}

void junit_run(const struct report_model *m, struct strbuf *out)
{
	open_doc(out);
	suite_run(m, out);
	close_doc(out);
}

void junit_compare(const struct compare_model *m, struct strbuf *out)
{
	open_doc(out);
	suite_compare(m, fmt_or(m->nsides > 1 ? m->sides[1].scenario : NULL, "run"), out);
	close_doc(out);
}

void junit_nightly(const struct nightly_model *m, struct strbuf *out)
{
	open_doc(out);
	for (size_t i = 0; i < m->nrows; i++) {
		if (m->rows[i].have_run)
			suite_run(&m->rows[i].run_model, out);
		if (m->rows[i].have_compare)
			suite_compare(&m->rows[i].compare, fmt_or(m->rows[i].scenario, "run"), out);
	}
	close_doc(out);
}
