#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Golden files: every report writer's output for fixed inputs, regenerated
# with bin/scaletest and compared with the expected files by diff -u.
#
#   sh tests/golden.sh            compare (part of make check)
#   sh tests/golden.sh --update   rewrite tests/golden/*/expected/ (make golden)
#   sh tests/golden.sh NAME...     those tests/golden/NAME only (--update too)
#
# Each tests/golden/NAME/ holds input/ and expected/.  The input decides
# what is rendered:
#   input/result.json    a run:    scaletest report --out DIR input
#                        -> report.md, report.html, junit.xml, the
#                           terminal summary it prints (summary.txt), and
#                           report --format kcidb's document (kcidb.json)
#   input/compare.json   a comparison: scaletest report --compare ... --out DIR
#                        -> compare.md, compare.html, compare.xml
#   input/compare.args   a comparison of run directories: scaletest compare
#                        $(cat compare.args) --out DIR (the sides are paths
#                        from the top of the tree, fixtures' runs)
#                        -> compare.json, compare.md, compare.html,
#                           compare.xml, and what --format text prints
#                           (compare.txt); what --format md and json print
#                           must be compare.md and compare.json
#   input/summary.json   a night (its runs beside it, as in a real night's
#                        directory): scaletest report --nightly input --out DIR
#                        -> summary.md, summary.xml, and report --nightly
#                           --format kcidb's document (kcidb.json)
#
# Nothing is masked: the writers print nothing but what the input JSON
# holds (its run ids, times, paths) and the run directory as given (a KCIDB
# run's misc.run_dir: tests/golden/NAME/input, the same on every host), so
# their output is a function of the input alone, compared byte for byte.  A writer that starts printing the
# clock or the host name fails here: make it print what the input says
# instead (there is no masking step to hide it).
#
# After changing a writer on purpose: make golden, read the diff
# (git diff tests/golden), and commit it with the change.
# suite: quick
set -u

update=0
if [ "${1:-}" = --update ]; then
	update=1
	shift
fi
. "$(dirname "$0")/lib.sh"

# compare_runs ARGS OUT: scaletest compare of the sides in ARGS (our own
# file: its words are split on purpose), in every format; exit 0 or 1 (a
# regression) is a comparison made, 2 is not.
compare_runs() {
	# shellcheck disable=SC2046
	"$bin" compare $(cat "$1") --out "$2" --format text > "$2/compare.txt"
	[ $? -le 1 ] || return 1
	for f in md json; do
		# shellcheck disable=SC2046
		"$bin" compare $(cat "$1") --format $f > "$tmp/stdout.$f"
		[ $? -le 1 ] || return 1
		if ! cmp -s "$tmp/stdout.$f" "$2/compare.$f"; then
			echo "golden: compare --format $f prints other than compare.$f" >&2
			return 1
		fi
	done
}

# render NAME INPUT OUT: the writers' files for INPUT in OUT.
render() {
	if [ -f "$2/result.json" ]; then
		"$bin" report --out "$3" "$2" > "$3/summary.txt" || return 1
		"$bin" report --format kcidb "$2" > "$3/kcidb.json"
	elif [ -f "$2/compare.json" ]; then
		"$bin" report --compare "$2/compare.json" --out "$3" > /dev/null
	elif [ -f "$2/compare.args" ]; then
		compare_runs "$2/compare.args" "$3"
	elif [ -f "$2/summary.json" ]; then
		"$bin" report --nightly "$2" --out "$3" > /dev/null || return 1
		"$bin" report --nightly "$2" --format kcidb > "$3/kcidb.json"
	else
		echo "golden: $1: no result.json, compare.json, compare.args or summary.json in input/" >&2
		return 1
	fi
}

# golden NAME: tests/golden/NAME/ rendered and compared (or, with
# --update, its expected/ rewritten).
golden() {
	g=tests/golden/$1/
	gout=$tmp/$1
	mkdir -p "$gout"
	checked
	if ! render "$1" "${g}input" "$gout" 2> "$tmp/$1.err"; then
		fail "$1: scaletest report failed"
		sed 's/^/    /' "$tmp/$1.err" >&2
		return
	fi
	if [ $update = 1 ]; then
		rm -rf "${g}expected"
		cp -R "$gout" "${g}expected"
		return
	fi
	# The same files, each the same bytes.
	(cd "${g}expected" && ls) > "$tmp/want" 2>/dev/null
	(cd "$gout" && ls) > "$tmp/got"
	if ! diff -u "$tmp/want" "$tmp/got" > "$tmp/list.diff"; then
		fail "$1: the writers made other files than tests/golden/$1/expected/"
		sed 's/^/    /' "$tmp/list.diff" >&2
	fi
	for f in "$gout"/*; do
		checked
		want=${g}expected/$(basename "$f")
		[ -f "$want" ] || continue
		if ! diff -u "$want" "$f" >&2; then
			fail "$1/$(basename "$f") differs from tests/golden/$1/expected (make golden rewrites it)"
		fi
	done
}

if [ ! -x "$bin" ]; then
	say "golden: $bin missing: run make first"
	exit 3
fi
cd "$top" || exit 1
for g in tests/golden/*/; do
	add_test "$(basename "$g")" golden "$(basename "$g")"
done
[ $update = 0 ] || at_exit 'say "golden: rewrote tests/golden/*/expected; check \"git diff tests/golden\""'
run_tests "$@"
