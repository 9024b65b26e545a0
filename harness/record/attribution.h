/* SPDX-License-Identifier: Apache-2.0 */
/*
 * attribution: which kernel call sites allocated memory, from the "hist"
 * files of the guest's hist triggers on kmem events (initramfs/lib/attribution.sh,
 * attr_start), turned into bytes per call site.
 *
 * A hist file (Linux, kernel/trace/trace_events_hist.c, hist_show) looks
 * like this; the stack key is "stacktrace" before 6.5, "common_stacktrace"
 * after, and a trigger without a stack key has its keys on one line:
 *
 *	# event histogram
 *	#
 *	# trigger info: hist:keys=stacktrace,order:vals=hitcount:... [paused]
 *	#
 *
 *	{ stacktrace:
 *	         allocate_slab+0x334/0x490
 *	         ___slab_alloc+0x379/0x990
 *	         sd_probe+0x314/0x520 [sd_mod]
 *	, order:          0} hitcount:          1
 *	{ order:          2 } hitcount:         40
 *	{ stacktrace:
 *	         blkg_alloc+0x44/0x1e0
 *	} hitcount:          1  bytes_req:        344  bytes_alloc:        512
 *
 *	Totals:
 *	    Hits: 5191
 *	    Entries: 303
 *	    Dropped: 0
 *
 *	struct attr_hist h = ATTR_HIST_INIT;
 *	struct strbuf err = STRBUF_INIT;
 *	if (attr_hist_parse(&h, buf, len, &err) < 0)
 *		error("page-alloc.hist: %s", err.buf);	// "line 7: ..."
 *	json_object *src = attr_source_json(&h, ATTR_PAGES, 25);
 *	attr_hist_release(&h);
 *
 * Entries keep the file's order.  Keys other than the stack and "order"
 * are ignored; of the values, hitcount, bytes_req and bytes_alloc are
 * kept (others ignored).  A line that fits nowhere, an entry cut off, a
 * number above ATTR_VALUE_MAX, more than ATTR_MAX_FRAMES frames or a file
 * without its Totals is an error naming the line; nothing partial is
 * returned.
 *
 * Folding: an entry's call site is its first frame that is not an
 * allocator's own (attr_fold: __alloc_pages, allocate_slab, __kmalloc,
 * kmalloc_trace, kstrdup, __vmalloc_node_range, ...; a table in
 * attribution.c), written "function" or "function [module]" without the
 * offsets.  Sites are summed over every stack that folds to them; each
 * keeps its largest stack whole.
 */
#ifndef SCALETEST_ATTRIBUTION_H
#define SCALETEST_ATTRIBUTION_H

#include <stddef.h>

#include <json.h>

#include "lib/strbuf.h"

#define ATTR_VALUE_MAX (1LL << 50)
#define ATTR_MAX_FRAMES 64
#define ATTR_MAX_ENTRIES (1 << 20)
#define ATTR_MAX_ORDER 11
#define ATTR_FRAME_MAX 256
#define ATTR_PAGE_SIZE 4096

struct attr_entry {
	char **frames;		/* NULL when the trigger has no stack key */
	size_t nframes;
	long long order;	/* -1: no order key */
	long long hitcount, bytes_req, bytes_alloc;	/* -1: absent */
};

struct attr_hist {
	struct attr_entry *e;
	size_t n, alloc;
	long long hits, entries, dropped;
};
#define ATTR_HIST_INIT { NULL, 0, 0, 0, 0, 0 }

int attr_hist_parse(struct attr_hist *h, const char *buf, size_t len,
		    struct strbuf *err);
void attr_hist_release(struct attr_hist *h);

/* What an entry weighs: ATTR_PAGES, 4096 << order bytes per hit (page
 * allocator events); ATTR_BYTES, its bytes_alloc (kmalloc, kmem_cache). */
enum attr_unit { ATTR_PAGES, ATTR_BYTES };
long long attr_entry_bytes(const struct attr_entry *e, enum attr_unit unit);

/* The index of the first frame that is not the allocator's own (0 when
 * every frame is). */
size_t attr_fold(char *const *frames, size_t n);
/* The folding itself, with any table of names to pass over (the time
 * attribution's scheduling primitives, record/stacks.h): the index of the
 * first frame whose function (offsets and .isra.0-style suffixes aside) is
 * not in names[] ("name*" in names[] stands for every name starting so),
 * or n when every frame is. */
size_t attr_fold_past(char *const *frames, size_t n, const char *const *names,
		      size_t nnames);
/* "func+0x1/0x2 [mod]" -> "func [mod]", into sb (appended). */
void attr_site_name(const char *frame, struct strbuf *sb);

/* One source, as result.json's attribution.sources.NAME:
 *	{"bytes", "events", "entries", "dropped", "sites_total",
 *	 "sites": [{"site", "bytes", "count", "stack": [frames]}] (the top
 *	 `top` by bytes, then by name), "other_bytes"}
 * A hist without stacks gives "sites": []. */
json_object *attr_source_json(const struct attr_hist *h, enum attr_unit unit,
			      size_t top);

#endif
