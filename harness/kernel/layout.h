/* SPDX-License-Identifier: Apache-2.0 */
/*
 * layout: where a Debian kernel package puts the kernel, its modules and
 * its config, in every layout Debian has shipped:
 *
 *   bookworm (6.1, 6.12)   boot/vmlinuz-V, boot/config-V, boot/System.map-V,
 *                          lib/modules/V/
 *   trixie (6.12)          boot/vmlinuz-V, boot/config-V, boot/System.map-V,
 *                          usr/lib/modules/V/ (merged /usr)
 *   sid, experimental,     linux-image-V is a metapackage of three:
 *   backports (6.19, 7.x)  linux-binary-V  usr/lib/modules/V/vmlinuz (no /boot),
 *                          linux-modules-V usr/lib/modules/V/kernel/ (.ko.xz),
 *                          linux-base-V    usr/lib/modules/V/{config,System.map,
 *                                          modules.builtin,modules.order}
 *
 * The rules read a list of entries, each "T path": T is f (a regular
 * file), d (a directory), l (a symbolic link) or ? (anything else), the
 * path relative to the package's root without "./" or a final "/".  The
 * list comes from the tree unpacked into the cache (layout_scan) or, in the
 * tests, from captured `dpkg-deb -c` listings (layout_parse_listing), so
 * the same rules judge both.  Only what lies at the levels that matter is
 * read: what is in boot/, in (usr/)lib/modules/ and one level below that.
 *
 *	struct strvec e = STRVEC_INIT;
 *	struct kernel_layout l = KERNEL_LAYOUT_INIT;
 *	if (layout_scan(root, &e, &err) < 0 || kernel_layout_find(&e, &l, &err) < 0)
 *		...	// err says what is wrong with the package
 *	l.image: "boot/vmlinuz-6.1.0-57-686-pae" or "usr/lib/modules/V/vmlinuz"
 *	kernel_layout_release(&l); strvec_clear(&e);
 *
 * A kernel is one regular file: a link where a kernel, a config or the
 * modules should be is refused (a package's contents are input), as are
 * two kernels, modules of a version other than the kernel's, one version's
 * modules in both lib/modules and usr/lib/modules, and a version that
 * could not name a directory (kernel_release_valid).
 *
 * busybox-static put busybox in bin/ until bookworm and in usr/bin/ from
 * trixie on (merged /usr): layout_find_program() finds either.
 */
#ifndef SCALETEST_LAYOUT_H
#define SCALETEST_LAYOUT_H

#include <stddef.h>

#include "lib/strbuf.h"
#include "lib/strvec.h"

struct kernel_layout {
	char *version;		/* "7.2.13+deb14-amd64" */
	char *image;		/* relative to the root */
	char *modules;		/* "lib/modules/V" or "usr/lib/modules/V" */
	char *config;		/* or NULL */
	char *system_map;	/* or NULL */
};
#define KERNEL_LAYOUT_INIT { NULL, NULL, NULL, NULL, NULL }

/* `dpkg-deb -c` output into entries ("T path"): 0, or -1 with
 * "line N: why" in err (a line that is not a listing, a path with "..",
 * an absolute path). */
int layout_parse_listing(const char *buf, size_t len, struct strvec *entries,
			 struct strbuf *err);
/* The entries of an unpacked tree at the levels the rules read (lstat:
 * links are entries, never followed): 0, or -1 (err). */
int layout_scan(const char *root, struct strvec *entries, struct strbuf *err);
/* The kernel of a package's (or several packages') entries: 0, or -1 with
 * why in err. */
int kernel_layout_find(const struct strvec *entries, struct kernel_layout *l,
		       struct strbuf *err);
void kernel_layout_release(struct kernel_layout *l);

/* A kernel release as it may name a directory (lib/modules/VERSION):
 * letters, digits and ._+~-, from a letter or digit, no "..", at most 64
 * characters.  An image's header or a tree's kernel.release is untrusted. */
int kernel_release_valid(const char *version);

/* The first of "bin/NAME", "usr/bin/NAME" that is a regular file below
 * root: malloc'd absolute path, or NULL (a link or nothing there). */
char *layout_find_program(const char *root, const char *name);

#endif
