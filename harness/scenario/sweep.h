/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep: a sweep list's arithmetic (sweep.c), on struct scenario (keys.h);
 * scenario.c's rules across keys stand on it.
 *
 * A sweep (the sweep key, "0,250,500,1000"): one boot that loads scsi_debug
 * without hosts, then adds (or removes) hosts of scenario_sd_host_disks()
 * disks each until each step's count, with a snapshot after each.  The
 * list rises strictly to its peak, then may fall strictly; its last step
 * (> 0) is the run's disks.  scenario_sweep() gives the steps (a new array,
 * *n = 0 and NULL without a sweep); scenario_check() has validated them.
 */
#ifndef SCALETEST_SCENARIO_SWEEP_H
#define SCALETEST_SCENARIO_SWEEP_H

#include <stddef.h>

#include "lib/strbuf.h"
#include "scenario/keys.h"

#define SWEEP_MAX_STEPS 64
/* sd's 20-bit disk index: the most disks it names (sdbgqcv the last). */
#define SD_MAX_DISKS 1048576
#define SWEEP_MAX_HOSTS 1024
/* The steps of a sweep list ("0,250,500"); -1 with why on a bad one. */
int scenario_sweep_parse(const char *list, long long **steps, size_t *n,
			 struct strbuf *why);
void scenario_sweep(const struct scenario *s, long long **steps, size_t *n);
long long scenario_sweep_peak(const struct scenario *s);	/* disks without a sweep */
/* Disks per scsi_debug host: disks / sd_hosts, or the gcd of a sweep's
 * non-zero steps. */
long long scenario_sd_host_disks(const struct scenario *s);

#endif
