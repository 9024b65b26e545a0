// SPDX-License-Identifier: Apache-2.0
#include "record/zoneinfo.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/textscan.h"
#include "lib/util.h"

/* "Node N, zone NAME" (NAME right-aligned in 8 columns). */
static int parse_zone(struct zoneinfo_zone *z, char *line, const char **why)
{
	char *p = line + 5, *end;
	long node;
	size_t n;

	errno = 0;
	node = strtol(p, &end, 10);
	if (end == p || errno || node < 0 || node > 1 << 20 || strncmp(end, ", zone ", 7)) {
		*why = "a zone header is not \"Node N, zone NAME\"";
		return -1;
	}
	for (p = end + 7; *p == ' '; p++)
		;
	n = strlen(p);
	while (n && p[n - 1] == ' ')
		n--;
	if (!n || n >= ZONEINFO_NAME_MAX) {
		*why = n ? "zone name too long" : "zone without a name";
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)p[i]) && p[i] != '_') {
			*why = "bad character in the zone name";
			return -1;
		}
	memset(z, 0, sizeof(*z));
	z->node = (int)node;
	memcpy(z->name, p, n);
	return 0;
}

/* "count: N" (after the indent, in a line of our own): its N. */
static int pcp_count(char *p, long long *v, const char **why)
{
	size_t n;

	for (p += 6; *p == ' '; p++)
		;
	n = strlen(p);
	while (n && p[n - 1] == ' ')
		p[--n] = '\0';
	if (parse_count(p, ZONEINFO_COUNT_MAX, v) < 0) {
		*why = "a per-CPU count is not a number in range";
		return -1;
	}
	return 0;
}

int zoneinfo_parse(struct zoneinfo *zi, const char *buf, size_t len,
		   struct strbuf *err)
{
	struct line_iter it;
	struct strbuf line = STRBUF_INIT;
	struct zoneinfo out = ZONEINFO_INIT;
	int in_pagesets = 0;
	const char *why = NULL;

	line_iter_init(&it, buf, len);
	while (!why && line_next_copy(&it, &line)) {
		char *p = line.buf;

		if (line_has_nul(line.buf, line.len)) {
			why = "NUL byte";
			break;
		}
		if (!strncmp(p, "Node ", 5)) {
			struct zoneinfo_zone z;

			if (out.n >= ZONEINFO_MAX_ZONES)
				why = "more zones than a machine has (ZONEINFO_MAX_ZONES)";
			else if (parse_zone(&z, line.buf, &why) == 0) {
				ALLOC_GROW(out.z, out.n + 1, out.alloc);
				out.z[out.n++] = z;
			}
			in_pagesets = 0;
			continue;
		}
		while (*p == ' ')
			p++;
		if (!strcmp(p, "pagesets")) {
			if (!out.n)
				why = "pagesets before any zone";
			in_pagesets = 1;
		} else if (!strncmp(p, "cpu:", 4) && in_pagesets) {
			out.z[out.n - 1].cpus++;
		} else if (!strncmp(p, "count:", 6)) {
			long long v;

			if (!in_pagesets || !out.z[out.n - 1].cpus)
				why = "a per-CPU count outside a zone's pagesets";
			else if (pcp_count(p, &v, &why) == 0 &&
				 (out.z[out.n - 1].pcp_pages += v) > ZONEINFO_COUNT_MAX)
				why = "a zone's per-CPU counts add up past ZONEINFO_COUNT_MAX";
		} else if (!strncmp(p, "node_unreclaimable:", 19)) {
			in_pagesets = 0;
		}
	}
	if (!why && !out.n && it.lineno == 0)
		why = "empty";
	else if (!why && !out.n)
		why = "no zone";
	sb_release(&line);
	if (why) {
		if (it.lineno)
			sb_addf(err, "line %u: %s", it.lineno, why);
		else
			sb_adds(err, why);
		zoneinfo_release(&out);
		return -1;
	}
	zoneinfo_release(zi);
	*zi = out;
	return 0;
}

long long zoneinfo_pcp_pages(const struct zoneinfo *zi, int low_only)
{
	long long n = 0;

	for (size_t i = 0; i < zi->n; i++)
		if (!low_only || strcmp(zi->z[i].name, "HighMem"))
			n += zi->z[i].pcp_pages;
	return n;
}

void zoneinfo_release(struct zoneinfo *zi)
{
	free(zi->z);
	zi->z = NULL;
	zi->n = zi->alloc = 0;
}

json_object *zoneinfo_json(const struct zoneinfo *zi, long page_size)
{
	json_object *o = json_object_new_object();
	long long kb = page_size / 1024;

	json_object_object_add(o, "pcp_kb", json_object_new_int64(zoneinfo_pcp_pages(zi, 0) * kb));
	json_object_object_add(o, "pcp_low_kb", json_object_new_int64(zoneinfo_pcp_pages(zi, 1) * kb));
	return o;
}
