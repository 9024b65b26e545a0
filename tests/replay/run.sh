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
	oom | sweep-oom) echo oom ;;
	timeout | sweep-stall) echo timeout ;;
	hung-task) echo crash ;;
	channel-lost | qemu-exit) echo error ;;
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
# A run directory made before host.json existed: the host's facts come
# from its result.json, and the replay must still give the same bytes.
old=$work/no-host-json
mkdir -p "$old"
for f in scenario.scn channel.log.gz console.log result.json; do
	cp "$fixtures/smoke-x86_64/$f" "$old/"
done
if "$bin" report --replay "$old" --out "$work/old-out" > "$work/old.log" 2>&1 &&
   diff -u "$old/result.json" "$work/old-out/result.json" > "$work/old.diff" &&
   grep -q "is identical to" "$work/old.log"; then
	echo "ok   replay without host.json (facts from result.json)"
	pass=$((pass + 1))
else
	echo "FAIL replay without host.json"
	cat "$work/old.log"
	head -n 40 "$work/old.diff"
	fail=$((fail + 1))
fi

# Bad input fails the right way: a missing run directory is a usage error
# (exit 2, naming it, as in every command); a run directory without what a
# replay needs is exit 1 naming the file; two directories are usage.
"$bin" report --replay "$work/nowhere" > "$work/bad.log" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "cannot open run directory '$work/nowhere'" "$work/bad.log"; then
	echo "ok   replay of a missing run directory: exit 2, names it"
	pass=$((pass + 1))
else
	echo "FAIL replay of a missing run directory: exit $rc"
	cat "$work/bad.log"
	fail=$((fail + 1))
fi
mkdir -p "$work/empty"
"$bin" report --replay "$work/empty" > "$work/bad.log" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q "cannot replay '$work/empty'" "$work/bad.log" &&
   grep -q "scenario.scn" "$work/bad.log"; then
	echo "ok   replay of an empty run directory: exit 1, names the file"
	pass=$((pass + 1))
else
	echo "FAIL replay of an empty run directory: exit $rc"
	cat "$work/bad.log"
	fail=$((fail + 1))
fi
"$bin" report --replay "$old" "$old" > "$work/two.log" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "takes one run directory" "$work/two.log"; then
	echo "ok   replay of two directories: usage error"
	pass=$((pass + 1))
else
	echo "FAIL replay of two directories: exit $rc"
	fail=$((fail + 1))
fi

if [ $((pass + fail)) -eq 0 ]; then
	echo "replay: no fixtures in $fixtures"
	exit 1
fi
echo "replay: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
