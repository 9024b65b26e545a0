/* SPDX-License-Identifier: Apache-2.0 */
/*
 * disks: block device lists from the guest (the sd naming rule they follow
 * is the guest contract's: guest/contract.h).
 *
 * The guest sends "blocks" records, one device per line: "NAME MAJ:MIN".
 * blocklist_parse() reads one; blocklist_minus() gives what a phase added.
 *
 *	struct blocklist all = BLOCKLIST_INIT, base = BLOCKLIST_INIT, sd;
 *	blocklist_parse(&all, buf, len, &err);
 *	blocklist_minus(&all, &base, &sd);	// in all, not in base
 *	blocklist_sort(&sd);			// by prefix, then index
 */
#ifndef SCALETEST_DISKS_H
#define SCALETEST_DISKS_H

#include <stddef.h>

#include "guest/contract.h"
#include "lib/strbuf.h"

struct blockdev {
	char name[DISK_NAME_MAX];
	unsigned major, minor;
};

struct blocklist {
	struct blockdev *b;
	size_t n, alloc;
};
#define BLOCKLIST_INIT { NULL, 0, 0 }

int blocklist_parse(struct blocklist *l, const char *buf, size_t len,
		    struct strbuf *err);
void blocklist_minus(const struct blocklist *a, const struct blocklist *b,
		     struct blocklist *out);
void blocklist_sort(struct blocklist *l);
const struct blockdev *blocklist_find(const struct blocklist *l, const char *name);
void blocklist_release(struct blocklist *l);

#endif
