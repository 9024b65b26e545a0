/* SPDX-License-Identifier: Apache-2.0 */
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
 *           versioned package, and a split 7.x one to its parts), from the
 *           host's apt or kernel_suite's (apt.h), fetched with apt-get
 *           download, unpacked with dpkg-deb -x into the cache and indexed
 *           with depmod -b, in one cache transaction (cache.h), whatever
 *           its layout (layout.h).  Cached by package, version, arch.
 *   files:  kernel_image and kernel_modules from the scenario, read by
 *           kernel_from_files(), which also reads what the builder made.
 *   build:  built from source by the kernel_builder the caller passes
 *           (kbuild_obtain, kbuild.h).  This module does not know the
 *           builder: kbuild depends on the artifact, not the other way.
 */
#ifndef SCALETEST_KERNEL_H
#define SCALETEST_KERNEL_H

#include "kernel/layout.h"
#include "scenario/scenario.h"
#include "lib/strvec.h"

struct kernel_artifact {
	char *source;		/* "debian", "files", "build" */
	char *package;		/* debian: the versioned package */
	char *package_version;
	char *suite;		/* debian: the kernel_suite it came from, or NULL */
	struct strvec package_parts;	/* debian: a split kernel's "name=version" */
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
	/* KCIDB's patchset hash: sha256 over the patches' sha256sums, one a
	 * line, in order ("sha256sum *.patch | cut -c-64 | sha256sum"); "" for
	 * none */
	char *build_patchset_hash;
	char *build_git_url;	/* a git source's https remote (origin), or NULL */
	/* Why obtaining it failed, in one line, where the input is at fault
	 * rather than the build (a patch that does not apply): the run's
	 * reason; else NULL. */
	char *failure;
};
#define KERNEL_ARTIFACT_INIT { NULL, NULL, NULL, NULL, STRVEC_INIT, NULL, NULL, NULL, NULL, 0, -1, \
			       NULL, NULL, NULL, STRVEC_INIT, STRVEC_INIT, NULL, NULL, NULL }

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
/* The lib/modules/VERSION of modules (itself, or the single one below a
 * root), absolute and malloc'd; NULL when it is no modules tree (neither
 * modules.dep, modules.order nor kernel/ in it).  One not indexed yet is
 * returned: the run says to run depmod (guest/moddep.h). */
char *kernel_modules_tree(const char *modules);

/* The kernel a run would boot, found without fetching or building
 * anything (run --dry-run): 1 and k filled when it is ready (kernel =
 * files, or a cached Debian package or build); 0 when a run would first
 * fetch or build it, with what saying so in a sentence; -1 on error
 * (said).  find_build does it for kernel = build (kbuild_find). */
typedef int kernel_finder(const struct scenario *s, struct kernel_artifact *k,
			  struct strbuf *what);
int kernel_find(const struct scenario *s, kernel_finder *find_build,
		struct kernel_artifact *k, struct strbuf *what);

/*
 * What an x86 bzImage says of itself in its boot header
 * (Documentation/arch/x86/boot.rst): "HdrS" at 0x202, the protocol
 * version at 0x206, the offset of the version string (less 0x200) at
 * 0x20e, and from protocol 2.12 the xloadflags at 0x236, whose bit 0
 * (XLF_KERNEL_64) only a 64-bit kernel sets.  run --kernel uses it to
 * refuse what is not a kernel, to pick the arch of the default scenario,
 * and to find /lib/modules/VERSION when no --modules is given.
 */
struct kernel_image_info {
	int arch;		/* ARCH_X86_64, ARCH_I386, or -1 (protocol < 2.12) */
	char version[128];	/* "6.1.0-28-amd64" (the string's first word, if
				 * kernel_release_valid()), or "" */
};
#define KERNEL_IMAGE_HEAD 65536	/* bytes of the image that hold the header */
/* From the image's first bytes: 0, or -1 with why in err. */
int kernel_image_parse(const unsigned char *buf, size_t len,
		       struct kernel_image_info *info, struct strbuf *err);
/* The same from a file: 0, or -1 with "'PATH': why" in err. */
int kernel_image_read(const char *path, struct kernel_image_info *info,
		      struct strbuf *err);
/* kernel_release_valid(): layout.h. */

#endif
