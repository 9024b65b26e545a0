// SPDX-License-Identifier: Apache-2.0
#include "record/sweep.h"

#include <string.h>

#include "record/kv.h"
#include "record/meminfo.h"
#include "record/slabinfo.h"
#include "record/zoneinfo.h"
#include "lib/json.h"
#include "lib/textscan.h"
#include "lib/util.h"

/* The header line's numbers: step, disks, uptime. */
static int point_header(const char *buf, size_t len, long *step, long long *disks,
			double *t, struct strbuf *err)
{
	const char *nl = memchr(buf, '\n', len);
	char head[128], *f[4];
	int64_t v;

	if (!nl || (size_t)(nl - buf) >= sizeof(head) || nl - buf < 10 ||
	    memcmp(buf, "@@@ point ", 10)) {
		sb_adds(err, "no point header");
		return -1;
	}
	memcpy(head, buf + 10, (size_t)(nl - buf) - 10);
	head[nl - buf - 10] = '\0';
	if (split_fields(head, f, 3) != 3) {
		sb_adds(err, "bad point header: expected '@@@ point STEP DISKS UPTIME'");
		return -1;
	}
	if (parse_i64(f[0], &v) < 0 || v < 1 || v > 1000000) {
		sb_adds(err, "bad step number");
		return -1;
	}
	*step = (long)v;
	if (parse_i64(f[1], &v) < 0 || v < 0 || v > 10000000) {
		sb_adds(err, "bad disk count");
		return -1;
	}
	*disks = v;
	if (parse_double(f[2], t) < 0 || *t < 0 || *t > 1e9) {
		sb_adds(err, "bad uptime");
		return -1;
	}
	return 0;
}

int sweep_point_parse(const char *buf, size_t len, long page_size, json_object **out,
		      long *step, long long *disks, struct strbuf *err)
{
	struct meminfo mi = MEMINFO_INIT;
	struct slabinfo si = SLABINFO_INIT;
	struct zoneinfo zi = ZONEINFO_INIT;
	struct kvlist kv = KVLIST_INIT;
	const char *b, *e;
	long long add = -1, en = -1, slab = 0;
	double t;
	int r = -1, have_zi = 0;

	*out = NULL;
	if (point_header(buf, len, step, disks, &t, err) < 0)
		return -1;
	if (!(b = text_section(buf, len, "timing", &e))) {
		sb_adds(err, "no timing section");
		goto out;
	}
	if (kv_lines(&kv, b, (size_t)(e - b), err) < 0)
		goto out;
	add = kv_get_num(&kv, "add_cs");
	en = kv_get_num(&kv, "enumerate_cs");
	if (add < 0 || en < 0) {
		sb_adds(err, "timing needs add_cs and enumerate_cs");
		goto out;
	}
	if (!(b = text_section(buf, len, "meminfo", &e))) {
		sb_adds(err, "no meminfo section");
		goto out;
	}
	if (meminfo_parse(&mi, b, (size_t)(e - b), err) < 0)
		goto out;
	/* The per-CPU lists' free pages (record/zoneinfo.h); guests before
	 * it sent none. */
	if ((b = text_section(buf, len, "zoneinfo", &e))) {
		if (zoneinfo_parse(&zi, b, (size_t)(e - b), err) < 0)
			goto out;
		have_zi = 1;
	}
	if (!(b = text_section(buf, len, "slabinfo", &e))) {
		sb_adds(err, "no slabinfo section");
		goto out;
	}
	if (slabinfo_parse(&si, b, (size_t)(e - b), err) < 0)
		goto out;
	for (size_t i = 0; i < si.n; i++)
		slab += slab_cache_bytes(&si.c[i], page_size) / 1024;

	json_object *o = json_object_new_object();
	json_object_object_add(o, "step", json_object_new_int64(*step));
	json_object_object_add(o, "disks", json_object_new_int64(*disks));
	json_object_object_add(o, "t", json_seconds(t));
	json_object_object_add(o, "add_s", json_seconds((double)add / 100));
	json_object_object_add(o, "enumerate_s", json_seconds((double)en / 100));
	json_object_object_add(o, "meminfo", meminfo_json(&mi));
	if (have_zi)
		json_object_object_add(o, "zoneinfo", zoneinfo_json(&zi, page_size));
	json_object_object_add(o, "slab_kb", si.n ? json_object_new_int64(slab) : NULL);
	*out = o;
	r = 0;
out:
	meminfo_release(&mi);
	zoneinfo_release(&zi);
	slabinfo_release(&si);
	kvlist_release(&kv);
	return r;
}
