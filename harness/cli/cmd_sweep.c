// SPDX-License-Identifier: Apache-2.0
/* scaletest sweep: run with a sweep; its options are parsed with run's
 * (run_command(), cmd_run.c), and what it adds to them is struct
 * sweep_opts. */
#include <stddef.h>

#include "cli/commands.h"

const char usage_sweep[] =
	"usage: scaletest sweep SCENARIO [--disks LIST] [--boots] [--size-memory] [run options]\n"
	"\n"
	"Measure how the cost grows with the disk count, in one boot: the\n"
	"scenario runs as 'scaletest run' does, but scsi_debug is loaded without\n"
	"hosts and hosts are added (or removed) step by step until each count of\n"
	"LIST, with a snapshot (meminfo, slabinfo, the time to enumerate) after\n"
	"each.  result.json gets a \"sweep\" section: the points, and a straight\n"
	"line fitted to each figure against the count (bytes per disk with its\n"
	"standard error, the fixed cost, R^2, residuals, and a flag when the\n"
	"growth is not linear); sweep.tsv holds the points; the reports plot\n"
	"them.  The same as 'scaletest run SCENARIO --set sweep=LIST'.\n"
	"\n"
	"  --disks LIST     the counts, comma-separated, rising strictly to a\n"
	"                   peak and then maybe falling strictly (hosts removed);\n"
	"                   the last (> 0) is the run's disks, the rest of the run\n"
	"                   (virtio, I/O, rmmod) goes on from it; the hosts hold\n"
	"                   the counts' greatest common divisor of disks each\n"
	"                   (e.g. 0,250,500,1000,2000,4000); \"even\" (the default):\n"
	"                   0 to the scenario's disks in the most even steps, up to\n"
	"                   8, that divide it (0,500,...,4000 for 4000 disks);\n"
	"                   \"even:N\": in N steps\n"
	"  --size-memory    size the guest's memory first: a probe sweep of 0, 256\n"
	"                   and 512 disks gives the bytes per disk; memory_mb becomes\n"
	"                   what the sweep's largest count needs with 10% and 256 MiB\n"
	"                   of headroom (it replaces memory_mb); refused (exit 3) when\n"
	"                   the host cannot hold it\n"
	"  --boots          then check it: one ordinary boot per non-zero rising count\n"
	"                   (the same host layout) into RUN/boots/; the boots' own\n"
	"                   per-disk fit against the sweep's and the wall time of\n"
	"                   each way, printed and kept in RUN/boots.json\n"
	"\n"
	"Every option of 'scaletest run' (--set, --out, --quiet, --dry-run,\n"
	"--kernel, --source, ...) works here too.\n"
	"\n"
	"Exit status:\n"
	"  0    pass (or a dry run)\n"
	"  1    fail, timeout, crash, oom or error: the steps measured before it\n"
	"       are kept and fitted\n"
	"  2    bad usage, a bad LIST (not rising, a count no host layout\n"
	"       reaches, a peak that cannot fit in the guest) or scenario\n"
	"       (nothing booted)\n"
	"  3    a tool or package is missing, or no room for the run (nothing booted),\n"
	"       or a kernel patch does not apply to the source (nothing built)\n"
	"  130  interrupted (the run is kept, marked interrupted)\n";

int cmd_sweep(int argc, char **argv)
{
	struct sweep_opts sw = { NULL, 0, 0 };

	return run_command(argc, argv, usage_sweep, &sw);
}
