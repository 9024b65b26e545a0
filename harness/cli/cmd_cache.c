// SPDX-License-Identifier: Apache-2.0
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cache.h"
#include "cli/commands.h"
#include "lib/strvec.h"
#include "lib/util.h"

const char usage_cache[] =
	"usage: scaletest cache list\n"
	"       scaletest cache clean CATEGORY... | --all\n"
	"\n"
	"The cache ($SCALETEST_CACHE, else $XDG_CACHE_HOME/scaletest, else\n"
	"~/.cache/scaletest; never /tmp) keeps what runs fetch and build; it is\n"
	"used only when it is this user's and writable by no one else (exit 3\n"
	"otherwise, saying why).  'list' shows each category's entries and\n"
	"size; 'clean' removes categories.  Entries in use by a running harness\n"
	"(locked) are skipped.  Built kernels and kernel work trees are also\n"
	"pruned automatically, least recently used first, after each build.\n"
	"\n"
	"Exit status:\n"
	"  0    done\n"
	"  1    an entry could not be removed\n"
	"  2    bad usage: an unknown verb or category\n"
	"  3    the cache is not this user's to trust, or has no place\n";

/* A category is a directory of entries, or (depth 2) a directory of
 * directories of entries: apt/suites/SUITE/DAY-HASH.  skip names a
 * subdirectory that is a category of its own (apt/suites under apt). */
static const struct category {
	const char *dir;
	const char *what;
	int depth;
	const char *skip;
} categories[] = {
	{ "kernels/debian", "Debian kernels, unpacked", 1, NULL },
	{ "kernels/build", "kernels built from source", 1, NULL },
	{ "kbuild", "kernel work trees (source + objects)", 1, NULL },
	{ "debs", "other unpacked Debian packages (busybox)", 1, NULL },
	{ "fio", "static fio binaries built from source", 1, NULL },
	{ "initramfs", "initramfs archives by content hash", 1, NULL },
	{ "apt", "remembered apt answers", 1, "suites" },
	{ "apt/suites", "Debian suites' package lists (kernel_suite), by suite and day", 2, NULL },
	{ "accel", "the accelerator verdict", 1, NULL },
	{ "logs", "logs of 'kernel build'", 1, NULL },
};

static long long du(const char *path, long long *files)
{
	struct stat st;
	long long total;
	DIR *d;
	struct dirent *de;

	if (lstat(path, &st) < 0)
		return 0;
	total = (long long)st.st_blocks * 512;
	if (!S_ISDIR(st.st_mode)) {
		(*files)++;
		return total;
	}
	if (!(d = opendir(path)))
		return total;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *sub = xstrfmt("%s/%s", path, de->d_name);
		total += du(sub, files);
		free(sub);
	}
	closedir(d);
	return total;
}

static void human(char *buf, size_t n, long long bytes)
{
	if (bytes >= 1LL << 30)
		snprintf(buf, n, "%.1f GiB", (double)bytes / (1 << 30));
	else if (bytes >= 1LL << 20)
		snprintf(buf, n, "%.1f MiB", (double)bytes / (1 << 20));
	else
		snprintf(buf, n, "%lld KiB", bytes / 1024);
}

/* The names, relative to the category's directory, of its entries
 * (with_tmp: and of what killed builds left, "<entry>.tmp-<pid>"); at
 * depth 2 "SUBDIR/NAME" for each real directory SUBDIR (never a link). */
static void collect(const struct category *c, const char *dir, int with_tmp,
		    struct strvec *names)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		const char *n = de->d_name;
		int tmp = with_tmp && n[0] != '.' && strstr(n, ".tmp-");

		if (!cache_is_entry(n) && !tmp)
			continue;
		if (c->skip && !strcmp(n, c->skip))
			continue;
		if (c->depth == 1) {
			strvec_push(names, n);
			continue;
		}
		char *sub = xstrfmt("%s/%s", dir, n);
		struct stat st;
		struct strvec in = STRVEC_INIT;
		struct category one = { c->dir, c->what, 1, NULL };

		if (!tmp && lstat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
			collect(&one, sub, with_tmp, &in);
			for (size_t i = 0; i < in.n; i++)
				strvec_pushf(names, "%s/%s", n, in.v[i]);
		}
		strvec_clear(&in);
		free(sub);
	}
	if (d)
		closedir(d);
}

static int cache_list(int argc, char **argv)
{
	if (argc > 1)
		return usage_error(usage_cache, "'cache list' takes no arguments, not '%s'", argv[1]);
	long long all = 0;
	char hb[32];
	const char *root = cache_root();

	if (!root)
		return EXIT_ENV;
	printf_clean("cache: %s\n", root);
	for (size_t i = 0; i < ARRAY_SIZE(categories); i++) {
		const struct category *c = &categories[i];
		char *dir = xstrfmt("%s/%s", root, c->dir);
		long long files = 0, size;
		struct strvec names = STRVEC_INIT;

		collect(c, dir, 0, &names);
		size = du(dir, &files);
		if (c->skip) {
			/* A category of its own, listed on its own line. */
			char *skip = xstrfmt("%s/%s", dir, c->skip);
			size -= du(skip, &files);
			free(skip);
		}
		all += size;
		human(hb, sizeof(hb), size);
		printf("  %-15s %4zu entries %10s  %s\n", c->dir, names.n, hb, c->what);
		strvec_clear(&names);
		free(dir);
	}
	human(hb, sizeof(hb), all);
	printf("  %-15s %17s\n", "total", hb);
	return finish_stdout(EXIT_OK);
}

static int clean_category(const struct category *c)
{
	char *dir = xstrfmt("%s/%s", cache_root(), c->dir);
	struct strvec names = STRVEC_INIT;
	int bad = 0, removed = 0, busy = 0;

	/* Entries, and what killed builds left (their .tmp- is removed once
	 * no harness holds the entry's lock). */
	collect(c, dir, 1, &names);
	for (size_t i = 0; i < names.n; i++) {
		char *p = xstrfmt("%s/%s", dir, names.v[i]);
		int got = cache_remove_entry(p);

		if (got == 0) {
			note("%s: in use, kept", p);
			busy++;
		} else if (got < 0) {
			bad = 1;
		} else {
			removed++;
		}
		free(p);
	}
	if (c->depth == 2) {
		/* The subdirectories emptied (one still in use stays). */
		for (size_t i = 0; i < names.n; i++) {
			char *p = xstrfmt("%s/%.*s", dir, (int)strcspn(names.v[i], "/"), names.v[i]);
			rmdir(p);
			free(p);
		}
	}
	printf("%s: removed %d entr%s%s\n", c->dir, removed, removed == 1 ? "y" : "ies",
	       busy ? ", some in use kept" : "");
	strvec_clear(&names);
	free(dir);
	return bad ? -1 : 0;
}

static int cache_clean(int argc, char **argv)
{
	int all = 0, bad = 0;

	if (argc < 2)
		return usage_error(usage_cache, "say what to clean: a category (see 'scaletest cache "
				   "list') or --all");
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--all"))
			all = 1;
	for (int i = 1; i < argc && !all; i++) {
		int found = 0;
		for (size_t j = 0; j < ARRAY_SIZE(categories); j++)
			found |= !strcmp(argv[i], categories[j].dir);
		if (!found)
			return usage_error(usage_cache, "'%s' is not a cache category (see 'scaletest "
					   "cache list')", argv[i]);
	}
	if (!cache_root())
		return EXIT_ENV;
	for (size_t j = 0; j < ARRAY_SIZE(categories); j++) {
		int want = all;
		for (int i = 1; i < argc && !want; i++)
			want = !strcmp(argv[i], categories[j].dir);
		if (want && clean_category(&categories[j]) < 0)
			bad = 1;
	}
	return finish_stdout(bad ? EXIT_RUNFAIL : EXIT_OK);
}

static const struct command cache_commands[] = {
	{ "list", cache_list, "show each category's entries and size", usage_cache },
	{ "clean", cache_clean, "remove categories", usage_cache },
};

int cmd_cache(int argc, char **argv)
{
	return run_subcommand("cache", cache_commands, ARRAY_SIZE(cache_commands),
			      usage_cache, argc - 1, argv + 1);
}
