// SPDX-License-Identifier: Apache-2.0
#include "record/disks.h"

#include <stdlib.h>
#include <string.h>

#include "lib/textscan.h"
#include "lib/util.h"


static int parse_devt(const char *s, unsigned *maj, unsigned *min)
{
	const char *colon = strchr(s, ':');
	uint64_t a, b;
	char tmp[24];

	if (!colon || colon - s >= (long)sizeof(tmp))
		return -1;
	memcpy(tmp, s, (size_t)(colon - s));
	tmp[colon - s] = '\0';
	if (parse_u64(tmp, &a) < 0 || parse_u64(colon + 1, &b) < 0 ||
	    a > 4095 || b > 1048575)
		return -1;
	*maj = (unsigned)a;
	*min = (unsigned)b;
	return 0;
}

static int cmp_name(const void *a, const void *b);

static int has_duplicate(const struct blocklist *l, struct strbuf *err)
{
	struct blockdev *s;
	int dup = 0;

	if (l->n < 2)
		return 0;
	s = xmalloc(l->n * sizeof(*s));
	memcpy(s, l->b, l->n * sizeof(*s));
	qsort(s, l->n, sizeof(*s), cmp_name);
	for (size_t i = 1; i < l->n && !dup; i++)
		if (!strcmp(s[i - 1].name, s[i].name)) {
			sb_addf(err, "duplicate device %s", s[i].name);
			dup = 1;
		}
	free(s);
	return dup;
}

int blocklist_parse(struct blocklist *l, const char *buf, size_t len,
		    struct strbuf *err)
{
	struct line_iter it;
	struct strbuf line = STRBUF_INIT;
	struct blocklist out = BLOCKLIST_INIT;

	line_iter_init(&it, buf, len);
	while (line_next_copy(&it, &line)) {
		char *f[3];
		const char *why = NULL;
		struct blockdev d;

		if (line_has_nul(it.line, it.len))
			why = "NUL byte";
		else if (split_fields(line.buf, f, 2) != 2)
			why = "expected 'NAME MAJ:MIN'";
		else if (strlen(f[0]) >= DISK_NAME_MAX)
			why = "name too long";
		else if (parse_devt(f[1], &d.major, &d.minor) < 0)
			why = "bad MAJ:MIN";
		if (!why) {
			for (const char *c = f[0]; *c; c++)
				if ((unsigned char)*c <= ' ' || (unsigned char)*c >= 0x7f ||
				    *c == '/')
					why = "bad character in name";
		}
		if (!why)
			memcpy(d.name, f[0], strlen(f[0]) + 1);
		if (why) {
			sb_addf(err, "line %u: %s", it.lineno, why);
			sb_release(&line);
			blocklist_release(&out);
			return -1;
		}
		ALLOC_GROW(out.b, out.n + 1, out.alloc);
		out.b[out.n++] = d;
	}
	sb_release(&line);
	if (has_duplicate(&out, err)) {
		blocklist_release(&out);
		return -1;
	}
	blocklist_release(l);
	*l = out;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct blockdev *)a)->name,
		      ((const struct blockdev *)b)->name);
}

static int cmp_disk(const void *a, const void *b)
{
	const struct blockdev *x = a, *y = b;
	char px[3], py[3];
	long ix = disk_index(x->name, px), iy = disk_index(y->name, py);

	if (ix >= 0 && iy >= 0 && !strcmp(px, py))
		return (ix > iy) - (ix < iy);
	if ((ix >= 0) != (iy >= 0))
		return ix >= 0 ? -1 : 1;
	/* Other names with numbers in them (nullb10, nvme1n10) in number order. */
	return strverscmp(x->name, y->name);
}

void blocklist_sort(struct blocklist *l)
{
	if (l->n)
		qsort(l->b, l->n, sizeof(*l->b), cmp_disk);
}

const struct blockdev *blocklist_find(const struct blocklist *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->b[i].name, name))
			return &l->b[i];
	return NULL;
}

void blocklist_minus(const struct blocklist *a, const struct blocklist *b,
		     struct blocklist *out)
{
	struct blockdev *sb = NULL;

	/* Sort a copy of b by name so each lookup is a bsearch: thousands
	 * of disks make the quadratic walk noticeable. */
	if (b->n) {
		sb = xmalloc(b->n * sizeof(*sb));
		memcpy(sb, b->b, b->n * sizeof(*sb));
		qsort(sb, b->n, sizeof(*sb), cmp_name);
	}
	out->b = NULL;
	out->n = out->alloc = 0;
	for (size_t i = 0; i < a->n; i++) {
		if (sb && bsearch(&a->b[i], sb, b->n, sizeof(*sb), cmp_name))
			continue;
		ALLOC_GROW(out->b, out->n + 1, out->alloc);
		out->b[out->n++] = a->b[i];
	}
	free(sb);
}

void blocklist_release(struct blocklist *l)
{
	free(l->b);
	l->b = NULL;
	l->n = l->alloc = 0;
}
