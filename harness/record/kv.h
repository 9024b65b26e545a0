/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kv: the key=value payloads of the guest's small records.
 *
 * Two shapes, both untrusted:
 *   kv_lines: one "key=value" per line, the value being the rest of the
 *             line ("timing", "info", "end" records);
 *   kv_words: "key=value" words separated by blanks (one "io" line).
 * Keys are [a-z0-9_]{1,31}; values at most KV_VALUE_MAX bytes,
 * without C0 controls or DEL (other bytes pass: records.c cleans what it
 * keeps, lib/util.h sb_add_clean).
 * A malformed entry is an error naming the line; duplicates keep the first.
 *
 *	struct kvlist kv = KVLIST_INIT;
 *	if (kv_lines(&kv, buf, len, &err) < 0) ...
 *	const char *st = kv_get(&kv, "status");		// NULL if absent
 *	kvlist_release(&kv);
 */
#ifndef SCALETEST_KV_H
#define SCALETEST_KV_H

#include <stddef.h>

#include "lib/strbuf.h"

#define KV_KEY_MAX 32
#define KV_VALUE_MAX 512

struct kv {
	char key[KV_KEY_MAX];
	char *value;
};

struct kvlist {
	struct kv *v;
	size_t n, alloc;
};
#define KVLIST_INIT { NULL, 0, 0 }

int kv_lines(struct kvlist *kv, const char *buf, size_t len, struct strbuf *err);
int kv_words(struct kvlist *kv, const char *line, size_t len, struct strbuf *err);
const char *kv_get(const struct kvlist *kv, const char *key);
/* A value as a non-negative integer; -1 if absent or not one. */
long long kv_get_num(const struct kvlist *kv, const char *key);
/* The same for a value already in hand (kv->v[i].value; NULL gives -1). */
long long kv_num(const char *value);
void kvlist_release(struct kvlist *kv);

#endif
