// SPDX-License-Identifier: Apache-2.0
#include "kernel/kbuild.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/cache.h"
#include "kernel/apt.h"
#include "kernel/deb.h"
#include "lib/child.h"
#include "lib/git.h"
#include "lib/textscan.h"
#include "lib/util.h"

void kbuild_spec_init(struct kbuild_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	strvec_init(&spec->fragments);
}

void kbuild_spec_release(struct kbuild_spec *spec)
{
	free(spec->source);
	free(spec->rev);
	free(spec->patches);
	free(spec->base);
	strvec_clear(&spec->fragments);
	kbuild_spec_init(spec);
}

/* "base" -> <root>/kernel-configs/base.config; a path stays a path. */
static char *fragment_path(const char *name, const char *dir)
{
	if (strchr(name, '/'))
		return name[0] == '/' || !dir ? xstrdup(name) : xstrfmt("%s/%s", dir, name);
	return xstrfmt("%s/kernel-configs/%s.config", scaletest_root(), name);
}

int kbuild_spec_from_scenario(const struct scenario *s, struct kbuild_spec *spec,
			      struct strbuf *err)
{
	const char *defaults[] = {
		"base", s->arch == ARCH_I386 ? "i386-highmem" : "x86_64", "fast-boot",
	};
	char *list, *tok, *save = NULL;

	spec->arch = s->arch;
	if (scenario_debian_source(s->kernel_source, NULL, 0) || s->kernel_source[0] == '/' ||
	    !s->dir)
		spec->source = xstrdup(s->kernel_source);
	else
		spec->source = xstrfmt("%s/%s", s->dir, s->kernel_source);
	spec->rev = xstrdup(s->kernel_rev);
	spec->patches = xstrdup(s->kernel_patches);
	spec->base = xstrdup(s->kernel_config_base == CONFIG_DEF ? "defconfig" : "tinyconfig");
	spec->jobs = s->build_jobs ? s->build_jobs : sysconf(_SC_NPROCESSORS_ONLN);
	if (spec->jobs < 1)
		spec->jobs = 1;
	spec->timeout = s->kernel_build_timeout;
	for (size_t i = 0; i < ARRAY_SIZE(defaults); i++) {
		char *p = fragment_path(defaults[i], NULL);
		strvec_push(&spec->fragments, p);
		free(p);
	}
	/* Debian's linux-source-X.Y: what that series changed against the
	 * fragments above (kernel-configs/linux-X.Y.config), when there is one. */
	{
		char series[16];

		if (scenario_debian_source(s->kernel_source, series, sizeof(series)) && *series) {
			/* linux-X.Y, then linux-X.Y-ARCHFRAGMENT (linux-7.2-i386-highmem:
			 * 6.15 removed HIGHMEM64G, leaving HIGHMEM4G). */
			char *names[2] = { xstrfmt("linux-%s", series),
					   xstrfmt("linux-%s-%s", series, defaults[1]) };

			for (int i = 0; i < 2; i++) {
				char *p = fragment_path(names[i], NULL);
				if (path_exists(p))
					strvec_push(&spec->fragments, p);
				free(p);
				free(names[i]);
			}
		}
	}
	list = xstrdup(s->kernel_fragments);
	for (tok = strtok_r(list, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		char *p = fragment_path(tok, s->dir);
		if (strvec_find(&spec->fragments, p) < 0)
			strvec_push(&spec->fragments, p);
		free(p);
	}
	free(list);
	for (size_t i = 0; i < spec->fragments.n; i++)
		if (!path_exists(spec->fragments.v[i])) {
			sb_addf(err, "config fragment '%s' does not exist", spec->fragments.v[i]);
			return -1;
		}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}


int kbuild_fragment_options(const char *buf, size_t len, struct strvec *out,
			    struct strbuf *err)
{
	struct line_iter it;
	struct strbuf line = STRBUF_INIT;

	line_iter_init(&it, buf, len);
	while (line_next(&it)) {
		const char *p;

		sb_reset(&line);
		sb_add(&line, it.line, it.len);
		while (line.len && isspace((unsigned char)line.buf[line.len - 1]))
			sb_setlen(&line, line.len - 1);
		p = line.buf;
		if (!*p)
			continue;
		if (!strncmp(p, "CONFIG_", 7)) {
			const char *eq = strchr(p, '=');
			int ok = eq && eq > p + 7;
			for (const char *c = p + 7; ok && c < eq; c++)
				if (!isalnum((unsigned char)*c) && *c != '_')
					ok = 0;
			if (!ok) {
				sb_addf(err, "line %u: expected CONFIG_NAME=value", it.lineno);
				sb_release(&line);
				return -1;
			}
			strvec_push(out, p);
		} else if (!strncmp(p, "# CONFIG_", 9) && strstr(p, " is not set")) {
			strvec_push(out, p);
		} else if (*p != '#') {
			sb_addf(err, "line %u: not a config option or comment", it.lineno);
			sb_release(&line);
			return -1;
		}
	}
	sb_release(&line);
	return 0;
}

/* The option's name: "CONFIG_X=y" and "# CONFIG_X is not set" -> CONFIG_X */
static void option_name(const char *opt, char *name, size_t n)
{
	const char *p = opt[0] == '#' ? opt + 2 : opt;
	size_t l = strcspn(p, "= ");

	snprintf(name, n, "%.*s", (int)l, p);
}

void kbuild_check_config(const struct strvec *want, const char *config,
			 struct strvec *dropped)
{
	struct strbuf cfg = STRBUF_INIT;

	/* Every line between newlines, the first and last included. */
	sb_addch(&cfg, '\n');
	sb_adds(&cfg, config);
	sb_addch(&cfg, '\n');
	for (size_t i = 0; i < want->n; i++) {
		const char *w = want->v[i];
		char name[128], later[128], *needle = xstrfmt("\n%s\n", w);
		int overridden = 0;

		/* A later fragment that sets the option again wins, as in
		 * merge_config.sh (linux-6.12.config undoes what base.config
		 * asks of 6.1). */
		option_name(w, name, sizeof(name));
		for (size_t j = i + 1; j < want->n && !overridden; j++) {
			option_name(want->v[j], later, sizeof(later));
			overridden = !strcmp(name, later);
		}
		if (!overridden && !strstr(cfg.buf, needle)) {
			/* What did it become? */
			char set[160], unset[160];
			const char *now = "absent";
			snprintf(set, sizeof(set), "\n%s=", name);
			snprintf(unset, sizeof(unset), "\n# %s is not set\n", name);
			const char *p = strstr(cfg.buf, set);
			struct strbuf nowb = STRBUF_INIT;
			if (p) {
				p++;
				sb_add(&nowb, p, strcspn(p, "\n"));
				now = nowb.buf;
			} else if (strstr(cfg.buf, unset)) {
				now = unset + 1;
				unset[strlen(unset) - 1] = '\0';
			}
			/* "is not set" wanted and absent is the same thing. */
			if (!(w[0] == '#' && !p))
				strvec_pushf(dropped, "%s (now: %s)", w, now);
			sb_release(&nowb);
		}
		free(needle);
	}
	sb_release(&cfg);
}

/* ---- helpers that run things ------------------------------------------ */

static char *compiler_version(void)
{
	const char *argv[] = { "gcc", "--version", NULL };
	struct child_opts o = CHILD_OPTS_INIT;
	struct strbuf out = STRBUF_INIT;
	struct child_result res;

	o.capture = &out;
	o.timeout = 30;
	if (child_run(argv, &o, &res) < 0 || !child_ok(&res)) {
		sb_release(&out);
		return NULL;
	}
	sb_setlen(&out, strcspn(out.buf, "\n"));
	return sb_detach(&out, NULL);
}

/* Identity of a source tree: for "debian", the package and version; for
 * a path, every file's name, size and time (so uncommitted edits count). */
struct source {
	char *id;		/* human-readable */
	char *hash;		/* hex: what is built */
	char *tree;		/* hex: which work tree builds it */
	char *commit;		/* git: the commit, else NULL */
	struct deb_pkg pkg;	/* debian */
};

static void walk_tree(struct hash_ctx *h, const char *root, const char *rel)
{
	char *path = *rel ? xstrfmt("%s/%s", root, rel) : xstrdup(root);
	struct strvec names = STRVEC_INIT;
	DIR *d = opendir(path);
	struct dirent *de;

	if (!d) {
		free(path);
		return;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    !(!*rel && !strcmp(de->d_name, ".git")))
			strvec_push(&names, de->d_name);
	closedir(d);
	qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	for (size_t i = 0; i < names.n; i++) {
		char *r = *rel ? xstrfmt("%s/%s", rel, names.v[i]) : xstrdup(names.v[i]);
		char *full = xstrfmt("%s/%s", root, r);
		struct stat st;
		if (lstat(full, &st) == 0) {
			char meta[96];
			snprintf(meta, sizeof(meta), "%o %lld %lld.%09ld", (unsigned)st.st_mode,
				 (long long)st.st_size, (long long)st.st_mtim.tv_sec,
				 st.st_mtim.tv_nsec);
			hash_adds(h, r);
			hash_adds(h, meta);
			if (S_ISDIR(st.st_mode))
				walk_tree(h, root, r);
		}
		free(full);
		free(r);
	}
	strvec_clear(&names);
	free(path);
}

static int source_identify(const struct kbuild_spec *spec, struct source *src)
{
	struct hash_ctx *h = hash_new();
	char hex[65];
	char series[16];

	memset(src, 0, sizeof(*src));
	if (scenario_debian_source(spec->source, series, sizeof(series)) && *series) {
		/* "debian:6.12": linux-source-6.12, whatever the prebuilt
		 * kernels are (Debian ships no 686-pae 6.12 to match). */
		char *name = xstrfmt("linux-source-%s", series);
		int r = deb_resolve(name, "amd64", 0, &src->pkg);

		free(name);
		if (r) {
			hash_hex(h, hex);
			return r;
		}
		src->id = xstrfmt("debian:%s=%s", src->pkg.name, src->pkg.version);
		hash_adds(h, src->id);
	} else if (scenario_debian_source(spec->source, NULL, 0)) {
		/* The linux-source package of the prebuilt kernel's version. */
		struct deb_pkg img = DEB_PKG_INIT;
		/* i386 kernels exist up to bookworm: on a later suite the
		 * source follows its amd64 kernel (the source is the same). */
		int i386 = spec->arch == ARCH_I386 &&
			   (!apt_suite() || !strcmp(apt_suite_release(apt_suite()), "bookworm"));
		const char *meta = i386 ? "linux-image-686-pae" : "linux-image-amd64";
		int r = deb_resolve(meta, i386 ? "i386" : "amd64", 1, &img);

		if (r < 0) {
			hash_hex(h, hex);
			return r;
		}
		/* "6.1.192-3" -> linux-source-6.1 */
		const char *v = img.version;
		size_t mm = strspn(v, "0123456789");
		if (v[mm] == '.')
			mm += 1 + strspn(v + mm + 1, "0123456789");
		char *name = xstrfmt("linux-source-%.*s", (int)mm, v);
		r = deb_resolve(name, "amd64", 0, &src->pkg);
		if (!r && strcmp(src->pkg.version, img.version))
			warning("%s is %s, the prebuilt kernel %s", name,
				src->pkg.version, img.version);
		free(name);
		deb_pkg_release(&img);
		if (r) {
			hash_hex(h, hex);
			return r;
		}
		src->id = xstrfmt("debian:%s=%s", src->pkg.name, src->pkg.version);
		hash_adds(h, src->id);
	} else if (spec->rev && *spec->rev) {
		/* A commit: what is built is the commit (so two clones of one
		 * history share builds); one work tree per repository. */
		if (!git_is_repo(spec->source)) {
			hash_hex(h, hex);
			return error("kernel_rev '%s' needs kernel_source to be a git repository; "
				     "'%s' is not one", spec->rev, spec->source);
		}
		src->commit = git_commit(spec->source, spec->rev);
		if (!src->commit) {
			hash_hex(h, hex);
			return error("'%s' is not a commit of '%s'", spec->rev, spec->source);
		}
		src->id = xstrfmt("%s@%s", spec->source, src->commit);
		hash_adds(h, "git");
		hash_adds(h, src->commit);
		struct hash_ctx *t = hash_new();
		hash_adds(t, "git tree");
		hash_adds(t, spec->source);
		hash_hex(t, hex);
		src->tree = xstrdup(hex);
	} else {
		char *mk = xstrfmt("%s/Makefile", spec->source);
		char *kb = xstrfmt("%s/Kbuild", spec->source);
		char *x86 = xstrfmt("%s/arch/x86", spec->source);
		int ok = path_exists(mk) && path_exists(kb) && is_dir(x86);
		free(mk);
		free(kb);
		free(x86);
		if (!ok) {
			hash_hex(h, hex);
			return error("'%s' is not a kernel tree (no Makefile, Kbuild and arch/x86/ in it)",
				     spec->source);
		}
		char *cfg = xstrfmt("%s/.config", spec->source);
		ok = !path_exists(cfg);
		free(cfg);
		if (!ok) {
			hash_hex(h, hex);
			return error("'%s' has a .config: it was built in place; run 'make mrproper' "
				     "there (scaletest builds out of tree)", spec->source);
		}
		note("identifying the source tree %s", spec->source);
		src->id = xstrdup(spec->source);
		hash_adds(h, "tree");
		hash_adds(h, spec->source);
		walk_tree(h, spec->source, "");
	}
	hash_hex(h, hex);
	src->hash = xstrdup(hex);
	if (!src->tree)
		src->tree = xstrdup(hex);
	return 0;
}

static void source_release(struct source *src)
{
	free(src->id);
	free(src->hash);
	free(src->tree);
	free(src->commit);
	deb_pkg_release(&src->pkg);
}

static const char *git_id[] = { "-c", "user.name=scaletest", "-c", "user.email=scaletest@localhost" };

/* A pristine copy of the source as a git repository, made in tmp (the work
 * tree's src/ once renamed). */
static int make_work_tree(const struct kbuild_spec *spec, const struct source *src,
			  const char *tmp, const char *log)
{
	int r;

	if (mkdir_p(tmp, 0755) < 0)
		return -1;
	if (src->commit) {
		/* Objects read from the user's repository through alternates,
		 * nothing written to it (git worktree add would register the
		 * work tree in its .git); each build checks its commit out. */
		const char *clone[] = { "git", "clone", "-q", "--shared", "--no-checkout",
					spec->source, tmp, NULL };
		note("cloning %s (shared, no copy of its objects)", spec->source);
		return child_step(clone, NULL, NULL, log, 600, NULL, "git clone");
	}
	if (scenario_debian_source(spec->source, NULL, 0)) {
		char *unpack = xstrfmt("%s.deb", tmp);
		remove_tree(unpack);
		if ((r = deb_fetch_extract(&src->pkg, unpack, log)) < 0) {
			remove_tree(unpack);
			free(unpack);
			return r;
		}
		char *usr = xstrfmt("%s/usr/src", unpack);
		DIR *d = opendir(usr);
		struct dirent *de;
		char *tarball = NULL;
		while (d && (de = readdir(d)))
			if (strstr(de->d_name, ".tar."))
				tarball = xstrfmt("%s/%s", usr, de->d_name);
		if (d)
			closedir(d);
		free(usr);
		if (!tarball) {
			error("%s has no source tarball in usr/src", src->pkg.name);
			remove_tree(unpack);
			free(unpack);
			return -1;
		}
		note("unpacking %s", path_basename(tarball));
		const char *tar[] = { "tar", "-xaf", tarball, "-C", tmp, "--strip-components=1", NULL };
		r = child_step(tar, NULL, NULL, log, 1800, NULL, "tar");
		remove_tree(unpack);
		free(tarball);
		free(unpack);
		if (r < 0)
			return r;
	} else {
		/* Copy the top-level entries but .git: the user's tree is read,
		 * never written. */
		struct strvec av = STRVEC_INIT;
		DIR *d = opendir(spec->source);
		struct dirent *de;
		strvec_push(&av, "cp");
		strvec_push(&av, "-a");
		while (d && (de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
			    strcmp(de->d_name, ".git"))
				strvec_pushf(&av, "%s/%s", spec->source, de->d_name);
		if (d)
			closedir(d);
		strvec_push(&av, tmp);
		note("copying %s", spec->source);
		r = child_step((const char *const *)av.v, NULL, NULL, log, 1800, NULL, "cp");
		strvec_clear(&av);
		if (r < 0)
			return r;
	}
	note("recording the pristine tree (git)");
	const char *init[] = { "git", "init", "-q", NULL };
	const char *add[] = { "git", "add", "-A", "-f", NULL };
	const char *commit[] = { "git", git_id[0], git_id[1], git_id[2], git_id[3],
				 "commit", "-q", "--no-verify", "-m", "pristine", NULL };
	const char *tag[] = { "git", "tag", "pristine", NULL };
	if ((r = child_step(init, tmp, NULL, log, 600, NULL, "git init")) < 0 ||
	    (r = child_step(add, tmp, NULL, log, 1800, NULL, "git add")) < 0 ||
	    (r = child_step(commit, tmp, NULL, log, 1800, NULL, "git commit")) < 0 ||
	    (r = child_step(tag, tmp, NULL, log, 60, NULL, "git tag")) < 0)
		return r;
	return 0;
}

/* A commit checked out: is it a kernel tree at all? */
static int check_commit_tree(const char *srcdir, const struct source *src,
			     const char *repo)
{
	static const char *const need[] = { "Makefile", "Kbuild", "arch/x86" };

	for (size_t i = 0; i < ARRAY_SIZE(need); i++) {
		char *p = xstrfmt("%s/%s", srcdir, need[i]);
		int ok = path_exists(p);
		free(p);
		if (!ok)
			return error("commit %.12s of '%s' is not a kernel tree (no %s in it)",
				     src->commit, repo, need[i]);
	}
	return 0;
}

static int configure(const struct kbuild_spec *spec, const char *srcdir,
		     const char *objdir, const char *log)
{
	char *o = xstrfmt("O=%s", objdir);
	char *arch = xstrfmt("ARCH=%s", arch_name(spec->arch));
	char *config = xstrfmt("%s/.config", objdir);
	struct strvec merge = STRVEC_INIT, want = STRVEC_INIT, dropped = STRVEC_INIT;
	struct strbuf cfg = STRBUF_INIT, err = STRBUF_INIT;
	int r = -1;

	if (mkdir_p(objdir, 0755) < 0)
		goto out;
	note("configuring: %s + %zu fragments", spec->base, spec->fragments.n);
	const char *base[] = { "make", "-s", o, arch, spec->base, NULL };
	if ((r = child_step(base, srcdir, NULL, log, 600, NULL, "make (base config)")) < 0)
		goto out;
	r = -1;
	strvec_pushf(&merge, "%s/scripts/kconfig/merge_config.sh", srcdir);
	strvec_push(&merge, "-m");
	strvec_push(&merge, "-O");
	strvec_push(&merge, objdir);
	strvec_push(&merge, config);
	for (size_t i = 0; i < spec->fragments.n; i++) {
		struct strbuf fb = STRBUF_INIT;
		strvec_push(&merge, spec->fragments.v[i]);
		if (sb_read_file(&fb, spec->fragments.v[i]) < 0 ||
		    kbuild_fragment_options(fb.buf, fb.len, &want, &err) < 0) {
			error("%s: %s", spec->fragments.v[i], err.len ? err.buf : strerror(errno));
			sb_release(&fb);
			goto out;
		}
		sb_release(&fb);
	}
	const char *env[] = { arch, NULL };
	struct child_opts ro = CHILD_OPTS_INIT;
	struct child_result res;
	ro.dir = srcdir;
	ro.log = log;
	ro.env = env;
	ro.timeout = 600;
	if ((r = child_run((const char *const *)merge.v, &ro, &res)) < 0)
		goto out;
	r = -1;
	if (!child_ok(&res)) {
		error("merge_config.sh failed (%s); see '%s'", child_describe(&res), log);
		goto out;
	}
	const char *olddef[] = { "make", "-s", o, arch, "olddefconfig", NULL };
	if ((r = child_step(olddef, srcdir, NULL, log, 600, NULL, "make olddefconfig")) < 0)
		goto out;
	r = -1;
	if (sb_read_file(&cfg, config) < 0) {
		error_errno("cannot read '%s'", config);
		goto out;
	}
	kbuild_check_config(&want, cfg.buf, &dropped);
	if (dropped.n) {
		struct strbuf msg = STRBUF_INIT;
		for (size_t i = 0; i < dropped.n; i++)
			sb_addf(&msg, "\n  %s", dropped.v[i]);
		error("kconfig dropped %zu option%s the fragments asked for "
		      "(missing dependencies, or not in this kernel):%s",
		      dropped.n, dropped.n > 1 ? "s" : "", msg.buf);
		sb_release(&msg);
		goto out;
	}
	r = 0;
out:
	free(o);
	free(arch);
	free(config);
	strvec_clear(&merge);
	strvec_clear(&want);
	strvec_clear(&dropped);
	sb_release(&cfg);
	sb_release(&err);
	return r;
}

static char *read_line_file(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (sb_read_file(&sb, path) < 0) {
		sb_release(&sb);
		return NULL;
	}
	sb_setlen(&sb, strcspn(sb.buf, "\n"));
	return sb_detach(&sb, NULL);
}

static int compile(const struct kbuild_spec *spec, const char *srcdir,
		   const char *objdir, const char *stage, const char *log)
{
	char *o = xstrfmt("O=%s", objdir);
	char *arch = xstrfmt("ARCH=%s", arch_name(spec->arch));
	char *jobs = xstrfmt("-j%lld", spec->jobs);
	char *mod = xstrfmt("INSTALL_MOD_PATH=%s", stage);
	struct strvec av = STRVEC_INIT;
	int r = -1;

	strvec_push(&av, "make");
	strvec_push(&av, o);
	strvec_push(&av, arch);
	strvec_push(&av, jobs);
	if (have_program("ccache"))
		strvec_push(&av, "CC=ccache gcc");
	strvec_push(&av, "KBUILD_BUILD_USER=scaletest");
	strvec_push(&av, "KBUILD_BUILD_HOST=scaletest");
	strvec_push(&av, "bzImage");
	strvec_push(&av, "modules");
	/* ccache rewrites paths below the work trees' parent to relative ones,
	 * so two work trees (a commit's and Debian's source) share hits. */
	char *base = xstrdup(srcdir);
	for (int i = 0; i < 2 && strrchr(base, '/'); i++)
		*strrchr(base, '/') = '\0';
	char *basedir = xstrfmt("CCACHE_BASEDIR=%s", base);
	const char *env[] = { basedir, NULL };
	free(base);
	note("building (%s, make %s%s); full log in %s", arch_name(spec->arch), jobs,
	     have_program("ccache") ? ", ccache" : "", log);
	r = child_step((const char *const *)av.v, srcdir, env, log, (double)spec->timeout,
		       "make bzImage modules", "make bzImage modules");
	free(basedir);
	if (r < 0)
		goto out;
	const char *inst[] = { "make", "-s", o, arch, mod, "INSTALL_MOD_STRIP=1",
			       "modules_install", NULL };
	r = child_step(inst, srcdir, NULL, log, 600, NULL, "make modules_install");
out:
	strvec_clear(&av);
	free(o);
	free(arch);
	free(jobs);
	free(mod);
	return r;
}



/* Where a git source's commit can be fetched: its origin remote, when
 * that is an https:// URL with no user or password in it (nothing that
 * could carry a token goes into result.json), printable and on one line;
 * else NULL. */
static char *git_url(const char *repo)
{
	static const char *const args[] = { "config", "--get", "remote.origin.url", NULL };
	struct strbuf out = STRBUF_INIT;
	char *url = NULL;

	if (git_capture(repo, args, &out) == 0) {
		size_t hl;
		int ok;

		sb_setlen(&out, strcspn(out.buf, "\n"));
		ok = out.len > 8 && out.len < 512 && !strncmp(out.buf, "https://", 8);
		hl = ok ? strcspn(out.buf + 8, "/?#") : 0;
		ok = ok && hl && !memchr(out.buf + 8, '@', hl);
		for (size_t i = 0; ok && i < out.len; i++)
			ok = (unsigned char)out.buf[i] > ' ' && out.buf[i] != 0x7f;
		if (ok)
			url = sb_detach(&out, NULL);
	}
	sb_release(&out);
	return url;
}

static int fill_artifact(const char *entry, const struct kbuild_spec *spec,
			 const struct source *src, const struct strvec *patches,
			 struct kernel_artifact *k)
{
	char *image = xstrfmt("%s/bzImage", entry);
	char *config = xstrfmt("%s/config", entry);
	char *ver = xstrfmt("%s/version", entry);
	char *version = read_line_file(ver);
	int r = -1;

	if (version && kernel_release_valid(version)) {
		char *mods = xstrfmt("%s/lib/modules/%s", entry, version);
		r = kernel_from_files(image, mods, config, spec->arch, k);
		free(mods);
	} else {
		error("cache entry '%s' is incomplete; remove it", entry);
	}
	if (!r) {
		free(k->source);
		k->source = xstrdup("build");
		k->build_source = xstrdup(src->id);
		k->build_key = xstrdup(path_basename(entry));
		for (size_t i = 0; i < patches->n; i++)
			strvec_push(&k->build_patches, path_basename(patches->v[i]));
		k->build_patchset_hash = kbuild_patchset_hash(patches);
		if (src->commit)
			k->build_git_url = git_url(spec->source);
		for (size_t i = 0; i < spec->fragments.n; i++)
			strvec_push(&k->build_fragments, spec->fragments.v[i]);
		k->build_base = xstrdup(spec->base);
	}
	free(image);
	free(config);
	free(ver);
	free(version);
	return r;
}

/* Copy what a boot needs from the object tree into the entry being built
 * (its modules are already there, from modules_install). */
static int stage_artifact(const char *objdir, const char *tmp)
{
	static const char *const copies[][2] = {
		{ "arch/x86/boot/bzImage", "bzImage" },
		{ "System.map", "System.map" },
		{ ".config", "config" },
	};
	char *rel = xstrfmt("%s/include/config/kernel.release", objdir);
	char *version = read_line_file(rel);
	int bad = 0;

	free(rel);
	if (!version)
		return error("no kernel.release after the build");
	if (!kernel_release_valid(version)) {
		error("the built tree's kernel.release '%s' is not a release name "
		      "(letters, digits and ._+~-)", version);
		free(version);
		return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(copies) && !bad; i++) {
		char *from = xstrfmt("%s/%s", objdir, copies[i][0]);
		char *to = xstrfmt("%s/%s", tmp, copies[i][1]);
		bad = copy_file(from, to, 0644) < 0;
		free(from);
		free(to);
	}
	char *vf = xstrfmt("%s/version", tmp);
	char *vl = xstrfmt("%s\n", version);
	if (!bad)
		bad = write_file(vf, vl, strlen(vl)) < 0;
	/* modules_install links build/ and source/ into the work tree */
	for (int i = 0; i < 2 && !bad; i++) {
		char *l = xstrfmt("%s/lib/modules/%s/%s", tmp, version, i ? "source" : "build");
		unlink(l);
		free(l);
	}
	free(vf);
	free(vl);
	free(version);
	return bad ? -1 : 0;
}

/* The cache key of a build: its inputs' hash, in key[65]. */
static int build_key(const struct kbuild_spec *spec, const struct source *src,
		     const char *cc, const struct strvec *patches, char key[65])
{
	struct hash_ctx *h = hash_new();
	int r = 0;

	hash_adds(h, "kbuild v1");
	hash_adds(h, src->hash);
	hash_adds(h, arch_name(spec->arch));
	hash_adds(h, spec->base);
	hash_adds(h, cc);
	for (size_t i = 0; i < spec->fragments.n && !r; i++) {
		hash_adds(h, path_basename(spec->fragments.v[i]));
		r = hash_add_file(h, spec->fragments.v[i]);
	}
	for (size_t i = 0; i < patches->n && !r; i++) {
		hash_adds(h, path_basename(patches->v[i]));
		r = hash_add_file(h, patches->v[i]);
	}
	hash_hex(h, key);
	return r < 0 ? -1 : 0;
}

static void prune_builds(void)
{
	char *builds = cache_path("kernels/build/x");
	char *trees = cache_path("kbuild/x");

	if (builds) {
		*strrchr(builds, '/') = '\0';
		cache_prune(builds, KBUILD_KEEP, "kernel build");
	}
	if (trees) {
		*strrchr(trees, '/') = '\0';
		cache_prune(trees, KBUILD_KEEP_TREES, "kernel work tree");
	}
	free(builds);
	free(trees);
}

/* What building a kernel needs on the host beyond the default set-up
 * (tools/deps.sh's kbuild profile): a program per row, found on $PATH,
 * and libelf's headers (objtool); the header's path is a row too. */
static const struct {
	const char *what, *path;	/* path: a file, not a program */
} kbuild_toolchain[] = {
	{ "gcc", NULL }, { "make", NULL }, { "flex", NULL }, { "bison", NULL },
	{ "bc", NULL }, { "git", NULL }, { "xz", NULL }, { "perl", NULL },
	{ "libelf-dev", "/usr/include/gelf.h" },
};

int kbuild_toolchain_missing(struct strbuf *missing)
{
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(kbuild_toolchain); i++) {
		const char *p = kbuild_toolchain[i].path;
		if (p ? path_exists(p) : have_program(kbuild_toolchain[i].what))
			continue;
		sb_addf(missing, " %s", kbuild_toolchain[i].what);
		n++;
	}
	return n;
}

int kbuild_build(const struct kbuild_spec *spec, const char *log,
		 struct kernel_artifact *k, int *hit)
{
	struct source src;
	struct strvec patches = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	struct cache_txn txn = CACHE_TXN_INIT, srctxn = CACHE_TXN_INIT;
	struct cache_lock tlk = { -1 };
	char *cc = NULL, *entry = NULL, *tree = NULL, *srcdir = NULL, *objdir = NULL;
	char key[65];
	int r = -1, got;

	*hit = 0;
	if (kbuild_patch_list(spec->patches, &patches, &err) < 0) {
		error("%s", err.buf);
		goto out_nosrc;
	}
	if ((r = source_identify(spec, &src)) < 0)
		goto out_nosrc;
	r = -1;
	cc = compiler_version();
	if (!cc) {
		r = error_env("gcc not found: install gcc (make deps, or make deps-kbuild for "
			      "the whole kernel-build toolchain)");
		goto out;
	}
	if (build_key(spec, &src, cc, &patches, key) < 0)
		goto out;
	if (!(entry = cache_path("kernels/build/%.24s", key))) {
		r = ERR_ENV;
		goto out;
	}
	if ((r = got = cache_begin(&txn, entry)) < 0)
		goto out;
	if (got == 1) {
		*hit = 1;
		note("kernel build %.24s: cached", key);
		r = fill_artifact(entry, spec, &src, &patches, k);
		goto out;
	}
	{
		struct strbuf missing = STRBUF_INIT;
		int n = kbuild_toolchain_missing(&missing);
		if (n)
			r = error_env("building a kernel from source needs the kernel-build "
				      "toolchain; missing:%s: run 'make deps-kbuild' "
				      "(sh tools/deps.sh install kbuild)", missing.buf);
		sb_release(&missing);
		if (n)
			goto out;
	}

	/* The work tree for this source; one build in it at a time. */
	if (!(tree = cache_path("kbuild/%.24s", src.tree))) {
		r = ERR_ENV;
		goto out;
	}
	srcdir = xstrfmt("%s/src", tree);
	objdir = xstrfmt("%s/obj-%s", tree, arch_name(spec->arch));
	if ((r = mkdir_p(tree, 0755)) < 0 || (r = cache_lock(&tlk, tree)) < 0)
		goto out;
	cache_touch(tree);
	/* Reset and patched in place at every build: no seal to keep. */
	got = cache_begin_unsealed(&srctxn, srcdir);
	if (got == 0 && (got = make_work_tree(spec, &src, srctxn.tmp, log)) == 0)
		got = cache_commit(&srctxn);
	cache_end(&srctxn);
	if ((r = got) < 0)
		goto out;
	if ((r = kbuild_apply_patches(srcdir, src.commit ? src.commit : "pristine", &patches, src.id, log,
				      &k->failure)) < 0 ||
	    (src.commit && (r = check_commit_tree(srcdir, &src, spec->source)) < 0) ||
	    (r = configure(spec, srcdir, objdir, log)) < 0)
		goto out;

	if ((r = mkdir_p(txn.tmp, 0755)) < 0 ||
	    (r = compile(spec, srcdir, objdir, txn.tmp, log)) < 0 ||
	    (r = stage_artifact(objdir, txn.tmp)) < 0 ||
	    (r = cache_commit(&txn)) < 0)
		goto out;
	r = fill_artifact(entry, spec, &src, &patches, k);
out:
	cache_unlock(&tlk);
	cache_end(&txn);
	if (!r && !*hit)
		prune_builds();
	source_release(&src);
out_nosrc:
	strvec_clear(&patches);
	sb_release(&err);
	free(cc);
	free(entry);
	free(tree);
	free(srcdir);
	free(objdir);
	return r;
}

int kbuild_find(const struct scenario *s, struct kernel_artifact *k,
		struct strbuf *what)
{
	struct kbuild_spec spec;
	struct source src;
	struct strvec patches = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	char *cc = NULL, *entry = NULL, key[65];
	int r = -1;

	kbuild_spec_init(&spec);
	if (kbuild_spec_from_scenario(s, &spec, &err) < 0 ||
	    kbuild_patch_list(spec.patches, &patches, &err) < 0) {
		error("%s", err.buf);
		goto out_nosrc;
	}
	if ((r = source_identify(&spec, &src)) < 0)
		goto out_nosrc;
	r = -1;
	cc = compiler_version();
	if (!cc) {
		r = error_env("gcc not found: install build-essential (make deps)");
		goto out;
	}
	if (build_key(&spec, &src, cc, &patches, key) < 0)
		goto out;
	if (!(entry = cache_path("kernels/build/%.24s", key))) {
		r = ERR_ENV;
		goto out;
	}
	/* Entries are renamed into place whole: one that is there is done. */
	if (is_dir(entry) && cache_check_owner(entry) == 0) {
		r = fill_artifact(entry, &spec, &src, &patches, k) < 0 ? -1 : 1;
		goto out;
	}
	sb_addf(what, "not cached: a run would build %s", src.id);
	if (patches.n) {
		sb_addf(what, " with %zu patch%s (", patches.n, patches.n > 1 ? "es" : "");
		for (size_t i = 0; i < patches.n; i++)
			sb_addf(what, "%s%s", i ? ", " : "", path_basename(patches.v[i]));
		sb_addch(what, ')');
	}
	sb_addf(what, ", %s plus", spec.base);
	for (size_t i = 0; i < spec.fragments.n; i++)
		sb_addf(what, "%s %s", i ? "," : "", path_basename(spec.fragments.v[i]));
	sb_addf(what, ", for %s with make -j%lld (deadline %lld s), into %s",
		arch_name(spec.arch), spec.jobs, spec.timeout, entry);
	r = 0;
out:
	source_release(&src);
out_nosrc:
	strvec_clear(&patches);
	kbuild_spec_release(&spec);
	sb_release(&err);
	free(cc);
	free(entry);
	return r;
}

int kbuild_obtain(const struct scenario *s, const char *log,
		  struct kernel_artifact *k)
{
	struct kbuild_spec spec;
	struct strbuf err = STRBUF_INIT;
	int hit, r;

	kbuild_spec_init(&spec);
	r = kbuild_spec_from_scenario(s, &spec, &err);
	if (r < 0)
		error("%s", err.buf);
	else
		r = kbuild_build(&spec, log, k, &hit);
	kbuild_spec_release(&spec);
	sb_release(&err);
	return r;
}
