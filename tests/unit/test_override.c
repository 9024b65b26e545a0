// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "kernel/override.h"
#include "report/format.h"
#include "scenario/scenario.h"
#include "test.h"
#include "lib/util.h"

/* The first 0x440 bytes of a bzImage: header, protocol, version string. */
static unsigned char *image_head(unsigned proto, int x64, const char *version, size_t *len)
{
	unsigned char *b = xcalloc(1, 0x440);

	memcpy(b + 0x202, "HdrS", 4);
	b[0x206] = proto & 0xff;
	b[0x207] = proto >> 8;
	if (version) {
		b[0x20e] = 0x00;
		b[0x20f] = 0x02;	/* string at 0x200 + 0x200 */
		memcpy(b + 0x400, version, strlen(version));
	}
	b[0x236] = x64 ? 1 : 0;
	*len = 0x440;
	return b;
}

TEST(kernel_image_header)
{
	struct kernel_image_info info;
	struct strbuf err = STRBUF_INIT;
	size_t len;
	unsigned char *b = image_head(0x20f, 1, "6.1.0-28-amd64 (debian-kernel@lists) #1 SMP", &len);

	CHECK_EQ_INT(kernel_image_parse(b, len, &info, &err), 0);
	CHECK_EQ_INT(info.arch, ARCH_X86_64);
	CHECK_STR(info.version, "6.1.0-28-amd64");
	free(b);

	b = image_head(0x20f, 0, "6.1.0-28-686-pae (x) #1", &len);
	CHECK_EQ_INT(kernel_image_parse(b, len, &info, &err), 0);
	CHECK_EQ_INT(info.arch, ARCH_I386);
	CHECK_STR(info.version, "6.1.0-28-686-pae");
	free(b);

	/* Before protocol 2.12 the header does not say the arch. */
	b = image_head(0x20a, 1, NULL, &len);
	CHECK_EQ_INT(kernel_image_parse(b, len, &info, &err), 0);
	CHECK_EQ_INT(info.arch, -1);
	CHECK_STR(info.version, "");
	free(b);

	/* A version with control bytes in it is no version. */
	b = image_head(0x20f, 1, "6.1\033[2J (x)", &len);
	CHECK_EQ_INT(kernel_image_parse(b, len, &info, &err), 0);
	CHECK_STR(info.version, "");
	free(b);

	/* Nor one that would climb out of /lib/modules. */
	b = image_head(0x20f, 1, "../../../etc (x)", &len);
	CHECK_EQ_INT(kernel_image_parse(b, len, &info, &err), 0);
	CHECK_STR(info.version, "");
	free(b);
	b = image_head(0x20f, 1, "6.1/../x (x)", &len);
	CHECK_EQ_INT(kernel_image_parse(b, len, &info, &err), 0);
	CHECK_STR(info.version, "");
	free(b);
	CHECK(kernel_release_valid("6.12.48+deb12-amd64"));
	CHECK(!kernel_release_valid("6..1"));
	CHECK(!kernel_release_valid(".hidden"));

	b = image_head(0x20f, 1, NULL, &len);
	memcpy(b + 0x202, "Hdrs", 4);
	CHECK_EQ_INT(kernel_image_parse(b, len, &info, &err), -1);
	CHECK_CONTAINS(err.buf, "not a bzImage");
	sb_reset(&err);
	CHECK_EQ_INT(kernel_image_parse(b, 0x100, &info, &err), -1);
	CHECK_CONTAINS(err.buf, "not a bzImage");
	free(b);
	sb_release(&err);
}

TEST(kernel_override_conflicts)
{
	struct kernel_override o = { NULL, NULL, NULL, NULL };
	struct strvec user = STRVEC_INIT, sets = STRVEC_INIT, notes = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	struct scenario s;

	scenario_init(&s);
	CHECK_EQ_INT(kernel_override_any(&o), 0);
	o.image = "/x/bzImage";
	o.source = "/x/linux";
	CHECK_EQ_INT(kernel_override_sets(&o, &s, 0, &user, &sets, &notes, &err), -1);
	CHECK_STR(err.buf, "--kernel and --source name two kernels: give one");
	sb_reset(&err);
	o.image = NULL;
	o.source = test_tmpdir();
	strvec_push(&user, "kernel_source=debian");
	CHECK_EQ_INT(kernel_override_sets(&o, &s, 0, &user, &sets, &notes, &err), -1);
	CHECK_STR(err.buf, "--source and --set kernel_source=debian both choose the kernel: give one");
	sb_reset(&err);
	strvec_clear(&user);
	/* Fragments and jobs compose with a build. */
	strvec_push(&user, "kernel_fragments=debug");
	CHECK_EQ_INT(kernel_override_sets(&o, &s, 0, &user, &sets, &notes, &err), 0);
	CHECK(strvec_find(&sets, "kernel=build") >= 0);
	char *want = xstrfmt("kernel_source=%s", test_tmpdir());
	CHECK(strvec_find(&sets, want) >= 0);
	free(want);
	CHECK_EQ_INT(notes.n, 0);	/* nothing in a file gave way */
	scenario_release(&s);
	strvec_clear(&user);
	strvec_clear(&sets);
	strvec_clear(&notes);
	sb_release(&err);
}

TEST(shell_quote_words)
{
	static const char *const cases[][2] = {
		{ "qemu-system-x86_64", "qemu-system-x86_64" },
		{ "pc,accel=tcg", "pc,accel=tcg" },
		{ "console=ttyS0,115200 panic=-1", "'console=ttyS0,115200 panic=-1'" },
		{ "it's", "'it'\\''s'" },
		{ "", "''" },
		{ "a\nb", "'a?b'" },
		{ "$HOME", "'$HOME'" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf sb = STRBUF_INIT;
		shell_quote(&sb, cases[i][0]);
		CHECK_STR(sb.buf, cases[i][1]);
		sb_release(&sb);
	}
}
