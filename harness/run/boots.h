/* SPDX-License-Identifier: Apache-2.0 */
/*
 * boots: a sweep checked against one boot per point (scaletest sweep
 * --boots).
 *
 *	int err;
 *	enum run_status st = boots_execute(&s, &rc, &dir, &err);
 *
 * runs the sweep (one boot, run_execute()), then, into <its run
 * directory>/boots/, one ordinary run per distinct non-zero count of the
 * sweep's rising steps, each with sd_hosts = count / host size so that
 * every boot has the sweep's host layout.  From the boots' own
 * deltas.insmod it fits each memory figure against the count (result/fit.h)
 * as the sweep did from its points, and writes <run dir>/boots.json:
 *
 *	{"runs": [{"disks", "dir", "status", "total_s"}],
 *	 "fit": {"MemFree": {"points", "bytes_per_disk", "bytes_per_disk_se",
 *	         "fixed_kb", "r2"}, "LowFree", "Slab", "unaccounted"},
 *	 "sweep_bytes_per_disk": {"MemFree", ...},	// the sweep's own fit
 *	 "difference_pct": {"MemFree", ...},		// boots against sweep
 *	 "wall_s": {"sweep": S, "boots": B}, "speedup": B / S}
 *
 * and prints the comparison.  The status is the sweep's, or the worst of
 * the boots'; *err the class of their errors that decides (err_worse(),
 * lib/util.h), or 0.  A sweep whose rising counts need more than 64 hosts in one
 * boot (sd_hosts' range) is refused before anything runs.
 */
#ifndef SCALETEST_BOOTS_H
#define SCALETEST_BOOTS_H

#include "run/run.h"

enum run_status boots_execute(const struct scenario *s, const struct run_config *rc,
			      char **dir, int *err);

#endif
