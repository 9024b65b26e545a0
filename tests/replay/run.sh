#!/bin/sh
# The replay level of tests, between unit and end-to-end: every
# tests/fixtures/replay/NAME (captured from a real run by capture.sh) is
# rebuilt with `scaletest report --replay`, without QEMU, and the result.json
# it gives is compared with the live run's by diff -u.  Nothing is masked:
# the host's timings come from the run's host.json, so the same records
# must give the same bytes.
#
#   sh tests/replay/run.sh            compare (make check runs this)
#   sh tests/replay/run.sh --update   after a deliberate change to what a
#                                     result says: rewrite each expected
#                                     result.json from its inputs (review
#                                     the diff before committing it)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/bin/scaletest
fixtures=$top/tests/fixtures/replay
update=
[ "${1:-}" = --update ] && update=1

# The status each case was captured for: a fixture whose run ended some
# other way is the wrong fixture.
expect_status() {
	case "$1" in
	crash) echo crash ;;
	oom) echo oom ;;
	timeout) echo timeout ;;
	*) echo pass ;;
	esac
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
pass=0
fail=0
for dir in "$fixtures"/*/; do
	name=$(basename "$dir")
	out=$work/$name
	if ! "$bin" report --replay "$dir" --out "$out" > "$work/$name.log" 2>&1; then
		echo "FAIL replay $name: scaletest report --replay failed"
		sed 's/^/    /' "$work/$name.log"
		fail=$((fail + 1))
		continue
	fi
	if [ -n "$update" ]; then
		cp "$out/result.json" "$dir/result.json"
		echo "updated $name"
	fi
	want=$(expect_status "$name")
	got=$(jq -r .status "$out/result.json")
	if ! diff -u "$dir/result.json" "$out/result.json" > "$work/$name.diff"; then
		echo "FAIL replay $name: result.json differs from the live run's"
		head -n 60 "$work/$name.diff"
		fail=$((fail + 1))
	elif [ "$got" != "$want" ]; then
		echo "FAIL replay $name: status $got, the case is for $want"
		fail=$((fail + 1))
	else
		echo "ok   replay $name ($got)"
		pass=$((pass + 1))
	fi
done
if [ $((pass + fail)) -eq 0 ]; then
	echo "replay: no fixtures in $fixtures"
	exit 1
fi
echo "replay: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
