/* SPDX-License-Identifier: Apache-2.0 */
/*
 * elf: what the harness needs to know of an ELF file, read without
 * running anything: its class and machine, whether a loader maps it, the
 * libraries it needs and where it says to look for them.  fio.c uses it
 * to check the static fio it built and to find the host fio's closure.
 *
 *	struct elf_info e;
 *	if (elf_read("/usr/bin/fio", &e) < 0) ...	// error() names the file
 *	if (elf_is_static(&e)) ...
 *	for (size_t i = 0; i < e.needed.n; i++) ... e.needed.v[i] ...
 *	elf_release(&e);
 *
 * elf_parse() reads an image in memory, for tests and fuzzing; it never
 * trusts an offset: anything that points outside the buffer is an error.
 */
#ifndef SCALETEST_GUEST_ELF_H
#define SCALETEST_GUEST_ELF_H

#include <stddef.h>

#include "lib/strbuf.h"
#include "lib/strvec.h"

struct elf_info {
	int elf_class;		/* EI_CLASS: 1 (ELFCLASS32), 2 (ELFCLASS64) */
	int machine;		/* e_machine: 3 (EM_386), 62 (EM_X86_64) */
	int type;		/* e_type: 2 (ET_EXEC), 3 (ET_DYN) */
	char *interp;		/* PT_INTERP's path; NULL: nothing loads it */
	struct strvec needed;	/* DT_NEEDED, in order */
	struct strvec rpath;	/* DT_RPATH, split on ':' */
	struct strvec runpath;	/* DT_RUNPATH, split on ':' */
};
#define ELF_INFO_INIT { 0, 0, 0, NULL, STRVEC_INIT, STRVEC_INIT, STRVEC_INIT }

/* Little-endian ELF only (x86).  -1 with the reason in err when buf is not
 * one or anything in it points outside len bytes; e is released then. */
int elf_parse(const void *buf, size_t len, struct elf_info *e, struct strbuf *err);
/* The same for a file (mapped, not copied): elf_load() with the reason in
 * err (quiet: the closure tries candidates), elf_read() with error()
 * naming the file. */
int elf_load(const char *path, struct elf_info *e, struct strbuf *err);
int elf_read(const char *path, struct elf_info *e);
void elf_release(struct elf_info *e);
/* 1 if e is a static program (no loader, no libraries). */
int elf_is_static(const struct elf_info *e);

#endif
