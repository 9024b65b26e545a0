// SPDX-License-Identifier: Apache-2.0
#include "kernel/apt.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/cache.h"
#include "lib/child.h"
#include "lib/textscan.h"
#include "lib/util.h"

enum { DEBIAN, SECURITY };

struct suite {
	const char *name;
	const char *release;
	struct { int archive; const char *dist; } lists[3];
	const char *pin;	/* apt_preferences' "Pin: release ..." of its own */
};

/* The suites a scenario may name (docs/kernels.md "Kernels from any
 * Debian suite"). */
static const struct suite suites[] = {
	{ "bookworm", "bookworm",
	  { { DEBIAN, "bookworm" }, { DEBIAN, "bookworm-updates" }, { SECURITY, "bookworm-security" } },
	  NULL },
	{ "bookworm-security", "bookworm",
	  { { DEBIAN, "bookworm" }, { SECURITY, "bookworm-security" } }, "n=bookworm-security" },
	{ "bookworm-backports", "bookworm",
	  { { DEBIAN, "bookworm" }, { DEBIAN, "bookworm-backports" } }, "n=bookworm-backports" },
	{ "trixie", "trixie",
	  { { DEBIAN, "trixie" }, { DEBIAN, "trixie-updates" }, { SECURITY, "trixie-security" } },
	  NULL },
	{ "trixie-security", "trixie",
	  { { DEBIAN, "trixie" }, { SECURITY, "trixie-security" } }, "n=trixie-security" },
	{ "trixie-backports", "trixie",
	  { { DEBIAN, "trixie" }, { DEBIAN, "trixie-backports" } }, "n=trixie-backports" },
	{ "sid", "sid", { { DEBIAN, "sid" } }, NULL },
	{ "unstable", "sid", { { DEBIAN, "sid" } }, NULL },
	{ "experimental", "sid", { { DEBIAN, "sid" }, { DEBIAN, "experimental" } }, "a=experimental" },
};

static const struct suite *suite_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(suites); i++)
		if (!strcmp(suites[i].name, name))
			return &suites[i];
	return NULL;
}

int apt_suite_known(const char *name, struct strbuf *known)
{
	if (suite_find(name))
		return 1;
	if (known)
		for (size_t i = 0; i < ARRAY_SIZE(suites); i++)
			sb_addf(known, "%s%s", i ? ", " : "", suites[i].name);
	return 0;
}

const char *apt_suite_release(const char *name)
{
	const struct suite *s = suite_find(name);

	return s ? s->release : NULL;
}

/* A URI or path that can stand in a one-line sources.list entry: no
 * space, no ']', no quote, no control character. */
static int uri_ok(const char *u)
{
	if (!*u || strlen(u) > 512)
		return 0;
	for (; *u; u++)
		if ((unsigned char)*u <= ' ' || *u == ']' || *u == '[' || *u == '"' ||
		    *u == '\'' || *u == '\\' || (unsigned char)*u >= 0x7f)
			return 0;
	return 1;
}

static const char *mirror(int archive)
{
	const char *env = getenv(archive == SECURITY ? "SCALETEST_DEBIAN_SECURITY_MIRROR"
				 : "SCALETEST_DEBIAN_MIRROR");

	if (env && *env)
		return env;
	return archive == SECURITY ? "http://deb.debian.org/debian-security"
	       : "http://deb.debian.org/debian";
}

static const char *keyring(void)
{
	const char *env = getenv("SCALETEST_APT_KEYRING");

	return env && *env ? env : "/usr/share/keyrings/debian-archive-keyring.gpg";
}

void apt_suite_describe(const char *name, struct strbuf *sb)
{
	const struct suite *s = suite_find(name);

	if (!s) {
		sb_addf(sb, "%s (unknown)", name);
		return;
	}
	sb_addf(sb, "%s (", s->name);
	for (size_t i = 0; i < ARRAY_SIZE(s->lists) && s->lists[i].dist; i++)
		sb_addf(sb, "%s%s", i ? ", " : "", s->lists[i].dist);
	if (s->pin)
		sb_addf(sb, "; %s first", strchr(s->pin, '=') + 1);
	sb_addf(sb, " from %s)", mirror(DEBIAN));
}

/* The files that make a suite's apt, in the order written. */
static void suite_files(const struct suite *s, struct strbuf *sources,
			struct strbuf *prefs, struct strbuf *conf)
{
	for (size_t i = 0; i < ARRAY_SIZE(s->lists) && s->lists[i].dist; i++)
		for (int src = 0; src < 2; src++)
			sb_addf(sources, "%s [signed-by=%s] %s %s main\n", src ? "deb-src" : "deb",
				keyring(), mirror(s->lists[i].archive), s->lists[i].dist);
	if (s->pin)
		sb_addf(prefs, "Package: *\nPin: release %s\nPin-Priority: 990\n", s->pin);
	sb_adds(conf,
		"// Written by scaletest (harness/kernel/apt.c): its own apt for one suite.\n"
		"#clear APT::Architectures;\n"
		"APT::Architecture \"amd64\";\n"
		"APT::Architectures { \"amd64\"; \"i386\"; };\n"
		"Acquire::AllowInsecureRepositories \"false\";\n"
		"Acquire::AllowDowngradeToInsecureRepositories \"false\";\n"
		"Acquire::AllowWeakRepositories \"false\";\n"
		"APT::Get::AllowUnauthenticated \"false\";\n"
		"Acquire::Languages \"none\";\n"
		"Acquire::IndexTargets::deb::Contents-deb::DefaultEnabled \"false\";\n"
		"Dir::Cache::pkgcache \"\";\n"
		"Dir::Cache::srcpkgcache \"\";\n");
}

/* The selection: NULL for the host's apt, else the suite's entry. */
static const struct suite *sel;
static char *sel_entry;
static const char *const host_lists = "/var/lib/apt/lists";
static char *sel_lists;

const char *apt_suite(void)
{
	return sel ? sel->name : NULL;
}

const char *apt_lists_dir(void)
{
	return sel ? sel_lists : host_lists;
}

/* The options that make apt-get and apt-cache the apt of entry. */
static void push_options(struct strvec *av, const char *entry)
{
	strvec_push(av, "-c");
	strvec_pushf(av, "%s/apt.conf", entry);
	strvec_pushf(av, "-oDir::Etc::sourcelist=%s/sources.list", entry);
	strvec_pushf(av, "-oDir::Etc::sourceparts=%s/parts.d", entry);
	strvec_pushf(av, "-oDir::Etc::preferences=%s/preferences", entry);
	strvec_pushf(av, "-oDir::Etc::preferencesparts=%s/parts.d", entry);
	strvec_pushf(av, "-oDir::State::Lists=%s/lists", entry);
	strvec_pushf(av, "-oDir::State::status=%s/status", entry);
	strvec_pushf(av, "-oDir::State::extended_states=%s/extended_states", entry);
	/* Our cache is 0700: apt's _apt user could not write there, and apt
	 * would say so and go on as root anyway. */
	if (geteuid() == 0)
		strvec_push(av, "-oAPT::Sandbox::User=root");
}

void apt_argv(struct strvec *av, const char *prog)
{
	strvec_push(av, prog);
	if (sel)
		push_options(av, sel_entry);
}

/* apt's own complaints (E:, W:, Err:) written to log from byte from on,
 * at most 6 lines; else the log's last lines. */
static void apt_complaints(const char *log, size_t from, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	struct line_iter it;
	int n = 0;

	if (!log)
		return;
	if (sb_read_file_max(&sb, log, 64 << 20) == 0 && from <= sb.len) {
		line_iter_init(&it, sb.buf + from, sb.len - from);
		while (line_next(&it) && n < 6)
			if ((it.len > 3 && (!strncmp(it.line, "E: ", 3) || !strncmp(it.line, "W: ", 3))) ||
			    (it.len > 4 && !strncmp(it.line, "Err:", 4))) {
				sb_add_clean(out, it.line, it.len, 0);
				sb_addch(out, '\n');
				n++;
			}
	}
	sb_release(&sb);
	if (!n)
		log_tail(log, 3, out);
}

/* Fetch the suite's lists into tmp (the entry once renamed). */
static int suite_update(const struct suite *s, const char *tmp, const char *log)
{
	struct strbuf sources = STRBUF_INIT, prefs = STRBUF_INIT, conf = STRBUF_INIT;
	struct strvec av = STRVEC_INIT;
	struct child_opts o = CHILD_OPTS_INIT;
	struct child_result res;
	char *p;
	int r = -1;
	struct stat st;
	size_t from = 0;

	suite_files(s, &sources, &prefs, &conf);
	if (mkdir_p(tmp, 0755) < 0)
		goto out;
	p = xstrfmt("%s/lists/partial", tmp);
	r = mkdir_p(p, 0755);
	free(p);
	p = xstrfmt("%s/parts.d", tmp);
	if (!r)
		r = mkdir_p(p, 0755);
	free(p);
	if (r < 0)
		goto out;
	r = -1;
	static const char *const names[] = { "sources.list", "preferences", "apt.conf", "status",
					     "extended_states" };
	const struct strbuf *bodies[] = { &sources, &prefs, &conf, NULL, NULL };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		p = xstrfmt("%s/%s", tmp, names[i]);
		int w = write_file_excl(p, bodies[i] ? bodies[i]->buf : "",
					bodies[i] ? bodies[i]->len : 0);
		free(p);
		if (w < 0)
			goto out;
	}
	strvec_push(&av, "apt-get");
	push_options(&av, tmp);
	strvec_push(&av, "update");
	strvec_push(&av, "-q");
	if (log && stat(log, &st) == 0)
		from = (size_t)st.st_size;
	o.log = log;
	o.timeout = 1800;
	o.env = (const char *const[]){ "LC_ALL=C", NULL };
	note("fetching the package lists of suite %s (apt-get update, signatures checked "
	     "against %s)", s->name, keyring());
	if ((r = child_run((const char *const *)av.v, &o, &res)) < 0)
		goto out;
	r = -1;
	if (!child_ok(&res)) {
		struct strbuf why = STRBUF_INIT;

		apt_complaints(log, from, &why);
		r = error_env("suite '%s': apt-get update failed (%s); apt said:\n%s\n"
			  "nothing was kept in the cache; check kernel_suite, the network, and "
			  "that the archive's signatures verify with '%s' (see '%s')",
			  s->name, child_describe(&res), why.buf, keyring(), log ? log : "");
		sb_release(&why);
		goto out;
	}
	/* Each dist's signed Release file must be there: apt-get update may
	 * exit 0 having kept none for a dist it could not verify. */
	for (size_t i = 0; i < ARRAY_SIZE(s->lists) && s->lists[i].dist; i++) {
		char *lists = xstrfmt("%s/lists", tmp);
		char *suffix = xstrfmt("_dists_%s_InRelease", s->lists[i].dist);
		DIR *d = opendir(lists);
		struct dirent *de;
		int found = 0;

		while (d && (de = readdir(d))) {
			size_t n = strlen(de->d_name), m = strlen(suffix);
			if (n > m && !strcmp(de->d_name + n - m, suffix))
				found = 1;
		}
		if (d)
			closedir(d);
		free(lists);
		free(suffix);
		if (!found) {
			struct strbuf why = STRBUF_INIT;
			apt_complaints(log, from, &why);
			r = error_env("suite '%s': apt kept no signed InRelease of '%s' from %s; apt "
				  "said:\n%s\nnothing was kept in the cache (see '%s')", s->name,
				  s->lists[i].dist, mirror(s->lists[i].archive), why.buf,
				  log ? log : "");
			sb_release(&why);
			goto out;
		}
	}
	p = xstrfmt("%s/lists/partial", tmp);
	remove_tree(p);
	free(p);
	p = xstrfmt("%s/lists/lock", tmp);
	unlink(p);
	free(p);
	r = 0;
out:
	strvec_clear(&av);
	sb_release(&sources);
	sb_release(&prefs);
	sb_release(&conf);
	return r;
}

/* "<cache>/apt/suites/SUITE": its entries are "YYYYMMDD-HASH", HASH of
 * the files that make the suite's apt (mirror, keyring). */
static char *suite_key(const struct suite *s)
{
	struct strbuf sources = STRBUF_INIT, prefs = STRBUF_INIT, conf = STRBUF_INIT;
	struct hash_ctx *h = hash_new();
	char hex[65];

	suite_files(s, &sources, &prefs, &conf);
	hash_adds(h, sources.buf);
	hash_adds(h, prefs.buf);
	hash_adds(h, conf.buf);
	hash_hex(h, hex);
	sb_release(&sources);
	sb_release(&prefs);
	sb_release(&conf);
	return xstrndup(hex, 12);
}

/* The newest entry of dir whose name ends with -key and is this user's. */
static char *newest_entry(const char *dir, const char *key)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char *best = NULL;
	size_t kl = strlen(key);

	while (d && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		if (n != 8 + 1 + kl || strcmp(de->d_name + 9, key) || de->d_name[8] != '-' ||
		    strspn(de->d_name, "0123456789") != 8 || !cache_is_entry(de->d_name))
			continue;
		if (!best || strcmp(de->d_name, best) > 0) {
			free(best);
			best = xstrdup(de->d_name);
		}
	}
	if (d)
		closedir(d);
	if (best) {
		char *p = xstrfmt("%s/%s", dir, best);
		free(best);
		best = NULL;
		if (cache_check_owner(p) == 0)
			best = p;
		else
			free(p);
	}
	return best;
}

static void select_entry(const struct suite *s, char *entry)
{
	free(sel_entry);
	free(sel_lists);
	sel = s;
	sel_entry = entry;
	sel_lists = xstrfmt("%s/lists", entry);
}

const char *apt_userland_suite(const char *suite)
{
	const struct suite *s = suite && *suite ? suite_find(suite) : NULL;

	return s ? "bookworm" : NULL;
}

int apt_use_userland(const char *log)
{
	const char *u = sel ? apt_userland_suite(sel->name) : NULL;
	int r;

	if (!u || !strcmp(u, sel->name))
		return 0;
	r = apt_select(u, !cache_readonly(), log);
	return r > 0 ? error_env("no package lists of suite %s in the cache yet (a run fetches them)", u)
		     : r;
}

int apt_select(const char *suite, int fetch, const char *log)
{
	const struct suite *s;
	struct strbuf known = STRBUF_INIT;
	char *key, *dir, *entry;
	char day[16];
	time_t now = time(NULL);
	struct tm tm;
	int r;

	if (!suite || !*suite) {
		free(sel_entry);
		free(sel_lists);
		sel = NULL;
		sel_entry = sel_lists = NULL;
		return 0;
	}
	if (!(s = suite_find(suite))) {
		apt_suite_known(suite, &known);
		r = error_env("unknown kernel_suite '%s': set it to one of %s (or leave it empty "
			      "for the host's apt)", suite, known.buf);
		sb_release(&known);
		return r;
	}
	for (int a = DEBIAN; a <= SECURITY; a++)
		if (!uri_ok(mirror(a)))
			return error_env("'%s' is not a URI for a sources.list entry "
					 "(SCALETEST_DEBIAN%s_MIRROR)", mirror(a),
					 a == SECURITY ? "_SECURITY" : "");
	if (!uri_ok(keyring()) || keyring()[0] != '/')
		return error_env("'%s' is not an absolute path for signed-by "
				 "(SCALETEST_APT_KEYRING)", keyring());
	if (access(keyring(), R_OK) < 0)
		return error_env("kernel_suite '%s': Debian's archive keyring '%s' is missing, so "
				 "no signature could be checked: install debian-archive-keyring "
				 "(make deps)", suite, keyring());
	if (!have_program("apt-get") || !have_program("apt-cache"))
		return error_env("apt-get not found: kernel_suite '%s' needs apt (Debian's "
				 "apt package)", suite);
	key = suite_key(s);
	if (!fetch || cache_readonly()) {
		if (!(dir = cache_path("apt/suites/%s", s->name))) {
			free(key);
			return ERR_ENV;	/* the cache: said */
		}
		entry = newest_entry(dir, key);
		free(dir);
		free(key);
		if (!entry)
			return 1;
		select_entry(s, entry);
		return 0;
	}
	gmtime_r(&now, &tm);
	strftime(day, sizeof(day), "%Y%m%d", &tm);
	entry = cache_path("apt/suites/%s/%s-%s", s->name, day, key);
	free(key);
	if (!entry)
		return ERR_ENV;	/* the cache: said */
	struct cache_txn txn;
	r = cache_begin(&txn, entry);
	if (r == 0 && (r = suite_update(s, txn.tmp, log)) == 0)
		r = cache_commit(&txn);
	cache_end(&txn);
	if (r < 0) {
		free(entry);
		return r;
	}
	if ((dir = cache_path("apt/suites/%s", s->name))) {
		cache_prune(dir, 2, "package lists");
		free(dir);
	}
	select_entry(s, entry);
	return 0;
}
