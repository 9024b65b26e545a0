#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs the fuzz targets built by `make fuzz` (build/fuzz/NAME), one at a
# time, each a test of this suite:
#
#   sh tests/fuzz/run.sh [-t SECONDS] [--merge] [NAME...]
#
# For each target, first every input in tests/fuzz/regress/NAME/ once (the
# crashes once found, which must stay fixed), then libFuzzer for SECONDS
# (default $FUZZ_SECONDS, else 10) over tests/fuzz/corpus/NAME/.  New
# inputs go to a scratch directory, not into the repository; a crash is
# written to build/fuzz/crash/NAME/ and fails the target.  With --merge,
# the scratch inputs that add coverage are merged into the corpus
# (libFuzzer -merge=1): review and commit them, keeping the corpus small.
#
# Says each target's executions; exits 1 if any failed.  (make test runs
# it through make fuzz, which builds the targets first.)
# suite: full: make fuzz FUZZ_SECONDS=2
# order: 30
set -u

secs=${FUZZ_SECONDS:-10}
merge=
while [ $# -gt 0 ]; do
	case $1 in
	-t) secs=$2; shift 2 ;;
	--merge) merge=1; shift ;;
	*) break ;;
	esac
done
. "$(dirname "$0")/../lib.sh"

# fuzz NAME: the regression inputs, then libFuzzer for $secs.
fuzz() {
	t=$1
	fbin=$build/fuzz/$t
	corpus=$top/tests/fuzz/corpus/$t
	regress=$top/tests/fuzz/regress/$t
	crash=$build/fuzz/crash/$t
	check "$fbin is built (make fuzz)" [ -x "$fbin" ]
	[ -x "$fbin" ] || return
	mkdir -p "$crash" "$tmp/$t"
	if [ -d "$regress" ] && [ -n "$(ls "$regress")" ]; then
		checked
		if ! "$fbin" -runs=0 "$regress"/* > "$tmp/$t.regress" 2>&1; then
			fail "a regression input crashes again"
			tail -n 40 "$tmp/$t.regress" >&2
			return
		fi
	fi
	[ -d "$corpus" ] || mkdir -p "$corpus"
	# -timeout: one input running this long is a finding (quadratic work
	# on guest input, a loop) (FUZZ_TIMEOUT seconds, default 20: a long
	# run at nice 19 on a loaded machine can be starved longer than that); -max_len: guest records are large, but
	# 64 KiB reaches every parser's paths.
	checked
	if "$fbin" -max_total_time="$secs" -timeout="${FUZZ_TIMEOUT:-20}" -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix="$crash/" \
		"$tmp/$t" "$corpus" > "$tmp/$t.log" 2>&1; then
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$t.log")
		say "fuzz: $t: ok, ${execs:-?} executions in ${secs}s"
	else
		fail "libFuzzer found something (the input is in build/fuzz/crash/$t/)"
		grep -E -A30 '^==[0-9]+==|fuzz assertion|runtime error|ERROR: libFuzzer' \
			"$tmp/$t.log" | head -n 60 >&2
		return
	fi
	if [ -n "$merge" ]; then
		"$fbin" -merge=1 -max_len=65536 "$corpus" "$tmp/$t" > "$tmp/$t.merge" 2>&1 ||
			{ say "fuzz: $t: merge failed"; tail -n 20 "$tmp/$t.merge" >&2; }
	fi
}

for t in $(cd "$top/tests/fuzz" && ls *.c | sed 's/\.c$//'); do
	add_test "$t" fuzz "$t"
done
run_tests "$@"
