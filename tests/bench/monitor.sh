#!/bin/sh
# What does the memory monitor cost?  The same scenario with the monitor off
# and at its default interval, alternating; reports enumeration time and the
# per-disk figures.  Asserts nothing.
#
#   sh tests/bench/monitor.sh [SCENARIO] [REPEATS]
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/bin/scaletest
scn=${1:-$top/scenarios/seed-i386-4000}
reps=${2:-2}
work=$(mktemp -d "${TMPDIR:-/tmp}/scaletest-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

one() { # interval_ms
	"$bin" run "$scn" --set rmmod=0 --set fio=0 --set monitor_interval_ms="$1" \
		--out "$work/m$1" --quiet 2>/dev/null || true
	r=$(ls -t "$work/m$1"/*/result.json | head -n 1)
	jq -r '[.status, .timings.enumerate_s, (.deltas.insmod.per_disk_bytes.LowFree // .deltas.insmod.per_disk_bytes.MemFree), (.monitor.received // 0)] | @tsv' "$r"
}

echo "bench: monitor cost, $scn (fio off, no rmmod), $reps repeats each, alternating"
i=0
while [ $i -lt "$reps" ]; do
	for ms in 0 1000; do
		set -- $(one $ms)
		echo "bench: monitor_interval_ms=$ms ($1): enumeration $2 s, per disk $3 B, $4 samples"
		echo "$ms $2" >> "$work/t"
	done
	i=$((i + 1))
done
awk '{ n[$1]++; e[$1] += $2 } END { printf "bench: mean enumeration: monitor off %.1f s, on %.1f s, ratio %.2f\n", e[0] / n[0], e[1000] / n[1000], (e[1000] / n[1000]) / (e[0] / n[0]) }' "$work/t"
