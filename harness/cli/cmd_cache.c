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

static const struct category {
	const char *dir;
	const char *what;
} categories[] = {
	{ "kernels/debian", "Debian kernels, unpacked" },
	{ "kernels/build", "kernels built from source" },
	{ "kbuild", "kernel work trees (source + objects)" },
	{ "debs", "other unpacked Debian packages (busybox)" },
	{ "fio", "static fio binaries built from source" },
	{ "initramfs", "initramfs archives by content hash" },
	{ "apt", "remembered apt answers" },
	{ "accel", "the accelerator verdict" },
	{ "logs", "logs of 'kernel build'" },
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
		char *dir = xstrfmt("%s/%s", root, categories[i].dir);
		long long files = 0, size = 0;
		int entries = 0;
		DIR *d = opendir(dir);
		struct dirent *de;

		while (d && (de = readdir(d)))
			if (cache_is_entry(de->d_name))
				entries++;
		if (d)
			closedir(d);
		size = du(dir, &files);
		all += size;
		human(hb, sizeof(hb), size);
		printf("  %-15s %4d entries %10s  %s\n", categories[i].dir, entries, hb,
		       categories[i].what);
		free(dir);
	}
	human(hb, sizeof(hb), all);
	printf("  %-15s %17s\n", "total", hb);
	return finish_stdout(EXIT_OK);
}

static int clean_category(const struct category *c)
{
	char *dir = xstrfmt("%s/%s", cache_root(), c->dir);
	DIR *d = opendir(dir);
	struct dirent *de;
	struct strvec names = STRVEC_INIT;
	int bad = 0, removed = 0, busy = 0;

	/* Entries, and what killed builds left (their .tmp- is removed once
	 * no harness holds the entry's lock). */
	while (d && (de = readdir(d)))
		if (cache_is_entry(de->d_name) || (de->d_name[0] != '.' && strstr(de->d_name, ".tmp-")))
			strvec_push(&names, de->d_name);
	if (d)
		closedir(d);
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
