/* SPDX-License-Identifier: Apache-2.0 */
/*
 * group: repeated runs of one scenario, kept together so that compare can
 * use their spread.
 *
 *	int err;
 *	enum run_status st = group_execute(&s, &rc, 3, &dir, &err);
 *
 * makes <rc.out>/<stamp>-<scenario>-x3/ holding the three run directories
 * and group.json ({"scenario", "runs": [...], "statuses": [...]}), stops
 * early when a run is interrupted, prints the spread of the per-disk
 * figures, and returns the worst status (pass only if every run passed);
 * *err is the class of the runs' errors that decides the exit (err_worse(),
 * lib/util.h), or 0.
 * <rc.out>/latest points at the group when every run passed.
 */
#ifndef SCALETEST_GROUP_H
#define SCALETEST_GROUP_H

#include "run/run.h"

enum run_status group_execute(const struct scenario *s, const struct run_config *rc,
			      int repeat, char **dir, int *err);

#endif
