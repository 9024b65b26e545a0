#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# What does the time attribution cost?  The same scenario with
# time_attribution off and on, in interleaved pairs (off, on, off, on...):
# the wall time of each phase the sampler watches (insmod's enumeration,
# rmmod) and of the whole run, the memory figures (the headline per disk,
# MemFree per disk, what came back after rmmod), and on the "on" side the
# sampler's own CPU share and its samples.  Writes
# results/bench/<stamp>-timeattr.json.  Asserts nothing about time.
#
#   sh tests/bench/timeattr.sh [SCENARIO] [REPEATS] [--set KEY=VALUE...]
#
# Default: scenarios/x86_64-4000 with fio off (fio is not what the sampler
# watches, and takes minutes at 4000 disks), 3 pairs.
set -eu

. "$(dirname "$0")/lib.sh"
scn=${1:-$top/scenarios/x86_64-4000}
reps=${2:-3}
[ $# -ge 2 ] && shift 2 || set --
sets="--set fio=0 $*"
bench_init timeattr "$reps" "$scn" "$reps" "$@"

sides="off on"
bench_side off "bin/scaletest run $(bench_quote "$scn") $sets --set time_attribution=0"
bench_side on "bin/scaletest run $(bench_quote "$scn") $sets --set time_attribution=1"
bench_metric enumerate_s s "$reps" "$sides" on/off "insmod's enumeration of the scsi_debug disks (guest time)"
bench_metric rmmod_s s "$reps" "$sides" on/off "rmmod until every disk is gone (guest time)"
bench_metric total_s s "$reps" "$sides" on/off "the whole run (host time)"
bench_metric per_disk_B B "$reps" "$sides" on/off "memory per disk at insmod (LowFree, or MemFree without HIGHMEM)"
bench_metric memfree_per_disk_B B "$reps" "$sides" on/off "MemFree per disk at insmod"
bench_metric returned_pct % "$reps" "$sides" on/off "MemFree taken at insmod that came back after rmmod"
bench_metric cost_pct % "$reps" on - "the sampler's CPU time over the phases it watched (schedstat)"
bench_metric samples count "$reps" on - "samples taken (insmod and rmmod)"
bench_metric closure_pct % "$reps" on - "rmmod's wall time attributed by the samples"

one() { # SIDE 0|1
	out=$work/$1-$i
	# (the word splitting of $sets is meant: --set KEY=VALUE pairs)
	# shellcheck disable=SC2086
	bench_run "$out" "$scn" $sets --set time_attribution="$2"
	jq -r '[.timings.enumerate_s, .timings.rmmod_s, .timings.total_s,
		(.deltas.insmod.per_disk_bytes.LowFree // .deltas.insmod.per_disk_bytes.MemFree),
		.deltas.insmod.per_disk_bytes.MemFree, (.deltas.rmmod.returned_pct // 0),
		(.time_attribution.cost.pct // 0),
		([.time_attribution.phases[]?.samples] | add // 0),
		([.time_attribution.phases[]? | select(.phase == "rmmod") | .closure.pct][0] // 0)] | @tsv' \
		"$out/latest/result.json"
}

echo "bench: time attribution cost, $(bench_quote "$scn") $sets, $reps pairs (off, on)"
i=0
while [ $i -lt "$reps" ]; do
	for side in $sides; do
		on=0
		[ $side = on ] && on=1
		set -- $(one $side $on)
		extra=
		[ $side = on ] && extra=", sampler $7% of the CPU, $8 samples, rmmod closure $9%"
		echo "bench: $side: enumeration $1 s, rmmod $2 s, total $3 s, per disk $4 B (MemFree $5 B), returned $6%$extra"
		bench_value enumerate_s $side "$1"
		bench_value rmmod_s $side "$2"
		bench_value total_s $side "$3"
		bench_value per_disk_B $side "$4"
		bench_value memfree_per_disk_B $side "$5"
		bench_value returned_pct $side "$6"
		if [ $side = on ]; then
			bench_value cost_pct on "$7"
			bench_value samples on "$8"
			bench_value closure_pct on "$9"
		fi
	done
	i=$((i + 1))
done
bench_finish
