// SPDX-License-Identifier: Apache-2.0
#include "guest/contract.h"

#include <stdio.h>
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

/* "PREFIX" and a decimal index from 0, no leading zero: -1 otherwise. */
static long numbered_index(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	long i = 0;
	const char *p;

	if (strncmp(name, prefix, n) || !name[n] || (name[n] == '0' && name[n + 1]))
		return -1;
	for (p = name + n; *p; p++) {
		if (*p < '0' || *p > '9' || i > 100000000)
			return -1;
		i = i * 10 + (*p - '0');
	}
	return i;
}

int class_disk_name(const struct disk_class *c, const struct scenario *s, long i,
		    char *buf, size_t n)
{
	int r;

	(void)s;
	switch (c->naming) {
	case NAMING_SD:
		return disk_name("sd", i, buf, n);
	case NAMING_NULLB:
		r = snprintf(buf, n, "nullb%ld", i);
		return i < 0 || r < 0 || (size_t)r >= n ? -1 : 0;
	case NAMING_NVME:
		/* The multipath head: the subsystem's instance (its controller's,
		 * the subsystems connected in order), the namespace's from 1. */
		r = snprintf(buf, n, "nvme%lldn%lld", i / s->nvme_ns_per_subsys,
			     i % s->nvme_ns_per_subsys + 1);
		return i < 0 || r < 0 || (size_t)r >= n ? -1 : 0;
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
	case NAMING_NULLB:
		return numbered_index(name, "nullb");
	case NAMING_NVME: {
		/* "nvmeS" then "nN": no path device (nvmeScCnN) */
		char sub[24];
		const char *n;
		long sv, nv;

		if (strncmp(name, "nvme", 4))
			return -1;
		n = strchr(name + 4, 'n'); /* past "nvme": name has its 4 bytes */
		if (!n || (size_t)(n - name) >= sizeof(sub))
			return -1;
		memcpy(sub, name, (size_t)(n - name));
		sub[n - name] = '\0';
		sv = numbered_index(sub, "nvme");
		nv = numbered_index(n, "n");
		if (sv < 0 || nv < 1 || nv > s->nvme_ns_per_subsys)
			return -1;
		return sv * (long)s->nvme_ns_per_subsys + nv - 1;
	}
	}
	return -1;
}
