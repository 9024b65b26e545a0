// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "record/attribution.h"
#include "result/analysis.h"
#include "result/result.h"
#include "lib/strvec.h"
#include "test.h"
#include "lib/util.h"

static void parse_ok(const char *rel, struct attr_hist *h)
{
	size_t len;
	char *buf = fixture(rel, &len);
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(attr_hist_parse(h, buf, len, &err), 0);
	CHECK_STR(err.buf, "");
	sb_release(&err);
	free(buf);
}

/* A fixture that must be rejected; returns the message (static). */
static const char *bad_file(const char *rel)
{
	static char msg[256];
	size_t len;
	char *buf = fixture(rel, &len);
	struct attr_hist h = ATTR_HIST_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(attr_hist_parse(&h, buf, len, &err), -1);
	CHECK_EQ_INT(h.n, 0);
	CHECK(h.e == NULL);
	snprintf(msg, sizeof(msg), "%s", err.buf);
	attr_hist_release(&h);
	sb_release(&err);
	free(buf);
	return msg;
}

static const char *bad(const char *text)
{
	static char msg[256];
	struct attr_hist h = ATTR_HIST_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(attr_hist_parse(&h, text, strlen(text), &err), -1);
	CHECK_EQ_INT(h.n, 0);
	snprintf(msg, sizeof(msg), "%s", err.buf);
	attr_hist_release(&h);
	sb_release(&err);
	return msg;
}

/* The guest's page-alloc hist (Debian 6.1 amd64, smoke): every entry has
 * a stack and an order; the hitcounts add up to the Hits total and the
 * entries to Entries. */
TEST(attribution_page_alloc_fixture)
{
	struct attr_hist h = ATTR_HIST_INIT;
	long long hits = 0;

	parse_ok("attribution/amd64-page-alloc.hist", &h);
	REQUIRE(h.n > 0);
	CHECK_EQ_INT(h.n, h.entries);
	CHECK_EQ_INT(h.dropped, 0);
	for (size_t i = 0; i < h.n; i++) {
		CHECK(h.e[i].nframes > 0 && h.e[i].nframes <= 16);
		CHECK(h.e[i].order >= 0);
		CHECK(h.e[i].hitcount > 0);
		CHECK_EQ_INT(h.e[i].bytes_alloc, -1);
		hits += h.e[i].hitcount;
	}
	CHECK_EQ_INT(hits, h.hits);
	/* The first entry, as the file has it. */
	CHECK_STR(h.e[0].frames[0], "allocate_slab+0x334/0x490");
	CHECK_STR(h.e[0].frames[11], "sd_probe+0x314/0x520 [sd_mod]");
	attr_hist_release(&h);
	CHECK_EQ_INT(h.n, 0);
}

TEST(attribution_kmalloc_and_free_fixtures)
{
	struct attr_hist h = ATTR_HIST_INIT;
	long long hits = 0;

	parse_ok("attribution/amd64-kmalloc.hist", &h);
	REQUIRE(h.n > 0);
	CHECK_EQ_INT(h.n, h.entries);
	for (size_t i = 0; i < h.n; i++) {
		CHECK(h.e[i].nframes > 0);
		CHECK_EQ_INT(h.e[i].order, -1);
		CHECK(h.e[i].bytes_alloc >= h.e[i].bytes_req);
		CHECK(h.e[i].bytes_req > 0);
		hits += h.e[i].hitcount;
	}
	CHECK_EQ_INT(hits, h.hits);
	attr_hist_release(&h);

	/* Frees: keyed on the order alone, no stacks. */
	parse_ok("attribution/amd64-page-free.hist", &h);
	REQUIRE(h.n > 0);
	CHECK_EQ_INT(h.n, h.entries);
	hits = 0;
	for (size_t i = 0; i < h.n; i++) {
		CHECK(h.e[i].frames == NULL);
		CHECK(h.e[i].order >= 0);
		hits += h.e[i].hitcount;
	}
	CHECK_EQ_INT(hits, h.hits);
	attr_hist_release(&h);
}

/* Kernels from 6.5 call the stack key common_stacktrace (a synthetic file
 * in that format: no such kernel among the guests yet). */
TEST(attribution_common_stacktrace)
{
	struct attr_hist h = ATTR_HIST_INIT;

	parse_ok("attribution/synthetic-common-stacktrace.hist", &h);
	REQUIRE(h.n == 1);
	CHECK_EQ_INT(h.e[0].nframes, 2);
	CHECK_EQ_INT(h.e[0].bytes_alloc, 384);
	CHECK_EQ_INT(h.e[0].bytes_req, 300);
	CHECK_EQ_INT(h.dropped, 2);
	attr_hist_release(&h);
}

TEST(attribution_malformed)
{
	CHECK_CONTAINS(bad_file("attribution/bad-cut-short.hist"), "entry cut off");
	CHECK_CONTAINS(bad_file("attribution/bad-stack-unclosed.hist"),
		       "line 26: expected a frame");
	CHECK_CONTAINS(bad_file("attribution/bad-number.hist"),
		       "line 23: expected 'name: number' values");
	CHECK_CONTAINS(bad_file("attribution/bad-no-totals.hist"), "no Totals");
	CHECK_CONTAINS(bad_file("attribution/bad-junk-line.hist"),
		       "line 6: expected '{'");
	CHECK_CONTAINS(bad(""), "no Totals");
	CHECK_CONTAINS(bad("{ order: 99 } hitcount: 1\n"), "line 1: order out of range");
	CHECK_CONTAINS(bad("{ order: 1 }\n"), "without hitcount");
	CHECK_CONTAINS(bad("{ order: x } hitcount: 1\n"), "not a number");
	CHECK_CONTAINS(bad("{ order: 1 } hitcount: 99999999999999999999\n"),
		       "expected 'name: number'");
	CHECK_CONTAINS(bad("{ stacktrace: x\n"), "must end its line");
	CHECK_CONTAINS(bad("{ stacktrace:\n a\n b\n, stacktrace:\n"), "once");
	CHECK_CONTAINS(bad("{ stacktrace:\n a\0b\n} hitcount: 1\n"), "");
	CHECK_CONTAINS(bad("Totals:\n    Hits: 1\n    Entries: x\n"), "line 3: a total");
	CHECK_CONTAINS(bad("Totals:\n    Hits: 1 2\n"), "junk after");
	CHECK_CONTAINS(bad("Totals:\n    Misses: 1\n"), "expected Hits:");
	CHECK_CONTAINS(bad("{ order: 1 } hitcount: 1\n"), "no Totals");
}

TEST(attribution_too_many_frames)
{
	struct strbuf sb = STRBUF_INIT;
	struct attr_hist h = ATTR_HIST_INIT;
	struct strbuf err = STRBUF_INIT;

	sb_adds(&sb, "{ stacktrace:\n");
	for (int i = 0; i <= ATTR_MAX_FRAMES; i++)
		sb_addf(&sb, "         f%d+0x1/0x2\n", i);
	sb_adds(&sb, "} hitcount: 1\n");
	CHECK_EQ_INT(attr_hist_parse(&h, sb.buf, sb.len, &err), -1);
	CHECK_CONTAINS(err.buf, "too many frames");
	attr_hist_release(&h);
	sb_release(&sb);
	sb_release(&err);
}

TEST(attribution_fold)
{
	char *vm[] = {
		"allocate_slab+0x334/0x490", "___slab_alloc+0x379/0x990",
		"__kmem_cache_alloc_node+0x110/0x2a0", "__kmalloc_node+0x4c/0x150",
		"__vmalloc_node_range+0x1ce/0x880", "__vmalloc_node+0x4a/0x60",
		"bdev_disk_changed+0xee/0x3b0", "blkdev_get_whole+0x7a/0x90",
	};
	char *mod[] = { "__alloc_pages+0x1f0/0x230", "sd_probe+0x314/0x520 [sd_mod]" };
	char *part[] = { "kmalloc_large_node.part.0+0x1/0x2", "scsi_alloc_sdev+0x1/0x2 [scsi_mod]" };
	char *all[] = { "__alloc_pages+0x1/0x2", "kmalloc_trace+0x1/0x2" };
	struct strbuf sb = STRBUF_INIT;

	CHECK_EQ_INT(attr_fold(vm, ARRAY_SIZE(vm)), 6);
	CHECK_EQ_INT(attr_fold(mod, ARRAY_SIZE(mod)), 1);
	CHECK_EQ_INT(attr_fold(part, ARRAY_SIZE(part)), 1);
	CHECK_EQ_INT(attr_fold(all, ARRAY_SIZE(all)), 0);
	CHECK_EQ_INT(attr_fold(all, 0), 0);
	attr_site_name(vm[6], &sb);
	CHECK_STR(sb.buf, "bdev_disk_changed");
	sb_reset(&sb);
	attr_site_name(mod[1], &sb);
	CHECK_STR(sb.buf, "sd_probe [sd_mod]");
	sb_reset(&sb);
	attr_site_name("odd [unclosed", &sb);
	CHECK_STR(sb.buf, "odd");
	sb_release(&sb);
}

/* Sites: summed over the stacks that fold to them, largest first, the top
 * ones kept with a stack, the rest in other_bytes; page bytes are
 * 4096 << order per hit. */
TEST(attribution_source_json)
{
	static const char text[] =
		"{ stacktrace:\n         __alloc_pages+0x1/0x2\n         a_site+0x1/0x2\n"
		", order:          1} hitcount:          3\n"
		"{ stacktrace:\n         b_site+0x1/0x2 [mod]\n"
		", order:          0} hitcount:          1\n"
		"{ stacktrace:\n         alloc_pages+0x1/0x2\n         a_site+0x9/0x9\n         other+0x1/0x2\n"
		", order:          0} hitcount:          2\n"
		"{ stacktrace:\n         c_site+0x1/0x2\n"
		", order:          2} hitcount:          1\n"
		"\nTotals:\n    Hits: 7\n    Entries: 4\n    Dropped: 0\n";
	struct attr_hist h = ATTR_HIST_INIT;
	struct strbuf err = STRBUF_INIT;
	json_object *o, *sites, *s0;

	REQUIRE(attr_hist_parse(&h, text, sizeof(text) - 1, &err) == 0);
	o = attr_source_json(&h, ATTR_PAGES, 2);
	CHECK_EQ_INT(jint(o, "bytes", -1), (6 + 1 + 2 + 4) * 4096);
	CHECK_EQ_INT(jint(o, "sites_total", -1), 3);
	sites = jarray(o, "sites");
	REQUIRE(jlen(sites) == 2);
	s0 = json_object_array_get_idx(sites, 0);
	CHECK_STR(jstr(s0, "site", ""), "a_site");
	CHECK_EQ_INT(jint(s0, "bytes", -1), 8 * 4096);
	CHECK_EQ_INT(jint(s0, "count", -1), 5);
	/* The largest of its stacks, whole. */
	CHECK_EQ_INT(jlen(jarray(s0, "stack")), 2);
	CHECK_STR(jstr(json_object_array_get_idx(sites, 1), "site", ""), "c_site");
	CHECK_EQ_INT(jint(o, "other_bytes", -1), 4096);
	json_object_put(o);

	/* kmalloc-style: bytes_alloc, and no order needed. */
	o = attr_source_json(&h, ATTR_BYTES, 10);
	CHECK_EQ_INT(jint(o, "bytes", -1), 0);
	json_object_put(o);
	attr_hist_release(&h);
	sb_release(&err);
}

/* The real page-alloc fixture: blk-mq's request maps are among the top
 * call sites of scsi_debug's disks. */
TEST(attribution_fixture_sites)
{
	struct attr_hist h = ATTR_HIST_INIT;
	json_object *o, *sites;
	long long sum = 0, prev = -1;
	int blk = 0;

	parse_ok("attribution/amd64-page-alloc.hist", &h);
	o = attr_source_json(&h, ATTR_PAGES, 10);
	sites = jarray(o, "sites");
	REQUIRE(jlen(sites) == 10);
	for (size_t i = 0; i < jlen(sites); i++) {
		json_object *s = json_object_array_get_idx(sites, i);
		long long b = jint(s, "bytes", -1);

		CHECK(b > 0);
		CHECK(prev < 0 || b <= prev);
		prev = b;
		sum += b;
		if (i < 5 && strstr(jstr(s, "site", ""), "blk_mq"))
			blk = 1;
		CHECK(!strstr(jstr(s, "site", ""), "alloc_pages"));
		CHECK(!strstr(jstr(s, "site", ""), "+0x"));
	}
	CHECK(blk);
	CHECK(jint(o, "other_bytes", -1) >= 0);
	CHECK(sum + jint(o, "other_bytes", 0) <= jint(o, "bytes", -1));
	json_object_put(o);
	attr_hist_release(&h);
}

/* The site names of a source's top sites, in a strvec. */
static void top_sites(const char *fixture_path, size_t n, struct strvec *out)
{
	struct attr_hist h = ATTR_HIST_INIT;
	json_object *o, *sites;

	parse_ok(fixture_path, &h);
	o = attr_source_json(&h, ATTR_PAGES, n);
	sites = jarray(o, "sites");
	for (size_t i = 0; i < jlen(sites); i++)
		strvec_push(out, jstr(json_object_array_get_idx(sites, i), "site", "?"));
	json_object_put(o);
	attr_hist_release(&h);
}

/* Debian's 6.12 (common_stacktrace; allocators named "..._noprof", the
 * mempolicy and bulk page paths, kmalloc's cache entry points): folded to
 * the callers, each site under the name it has on 6.1, so that 6.1 and
 * 6.12 compare site by site.  Both fixtures are the page-alloc hists of
 * the smoke scenario (40 disks, amd64) with attribution on. */
TEST(attribution_612_sites_named_as_on_61)
{
	static const char *const both[] = {
		"blk_mq_alloc_map_and_rqs", "scsi_mq_init_request [scsi_mod]", "alloc_inode",
		"__kernfs_new_node", "do_wp_page",
	};
	struct strvec s612 = STRVEC_INIT, s61 = STRVEC_INIT;

	top_sites("attribution/amd64-612-page-alloc.hist", 25, &s612);
	top_sites("attribution/amd64-page-alloc.hist", 25, &s61);
	REQUIRE(s612.n > 5);
	CHECK_STR(s612.v[0], "blk_mq_alloc_map_and_rqs");
	for (size_t i = 0; i < s612.n; i++) {
		const char *n = s612.v[i];

		if (strstr(n, "_noprof") || strstr(n, "alloc_pages") || strstr(n, "kmalloc") ||
		    strstr(n, ".isra") || strstr(n, ".constprop") || strstr(n, "execmem_alloc"))
			test_fail(__FILE__, __LINE__, "6.12 site '%s' is an allocator's name", n);
	}
	for (size_t i = 0; i < ARRAY_SIZE(both); i++) {
		if (strvec_find(&s612, both[i]) < 0)
			test_fail(__FILE__, __LINE__, "'%s' is not a 6.12 site", both[i]);
		if (strvec_find(&s61, both[i]) < 0)
			test_fail(__FILE__, __LINE__, "'%s' is not a 6.1 site", both[i]);
	}
	CHECK(strvec_find(&s61, "wp_page_copy") < 0);	/* its 6.12 name, do_wp_page */
	strvec_clear(&s612);
	strvec_clear(&s61);
}

TEST(attribution_fold_612_names)
{
	char *mpol[] = { "alloc_pages_mpol_noprof+0x8f/0x1e0", "vma_alloc_folio_noprof+0x71/0xe0",
			 "do_wp_page+0x287/0xd10" };
	char *cache[] = { "allocate_slab+0xa0/0x4e0", "___slab_alloc+0x7a6/0xbd0",
			  "__kmalloc_cache_node_noprof+0x2e0/0x330",
			  "sbitmap_queue_init_node+0xa9/0x130", "blk_mq_init_bitmaps+0x60/0xa0" };
	char *mod[] = { "alloc_pages_bulk_noprof+0x379/0x650",
			"__vmalloc_node_range_noprof+0x24f/0x850", "execmem_alloc+0x58/0xe0",
			"load_module+0x784/0x21b0" };
	struct strbuf sb = STRBUF_INIT;

	CHECK_EQ_INT(attr_fold(mpol, ARRAY_SIZE(mpol)), 2);
	CHECK_EQ_INT(attr_fold(cache, ARRAY_SIZE(cache)), 4);
	CHECK_EQ_INT(attr_fold(mod, ARRAY_SIZE(mod)), 3);
	attr_site_name("wp_page_copy+0x1/0x2", &sb);
	CHECK_STR(sb.buf, "do_wp_page");
	sb_reset(&sb);
	attr_site_name("sd_revalidate_disk.isra.0+0x1/0x2 [sd_mod]", &sb);
	CHECK_STR(sb.buf, "sd_revalidate_disk [sd_mod]");
	sb_reset(&sb);
	attr_site_name("kvmalloc_array_node_noprof+0x1/0x2", &sb);
	CHECK_STR(sb.buf, "kvmalloc_array_node");
	sb_release(&sb);
}

static json_object *attr_root(long long memfree_kb)
{
	char buf[128];
	json_object *root;

	snprintf(buf, sizeof(buf), "{\"deltas\": {\"insmod\": {\"MemFree_kb\": %lld}}}", memfree_kb);
	root = json_tokener_parse(buf);
	REQUIRE(root);
	return root;
}

static json_object *guest_attr(long long alloc, long long freed)
{
	char buf[512];
	json_object *o;

	snprintf(buf, sizeof(buf),
		 "{\"status\": \"ok\", \"sources\": {"
		 "\"page_alloc\": {\"bytes\": %lld, \"sites\": [{\"site\": \"x\", \"bytes\": %lld}]},"
		 "\"page_free\": {\"bytes\": %lld, \"sites\": []}}}", alloc, alloc, freed);
	o = json_tokener_parse(buf);
	REQUIRE(o);
	return o;
}

static void scenario_disks(struct scenario *s, const char *disks, const char *attr)
{
	struct strbuf err = STRBUF_INIT;

	scenario_init(s);
	REQUIRE(scenario_set(s, disks, "--set", &err) == 0);
	REQUIRE(scenario_set(s, attr, "--set", &err) == 0);
	sb_release(&err);
}

/* The closure: net traced pages against the MemFree drop, within the
 * tolerance either way; per disk and share for sources and sites. */
TEST(attribution_closure)
{
	struct scenario s;
	long long drop = 1000 * 1024;
	long long in = drop - drop * ATTR_CLOSURE_TOLERANCE_PCT / 100 + 4096;
	long long out = drop - drop * ATTR_CLOSURE_TOLERANCE_PCT / 100 - 4096;
	json_object *root, *g;

	scenario_disks(&s, "disks=10", "attribution=1");

	root = attr_root(-1000);
	g = guest_attr(in + 5000, 5000);
	analysis_attribution(root, &s, g);
	CHECK_STR(jstr(root, "attribution.status", ""), "ok");
	CHECK(jget(root, "attribution.closure.closes") &&
	      json_object_get_boolean(jget(root, "attribution.closure.closes")));
	CHECK_EQ_INT(jint(root, "attribution.closure.net_bytes", -1), in);
	CHECK_EQ_INT(jint(root, "attribution.closure.unexplained_bytes", -1), drop - in);
	CHECK_EQ_INT(jint(root, "attribution.memfree_drop_bytes", -1), drop);
	CHECK_EQ_INT(jint(root, "attribution.sources.page_alloc.bytes_per_disk", -1),
		     (in + 5000) / 10);
	CHECK(jdouble(root, "attribution.sources.page_alloc.share_pct", -1) > 0);
	/* The guest's object is copied, not changed. */
	CHECK(jget(g, "closure") == NULL);
	json_object_put(root);
	json_object_put(g);

	root = attr_root(-1000);
	g = guest_attr(out + 5000, 5000);
	analysis_attribution(root, &s, g);
	CHECK(jget(root, "attribution.closure.closes") &&
	      !json_object_get_boolean(jget(root, "attribution.closure.closes")));
	json_object_put(root);
	json_object_put(g);

	/* Too much traced is as bad as too little. */
	root = attr_root(-1000);
	g = guest_attr(2 * drop, 0);
	analysis_attribution(root, &s, g);
	CHECK(!json_object_get_boolean(jget(root, "attribution.closure.closes")));
	CHECK(jint(root, "attribution.closure.unexplained_bytes", 0) < 0);
	json_object_put(root);
	json_object_put(g);

	/* No MemFree drop: no closure figure. */
	root = json_object_new_object();
	g = guest_attr(drop, 0);
	analysis_attribution(root, &s, g);
	CHECK(jget(root, "attribution.closure.closes") == NULL);
	json_object_put(root);
	json_object_put(g);
	scenario_release(&s);
}

TEST(attribution_unavailable_and_off)
{
	struct scenario s;
	json_object *root, *g;

	scenario_disks(&s, "disks=10", "attribution=1");
	/* The guest said why. */
	root = attr_root(-1000);
	g = json_tokener_parse("{\"status\": \"unavailable\", \"reason\": \"refused\", \"sources\": {}}");
	analysis_attribution(root, &s, g);
	CHECK_STR(jstr(root, "attribution.status", ""), "unavailable");
	CHECK_STR(jstr(root, "attribution.reason", ""), "refused");
	CHECK(jget(root, "attribution.sources") == NULL);
	json_object_put(root);
	json_object_put(g);
	/* Nothing from the guest (an older guest, or a channel cut short). */
	root = attr_root(-1000);
	analysis_attribution(root, &s, NULL);
	CHECK_STR(jstr(root, "attribution.status", ""), "unavailable");
	CHECK_CONTAINS(jstr(root, "attribution.reason", ""), "no attr record");
	json_object_put(root);
	scenario_release(&s);

	scenario_disks(&s, "disks=10", "attribution=0");
	root = attr_root(-1000);
	analysis_attribution(root, &s, NULL);
	CHECK_STR(jstr(root, "attribution.status", ""), "off");
	json_object_put(root);
	scenario_release(&s);

	scenario_disks(&s, "disks=0", "attribution=1");
	root = attr_root(0);
	analysis_attribution(root, &s, NULL);
	CHECK_STR(jstr(root, "attribution.status", ""), "off");
	json_object_put(root);
	scenario_release(&s);
}

/* vmalloc's order-0 pages are taken in bulk, without a tracepoint: its
 * growth counts as explained. */
TEST(attribution_closure_vmalloc)
{
	struct scenario s;
	json_object *root, *g;

	scenario_disks(&s, "disks=10", "attribution=1");
	root = json_tokener_parse("{\"deltas\": {\"insmod\": {\"MemFree_kb\": -1000, \"VmallocUsed_kb\": 600}}}");
	REQUIRE(root);
	g = guest_attr(400 * 1024, 0);
	analysis_attribution(root, &s, g);
	CHECK_EQ_INT(jint(root, "attribution.closure.vmalloc_bytes", -1), 600 * 1024);
	CHECK_EQ_INT(jint(root, "attribution.closure.unexplained_bytes", -1), 0);
	CHECK(json_object_get_boolean(jget(root, "attribution.closure.closes")));
	CHECK(jdouble(root, "attribution.closure.explained_pct", 0) == 100);
	json_object_put(root);
	json_object_put(g);
	scenario_release(&s);
}

/* attribution.steps and step_fit (analysis_attribution): each site is
 * fitted over the rising steps only (not the falling one after the peak),
 * a site that had not allocated yet counts 0, the peak's largest site
 * comes first; the steps keep their net and top sites. */
TEST(attribution_step_fit)
{
	static const char steps[] = "["
		"{\"step\": 1, \"disks\": 0, \"page_alloc_bytes\": 1000, \"page_free_bytes\": 400,"
		" \"sites\": [{\"site\": \"a\", \"bytes\": 500}]},"
		"{\"step\": 2, \"disks\": 10, \"page_alloc_bytes\": 60000, \"page_free_bytes\": 800,"
		" \"sites\": [{\"site\": \"b\", \"bytes\": 40960}, {\"site\": \"a\", \"bytes\": 10500}]},"
		"{\"step\": 3, \"disks\": 20, \"page_alloc_bytes\": 120000, \"page_free_bytes\": 900,"
		" \"sites\": [{\"site\": \"b\", \"bytes\": 81920}, {\"site\": \"a\", \"bytes\": 20500}]},"
		"{\"step\": 4, \"disks\": 10, \"page_alloc_bytes\": 999999, \"page_free_bytes\": 900,"
		" \"sites\": [{\"site\": \"b\", \"bytes\": 999999}, {\"site\": \"a\", \"bytes\": 999999}]}]";
	struct scenario s;
	json_object *root, *g, *fit, *o;

	scenario_disks(&s, "disks=20", "attribution=1");
	root = attr_root(-1000);
	g = guest_attr(120000, 900);
	json_object_object_add(g, "steps", json_tokener_parse(steps));
	analysis_attribution(root, &s, g);
	fit = jget(root, "attribution.step_fit");
	REQUIRE(jlen(fit) == 2);
	o = json_object_array_get_idx(fit, 0);
	CHECK_STR(jstr(o, "site", ""), "b");
	CHECK_EQ_INT(jint(o, "points", 0), 3);
	CHECK_EQ_INT(jint(o, "bytes_at_peak", 0), 81920);
	CHECK_EQ_INT(jint(o, "bytes_per_disk", 0), 4096);
	CHECK_EQ_INT(jint(o, "fixed_bytes", -1), 0);
	CHECK(jdouble(o, "r2", 0) == 1.0);
	o = json_object_array_get_idx(fit, 1);
	CHECK_STR(jstr(o, "site", ""), "a");
	CHECK_EQ_INT(jint(o, "bytes_per_disk", 0), 1000);
	CHECK_EQ_INT(jint(o, "fixed_bytes", -1), 500);
	o = json_object_array_get_idx(jget(root, "attribution.steps"), 1);
	CHECK_EQ_INT(jint(o, "net_bytes", 0), 60000 - 800);
	CHECK_EQ_INT(jlen(jget(o, "sites")), 2);
	CHECK_EQ_INT(jlen(jget(root, "attribution.steps")), 4);
	json_object_put(root);

	/* A step without its page_free ends the rising steps: one left, no fit. */
	json_object_object_del(json_object_array_get_idx(jget(g, "steps"), 1), "page_free_bytes");
	root = attr_root(-1000);
	analysis_attribution(root, &s, g);
	CHECK(jget(root, "attribution.step_fit") == NULL);
	CHECK(jget(json_object_array_get_idx(jget(root, "attribution.steps"), 1), "net_bytes") == NULL);
	json_object_put(root);

	/* Hist triggers unavailable: no steps either. */
	json_object_object_add(g, "status", json_object_new_string("unavailable"));
	root = attr_root(-1000);
	analysis_attribution(root, &s, g);
	CHECK(jget(root, "attribution.steps") == NULL);
	CHECK(jget(root, "attribution.step_fit") == NULL);
	json_object_put(root);
	json_object_put(g);
	scenario_release(&s);
}

/* Debian's 7.2 (sid, 4096 scsi_debug disks): slab pages come through the
 * per-CPU sheaves, allocate_slab <- refill_objects <-
 * __pcs_replace_empty_main <- the kmalloc or kmem_cache entry point; all
 * three are the allocator's, so that the stack is charged to its caller,
 * not every slab page to refill_objects. */
TEST(attribution_72_sheaves_are_the_allocators)
{
	struct strvec s72 = STRVEC_INIT;

	top_sites("attribution/amd64-72-page-alloc.hist", 25, &s72);
	REQUIRE(s72.n > 5);
	CHECK(strvec_find(&s72, "refill_objects") < 0);
	CHECK(strvec_find(&s72, "__pcs_replace_empty_main") < 0);
	CHECK(strvec_find(&s72, "blk_mq_alloc_map_and_rqs") >= 0);
	for (size_t i = 0; i < s72.n; i++)
		if (strstr(s72.v[i], "_noprof") || strstr(s72.v[i], "kmalloc"))
			test_fail(__FILE__, __LINE__, "7.2 site '%s' is an allocator's name", s72.v[i]);
	strvec_clear(&s72);
}
