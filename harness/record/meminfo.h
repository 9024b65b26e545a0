/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meminfo: parse the text of /proc/meminfo.
 *
 *	struct meminfo m = MEMINFO_INIT;
 *	struct strbuf err = STRBUF_INIT;
 *	if (meminfo_parse(&m, buf, len, &err) < 0)
 *		error("%s: %s", where, err.buf);	// "line 3: ..."
 *	long long free_kb = meminfo_get(&m, "MemFree");	// -1 if absent
 *	meminfo_release(&m);
 *
 * Each line is "Name:   <number>[ kB]".  Fields keep their order.  Values
 * with " kB" are in kB; others (HugePages_Total, ...) are counts, and
 * .is_kb says which.  A malformed line, a duplicate name, an empty input or
 * a number above MEMINFO_VALUE_MAX, or more than MEMINFO_MAX_FIELDS fields, is
 * an error naming the line; nothing partial is returned.
 */
#ifndef SCALETEST_MEMINFO_H
#define SCALETEST_MEMINFO_H

#include <json.h>
#include <stddef.h>

#include "lib/strbuf.h"

#define MEMINFO_NAME_MAX 48
/* The largest value accepted (2^50: an exbibyte in kB), so that the
 * analysis's differences and per-disk bytes (x 1024) cannot overflow. */
#define MEMINFO_VALUE_MAX (1LL << 50)
/* The most fields accepted: /proc/meminfo has about 60. */
#define MEMINFO_MAX_FIELDS 512

struct meminfo_field {
	char name[MEMINFO_NAME_MAX];
	long long value;
	int is_kb;
};

struct meminfo {
	struct meminfo_field *f;
	size_t n, alloc;
};
#define MEMINFO_INIT { NULL, 0, 0 }

int meminfo_parse(struct meminfo *m, const char *buf, size_t len,
		  struct strbuf *err);
long long meminfo_get(const struct meminfo *m, const char *name);
const struct meminfo_field *meminfo_find(const struct meminfo *m,
					 const char *name);
void meminfo_release(struct meminfo *m);
/* As result.json keeps it: {"MemTotal": kB, ...} in the fields' order. */
json_object *meminfo_json(const struct meminfo *m);

#endif
