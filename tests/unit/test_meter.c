// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "lib/meter.h"
#include "test.h"
#include "lib/util.h"

/* The line for one sample, after a start at t0 = 100 s of guest uptime. */
static char *line_after(long long from, long long to, double t, long long count)
{
	struct meter m;
	struct strbuf out = STRBUF_INIT, line = STRBUF_INIT;

	meter_start(&m, METER_LINES, "insmod", "disks", "present", from, to, 100.0);
	meter_update(&m, t, count, &out);
	meter_line(&m, &line);
	sb_release(&out);
	return sb_detach(&line, NULL);
}

TEST(meter_line_from_samples)
{
	static const struct {
		long long from, to;
		double t;
		long long count;
		const char *want;
	} cases[] = {
		{ 0, 4000, 122.0, 1234, "insmod: 1234/4000 disks present (30%), 56.1 disks/s, 22 s" },
		{ 0, 4000, 100.0, 0, "insmod: 0/4000 disks present (0%), 0 s" },
		{ 0, 4000, 180.0, 4000, "insmod: 4000/4000 disks present (100%), 50.0 disks/s, 80 s" },
		/* More than wanted (another device came): the count as it is,
		 * the share capped. */
		{ 0, 40, 102.0, 41, "insmod: 41/40 disks present (100%), 20.5 disks/s, 2 s" },
		/* Counting down (rmmod): done is how far from the start. */
		{ 4000, 0, 110.0, 3000, "insmod: 1000/4000 disks present (25%), 100.0 disks/s, 10 s" },
		/* A count below the start is no progress, never negative. */
		{ 10, 50, 101.0, 3, "insmod: 0/40 disks present (0%), 0.0 disks/s, 1 s" },
		/* A sample older than the start: elapsed stays 0. */
		{ 0, 10, 90.0, 5, "insmod: 5/10 disks present (50%), 0 s" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *got = line_after(cases[i].from, cases[i].to, cases[i].t, cases[i].count);
		CHECK_STR(got, cases[i].want);
		free(got);
	}
}

TEST(meter_lines_every_tenth_or_ten_seconds)
{
	struct meter m;
	struct strbuf out = STRBUF_INIT;

	meter_start(&m, METER_LINES, "insmod", "disks", "present", 0, 1000, 0.0);
	meter_update(&m, 1.0, 50, &out);	/* 5%: nothing yet */
	CHECK_STR(out.buf, "");
	meter_update(&m, 2.0, 100, &out);	/* 10% */
	CHECK_STR(out.buf, "scaletest: insmod: 100/1000 disks present (10%), 50.0 disks/s, 2 s\n");
	sb_reset(&out);
	meter_update(&m, 3.0, 150, &out);	/* same tenth, 1 s later */
	CHECK_STR(out.buf, "");
	meter_update(&m, 12.0, 190, &out);	/* same tenth, 10 s after the last line */
	CHECK_STR(out.buf, "scaletest: insmod: 190/1000 disks present (19%), 15.8 disks/s, 12 s\n");
	sb_reset(&out);
	meter_update(&m, 13.0, 700, &out);	/* several tenths at once: one line */
	CHECK_STR(out.buf, "scaletest: insmod: 700/1000 disks present (70%), 53.8 disks/s, 13 s\n");
	sb_reset(&out);
	meter_update(&m, 30.0, 700, &out);	/* 17 s on, but no change: nothing */
	CHECK_STR(out.buf, "");
	meter_finish(&m, 40.0, 1000, &out);
	CHECK_STR(out.buf, "scaletest: insmod: 1000/1000 disks present (100%), 25.0 disks/s, 40 s\n");
	sb_reset(&out);
	/* Finished: later samples and a second finish say nothing. */
	meter_update(&m, 41.0, 1000, &out);
	meter_finish(&m, 41.0, 1000, &out);
	CHECK_STR(out.buf, "");
	sb_release(&out);
}

TEST(meter_tty_rewrites_one_line_and_erases_it)
{
	struct meter m;
	struct strbuf out = STRBUF_INIT;

	meter_start(&m, METER_TTY, "rmmod", "disks", "removed", 40, 0, 5.0);
	meter_update(&m, 6.0, 30, &out);
	CHECK_STR(out.buf, "\r\033[Kscaletest: rmmod: 10/40 disks removed (25%), 10.0 disks/s, 1 s");
	sb_reset(&out);
	meter_update(&m, 6.5, 29, &out);	/* every sample redraws */
	CHECK_STR(out.buf, "\r\033[Kscaletest: rmmod: 11/40 disks removed (27%), 7.3 disks/s, 2 s");
	CHECK(strchr(out.buf, '\n') == NULL);
	CHECK(util_before_message != NULL);	/* messages erase it first */
	sb_reset(&out);
	meter_finish(&m, 9.0, 0, &out);
	CHECK_STR(out.buf, "\r\033[K");
	CHECK(util_before_message == NULL);
	sb_release(&out);
}

TEST(meter_off_says_nothing)
{
	struct meter m;
	struct strbuf out = STRBUF_INIT;

	CHECK_EQ_INT(meter_mode_for(2, 1), METER_OFF);
	meter_start(&m, meter_mode_for(2, 1), "insmod", "disks", "present", 0, 10, 0.0);
	meter_update(&m, 1.0, 5, &out);
	meter_finish(&m, 2.0, 10, &out);
	CHECK_STR(out.buf, "");
	sb_release(&out);
}
