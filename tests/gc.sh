#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# scaletest gc: run directories left by killed harnesses are found by
# their owner file and collected; live, foreign and unowned ones are left.
# Nothing here boots QEMU (tests/e2e/run.sh kills a real run and collects it).
# suite: quick
set -u

. "$(dirname "$0")/lib.sh"

host=$(hostname)
dead=$(sh -c 'echo $$')		# a pid that has exited
# This shell's start time: field 22 of /proc/PID/stat (20th after the ')').
start=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)

mk() { # dir owner-line-or-empty
	mkdir -p "$1/snapshots"
	echo data > "$1/snapshots/x"
	[ -n "$2" ] && printf '%s\n' "$2" > "$1/owner"
	return 0
}

setup() {
	rm -rf "$tmp/r"
	mk "$tmp/r/.tmp-20261203-000000-smoke" "$host $dead 12345"
	mk "$tmp/r/.tmp-20261203-000001-smoke" "$host $$ $start"
	mk "$tmp/r/.tmp-20261203-000002-smoke" "elsewhere.invalid $dead 12345"
	mk "$tmp/r/.tmp-20261203-000003-smoke" ""
	mk "$tmp/r/20261203-000004-smoke-x2/.slot-0-0/.tmp-20261203-000004-smoke" "$host $dead 12345"
	mk "$tmp/r/20261203-000005-smoke" ""
}

# Only the dead ones go, and --dry-run touches nothing.
test_collects_the_dead() {
	setup
	expect 0 "2 run directories to collect, 3 left" -- "$bin" gc --dry-run "$tmp/r"
	checked
	[ -d "$tmp/r/.tmp-20261203-000000-smoke" ] || fail "gc --dry-run removed something"
	expect 0 "000000-smoke: abandoned .* removed" -- "$bin" gc "$tmp/r"
	for d in .tmp-20261203-000000-smoke 20261203-000004-smoke-x2/.slot-0-0/.tmp-20261203-000004-smoke; do
		check "gc took the abandoned $d (and nothing above it)" absent "$tmp/r/$d"
	done
	checked
	for d in .tmp-20261203-000001-smoke .tmp-20261203-000002-smoke .tmp-20261203-000003-smoke 20261203-000005-smoke; do
		[ -d "$tmp/r/$d" ] || fail "gc removed $d, which is not abandoned"
	done
	expect 0 "0 run directories collected, 3 left" -- "$bin" gc "$tmp/r"
}

# --keep renames them instead.
test_keep() {
	setup
	expect 0 "kept as .*/.abandoned-20261203-000000-smoke" -- "$bin" gc --keep "$tmp/r"
	checked
	[ -f "$tmp/r/.abandoned-20261203-000000-smoke/snapshots/x" ] || fail "gc --keep lost the data"
	expect 0 "0 run directories collected" -- "$bin" gc --keep "$tmp/r"
}

# Bad input.
test_bad_input() {
	expect 2 "'$tmp/nosuch' is not a results directory" -- "$bin" gc "$tmp/nosuch"
	expect 2 "unrecognized option" -- "$bin" gc --bogus
	expect 0 "^usage: scaletest gc" -- "$bin" gc --help
	expect 0 "0 run directories collected, 0 left" -- env -C "$tmp" "$bin" gc
}

# A malformed owner file is not an owner: left, never removed.
test_malformed_owner() {
	setup
	printf 'garbage\n' > "$tmp/r/.tmp-20261203-000000-smoke/owner"
	expect 0 "000000-smoke: without a valid owner file" -- "$bin" gc "$tmp/r"
}

run_tests "$@"
