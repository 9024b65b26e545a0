/* SPDX-License-Identifier: Apache-2.0 */
/*
 * override: the kernel shorthands of scaletest run, as scenario keys.
 *
 *   --kernel BZIMAGE [--modules DIR]   kernel = files, kernel_image,
 *                                      kernel_modules (default: the
 *                                      host's /lib/modules/VERSION, the
 *                                      version read from the image)
 *   --source TREE|debian [--patches P] kernel = build, kernel_source,
 *                                      kernel_patches
 *   --patches P alone                  kernel_patches, on a scenario that
 *                                      already has kernel = build
 *
 * They become "key=value" assignments applied like --set, so a scenario
 * file stays the one description of a run (scenario.scn in the run
 * directory holds the result, and fanout children get the same
 * assignments).  An option replaces the kernel the scenario file chose:
 * the file's other kernel keys go back to their defaults, and a note says
 * which lines gave way.  Two choices of the kernel on the command line
 * (--kernel with --source, or with --set kernel_...=) are a usage error
 * naming both.  The image's boot header (kernel.h) gives its arch: a
 * scenario that did not choose one (the default scenario, or no arch line)
 * takes the image's; one that did and differs is an error.
 *
 *	struct kernel_override o = { .image = "bzImage" };
 *	struct strvec sets = STRVEC_INIT, notes = STRVEC_INIT;
 *	if (kernel_override_sets(&o, &s, implicit, &user_sets, &sets, &notes, &err) < 0)
 *		usage error (exit 2) with err.buf
 *	... scenario_open(&s, path, sets + user_sets) ...
 */
#ifndef SCALETEST_KERNEL_OVERRIDE_H
#define SCALETEST_KERNEL_OVERRIDE_H

#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "scenario/scenario.h"

struct kernel_override {
	const char *image;	/* --kernel */
	const char *modules;	/* --modules */
	const char *source;	/* --source */
	const char *patches;	/* --patches */
};

/* Whether any of the options was given. */
int kernel_override_any(const struct kernel_override *o);

/* s: the scenario loaded (without user_sets, the user's own --set
 * "key=value" strings, which are checked for conflicts); implicit: s is
 * the default scenario, not one the user named.  Appends the assignments
 * to sets and what the user should hear to notes: 0, or -1 with err. */
int kernel_override_sets(const struct kernel_override *o, const struct scenario *s,
			 int implicit, const struct strvec *user_sets,
			 struct strvec *sets, struct strvec *notes, struct strbuf *err);

#endif
