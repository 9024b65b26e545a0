# SPDX-License-Identifier: Apache-2.0
# The one test library, sourced by every shell suite (tests/*.sh,
# tests/*/*.sh; tests/e2e/lib.sh and tests/bench/lib.sh add their own
# helpers on top of it).  POSIX sh.
#
#	#!/bin/sh
#	# What the suite checks.
#	# suite: quick			# make check and make test; "full": make test only
#	SUITE=cli
#	. "$(dirname "$0")/lib.sh"	# ../lib.sh from a folder of tests/
#
#	test_usage() {			# a test: a function named test_NAME
#		expect 2 "^usage:" -- "$bin" run
#		check "the cache stays empty" test ! -e "$tmp/cache"
#	}
#	run_tests "$@"			# last line: runs the suite's tests
#
# run_tests finds the tests itself: every "test_NAME() {" at the start of
# a line of the suite's file, in file order, then those a suite made from
# its data with add_test NAME FUNCTION [ARG] (a fixture directory each)
# before calling it.  It prints TAP lines, "ok N - NAME" or "not ok N -
# NAME", the plan "1..N", and one summary line, "SUITE: N passed, N failed"
# (", N skipped" when some were).  Exit 0 when none failed, 1 when one
# did, 2 for a name that matches no test, 3 for a missing tool (need), 77
# when every test selected was skipped (the suite did not run here:
# "skip", never "ok"; automake's code for it).
#
#	sh tests/cli.sh                   every test
#	sh tests/cli.sh usage 'cache_*'   those named (sh glob patterns; a
#	                                  name that matches none: exit 2)
#	TESTS='cache_*' sh tests/cli.sh   the same from the environment, for
#	                                  many suites at once (make check
#	                                  TESTS=...): a pattern may match none
#	                                  here; when none matches at all the
#	                                  suite says so ("1..0 # SKIP no test
#	                                  matches ...") and exits 0, and
#	                                  tests/run.sh fails when no suite it
#	                                  ran had a test the filter selected
#	sh tests/cli.sh --list            the names
#
# A test runs in the suite's shell, so each must set up what it needs (any
# single one runs alone).  Assertions never stop a test: each failure is
# printed on stderr ("  FAIL: NAME: what") and the test is "not ok".  A
# test in which no assertion ran is "not ok" too.
#
#	expect RC PATTERN -- CMD...   CMD exits RC and its stdout+stderr (left in
#	                              $tmp/out) match the grep -E PATTERN
#	check WHAT CMD...             CMD succeeds (its stdout is dropped); returns
#	                              its verdict (check ... || return)
#	fail WHAT                     a failure found by the test's own logic
#	checked                       counts such a hand-made assertion
#	skip WHY                      the test cannot run here (then return)
#	opt_in VAR WHY                a test left out of the default run (WHY:
#	                              what it costs): it runs when named exactly
#	                              (argument or TESTS=) or with VAR=1, and
#	                              otherwise skips saying how to run it
#	                              (opt_in VAR WHY || return)
#	absent PATH...                each PATH is not there, and the directory
#	                              it would be in is (check "..." absent P)
#	none_in DIR [FIND-TEST...]    DIR is a directory and find DIR -mindepth
#	                              1 FIND-TEST... finds nothing (an absence
#	                              that cannot pass because DIR was renamed)
#	lacks [-F] PATH PATTERN       PATH (a file, or a directory searched
#	                              whole) is there and nothing in it matches
#	                              the grep -E PATTERN (-F: a fixed string);
#	                              not "! grep", which passes on a missing file
#	need TOOL... -- WHY           exit 3 naming WHY when a tool is missing
#	at_exit 'COMMAND'             run when the suite exits, before $tmp goes
#	after_each 'COMMAND'          run after each test (not a skipped one), as part
#	                              of it: its assertions count for that test
#	say TEXT                      a line on stderr
#	tree_copy DIR                 the tree's files in DIR (a clone's, with
#	                              the changes not committed yet)
#
# Variables: $top (the tree), $bin (bin/scaletest, or $SCALETEST_BIN),
# $build (the build folder: build/, or $SCALETEST_BUILD; make sets both
# when its BUILD= or BIN= names another),
# $fx (tests/fixtures), $tmp (a directory of the suite's own, removed on
# exit unless a test failed, or SCALETEST_KEEP_TMP is set), $t (the current
# test's name).

# Sourced once: a second time (bench/lib.sh in a subshell of a suite) is
# a no-op, keeping this shell's $tmp and counts.
[ -z "${_scaletest_lib:-}" ] || return 0
_scaletest_lib=1

top=$(cd "$(dirname "$0")" && while [ ! -f tests/lib.sh ] && [ "$PWD" != / ]; do cd ..; done && pwd)
bin=${SCALETEST_BIN:-$top/bin/scaletest}
build=${SCALETEST_BUILD:-$top/build}
fx=$top/tests/fixtures
_self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0" .sh)
: "${SUITE:=${_self#"$top"/tests/}}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scaletest-$(printf '%s' "$SUITE" | tr / -).XXXXXX") ||
	{ echo "$SUITE: cannot make a temporary directory" >&2; exit 3; }
t=
_t_fail=0
_t_checks=0
_t_skip=
_npass=0
_nfail=0
_nskip=0
_nchecks=0
_failed=
_dynamic=
_at_exit=
_after_each=
_skip_all=

_cleanup() {
	eval "$_at_exit"
	if [ -n "${SCALETEST_KEEP_TMP:-}" ]; then
		echo "# $SUITE: files kept in $tmp (SCALETEST_KEEP_TMP)" >&2
	elif [ "$_nfail" = 0 ] || [ -z "$(ls -A "$tmp" 2>/dev/null)" ]; then
		rm -rf "$tmp"
	else
		echo "# $SUITE: files of the failed tests kept in $tmp" >&2
	fi
}
trap _cleanup EXIT
trap 'exit 130' INT TERM HUP
# (a reader gone: sh tests/deb.sh | head; the cleanup still runs)
trap 'exit 141' PIPE

say() { printf '%s\n' "$*" >&2; }

at_exit() { _at_exit="$_at_exit
$1"; }

after_each() { _after_each="$_after_each
$1"; }

_failmsg() {
	say "  FAIL: ${t:-$SUITE}: $*"
	_t_fail=1
}

fail() {
	_failmsg "$@"
	_t_checks=$((_t_checks + 1))
}

checked() { _t_checks=$((_t_checks + 1)); }

skip() { _t_skip=$*; }

# skip_all WHY: every test of the suite is skipped (a prerequisite the
# suite treats as optional, said so in each line); the suite exits 77.
skip_all() { _skip_all=$*; }

# opt_in VAR WHY: a test the suite's default run leaves out (WHY: what it
# costs, e.g. a cold kernel build) runs when it is named, its exact name
# an argument of the suite or a word of TESTS= (a pattern that merely
# matches it does not count), or when the environment has VAR=1;
# otherwise it is a skip that says why and how to run it, and opt_in
# returns 1 (opt_in VAR WHY || return).
opt_in() {
	case $1 in
	'' | [0-9]* | *[!A-Za-z0-9_]*) say "$SUITE: opt_in: '$1' is not a variable name"; exit 2 ;;
	esac
	eval "_oi=\${$1:-}"
	[ "$_oi" = 1 ] && return 0
	case " $_filter " in *" $t "*) return 0 ;; esac
	skip "$2; run it by name (sh ${0#"$top"/} $t) or with $1=1"
	return 1
}

# absent PATH...: each PATH is neither a file nor a link, and its
# directory exists (so that a renamed directory is a failure, never a
# pass); says on stderr what it found.
absent() {
	for _p in "$@"; do
		if [ ! -d "$(dirname -- "$_p")" ]; then
			say "    absent: '$(dirname -- "$_p")', where '$(basename -- "$_p")' would be, is not a directory"
			return 1
		fi
		if [ -e "$_p" ] || [ -L "$_p" ]; then
			say "    absent: '$_p' is there"
			return 1
		fi
	done
}

# lacks [-F] PATH PATTERN: PATH is a file or a directory (searched whole)
# and no line of it matches; a missing or unreadable PATH fails.
lacks() {
	_how=-E
	if [ "$1" = -F ]; then
		_how=-F
		shift
	fi
	if [ ! -f "$1" ] && [ ! -d "$1" ]; then
		say "    lacks: '$1' is not there"
		return 1
	fi
	grep -rq "$_how" -- "$2" "$1"
	case $? in
	1) return 0 ;;
	0) say "    lacks: '$1' has '$2':"
	   grep -rn "$_how" -- "$2" "$1" | head -n 3 | sed 's/^/      /' >&2 ;;
	*) say "    lacks: cannot read all of '$1'" ;;
	esac
	return 1
}

# none_in DIR [FIND-TEST...]: DIR is a directory and nothing below it
# matches the find tests (nothing at all without them); says on stderr
# what it found.
none_in() {
	_d=$1
	shift
	if [ ! -d "$_d" ]; then
		say "    none_in: '$_d' is not a directory"
		return 1
	fi
	_found=$(find "$_d" -mindepth 1 "$@") || { say "    none_in: find in '$_d' failed"; return 1; }
	[ -z "$_found" ] && return 0
	say "    none_in: found in '$_d':"
	printf '%s\n' "$_found" | head -n 5 | sed 's/^/      /' >&2
	return 1
}

need() {
	_tools=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		command -v "$1" >/dev/null 2>&1 || _tools="$_tools $1"
		shift
	done
	[ -z "$_tools" ] && return 0
	shift
	say "$SUITE: needs$_tools: $*"
	exit 3
}

check() {
	_what=$1
	shift
	_t_checks=$((_t_checks + 1))
	"$@" > /dev/null && return 0
	_failmsg "$_what"
	return 1
}

expect() {
	_want=$1
	_pat=$2
	shift 3
	_t_checks=$((_t_checks + 1))
	"$@" > "$tmp/out" 2>&1
	_got=$?
	if [ "$_got" != "$_want" ]; then
		_failmsg "$*: exit $_got, want $_want"
		sed 's/^/    /' "$tmp/out" >&2
	elif ! grep -Eq -- "$_pat" "$tmp/out"; then
		_failmsg "$*: output does not match '$_pat'"
		sed 's/^/    /' "$tmp/out" >&2
	fi
}

# add_test NAME FUNCTION [ARG]: a test made from data, run as FUNCTION ARG.
add_test() {
	case $1 in
	'' | *[!A-Za-z0-9_./+-]*) say "$SUITE: add_test: '$1' is not a test name"; exit 2 ;;
	esac
	_dynamic="$_dynamic$1 $2 ${3:-}
"
}

# The suite's tests, "NAME FUNCTION ARG" a line: the test_NAME functions
# its file defines (a line that only looks like one, in a here document,
# is not a function of this shell), then those add_test made.
_all_tests() {
	sed -n 's/^test_\([A-Za-z0-9_]*\)() *{.*/\1/p' "$0" | while read -r _name; do
		case $(type "test_$_name" 2>/dev/null) in
		*function*) echo "$_name test_$_name" ;;
		esac
	done
	printf '%s' "$_dynamic"
}

_selected() { # NAME
	[ -z "$_filter" ] && return 0
	set -f
	for _p in $_filter; do
		# shellcheck disable=SC2254
		case $1 in $_p) set +f; return 0 ;; esac
	done
	set +f
	return 1
}

run_tests() {
	if [ $_t_checks != 0 ] || [ $_t_fail != 0 ]; then
		say "$SUITE: an assertion ran outside a test: put it into a test_NAME function"
		exit 1
	fi
	_filter=
	_from_env=0
	for _a in "$@"; do
		case $_a in
		--list) _all_tests | cut -d' ' -f1; exit 0 ;;
		-*) say "$SUITE: unknown option '$_a' (names, sh glob patterns, or --list)"; exit 2 ;;
		esac
	done
	if [ $# -gt 0 ]; then
		_filter="$*"
	elif [ -n "${TESTS:-}" ]; then
		_filter=$TESTS
		_from_env=1
	fi
	set -f
	for _p in $_filter; do
		_hit=0
		while read -r _name _fn _arg; do
			# shellcheck disable=SC2254
			case $_name in $_p) _hit=1 ;; esac
		done <<EOF
$(_all_tests)
EOF
		if [ $_hit = 0 ] && [ $_from_env = 0 ]; then
			say "$SUITE: no test named '$_p' (sh $0 --list names them)"
			exit 2
		fi
	done
	_n=0
	_all=$(_all_tests)
	set +f
	while read -r _name _fn _arg; do
		[ -n "$_name" ] || continue
		_selected "$_name" || continue
		_n=$((_n + 1))
		t=$_name
		_t_fail=0
		_t_checks=0
		_t_skip=$_skip_all
		_t0=$(date +%s)
		if [ -z "$_t_skip" ]; then
			if [ -n "$_arg" ]; then "$_fn" "$_arg"; else "$_fn"; fi < /dev/null
			eval "$_after_each" < /dev/null
		fi
		_dt=$(( $(date +%s) - _t0 ))
		if [ -n "$_t_skip" ] && [ $_t_fail = 0 ]; then
			echo "ok $_n - $_name # SKIP $_t_skip"
			_nskip=$((_nskip + 1))
			continue
		fi
		if [ $_t_fail = 0 ] && [ $_t_checks = 0 ]; then
			say "  FAIL: $_name: no assertion ran"
			_t_fail=1
		fi
		_nchecks=$((_nchecks + _t_checks))
		if [ $_t_fail = 0 ]; then
			echo "ok $_n - $_name"
			_npass=$((_npass + 1))
		else
			echo "not ok $_n - $_name"
			_nfail=$((_nfail + 1))
			_failed="$_failed $_name"
		fi
		[ $_dt -lt 5 ] || say "# $_name: $_dt s"
	done <<EOF
$_all
EOF
	t=
	if [ $_n = 0 ] && [ $_from_env = 1 ]; then
		echo "1..0 # SKIP no test matches TESTS='$_filter'"
		say "$SUITE: no test here matches TESTS='$_filter'"
	else
		echo "1..$_n"
	fi
	echo "# $SUITE: $_nchecks checks${_failed:+; failed:$_failed}"
	echo "$SUITE: $_npass passed, $_nfail failed$([ $_nskip = 0 ] || echo ", $_nskip skipped")"
	[ $_nfail = 0 ] || exit 1
	# Every test selected skipped: the suite did not run here.
	[ $_n -gt 0 ] && [ $_nskip = $_n ] && exit 77
	exit 0
}

# tree_copy DIR: the tree's files in DIR, as a clone of it would have them
# with the changes not yet committed: tracked and new files, none that git
# ignores (without git: everything but the build outputs and results/).
tree_copy() {
	mkdir -p "$1" || return 1
	if git -C "$top" rev-parse --git-dir > /dev/null 2>&1; then
		git -C "$top" ls-files -z -co --exclude-standard |
			(cd "$top" && tar cf - --null --no-recursion -T -) | tar xf - -C "$1"
	else
		(cd "$top" && tar cf - --exclude=./build --exclude=./bin --exclude=./build-san \
			--exclude=./bin-san --exclude=./results .) | tar xf - -C "$1"
	fi
}
