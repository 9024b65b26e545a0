#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# What do /init's waits cost the enumeration they wait for?  This tree's
# guest scripts against another version's, the two runs side by side (at
# once, one per core, so that the machine's load falls on both alike): a
# plain run (insmod makes the disks, /init waits beside it) and a sweep
# (hosts added step by step, /init counts until each step's count is
# there).  Reports the enumeration time (guest) of each, and the progress
# records this tree's /init sent and what they cost it (result.json
# progress); writes them to results/bench/<stamp>-waits.json.  Asserts
# nothing about time.
#
#   WAITS_BEFORE=DIR sh tests/bench/waits.sh [SCENARIO] [REPEATS]
#
# DIR is a tree of the other version (e.g. `git worktree add DIR REV`):
# its initramfs/ runs under this binary (SCALETEST_ROOT=DIR).  Without
# WAITS_BEFORE both sides run this tree: the spread of two runs side by
# side, the noise under any difference.
set -eu

. "$(dirname "$0")/lib.sh"
scn=${1:-$top/scenarios/seed-i386-4000}
reps=${2:-2}
sets="--set rmmod=0 --set fio=0"
before=${WAITS_BEFORE:-$top}
if [ ! -f "$before/initramfs/init" ]; then
	echo "bench: WAITS_BEFORE='$before' has no initramfs/init" >&2
	exit 2
fi
bench_init waits "$reps" "$scn" "$reps"
# The other side is part of what was run.
[ -z "${WAITS_BEFORE:-}" ] || bench_command="WAITS_BEFORE=$(bench_quote "$before") $bench_command"

sides="before after"
bench_side before "SCALETEST_ROOT=$(bench_quote "$before") bin/scaletest run $(bench_quote "$scn") $sets [--set sweep=even], beside the other side"
bench_side after "bin/scaletest run $(bench_quote "$scn") $sets [--set sweep=even], beside the other side"
bench_metric run_enumerate_s s "$reps" "$sides" after/before "a plain run's enumeration (guest time)"
bench_metric sweep_enumerate_s s "$reps" "$sides" after/before "the default sweep's enumeration, all steps (guest time)"
bench_metric progress_records count "$reps" after - "progress records of the plain run"
bench_metric progress_cpu_s s "$reps" after - "what they cost /init (result.json progress.cpu_s)"

# both KIND ARG...: the two sides at once; their figures in $work/KIND-SIDE.
both() {
	kind=$1
	shift
	( SCALETEST_ROOT=$before bench_run "$work/$kind-before-$i" "$scn" $sets "$@" ) &
	b=$!
	( bench_run "$work/$kind-after-$i" "$scn" $sets "$@" ) &
	a=$!
	wait $b || bench_die "$kind: the before side failed"
	wait $a || bench_die "$kind: the after side failed"
	for side in before after; do
		jq -r '[.timings.enumerate_s, (.progress.records // 0), (.progress.cpu_s // 0)] | @tsv' \
			"$work/$kind-$side-$i/latest/result.json" > "$work/$kind-$side"
	done
}

echo "bench: /init's waits, $(bench_quote "$scn") (fio off, no rmmod), before = $(bench_quote "$before"), $reps repeats, each a plain run and a sweep, the sides side by side"
i=0
while [ $i -lt "$reps" ]; do
	both run
	both sweep --set sweep=even
	for kind in run sweep; do
		for side in $sides; do
			set -- $(cat "$work/$kind-$side")
			echo "bench: $kind, $side: enumeration $1 s, $2 progress records costing $3 s"
			bench_value ${kind}_enumerate_s $side "$1"
			if [ $kind = run ] && [ $side = after ]; then
				bench_value progress_records after "$2"
				bench_value progress_cpu_s after "$3"
			fi
		done
	done
	i=$((i + 1))
done
bench_finish
