/* SPDX-License-Identifier: Apache-2.0 */
/*
 * slabinfo: parse the text of /proc/slabinfo (version 2.1, as SLUB and SLAB
 * print it).
 *
 *	struct slabinfo s = SLABINFO_INIT;
 *	if (slabinfo_parse(&s, buf, len, &err) < 0) ...	// "line 7: ..."
 *	for (size_t i = 0; i < s.n; i++)
 *		use(s.c[i].name, slab_cache_bytes(&s.c[i], 4096));
 *	slabinfo_release(&s);
 *
 * The first line must be "slabinfo - version: 2.1"; the second, starting
 * with '#', names the columns and is skipped; every other line is
 *
 *   name active_objs num_objs objsize objperslab pagesperslab
 *        : tunables limit batchcount sharedfactor
 *        : slabdata active_slabs num_slabs sharedavail
 *
 * An empty input is valid (a kernel without slabinfo sends nothing) and
 * yields zero caches; anything else malformed (a duplicate cache, a number
 * above SLAB_NUM_MAX, a cache above SLAB_PAGES_MAX pages, more than
 * SLABINFO_MAX_CACHES caches) is an error naming the line.
 */
#ifndef SCALETEST_SLABINFO_H
#define SCALETEST_SLABINFO_H

#include <json.h>
#include <stddef.h>

#include "lib/strbuf.h"

#define SLAB_NAME_MAX 64
/* The largest count accepted in any column (2^40), and the most pages one
 * cache may hold (num_slabs * pagesperslab, 2^36: 256 TiB of 4 KiB pages),
 * so that bytes and totals over every cache cannot overflow. */
#define SLAB_NUM_MAX (1LL << 40)
#define SLAB_PAGES_MAX (1LL << 36)
/* The most caches one snapshot may hold: a kernel has a few hundred (more
 * with slab_nomerge); a guest that sends 240,000 is refused, not kept. */
#define SLABINFO_MAX_CACHES 8192

struct slab_cache {
	char name[SLAB_NAME_MAX];
	long long active_objs, num_objs, objsize, objperslab, pagesperslab;
	long long active_slabs, num_slabs;
};

struct slabinfo {
	struct slab_cache *c;
	size_t n, alloc;
};
#define SLABINFO_INIT { NULL, 0, 0 }

int slabinfo_parse(struct slabinfo *s, const char *buf, size_t len,
		   struct strbuf *err);
/* Memory held by the cache's slabs: num_slabs * pagesperslab * page_size. */
long long slab_cache_bytes(const struct slab_cache *c, long page_size);
const struct slab_cache *slabinfo_find(const struct slabinfo *s,
				       const char *name);
void slabinfo_release(struct slabinfo *s);
/* As result.json keeps it: {"total_kb": n, "caches": {name: {...}}}, with
 * page_size for bytes. */
json_object *slabinfo_json(const struct slabinfo *si, long page_size);

#endif
