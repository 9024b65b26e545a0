/*
 * disks: block device lists from the guest, and the sd naming rule.
 *
 * The guest sends "blocks" records, one device per line: "NAME MAJ:MIN".
 * blocklist_parse() reads one; blocklist_minus() gives what a phase added.
 *
 * The sd driver names disk index i (0-based) with a bijective base-26
 * suffix: 0 sda, 25 sdz, 26 sdaa, 701 sdzz, 702 sdaaa; index 3999 is sdewv.
 * virtio-blk does the same with "vd".  disk_index("sdewv") == 3999,
 * disk_index("vdb") == 1, and -1 for anything else.
 *
 *	struct blocklist all = BLOCKLIST_INIT, base = BLOCKLIST_INIT, sd;
 *	blocklist_parse(&all, buf, len, &err);
 *	blocklist_minus(&all, &base, &sd);	// in all, not in base
 *	blocklist_sort(&sd);			// by prefix, then index
 */
#ifndef SCALETEST_DISKS_H
#define SCALETEST_DISKS_H

#include <stddef.h>

#include "lib/strbuf.h"

#define DISK_NAME_MAX 32

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

/* Name for index i with prefix ("sd", "vd") into buf; -1 if it does not fit. */
int disk_name(const char *prefix, long index, char *buf, size_t n);
/* Index of "sdXXX" / "vdXXX" (prefix returned in pfx[3]), or -1. */
long disk_index(const char *name, char pfx[3]);

#endif
