/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kpatch: the patches of a kernel build (kbuild.h), the input a user
 * changes most.  kbuild_spec.patches names a directory of *.patch and
 * *.diff files (applied in name order) or a series file (a patch a line,
 * relative to the file); each is applied with git apply to the work tree,
 * reset to its base first.
 *
 *	struct strvec p = STRVEC_INIT;
 *	if (kbuild_patch_list(spec->patches, &p, &err) < 0) ...	// the files
 *	kbuild_apply_patches(srcdir, "pristine", &p, src_id, log, &failure);
 *	hash = kbuild_patchset_hash(&p);	// result.json, KCIDB
 */
#ifndef KERNEL_KPATCH_H
#define KERNEL_KPATCH_H

#include "lib/strbuf.h"
#include "lib/strvec.h"

/* The patch files of a series, in order (absolute paths). */
int kbuild_patch_list(const char *patches, struct strvec *out, struct strbuf *err);
/* The patches, in order, on srcdir (a git work tree) reset to base and
 * cleaned.  One that does not apply: -1 with ERR_ENV (the input's fault,
 * exit 3), the message naming the patch, source_id, the hunks rejected
 * and git's words; *failure (replaced) says it in one line.  Each git
 * step's output goes to log. */
int kbuild_apply_patches(const char *srcdir, const char *base, const struct strvec *patches,
			 const char *source_id, const char *log, char **failure);
/* KCIDB's patchset hash of the patch files, in order (malloc'd): sha256
 * over each file's sha256 in hex and a newline, as "sha256sum *.patch |
 * cut -c-64 | sha256sum" gives it; "" for none; NULL when one cannot be
 * read. */
char *kbuild_patchset_hash(const struct strvec *patches);

#endif
