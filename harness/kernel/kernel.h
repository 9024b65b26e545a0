/*
 * kernel: the kernel artifact a run boots, wherever it came from.
 *
 * Every source produces the same thing: a bootable image, a modules tree
 * (lib/modules/VERSION with modules.dep), the version string the kernel
 * reports, its .config when there is one (and so whether it has HIGHMEM),
 * and where it came from.  The run pipeline only ever sees this struct, so
 * a kernel built from source boots exactly like a Debian one.
 *
 *	struct kernel_artifact k = KERNEL_ARTIFACT_INIT;
 *	if (kernel_obtain(&scenario, logfile, kbuild_obtain, &k) < 0)
 *		...				// may download or build
 *	boot k.image with the modules of k.modules;
 *	kernel_release(&k);
 *
 * Sources (the scenario's kernel key):
 *   debian: a Debian kernel package (a metapackage is followed to the
 *           versioned package), fetched with apt-get download, unpacked with
 *           dpkg-deb -x into the cache and indexed with depmod -b, in one
 *           cache transaction (cache.h).  Cached by package, version, arch.
 *   files:  kernel_image and kernel_modules from the scenario, read by
 *           kernel_from_files(), which also reads what the builder made.
 *   build:  built from source by the kernel_builder the caller passes
 *           (kbuild_obtain, kbuild.h).  This module does not know the
 *           builder: kbuild depends on the artifact, not the other way.
 */
#ifndef SCALETEST_KERNEL_H
#define SCALETEST_KERNEL_H

#include "scenario/scenario.h"
#include "lib/strvec.h"

struct kernel_artifact {
	char *source;		/* "debian", "files", "build" */
	char *package;		/* debian: the versioned package */
	char *package_version;
	char *version;		/* uname -r */
	char *image;		/* path to bzImage/vmlinuz */
	char *modules;		/* path to lib/modules/VERSION */
	char *config;		/* path to the kernel's .config, or NULL */
	int arch;
	int highmem;		/* CONFIG_HIGHMEM=y (1), not (0), unknown (-1) */
	/* build: what it was built from */
	char *build_source;	/* "debian:linux-source-6.1=6.1.192-3" or a path */
	char *build_key;	/* the cache key */
	char *build_base;	/* tinyconfig, defconfig */
	struct strvec build_patches;	/* patch file names, in order */
	struct strvec build_fragments;	/* fragment paths */
};
#define KERNEL_ARTIFACT_INIT { NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, -1, \
			       NULL, NULL, NULL, STRVEC_INIT, STRVEC_INIT }

/* Builds the kernel of a kernel = build scenario into k: 0, or -1 (said). */
typedef int kernel_builder(const struct scenario *s, const char *log,
			   struct kernel_artifact *k);
/* The scenario's kernel; build may be NULL where kernel = build cannot
 * happen (then it is an error).  log receives the output of what runs. */
int kernel_obtain(const struct scenario *s, const char *log,
		  kernel_builder *build, struct kernel_artifact *k);
/* Fill k from an image and a modules tree: lib/modules/VERSION, or a root
 * holding a single one.  config: the kernel's .config, or NULL to look for
 * build/.config and config in the modules tree. */
int kernel_from_files(const char *image, const char *modules, const char *config,
		      int arch, struct kernel_artifact *k);
void kernel_release(struct kernel_artifact *k);

#endif
