// SPDX-License-Identifier: Apache-2.0
#include "guest/contract.h"

#include <string.h>

int disk_name(const char *prefix, long index, char *buf, size_t n)
{
	char tmp[DISK_NAME_MAX];
	char *p = tmp + sizeof(tmp);
	size_t plen = strlen(prefix);

	if (index < 0)
		return -1;
	*--p = '\0';
	do {
		if (p == tmp)
			return -1;
		*--p = (char)('a' + index % 26);
		index = index / 26 - 1;
	} while (index >= 0);
	if (plen + strlen(p) + 1 > n)
		return -1;
	memcpy(buf, prefix, plen);
	memcpy(buf + plen, p, strlen(p) + 1);
	return 0;
}

long disk_index(const char *name, char pfx[3])
{
	long idx = -1;
	const char *p;

	if ((strncmp(name, "sd", 2) && strncmp(name, "vd", 2)) || !name[2] ||
	    strlen(name) > 8)
		return -1;
	for (p = name + 2; *p; p++) {
		if (*p < 'a' || *p > 'z')
			return -1;
		idx = (idx + 1) * 26 + (*p - 'a');
	}
	if (pfx) {
		pfx[0] = name[0];
		pfx[1] = name[1];
		pfx[2] = '\0';
	}
	return idx;
}

const char *const guest_vmstat[] = {
	"nr_free_pages", "nr_slab_reclaimable", "nr_slab_unreclaimable",
	"nr_kernel_stack", "nr_page_table_pages", "nr_dirty", "nr_writeback",
	"pgalloc_dma", "pgalloc_dma32", "pgalloc_normal", "pgalloc_high",
	"pgalloc_movable", "pgfree", "pgfault", "pgmajfault", NULL,
};

int class_disk_name(const struct disk_class *c, const struct scenario *s, long i,
		    char *buf, size_t n)
{
	(void)s;
	switch (c->naming) {
	case NAMING_SD:
		return disk_name("sd", i, buf, n);
	}
	return -1;
}

long class_disk_index(const struct disk_class *c, const struct scenario *s, const char *name)
{
	char pfx[3];
	long i;

	(void)s;
	switch (c->naming) {
	case NAMING_SD:
		i = disk_index(name, pfx);
		return i >= 0 && !strcmp(pfx, "sd") ? i : -1;
	}
	return -1;
}
