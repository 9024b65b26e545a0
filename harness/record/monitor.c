// SPDX-License-Identifier: Apache-2.0
#include "record/monitor.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "record/meminfo.h"
#include "guest/contract.h"
#include "lib/json.h"
#include "record/slabinfo.h"
#include "lib/textscan.h"
#include "lib/util.h"


int vmstat_parse(struct vmstat *v, const char *buf, size_t len, struct strbuf *err)
{
	struct vmstat out = VMSTAT_INIT;
	struct strbuf line = STRBUF_INIT;
	struct line_iter it;

	line_iter_init(&it, buf, len);
	while (line_next_copy(&it, &line)) {
		char *f[3];
		const char *why = NULL;
		int64_t val;

		if (line_has_nul(it.line, it.len))
			why = "NUL byte";
		else if (split_fields(line.buf, f, 2) != 2)
			why = "expected 'name value'";
		else if (strlen(f[0]) >= sizeof(out.f[0].name))
			why = "name too long";
		else if (parse_i64(f[1], &val) < 0)
			why = "bad number";
		if (!why)
			for (const char *c = f[0]; *c; c++)
				if (!islower((unsigned char)*c) && !isdigit((unsigned char)*c) && *c != '_')
					why = "bad character in name";
		if (why) {
			sb_addf(err, "line %u: %s", it.lineno, why);
			sb_release(&line);
			vmstat_release(&out);
			return -1;
		}
		ALLOC_GROW(out.f, out.n + 1, out.alloc);
		memcpy(out.f[out.n].name, f[0], strlen(f[0]) + 1);
		out.f[out.n].value = val;
		out.n++;
	}
	sb_release(&line);
	vmstat_release(v);
	*v = out;
	return 0;
}

long long vmstat_get(const struct vmstat *v, const char *name)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->f[i].name, name))
			return v->f[i].value;
	return -1;
}

void vmstat_release(struct vmstat *v)
{
	free(v->f);
	v->f = NULL;
	v->n = v->alloc = 0;
}

int monitor_sample(const char *buf, size_t len, long page_size, json_object **out,
		   long *n, struct strbuf *err)
{
	char head[128], step[32];
	const char *nl = memchr(buf, '\n', len), *b, *e;
	struct meminfo mi = MEMINFO_INIT;
	struct slabinfo si = SLABINFO_INIT;
	struct vmstat vs = VMSTAT_INIT;
	double t;
	long num;
	long long blocks = -1, cpu = -1;
	long long slab = 0;
	int r = -1;

	*out = NULL;
	if (!nl || (size_t)(nl - buf) >= sizeof(head)) {
		sb_adds(err, "no sample header");
		return -1;
	}
	memcpy(head, buf, (size_t)(nl - buf));
	head[nl - buf] = '\0';
	{
		char *f[6];
		int nf = strncmp(head, "@@@ sample ", 11) ? 0 : split_fields(head + 11, f, 5);
		if (nf < 3 || nf > 5 ||
		    parse_double(f[1], &t) < 0 || t < 0 || strlen(f[2]) >= sizeof(step)) {
			sb_adds(err, "bad sample header");
			return -1;
		}
		int64_t v;
		if (nf == 5) {
			if (parse_i64(f[4], &v) < 0 || v < 0 || v > MONITOR_MAX_CPU_TICKS) {
				sb_adds(err, "bad monitor CPU ticks");
				return -1;
			}
			cpu = v;
		}
		if (nf >= 4) {
			if (parse_i64(f[3], &v) < 0 || v < 0 || v > MONITOR_MAX_BLOCKS) {
				sb_adds(err, "bad block device count");
				return -1;
			}
			blocks = v;
		}
		if (parse_i64(f[0], &v) < 0 || v < 1 || v > 100000000) {
			sb_adds(err, "bad sample number");
			return -1;
		}
		num = (long)v;
		for (const char *c = f[2]; *c; c++)
			if (!islower((unsigned char)*c) && *c != '-') {
				sb_adds(err, "bad sample step");
				return -1;
			}
		memcpy(step, f[2], strlen(f[2]) + 1);
	}
	if (!(b = text_section(buf, len, "meminfo", &e)) ||
	    meminfo_parse(&mi, b, (size_t)(e - b), err) < 0) {
		if (!b)
			sb_adds(err, "no meminfo section");
		goto out;
	}
	if ((b = text_section(buf, len, "slabinfo", &e))) {
		if (slabinfo_parse(&si, b, (size_t)(e - b), err) < 0)
			goto out;
		for (size_t i = 0; i < si.n; i++)
			slab += slab_cache_bytes(&si.c[i], page_size) / 1024;
	} else if ((b = text_section(buf, len, "slab", &e))) {
		/* The guest's own sum (guests since the slim monitor). */
		char digits[24];
		size_t l = (size_t)(e - b);
		int64_t v;

		while (l && (b[l - 1] == '\n' || b[l - 1] == ' '))
			l--;
		if (!l) {
			slab = -1;	/* no /proc/slabinfo in the guest */
		} else if (l >= sizeof(digits) || (memcpy(digits, b, l), digits[l] = '\0',
			   parse_i64(digits, &v) < 0) || v < 0 || v > MONITOR_MAX_SLAB_KB) {
			sb_adds(err, "bad slab total");
			goto out;
		} else {
			slab = v;
		}
	} else {
		sb_adds(err, "no slabinfo section");
		goto out;
	}
	if (!(b = text_section(buf, len, "vmstat", &e)) ||
	    vmstat_parse(&vs, b, (size_t)(e - b), err) < 0) {
		if (!b)
			sb_adds(err, "no vmstat section");
		goto out;
	}
	json_object *o = json_object_new_object(), *v = json_object_new_object();

	for (int i = 0; guest_vmstat[i]; i++) {
		long long x = vmstat_get(&vs, guest_vmstat[i]);
		if (x >= 0)
			json_object_object_add(v, guest_vmstat[i], json_object_new_int64(x));
	}
	json_object_object_add(o, "n", json_object_new_int64(num));
	json_object_object_add(o, "t", json_seconds(t));
	json_object_object_add(o, "step", json_object_new_string(step));
	if (blocks >= 0)
		json_object_object_add(o, "blocks", json_object_new_int64(blocks));
	if (cpu >= 0)
		json_object_object_add(o, "cpu_s", json_seconds((double)cpu / 100));
	json_object_object_add(o, "meminfo", meminfo_json(&mi));
	json_object_object_add(o, "slab_kb", slab >= 0 ? json_object_new_int64(slab) : NULL);
	json_object_object_add(o, "vmstat", v);
	*out = o;
	*n = num;
	r = 0;
out:
	meminfo_release(&mi);
	slabinfo_release(&si);
	vmstat_release(&vs);
	return r;
}

int progress_parse(const char *buf, size_t len, struct progress *p, struct strbuf *err)
{
	char line[128], *f[5];
	int64_t v;
	int nf;

	if (!len || buf[len - 1] != '\n' || len >= sizeof(line) ||
	    memchr(buf, '\n', len - 1) || memchr(buf, '\0', len)) {
		sb_adds(err, "not one line");
		return -1;
	}
	memcpy(line, buf, len - 1);
	line[len - 1] = '\0';
	nf = split_fields(line, f, 4);
	if (nf != 3 && nf != 4) {
		sb_adds(err, "not UPTIME BLOCKS CPU [QUEUES]");
		return -1;
	}
	if (parse_double(f[0], &p->t) < 0 || !(p->t >= 0)) {
		sb_addf(err, "bad uptime '%s'", f[0]);
		return -1;
	}
	if (parse_i64(f[1], &v) < 0 || v < 0 || v > MONITOR_MAX_BLOCKS) {
		sb_addf(err, "bad block device count '%s'", f[1]);
		return -1;
	}
	p->blocks = v;
	if (parse_i64(f[2], &v) < 0 || v < 0 || v > MONITOR_MAX_CPU_TICKS) {
		sb_addf(err, "bad CPU ticks '%s'", f[2]);
		return -1;
	}
	p->cpu = v;
	p->queues = -1;
	if (nf == 4) {
		if (parse_i64(f[3], &v) < 0 || v < -1 || v > MONITOR_MAX_BLOCKS) {
			sb_addf(err, "bad request queue count '%s'", f[3]);
			return -1;
		}
		p->queues = v;
	}
	return 0;
}
