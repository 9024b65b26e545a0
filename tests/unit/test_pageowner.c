// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "record/attribution.h"
#include "record/pageowner.h"
#include "result/result.h"
#include "test.h"
#include "lib/util.h"

static void parse_ok(const char *rel, struct po_snapshot *ps)
{
	size_t len;
	char *buf = fixture(rel, &len);
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(po_parse(ps, buf, len, &err), 0);
	CHECK_STR(err.buf, "");
	sb_release(&err);
	free(buf);
}

/* Text that must be rejected; returns the message (static). */
static const char *bad_len(const char *text, size_t len)
{
	static char msg[256];
	struct po_snapshot ps = PO_SNAPSHOT_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(po_parse(&ps, text, len, &err), -1);
	CHECK_EQ_INT(ps.n, 0);
	CHECK(ps.s == NULL);
	snprintf(msg, sizeof(msg), "%s", err.buf);
	po_release(&ps);
	sb_release(&err);
	return msg;
}

static const char *bad(const char *text)
{
	return bad_len(text, strlen(text));
}

static const char *bad_file(const char *rel)
{
	static char msg[256];
	size_t len;
	char *buf = fixture(rel, &len);

	snprintf(msg, sizeof(msg), "%s", bad_len(buf, len));
	free(buf);
	return msg;
}

TEST(pageowner_parse_synthetic)
{
	struct po_snapshot ps = PO_SNAPSHOT_INIT;

	parse_ok("pageowner/synthetic-after.txt", &ps);
	CHECK_STR(ps.file, "page_owner");
	CHECK_EQ_INT(ps.n, 5);
	CHECK_EQ_INT(ps.s[0].count, 7);
	CHECK_EQ_INT(ps.s[0].order, 0);
	CHECK_EQ_INT(ps.s[0].nframes, 4);
	CHECK_STR(ps.s[0].frames[3], "sd_probe+0x46/0x3c0 [sd_mod]");
	CHECK_EQ_INT(ps.s[1].order, 2);
	CHECK_EQ_INT(ps.s[4].nframes, 0);
	po_release(&ps);
	CHECK(ps.s == NULL);
}

/* after - before per stack: gains are sites (folded past post_alloc_hook
 * and __alloc_pages with attribution.c's table), losses are freed_bytes,
 * a stack equal on both sides is neither. */
TEST(pageowner_diff)
{
	struct po_snapshot b = PO_SNAPSHOT_INIT, a = PO_SNAPSHOT_INIT;
	json_object *o, *sites;

	parse_ok("pageowner/synthetic-before.txt", &b);
	parse_ok("pageowner/synthetic-after.txt", &a);
	o = po_source_json(&b, &a, 25);
	/* sd_probe: 2 order-0 and 3 order-2 blocks gained; blk_mq: 2 order-0 */
	CHECK_EQ_INT(jint(o, "bytes", -1), 2 * 4096 + 3 * 16384 + 2 * 4096);
	CHECK_EQ_INT(jint(o, "freed_bytes", -1), 3 * 4096);
	CHECK_EQ_INT(jint(o, "net_bytes", -1), jint(o, "bytes", 0) - jint(o, "freed_bytes", 0));
	CHECK_EQ_INT(jint(o, "events", -1), 7);
	CHECK_EQ_INT(jint(o, "entries", -1), 3);
	CHECK_EQ_INT(jint(o, "stacks_before", -1), 3);
	CHECK_EQ_INT(jint(o, "stacks_after", -1), 5);
	CHECK_STR(jstr(o, "status", ""), "ok");
	CHECK_STR(jstr(o, "file", ""), "page_owner");
	sites = jget(o, "sites");
	CHECK_EQ_INT(json_object_array_length(sites), 2);
	CHECK_STR(jstr(json_object_array_get_idx(sites, 0), "site", ""), "sd_probe [sd_mod]");
	CHECK_EQ_INT(jint(json_object_array_get_idx(sites, 0), "bytes", -1), 2 * 4096 + 3 * 16384);
	CHECK_EQ_INT(jint(json_object_array_get_idx(sites, 0), "count", -1), 5);
	CHECK_STR(jstr(json_object_array_get_idx(sites, 1), "site", ""), "blk_mq_alloc_rqs");
	json_object_put(o);

	/* Nothing changed: nothing to show, nothing freed. */
	o = po_source_json(&a, &a, 25);
	CHECK_EQ_INT(jint(o, "bytes", -1), 0);
	CHECK_EQ_INT(jint(o, "net_bytes", -1), 0);
	CHECK_EQ_INT(json_object_array_length(jget(o, "sites")), 0);
	json_object_put(o);
	/* The other way round, every gain is a loss. */
	o = po_source_json(&a, &b, 1);
	CHECK_EQ_INT(jint(o, "bytes", -1), 3 * 4096);
	CHECK_EQ_INT(jint(o, "freed_bytes", -1), 2 * 4096 + 3 * 16384 + 2 * 4096);
	json_object_put(o);
	po_release(&b);
	po_release(&a);
}

/* show_stacks (6.10 and later) counts base pages, order 0. */
TEST(pageowner_show_stacks)
{
	const char *t = "pageowner 1 show_stacks\n20 0\n post_alloc_hook+0x1/0x2\n"
			" sd_probe+0x46/0x3c0 [sd_mod]\nend 1\n";
	const char *e = "pageowner 1 show_stacks\nend 0";
	struct po_snapshot b = PO_SNAPSHOT_INIT, a = PO_SNAPSHOT_INIT;
	struct strbuf err = STRBUF_INIT;
	json_object *o;

	CHECK_EQ_INT(po_parse(&b, e, strlen(e), &err), 0);
	CHECK_EQ_INT(po_parse(&a, t, strlen(t), &err), 0);
	o = po_source_json(&b, &a, 25);
	CHECK_EQ_INT(jint(o, "bytes", -1), 20 * 4096);
	CHECK_STR(jstr(o, "file", ""), "show_stacks");
	CHECK_STR(jstr(json_object_array_get_idx(jget(o, "sites"), 0), "site", ""),
		  "sd_probe [sd_mod]");
	json_object_put(o);
	po_release(&a);
	po_release(&b);
	sb_release(&err);
}

TEST(pageowner_malformed)
{
	CHECK_CONTAINS(bad_file("pageowner/bad-cut-short.txt"), "line 4: cut off (no end line)");
	CHECK_CONTAINS(bad_file("pageowner/bad-end-count.txt"),
		       "line 4: end says 2 stacks, there were 1");
	CHECK_CONTAINS(bad_file("pageowner/bad-raw-line.txt"),
		       "line 4: expected \"COUNT ORDER\"");
	CHECK_CONTAINS(bad_file("pageowner/bad-unfolded.txt"), "line 1: not a folded");
	CHECK_CONTAINS(bad(""), "empty");
	CHECK_CONTAINS(bad("pageowner 1 elsewhere\nend 0\n"), "line 1: unknown source file");
	CHECK_CONTAINS(bad("pageowner 1 page_owner\n post_alloc_hook\nend 0\n"),
		       "line 2: a frame before any");
	CHECK_CONTAINS(bad("pageowner 1 page_owner\n0 0\nend 1\n"), "line 2: a stack with a count of 0");
	CHECK_CONTAINS(bad("pageowner 1 page_owner\n1 12\nend 1\n"), "line 2: order 12 above 11");
	CHECK_CONTAINS(bad("pageowner 1 page_owner\n99999999999999999999 0\nend 1\n"),
		       "line 2: expected \"COUNT ORDER\"");
	CHECK_CONTAINS(bad("pageowner 1 page_owner\n1 0\n   \nend 1\n"), "line 3: an empty frame");
	CHECK_CONTAINS(bad("pageowner 1 page_owner\n1 0\nend 1\nend 1\n"),
		       "line 4: text after the end line");
	CHECK_CONTAINS(bad("pageowner 1 page_owner\n1 0\nend x\n"), "line 3: expected \"end N\"");
	CHECK_CONTAINS(bad("pageowner 1 page_owner\n1 0\n\nend 1\n"), "line 3: expected \"COUNT");
	CHECK_CONTAINS(bad("pageowner 1 page_owner\n1 -1\nend 1\n"), "line 2: expected \"COUNT");
	CHECK_CONTAINS(bad_len("pageowner 1 page_owner\n1 0\n a\0b\nend 1\n", 38),
		       "line 3: a NUL byte");
}

TEST(pageowner_limits)
{
	struct strbuf sb = STRBUF_INIT;

	sb_adds(&sb, "pageowner 1 page_owner\n1 0\n");
	for (int i = 0; i <= ATTR_MAX_FRAMES; i++)
		sb_addf(&sb, " f%d+0x1/0x2\n", i);
	sb_adds(&sb, "end 1\n");
	CHECK_CONTAINS(bad(sb.buf), "more than 64 frames");
	sb_reset(&sb);
	sb_adds(&sb, "pageowner 1 page_owner\n1 0\n ");
	for (int i = 0; i < ATTR_FRAME_MAX; i++)
		sb_addch(&sb, 'x');
	sb_adds(&sb, "\nend 1\n");
	CHECK_CONTAINS(bad(sb.buf), "line 3: a frame of 256 bytes or more");
	sb_release(&sb);
}

/* Captured from a real boot: smoke with attribution on the debug build of
 * Debian's 6.1 source (tinyconfig + base, x86_64, fast-boot, debug),
 * attribution/page_owner-*.txt of the run.  Relations, not figures: the
 * diff gains pages, every site is past the allocator's frames, blk-mq's
 * request maps are among the sites, and the net is the gains less the
 * losses. */
TEST(pageowner_real_boot)
{
	struct po_snapshot b = PO_SNAPSHOT_INIT, a = PO_SNAPSHOT_INIT;
	json_object *o, *sites;
	int blk_mq = 0;

	parse_ok("pageowner/amd64-debug-before-insmod.txt", &b);
	parse_ok("pageowner/amd64-debug-after-insmod.txt", &a);
	CHECK_STR(b.file, "page_owner");
	CHECK(b.n > 0 && a.n > b.n);
	o = po_source_json(&b, &a, 25);
	sites = jget(o, "sites");
	CHECK(jint(o, "bytes", 0) > 0);
	CHECK(jint(o, "net_bytes", 0) > 0);
	CHECK_EQ_INT(jint(o, "net_bytes", 0), jint(o, "bytes", 0) - jint(o, "freed_bytes", 0));
	CHECK(json_object_array_length(sites) > 0);
	for (size_t i = 0; i < json_object_array_length(sites); i++) {
		json_object *s = json_object_array_get_idx(sites, i);
		const char *name = jstr(s, "site", "");
		json_object *st = jget(s, "stack");
		char *frames[ATTR_MAX_FRAMES];
		size_t n = json_object_array_length(st);

		blk_mq |= !strcmp(name, "blk_mq_alloc_map_and_rqs");
		CHECK(strcmp(name, "get_page_from_freelist") && strcmp(name, "__alloc_pages") &&
		      strcmp(name, "alloc_slab_page") && strcmp(name, "allocate_slab"));
		CHECK(jint(s, "bytes", 0) > 0);
		if (i)
			CHECK(jint(s, "bytes", 0) <=
			      jint(json_object_array_get_idx(sites, i - 1), "bytes", 0));
		/* The site is the stack's first frame past the allocator's. */
		REQUIRE(n > 0 && n <= ATTR_MAX_FRAMES);
		for (size_t f = 0; f < n; f++)
			frames[f] = (char *)json_object_get_string(json_object_array_get_idx(st, f));
		{
			struct strbuf want = STRBUF_INIT;

			attr_site_name(frames[attr_fold(frames, n)], &want);
			CHECK_STR(name, want.buf);
			sb_release(&want);
		}
	}
	CHECK(blk_mq);
	json_object_put(o);
	po_release(&b);
	po_release(&a);
}

TEST(pageowner_real_cut_short)
{
	CHECK_CONTAINS(bad_file("pageowner/bad-real-cut.txt"), "cut off (no end line)");
}
