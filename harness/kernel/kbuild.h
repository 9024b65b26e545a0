/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kbuild: a kernel built from source, with patches and config fragments,
 * as a kernel artifact (kernel.h) that boots exactly like a Debian one.
 *
 * Inputs (struct kbuild_spec, filled from a scenario's kernel_* keys):
 *   source     "debian" (Debian's linux-source package of the same version
 *              as the prebuilt kernel for the arch, so stock and patched
 *              compare like with like) or a path to a kernel tree;
 *   patches    a directory of *.patch / *.diff (applied in name order) or a
 *              series file (one patch per line, relative to the file);
 *   base       tinyconfig or defconfig;
 *   fragments  config fragment files merged onto the base with the
 *              kernel's scripts/kconfig/merge_config.sh, then olddefconfig;
 *              every option they set is checked in the final .config (the
 *              last fragment to set an option wins); with Debian's
 *              linux-source-X.Y ("debian:X.Y"), kernel-configs/linux-X.Y.config
 *              comes after the arch's and fast-boot when it exists;
 *   arch       x86_64 or i386.
 *
 * The artifact is cached under kernels/build/<key>, the key being a hash
 * of the source identity, the patches' names and bytes, the base, the
 * fragments' names and bytes, the arch and the compiler's version: a hit
 * costs one hash.  On a miss the source is copied once into a work tree
 * (kbuild/<source>/src, a git repository of the pristine tree, never the
 * user's own tree), reset to pristine, patched with one git apply --reject
 * per patch (one that does not apply stops the build before it configures
 * anything, exit 3: an error naming the patch, the source and the hunks
 * rejected, quoting git's output and the .rej files, and k->failure that
 * in one line), configured and built out of tree
 * (O=kbuild/<source>/obj-<arch>) with make -jN (and ccache when
 * installed), so a one-line patch change recompiles little.
 * modules_install stages the modules; the entry is built and renamed into
 * place in one cache transaction (cache.h), and read back with
 * kernel_from_files().  At most KBUILD_KEEP artifacts and KBUILD_KEEP_TREES
 * work trees are kept; older ones are removed, and said so.
 *
 *	struct kbuild_spec spec;
 *	kbuild_spec_init(&spec);
 *	if (kbuild_spec_from_scenario(&s, &spec, &err) < 0) ...
 *	struct kernel_artifact k = KERNEL_ARTIFACT_INIT;
 *	int hit;
 *	if (kbuild_build(&spec, logfile, &k, &hit) < 0) ...	// hit: it was cached
 *	kbuild_spec_release(&spec);
 *
 * kbuild_obtain() does all of that for a scenario; it is the kernel_builder
 * that run passes to kernel_obtain():
 *
 *	kernel_obtain(&s, logfile, kbuild_obtain, &k);
 */
#ifndef SCALETEST_KBUILD_H
#define SCALETEST_KBUILD_H

#include "kernel/kernel.h"
#include "kernel/kpatch.h"
#include "scenario/scenario.h"
#include "lib/strvec.h"

#define KBUILD_KEEP 6
#define KBUILD_KEEP_TREES 2

struct kbuild_spec {
	int arch;
	char *source;		/* "debian" or an absolute path */
	char *rev;		/* with a path: a commit of its git repository, or "" */
	char *patches;		/* "" or an absolute path */
	char *base;		/* "tinyconfig" or "defconfig" */
	struct strvec fragments;	/* absolute paths */
	long long jobs;
	long long timeout;	/* seconds for the whole build */
};

void kbuild_spec_init(struct kbuild_spec *spec);
void kbuild_spec_release(struct kbuild_spec *spec);
int kbuild_spec_from_scenario(const struct scenario *s, struct kbuild_spec *spec,
			      struct strbuf *err);

/* Options a fragment sets: "CONFIG_X=v" or "# CONFIG_X is not set" lines,
 * appended as they appear (for the dropped-option check). */
int kbuild_fragment_options(const char *buf, size_t len, struct strvec *out,
			    struct strbuf *err);
/* Which of want are missing from config (a .config's text); appended to
 * dropped as "CONFIG_X=y (now: # CONFIG_X is not set)".  An option that a
 * later entry of want sets again is judged by the later one only (the
 * last fragment wins, as in merge_config.sh). */
void kbuild_check_config(const struct strvec *want, const char *config,
			 struct strvec *dropped);

/* The kernel-build toolchain (flex, bison, bc, git, xz, libelf's headers...)
 * that is missing here, appended to missing as " flex bison"; returns how
 * many.  kbuild_build checks it on a cache miss, naming 'make deps-kbuild'. */
int kbuild_toolchain_missing(struct strbuf *missing);
/* Build spec (or find it in the cache: *hit = 1) into k. */
int kbuild_build(const struct kbuild_spec *spec, const char *log,
		 struct kernel_artifact *k, int *hit);
/* kbuild_spec_from_scenario + kbuild_build: a kernel_builder (kernel.h). */
int kbuild_obtain(const struct scenario *s, const char *log,
		  struct kernel_artifact *k);
/* The same build looked up without building (run --dry-run): identifies
 * the source (a walk of the tree's names, sizes and times, or apt-cache
 * for "debian") and the patches, and says whether the cache has it: a
 * kernel_finder (kernel.h). */
int kbuild_find(const struct scenario *s, struct kernel_artifact *k,
		struct strbuf *what);

#endif
