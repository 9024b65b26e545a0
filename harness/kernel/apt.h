/* SPDX-License-Identifier: Apache-2.0 */
/*
 * apt: which apt answers the harness's questions about Debian packages
 * (deb.h: the kernel, busybox-static, fio's source).
 *
 * Without a suite it is the host's apt, as configured in /etc/apt.  With a
 * suite (the scenario's kernel_suite: bookworm, trixie-backports, sid,
 * experimental, ...) it is the harness's own: a sources.list, a pin and
 * package lists of its own in the cache, given to apt-get and apt-cache
 * as options (-o Dir::Etc::sourcelist=..., -o Dir::State::Lists=...), so
 * that any Debian host fetches any suite's kernel and the host's
 * sources.list, dpkg architectures and lists are never read or changed.
 * Its lists are fetched by `apt-get update` with every entry signed-by
 * Debian's archive keyring (debian-archive-keyring), so apt checks the
 * signatures as it does for the host; packages are fetched by apt-get
 * download, which checks each .deb against those lists.
 *
 * A suite's lists are a cache entry (cache.h) per day,
 * "<cache>/apt/suites/SUITE/YYYYMMDD": sources.list, preferences, an empty
 * dpkg status, apt.conf (the architectures amd64 and i386, no insecure
 * repositories), lists/.  A failed update (a suite the archive does not
 * have, a signature that does not verify) leaves nothing: the entry is
 * renamed into place only complete.  The two newest days are kept.
 *
 *	if (apt_select(s->kernel_suite, 1, log) < 0) ...	// "" = the host's
 *	struct strvec av = STRVEC_INIT;
 *	apt_argv(&av, "apt-cache");		// "apt-cache" and the options
 *	strvec_push(&av, "show"); ...
 *
 * What a suite means (apt_suite_describe): a release (bookworm, trixie,
 * sid) is its lists as a fresh install of it has them (the release,
 * -updates, -security); an add-on (-security, -backports, experimental)
 * is its release's lists and its own, its own pinned first (990), since
 * backports and experimental are NotAutomatic.
 *
 * Tests and mirrors: SCALETEST_DEBIAN_MIRROR and
 * SCALETEST_DEBIAN_SECURITY_MIRROR replace http://deb.debian.org/debian
 * and .../debian-security, SCALETEST_APT_KEYRING the keyring.
 */
#ifndef SCALETEST_APT_H
#define SCALETEST_APT_H

#include "lib/strbuf.h"
#include "lib/strvec.h"

/* Use the host's apt (suite NULL or "") or the suite's own, fetching its
 * lists when there are none of today (fetch), else taking the newest
 * there are: 0; 1 when fetch is 0 and there are none (a run would fetch
 * them; apt_select_missing() says so); -1 on error (said with
 * error_env: an unknown suite, a failed update, a missing keyring). */
int apt_select(const char *suite, int fetch, const char *log);
/* The guest's userland (busybox-static, fio's source) with a kernel
 * suite: bookworm's, whatever the kernel's suite, so that runs on
 * different kernels differ in the kernel only (the same busybox 1.35 and
 * fio 3.33 on 6.1 and 7.3), and because bookworm has them for i386 as for
 * amd64 (later releases may drop i386) and its sources stay on the
 * mirrors (unstable's move daily); NULL for the host's apt. */
const char *apt_userland_suite(const char *suite);
/* Select the userland suite of the suite selected (nothing for the
 * host's apt): 0, or -1 (said). */
int apt_use_userland(const char *log);
/* The suite selected, or NULL for the host's apt. */
const char *apt_suite(void);
/* Push prog and the options that make it the selected apt. */
void apt_argv(struct strvec *av, const char *prog);
/* The package lists in use (for memo keys): the host's or the suite's. */
const char *apt_lists_dir(void);
/* "bookworm (bookworm, bookworm-updates, bookworm-security from
 * http://deb.debian.org/...)" into sb: what a suite fetches. */
void apt_suite_describe(const char *suite, struct strbuf *sb);
/* Whether name is a suite the harness knows; the known ones, comma
 * separated, into sb when it is not. */
int apt_suite_known(const char *name, struct strbuf *known);
/* The release a suite belongs to ("bookworm" for bookworm-backports). */
const char *apt_suite_release(const char *name);

#endif
