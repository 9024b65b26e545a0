// SPDX-License-Identifier: Apache-2.0
/*
 * sweep: a sweep list's arithmetic (the sweep key, sweep.h): its
 * steps, their peak, and the disks per scsi_debug host (the steps' gcd).
 * The rules that tie the sweep to other keys (disks its last step, no
 * sd_hosts, the floor) are scenario_check()'s, in scenario.c, which also
 * expands "even" and "even:N" before the list is parsed here.
 */
#include "scenario/sweep.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/textscan.h"
#include "lib/util.h"

/* The steps of a sweep list; -1 with why on a bad one. */
int scenario_sweep_parse(const char *list, long long **steps, size_t *n,
			 struct strbuf *why)
{
	const char *p = list;
	size_t alloc = 0, peak = 0;

	*steps = NULL;
	*n = 0;
	while (*p) {
		char num[24];
		size_t l = strcspn(p, ", ");
		uint64_t v;

		if (l) {
			if (l >= sizeof(num) || (memcpy(num, p, l), num[l] = '\0',
			    parse_u64(num, &v) < 0) || v > SD_MAX_DISKS) {
				sb_addf(why, "'%.*s' is not a disk count (0..1048576)",
					(int)(l > 24 ? 24 : l), p);
				goto bad;
			}
			if (*n == SWEEP_MAX_STEPS) {
				sb_addf(why, "more than %d steps", SWEEP_MAX_STEPS);
				goto bad;
			}
			ALLOC_GROW(*steps, *n + 1, alloc);
			(*steps)[(*n)++] = (long long)v;
		}
		p += l;
		while (*p == ',' || *p == ' ')
			p++;
	}
	if (*n < 2) {
		sb_adds(why, "a sweep needs at least two steps");
		goto bad;
	}
	while (peak + 1 < *n && (*steps)[peak + 1] > (*steps)[peak])
		peak++;
	if (peak == 0) {
		sb_addf(why, "the counts must rise first (%lld, then %lld)", (*steps)[0], (*steps)[1]);
		goto bad;
	}
	for (size_t i = 1; i < *n; i++) {
		long long a = (*steps)[i - 1], b = (*steps)[i];
		if (i <= peak ? b > a : b < a)
			continue;
		if (a == b)
			sb_addf(why, "step %zu repeats %lld", i + 1, b);
		else
			sb_addf(why, "step %zu (%lld) rises again after falling from the peak %lld: "
				"the counts rise strictly to one peak, then may fall",
				i + 1, b, (*steps)[peak]);
		goto bad;
	}
	if ((*steps)[*n - 1] == 0) {
		sb_adds(why, "the last step must be more than 0 disks (it is the run's disks; "
			"rmmod measures the way back to 0)");
		goto bad;
	}
	return 0;
bad:
	free(*steps);
	*steps = NULL;
	*n = 0;
	return -1;
}

static long long gcd_ll(long long a, long long b)
{
	while (b) {
		long long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

void scenario_sweep(const struct scenario *s, long long **steps, size_t *n)
{
	struct strbuf why = STRBUF_INIT;

	if (!*s->sweep || scenario_sweep_parse(s->sweep, steps, n, &why) < 0) {
		*steps = NULL;
		*n = 0;
	}
	sb_release(&why);
}

long long scenario_sweep_peak(const struct scenario *s)
{
	long long *st, peak = s->disks;
	size_t n;

	scenario_sweep(s, &st, &n);
	for (size_t i = 0; i < n; i++)
		if (st[i] > peak)
			peak = st[i];
	free(st);
	return peak;
}

long long scenario_sd_host_disks(const struct scenario *s)
{
	long long *st, g = 0;
	size_t n;

	scenario_sweep(s, &st, &n);
	for (size_t i = 0; i < n; i++)
		g = gcd_ll(st[i], g);
	free(st);
	return n ? g : s->disks / s->sd_hosts;
}

