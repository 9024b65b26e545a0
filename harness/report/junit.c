#include "report/junit.h"

#include <string.h>

#include "result/result.h"
#include "lib/util.h"

void xml_escape(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '<')
			sb_adds(out, "&lt;");
		else if (c == '>')
			sb_adds(out, "&gt;");
		else if (c == '&')
			sb_adds(out, "&amp;");
		else if (c == '"')
			sb_adds(out, "&quot;");
		else if (c == '\'')
			sb_adds(out, "&apos;");
		else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			sb_addch(out, '?');
		else
			sb_addch(out, (char)c);
	}
}

void junit_open(struct strbuf *out)
{
	sb_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
}

void junit_close(struct strbuf *out)
{
	sb_adds(out, "</testsuites>\n");
}

static void property(struct strbuf *out, const char *name, json_object *v)
{
	sb_adds(out, "      <property name=\"");
	xml_escape(out, name);
	sb_adds(out, "\" value=\"");
	xml_escape(out, v ? json_object_get_string(v) : "");
	sb_adds(out, "\"/>\n");
}

void junit_suite_run(json_object *root, struct strbuf *out)
{
	static const char *const props[] = {
		"status", "reason", "run_id", "kernel.version", "kernel.arch", "vm.accel",
		"disks.requested", "disks.present", "deltas.insmod.LowFree_kb",
		"deltas.insmod.MemFree_kb", "deltas.insmod.per_disk_bytes.LowFree",
		"deltas.insmod.per_disk_bytes.MemFree", "deltas.insmod.unaccounted_kb",
		"deltas.rmmod.returned_pct", "timings.enumerate_s", "timings.total_s",
	};
	json_object *checks = jget(root, "checks");
	size_t n = checks ? json_object_array_length(checks) : 0, failures = 0;
	const char *status = jstr(root, "status", "?");
	int run_failed = strcmp(status, "pass") != 0;

	for (size_t i = 0; i < n; i++)
		failures += !json_object_get_boolean(jget(json_object_array_get_idx(checks, i), "pass"));
	sb_adds(out, "  <testsuite name=\"scaletest.");
	xml_escape(out, jstr(root, "scenario.name", "run"));
	sb_addf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%d\" time=\"%.2f\">\n",
		n + 1, failures, run_failed && !failures, jdouble(root, "timings.total_s", 0));
	sb_adds(out, "    <properties>\n");
	for (size_t i = 0; i < ARRAY_SIZE(props); i++)
		property(out, props[i], jget(root, props[i]));
	sb_adds(out, "    </properties>\n");
	/* The run as a whole: a crash, timeout or OOM shows even when no
	 * check ran. */
	sb_adds(out, "    <testcase classname=\"scaletest.");
	xml_escape(out, jstr(root, "scenario.name", "run"));
	sb_adds(out, "\" name=\"run status\"");
	if (run_failed) {
		sb_adds(out, ">\n      <failure message=\"");
		xml_escape(out, status);
		sb_adds(out, ": ");
		xml_escape(out, jstr(root, "reason", ""));
		sb_adds(out, "\"/>\n    </testcase>\n");
	} else {
		sb_adds(out, "/>\n");
	}
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(checks, i);

		sb_adds(out, "    <testcase classname=\"scaletest.");
		xml_escape(out, jstr(root, "scenario.name", "run"));
		sb_adds(out, "\" name=\"");
		xml_escape(out, jstr(c, "name", "?"));
		if (json_object_get_boolean(jget(c, "pass"))) {
			sb_adds(out, "\"/>\n");
			continue;
		}
		sb_adds(out, "\">\n      <failure message=\"");
		xml_escape(out, jstr(c, "detail", ""));
		sb_adds(out, "\"/>\n    </testcase>\n");
	}
	sb_adds(out, "  </testsuite>\n");
}

void junit_suite_compare(json_object *cmp, const char *name, struct strbuf *out)
{
	json_object *ms = jget(cmp, "metrics");
	size_t tests = 0, failures = 0;

	for (size_t i = 0; ms && i < json_object_array_length(ms); i++) {
		json_object *m = json_object_array_get_idx(ms, i);
		if (!json_object_get_boolean(jget(m, "gating")))
			continue;
		tests++;
		failures += !strcmp(jstr(m, "verdict", ""), "regression");
	}
	sb_adds(out, "  <testsuite name=\"scaletest.compare.");
	xml_escape(out, name);
	sb_addf(out, "\" tests=\"%zu\" failures=\"%zu\">\n", tests, failures);
	for (size_t i = 0; ms && i < json_object_array_length(ms); i++) {
		json_object *m = json_object_array_get_idx(ms, i);
		if (!json_object_get_boolean(jget(m, "gating")))
			continue;
		sb_adds(out, "    <testcase classname=\"scaletest.compare.");
		xml_escape(out, name);
		sb_adds(out, "\" name=\"");
		xml_escape(out, jstr(m, "name", "?"));
		sb_adds(out, "\">\n      <properties>\n");
		property(out, "a_mean", jget(m, "a.mean"));
		property(out, "b_mean", jget(m, "b.mean"));
		property(out, "change_pct", jget(m, "change_pct"));
		property(out, "p", jget(m, "p"));
		property(out, "verdict", jget(m, "verdict"));
		sb_adds(out, "      </properties>\n");
		if (!strcmp(jstr(m, "verdict", ""), "regression")) {
			struct strbuf msg = STRBUF_INIT;
			sb_addf(&msg, "%s: %s -> %s %s (%+.1f%%)", jstr(m, "name", "?"),
				json_object_get_string(jget(m, "a.mean")),
				json_object_get_string(jget(m, "b.mean")), jstr(m, "unit", ""),
				jdouble(m, "change_pct", 0));
			sb_adds(out, "      <failure message=\"");
			xml_escape(out, msg.buf);
			sb_adds(out, "\"/>\n");
			sb_release(&msg);
		}
		sb_adds(out, "    </testcase>\n");
	}
	sb_adds(out, "  </testsuite>\n");
}

void junit_run(json_object *root, struct strbuf *out)
{
	junit_open(out);
	junit_suite_run(root, out);
	junit_close(out);
}

void junit_compare(json_object *cmp, struct strbuf *out)
{
	junit_open(out);
	junit_suite_compare(cmp, jstr(cmp, "b.scenario", "run"), out);
	junit_close(out);
}
