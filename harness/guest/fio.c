// SPDX-License-Identifier: Apache-2.0
#include "guest/fio.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest/elf.h"
#include "lib/cache.h"
#include "kernel/apt.h"
#include "kernel/deb.h"
#include "lib/child.h"
#include "scenario/scenario.h"
#include "lib/textscan.h"
#include "lib/util.h"

/* ---- apt-get source --print-uris ---------------------------------------- */

/* A Debian version as it appears in a file name (no epoch). */
static int sane_version(const char *s, size_t n)
{
	if (!n || !isdigit((unsigned char)s[0]))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr(".+~-", s[i]))
			return 0;
	return 1;
}

static int has(const char *line, size_t len, const char *needle)
{
	return memmem(line, len, needle, strlen(needle)) != NULL;
}

/* "fio_3.33-3.dsc" -> "3.33-3", malloc'd; NULL if name is not such a name. */
static char *dsc_version(const char *name)
{
	size_t n = strlen(name);

	if (n < 9 || strncmp(name, "fio_", 4) || strcmp(name + n - 4, ".dsc") ||
	    !sane_version(name + 4, n - 8))
		return NULL;
	return xstrndup(name + 4, n - 8);
}

/* "'URI' fio_V.dsc SIZE HASH": 1 and *version, *dsc set; 0 if not one. */
static int dsc_line(const char *line, size_t len, char **version, char **dsc)
{
	char *copy = xstrndup(line, len);
	char *f[5];
	const char *name;
	size_t n, ulen;
	uint64_t size;
	int ok = 0;

	if (split_fields(copy, f, 4) != 4)
		goto out;
	name = f[1];
	n = strlen(name);
	ulen = strlen(f[0]);
	if (parse_u64(f[2], &size) < 0 || !*f[3])
		goto out;
	/* The quoted URI ends in "/<name>'". */
	if (ulen < n + 3 || f[0][0] != '\'' || f[0][ulen - 1] != '\'' ||
	    f[0][ulen - n - 2] != '/' || strncmp(f[0] + ulen - n - 1, name, n))
		goto out;
	if (!(*version = dsc_version(name)))
		goto out;
	*dsc = xstrdup(name);
	ok = 1;
out:
	free(copy);
	return ok;
}

int fio_parse_print_uris(const char *buf, char **version, char **dsc)
{
	struct line_iter it;
	int no_src = 0, not_found = 0, found = 0, other_error = 0;

	*version = *dsc = NULL;
	line_iter_init(&it, buf, strlen(buf));
	while (line_next(&it)) {
		if (it.len >= 3 && !strncmp(it.line, "E: ", 3)) {
			if (has(it.line, it.len, "'deb-src' URIs"))
				no_src = 1;
			else if (has(it.line, it.len, "Unable to find a source package"))
				not_found = 1;
			else
				other_error = 1;
			continue;
		}
		if (!it.len || it.line[0] != '\'')
			continue;
		char *v = NULL, *d = NULL;
		if (dsc_line(it.line, it.len, &v, &d)) {
			found++;
			free(*version);
			free(*dsc);
			*version = v;
			*dsc = d;
		}
	}
	if (found == 1 && !no_src && !not_found && !other_error)
		return FIO_SRC_OK;
	free(*version);
	free(*dsc);
	*version = *dsc = NULL;
	if (no_src)
		return FIO_SRC_NO_DEB_SRC;
	if (not_found)
		return FIO_SRC_NOT_FOUND;
	return FIO_SRC_BAD;
}

/* ---- the static binary's check (guest/elf.h) ----------------------------- */

int fio_check_static(const char *path, int arch)
{
	struct elf_info e;
	int want_class = arch == ARCH_I386 ? ELFCLASS32 : ELFCLASS64;
	int want_machine = arch == ARCH_I386 ? EM_386 : EM_X86_64;
	int r = -1;

	if (elf_read(path, &e) < 0)
		return -1;
	if (e.elf_class != want_class || e.machine != want_machine)
		error("'%s' is a %d-bit ELF for machine %d, not for %s", path,
		      e.elf_class == ELFCLASS32 ? 32 : 64, e.machine, arch_name(arch));
	else if (e.type != ET_EXEC && e.type != ET_DYN)
		error("'%s' is not an executable (ELF type %d)", path, e.type);
	else if (e.interp)
		error("'%s' is dynamically linked (its loader is '%s')", path, e.interp);
	else if (e.needed.n)
		error("'%s' needs shared libraries (%s, ...)", path, e.needed.v[0]);
	else
		r = 0;
	elf_release(&e);
	return r;
}

/* ---- the host's fio and its libraries ----------------------------------- */

/* dir with $ORIGIN / ${ORIGIN} replaced by origin; NULL when it holds
 * another $ token ($LIB, $PLATFORM) or is not absolute afterwards. */
static char *expand_origin(const char *dir, const char *origin)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = dir; *p; ) {
		if (!strncmp(p, "$ORIGIN", 7)) {
			sb_adds(&sb, origin);
			p += 7;
		} else if (!strncmp(p, "${ORIGIN}", 9)) {
			sb_adds(&sb, origin);
			p += 9;
		} else if (*p == '$') {
			sb_release(&sb);
			return NULL;
		} else {
			sb_addch(&sb, *p++);
		}
	}
	if (sb.buf[0] != '/') {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

/* name in the directories of dirs; the first ELF of the wanted class and
 * machine (the loader skips others), malloc'd, or NULL. */
static char *lookup_in(const char *name, const char *const *dirs, size_t ndirs,
		       const char *origin, const struct elf_info *want)
{
	for (size_t i = 0; i < ndirs; i++) {
		char *dir = expand_origin(dirs[i], origin);
		char *cand;
		struct elf_info e;
		struct strbuf err = STRBUF_INIT;

		if (!dir)
			continue;
		cand = xstrfmt("%s/%s", dir, name);
		free(dir);
		if (elf_load(cand, &e, &err) == 0) {
			int ok = e.elf_class == want->elf_class &&
				 e.machine == want->machine;
			elf_release(&e);
			if (ok) {
				sb_release(&err);
				return cand;
			}
		}
		sb_release(&err);
		free(cand);
	}
	return NULL;
}

/* The directory of an absolute path, malloc'd ("/" for "/x"). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}

/*
 * Where the loader would find DT_NEEDED name of obj (at obj_path), in
 * glibc's order less LD_LIBRARY_PATH and ld.so.cache: obj's DT_RPATH and
 * then the program's (each only where that object has no DT_RUNPATH),
 * obj's DT_RUNPATH, the standard directories.  malloc'd, or NULL.
 */
static char *resolve_needed(const char *name, const struct elf_info *obj,
			    const char *obj_path, const struct elf_info *prog,
			    const char *prog_path)
{
	static const char *const libdirs[] = FIO_LIB_DIRS;
	char *origin, *porigin, *found = NULL;

	if (strchr(name, '/'))
		return name[0] == '/' && path_exists(name) ? xstrdup(name) : NULL;
	origin = dir_of(obj_path);
	porigin = dir_of(prog_path);
	if (!obj->runpath.n)
		found = lookup_in(name, (const char *const *)obj->rpath.v,
				  obj->rpath.n, origin, prog);
	if (!found && obj != prog && !prog->runpath.n)
		found = lookup_in(name, (const char *const *)prog->rpath.v,
				  prog->rpath.n, porigin, prog);
	if (!found)
		found = lookup_in(name, (const char *const *)obj->runpath.v,
				  obj->runpath.n, origin, prog);
	if (!found)
		found = lookup_in(name, libdirs, ARRAY_SIZE(libdirs) - 1, origin, prog);
	free(porigin);
	free(origin);
	return found;
}

/* Append path unless the same file is there already: 1 added, 0 a
 * duplicate, -1 error. */
static int closure_add(const char *path, struct strvec *files,
		       struct strvec *seen)
{
	char real[PATH_MAX];

	if (!realpath(path, real))
		return error_errno("cannot resolve '%s'", path);
	if (strvec_find(seen, real) >= 0)
		return 0;
	strvec_push(seen, real);
	strvec_push(files, path);
	return 1;
}

int fio_host_closure(const char *fio, struct strvec *files)
{
	const char *prog = fio ? fio : FIO_HOST_PATH;
	struct strvec seen = STRVEC_INIT;
	struct elf_info pe = ELF_INFO_INIT;
	size_t start = files->n;
	char *abs;
	int r = -1;

	if (!path_exists(prog)) {
		if (!fio)
			return error_env("'%s' not found: install Debian's fio package "
					 "(make deps-test)", prog);
		return error("'%s' does not exist", prog);
	}
	abs = absolute_path(prog);
	if (!abs)
		return error_errno("cannot resolve '%s'", prog);
	if (elf_read(abs, &pe) < 0)
		goto out;
	if (pe.elf_class != ELFCLASS64 || pe.machine != EM_X86_64) {
		error("'%s' is not an x86_64 program: the closure is for x86_64 "
		      "hosts only", abs);
		goto out;
	}
	if (closure_add(abs, files, &seen) < 0)
		goto out;
	if (pe.interp) {
		if (pe.interp[0] != '/' || !path_exists(pe.interp)) {
			error("'%s' asks for the loader '%s', which does not exist",
			      abs, pe.interp);
			goto out;
		}
		if (closure_add(pe.interp, files, &seen) < 0)
			goto out;
	}
	/* Breadth first: files itself is the queue. */
	for (size_t i = start; i < files->n; i++) {
		struct elf_info e;
		const struct elf_info *obj = &pe;

		if (i == start) {
			e = (struct elf_info)ELF_INFO_INIT;
		} else {
			if (elf_read(files->v[i], &e) < 0)
				goto out;
			obj = &e;
		}
		for (size_t j = 0; j < obj->needed.n; j++) {
			char *lib = resolve_needed(obj->needed.v[j], obj,
						   files->v[i], &pe, abs);
			if (!lib) {
				error("cannot find '%s', needed by '%s', in its "
				      "RPATH/RUNPATH or the standard library "
				      "directories", obj->needed.v[j], files->v[i]);
				elf_release(&e);
				goto out;
			}
			int added = closure_add(lib, files, &seen);
			free(lib);
			if (added < 0) {
				elf_release(&e);
				goto out;
			}
		}
		elf_release(&e);
	}
	r = 0;
out:
	if (r < 0) {
		for (size_t i = start; i < files->n; i++)
			free(files->v[i]);
		files->n = start;
		if (files->alloc)
			files->v[start] = NULL;
	}
	elf_release(&pe);
	strvec_clear(&seen);
	free(abs);
	return r;
}

/* ---- building the static fio -------------------------------------------- */

/* apt's messages are parsed (fio_parse_print_uris): in English. */
static const char *const apt_env[] = { "LC_ALL=C", NULL };

/* The version apt-get source would fetch, remembered (as the .dsc's name)
 * until apt's lists change: asking apt costs a second or more. */
static int source_version(char **version, char **dsc)
{
	const char *key[] = { "fio print-uris v1", NULL };
	struct strvec av = STRVEC_INIT;
	char *memo = deb_memo_path(key);
	struct strbuf out = STRBUF_INIT;
	struct child_opts o = CHILD_OPTS_INIT;
	struct child_result res;
	int r = -1, p;

	*version = *dsc = NULL;
	if (!memo)
		return ERR_ENV;	/* the cache: said */
	if (cache_read_small(memo, &out, 512) == 0) {
		/* validated: a .dsc name of Debian's charset, no '/' */
		sb_setlen(&out, strcspn(out.buf, "\n"));
		if ((*version = dsc_version(out.buf))) {
			*dsc = sb_detach(&out, NULL);
			r = 0;
			goto out;
		}
	}
	sb_reset(&out);
	if (!have_program("apt-get")) {
		r = error_env("apt-get not found: the static fio is built from Debian's "
			      "fio source package");
		goto out;
	}
	o.capture = &out;
	o.env = apt_env;
	o.timeout = 300;
	apt_argv(&av, "apt-get");
	strvec_push(&av, "source");
	strvec_push(&av, "--print-uris");
	strvec_push(&av, "fio");
	if ((r = child_run((const char *const *)av.v, &o, &res)) < 0)
		goto out;
	r = -1;
	p = fio_parse_print_uris(out.buf, version, dsc);
	if (p == FIO_SRC_NO_DEB_SRC) {
		r = error_env("apt has no deb-src entries, so it cannot fetch fio's "
			      "source: run 'make deps', which enables Debian's source "
			      "packages");
	} else if (p == FIO_SRC_NOT_FOUND) {
		r = error_env("apt knows no source package 'fio': run 'make deps' "
			      "(it enables Debian's source packages and runs apt-get "
			      "update)");
	} else if (p < 0 || !child_ok(&res)) {
		struct strbuf tail = STRBUF_INIT;

		/* The last lines say why (the first are apt's chatter). */
		for (size_t n = out.len, lines = 0; n > 0; n--)
			if (out.buf[n - 1] == '\n' && n != out.len && ++lines >= 3) {
				sb_adds(&tail, out.buf + n);
				break;
			}
		if (!tail.len)
			sb_adds(&tail, out.buf);
		error("cannot tell which fio source 'apt-get source --print-uris "
		      "fio' would fetch (%s); it said:\n%s", child_describe(&res),
		      tail.buf);
		sb_release(&tail);
	} else {
		char *line = xstrfmt("%s\n", *dsc);
		cache_write_small(memo, line);
		free(line);
		r = 0;
	}
out:
	if (r < 0) {
		free(*version);
		free(*dsc);
		*version = *dsc = NULL;
	}
	strvec_clear(&av);
	sb_release(&out);
	free(memo);
	return r;
}

/* Can this host link a static program for arch at all? */
static int probe_compiler(int arch, const char *dir, const char *log)
{
	static const char prog[] = "int main(void) { return 0; }\n";
	char *c = xstrfmt("%s/probe.c", dir), *x = xstrfmt("%s/probe", dir);
	const char *argv[] = { "gcc", arch == ARCH_I386 ? "-m32" : "-m64",
			       "-static", "-o", x, c, NULL };
	struct child_opts o = CHILD_OPTS_INIT;
	struct child_result res;
	int r = -1;

	if (!have_program("gcc")) {
		r = error_env("gcc not found: install gcc (make deps)");
		goto out;
	}
	if (write_file(c, prog, strlen(prog)) < 0)
		goto out;
	o.log = log;
	o.timeout = 120;
	if ((r = child_run(argv, &o, &res)) < 0)
		goto out;
	r = -1;
	if (res.outcome == CHILD_INTERRUPTED) {
		error("gcc: interrupted");
		goto out;
	}
	if (!child_ok(&res)) {
		if (arch == ARCH_I386)
			r = error_env("gcc cannot link a static 32-bit program (gcc -m32 "
				      "-static; see '%s'): install gcc-multilib "
				      "libc6-dev-i386 (make deps)", log);
		else
			r = error_env("gcc cannot link a static program (gcc -static; "
				      "see '%s'): install libc6-dev (make deps)", log);
		goto out;
	}
	r = 0;
out:
	unlink(c);
	unlink(x);
	free(c);
	free(x);
	return r;
}

/* Build the static fio into the directory tmp (tmp/fio), leaving nothing
 * else there: a cache entry once renamed. */
static int fio_build(int arch, const char *version, const char *dsc,
		     const char *tmp, const char *log)
{
	const char *an = arch_name(arch);
	char *work = xstrfmt("%s/build", tmp);
	char *src = xstrfmt("%s/src", work);
	char *configure = xstrfmt("%s/configure", src);
	char *dscpath = xstrfmt("%s/%s", work, dsc);
	char *built = xstrfmt("%s/fio", src);
	char *out = xstrfmt("%s/fio", tmp);
	char *jobs = xstrfmt("-j%ld", sysconf(_SC_NPROCESSORS_ONLN) > 0 ?
			     sysconf(_SC_NPROCESSORS_ONLN) : 1L);
	char *label = xstrfmt("fio %s %s: make", version, an);
	int i386 = arch == ARCH_I386;
	double t0 = now_monotonic();
	int r = -1;

	if (mkdir_p(work, 0755) < 0)
		goto out;
	if (!have_program("dpkg-source")) {
		r = error_env("dpkg-source not found: install dpkg-dev (make deps)");
		goto out;
	}
	if (!have_program("make") || !have_program("strip")) {
		r = error_env("make or strip not found: install make and binutils "
			      "(make deps)");
		goto out;
	}
	if ((r = probe_compiler(arch, work, log)) < 0)
		goto out;
	r = -1;
	note("fio %s for %s: building a static binary from Debian's source "
	     "(once)", version, an);

	struct strvec get = STRVEC_INIT;
	struct child_opts o = CHILD_OPTS_INIT;
	struct child_result res;

	apt_argv(&get, "apt-get");
	strvec_push(&get, "source");
	strvec_push(&get, "--download-only");
	strvec_push(&get, "-q");
	strvec_push(&get, "fio");

	o.dir = work;
	o.env = apt_env;
	o.log = log;
	o.timeout = 1800;
	r = child_run((const char *const *)get.v, &o, &res);
	strvec_clear(&get);
	if (r < 0)
		goto out;
	r = -1;
	if (!child_ok(&res)) {
		r = error_env("apt-get source --download-only fio failed (%s); see '%s'",
			      child_describe(&res), log);
		goto out;
	}
	if (!path_exists(dscpath)) {
		error("apt-get source fetched no '%s' (did apt's lists change? "
		      "try again)", dsc);
		goto out;
	}
	const char *unpack[] = { "dpkg-source", "-x", dsc, "src", NULL };
	if ((r = child_step(unpack, work, NULL, log, 600, NULL, "dpkg-source -x")) < 0)
		goto out;
	r = -1;

	/* Nothing of our environment's compiler flags: the cache key is the
	 * version and the arch.  configure records LDFLAGS (with -m32) in
	 * config-host.mak, which make appends to.  The work tree's name
	 * holds our pid; keep it out of the binary (assert messages carry
	 * __FILE__), so that the same source, compiler and libc give the
	 * same bytes.  configure splits --extra-cflags on blanks, so a path
	 * with blanks goes without the map. */
	char *xcflags = strpbrk(src, " \t\n") ? xstrdup(i386 ? "-m32" : "")
		: xstrfmt("%s-ffile-prefix-map=%s=fio-%s", i386 ? "-m32 " : "",
			  src, version);
	char *xopt = xstrfmt("--extra-cflags=%s", xcflags);
	const char *cenv[] = { "CFLAGS=", i386 ? "LDFLAGS=-m32" : "LDFLAGS=",
			       "CPPFLAGS=", "MAKEFLAGS=", NULL };
	const char *conf[] = { configure, "--build-static", "--disable-native",
			       "--cc=gcc", *xcflags ? xopt : NULL, NULL };
	r = child_step(conf, src, cenv, log, 600, NULL, "fio's configure");
	free(xopt);
	free(xcflags);
	if (r < 0)
		goto out;
	const char *menv[] = { "CFLAGS=", "LDFLAGS=", "CPPFLAGS=", "MAKEFLAGS=",
			       "MFLAGS=", NULL };
	const char *mk[] = { "make", jobs, "fio", NULL };
	if ((r = child_step(mk, src, menv, log, 3600, label, "make fio")) < 0)
		goto out;
	const char *strip[] = { "strip", "-o", out, built, NULL };
	if ((r = child_step(strip, NULL, NULL, log, 120, NULL, "strip")) < 0)
		goto out;
	if ((r = fio_check_static(out, arch)) < 0 || (r = remove_tree(work)) < 0)
		goto out;
	note("fio %s for %s: built in %.0f s", version, an, now_monotonic() - t0);
	r = 0;
out:
	free(label);
	free(jobs);
	free(out);
	free(built);
	free(dscpath);
	free(configure);
	free(src);
	free(work);
	return r;
}

int fio_obtain(int arch, const char *log, char **path)
{
	char *version = NULL, *dsc = NULL, *entry = NULL, *bin = NULL;
	struct cache_txn txn;
	int r = -1, got;

	*path = NULL;
	if (arch != ARCH_X86_64 && arch != ARCH_I386)
		return error("fio: unknown arch %d", arch);
	if (!log)
		return error("fio: a build log is needed");
	if ((r = apt_use_userland(log)) < 0 || (r = source_version(&version, &dsc)) < 0)
		return r;
	r = -1;
	if (!(entry = cache_path("fio/%s_%s", version, arch_name(arch)))) {
		r = ERR_ENV;
		goto out;
	}
	bin = xstrfmt("%s/fio", entry);
	got = cache_begin(&txn, entry);
	if (got == 0 && (got = fio_build(arch, version, dsc, txn.tmp, log)) == 0)
		got = cache_commit(&txn);
	cache_end(&txn);
	if (got < 0) {
		r = got;
		goto out;
	}
	if (fio_check_static(bin, arch) < 0) {
		error("cache entry '%s' is broken; remove it", entry);
		goto out;
	}
	*path = bin;
	bin = NULL;
	r = 0;
out:
	free(bin);
	free(entry);
	free(version);
	free(dsc);
	return r;
}
