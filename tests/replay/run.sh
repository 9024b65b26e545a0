#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The replay level of tests, between unit and end-to-end: every
# tests/fixtures/replay/NAME (captured from a real run by capture.sh) is
# rebuilt with `scaletest report --replay`, without QEMU, and the result.json
# it gives is compared with the live run's by diff -u.  Nothing is masked:
# the host's timings come from the run's host.json, so the same records
# must give the same bytes.
#
#   sh tests/replay/run.sh            compare (make check runs this)
#   sh tests/replay/run.sh NAME...    those fixtures (or other tests) only
#   sh tests/replay/run.sh --update   after a deliberate change to what a
#                                     result says: rewrite each expected
#                                     result.json from its inputs (review
#                                     the diff before committing it)
# suite: quick
set -u
update=
if [ "${1:-}" = --update ]; then
	update=1
	shift
fi
. "$(dirname "$0")/../lib.sh"
fixtures=$top/tests/fixtures/replay
work=$tmp

# The status each case was captured for: a fixture whose run ended some
# other way is the wrong fixture.
expect_status() {
	case "$1" in
	crash) echo crash ;;
	oom | sweep-oom) echo oom ;;
	timeout | sweep-stall) echo timeout ;;
	hung-task) echo crash ;;
	channel-lost | qemu-exit) echo error ;;
	nvme-connect-fail) echo fail ;;
	*) echo pass ;;
	esac
}

# replay NAME: the fixture rebuilt gives the live run's result.json and
# the status the case is for.
replay() {
	name=$1
	dir=$fixtures/$name/
	out=$work/$name
	checked
	if ! "$bin" report --replay "$dir" --out "$out" > "$work/$name.log" 2>&1; then
		fail "replay $name: scaletest report --replay failed"
		sed 's/^/    /' "$work/$name.log" >&2
		return
	fi
	if [ -n "$update" ]; then
		cp "$out/result.json" "$dir/result.json"
		say "updated $name"
	fi
	want=$(expect_status "$name")
	got=$(jq -r .status "$out/result.json")
	if ! diff -u "$dir/result.json" "$out/result.json" > "$work/$name.diff"; then
		fail "replay $name: result.json differs from the live run's"
		head -n 60 "$work/$name.diff" >&2
	elif [ "$got" != "$want" ]; then
		fail "replay $name: status $got, the case is for $want"
	fi
}

# A run directory made before host.json existed: the host's facts come
# from its result.json, and the replay must still give the same bytes.
old_run() {
	old=$work/no-host-json
	mkdir -p "$old"
	for f in scenario.scn channel.log.gz console.log result.json; do
		cp "$fixtures/smoke-x86_64/$f" "$old/"
	done
}

test_without_host_json() {
	old_run
	checked
	if ! "$bin" report --replay "$old" --out "$work/old-out" > "$work/old.log" 2>&1 ||
	   ! diff -u "$old/result.json" "$work/old-out/result.json" > "$work/old.diff" ||
	   ! grep -q "is identical to" "$work/old.log"; then
		fail "replay without host.json (facts from result.json)"
		cat "$work/old.log" >&2
		head -n 40 "$work/old.diff" >&2
	fi
}

# Bad input fails the right way: a missing run directory is a usage error
# (exit 2, naming it, as in every command); a run directory without what a
# replay needs is exit 1 naming the file; two directories are usage.
test_missing_run_directory() {
	"$bin" report --replay "$work/nowhere" > "$work/bad.log" 2>&1
	rc=$?
	check "replay of a missing run directory: exit 2 (got $rc), names it" \
		sh -c "[ $rc = 2 ] && grep -q \"cannot open run directory '$work/nowhere'\" '$work/bad.log'"
}

test_empty_run_directory() {
	mkdir -p "$work/empty"
	"$bin" report --replay "$work/empty" > "$work/bad.log" 2>&1
	rc=$?
	check "replay of an empty run directory: exit 1 (got $rc), names the file" \
		sh -c "[ $rc = 1 ] && grep -q \"cannot replay '$work/empty'\" '$work/bad.log' && grep -q scenario.scn '$work/bad.log'"
}

test_two_directories() {
	old_run
	"$bin" report --replay "$old" "$old" > "$work/two.log" 2>&1
	rc=$?
	check "replay of two directories: usage error (exit $rc)" \
		sh -c "[ $rc = 2 ] && grep -q 'takes one run directory' '$work/two.log'"
}

test_fixtures_present() {
	check "fixtures in $fixtures" [ -n "$(ls "$fixtures")" ]
}

need jq -- "install it (make deps-test)"
for d in "$fixtures"/*/; do
	add_test "$(basename "$d")" replay "$(basename "$d")"
done
run_tests "$@"
