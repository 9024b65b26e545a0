// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernel/kbuild.h"
#include "test.h"
#include "lib/util.h"

static void put(const char *dir, const char *name, const char *text)
{
	char *p = xstrfmt("%s/%s", dir, name);

	REQUIRE(write_file(p, text, strlen(text)) == 0);
	free(p);
}

TEST(kbuild_patches_from_a_directory_in_name_order)
{
	const char *d = test_tmpdir();
	struct strvec v = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;

	put(d, "0002-b.patch", "x");
	put(d, "0001-a.diff", "x");
	put(d, "notes.txt", "not a patch");
	put(d, "0010-c.patch", "x");
	CHECK_EQ_INT(kbuild_patch_list(d, &v, &err), 0);
	REQUIRE(v.n == 3);
	CHECK_STR(path_basename(v.v[0]), "0001-a.diff");
	CHECK_STR(path_basename(v.v[1]), "0002-b.patch");
	CHECK_STR(path_basename(v.v[2]), "0010-c.patch");
	strvec_clear(&v);
	sb_release(&err);
}

TEST(kbuild_patches_from_a_series_file)
{
	const char *d = test_tmpdir();
	char *series = xstrfmt("%s/series", d);
	struct strvec v = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;

	put(d, "z.patch", "x");
	put(d, "a.patch", "x");
	put(d, "series", "# order matters, not names\nz.patch\n\n  a.patch  \n");
	CHECK_EQ_INT(kbuild_patch_list(series, &v, &err), 0);
	REQUIRE(v.n == 2);
	CHECK_STR(path_basename(v.v[0]), "z.patch");
	CHECK_STR(path_basename(v.v[1]), "a.patch");
	strvec_clear(&v);

	put(d, "series", "z.patch\nmissing.patch\n");
	CHECK_EQ_INT(kbuild_patch_list(series, &v, &err), -1);
	CHECK_CONTAINS(err.buf, "series:2: patch 'missing.patch' does not exist");
	strvec_clear(&v);
	sb_reset(&err);

	put(d, "series", "../../etc/passwd\n");
	CHECK_EQ_INT(kbuild_patch_list(series, &v, &err), -1);
	CHECK_CONTAINS(err.buf, "series:1: bad patch name");
	strvec_clear(&v);
	sb_release(&err);
	free(series);
}

TEST(kbuild_patches_empty_directory_and_missing_path)
{
	const char *d = test_tmpdir();
	struct strvec v = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	char *missing = xstrfmt("%s/nope", d);

	CHECK_EQ_INT(kbuild_patch_list(d, &v, &err), -1);
	CHECK_CONTAINS(err.buf, "no *.patch or *.diff files");
	sb_reset(&err);
	/* Also when the list already holds patches from elsewhere. */
	strvec_push(&v, "earlier.patch");
	CHECK_EQ_INT(kbuild_patch_list(d, &v, &err), -1);
	CHECK_CONTAINS(err.buf, "no *.patch or *.diff files");
	strvec_clear(&v);
	sb_reset(&err);
	CHECK_EQ_INT(kbuild_patch_list(missing, &v, &err), -1);
	CHECK_CONTAINS(err.buf, "No such file or directory");
	CHECK_EQ_INT(kbuild_patch_list("", &v, &err), 0);
	CHECK_EQ_INT((long long)v.n, 0);
	strvec_clear(&v);
	sb_release(&err);
	free(missing);
}

TEST(kbuild_fragment_options_are_read)
{
	static const char frag[] =
		"# comment\n"
		"CONFIG_A=y\n"
		"\n"
		"# CONFIG_B is not set\n"
		"CONFIG_C=\"text\"   \n"
		"CONFIG_D=16000\n";
	struct strvec v = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(kbuild_fragment_options(frag, strlen(frag), &v, &err), 0);
	REQUIRE(v.n == 4);
	CHECK_STR(v.v[0], "CONFIG_A=y");
	CHECK_STR(v.v[1], "# CONFIG_B is not set");
	CHECK_STR(v.v[2], "CONFIG_C=\"text\"");
	CHECK_STR(v.v[3], "CONFIG_D=16000");
	strvec_clear(&v);
	sb_release(&err);
}

TEST(kbuild_fragment_malformed_lines_are_errors)
{
	static const char *const bad[][2] = {
		{ "CONFIG_A=y\nnot an option\n", "line 2: not a config option or comment" },
		{ "CONFIG_=y\n", "line 1: expected CONFIG_NAME=value" },
		{ "CONFIG_A y\n", "line 1: expected CONFIG_NAME=value" },
		{ "CONFIG_A-B=y\n", "line 1: expected CONFIG_NAME=value" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct strvec v = STRVEC_INIT;
		struct strbuf err = STRBUF_INIT;

		CHECK_EQ_INT(kbuild_fragment_options(bad[i][0], strlen(bad[i][0]), &v, &err), -1);
		CHECK_CONTAINS(err.buf, bad[i][1]);
		strvec_clear(&v);
		sb_release(&err);
	}
}

TEST(kbuild_check_config_names_what_kconfig_dropped)
{
	static const char config[] =
		"#\n# Automatically generated file; DO NOT EDIT.\n#\n"
		"CONFIG_A=y\n"
		"CONFIG_B=m\n"
		"# CONFIG_C is not set\n"
		"CONFIG_NUM=100\n";
	struct strvec want = STRVEC_INIT, dropped = STRVEC_INIT;

	strvec_push(&want, "CONFIG_A=y");		/* kept */
	strvec_push(&want, "CONFIG_B=y");		/* became m */
	strvec_push(&want, "CONFIG_C=y");		/* became not set */
	strvec_push(&want, "CONFIG_GONE=y");		/* absent */
	strvec_push(&want, "# CONFIG_A is not set");	/* but it is set */
	strvec_push(&want, "# CONFIG_ABSENT is not set");	/* absent == not set */
	strvec_push(&want, "CONFIG_NUM=16000");		/* other value */
	kbuild_check_config(&want, config, &dropped);
	REQUIRE(dropped.n == 5);
	CHECK_STR(dropped.v[0], "CONFIG_B=y (now: CONFIG_B=m)");
	CHECK_STR(dropped.v[1], "CONFIG_C=y (now: # CONFIG_C is not set)");
	CHECK_STR(dropped.v[2], "CONFIG_GONE=y (now: absent)");
	CHECK_STR(dropped.v[3], "# CONFIG_A is not set (now: CONFIG_A=y)");
	CHECK_STR(dropped.v[4], "CONFIG_NUM=16000 (now: CONFIG_NUM=100)");
	strvec_clear(&want);
	strvec_clear(&dropped);
}

TEST(kbuild_check_config_prefix_names_do_not_match)
{
	/* CONFIG_A=y must not be satisfied by CONFIG_AB=y. */
	struct strvec want = STRVEC_INIT, dropped = STRVEC_INIT;

	strvec_push(&want, "CONFIG_A=y");
	kbuild_check_config(&want, "CONFIG_AB=y\n", &dropped);
	REQUIRE(dropped.n == 1);
	CHECK_STR(dropped.v[0], "CONFIG_A=y (now: absent)");
	strvec_clear(&want);
	strvec_clear(&dropped);
}

TEST(kbuild_spec_takes_the_scenario_keys)
{
	struct scenario s;
	struct kbuild_spec spec;
	struct strbuf err = STRBUF_INIT;
	const char *d = test_tmpdir();
	char *frag = xstrfmt("%s/extra.config", d);

	put(d, "extra.config", "CONFIG_X=y\n");
	setenv("SCALETEST_ROOT", SCALETEST_SOURCE_ROOT, 1);
	scenario_init(&s);
	CHECK_EQ_INT(scenario_set(&s, "kernel=build", "--set", &err), 0);
	CHECK_EQ_INT(scenario_set(&s, "arch=i386", "--set", &err), 0);
	char *set = xstrfmt("kernel_fragments=debug,%s", frag);
	CHECK_EQ_INT(scenario_set(&s, set, "--set", &err), 0);
	free(set);
	kbuild_spec_init(&spec);
	CHECK_EQ_INT(kbuild_spec_from_scenario(&s, &spec, &err), 0);
	CHECK_STR(spec.source, "debian");
	CHECK_STR(spec.base, "tinyconfig");
	REQUIRE(spec.fragments.n == 5);
	CHECK_STR(path_basename(spec.fragments.v[0]), "base.config");
	CHECK_STR(path_basename(spec.fragments.v[1]), "i386-highmem.config");
	CHECK_STR(path_basename(spec.fragments.v[2]), "fast-boot.config");
	CHECK_STR(path_basename(spec.fragments.v[3]), "debug.config");
	CHECK_STR(spec.fragments.v[4], frag);
	CHECK(spec.jobs >= 1);
	kbuild_spec_release(&spec);

	CHECK_EQ_INT(scenario_set(&s, "kernel_fragments=no-such-fragment", "--set", &err), 0);
	kbuild_spec_init(&spec);
	CHECK_EQ_INT(kbuild_spec_from_scenario(&s, &spec, &err), -1);
	CHECK_CONTAINS(err.buf, "no-such-fragment.config' does not exist");
	kbuild_spec_release(&spec);
	scenario_release(&s);
	sb_release(&err);
	free(frag);
}

TEST(kbuild_check_config_last_fragment_wins)
{
	/* base.config asks 6.1 for CONFIG_MODULE_COMPRESS_NONE=y, which 6.12
	 * has no more; linux-6.12.config, after it, asks for it unset: only
	 * the later one is judged.  An earlier unset, set again later, too. */
	struct strvec want = STRVEC_INIT, dropped = STRVEC_INIT;

	strvec_push(&want, "CONFIG_MODULE_COMPRESS_NONE=y");
	strvec_push(&want, "# CONFIG_SLUB_DEBUG is not set");
	strvec_push(&want, "# CONFIG_MODULE_COMPRESS_NONE is not set");
	strvec_push(&want, "CONFIG_SLUB_DEBUG=y");
	strvec_push(&want, "CONFIG_GONE=y");
	kbuild_check_config(&want, "CONFIG_SLUB_DEBUG=y\n", &dropped);
	REQUIRE(dropped.n == 1);
	CHECK_STR(dropped.v[0], "CONFIG_GONE=y (now: absent)");
	strvec_clear(&dropped);
	kbuild_check_config(&want, "# CONFIG_SLUB_DEBUG is not set\nCONFIG_MODULE_COMPRESS_NONE=y\n",
			    &dropped);
	REQUIRE(dropped.n == 3);
	CHECK_STR(dropped.v[0], "# CONFIG_MODULE_COMPRESS_NONE is not set "
		  "(now: CONFIG_MODULE_COMPRESS_NONE=y)");
	CHECK_STR(dropped.v[1], "CONFIG_SLUB_DEBUG=y (now: # CONFIG_SLUB_DEBUG is not set)");
	strvec_clear(&want);
	strvec_clear(&dropped);
}

TEST(kbuild_spec_debian_series_adds_its_fragment)
{
	/* kernel_source = debian:6.12: kernel-configs/linux-6.12.config after
	 * the arch's and fast-boot, before the scenario's own; a series
	 * without such a file adds none. */
	struct scenario s;
	struct kbuild_spec spec;
	struct strbuf err = STRBUF_INIT;

	setenv("SCALETEST_ROOT", SCALETEST_SOURCE_ROOT, 1);
	scenario_init(&s);
	CHECK_EQ_INT(scenario_set(&s, "kernel=build", "--set", &err), 0);
	CHECK_EQ_INT(scenario_set(&s, "kernel_source=debian:6.12", "--set", &err), 0);
	CHECK_EQ_INT(scenario_set(&s, "kernel_fragments=debug", "--set", &err), 0);
	kbuild_spec_init(&spec);
	CHECK_EQ_INT(kbuild_spec_from_scenario(&s, &spec, &err), 0);
	CHECK_STR(spec.source, "debian:6.12");
	REQUIRE(spec.fragments.n == 5);
	CHECK_STR(path_basename(spec.fragments.v[1]), "x86_64.config");
	CHECK_STR(path_basename(spec.fragments.v[3]), "linux-6.12.config");
	CHECK_STR(path_basename(spec.fragments.v[4]), "debug.config");
	kbuild_spec_release(&spec);
	CHECK_EQ_INT(scenario_set(&s, "kernel_source=debian:5.10", "--set", &err), 0);
	kbuild_spec_init(&spec);
	CHECK_EQ_INT(kbuild_spec_from_scenario(&s, &spec, &err), 0);
	CHECK_EQ_INT(spec.fragments.n, 4);
	kbuild_spec_release(&spec);
	scenario_release(&s);
	CHECK_STR(err.buf, "");
	sb_release(&err);
}

/* Without the kernel-build toolchain on $PATH, every program of it is
 * named (the build then says to run 'make deps-kbuild'). */
TEST(kbuild_toolchain_names_what_is_missing)
{
	const char *t = test_tmpdir();
	char *old = getenv("PATH") ? xstrdup(getenv("PATH")) : NULL;
	struct strbuf missing = STRBUF_INIT;
	int n;

	REQUIRE(setenv("PATH", t, 1) == 0);
	n = kbuild_toolchain_missing(&missing);
	if (old)
		setenv("PATH", old, 1);
	else
		unsetenv("PATH");
	CHECK(n >= 8);
	CHECK_CONTAINS(missing.buf, " flex");
	CHECK_CONTAINS(missing.buf, " bison");
	CHECK_CONTAINS(missing.buf, " bc");
	CHECK_CONTAINS(missing.buf, " git");
	sb_release(&missing);

	/* With a 'flex' on $PATH, it is no longer named. */
	char *flex = xstrfmt("%s/flex", t);
	put(t, "flex", "#!/bin/sh\n");
	REQUIRE(chmod(flex, 0755) == 0);
	free(flex);
	REQUIRE(setenv("PATH", t, 1) == 0);
	CHECK_EQ_INT(kbuild_toolchain_missing(&missing), n - 1);
	if (old)
		setenv("PATH", old, 1);
	CHECK(!strstr(missing.buf, "flex"));
	sb_release(&missing);
	free(old);
}

/* KCIDB's patchset hash: what "sha256sum *.patch | cut -c-64 | sha256sum"
 * prints for the same files (the value below is that command's, run on
 * two files holding "a\n" and "b\n"); "" for no patch; NULL for one that
 * cannot be read.  Order matters. */
TEST(kbuild_patchset_hash_is_kcidbs)
{
	const char *d = test_tmpdir();
	struct strvec v = STRVEC_INIT;
	char *h;

	put(d, "0001-a.patch", "a\n");
	put(d, "0002-b.patch", "b\n");
	h = kbuild_patchset_hash(&v);
	CHECK_STR(h, "");
	free(h);
	strvec_pushf(&v, "%s/0001-a.patch", d);
	strvec_pushf(&v, "%s/0002-b.patch", d);
	h = kbuild_patchset_hash(&v);
	CHECK_STR(h, "7b77b1b66500ed66bdb3e5f10e78f55ab6d4b404fa676ec1bee2ab5b31346a80");
	free(h);
	strvec_clear(&v);
	strvec_pushf(&v, "%s/0002-b.patch", d);
	strvec_pushf(&v, "%s/0001-a.patch", d);
	h = kbuild_patchset_hash(&v);
	REQUIRE(h);
	CHECK(strcmp(h, "7b77b1b66500ed66bdb3e5f10e78f55ab6d4b404fa676ec1bee2ab5b31346a80"));
	free(h);
	strvec_pushf(&v, "%s/missing.patch", d);
	CHECK(kbuild_patchset_hash(&v) == NULL);
	strvec_clear(&v);
}
