#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Do thousands of disks slow the real ones?  fio's verify job on the virtio
# disks at the end of a 4000-disk range, against a guest with only those
# virtio disks, side by side, alternating.  Also prints the range runs'
# peak memory during I/O next to the steady state after insmod.  Writes
# the figures to results/bench/<stamp>-fio-range.json.  Asserts nothing
# about time.
#
#   sh tests/bench/fio-range.sh [SCENARIO] [REPEATS]
set -eu

. "$(dirname "$0")/lib.sh"
scn=${1:-$top/scenarios/seed-i386-4000}
reps=${2:-2}
bench_init fio-range "$reps" "$scn" "$reps"

bench_side range "bin/scaletest run $(bench_quote "$scn") --set rmmod=0"
bench_side alone "bin/scaletest run $(bench_quote "$scn") --set rmmod=0 --set disks=0"
bench_metric write_iops IOPS "$reps" "alone range" range/alone "fio verify-write IOPS per virtio disk"
bench_metric read_iops IOPS "$reps" "alone range" range/alone "fio verify (read) IOPS per virtio disk"
bench_metric io_extra_kB kB "$reps" range - "MemFree taken by fio beyond the steady state after insmod (monitor peak)"

one() { # SIDE, extra --set
	out=$work/$1-$i
	shift
	bench_run "$out" "$scn" --set rmmod=0 "$@"
	jq -r '[([.fio.jobs[] | select(.group == "verify-write") | .write.iops] | add / length),
		([.fio.jobs[] | select(.group == "verify") | .read.iops] | add / length),
		(.monitor.peak.io_extra_kb // "n/a"),
		(.monitor.peak.steady_after_insmod.MemFree // "n/a"),
		(.monitor.peak.during_io.MemFree_min // "n/a")] | @tsv' "$out/latest/result.json"
}

echo "bench: fio verify IOPS per virtio disk, $(bench_quote "$scn"), with and without the scsi_debug range, $reps repeats"
i=0
while [ $i -lt "$reps" ]; do
	r=$(one range)
	set -- $r
	echo "bench: with the range: write $1 IOPS, read $2 IOPS; I/O peak $3 kB beyond steady (MemFree $4 -> $5 kB)"
	bench_value write_iops range "$1"
	bench_value read_iops range "$2"
	bench_value io_extra_kB range "$3"
	r=$(one alone --set disks=0)
	set -- $r
	echo "bench: virtio disks alone: write $1 IOPS, read $2 IOPS"
	bench_value write_iops alone "$1"
	bench_value read_iops alone "$2"
	i=$((i + 1))
done
bench_finish
