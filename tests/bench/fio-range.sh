#!/bin/sh
# Do thousands of disks slow the real ones?  fio's verify job on the virtio
# disks at the end of a 4000-disk range, against a guest with only those
# virtio disks, side by side, alternating.  Also prints the seed runs' peak
# memory during I/O next to the steady state after insmod.  Asserts nothing.
#
#   sh tests/bench/fio-range.sh [SCENARIO] [REPEATS]
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/bin/scaletest
scn=${1:-$top/scenarios/seed-i386-4000}
reps=${2:-2}
work=$(mktemp -d "${TMPDIR:-/tmp}/scaletest-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

one() { # label, extra --set
	label=$1
	shift
	"$bin" run "$scn" "$@" --out "$work/$label" --quiet 2>/dev/null || true
	r=$(ls -t "$work/$label"/*/result.json | head -n 1)
	jq -r '[.status,
		([.fio.jobs[] | select(.group == "verify-write") | .write.iops] | add / length),
		([.fio.jobs[] | select(.group == "verify") | .read.iops] | add / length),
		(.monitor.peak.io_extra_kb // "n/a"),
		(.monitor.peak.steady_after_insmod.MemFree // "n/a"),
		(.monitor.peak.during_io.MemFree_min // "n/a")] | @tsv' "$r"
}

echo "bench: fio verify IOPS per virtio disk, $scn, with and without the scsi_debug range, $reps repeats"
i=0
while [ $i -lt "$reps" ]; do
	set -- $(one range --set rmmod=0)
	echo "bench: with the range ($1): write $2 IOPS, read $3 IOPS; I/O peak $4 kB beyond steady (MemFree $5 -> $6 kB)"
	echo "range $2 $3" >> "$work/t"
	set -- $(one alone --set disks=0 --set rmmod=0)
	echo "bench: virtio disks alone ($1): write $2 IOPS, read $3 IOPS"
	echo "alone $2 $3" >> "$work/t"
	i=$((i + 1))
done
awk '{ n[$1]++; w[$1] += $2; r[$1] += $3 }
     END { printf "bench: mean write IOPS %.0f (range) vs %.0f (alone), ratio %.2f; read %.0f vs %.0f, ratio %.2f\n",
           w["range"] / n["range"], w["alone"] / n["alone"], (w["range"] / n["range"]) / (w["alone"] / n["alone"]),
           r["range"] / n["range"], r["alone"] / n["alone"], (r["range"] / n["range"]) / (r["alone"] / n["alone"]) }' "$work/t"
