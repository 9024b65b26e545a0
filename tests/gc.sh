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

# A link in the results directory leads elsewhere (issue 36, 3):
# results/imported -> a directory holding an abandoned .tmp-*.  gc walks
# without following links, so it never leaves the results directory; a
# .tmp-* that is itself a link is listed and left, its target untouched.
test_never_through_a_link() {
	setup
	rm -rf "$tmp/elsewhere"
	mk "$tmp/elsewhere/.tmp-20261203-000009-smoke" "$host $dead 12345"
	ln -s "$tmp/elsewhere" "$tmp/r/imported"
	ln -s "$tmp/elsewhere/.tmp-20261203-000009-smoke" "$tmp/r/.tmp-20261203-000010-smoke"
	expect 0 "000010-smoke: a symbolic link \(never followed\), left" -- "$bin" gc "$tmp/r"
	check "the abandoned run behind results/imported is still there" \
		test -f "$tmp/elsewhere/.tmp-20261203-000009-smoke/snapshots/x"
	check "the link named .tmp-* is left" test -L "$tmp/r/.tmp-20261203-000010-smoke"
	checked
	if grep -q "000009-smoke" "$tmp/out"; then
		fail "gc looked behind results/imported"
	fi
	check "the abandoned run of the results directory itself went" \
		test ! -e "$tmp/r/.tmp-20261203-000000-smoke"
}

# A .tmp-* directory of another user's is not this user's to judge.
test_another_users_run_left() {
	[ "$(id -u)" = 0 ] || { skip "needs root for chown"; return; }
	setup
	chown -R nobody "$tmp/r/.tmp-20261203-000000-smoke"
	expect 0 "000000-smoke: another user's \(uid [0-9]+\), left" -- "$bin" gc "$tmp/r"
	check "another user's run directory is still there" \
		test -f "$tmp/r/.tmp-20261203-000000-smoke/snapshots/x"
}

# A .tmp-* directory on another filesystem (a mount point in the results
# directory) is left; the mount lives in a mount namespace of the test's
# own, gone with it.
test_other_filesystem_left() {
	command -v unshare > /dev/null 2>&1 || { skip "no unshare"; return; }
	unshare -m --propagation private true 2> /dev/null || { skip "cannot make a mount namespace"; return; }
	setup
	unshare -m --propagation private sh -c '
		mount -t tmpfs scaletest-gc "$1" || exit 3
		mkdir -p "$1/snapshots" && echo data > "$1/snapshots/x" && printf "%s\n" "$2" > "$1/owner"
		"$3" gc "$4" > "$5" 2>&1 || exit 1
		test -f "$1/snapshots/x" || exit 4' sh \
		"$tmp/r/.tmp-20261203-000000-smoke" "$host $dead 12345" "$bin" "$tmp/r" "$tmp/out"
	rc=$?
	[ $rc = 3 ] && { skip "cannot mount a tmpfs"; return; }
	check "gc ran (exit 0)" test $rc != 1
	check "the run directory on another filesystem is still there" test $rc != 4
	check "gc says why it is left" grep -q "000000-smoke: on another filesystem, left" "$tmp/out"
}

run_tests "$@"
