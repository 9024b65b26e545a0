// SPDX-License-Identifier: Apache-2.0
#include <ftw.h>
#include <stdlib.h>
#include <string.h>

#include "guest/phase.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "test.h"

TEST(phase_names_round_trip)
{
	for (int i = 0; i < PHASE_COUNT; i++)
		CHECK_EQ_INT(phase_index(phase_name(i)), i);
	CHECK_EQ_INT(phase_index("probe"), -1);
	CHECK_EQ_INT(phase_index(""), -1);
	CHECK_STR(phase_name(PHASE_COUNT), "end");
}

/* initramfs/init walks the phases with "phase=NAME" lines: the same list,
 * in the same order, as the host's enum. */
TEST(phase_list_matches_the_guest_script)
{
	struct strbuf init = STRBUF_INIT;
	const char *p;
	int n = 0;

	REQUIRE(sb_read_file(&init, SCALETEST_SOURCE_ROOT "/initramfs/init") == 0);
	for (p = init.buf; (p = strstr(p, "\nphase=")); p++) {
		const char *name = p + 7;
		size_t len = strcspn(name, " \t\n#;");
		char buf[64];

		snprintf(buf, sizeof(buf), "%.*s", (int)len, name);
		if (n < PHASE_COUNT)
			CHECK_STR(buf, phase_name(n));
		n++;
	}
	CHECK_EQ_INT(n, PHASE_COUNT);
	sb_release(&init);
}

static struct strbuf offenders = STRBUF_INIT;

static int scan(const char *path, const struct stat *st, int type, struct FTW *f)
{
	/* "boot" is left out: it is also the ordinary word (the boot time). */
	static const char *const names[] = {
		"\"before-insmod\"", "\"after-insmod\"", "\"after-virtio\"",
		"\"after-io\"", "\"after-rmmod\"",
	};
	struct strbuf src = STRBUF_INIT;
	size_t len = strlen(path);

	(void)st;
	(void)f;
	if (type != FTW_F || len < 2 || (strcmp(path + len - 2, ".c") && strcmp(path + len - 2, ".h")))
		return 0;
	if (strstr(path, "/guest/phase.c"))
		return 0;
	if (sb_read_file(&src, path) == 0)
		for (size_t i = 0; i < ARRAY_SIZE(names); i++)
			if (strstr(src.buf, names[i]))
				sb_addf(&offenders, "%s spells %s; ", path, names[i]);
	sb_release(&src);
	return 0;
}

/* The phase names live in guest/phase.c alone: everything else uses
 * phase_name(PHASE_...), so renaming or adding a phase is one edit. */
TEST(no_other_file_spells_a_phase_name)
{
	sb_reset(&offenders);
	REQUIRE(nftw(SCALETEST_SOURCE_ROOT "/harness", scan, 16, FTW_PHYS) == 0);
	CHECK_STR(offenders.buf, "");
}
