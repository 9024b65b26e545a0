/* SPDX-License-Identifier: Apache-2.0 */
/*
 * deb: Debian packages as components, without installing them.
 *
 * deb_resolve() asks apt-cache (the apt apt.h selected: the host's, or
 * the harness's own for a kernel_suite) for a package's candidate
 * version; with follow_kernel it follows a metapackage (linux-image-amd64)
 * to the versioned kernel package it depends on
 * (linux-image-6.1.0-57-amd64), and, where that is itself a metapackage of
 * the parts Debian splits 6.19 and later into (linux-image-7.2.13+deb14-amd64:
 * linux-binary-, linux-modules- and linux-base-7.2.13+deb14-amd64), to its
 * parts, each of the version it requires.  deb_fetch_extract() downloads
 * the .deb (or every part's) with apt-get download into a scratch
 * directory and unpacks them with dpkg-deb -x into one root; the .debs are
 * deleted afterwards.  Nothing touches the host's dpkg database or /boot.
 *
 *	struct deb_pkg p = DEB_PKG_INIT;
 *	if (deb_resolve("linux-image-686-pae", "i386", 1, &p) < 0) ...
 *	deb_fetch_extract(&p, tmpdir_root, logfile);
 *	deb_pkg_release(&p);
 *
 * Failures caused by the host (no apt, no such package, no i386
 * architecture configured) are reported with error_env(), naming the fix,
 * and both return that class (ERR_ENV) to their caller.
 */
#ifndef SCALETEST_DEB_H
#define SCALETEST_DEB_H

#include "lib/strvec.h"

struct deb_pkg {
	char *name;
	char *version;
	char *arch;
	/* A split kernel: the packages that hold it (fetched instead of
	 * name), each with its version; empty otherwise. */
	struct strvec part_names, part_versions;
};
#define DEB_PKG_INIT { NULL, NULL, NULL, STRVEC_INIT, STRVEC_INIT }

int deb_resolve(const char *name, const char *arch, int follow_kernel,
		struct deb_pkg *out);
int deb_fetch_extract(const struct deb_pkg *p, const char *root, const char *log);
void deb_pkg_release(struct deb_pkg *p);

/* Every name, version and arch is checked against Debian's charsets
 * (deb.c) before it reaches apt or a cache path, wherever it came from (a
 * scenario, a memo, apt's own answer). */

/* Where to remember an answer of apt's: "<cache>/apt/<hash>", the hash
 * being of the strings of key (NULL-terminated) and of the names, sizes
 * and times of apt's lists and dpkg's architectures, so that any apt-get
 * update gives a new name.  The caller reads and writes the file.  NULL
 * when the cache cannot be used (said; cache_path()). */
char *deb_memo_path(const char *const *key);

/* The first stanza of apt-cache show output: its version, the first
 * kernel it depends on (linux-image-N.N..., not -dbg), and the parts of a
 * split kernel it depends on (linux-binary-X, linux-modules-X,
 * linux-base-X of one X, each with its "(= version)" or NULL); 0, or -1
 * when there is no valid version. */
#define DEB_PARTS 3
struct deb_stanza {
	char *version;
	char *kernel_dep;
	char *part[DEB_PARTS];		/* binary, modules, base */
	char *part_version[DEB_PARTS];
};
int deb_parse_stanza(const char *buf, struct deb_stanza *st);
void deb_stanza_release(struct deb_stanza *st);
/* The same, version and kernel_dep only (for tests). */
int deb_parse_show(const char *buf, char **version, char **kernel_dep);

#endif
