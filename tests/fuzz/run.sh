#!/bin/sh
# Runs the fuzz targets built by `make fuzz` (build/fuzz/NAME), one at a
# time:
#
#   sh tests/fuzz/run.sh [-t SECONDS] [--merge] [NAME...]
#
# For each target, first every input in tests/fuzz/regress/NAME/ once (the
# crashes once found, which must stay fixed), then libFuzzer for SECONDS
# (default $FUZZ_SECONDS, else 10) over tests/fuzz/corpus/NAME/.  New
# inputs go to a scratch directory, not into the repository; a crash is
# written to build/fuzz/crash/NAME/ and fails the script.  With --merge,
# the scratch inputs that add coverage are merged into the corpus
# (libFuzzer -merge=1): review and commit them, keeping the corpus small.
#
# Prints one line per target with its executions; exits 1 if any failed.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${FUZZ_SECONDS:-10}
merge=
while [ $# -gt 0 ]; do
	case $1 in
	-t) secs=$2; shift 2 ;;
	--merge) merge=1; shift ;;
	*) break ;;
	esac
done
if [ $# -gt 0 ]; then
	targets=$*
else
	targets=$(cd "$top/tests/fuzz" && ls *.c | sed 's/\.c$//')
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scaletest-fuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
nfail=0
for t in $targets; do
	bin=$top/build/fuzz/$t
	corpus=$top/tests/fuzz/corpus/$t
	regress=$top/tests/fuzz/regress/$t
	crash=$top/build/fuzz/crash/$t
	if [ ! -x "$bin" ]; then
		echo "fuzz: $t: $bin is not built (make fuzz)" >&2
		nfail=$((nfail + 1))
		continue
	fi
	mkdir -p "$crash" "$tmp/$t"
	if [ -d "$regress" ] && [ -n "$(ls "$regress")" ]; then
		if ! "$bin" -runs=0 "$regress"/* > "$tmp/$t.regress" 2>&1; then
			echo "fuzz: $t: FAIL: a regression input crashes again" >&2
			tail -n 40 "$tmp/$t.regress" >&2
			nfail=$((nfail + 1))
			continue
		fi
	fi
	[ -d "$corpus" ] || mkdir -p "$corpus"
	# -timeout: one input running this long is a finding (quadratic work
	# on guest input, a loop) (FUZZ_TIMEOUT seconds, default 20: a long
	# run at nice 19 on a loaded machine can be starved longer than that); -max_len: guest records are large, but
	# 64 KiB reaches every parser's paths.
	if "$bin" -max_total_time="$secs" -timeout="${FUZZ_TIMEOUT:-20}" -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix="$crash/" \
		"$tmp/$t" "$corpus" > "$tmp/$t.log" 2>&1; then
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$t.log")
		echo "fuzz: $t: ok, ${execs:-?} executions in ${secs}s"
	else
		echo "fuzz: $t: FAIL (the input is in build/fuzz/crash/$t/)" >&2
		grep -E -A30 '^==[0-9]+==|fuzz assertion|runtime error|ERROR: libFuzzer' \
			"$tmp/$t.log" | head -n 60 >&2
		nfail=$((nfail + 1))
		continue
	fi
	if [ -n "$merge" ]; then
		"$bin" -merge=1 -max_len=65536 "$corpus" "$tmp/$t" > "$tmp/$t.merge" 2>&1 ||
			{ echo "fuzz: $t: merge failed" >&2; tail -n 20 "$tmp/$t.merge" >&2; }
	fi
done
[ "$nfail" = 0 ] || { echo "fuzz: $nfail target(s) failed" >&2; exit 1; }
