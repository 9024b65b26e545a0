/*
 * moddep: which module files a guest needs, and in what order to load them.
 *
 * Reads the kernel's modules.dep ("path: dep dep ...", written by depmod)
 * and modules.builtin ("path" per line), and answers "to have virtio_scsi,
 * insmod these files in this order".  Module names compare with '-' and '_'
 * equal, as the kernel does.
 *
 *	struct moddep d = MODDEP_INIT;
 *	moddep_parse(&d, dep_buf, dep_len, &err);
 *	moddep_parse_builtin(&d, builtin_buf, builtin_len, &err);
 *	struct strvec order = STRVEC_INIT;		// relative paths
 *	moddep_closure(&d, "sd_mod", &order, &err);	// appends what is new
 *	moddep_closure(&d, "scsi_debug", &order, &err);
 *	moddep_release(&d);
 *
 * A module that is built in adds nothing; one that is neither a module nor
 * built in is an error naming it.  Compressed modules (.ko.xz, .ko.zst,
 * .ko.gz) are refused: busybox insmod in the guest cannot load them.
 */
#ifndef SCALETEST_MODDEP_H
#define SCALETEST_MODDEP_H

#include <stddef.h>

#include "lib/strbuf.h"
#include "lib/strvec.h"

struct modent {
	char *path;		/* relative to lib/modules/VERSION */
	char name[64];		/* normalised: '-' -> '_', no directory, no .ko */
	char **deps;		/* paths, as depmod lists them */
	size_t ndeps;
};

struct moddep {
	struct modent *m;
	size_t n, alloc;
	struct strvec builtin;	/* normalised names */
};
#define MODDEP_INIT { NULL, 0, 0, STRVEC_INIT }

int moddep_parse(struct moddep *d, const char *buf, size_t len, struct strbuf *err);
int moddep_parse_builtin(struct moddep *d, const char *buf, size_t len,
			 struct strbuf *err);
/* Append to order the files needed for name, dependencies first. */
int moddep_closure(const struct moddep *d, const char *name,
		   struct strvec *order, struct strbuf *err);
int moddep_is_builtin(const struct moddep *d, const char *name);
void moddep_release(struct moddep *d);

/* "kernel/drivers/scsi/sd_mod.ko" -> "sd_mod" (normalised). */
void module_name(const char *path, char *out, size_t n);

#endif
