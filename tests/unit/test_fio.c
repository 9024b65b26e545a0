// SPDX-License-Identifier: Apache-2.0
#include <elf.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "guest/elf.h"
#include "guest/fio.h"
#include "scenario/scenario.h"
#include "test.h"
#include "lib/util.h"

/*
 * Fixtures: `apt-get source --print-uris fio` (stdout and stderr) on
 * Debian 12 with deb-src entries (print-uris-fio.txt), with none
 * (print-uris-no-deb-src.txt) and with only bookworm-security's, which has
 * no fio (print-uris-not-found.txt).
 */

TEST(fio_parse_print_uris_bookworm)
{
	char *buf = fixture("fio/print-uris-fio.txt", NULL);
	char *version = NULL, *dsc = NULL;

	CHECK_EQ_INT(fio_parse_print_uris(buf, &version, &dsc), FIO_SRC_OK);
	CHECK_STR(version, "3.33-3");
	CHECK_STR(dsc, "fio_3.33-3.dsc");
	free(version);
	free(dsc);
	free(buf);
}

TEST(fio_parse_print_uris_failures)
{
	char *nosrc = fixture("fio/print-uris-no-deb-src.txt", NULL);
	char *notfound = fixture("fio/print-uris-not-found.txt", NULL);
	char *version = (char *)"x", *dsc = (char *)"y";

	CHECK_EQ_INT(fio_parse_print_uris(nosrc, &version, &dsc), FIO_SRC_NO_DEB_SRC);
	CHECK(version == NULL && dsc == NULL);
	CHECK_EQ_INT(fio_parse_print_uris(notfound, &version, &dsc), FIO_SRC_NOT_FOUND);
	CHECK(version == NULL && dsc == NULL);
	free(nosrc);
	free(notfound);
}

TEST(fio_parse_print_uris_garbage)
{
	static const char *const bad[] = {
		"",
		"Reading package lists...\n",
		/* Only the tarballs, no .dsc. */
		"'http://d/fio_3.33.orig.tar.gz' fio_3.33.orig.tar.gz 6185325 SHA256:d2\n",
		/* Another package's source. */
		"'http://d/fiox_3.33-3.dsc' fiox_3.33-3.dsc 2415 SHA256:c2\n",
		/* The URI does not end in the file's name. */
		"'http://d/evil.dsc' fio_3.33-3.dsc 2415 SHA256:c2\n",
		"'http://d/xfio_3.33-3.dsc' fio_3.33-3.dsc 2415 SHA256:c2\n",
		/* Unquoted URI, missing fields, extra fields, bad size. */
		"http://d/fio_3.33-3.dsc fio_3.33-3.dsc 2415 SHA256:c2\n",
		"'http://d/fio_3.33-3.dsc' fio_3.33-3.dsc 2415\n",
		"'http://d/fio_3.33-3.dsc' fio_3.33-3.dsc 2415 SHA256:c2 more\n",
		"'http://d/fio_3.33-3.dsc' fio_3.33-3.dsc 24x5 SHA256:c2\n",
		/* Versions that must never reach a path or an argv. */
		"'http://d/fio_.dsc' fio_.dsc 1 h\n",
		"'http://d/fio_x3.33.dsc' fio_x3.33.dsc 1 h\n",
		"'http://d/fio_3.33;rm.dsc' fio_3.33;rm.dsc 1 h\n",
		"'http://d/fio_3.33$(reboot).dsc' fio_3.33$(reboot).dsc 1 h\n",
		"'http://d/fio_../../x.dsc' fio_../../x.dsc 1 h\n",
		"'http://d/fio_1:3.33-3.dsc' fio_1:3.33-3.dsc 1 h\n",
		/* Two .dsc lines: which one? */
		"'http://d/fio_3.33-3.dsc' fio_3.33-3.dsc 1 h\n"
		"'http://d/fio_3.34-1.dsc' fio_3.34-1.dsc 1 h\n",
		/* A .dsc line, but apt also said it failed. */
		"'http://d/fio_3.33-3.dsc' fio_3.33-3.dsc 1 h\n"
		"E: Failed to fetch something\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char *version = NULL, *dsc = NULL;
		int r = fio_parse_print_uris(bad[i], &version, &dsc);

		if (r == FIO_SRC_OK)
			test_fail(__FILE__, __LINE__, "case %zu accepted (version '%s')",
				  i, version);
		CHECK(version == NULL && dsc == NULL);
		free(version);
		free(dsc);
	}
}

TEST(fio_parse_print_uris_tilde_and_plus)
{
	static const char text[] =
		"'http://d/pool/main/f/fio/fio_3.36~rc1+dfsg-1.dsc' "
		"fio_3.36~rc1+dfsg-1.dsc 2415 SHA256:abc\n";
	char *version = NULL, *dsc = NULL;

	CHECK_EQ_INT(fio_parse_print_uris(text, &version, &dsc), FIO_SRC_OK);
	CHECK_STR(version, "3.36~rc1+dfsg-1");
	CHECK_STR(dsc, "fio_3.36~rc1+dfsg-1.dsc");
	free(version);
	free(dsc);
}

/* ---- ELF images made by hand ------------------------------------------ */

struct elf_spec {
	int is64;
	int machine;
	const char *interp;
	const char *const *needed;	/* NULL-terminated, or NULL */
	const char *runpath;
	const char *rpath;
};

#define BASE 0x400000u

/* A little-endian ELF executable image in buf (8 KiB); returns its size.
 * One PT_LOAD maps the whole file at BASE. */
static size_t make_elf(unsigned char *buf, const struct elf_spec *s)
{
	size_t ehsz = s->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	size_t phsz = s->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	size_t dynsz = s->is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
	uint64_t dtag[32], dval[32];
	size_t ndyn = 0, nph = 1, off, interp_off = 0, str_off, dyn_off, strsz;
	int has_dyn = (s->needed && s->needed[0]) || s->runpath || s->rpath;
	char strtab[1024];

	memset(buf, 0, 8192);
	if (s->interp)
		nph++;
	if (has_dyn)
		nph++;
	off = ehsz + nph * phsz;
	if (s->interp) {
		interp_off = off;
		memcpy(buf + off, s->interp, strlen(s->interp) + 1);
		off += strlen(s->interp) + 1;
	}
	/* The string table, and the dynamic entries pointing into it. */
	strsz = 1;
	strtab[0] = '\0';
	for (size_t i = 0; s->needed && s->needed[i]; i++) {
		dtag[ndyn] = DT_NEEDED;
		dval[ndyn++] = strsz;
		memcpy(strtab + strsz, s->needed[i], strlen(s->needed[i]) + 1);
		strsz += strlen(s->needed[i]) + 1;
	}
	if (s->runpath) {
		dtag[ndyn] = DT_RUNPATH;
		dval[ndyn++] = strsz;
		memcpy(strtab + strsz, s->runpath, strlen(s->runpath) + 1);
		strsz += strlen(s->runpath) + 1;
	}
	if (s->rpath) {
		dtag[ndyn] = DT_RPATH;
		dval[ndyn++] = strsz;
		memcpy(strtab + strsz, s->rpath, strlen(s->rpath) + 1);
		strsz += strlen(s->rpath) + 1;
	}
	str_off = off;
	memcpy(buf + str_off, strtab, strsz);
	off += strsz;
	off = (off + 7) & ~(size_t)7;
	dyn_off = off;
	dtag[ndyn] = DT_STRTAB;
	dval[ndyn++] = BASE + str_off;
	dtag[ndyn] = DT_STRSZ;
	dval[ndyn++] = strsz;
	dtag[ndyn] = DT_NULL;
	dval[ndyn++] = 0;
	if (has_dyn) {
		for (size_t i = 0; i < ndyn; i++) {
			if (s->is64) {
				Elf64_Dyn d = { (Elf64_Sxword)dtag[i], { dval[i] } };
				memcpy(buf + off, &d, sizeof(d));
			} else {
				Elf32_Dyn d = { (Elf32_Sword)dtag[i], { (Elf32_Word)dval[i] } };
				memcpy(buf + off, &d, sizeof(d));
			}
			off += dynsz;
		}
	}

	/* Headers. */
	unsigned char ident[EI_NIDENT] = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3,
		(unsigned char)(s->is64 ? ELFCLASS64 : ELFCLASS32), ELFDATA2LSB,
		EV_CURRENT };
	struct { uint32_t type; uint64_t offset, filesz; } ph[3];
	size_t k = 0;

	ph[k].type = PT_LOAD;
	ph[k].offset = 0;
	ph[k++].filesz = off;
	if (s->interp) {
		ph[k].type = PT_INTERP;
		ph[k].offset = interp_off;
		ph[k++].filesz = strlen(s->interp) + 1;
	}
	if (has_dyn) {
		ph[k].type = PT_DYNAMIC;
		ph[k].offset = dyn_off;
		ph[k++].filesz = ndyn * dynsz;
	}
	if (s->is64) {
		Elf64_Ehdr h;
		memset(&h, 0, sizeof(h));
		memcpy(h.e_ident, ident, EI_NIDENT);
		h.e_type = ET_EXEC;
		h.e_machine = (Elf64_Half)s->machine;
		h.e_version = EV_CURRENT;
		h.e_phoff = ehsz;
		h.e_ehsize = (Elf64_Half)ehsz;
		h.e_phentsize = (Elf64_Half)phsz;
		h.e_phnum = (Elf64_Half)nph;
		memcpy(buf, &h, sizeof(h));
		for (size_t i = 0; i < k; i++) {
			Elf64_Phdr p;
			memset(&p, 0, sizeof(p));
			p.p_type = ph[i].type;
			p.p_offset = ph[i].offset;
			p.p_vaddr = BASE + ph[i].offset;
			p.p_filesz = p.p_memsz = ph[i].filesz;
			memcpy(buf + ehsz + i * phsz, &p, sizeof(p));
		}
	} else {
		Elf32_Ehdr h;
		memset(&h, 0, sizeof(h));
		memcpy(h.e_ident, ident, EI_NIDENT);
		h.e_type = ET_EXEC;
		h.e_machine = (Elf32_Half)s->machine;
		h.e_version = EV_CURRENT;
		h.e_phoff = (Elf32_Off)ehsz;
		h.e_ehsize = (Elf32_Half)ehsz;
		h.e_phentsize = (Elf32_Half)phsz;
		h.e_phnum = (Elf32_Half)nph;
		memcpy(buf, &h, sizeof(h));
		for (size_t i = 0; i < k; i++) {
			Elf32_Phdr p;
			memset(&p, 0, sizeof(p));
			p.p_type = ph[i].type;
			p.p_offset = (Elf32_Off)ph[i].offset;
			p.p_vaddr = (Elf32_Addr)(BASE + ph[i].offset);
			p.p_filesz = p.p_memsz = (Elf32_Word)ph[i].filesz;
			memcpy(buf + ehsz + i * phsz, &p, sizeof(p));
		}
	}
	return off;
}

/* Parse a copy of exactly len bytes, so that a sanitizer sees overreads. */
static int parse_copy(const unsigned char *buf, size_t len, struct elf_info *e,
		      struct strbuf *err)
{
	unsigned char *copy = xmalloc(len ? len : 1);
	int r;

	memcpy(copy, buf, len);
	r = elf_parse(copy, len, e, err);
	free(copy);
	return r;
}

static unsigned char *read_whole(const char *path, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;

	if (sb_read_file(&sb, path) < 0) {
		sb_release(&sb);
		return NULL;
	}
	return (unsigned char *)sb_detach(&sb, len);
}

TEST(elf_static_i386)
{
	unsigned char buf[8192];
	struct elf_spec s = { 0, EM_386, NULL, NULL, NULL, NULL };
	size_t len = make_elf(buf, &s);
	struct elf_info e;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(parse_copy(buf, len, &e, &err), 0);
	CHECK_EQ_INT(e.elf_class, ELFCLASS32);
	CHECK_EQ_INT(e.machine, EM_386);
	CHECK_EQ_INT(e.type, ET_EXEC);
	CHECK(e.interp == NULL);
	CHECK_EQ_INT(e.needed.n, 0);
	CHECK(elf_is_static(&e));
	elf_release(&e);
	sb_release(&err);
}

TEST(elf_dynamic_i386)
{
	unsigned char buf[8192];
	const char *needed[] = { "libm.so.6", "libc.so.6", NULL };
	struct elf_spec s = { 0, EM_386, "/lib/ld-linux.so.2", needed, NULL, NULL };
	size_t len = make_elf(buf, &s);
	struct elf_info e;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(parse_copy(buf, len, &e, &err), 0);
	CHECK_STR(err.buf, "");
	CHECK_EQ_INT(e.elf_class, ELFCLASS32);
	CHECK_STR(e.interp, "/lib/ld-linux.so.2");
	REQUIRE(e.needed.n == 2);
	CHECK_STR(e.needed.v[0], "libm.so.6");
	CHECK_STR(e.needed.v[1], "libc.so.6");
	CHECK(!elf_is_static(&e));
	elf_release(&e);
	sb_release(&err);
}

TEST(elf_runpath_and_rpath_split)
{
	unsigned char buf[8192];
	const char *needed[] = { "libx.so.1", NULL };
	struct elf_spec s = { 1, EM_X86_64, "/lib64/ld-linux-x86-64.so.2", needed,
			      "$ORIGIN/../lib::/opt/y", "/r1:/r2" };
	size_t len = make_elf(buf, &s);
	struct elf_info e;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(parse_copy(buf, len, &e, &err), 0);
	REQUIRE(e.runpath.n == 2);		/* the empty entry is dropped */
	CHECK_STR(e.runpath.v[0], "$ORIGIN/../lib");
	CHECK_STR(e.runpath.v[1], "/opt/y");
	REQUIRE(e.rpath.n == 2);
	CHECK_STR(e.rpath.v[0], "/r1");
	CHECK_STR(e.rpath.v[1], "/r2");
	elf_release(&e);
	sb_release(&err);
}

TEST(elf_every_truncation_fails_cleanly)
{
	unsigned char buf[8192];
	const char *needed[] = { "liba.so.1", "libb.so.2", NULL };
	struct elf_spec s = { 1, EM_X86_64, "/lib64/ld-linux-x86-64.so.2", needed,
			      "/x", NULL };
	size_t len = make_elf(buf, &s);

	for (size_t n = 0; n < len; n++) {
		struct elf_info e;
		struct strbuf err = STRBUF_INIT;

		/* The image ends with the dynamic array, so every prefix
		 * cuts something the parser needs. */
		if (parse_copy(buf, n, &e, &err) != -1)
			test_fail(__FILE__, __LINE__, "prefix of %zu bytes accepted", n);
		else if (!err.len)
			test_fail(__FILE__, __LINE__, "prefix of %zu bytes: no reason", n);
		CHECK(e.interp == NULL && e.needed.n == 0);
		sb_release(&err);
	}
}

TEST(elf_bad_headers)
{
	unsigned char buf[8192];
	const char *needed[] = { "liba.so.1", NULL };
	struct elf_spec s = { 1, EM_X86_64, "/lib64/ld-linux-x86-64.so.2", needed,
			      NULL, NULL };
	size_t len = make_elf(buf, &s);
	unsigned char *b = xmalloc(len);
	struct elf_info e;
	struct strbuf err = STRBUF_INIT;

#define TRY(mutate, reason) do {					\
		memcpy(b, buf, len);					\
		mutate;							\
		sb_reset(&err);						\
		CHECK_EQ_INT(elf_parse(b, len, &e, &err), -1);	\
		CHECK_CONTAINS(err.buf, reason);			\
	} while (0)

	TRY(b[0] = 0x7e, "not an ELF");
	TRY(b[EI_CLASS] = 3, "class");
	TRY(b[EI_DATA] = ELFDATA2MSB, "little-endian");
	/* e_phoff far away; a huge e_phnum; a tiny e_phentsize. */
	TRY(b[offsetof(Elf64_Ehdr, e_phoff) + 5] = 0x7f, "program headers");
	TRY(b[offsetof(Elf64_Ehdr, e_phnum)] = 0xfe, "program headers");
	TRY(b[offsetof(Elf64_Ehdr, e_phentsize)] = 8, "program headers");
	TRY(memset(b + offsetof(Elf64_Ehdr, e_phnum), 0xff, 2), "extended");
	/* PT_INTERP's string without its NUL (filesz one short). */
	TRY(b[sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr) +
	      offsetof(Elf64_Phdr, p_filesz)]--, "PT_INTERP");
	/* PT_DYNAMIC's offset outside the file. */
	TRY(b[sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr) +
	      offsetof(Elf64_Phdr, p_offset) + 4] = 1, "PT_DYNAMIC");
#undef TRY
	free(b);
	sb_release(&err);
}

TEST(elf_bad_dynamic_strings)
{
	unsigned char buf[8192];
	const char *needed[] = { "liba.so.1", NULL };
	struct elf_spec s = { 1, EM_X86_64, NULL, needed, NULL, NULL };
	size_t len = make_elf(buf, &s);
	/* The dynamic array ends the image: NEEDED, STRTAB, STRSZ, NULL. */
	size_t dyn = len - 4 * sizeof(Elf64_Dyn);
	struct elf_info e;
	struct strbuf err = STRBUF_INIT;
	Elf64_Dyn d;

	/* DT_NEEDED pointing past DT_STRSZ. */
	memcpy(&d, buf + dyn, sizeof(d));
	REQUIRE(d.d_tag == DT_NEEDED);
	d.d_un.d_val = 4000;
	memcpy(buf + dyn, &d, sizeof(d));
	CHECK_EQ_INT(parse_copy(buf, len, &e, &err), -1);
	CHECK_CONTAINS(err.buf, "bad dynamic string");

	/* DT_NEEDED pointing at the table's empty string. */
	d.d_un.d_val = 0;
	memcpy(buf + dyn, &d, sizeof(d));
	sb_reset(&err);
	CHECK_EQ_INT(parse_copy(buf, len, &e, &err), -1);

	/* DT_STRTAB at an address no PT_LOAD maps. */
	d.d_un.d_val = 1;
	memcpy(buf + dyn, &d, sizeof(d));
	memcpy(&d, buf + dyn + sizeof(d), sizeof(d));
	REQUIRE(d.d_tag == DT_STRTAB);
	d.d_un.d_ptr = 0x10;
	memcpy(buf + dyn + sizeof(d), &d, sizeof(d));
	sb_reset(&err);
	CHECK_EQ_INT(parse_copy(buf, len, &e, &err), -1);
	CHECK_CONTAINS(err.buf, "string table");

	/* No DT_STRTAB at all. */
	d.d_tag = DT_DEBUG;
	memcpy(buf + dyn + sizeof(d), &d, sizeof(d));
	sb_reset(&err);
	CHECK_EQ_INT(parse_copy(buf, len, &e, &err), -1);
	CHECK_CONTAINS(err.buf, "DT_STRTAB");
	sb_release(&err);
}

TEST(elf_garbage)
{
	unsigned char junk[4096];
	uint32_t x = 12345;
	struct strbuf err = STRBUF_INIT;
	int refused = 0;

	/* Random bytes behind a valid magic and class, many times: each is
	 * refused with a reason and nothing kept (elf.h: "e is released
	 * then"), or read as what its header says, with every string inside
	 * the buffer.  (Under make check-sanitize: without reading outside.) */
	for (int round = 0; round < 2000; round++) {
		struct elf_info e;
		size_t len;
		int r;

		for (size_t i = 0; i < sizeof(junk); i++) {
			x = x * 1103515245u + 12345u;
			junk[i] = (unsigned char)(x >> 16);
		}
		memcpy(junk, ELFMAG, SELFMAG);
		junk[EI_CLASS] = (unsigned char)(round % 2 ? ELFCLASS64 : ELFCLASS32);
		junk[EI_DATA] = ELFDATA2LSB;
		len = 16 + (size_t)(x % (sizeof(junk) - 16));
		sb_reset(&err);
		r = parse_copy(junk, len, &e, &err);
		CHECKF(r == 0 || r == -1, "round %d: elf_parse returned %d", round, r);
		if (r < 0) {
			refused++;
			CHECKF(err.len > 0, "round %d: refused without a reason", round);
			CHECKF(!e.elf_class && !e.interp && !e.needed.n && !e.rpath.n &&
			       !e.runpath.n, "round %d: refused (%s) but e kept something",
			       round, err.buf);
			continue;
		}
		CHECKF(e.elf_class == junk[EI_CLASS], "round %d: class %d read as %d", round,
		       junk[EI_CLASS], e.elf_class);
		CHECKF(!e.interp || strlen(e.interp) < len, "round %d: an interpreter longer "
		       "than the image", round);
		for (size_t i = 0; i < e.needed.n; i++)
			CHECKF(strlen(e.needed.v[i]) < len, "round %d: a library name longer "
			       "than the image", round);
		elf_release(&e);
	}
	/* Random offsets and counts point outside 4 kB: the header is really
	 * looked at, not waved through. */
	CHECK(refused > 0);
	sb_release(&err);
}

TEST(elf_mutated_real_program)
{
	size_t len;
	unsigned char *ls = read_whole("/bin/ls", &len);
	uint32_t x = 777;
	struct strbuf err = STRBUF_INIT;

	REQUIRE(ls);
	if (len > 8192)
		len = 8192;	/* the headers, PT_INTERP and usually .dynamic */
	for (int round = 0; round < 3000; round++) {
		unsigned char *b = xmalloc(len);
		struct elf_info e;

		memcpy(b, ls, len);
		for (int k = 0; k < 4; k++) {
			x = x * 1103515245u + 12345u;
			/* Mostly the ELF and program headers. */
			size_t at = (x >> 8) % (k ? 1024 : len);
			b[at] = (unsigned char)(x >> 24);
		}
		sb_reset(&err);
		if (elf_parse(b, len, &e, &err) == 0)
			elf_release(&e);
		free(b);
	}
	free(ls);
	sb_release(&err);
}

/* ---- real programs ------------------------------------------------------ */

TEST(elf_reads_bin_ls_as_dynamic)
{
	struct elf_info e;

	REQUIRE(elf_read("/bin/ls", &e) == 0);
	CHECK_EQ_INT(e.elf_class, ELFCLASS64);
	CHECK_EQ_INT(e.machine, EM_X86_64);
	CHECK_STR(e.interp, "/lib64/ld-linux-x86-64.so.2");
	CHECK(strvec_find(&e.needed, "libc.so.6") >= 0);
	CHECK(!elf_is_static(&e));
	elf_release(&e);

	stderr_capture_begin();
	CHECK_EQ_INT(fio_check_static("/bin/ls", ARCH_X86_64), -1);
	char *msg = stderr_capture_end();
	CHECK_CONTAINS(msg, "dynamically linked");
	free(msg);
}

TEST(elf_reads_bin_busybox_as_static)
{
	struct elf_info e;

	/* Debian's busybox-static; the harness's own tools use it. */
	if (!path_exists("/bin/busybox"))
		SKIP("no /bin/busybox (Debian's busybox-static)");
	REQUIRE(elf_read("/bin/busybox", &e) == 0);
	if (e.interp) {			/* the dynamic busybox package */
		elf_release(&e);
		SKIP("/bin/busybox is the dynamic one (busybox, not busybox-static)");
	}
	CHECK_EQ_INT(e.elf_class, ELFCLASS64);
	CHECK_EQ_INT(e.machine, EM_X86_64);
	CHECK(elf_is_static(&e));
	elf_release(&e);
	CHECK_EQ_INT(fio_check_static("/bin/busybox", ARCH_X86_64), 0);

	stderr_capture_begin();
	CHECK_EQ_INT(fio_check_static("/bin/busybox", ARCH_I386), -1);
	char *msg = stderr_capture_end();
	CHECK_CONTAINS(msg, "64-bit");
	CHECK_CONTAINS(msg, "not for i386");
	free(msg);
}

TEST(elf_read_not_elf)
{
	struct elf_info e;
	char *path = xstrfmt("%s/text", test_tmpdir());

	REQUIRE(write_file(path, "#!/bin/sh\n", 10) == 0);
	stderr_capture_begin();
	CHECK_EQ_INT(elf_read(path, &e), -1);
	CHECK_EQ_INT(elf_read(test_tmpdir(), &e), -1);
	CHECK_EQ_INT(elf_read("/nonexistent/x", &e), -1);
	char *msg = stderr_capture_end();
	CHECK_CONTAINS(msg, "not an ELF file");
	CHECK_CONTAINS(msg, "not a regular");
	free(msg);
	free(path);
}

/* ---- the closure -------------------------------------------------------- */

/* No two entries name the same file; all are absolute. */
static void check_unique(const struct strvec *files)
{
	struct strvec real = STRVEC_INIT;
	char buf[PATH_MAX];

	for (size_t i = 0; i < files->n; i++) {
		if (files->v[i][0] != '/')
			test_fail(__FILE__, __LINE__, "'%s' is not absolute", files->v[i]);
		if (!realpath(files->v[i], buf)) {
			test_fail(__FILE__, __LINE__, "'%s' does not resolve", files->v[i]);
			continue;
		}
		if (strvec_find(&real, buf) >= 0)
			test_fail(__FILE__, __LINE__, "'%s' twice", buf);
		strvec_push(&real, buf);
	}
	strvec_clear(&real);
}

static int has_suffix(const struct strvec *files, const char *suffix)
{
	for (size_t i = 0; i < files->n; i++) {
		size_t n = strlen(files->v[i]), m = strlen(suffix);
		if (n >= m && !strcmp(files->v[i] + n - m, suffix))
			return 1;
	}
	return 0;
}

TEST(fio_closure_of_bin_ls)
{
	struct strvec files = STRVEC_INIT;

	REQUIRE(fio_host_closure("/bin/ls", &files) == 0);
	REQUIRE(files.n >= 3);
	CHECK_STR(files.v[0], "/bin/ls");
	CHECK_STR(files.v[1], "/lib64/ld-linux-x86-64.so.2");
	CHECK(has_suffix(&files, "/libc.so.6"));
	/* libc needs the loader under its own name: still listed once. */
	CHECK(!has_suffix(&files, "/x86_64-linux-gnu/ld-linux-x86-64.so.2"));
	check_unique(&files);
	strvec_clear(&files);
}

TEST(fio_closure_of_a_static_program)
{
	struct strvec files = STRVEC_INIT;

	if (!path_exists("/bin/busybox"))
		SKIP("no /bin/busybox (Debian's busybox-static)");
	strvec_push(&files, "kept");
	REQUIRE(fio_host_closure("/bin/busybox", &files) == 0);
	/* Appended; for a static program, only itself. */
	CHECK_STR(files.v[0], "kept");
	CHECK_EQ_INT(files.n, 2);
	strvec_clear(&files);
}

TEST(fio_closure_of_host_fio)
{
	struct strvec files = STRVEC_INIT;

	if (!path_exists(FIO_HOST_PATH))
		SKIP("no " FIO_HOST_PATH " (make deps-test installs it)");
	REQUIRE(fio_host_closure(NULL, &files) == 0);
	CHECK_STR(files.v[0], FIO_HOST_PATH);
	CHECK_STR(files.v[1], "/lib64/ld-linux-x86-64.so.2");
	CHECK(has_suffix(&files, "/libc.so.6"));
	CHECK(has_suffix(&files, "/libaio.so.1"));
	check_unique(&files);
	strvec_clear(&files);
}

static void write_elf(const char *path, const struct elf_spec *s)
{
	unsigned char buf[8192];
	size_t len = make_elf(buf, s);

	if (write_file(path, buf, len) < 0)
		test_abort(__FILE__, __LINE__, "cannot write '%s'", path);
}

TEST(fio_closure_follows_runpath_origin_and_skips_wrong_class)
{
	const char *t = test_tmpdir();
	char *bin = xstrfmt("%s/bin", t), *lib = xstrfmt("%s/lib", t);
	char *lib32 = xstrfmt("%s/lib32", t);
	char *prog = xstrfmt("%s/prog", bin);
	char *wrong = xstrfmt("%s/libfake.so.1", lib32);
	char *right = xstrfmt("%s/libfake.so.1", lib);
	char *dep = xstrfmt("%s/libdep.so.2", lib);
	const char *pneed[] = { "libfake.so.1", NULL };
	const char *fneed[] = { "libdep.so.2", NULL };
	struct elf_spec sp = { 1, EM_X86_64, "/lib64/ld-linux-x86-64.so.2", pneed,
			       "$ORIGIN/../lib32:${ORIGIN}/../lib", NULL };
	struct elf_spec sw = { 0, EM_386, NULL, NULL, NULL, NULL };
	/* libfake finds libdep through its own RPATH (no RUNPATH). */
	struct elf_spec sf = { 1, EM_X86_64, NULL, fneed, NULL, "$ORIGIN" };
	struct elf_spec sd = { 1, EM_X86_64, NULL, NULL, NULL, NULL };
	struct strvec files = STRVEC_INIT;

	REQUIRE(mkdir(bin, 0755) == 0 && mkdir(lib, 0755) == 0 &&
		mkdir(lib32, 0755) == 0);
	write_elf(prog, &sp);
	write_elf(wrong, &sw);
	write_elf(right, &sf);
	write_elf(dep, &sd);
	REQUIRE(fio_host_closure(prog, &files) == 0);
	REQUIRE(files.n == 4);
	CHECK_STR(files.v[0], prog);
	CHECK_STR(files.v[1], "/lib64/ld-linux-x86-64.so.2");
	CHECK_CONTAINS(files.v[2], "/bin/../lib/libfake.so.1");
	CHECK_CONTAINS(files.v[3], "/bin/../lib/libdep.so.2");
	check_unique(&files);
	strvec_clear(&files);

	/* A library nobody has: an error, and files as it was. */
	const char *missing[] = { "libnowhere.so.9", NULL };
	sp.needed = missing;
	write_elf(prog, &sp);
	strvec_push(&files, "kept");
	stderr_capture_begin();
	CHECK_EQ_INT(fio_host_closure(prog, &files), -1);
	char *msg = stderr_capture_end();
	CHECK_CONTAINS(msg, "libnowhere.so.9");
	CHECK_EQ_INT(files.n, 1);
	CHECK(files.v[1] == NULL);
	free(msg);

	/* Not x86_64: refused. */
	write_elf(prog, &sw);
	stderr_capture_begin();
	CHECK_EQ_INT(fio_host_closure(prog, &files), -1);
	msg = stderr_capture_end();
	CHECK_CONTAINS(msg, "not an x86_64 program");
	free(msg);
	strvec_clear(&files);
	free(bin);
	free(lib);
	free(lib32);
	free(prog);
	free(wrong);
	free(right);
	free(dep);
}
