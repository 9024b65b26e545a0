#!/bin/sh
# What does the memory monitor cost?  The same scenario with the monitor off
# and at its default interval, alternating; reports enumeration time and the
# per-disk figures, and writes them to results/bench/<stamp>-monitor.json.
# Asserts nothing about time.
#
#   sh tests/bench/monitor.sh [SCENARIO] [REPEATS]
set -eu

. "$(dirname "$0")/lib.sh"
scn=${1:-$top/scenarios/seed-i386-4000}
reps=${2:-2}
sets="--set rmmod=0 --set fio=0"
bench_init monitor "$reps" "$scn" "$reps"

bench_side off "bin/scaletest run $(bench_quote "$scn") $sets --set monitor_interval_ms=0"
bench_side on "bin/scaletest run $(bench_quote "$scn") $sets --set monitor_interval_ms=1000"
bench_metric enumerate_s s "$reps" "off on" on/off "enumeration of the scsi_debug disks (guest time)"
bench_metric per_disk_B B "$reps" "off on" on/off "memory per disk (LowFree, or MemFree without HIGHMEM)"
bench_metric samples count "$reps" "on" - "monitor samples received"

one() { # SIDE INTERVAL_MS
	out=$work/$1-$i
	bench_run "$out" "$scn" $sets --set monitor_interval_ms="$2"
	jq -r '[.timings.enumerate_s, (.deltas.insmod.per_disk_bytes.LowFree // .deltas.insmod.per_disk_bytes.MemFree), (.monitor.received // 0)] | @tsv' \
		"$out/latest/result.json"
}

echo "bench: monitor cost, $(bench_quote "$scn") (fio off, no rmmod), $reps repeats each, alternating"
i=0
while [ $i -lt "$reps" ]; do
	for side in off on; do
		ms=0
		[ $side = on ] && ms=1000
		r=$(one $side $ms)
		set -- $r
		echo "bench: monitor_interval_ms=$ms: enumeration $1 s, per disk $2 B, $3 samples"
		bench_value enumerate_s $side "$1"
		bench_value per_disk_B $side "$2"
		[ $side = on ] && bench_value samples on "$3"
	done
	i=$((i + 1))
done
bench_finish
