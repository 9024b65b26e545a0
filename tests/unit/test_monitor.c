// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "lib/child.h"
#include "record/monitor.h"
#include "record/slabinfo.h"
#include "result/result.h"
#include "test.h"
#include "lib/util.h"

static void sample_text(struct strbuf *sb, const char *head)
{
	size_t n;
	char *mi = fixture("meminfo/i386-after-insmod.txt", &n);
	char *si = fixture("slabinfo/i386-after-insmod.txt", &n);
	char *vs = fixture("vmstat/host.txt", &n);

	sb_addf(sb, "%s\n@@@ meminfo\n%s@@@ slabinfo\n%s@@@ vmstat\n%s", head, mi, si, vs);
	free(mi);
	free(si);
	free(vs);
}

TEST(monitor_sample_parses_all_three_sections)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	json_object *o = NULL;
	long n = 0;

	sample_text(&sb, "@@@ sample 7 36.25 insmod");
	REQUIRE(monitor_sample(sb.buf, sb.len, 4096, &o, &n, &err) == 0);
	CHECK_EQ_INT(n, 7);
	CHECK_EQ_INT(jint(o, "n", 0), 7);
	CHECK_STR(jstr(o, "step", ""), "insmod");
	CHECK(jdouble(o, "t", 0) > 36.2 && jdouble(o, "t", 0) < 36.3);
	CHECK_EQ_INT(jint(o, "meminfo.LowFree", -1), 136160);
	CHECK(jint(o, "slab_kb", 0) > 0);
	CHECK_EQ_INT(jint(o, "vmstat.pgfree", -1), 73446841);
	CHECK(jget(o, "vmstat.numa_hit") == NULL);	/* only the listed counters */
	CHECK(jget(o, "blocks") == NULL);	/* an older guest's header */
	json_object_put(o);
	sb_release(&sb);
	sb_release(&err);
}

TEST(monitor_sample_block_count)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	json_object *o = NULL;
	long n = 0;

	sample_text(&sb, "@@@ sample 3 12.50 insmod 1042");
	REQUIRE(monitor_sample(sb.buf, sb.len, 4096, &o, &n, &err) == 0);
	CHECK_EQ_INT(jint(o, "blocks", -1), 1042);
	CHECK_STR(jstr(o, "step", ""), "insmod");
	CHECK(jget(o, "cpu_s") == NULL);	/* a guest before the duty cycle */
	json_object_put(o);
	/* and the monitor's CPU ticks before the sample, as seconds */
	sb_reset(&sb);
	sample_text(&sb, "@@@ sample 4 20.00 insmod 1042 37");
	REQUIRE(monitor_sample(sb.buf, sb.len, 4096, &o, &n, &err) == 0);
	CHECK(jdouble(o, "cpu_s", -1) > 0.369 && jdouble(o, "cpu_s", -1) < 0.371);
	json_object_put(o);
	sb_release(&sb);
	sb_release(&err);
}

TEST(monitor_sample_rejects_bad_input)
{
	static const char *const heads[][2] = {
		{ "@@@ sample 0 1.0 io", "bad sample number" },
		{ "@@@ sample x 1.0 io", "bad sample number" },
		{ "@@@ sample 1 -1 io", "bad sample header" },
		{ "@@@ sample 1 1.0 IO", "bad sample step" },
		{ "@@@ sample 1 1.0", "bad sample header" },
		{ "@@@ example 1 1.0 io", "bad sample header" },
		{ "@@@ sample 1 1.0 io -3", "bad block device count" },
		{ "@@@ sample 1 1.0 io 12x", "bad block device count" },
		{ "@@@ sample 1 1.0 io 99999999999", "bad block device count" },
		{ "@@@ sample 1 1.0 io 4 5 6", "bad sample header" },
		{ "@@@ sample 1 1.0 io 4 -1", "bad monitor CPU ticks" },
		{ "@@@ sample 1 1.0 io 4 3.5", "bad monitor CPU ticks" },
		{ "@@@ sample 1 1.0 io 4 10000000001", "bad monitor CPU ticks" },
	};

	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
		json_object *o = NULL;
		long n = 0;

		sample_text(&sb, heads[i][0]);
		CHECK_EQ_INT(monitor_sample(sb.buf, sb.len, 4096, &o, &n, &err), -1);
		CHECK_CONTAINS(err.buf, heads[i][1]);
		CHECK(o == NULL);
		sb_release(&sb);
		sb_release(&err);
	}
}

TEST(monitor_sample_needs_every_section)
{
	static const char *const texts[][2] = {
		{ "@@@ sample 1 1.0 io\n@@@ slabinfo\n@@@ vmstat\n", "no meminfo section" },
		{ "@@@ sample 1 1.0 io\n@@@ meminfo\nMemFree: 1 kB\n@@@ vmstat\n", "no slabinfo section" },
		{ "@@@ sample 1 1.0 io\n@@@ meminfo\nMemFree: 1 kB\n@@@ slabinfo\n@@@ vmstat\nx\n", "line 1: expected 'name value'" },
		{ "@@@ sample 1 1.0 io\n@@@ meminfo\nMemFree 1 kB\n", "line 1: missing ':'" },
		{ "no header at all", "no sample header" },
	};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct strbuf err = STRBUF_INIT;
		json_object *o = NULL;
		long n = 0;

		CHECK_EQ_INT(monitor_sample(texts[i][0], strlen(texts[i][0]), 4096, &o, &n, &err), -1);
		CHECK_CONTAINS(err.buf, texts[i][1]);
		sb_release(&err);
	}
}

TEST(vmstat_parse_good_and_bad)
{
	static const char good[] = "nr_free_pages 12\npgfree 34\n";
	struct vmstat v = VMSTAT_INIT;
	struct strbuf err = STRBUF_INIT;

	REQUIRE(vmstat_parse(&v, good, strlen(good), &err) == 0);
	CHECK_EQ_INT(vmstat_get(&v, "pgfree"), 34);
	CHECK_EQ_INT(vmstat_get(&v, "absent"), -1);
	CHECK_EQ_INT(vmstat_parse(&v, "pgfree x\n", 9, &err), -1);
	CHECK_CONTAINS(err.buf, "line 1: bad number");
	CHECK_EQ_INT(vmstat_get(&v, "pgfree"), 34);	/* unchanged on error */
	sb_reset(&err);
	CHECK_EQ_INT(vmstat_parse(&v, "PgFree 1\n", 9, &err), -1);
	CHECK_CONTAINS(err.buf, "bad character in name");
	vmstat_release(&v);
	sb_release(&err);
}

/* A sample from the slim monitor: the guest's slab total, a few vmstat
 * lines. */
TEST(monitor_slim_sample)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	json_object *o = NULL;
	long n = 0;
	size_t len;
	char *mi = fixture("meminfo/i386-after-insmod.txt", &len);

	sb_addf(&sb, "@@@ sample 4 20.5 insmod 500\n@@@ meminfo\n%s@@@ slab\n123456\n"
		"@@@ vmstat\nnr_free_pages 1000\npgfree 77\n", mi);
	REQUIRE(monitor_sample(sb.buf, sb.len, 4096, &o, &n, &err) == 0);
	CHECK_EQ_INT(jint(o, "slab_kb", -1), 123456);
	CHECK_EQ_INT(jint(o, "vmstat.pgfree", -1), 77);
	CHECK(jget(o, "vmstat.pgfault") == NULL);
	json_object_put(o);

	static const char *const bad[] = { "-5\n", "12x\n", "99999999999999999999\n",
					   "1099511627777\n" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		sb_reset(&sb);
		sb_reset(&err);
		sb_addf(&sb, "@@@ sample 4 20.5 insmod\n@@@ meminfo\n%s@@@ slab\n%s@@@ vmstat\n", mi, bad[i]);
		o = NULL;
		CHECK_EQ_INT(monitor_sample(sb.buf, sb.len, 4096, &o, &n, &err), -1);
		CHECK_CONTAINS(err.buf, "bad slab total");
		CHECK(o == NULL);
	}
	/* No /proc/slabinfo in the guest: an empty section, a null total. */
	sb_reset(&sb);
	sb_addf(&sb, "@@@ sample 4 20.5 insmod\n@@@ meminfo\n%s@@@ slab\n@@@ vmstat\n", mi);
	REQUIRE(monitor_sample(sb.buf, sb.len, 4096, &o, &n, &err) == 0);
	CHECK(jget(o, "slab_kb") == NULL);
	json_object_put(o);
	free(mi);
	sb_release(&sb);
	sb_release(&err);
}

/* The guest's sample (the awk program of the monitor in initramfs/lib/monitor.sh,
 * run here by the host's awk over captured /proc files) is what the host's
 * parser reads: meminfo as it was, the slab total equal to the host's own
 * sum of the same /proc/slabinfo, only the vmstat counters asked for, and
 * no total at all without a slabinfo. */
TEST(monitor_guest_sample_matches_the_host)
{
	static const char *const arch[] = { "i386", "amd64" };
	struct strbuf lib = STRBUF_INIT, prog = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;
	const char *p, *q;

	REQUIRE(sb_read_file(&lib, SCALETEST_SOURCE_ROOT "/initramfs/lib/monitor.sh") == 0);
	p = strstr(lib.buf, "awk -v head=");
	REQUIRE(p);
	p = strstr(p, "'BEGIN {");
	REQUIRE(p);
	p++;
	q = strchr(p, '\'');
	REQUIRE(q);
	sb_add(&prog, p, (size_t)(q - p));
	for (size_t i = 0; i <= ARRAY_SIZE(arch); i++) {
		int noslab = i == ARRAY_SIZE(arch);	/* a guest without slabinfo */
		const char *a = arch[noslab ? 0 : i];
		char *mi = xstrfmt("%s/meminfo/%s-after-insmod.txt", fixtures_dir, a);
		char *si = noslab ? xstrdup("/nonexistent/slabinfo")
				  : xstrfmt("%s/slabinfo/%s-after-insmod.txt", fixtures_dir, a);
		char *vm = xstrfmt("%s/vmstat/host.txt", fixtures_dir);
		char *vmi = xstrfmt("mi=%s", mi), *vsi = xstrfmt("si=%s", si), *vvm = xstrfmt("vm=%s", vm);
		char *log = xstrfmt("%s/awk-%zu.out", test_tmpdir(), i);
		const char *argv[] = { "awk", "-v", "head=3 20.50 insmod 4000",
				       "-v", "names=nr_free_pages|pgfree", "-v", vmi, "-v", vsi,
				       "-v", vvm, prog.buf, NULL };
		struct child_opts o = CHILD_OPTS_INIT;
		struct child_result res;
		json_object *s = NULL;
		long n = 0;

		o.timeout = 30;
		o.log = log;
		REQUIRE(child_run(argv, &o, &res) == 0 && child_ok(&res));
		sb_reset(&out);
		REQUIRE(sb_read_file(&out, log) == 0);
		sb_reset(&err);
		REQUIRE(monitor_sample(out.buf, out.len, 4096, &s, &n, &err) == 0);
		CHECK_EQ_INT(n, 3);
		CHECK_EQ_INT(json_object_get_int64(jget(s, "blocks")), 4000);
		CHECK_STR(json_object_get_string(jget(s, "step")), "insmod");
		if (noslab) {
			CHECK(jget(s, "slab_kb") == NULL);
		} else {
			size_t len;
			char *rel = xstrfmt("slabinfo/%s-after-insmod.txt", a);
			char *text = fixture(rel, &len);
			struct slabinfo sl = SLABINFO_INIT;
			long long host = 0;

			REQUIRE(slabinfo_parse(&sl, text, len, &err) == 0);
			for (size_t k = 0; k < sl.n; k++)
				host += slab_cache_bytes(&sl.c[k], 4096) / 1024;
			CHECK(host > 0);
			CHECK_EQ_INT(json_object_get_int64(jget(s, "slab_kb")), host);
			slabinfo_release(&sl);
			free(rel);
			free(text);
		}
		/* meminfo passed through whole; only the two counters asked for */
		CHECK(json_object_object_length(jget(s, "meminfo")) > 20);
		CHECK(jget(s, "meminfo.MemFree") != NULL);
		CHECK_EQ_INT(json_object_object_length(jget(s, "vmstat")), 2);
		CHECK(jget(s, "vmstat.pgfree") != NULL);
		json_object_put(s);
		free(mi);
		free(si);
		free(vm);
		free(vmi);
		free(vsi);
		free(vvm);
		free(log);
	}
	sb_release(&lib);
	sb_release(&prog);
	sb_release(&out);
	sb_release(&err);
}
