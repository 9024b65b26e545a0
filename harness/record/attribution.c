// SPDX-License-Identifier: Apache-2.0
#include "record/attribution.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/textscan.h"
#include "lib/util.h"
#include "lib/xalloc.h"

/* The allocators' own frames, and helpers that only wrap them: a stack
 * is charged to the first frame after these.  page_owner's stacks
 * (pageowner.c) start deeper, at post_alloc_hook. */
static const char *const allocator_frames[] = {
	"post_alloc_hook", "prep_new_page", "__alloc_pages_slowpath",
	"__alloc_pages", "alloc_pages", "__alloc_pages_node", "alloc_pages_node",
	"__folio_alloc", "folio_alloc", "__get_free_pages", "get_zeroed_page",
	"alloc_pages_exact", "alloc_pages_exact_nid", "get_page_from_freelist",
	"__alloc_pages_bulk", "alloc_pages_bulk_array_mempolicy",
	"alloc_pages_vma", "vma_alloc_folio", "__page_cache_alloc",
	"alloc_slab_page", "allocate_slab", "new_slab", "___slab_alloc", "__slab_alloc",
	"__kmem_cache_alloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node",
	"kmem_cache_alloc_lru", "kmem_cache_alloc_trace", "kmem_cache_alloc_bulk",
	"__kmalloc", "__kmalloc_node", "kmalloc_trace", "kmalloc_node_trace",
	"__kmalloc_track_caller", "__kmalloc_node_track_caller",
	"kmalloc_large", "kmalloc_large_node", "__kmalloc_large_node",
	"kmalloc_order", "kmalloc_order_trace", "krealloc", "__do_krealloc",
	"kvmalloc_node", "kvrealloc", "kmemdup", "kmemdup_nul", "kstrdup",
	"kstrdup_const", "kstrndup", "kvasprintf", "kvasprintf_const", "kasprintf",
	"__vmalloc_area_node", "__vmalloc_node_range", "__vmalloc_node",
	"vmalloc", "vzalloc", "vmalloc_node", "vzalloc_node", "__vmalloc",
	"vm_area_alloc_pages", "pcpu_alloc_pages", "pcpu_populate_chunk",
	"pcpu_alloc", "__alloc_percpu", "__alloc_percpu_gfp",
	"mempool_alloc", "mempool_alloc_slab", "mempool_kmalloc",
	"mempool_init_node", "mempool_create_node", "sbitmap_init_node",
	"sbitmap_queue_init_node", "xas_alloc", "xas_nomem", "xas_create",
	"xas_store", "__xa_alloc", "xa_store", "idr_get_free", "idr_alloc_u32",
	"idr_alloc", "idr_alloc_cyclic", "ida_alloc_range", "radix_tree_node_alloc",
	"__radix_tree_create", "radix_tree_insert",
	/* 6.10 and later (their "_noprof" dropped, func_len()): the mempolicy
	 * and bulk page paths and the kmalloc caches' own entry points */
	"alloc_pages_mpol", "folio_alloc_mpol", "alloc_pages_bulk", "__kmalloc_cache",
	"__kmalloc_large", "get_free_pages",
	"__kmalloc_cache_node", "___kmalloc_large_node", "__kvmalloc_node", "vmalloc_huge",
	/* the module loader's memory: 6.1's module_alloc, 6.12's execmem_alloc,
	 * so that both charge load_module; kmemleak's metadata: 6.12 splits
	 * __create_object, allocating in __alloc_object, so that both charge
	 * __create_object */
	"module_alloc", "execmem_alloc", "__alloc_object",
	/* 7.x's per-CPU sheaves: a slab's pages through refill_objects, from
	 * __pcs_replace_empty_main under the kmalloc or kmem_cache entry point */
	"refill_objects", "__pcs_replace_empty_main",
};

/* The length of a frame's function name as one name across kernel
 * versions and compilers: without the offsets ("+0x12/0x40"), GCC's clone
 * suffixes (".part.0", ".isra.0", ".constprop.0", ".cold") and the
 * "_noprof" of 6.10's allocation profiling (kmalloc_trace_noprof,
 * __alloc_pages_noprof: the same allocators as 6.1's). */
static size_t func_len(const char *frame)
{
	size_t n = strcspn(frame, "+ ");
	const char *dot = memchr(frame, '.', n);

	if (dot)
		n = (size_t)(dot - frame);
	if (n > 7 && !memcmp(frame + n - 7, "_noprof", 7))
		n -= 7;
	return n;
}

static int in_table(const char *frame, const char *const *names, size_t nnames)
{
	size_t n = func_len(frame);

	for (size_t i = 0; i < nnames; i++) {
		size_t l = strlen(names[i]);

		/* "name*": every function whose name starts so */
		if (l && names[i][l - 1] == '*' ? n >= l - 1 && !memcmp(names[i], frame, l - 1)
		    : l == n && !memcmp(names[i], frame, n))
			return 1;
	}
	return 0;
}

size_t attr_fold_past(char *const *frames, size_t n, const char *const *names,
		      size_t nnames)
{
	for (size_t i = 0; i < n; i++)
		if (!in_table(frames[i], names, nnames))
			return i;
	return n;
}

size_t attr_fold(char *const *frames, size_t n)
{
	size_t i = attr_fold_past(frames, n, allocator_frames, ARRAY_SIZE(allocator_frames));

	return i < n ? i : 0;
}

/* One site under two names across kernel versions, as the compiler
 * inlines or a patch moves code: the name it is known by here. */
static const struct {
	const char *seen, *name;
} site_aliases[] = {
	/* 6.1's wp_page_copy() is inlined into do_wp_page() by 6.12 */
	{ "wp_page_copy", "do_wp_page" },
};

void attr_site_name(const char *frame, struct strbuf *sb)
{
	size_t fn = func_len(frame);
	const char *mod = strchr(frame, '[');

	for (size_t i = 0; i < ARRAY_SIZE(site_aliases); i++)
		if (strlen(site_aliases[i].seen) == fn && !memcmp(site_aliases[i].seen, frame, fn)) {
			frame = site_aliases[i].name;
			fn = strlen(frame);
			break;
		}
	sb_add(sb, frame, fn);
	if (mod) {
		size_t ml = strcspn(mod, "]");
		if (mod[ml] == ']') {
			sb_addch(sb, ' ');
			sb_add(sb, mod, ml + 1);
		}
	}
}

long long attr_entry_bytes(const struct attr_entry *e, enum attr_unit unit)
{
	if (unit == ATTR_BYTES)
		return e->bytes_alloc > 0 ? e->bytes_alloc : 0;
	if (e->hitcount <= 0 || e->order < 0 || e->order > ATTR_MAX_ORDER)
		return 0;
	if (e->hitcount > (ATTR_VALUE_MAX >> (12 + e->order)))
		return ATTR_VALUE_MAX;
	return ((long long)ATTR_PAGE_SIZE << e->order) * e->hitcount;
}

static void entry_release(struct attr_entry *e)
{
	for (size_t i = 0; i < e->nframes; i++)
		free(e->frames[i]);
	free(e->frames);
}

void attr_hist_release(struct attr_hist *h)
{
	for (size_t i = 0; i < h->n; i++)
		entry_release(&h->e[i]);
	free(h->e);
	memset(h, 0, sizeof(*h));
}

/* A decimal number at *p (after blanks), at most ATTR_VALUE_MAX. */
static int number(const char **p, const char *end, long long *out)
{
	long long v = 0;
	int digits = 0;

	while (*p < end && **p == ' ')
		(*p)++;
	while (*p < end && isdigit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		if (v > ATTR_VALUE_MAX)
			return -1;
		(*p)++;
		digits++;
	}
	*out = v;
	return digits ? 0 : -1;
}

/* A name followed by ':' at *p (after blanks); its length, 0 if none. */
static size_t field_name(const char **p, const char *end, const char **name)
{
	const char *s;

	while (*p < end && (**p == ' ' || **p == '\t'))
		(*p)++;
	s = *p;
	while (*p < end && (isalnum((unsigned char)**p) || **p == '_' || **p == '.'))
		(*p)++;
	if (*p == s || *p >= end || **p != ':')
		return 0;
	*name = s;
	(*p)++;
	return (size_t)(*p - 1 - s);
}

static int name_is(const char *name, size_t n, const char *want)
{
	return strlen(want) == n && !memcmp(name, want, n);
}

enum key_state { KEYS_MORE, KEYS_STACK, KEYS_DONE };

/* The keys part of an entry from p: "name: value" fields separated by
 * ',' up to '}', or a stack key at the end of the line (its frames
 * follow).  After '}', the values.  Sets *why on error. */
static int keys(struct attr_entry *e, const char *p, const char *end,
			   const char **why)
{
	const char *name;
	size_t n;
	long long v;

	for (;;) {
		while (p < end && (*p == ' ' || *p == ','))
			p++;
		if (p >= end)
			return KEYS_MORE;
		if (*p == '}') {
			p++;
			break;
		}
		if (!(n = field_name(&p, end, &name))) {
			*why = "expected a key 'name:'";
			return -1;
		}
		if (name_is(name, n, "stacktrace") || name_is(name, n, "common_stacktrace")) {
			while (p < end && *p == ' ')
				p++;
			if (p != end || e->frames) {
				*why = "a stack key must end its line, once";
				return -1;
			}
			e->frames = xcalloc(ATTR_MAX_FRAMES, sizeof(*e->frames));
			return KEYS_STACK;
		}
		if (number(&p, end, &v) < 0) {
			*why = "a key's value is not a number (or too large)";
			return -1;
		}
		if (name_is(name, n, "order")) {
			if (v > ATTR_MAX_ORDER) {
				*why = "order out of range";
				return -1;
			}
			e->order = v;
		}
	}
	/* Values: "hitcount: N  bytes_alloc: N ..." */
	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		if (p >= end)
			break;
		if (!(n = field_name(&p, end, &name)) || number(&p, end, &v) < 0) {
			*why = "expected 'name: number' values after '}'";
			return -1;
		}
		if (name_is(name, n, "hitcount"))
			e->hitcount = v;
		else if (name_is(name, n, "bytes_req"))
			e->bytes_req = v;
		else if (name_is(name, n, "bytes_alloc"))
			e->bytes_alloc = v;
	}
	if (e->hitcount < 0) {
		*why = "an entry without hitcount";
		return -1;
	}
	return KEYS_DONE;
}

static int totals_line(struct attr_hist *h, const char *p, const char *end,
		       unsigned *seen, const char **why)
{
	static const char *const names[] = { "Hits", "Entries", "Dropped" };
	long long *dst[] = { &h->hits, &h->entries, &h->dropped };
	const char *name;
	size_t n = field_name(&p, end, &name);
	long long v;

	for (size_t i = 0; n && i < ARRAY_SIZE(names); i++) {
		if (!name_is(name, n, names[i]))
			continue;
		if (number(&p, end, &v) < 0) {
			*why = "a total is not a number (or too large)";
			return -1;
		}
		while (p < end && *p == ' ')
			p++;
		if (p != end) {
			*why = "junk after a total";
			return -1;
		}
		*dst[i] = v;
		*seen |= 1u << i;
		return 0;
	}
	*why = "expected Hits:, Entries: or Dropped: in the Totals";
	return -1;
}

int attr_hist_parse(struct attr_hist *h, const char *buf, size_t len,
		    struct strbuf *err)
{
	enum { OUT, IN_KEYS, IN_STACK, TOTALS } state = OUT;
	struct attr_entry cur;
	struct line_iter it;
	const char *why = NULL;
	unsigned seen = 0, start = 0;

	memset(h, 0, sizeof(*h));
	memset(&cur, 0, sizeof(cur));
	line_iter_init(&it, buf, len);
	while (line_next(&it)) {
		const char *p = it.line, *end = it.line + it.len;

		if (line_has_nul(it.line, it.len)) {
			why = "a NUL byte";
			goto bad;
		}
		if (state == IN_STACK && p < end && (*p == ' ' || *p == '\t')) {
			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
			if (p == end)
				continue;
			if (cur.nframes >= ATTR_MAX_FRAMES) {
				why = "too many frames";
				goto bad;
			}
			if ((size_t)(end - p) >= ATTR_FRAME_MAX) {
				why = "frame too long";
				goto bad;
			}
			cur.frames[cur.nframes++] = xstrndup(p, (size_t)(end - p));
			continue;
		}
		if (state == IN_STACK || state == IN_KEYS) {
			if (state == IN_STACK && (p >= end || (*p != ',' && *p != '}'))) {
				why = "expected a frame, ',' or '}' in a stack";
				goto bad;
			}
			state = IN_KEYS;
		} else if (state == OUT) {
			if (p == end || *p == '#')
				continue;
			if (it.len == 7 && !memcmp(p, "Totals:", 7)) {
				state = TOTALS;
				continue;
			}
			if (*p != '{') {
				why = "expected '{', a comment or Totals:";
				goto bad;
			}
			if (h->n >= ATTR_MAX_ENTRIES) {
				why = "too many entries";
				goto bad;
			}
			memset(&cur, 0, sizeof(cur));
			cur.order = cur.hitcount = cur.bytes_req = cur.bytes_alloc = -1;
			start = it.lineno;
			p++;
			state = IN_KEYS;
		} else {	/* TOTALS */
			if (p == end)
				continue;
			if (totals_line(h, p, end, &seen, &why) < 0)
				goto bad;
			continue;
		}
		switch ((int)keys(&cur, p, end, &why)) {
		case KEYS_MORE:
			break;
		case KEYS_STACK:
			state = IN_STACK;
			break;
		case KEYS_DONE:
			ALLOC_GROW(h->e, h->n + 1, h->alloc);
			h->e[h->n++] = cur;
			memset(&cur, 0, sizeof(cur));
			state = OUT;
			break;
		default:
			goto bad;
		}
	}
	if (state == IN_KEYS || state == IN_STACK) {
		sb_addf(err, "line %u: entry cut off at the end", start);
		goto fail;
	}
	if (seen != 7) {
		sb_addf(err, "line %u: no Totals (Hits, Entries, Dropped): cut short?", it.lineno);
		goto fail;
	}
	return 0;
bad:
	sb_addf(err, "line %u: %s", it.lineno, why);
fail:
	entry_release(&cur);
	attr_hist_release(h);
	return -1;
}

static long long sat_add(long long a, long long b)
{
	return a > LLONG_MAX - b ? LLONG_MAX : a + b;
}

struct site {
	char *name;
	long long bytes, count, best;
	const struct attr_entry *stack;	/* the largest entry's */
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct site *)a)->name, ((const struct site *)b)->name);
}

static int cmp_bytes(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return strcmp(x->name, y->name);
}

json_object *attr_source_json(const struct attr_hist *h, enum attr_unit unit,
			      size_t top)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	struct site *s = xcalloc(h->n ? h->n : 1, sizeof(*s));
	size_t ns = 0, m = 0;
	long long total = 0, other = 0;

	for (size_t i = 0; i < h->n; i++) {
		const struct attr_entry *e = &h->e[i];
		long long b = attr_entry_bytes(e, unit);
		struct strbuf sb = STRBUF_INIT;

		total = sat_add(total, b);
		if (!e->nframes)
			continue;
		attr_site_name(e->frames[attr_fold(e->frames, e->nframes)], &sb);
		s[ns].name = sb_detach(&sb, NULL);
		s[ns].bytes = b;
		s[ns].count = e->hitcount > 0 ? e->hitcount : 0;
		s[ns].best = b;
		s[ns].stack = e;
		ns++;
	}
	/* Merge the entries of one site (stable: the first largest stack). */
	qsort(s, ns, sizeof(*s), cmp_name);
	for (size_t i = 0; i < ns; i++) {
		if (m && !strcmp(s[m - 1].name, s[i].name)) {
			s[m - 1].bytes = sat_add(s[m - 1].bytes, s[i].bytes);
			s[m - 1].count = sat_add(s[m - 1].count, s[i].count);
			if (s[i].best > s[m - 1].best ||
			    (s[i].best == s[m - 1].best && s[i].stack < s[m - 1].stack)) {
				s[m - 1].best = s[i].best;
				s[m - 1].stack = s[i].stack;
			}
			free(s[i].name);
			continue;
		}
		s[m++] = s[i];
	}
	qsort(s, m, sizeof(*s), cmp_bytes);
	for (size_t i = 0; i < m; i++) {
		json_object *site, *st;

		if (i >= top) {
			other = sat_add(other, s[i].bytes);
			continue;
		}
		site = json_object_new_object();
		st = json_object_new_array();
		json_object_object_add(site, "site", json_clean_string(s[i].name, strlen(s[i].name)));
		json_object_object_add(site, "bytes", json_object_new_int64(s[i].bytes));
		json_object_object_add(site, "count", json_object_new_int64(s[i].count));
		for (size_t f = 0; f < s[i].stack->nframes; f++) {
			const char *fr = s[i].stack->frames[f];

			json_object_array_add(st, json_clean_string(fr, strlen(fr)));
		}
		json_object_object_add(site, "stack", st);
		json_object_array_add(arr, site);
	}
	json_object_object_add(o, "bytes", json_object_new_int64(total));
	json_object_object_add(o, "events", json_object_new_int64(h->hits));
	json_object_object_add(o, "entries", json_object_new_int64(h->entries));
	json_object_object_add(o, "dropped", json_object_new_int64(h->dropped));
	json_object_object_add(o, "sites_total", json_object_new_int64((long long)m));
	json_object_object_add(o, "sites", arr);
	json_object_object_add(o, "other_bytes", json_object_new_int64(other));
	for (size_t i = 0; i < m; i++)
		free(s[i].name);
	free(s);
	return o;
}
