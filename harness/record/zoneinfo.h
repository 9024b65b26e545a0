/* SPDX-License-Identifier: Apache-2.0 */
/*
 * zoneinfo: the free pages on the per-CPU lists, from the text of
 * /proc/zoneinfo.
 *
 * MemFree (and LowFree, MemAvailable) count the buddy allocator's free
 * pages only.  A freed page first goes to its CPU's list (the "pagesets"
 * of each zone), and an allocation takes from there first: those pages are
 * free, yet no /proc/meminfo line counts them.  Since 6.7 the lists tune
 * their own length (mm/page_alloc.c, pcp high auto-tuning), so between two
 * boots of one kernel they hold megabytes more or less: at 200 disks on
 * Debian's 6.12 MemFree's drop at insmod spread over 5,964 kB in four
 * boots, MemFree with the lists' pages over 60 kB (docs/measurements.md,
 * "Free pages on the per-CPU lists").  The analysis counts them as free
 * (result_free_change in result/result.h).
 *
 *	struct zoneinfo z = ZONEINFO_INIT;
 *	struct strbuf err = STRBUF_INIT;
 *	if (zoneinfo_parse(&z, buf, len, &err) < 0)
 *		error("%s: %s", where, err.buf);	// "line 40: ..."
 *	long long all = zoneinfo_pcp_pages(&z, 0), low = zoneinfo_pcp_pages(&z, 1);
 *	zoneinfo_release(&z);
 *
 * The text is a list of zones, each "Node N, zone NAME" then indented
 * lines; a populated zone's "pagesets" line is followed, per CPU, by
 * "cpu: I" and "count: N" (pages; high, batch and others are read past).
 * Everything else is read past too, so that any kernel's fields do.  An
 * empty input, a zone header or count that does not parse, a count outside
 * a zone's pagesets, more than ZONEINFO_MAX_ZONES zones, or a count (or a
 * zone's sum of them) above ZONEINFO_COUNT_MAX is an error naming the
 * line; nothing partial is returned.
 */
#ifndef SCALETEST_ZONEINFO_H
#define SCALETEST_ZONEINFO_H

#include <json.h>
#include <stddef.h>

#include "lib/strbuf.h"

#define ZONEINFO_NAME_MAX 16
/* The most zones accepted: 6 kinds a node, and 1024 nodes. */
#define ZONEINFO_MAX_ZONES 6144
/* The largest per-CPU count, and sum of a zone's, accepted (2^40 pages:
 * 4 PiB), so that the sums over zones and their kB cannot overflow. */
#define ZONEINFO_COUNT_MAX (1LL << 40)

struct zoneinfo_zone {
	int node;
	char name[ZONEINFO_NAME_MAX];
	long long pcp_pages;	/* the counts of its CPUs' lists, summed */
	int cpus;		/* how many it listed */
};

struct zoneinfo {
	struct zoneinfo_zone *z;
	size_t n, alloc;
};
#define ZONEINFO_INIT { NULL, 0, 0 }

int zoneinfo_parse(struct zoneinfo *zi, const char *buf, size_t len,
		   struct strbuf *err);
/* The pages on every zone's per-CPU lists; low_only: of the zones that
 * are not HighMem (what LowFree counts on a HIGHMEM kernel). */
long long zoneinfo_pcp_pages(const struct zoneinfo *zi, int low_only);
void zoneinfo_release(struct zoneinfo *zi);
/* As result.json keeps it in a phase: {"pcp_kb": N, "pcp_low_kb": N}. */
json_object *zoneinfo_json(const struct zoneinfo *zi, long page_size);

#endif
