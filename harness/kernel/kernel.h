/*
 * kernel: the kernel artifact a run boots, wherever it came from.
 *
 * Every source produces the same thing: a bootable image, a modules tree
 * (lib/modules/VERSION with modules.dep), the version string the kernel
 * reports, and where it came from.  The run pipeline only ever sees this
 * struct, so a kernel built from source (kernel build issue) boots exactly
 * like a Debian one.
 *
 *	struct kernel_artifact k = KERNEL_ARTIFACT_INIT;
 *	if (kernel_obtain(&scenario, logfile, &k) < 0)	// may download
 *		...
 *	boot(k.image); modules from k.modules;
 *	kernel_release(&k);
 *
 * Sources:
 *   debian: a Debian kernel package (a metapackage is followed to the
 *           versioned package), fetched with apt-get download, unpacked with
 *           dpkg-deb -x into the cache and indexed with depmod -b.  Cached by
 *           package, version and arch.
 *   files:  kernel_image and kernel_modules from the scenario.
 *   build:  built from source with patches and config fragments (kbuild.h).
 */
#ifndef SCALETEST_KERNEL_H
#define SCALETEST_KERNEL_H

#include "scenario/scenario.h"
#include "lib/strvec.h"

struct kernel_artifact {
	char *source;		/* "debian", "files" */
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

typedef int kernel_builder(const struct scenario *s, const char *log,
			   struct kernel_artifact *k);
int kernel_obtain(const struct scenario *s, const char *log,
		  kernel_builder *build, struct kernel_artifact *k);
int kernel_from_files(const char *image, const char *modules, const char *config,
		      int arch, struct kernel_artifact *k);
void kernel_release(struct kernel_artifact *k);

#endif
