#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The test runner behind make check and make test: runs every suite, a
# failing one included, then prints one verdict: a table of the suites
# with their results and times, and every failure (each suite's "not ok"
# lines) in one place.
#
#	sh tests/run.sh              every suite (make test-only)
#	sh tests/run.sh --quick      the quick ones (make check)
#	sh tests/run.sh cli e2e/run  those suites, quick or not (names: --list)
#	sh tests/run.sh --list       the suites, in the order they run
#	TESTS='usage*' sh tests/run.sh cli   only the tests matching in each
#
# A suite's result: "ok" (exit 0, a test ran), "FAIL" (any other exit),
# "skip" (exit 77: every test it selected was skipped, e.g. html/chromium
# without chromium), or "none" (TESTS= set and it selected no test).
# Exit 1 if a suite failed, or skipped in a run without --quick: make test
# installs every suite's tools first (make deps-full), so a suite that
# cannot run there is a failure; make check (--quick) installs nothing
# and only reports it.  Exit 2 if TESTS= selected no test in any suite
# run (a mistyped name is an error, not a pass).
#
# The suites are found, not listed: every tests/*.sh and tests/*/*.sh with
# a line "# suite: quick" (make check and make test) or "# suite: full"
# (make test only), each run as "sh FILE", or as the command after a
# third field ("# suite: full: make fuzz FUZZ_SECONDS=2": what builds it
# first); quick ones first, then the full ones; within each, by a line
# "# order: N" (default 50: the shorter suites lower, so that they fail
# first; the suites that share kernel builds in the order that lets them),
# then by name; before them the
# unit tests (build/unit-tests, or $SCALETEST_BUILD's), and before the full ones the sanitizer
# build (make check-sanitize).  Each suite's output is shown
# as it runs and kept in $TEST_LOGS/NAME.log (default build/test-logs).
#
# Two lanes (TEST_JOBS=2, the default; TEST_JOBS=1: one suite at a time):
# the full suites with a line "# lane: kernel" (those that build kernels,
# sharing their builds in their order) run in a lane of their own, from
# the start, beside the others, which run in order from a queue that the
# kernel lane takes from too once its own suites are done.  A suite with
# a line "# exclusive: NAME" runs holding the lock NAME (in $TEST_LOGS),
# never beside another of that NAME.  What the kernel lane runs writes its
# output to its log, with a line when each starts and ends.  The verdict
# lists the suites in the order above, whichever lane ran them.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
build=${SCALETEST_BUILD:-$top/build}
logs=${TEST_LOGS:-$build/test-logs}
make=${MAKE:-make}

# NAME KIND COMMAND: the suites, in order.  KIND is quick or full.
suites() {
	echo "unit quick $build/unit-tests tests/fixtures"
	found quick
	echo "sanitize full $make check-sanitize"
	found full
}

found() { # KIND: NAME KIND COMMAND of the suites of that kind
	for f in tests/*.sh tests/*/*.sh; do
		# The first such line (a suite may hold others in a here document).
		l=$(grep -m 1 '^# suite: ' "$f") || continue
		printf '%s\n' "$l" | grep -Eq "^# suite: $1(: .+)?$" || continue
		cmd=${l#"# suite: $1"}
		cmd=${cmd#: }
		o=$(sed -n 's/^# order: \([0-9][0-9]*\)$/\1/p' "$f" | head -n 1)
		echo "${o:-50} $(name_of "$f") $1 ${cmd:-sh $f}"
	done | sort -n -s -k 1,1 | cut -d' ' -f2-
}

name_of() {
	n=${1#tests/}
	echo "${n%.sh}"
}

quick=0
list=0
want=
for a in "$@"; do
	case $a in
	--quick) quick=1 ;;
	--list) list=1 ;;
	-*) echo "run.sh: unknown option '$a'" >&2; exit 2 ;;
	*) want="$want $a" ;;
	esac
done
all=$(suites)
if [ $list = 1 ]; then
	printf '%s\n' "$all" | awk '{ print $1, $2 }'
	exit 0
fi
for w in $want; do
	printf '%s\n' "$all" | awk -v w="$w" '$1 == w { f = 1 } END { exit !f }' ||
		{ echo "run.sh: no suite '$w' (sh tests/run.sh --list)" >&2; exit 2; }
done

mkdir -p "$logs" || exit 2
started=$(date +%s)
recs=$logs/.records
: > "$recs" || exit 2

# run_suite INDEX NAME CMD STREAM: runs one suite, its output in its log
# (and on ours when STREAM is 1); appends "INDEX NAME RC SECONDS" to $recs.
run_suite() {
	log=$logs/$(printf '%s' "$2" | tr / -).log
	x=
	[ -f "tests/$2.sh" ] && x=$(sed -n 's/^# exclusive: \([a-z0-9-]*\)$/\1/p' "tests/$2.sh" | head -n 1)
	[ -z "$x" ] || set -- "$1" "$2" "flock $logs/.exclusive-$x $3" "$4"
	t0=$(date +%s)
	if [ "$4" = 1 ]; then
		echo "=== $2: $3"
		# shellcheck disable=SC2086
		{ $3 < /dev/null; echo $? > "$log.rc"; } 2>&1 | tee "$log"
	else
		echo "=== $2: $3 (beside the others: its output in $log)"
		# shellcheck disable=SC2086
		{ $3 < /dev/null; echo $? > "$log.rc"; } > "$log" 2>&1
	fi
	rc=$(cat "$log.rc")
	rm -f "$log.rc"
	dt=$(($(date +%s) - t0))
	[ "$4" = 1 ] || echo "=== $2: exit $rc in $dt s ($(grep -E "^$2: [0-9]+ passed, [0-9]+ failed" "$log" | tail -n 1))"
	echo "$1 $2 $rc $dt" >> "$recs"
}

# The suites selected, "INDEX NAME KIND LANE CMD" in order.  LANE is 2 for
# a full suite with a line "# lane: kernel" (the suites that build
# kernels, in their order), 1 for the rest.
selected=$(printf '%s\n' "$all" | awk '{ print NR, $0 }' | while read -r i name kind cmd; do
	if [ -n "$want" ]; then
		case " $want " in *" $name "*) ;; *) continue ;; esac
	elif [ $quick = 1 ] && [ "$kind" != quick ]; then
		continue
	fi
	lane=1
	f=tests/$name.sh
	[ "$kind" = full ] && [ -f "$f" ] && grep -q '^# lane: kernel$' "$f" && lane=2
	echo "$i $name $kind $lane $cmd"
done)
nrun=$(printf '%s' "$selected" | grep -c .)
[ "$nrun" -gt 0 ] || { echo "run.sh: no suite selected" >&2; exit 2; }

# Two lanes when there is more than one job (TEST_JOBS, default 2) and a
# kernel suite runs with others: the kernel lane in the background from
# the start (its suites share their builds, in their order), every other
# suite from a queue, in order, the quick ones first, which the kernel
# lane also takes from once its own are done.  The kernel builds and the
# guests of the other suites each take about a core; a suite never waits
# on time, so the two share the machine without a test's outcome changing.
# A suite with a line "# exclusive: NAME" never runs beside another with
# the same NAME (a lock: libvirt's daemons, which e2e/libvirt and
# e2e/user's recipes start).
jobs=${TEST_JOBS:-2}
case $jobs in ''|*[!0-9]*) echo "run.sh: TEST_JOBS='$jobs' is not a number" >&2; exit 2 ;; esac
lane2=$(printf '%s\n' "$selected" | awk '$4 == 2')
lane1=$(printf '%s\n' "$selected" | awk '$4 != 2')
queue=$logs/.queue
qlock=$logs/.queue.lock

# take: the next suite of the queue into $i $name $kind $lane $cmd; 1
# when it is empty.  Under a lock, as two lanes take from it.
take() {
	line=$(flock "$qlock" sh -c 'head -n 1 "$1"; sed -i 1d "$1"' - "$queue")
	[ -n "$line" ] || return 1
	read -r i name kind lane cmd <<EOT
$line
EOT
}

drain() { # STREAM: run the queue's suites until it is empty
	while take; do
		run_suite "$i" "$name" "$cmd" "$1"
	done
}

bg=
if [ "$jobs" -ge 2 ] && [ -n "$lane2" ] && [ -n "$lane1" ]; then
	echo "=== run.sh: two lanes: $(printf '%s\n' "$lane2" | awk '{ printf "%s%s", (NR > 1 ? ", " : ""), $2 }') beside the rest, then the rest in both"
	printf '%s\n' "$lane1" > "$queue" || exit 2
	(
		printf '%s\n' "$lane2" | while read -r i name kind lane cmd; do
			run_suite "$i" "$name" "$cmd" 0
		done
		drain 0
	) &
	bg=$!
	trap 'kill $bg 2>/dev/null; pkill -TERM -P $bg 2>/dev/null; exit 130' INT TERM
	drain 1
	wait "$bg"
	trap - INT TERM
else
	printf '%s\n' "$selected" > "$queue" || exit 2
	drain 1
fi
rm -f "$queue" "$qlock"

# The verdict, in the suites' order whichever lane ran them.
table=
failures=
nbad=0
nskip=0
nnone=0
nsel=0
while read -r i name rc dt; do
	log=$logs/$(printf '%s' "$name" | tr / -).log
	summary=$(grep -E "^$name: [0-9]+ passed, [0-9]+ failed" "$log" | tail -n 1)
	summary=${summary#"$name: "}
	# The tests it ran (its TAP lines, those of the suites a make target
	# runs included).
	sel=$(grep -Ec '^(not )?ok [0-9]+ - ' "$log")
	nsel=$((nsel + sel))
	why=
	if [ "$rc" = 0 ] && [ -n "${TESTS:-}" ] && [ "$sel" = 0 ]; then
		result=none
		nnone=$((nnone + 1))
	elif [ "$rc" = 0 ]; then
		result=ok
	elif [ "$rc" = 77 ]; then
		result=skip
		nskip=$((nskip + 1))
		[ $quick = 1 ] || why="every test skipped (make test requires it: make deps-full installs its tools)"
	else
		result=FAIL
		why="exit $rc"
	fi
	if [ -n "$why" ]; then
		nbad=$((nbad + 1))
		notok=$(grep -E '^(not ok [0-9]+ - |  FAIL: )' "$log" | head -n 40 | sed "s|^|    |")
		skips=$(grep -E '^ok [0-9]+ - .* # SKIP ' "$log" | head -n 3 | sed "s|^|    |")
		[ "$result" = skip ] || skips=
		failures="$failures
  $name: $why${summary:+, $summary}; log: $log${notok:+
$notok}${skips:+
$skips}"
	fi
	table="$table
$(printf '  %-16s %-5s %6d s  %s' "$name" "$result" "$dt" "$summary")"
done <<EOF2
$(sort -n "$recs")
EOF2
rm -f "$recs"

total=$(($(date +%s) - started))
echo
[ "$nrun" = 1 ] && s= || s=s
# (a skipped suite that fails the run counts as failed, not as skipped)
[ $quick = 1 ] && nskipped=$nskip || nskipped=0
counts="$((nrun - nbad - nskipped - nnone)) passed,"
[ $nskipped = 0 ] || counts="$counts $nskipped skipped,"
[ $nnone = 0 ] || counts="$counts $nnone with no test selected,"
[ -z "$bg" ] && lanes= || lanes=" in two lanes"
echo "=== $nrun suite$s in $((total / 60)) min $((total % 60)) s$lanes, $counts $nbad failed (load $(cut -d' ' -f1-3 /proc/loadavg))$table"
if [ $nbad -gt 0 ]; then
	echo "=== failed:$failures"
fi
if [ -n "${TESTS:-}" ] && [ $nsel = 0 ]; then
	echo "=== run.sh: TESTS='$TESTS' selects no test in the $nrun suite$s run (sh tests/SUITE.sh --list names a suite's tests)"
	[ $nbad -gt 0 ] || exit 2
fi
[ $nbad = 0 ] || exit 1
exit 0
