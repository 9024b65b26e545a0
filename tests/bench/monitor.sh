#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# What does the memory monitor cost?  The same scenario with the monitor off
# and at its default interval, alternating; reports enumeration time and the
# per-disk figures, and writes them to results/bench/<stamp>-monitor.json.
# Asserts nothing about time.
#
#   sh tests/bench/monitor.sh [SCENARIO] [REPEATS]
#   MONITOR_BEFORE=DIR sh tests/bench/monitor.sh ...
#
# With MONITOR_BEFORE, a third side, "before", runs the monitor of DIR's
# initramfs/ (SCALETEST_ROOT=DIR: the guest scripts of another version,
# e.g. `git worktree add DIR REV`), so a change to the monitor is measured
# against the old one in the same run.
set -eu

. "$(dirname "$0")/lib.sh"
scn=${1:-$top/scenarios/seed-i386-4000}
reps=${2:-2}
sets="--set rmmod=0 --set fio=0"
before=${MONITOR_BEFORE:-}
if [ -n "$before" ] && [ ! -f "$before/initramfs/init" ]; then
	echo "bench: MONITOR_BEFORE='$before' has no initramfs/init" >&2
	exit 2
fi
bench_init monitor "$reps" "$scn" "$reps"

sides="off on"
bench_side off "bin/scaletest run $(bench_quote "$scn") $sets --set monitor_interval_ms=0"
bench_side on "bin/scaletest run $(bench_quote "$scn") $sets --set monitor_interval_ms=1000"
if [ -n "$before" ]; then
	sides="off on before"
	bench_side before "SCALETEST_ROOT=$(bench_quote "$before") bin/scaletest run $(bench_quote "$scn") $sets --set monitor_interval_ms=1000"
fi
bench_metric enumerate_s s "$reps" "$sides" on/off "enumeration of the scsi_debug disks (guest time)"
bench_metric per_disk_B B "$reps" "$sides" on/off "memory per disk (LowFree, or MemFree without HIGHMEM)"
bench_metric samples count "$reps" "${sides#off }" - "monitor samples received"
bench_metric cpu_pct % "$reps" "${sides#off }" - "the monitor's share of the guest's CPU while it ran"

one() { # SIDE INTERVAL_MS
	out=$work/$1-$i
	if [ "$1" = before ]; then
		SCALETEST_ROOT=$before bench_run "$out" "$scn" $sets --set monitor_interval_ms="$2"
	else
		bench_run "$out" "$scn" $sets --set monitor_interval_ms="$2"
	fi
	# The monitor's own line on the console (initramfs/lib/monitor.sh): its CPU
	# ticks and its children's, against the ticks since it started.
	cpu=$(tr -d '\r' < "$out/latest/console.log" |
		sed -n 's/.*monitor: [0-9]* samples, \([0-9]*\) cpu ticks since tick \([0-9]*\), uptime \([0-9.]*\).*/\1 \2 \3/p' |
		awk '{ printf "%.2f\n", 100 * $1 / ($3 * 100 - $2) }')
	[ "$2" = 0 ] || [ -n "$cpu" ] ||
		bench_die "$1: no \"monitor: ... cpu ticks\" line on the console (a monitor older than this benchmark)"
	jq -r --arg cpu "${cpu:-0}" '[.timings.enumerate_s, (.deltas.insmod.per_disk_bytes.LowFree // .deltas.insmod.per_disk_bytes.MemFree), (.monitor.received // 0), $cpu] | @tsv' \
		"$out/latest/result.json"
}

echo "bench: monitor cost, $(bench_quote "$scn") (fio off, no rmmod), $reps repeats each, alternating ($sides)"
i=0
while [ $i -lt "$reps" ]; do
	for side in $sides; do
		ms=0
		[ $side != off ] && ms=1000
		r=$(one $side $ms)
		set -- $r
		echo "bench: $side, monitor_interval_ms=$ms: enumeration $1 s, per disk $2 B, $3 samples, monitor CPU $4%"
		bench_value enumerate_s $side "$1"
		bench_value per_disk_B $side "$2"
		[ $side != off ] && bench_value samples $side "$3"
		[ $side != off ] && bench_value cpu_pct $side "$4"
	done
	i=$((i + 1))
done
bench_finish
if [ -n "$before" ]; then
	jq -r '.metrics[] | select(.name == "enumerate_s") | .median
		| "bench: enumeration before/off \(.before / .off * 100 | round / 100), on/off \(.on / .off * 100 | round / 100)"' "$file"
fi
