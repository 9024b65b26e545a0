#!/bin/sh
# Every end-to-end test is run: each test_NAME function of a suite under
# tests/e2e/ must be named in that suite's one e2e_main list (lib.sh runs
# the list, then exits, so a second e2e_main line or a name left out is a
# test that silently never runs).  Part of make check.
#
#   sh tests/e2e/listed.sh [SUITE...]     default: tests/e2e/*.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || set -- "$here"/*.sh
bad=0
n=0
for f in "$@"; do
	case $f in */lib.sh | */listed.sh) continue ;; esac
	calls=$(grep -c '^e2e_main ' "$f")
	if [ "$calls" != 1 ]; then
		echo "listed: $f: $calls e2e_main lines, not 1" >&2
		bad=$((bad + 1))
		continue
	fi
	list=" $(sed -n 's/^e2e_main "\([^"]*\)".*/\1/p' "$f") "
	for t in $(sed -n 's/^test_\([a-z0-9_]*\)() *{.*/\1/p' "$f"); do
		n=$((n + 1))
		case $list in
		*" $t "*) ;;
		*) echo "listed: $f: test_$t is not in its e2e_main list" >&2; bad=$((bad + 1)) ;;
		esac
	done
	for t in $list; do
		grep -q "^test_$t() *{" "$f" || { echo "listed: $f: '$t' is listed but has no test_$t" >&2; bad=$((bad + 1)); }
	done
done
[ $bad = 0 ] || { echo "listed: $bad problem(s)" >&2; exit 1; }
echo "listed: $n end-to-end tests, each in its suite's list"
