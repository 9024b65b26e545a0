// SPDX-License-Identifier: Apache-2.0
#include "record/kv.h"

#include <stdlib.h>
#include <string.h>

#include "lib/textscan.h"
#include "lib/util.h"

static const char *add(struct kvlist *kv, const char *s, size_t len)
{
	const char *eq = memchr(s, '=', len);
	size_t klen;

	if (!eq)
		return "expected key=value";
	klen = (size_t)(eq - s);
	if (!klen || klen >= KV_KEY_MAX)
		return "bad key length";
	for (size_t i = 0; i < klen; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
		      s[i] == '_'))
			return "bad character in key";
	size_t vlen = len - klen - 1;
	if (vlen > KV_VALUE_MAX)
		return "value too long";
	for (size_t i = 0; i < vlen; i++) {
		unsigned char c = (unsigned char)eq[1 + i];
		if (c < 0x20 || c == 0x7f)
			return "control character in value";
	}
	ALLOC_GROW(kv->v, kv->n + 1, kv->alloc);
	memcpy(kv->v[kv->n].key, s, klen);
	kv->v[kv->n].key[klen] = '\0';
	kv->v[kv->n].value = xstrndup(eq + 1, vlen);
	kv->n++;
	return NULL;
}

/* Duplicates keep the first: add() appends every entry, and each call
 * ends here, dropping the entries whose key an earlier one has (sorted,
 * O(n log n), where a check per entry was quadratic). */
static void drop_repeats(struct kvlist *kv)
{
	const char **keys = xmalloc((kv->n + 1) * sizeof(*keys));
	unsigned char *rep = xmalloc(kv->n + 1);
	size_t i, n = 0;

	for (i = 0; i < kv->n; i++)
		keys[i] = kv->v[i].key;
	mark_repeats(keys, kv->n, rep);
	for (i = 0; i < kv->n; i++) {
		if (rep[i])
			free(kv->v[i].value);
		else
			kv->v[n++] = kv->v[i];
	}
	kv->n = n;
	free(keys);
	free(rep);
}

int kv_lines(struct kvlist *kv, const char *buf, size_t len, struct strbuf *err)
{
	struct line_iter it;

	line_iter_init(&it, buf, len);
	while (line_next(&it)) {
		const char *why;

		if (!it.len)
			continue;
		why = line_has_nul(it.line, it.len) ? "NUL byte" : add(kv, it.line, it.len);
		if (why) {
			sb_addf(err, "line %u: %s", it.lineno, why);
			drop_repeats(kv);
			return -1;
		}
	}
	drop_repeats(kv);
	return 0;
}

int kv_words(struct kvlist *kv, const char *line, size_t len, struct strbuf *err)
{
	const char *p = line, *end = line + len;

	while (p < end) {
		const char *s, *why;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end)
			break;
		s = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		why = memchr(s, '\0', (size_t)(p - s)) ? "NUL byte" : add(kv, s, (size_t)(p - s));
		if (why) {
			sb_addf(err, "'%.*s': %s", (int)(p - s) > 40 ? 40 : (int)(p - s), s, why);
			drop_repeats(kv);
			return -1;
		}
	}
	drop_repeats(kv);
	return 0;
}

const char *kv_get(const struct kvlist *kv, const char *key)
{
	for (size_t i = 0; i < kv->n; i++)
		if (!strcmp(kv->v[i].key, key))
			return kv->v[i].value;
	return NULL;
}

long long kv_num(const char *v)
{
	uint64_t n;

	if (!v || parse_u64(v, &n) < 0 || n > (uint64_t)1 << 62)
		return -1;
	return (long long)n;
}

long long kv_get_num(const struct kvlist *kv, const char *key)
{
	return kv_num(kv_get(kv, key));
}

void kvlist_release(struct kvlist *kv)
{
	for (size_t i = 0; i < kv->n; i++)
		free(kv->v[i].value);
	free(kv->v);
	kv->v = NULL;
	kv->n = kv->alloc = 0;
}
