// SPDX-License-Identifier: Apache-2.0
#include "guest/elf.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"

static uint64_t rd_le(const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* Field m of the ELF structure T at base (any alignment). */
#define GET(base, T, m) \
	rd_le((const unsigned char *)(base) + offsetof(T, m), sizeof(((T *)0)->m))

/* off..off+n lies inside len bytes. */
static int inside(uint64_t off, uint64_t n, size_t len)
{
	return off <= len && n <= len - off;
}

struct phdr {
	uint64_t type, offset, vaddr, filesz;
};

static void read_phdr(const unsigned char *p, int is64, struct phdr *ph)
{
	if (is64) {
		ph->type = GET(p, Elf64_Phdr, p_type);
		ph->offset = GET(p, Elf64_Phdr, p_offset);
		ph->vaddr = GET(p, Elf64_Phdr, p_vaddr);
		ph->filesz = GET(p, Elf64_Phdr, p_filesz);
	} else {
		ph->type = GET(p, Elf32_Phdr, p_type);
		ph->offset = GET(p, Elf32_Phdr, p_offset);
		ph->vaddr = GET(p, Elf32_Phdr, p_vaddr);
		ph->filesz = GET(p, Elf32_Phdr, p_filesz);
	}
}

/* The file offset of virtual address addr, through the PT_LOAD headers. */
static int vaddr_to_offset(const struct phdr *ph, size_t nph, uint64_t addr,
			   uint64_t *off)
{
	for (size_t i = 0; i < nph; i++)
		if (ph[i].type == PT_LOAD && addr >= ph[i].vaddr &&
		    addr - ph[i].vaddr < ph[i].filesz) {
			*off = ph[i].offset + (addr - ph[i].vaddr);
			return 0;
		}
	return -1;
}

/* A NUL-terminated string at off of the string table; NULL if it is not. */
static const char *table_string(const unsigned char *b, uint64_t tab,
				uint64_t tabsz, uint64_t off)
{
	const char *s;

	if (off >= tabsz)
		return NULL;
	s = (const char *)b + tab + off;
	if (!memchr(s, '\0', tabsz - off))
		return NULL;
	return s;
}

static void push_split(struct strvec *sv, const char *s)
{
	while (*s) {
		size_t n = strcspn(s, ":");
		if (n) {
			char *d = xstrndup(s, n);
			strvec_push(sv, d);
			free(d);
		}
		s += n;
		if (*s)
			s++;
	}
}

void elf_release(struct elf_info *e)
{
	free(e->interp);
	strvec_clear(&e->needed);
	strvec_clear(&e->rpath);
	strvec_clear(&e->runpath);
	*e = (struct elf_info)ELF_INFO_INIT;
}

static int parse_dynamic(const unsigned char *b, size_t len, int is64,
			 const struct phdr *ph, size_t nph, const struct phdr *dyn,
			 struct elf_info *e, struct strbuf *err)
{
	size_t entsz = is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
	uint64_t strtab = 0, strsz = 0, tab;
	int have_strtab = 0, have_strsz = 0;
	uint64_t *refs = NULL;		/* string offsets, with their kind */
	int *kinds = NULL;
	size_t nrefs = 0, arefs = 0, akinds = 0;
	int r = -1;

	if (!inside(dyn->offset, dyn->filesz, len)) {
		sb_addf(err, "PT_DYNAMIC lies outside the file");
		return -1;
	}
	for (uint64_t o = 0; o + entsz <= dyn->filesz; o += entsz) {
		const unsigned char *d = b + dyn->offset + o;
		uint64_t tag, val;

		if (is64) {
			tag = GET(d, Elf64_Dyn, d_tag);
			val = GET(d, Elf64_Dyn, d_un);
		} else {
			tag = GET(d, Elf32_Dyn, d_tag);
			val = GET(d, Elf32_Dyn, d_un);
		}
		if (tag == DT_NULL)
			break;
		switch (tag) {
		case DT_STRTAB:
			strtab = val;
			have_strtab = 1;
			break;
		case DT_STRSZ:
			strsz = val;
			have_strsz = 1;
			break;
		case DT_NEEDED:
		case DT_RPATH:
		case DT_RUNPATH:
			ALLOC_GROW(refs, nrefs + 1, arefs);
			ALLOC_GROW(kinds, nrefs + 1, akinds);
			refs[nrefs] = val;
			kinds[nrefs] = (int)tag;
			nrefs++;
			break;
		}
	}
	if (!nrefs) {
		r = 0;
		goto out;
	}
	if (!have_strtab || !have_strsz) {
		sb_addf(err, "dynamic section without DT_STRTAB/DT_STRSZ");
		goto out;
	}
	if (vaddr_to_offset(ph, nph, strtab, &tab) < 0 || !inside(tab, strsz, len)) {
		sb_addf(err, "the dynamic string table lies outside the file");
		goto out;
	}
	for (size_t i = 0; i < nrefs; i++) {
		const char *s = table_string(b, tab, strsz, refs[i]);

		if (!s || (kinds[i] == DT_NEEDED && !*s)) {
			sb_addf(err, "bad dynamic string at offset %llu",
				(unsigned long long)refs[i]);
			goto out;
		}
		if (kinds[i] == DT_NEEDED)
			strvec_push(&e->needed, s);
		else
			push_split(kinds[i] == DT_RPATH ? &e->rpath : &e->runpath, s);
	}
	r = 0;
out:
	free(refs);
	free(kinds);
	return r;
}

int elf_parse(const void *buf, size_t len, struct elf_info *e,
		  struct strbuf *err)
{
	const unsigned char *b = buf;
	uint64_t phoff, phentsize, phnum;
	struct phdr *ph = NULL;
	const struct phdr *dyn = NULL;
	int is64;

	*e = (struct elf_info)ELF_INFO_INIT;
	if (len < EI_NIDENT || memcmp(b, ELFMAG, SELFMAG)) {
		sb_addf(err, "not an ELF file");
		return -1;
	}
	if (b[EI_CLASS] != ELFCLASS32 && b[EI_CLASS] != ELFCLASS64) {
		sb_addf(err, "unknown ELF class %d", b[EI_CLASS]);
		return -1;
	}
	if (b[EI_DATA] != ELFDATA2LSB) {
		sb_addf(err, "not a little-endian ELF file");
		return -1;
	}
	is64 = b[EI_CLASS] == ELFCLASS64;
	if (len < (is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr))) {
		sb_addf(err, "truncated ELF header");
		return -1;
	}
	e->elf_class = b[EI_CLASS];
	if (is64) {
		e->type = (int)GET(b, Elf64_Ehdr, e_type);
		e->machine = (int)GET(b, Elf64_Ehdr, e_machine);
		phoff = GET(b, Elf64_Ehdr, e_phoff);
		phentsize = GET(b, Elf64_Ehdr, e_phentsize);
		phnum = GET(b, Elf64_Ehdr, e_phnum);
	} else {
		e->type = (int)GET(b, Elf32_Ehdr, e_type);
		e->machine = (int)GET(b, Elf32_Ehdr, e_machine);
		phoff = GET(b, Elf32_Ehdr, e_phoff);
		phentsize = GET(b, Elf32_Ehdr, e_phentsize);
		phnum = GET(b, Elf32_Ehdr, e_phnum);
	}
	if (phnum == PN_XNUM) {
		sb_addf(err, "extended program header count is not supported");
		goto bad;
	}
	if (phnum && (phentsize < (is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)) ||
		      !inside(phoff, phentsize * phnum, len))) {
		sb_addf(err, "program headers lie outside the file");
		goto bad;
	}
	ph = xcalloc(phnum ? phnum : 1, sizeof(*ph));
	for (uint64_t i = 0; i < phnum; i++)
		read_phdr(b + phoff + i * phentsize, is64, &ph[i]);
	for (uint64_t i = 0; i < phnum; i++) {
		if (ph[i].type == PT_INTERP) {
			const char *s = (const char *)b + ph[i].offset;
			size_t n;

			if (e->interp || !inside(ph[i].offset, ph[i].filesz, len) ||
			    !ph[i].filesz || !(n = strnlen(s, ph[i].filesz)) ||
			    n == ph[i].filesz) {
				sb_addf(err, "bad PT_INTERP");
				goto bad;
			}
			e->interp = xstrndup(s, n);
		}
		if (ph[i].type == PT_DYNAMIC && !dyn)
			dyn = &ph[i];
	}
	if (dyn && parse_dynamic(b, len, is64, ph, phnum, dyn, e, err) < 0)
		goto bad;
	free(ph);
	return 0;
bad:
	free(ph);
	elf_release(e);
	return -1;
}

/* elf_parse() of a file; -1 with the reason in err (no message). */
int elf_load(const char *path, struct elf_info *e, struct strbuf *err)
{
	struct stat st;
	void *map;
	int fd, r;

	*e = (struct elf_info)ELF_INFO_INIT;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		sb_addf(err, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || !st.st_size) {
		sb_addf(err, "not a regular, non-empty file");
		close(fd);
		return -1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		sb_addf(err, "cannot map it: %s", strerror(errno));
		return -1;
	}
	r = elf_parse(map, (size_t)st.st_size, e, err);
	munmap(map, (size_t)st.st_size);
	return r;
}

int elf_read(const char *path, struct elf_info *e)
{
	struct strbuf err = STRBUF_INIT;
	int r = elf_load(path, e, &err);

	if (r < 0)
		error("cannot read '%s' as ELF: %s", path, err.buf);
	sb_release(&err);
	return r;
}

int elf_is_static(const struct elf_info *e)
{
	return !e->interp && !e->needed.n;
}
