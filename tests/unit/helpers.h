/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helpers.h: what several unit test files share (tests/unit/helpers.c),
 * so that no test file keeps its own copy.
 *
 *	char *root = kmod_tree("nodep");	// ROOT/lib/modules/9.9.9-scaletest
 *	...
 *	free(root);
 *
 *	records_feed_all(&rs, sb.buf, sb.len);	// fed whole, then finished
 *	CHECK_CONTAINS(records_rejection(&rs, 0), "unknown type 'bogus'");
 */
#ifndef SCALETEST_UNIT_HELPERS_H
#define SCALETEST_UNIT_HELPERS_H

#include <stddef.h>

#include "record/records.h"

/* The kernel version of kmod_tree()'s modules. */
#define KMOD_TREE_KVER "9.9.9-scaletest"

/* A modules tree made by tests/fixtures/kmod/mktree.sh ROOT VARIANT (""
 * for the good one) in the test's own directory, so each test reads a
 * tree nobody else wrote; returns ROOT (malloc'd).  Ends the test if the
 * script fails. */
char *kmod_tree(const char *variant);

/* Feed buf whole to rs and finish it; the warnings it prints on stderr
 * for the records it rejects are dropped (the rejections keep them). */
void records_feed_all(struct records *rs, const char *buf, size_t len);

/* The i-th rejection's reason, or NULL. */
const char *records_rejection(const struct records *rs, size_t i);

#endif
