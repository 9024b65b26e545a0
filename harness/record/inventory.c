// SPDX-License-Identifier: Apache-2.0
#include "record/inventory.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "record/disks.h"
#include "lib/textscan.h"
#include "lib/util.h"

static const char *parse_row(struct inv_row *row, char *line)
{
	char *f[8], *colon;
	long long maj, min, v;

	int nf = split_fields(line, f, 7);

	if (nf < 7)
		return "expected 7 fields, found fewer";
	if (nf > 7)
		return "expected 7 fields, found more (one line for many devices?)";
	if (strlen(f[0]) >= sizeof(row->name) || strlen(f[4]) >= sizeof(row->sched))
		return "field too long";
	for (const char *c = f[0]; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_' && *c != '.')
			return "bad device name";
	for (const char *c = f[4]; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_')
			return "bad scheduler name";
	colon = strchr(f[1], ':');
	if (!colon)
		return "bad MAJ:MIN";
	*colon = '\0';
	if (parse_count(f[1], 4095, &maj) || parse_count(colon + 1, 1048575, &min))
		return "bad MAJ:MIN";
	memcpy(row->name, f[0], strlen(f[0]) + 1);
	memcpy(row->sched, f[4], strlen(f[4]) + 1);
	row->major = (unsigned)maj;
	row->minor = (unsigned)min;
	if (parse_count(f[2], (long long)1 << 50, &row->sectors))
		return "bad size";
	/* "-": a bio-based device, with no queue of requests (NVMe's
	 * multipath heads). */
	if (!strcmp(f[3], "-"))
		v = -1;
	else if (parse_count(f[3], 1 << 24, &v))
		return "bad nr_requests";
	row->nr_requests = (long)v;
	if (parse_count(f[5], 4096, &v))
		return "bad hardware queue count";
	row->hw_queues = (int)v;
	if (strcmp(f[6], "0") && strcmp(f[6], "1"))
		return "bad read flag";
	row->read_ok = f[6][0] == '1';
	return NULL;
}

static int cmp_row_name(const void *a, const void *b)
{
	return strcmp(((const struct inv_row *)a)->name, ((const struct inv_row *)b)->name);
}

int inventory_parse(struct inventory *inv, const char *buf, size_t len,
		    struct strbuf *err)
{
	struct inventory out = INVENTORY_INIT;
	struct strbuf line = STRBUF_INIT;
	struct line_iter it;

	line_iter_init(&it, buf, len);
	while (line_next_copy(&it, &line)) {
		struct inv_row row;
		const char *why;

		why = line_has_nul(it.line, it.len) ? "NUL byte" : parse_row(&row, line.buf);
		if (why) {
			sb_addf(err, "line %u: %s", it.lineno, why);
			sb_release(&line);
			inventory_release(&out);
			return -1;
		}
		ALLOC_GROW(out.r, out.n + 1, out.alloc);
		out.r[out.n++] = row;
	}
	sb_release(&line);
	/* Sorted by name: lookups are binary searches over thousands. */
	if (out.n)
		qsort(out.r, out.n, sizeof(*out.r), cmp_row_name);
	for (size_t i = 1; i < out.n; i++)
		if (!strcmp(out.r[i - 1].name, out.r[i].name)) {
			sb_addf(err, "duplicate device '%s'", out.r[i].name);
			inventory_release(&out);
			return -1;
		}
	inventory_release(inv);
	*inv = out;
	return 0;
}

const struct inv_row *inventory_find(const struct inventory *inv, const char *name)
{
	struct inv_row key;

	if (strlen(name) >= sizeof(key.name) || !inv->n)
		return NULL;
	memcpy(key.name, name, strlen(name) + 1);
	return bsearch(&key, inv->r, inv->n, sizeof(*inv->r), cmp_row_name);
}

void inventory_release(struct inventory *inv)
{
	free(inv->r);
	inv->r = NULL;
	inv->n = inv->alloc = 0;
}

int sd_devt(long index, unsigned *major, unsigned *minor)
{
	long idx;

	if (index < 0 || index > 0xfffff)
		return -1;
	idx = (index & 0xf0) >> 4;
	if (idx == 0)
		*major = 8;
	else if (idx <= 7)
		*major = 65 + (unsigned)idx - 1;
	else
		*major = 128 + (unsigned)idx - 8;
	*minor = (unsigned)(((index & 0xf) << 4) | (index & 0xfff00));
	return 0;
}

static int cmp_devt(const void *a, const void *b)
{
	const struct inv_row *const *x = a, *const *y = b;

	if ((*x)->major != (*y)->major)
		return (*x)->major < (*y)->major ? -1 : 1;
	return ((*x)->minor > (*y)->minor) - ((*x)->minor < (*y)->minor);
}

int inventory_check_unique_devt(const struct inventory *inv, struct strbuf *why)
{
	const struct inv_row **p;
	int ok = 1;

	if (inv->n < 2)
		return 1;
	p = xmalloc(inv->n * sizeof(*p));
	for (size_t i = 0; i < inv->n; i++)
		p[i] = &inv->r[i];
	qsort(p, inv->n, sizeof(*p), cmp_devt);
	for (size_t i = 1; i < inv->n && ok; i++)
		if (!cmp_devt(&p[i - 1], &p[i])) {
			sb_addf(why, "%s and %s share %u:%u", p[i - 1]->name, p[i]->name,
				p[i]->major, p[i]->minor);
			ok = 0;
		}
	free(p);
	return ok;
}

/* The row for an sd name must carry the dev_t of its index. */
static int devt_matches(const struct inv_row *row, long index, struct strbuf *why)
{
	unsigned maj, min;

	if (sd_devt(index, &maj, &min) < 0) {
		sb_addf(why, "%s: index %ld is beyond the sd driver's range", row->name, index);
		return 0;
	}
	if (row->major != maj || row->minor != min) {
		sb_addf(why, "%s is %u:%u, the sd driver gives index %ld %u:%u",
			row->name, row->major, row->minor, index, maj, min);
		return 0;
	}
	return 1;
}

int inventory_check_sd_sequence(const struct inventory *inv, const struct strvec *names,
				long n, struct strbuf *why)
{
	char *seen;
	int ok = 1;

	if ((long)names->n != n) {
		sb_addf(why, "%zu scsi_debug disks, %ld asked for", names->n, n);
		return 0;
	}
	seen = xcalloc((size_t)n + 1, 1);
	for (size_t i = 0; i < names->n && ok; i++) {
		long idx = disk_index(names->v[i], NULL);
		const struct inv_row *row = inventory_find(inv, names->v[i]);

		if (idx < 0 || strncmp(names->v[i], "sd", 2)) {
			sb_addf(why, "'%s' is not an sd name", names->v[i]);
			ok = 0;
		} else if (idx >= n) {
			sb_addf(why, "%s has index %ld, outside 0..%ld", names->v[i], idx, n - 1);
			ok = 0;
		} else if (seen[idx]) {
			sb_addf(why, "index %ld appears twice", idx);
			ok = 0;
		} else if (!row) {
			sb_addf(why, "%s is missing from the inventory", names->v[i]);
			ok = 0;
		} else {
			seen[idx] = 1;
			ok = devt_matches(row, idx, why);
		}
	}
	free(seen);
	return ok;
}

static int cmp_index(const void *a, const void *b)
{
	long x = disk_index(*(char *const *)a, NULL), y = disk_index(*(char *const *)b, NULL);

	return (x > y) - (x < y);
}

int inventory_check_after_range(const struct inventory *inv, const struct strvec *virtio,
				long first, struct strbuf *why)
{
	char **names;
	int ok = 1;

	if (!virtio->n)
		return 1;
	names = xmalloc(virtio->n * sizeof(*names));
	memcpy(names, virtio->v, virtio->n * sizeof(*names));
	qsort(names, virtio->n, sizeof(*names), cmp_index);
	for (size_t i = 0; i < virtio->n && ok; i++) {
		long idx = disk_index(names[i], NULL);
		const struct inv_row *row = inventory_find(inv, names[i]);

		if (idx != first + (long)i || strncmp(names[i], "sd", 2)) {
			sb_addf(why, "%s is not the sd disk of index %ld", names[i], first + (long)i);
			ok = 0;
		} else if (!row) {
			sb_addf(why, "%s is missing from the inventory", names[i]);
			ok = 0;
		} else {
			ok = devt_matches(row, idx, why);
		}
	}
	free(names);
	return ok;
}

int inventory_check_readable(const struct inventory *inv, struct strbuf *why)
{
	size_t bad = 0;

	for (size_t i = 0; i < inv->n; i++)
		if (!inv->r[i].read_ok) {
			if (!bad)
				sb_addf(why, "%s", inv->r[i].name);
			bad++;
		}
	if (bad > 1)
		sb_addf(why, " and %zu more", bad - 1);
	if (bad)
		sb_adds(why, ": first block unreadable");
	return !bad;
}
