/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pageowner: page_owner (CONFIG_PAGE_OWNER, page_owner=on) as a second
 * attribution source: which stacks hold the pages that insmod took.
 *
 * The guest reads /sys/kernel/debug/page_owner (or, from 6.10,
 * page_owner_stacks/show_stacks) before and after insmod and folds each
 * read with busybox awk (initramfs/lib/attribution.sh, po_fold) into this text, sent
 * as a "pageowner" record (phase before-insmod or after-insmod):
 *
 *	pageowner 1 page_owner
 *	3 0
 *	 post_alloc_hook+0x17a/0x1a0
 *	 get_page_from_freelist+0x3b1/0xf60
 *	 __alloc_pages+0xe0/0x210
 *	 sd_probe+0x46/0x3c0 [sd_mod]
 *	1 2
 *	 ...
 *	end 2
 *
 * The header names the file read (page_owner or show_stacks); then per
 * stack a line "COUNT ORDER" (COUNT blocks of 4096 << ORDER bytes; from
 * show_stacks COUNT is base pages and ORDER 0) and the stack's frames,
 * one a line, each after at least one blank; "end N" closes it, N the
 * number of stacks.  A stack may have no frames (page_owner could not
 * save it).  Anything else (a line that fits nowhere, a count of 0 or
 * above ATTR_VALUE_MAX, an order above ATTR_MAX_ORDER, more than
 * ATTR_MAX_FRAMES frames, a frame of ATTR_FRAME_MAX bytes or more, a NUL
 * byte, no end line, text after it, N not the number of stacks) is an
 * error naming the line; nothing partial is returned.
 *
 *	struct po_snapshot before = PO_SNAPSHOT_INIT, after = PO_SNAPSHOT_INIT;
 *	if (po_parse(&before, buf, len, &err) < 0)
 *		error("page_owner before insmod: %s", err.buf);	// "line 7: ..."
 *	...
 *	json_object *src = po_source_json(&before, &after, 25);
 *	po_release(&before);
 *
 * po_source_json() subtracts before from after per stack (the same order
 * and the same frames): the stacks that gained pages are the source's
 * entries, folded to call sites with attribution.c's table (attr_fold,
 * attr_source_json, ATTR_PAGES: bytes are 4096 << order per block), so
 * the result has the shape of the hist sources; the stacks that lost
 * pages are summed in freed_bytes.  page_owner lists pages still
 * allocated, so these figures are net (what insmod still holds), not
 * gross like the page_alloc hist.
 */
#ifndef SCALETEST_PAGEOWNER_H
#define SCALETEST_PAGEOWNER_H

#include <stddef.h>

#include <json.h>

#include "lib/strbuf.h"

struct po_stack {
	char **frames;		/* without the leading blanks */
	size_t nframes;
	int order;
	long long count;
};

struct po_snapshot {
	char file[16];		/* "page_owner" or "show_stacks" */
	struct po_stack *s;
	size_t n, alloc;
};
#define PO_SNAPSHOT_INIT { "", NULL, 0, 0 }

int po_parse(struct po_snapshot *ps, const char *buf, size_t len, struct strbuf *err);
void po_release(struct po_snapshot *ps);

/* attribution.sources.page_owner:
 *	{"status": "ok", "file", "bytes" (the gains), "freed_bytes" (the
 *	 losses), "net_bytes" (bytes - freed_bytes), "stacks_before",
 *	 "stacks_after", "events", "entries", "dropped", "sites_total",
 *	 "sites": [{"site", "bytes", "count", "stack"}], "other_bytes"}
 * "events" is the blocks gained, "entries" the stacks that gained. */
json_object *po_source_json(const struct po_snapshot *before,
			    const struct po_snapshot *after, size_t top);

#endif
