/* SPDX-License-Identifier: Apache-2.0 */
/*
 * moddep: which module files a guest needs, and in what order to load them.
 *
 * Answers "to have virtio_scsi, insmod these files in this order" the way
 * modprobe does (its --show-depends), with libkmod over the indexes depmod
 * writes (modules.dep.bin, modules.alias.bin, modules.builtin.bin and
 * modules.softdep): the dependencies, and the soft dependencies that a
 * module or its depmod index names ("softdep X pre: Y post: Z"), each
 * resolved through aliases.  The host's own configuration (modprobe.d,
 * its loaded modules) plays no part: only the tree is read.
 *
 *	struct moddep d = MODDEP_INIT;
 *	if (moddep_open(&d, "/x/lib/modules/6.12.0", &err) < 0) ...	// err says why
 *	struct strvec order = STRVEC_INIT, soft = STRVEC_INIT;	// paths in the tree
 *	moddep_closure(&d, "sd_mod", &order, &soft, &err);	// appends what is new
 *	moddep_closure(&d, "scsi_debug", &order, &soft, &err);
 *	moddep_release(&d);
 *
 * A module that is built in adds nothing; one that is neither a module
 * nor built in is an error naming it.  Paths may end in .ko, .ko.xz,
 * .ko.zst or .ko.gz (modfile.h reads them all).  A tree without
 * modules.dep (or without the binary index depmod writes beside it) is an
 * error that says to run depmod.  Not reentrant: libkmod's dry run
 * reports the modules through a callback without a context pointer.
 */
#ifndef SCALETEST_MODDEP_H
#define SCALETEST_MODDEP_H

#include <stddef.h>

#include "lib/strbuf.h"
#include "lib/strvec.h"

struct kmod_ctx;

struct moddep {
	struct kmod_ctx *ctx;
	char *dir;		/* the tree, absolute, no trailing '/' */
	struct strbuf log;	/* what libkmod said last (its errors) */
};
#define MODDEP_INIT { NULL, NULL, STRBUF_INIT }

/* 0, or -1 with why in err ("'DIR/modules.dep' is missing: ..."). */
int moddep_open(struct moddep *d, const char *dir, struct strbuf *err);
/* Append to order the files needed for name, in modprobe's order: its
 * dependencies deepest first, its soft pre-dependencies, itself, its soft
 * post-dependencies (each of those with its own first); the files
 * that are only soft dependencies (or theirs) also to optional (which may
 * be NULL): they may fail to load, as modprobe allows. */
int moddep_closure(struct moddep *d, const char *name, struct strvec *order,
		   struct strvec *optional, struct strbuf *err);
/* 1 when name is a module of the tree or built in, else 0. */
int moddep_have(struct moddep *d, const char *name);
void moddep_release(struct moddep *d);

/* "kernel/drivers/scsi/sd_mod.ko.xz" -> "sd_mod" (normalised: '-' -> '_'). */
void module_name(const char *path, char *out, size_t n);

#endif
