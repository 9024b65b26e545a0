#!/bin/sh
# KCIDB documents (scaletest report --format kcidb) against what KernelCI
# reads:
#
#   1. valid against kcidb-io's schema v5.3 (tests/fixtures/kcidb/, checked
#      by build/jsonschema): every golden document (tests/golden/*/expected/
#      kcidb.json, which tests/golden.sh proves the writer makes), and the
#      document of a hostile result.json (tests/kcidb/hostile/: control
#      characters, NUL, bidi marks, duplicate and empty check names, odd
#      cache and fio group names, times that are not times, a 20,000-byte
#      crash context);
#   2. linked: ids unique per kind, every test's build_id a build of the
#      document, every build's checkout_id a checkout (the schema cannot say
#      this), version 5.3;
#   3. statuses as kcidb.h maps them, on real runs and on edits of them: a
#      kernel crash is FAIL, a harness-blamed ending or a harness error
#      ERROR, a check the run ended before MISS, a figure DONE;
#   4. figures that are the run's own: each memory figure's number is its
#      result.json value (bytes per disk as analysis.c wrote them, kB times
#      1024);
#   5. the command line: --out DIR writes DIR/kcidb.json (what stdout would
#      have held), several runs make one document, bad usage is exit 2.
#
# And the check can fail: tests/kcidb/bad.json breaks the schema in
# thirteen places, each said as bad.out has it.
#
#   sh tests/kcidb/validate.sh        (make check runs it)
# suite: quick
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bin=${SCALETEST_BIN:-$top/bin/scaletest}
js=$top/build/jsonschema
schema=$top/tests/fixtures/kcidb/kcidb-io-v05_03.schema.json
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scaletest-kcidb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0
nfail=0

fail() {
	echo "  FAIL: $*" >&2
	nfail=$((nfail + 1))
}

for t in "$bin" "$js"; do
	[ -x "$t" ] || { echo "kcidb: FAIL: $t missing: run make check's build first" >&2; exit 1; }
done
command -v jq >/dev/null 2>&1 || { echo "kcidb: FAIL: jq missing (make deps-test)" >&2; exit 1; }
cd "$top" || exit 1

# valid DOC LABEL: the schema takes it.
valid() {
	n=$((n + 1))
	if ! "$js" "$schema" "$1" > "$tmp/js.out" 2>&1; then
		fail "$2: not valid against kcidb-io v5.3"
		sed 's/^/    /' "$tmp/js.out" >&2
	fi
}

# linked DOC LABEL: ids unique, links resolve, version 5.3.
linked() {
	n=$((n + 1))
	bad=$(jq -r '
		def dups(a): a | group_by(.) | map(select(length > 1) | .[0]) | .[];
		([.builds[].id] | INDEX(.)) as $b | ([.checkouts[].id] | INDEX(.)) as $c |
		(if .version != {"major": 5, "minor": 3} then "version \(.version)" else empty end),
		(dups([.checkouts[].id]) | "checkout id twice: \(.)"),
		(dups([.builds[].id]) | "build id twice: \(.)"),
		(dups([.tests[].id]) | "test id twice: \(.)"),
		(.tests[] | select($b[.build_id] == null) | "test \(.id): no build \(.build_id)"),
		(.builds[] | select($c[.checkout_id] == null) | "build \(.id): no checkout \(.checkout_id)"),
		(.tests[] | select(.number != null and .status != "DONE" and
				   (.path | test("^scaletest[.]compare[.]") | not)) |
		 "figure \(.path) has status \(.status)")
	' "$1" 2>&1)
	if [ -n "$bad" ]; then
		fail "$2: $bad"
	fi
}

# status DOC PATH WANT LABEL: the test at PATH (of the document's first
# run) has status WANT.
status() {
	n=$((n + 1))
	got=$(jq -r --arg p "$2" '[.tests[] | select(.path == $p) | .status] | .[0] // "none"' "$1")
	[ "$got" = "$3" ] || fail "$4: $2 is $got, want $3"
}

# Each golden input's document, made now by this scaletest (golden.sh
# proves the committed ones are the same): $tmp/NAME.json.
for g in tests/golden/*/input; do
	name=$(basename "$(dirname "$g")")
	if [ -f "$g/result.json" ]; then
		"$bin" report --format kcidb "$g" > "$tmp/$name.json"
	elif [ -f "$g/summary.json" ]; then
		"$bin" report --nightly "$g" --format kcidb > "$tmp/$name.json"
	else
		continue
	fi || fail "$name: report --format kcidb failed"
done

# 1 and 2: every golden document, and the hostile one.
for d in tests/golden/*/expected/kcidb.json "$tmp"/run-*.json "$tmp"/nightly.json; do
	valid "$d" "$d"
	linked "$d" "$d"
done
"$bin" report --format kcidb tests/kcidb/hostile > "$tmp/hostile.json" 2> "$tmp/err" ||
	fail "hostile: report --format kcidb failed: $(cat "$tmp/err")"
valid "$tmp/hostile.json" "hostile result.json"
linked "$tmp/hostile.json" "hostile result.json"
n=$((n + 1))
jq -e '[.tests[] | select(.log_excerpt != null) | .log_excerpt | length <= 16384 and length > 1000] |
	all and length == 1' "$tmp/hostile.json" > /dev/null ||
	fail "hostile: the crash context is not a log_excerpt of at most 16384 characters"

# 3: statuses.  A kernel crash (run-crash: a panic, blamed on the kernel).
d=$tmp/run-crash.json
status "$d" scaletest FAIL "a kernel panic"
status "$d" scaletest.checks.no_crash FAIL "a kernel panic"
status "$d" scaletest.checks.no_OOM PASS "a kernel panic"
status "$d" scaletest.checks.scsi_debug_disks_present MISS "a kernel panic"
# A run that failed a check, and one that passed: every check as it is.
for g in run-i386 run-x86_64; do
	n=$((n + 1))
	bad=$(jq -r --slurpfile r tests/golden/$g/input/result.json '
		($r[0].checks | map({key: ("scaletest.checks." + (.name | gsub("[^A-Za-z0-9_-]+"; "_") |
		  gsub("^_+|_+$"; ""))), value: (if .pass then "PASS" else "FAIL" end)}) | from_entries) as $w |
		.tests[] | select(.path | startswith("scaletest.checks.")) |
		select($w[.path] != .status) | "\(.path) is \(.status), want \($w[.path])"' \
		"$tmp/$g.json")
	[ -z "$bad" ] || fail "$g: $bad"
done
status "$tmp/run-i386.json" scaletest FAIL "a failed check"
status "$tmp/run-x86_64.json" scaletest PASS "a run that passed"
# Edits of run-crash: the harness to blame, the harness's own error, an
# OOM (kernel), a timeout with no class.
edit() {
	mkdir -p "$tmp/$1"
	jq "$2" tests/golden/run-crash/input/result.json > "$tmp/$1/result.json"
	"$bin" report --format kcidb "$tmp/$1" > "$tmp/$1.json" || fail "$1: report failed"
	valid "$tmp/$1.json" "$1"
}
edit hang '.status = "timeout" | .crash.class = "hang" | .crash.blame = "harness"'
status "$tmp/hang.json" scaletest ERROR "a hang blamed on the harness"
edit error '.status = "error" | .reason = "qemu-system-x86_64 not found" | .crash = null'
status "$tmp/error.json" scaletest ERROR "the harness's error"
status "$tmp/error.json" scaletest.checks.virtio_disks_present MISS "the harness's error"
edit oom '.status = "oom" | .crash.class = "oom" | .crash.blame = "kernel"'
status "$tmp/oom.json" scaletest FAIL "an OOM"
edit timeout '.status = "timeout" | .crash = null'
status "$tmp/timeout.json" scaletest ERROR "a timeout with no crash class"
# A night: a regression, a run without a baseline, a run that left nothing.
d=$tmp/nightly.json
n=$((n + 1))
jq -e '[.tests[] | select(.id | startswith("scaletest:20261203-102003-smoke:scaletest.compare.")) |
	.status] | index("FAIL") != null' "$d" > /dev/null || fail "nightly: the regression is no FAIL"
n=$((n + 1))
jq -e '.tests[] | select(.id == "scaletest:20261203-103005-smoke-blk:scaletest.baseline") |
	.status == "MISS"' "$d" > /dev/null || fail "nightly: a run without a baseline is not MISS"
n=$((n + 1))
jq -e '[.tests[] | select(.path == "scaletest" and .status == "ERROR")] | length == 1' "$d" \
	> /dev/null || fail "nightly: the run that left no result.json is not one ERROR"

# 4: the memory figures are result.json's.
for g in run-x86_64 run-build-i386-stock run-sweep-attribution; do
	n=$((n + 1))
	bad=$(jq -r --slurpfile r tests/golden/$g/input/result.json '
		$r[0].deltas.insmod as $d |
		.tests[] | select(.path | test("^scaletest[.]memory[.][A-Za-z]+[.](per_disk|change)$")) |
		(.path | split(".")) as $p |
		(if $p[3] == "per_disk" then $d.per_disk_bytes[$p[2]] else $d[$p[2] + "_kb"] * 1024 end) as $want |
		select($want != null and .number.value != $want) |
		"\(.path) is \(.number.value), result.json says \($want)"' "$tmp/$g.json")
	[ -z "$bad" ] || fail "$g: $bad"
	n=$((n + 1))
	jq -e '[.tests[] | select(.path == "scaletest.memory.MemFree.per_disk")] | length == 1' \
		"$tmp/$g.json" > /dev/null || fail "$g: no MemFree per disk figure"
done

# 5: the command line.
n=$((n + 1))
"$bin" report --format kcidb --out "$tmp/out" tests/golden/run-x86_64/input > "$tmp/stdout" &&
	[ ! -s "$tmp/stdout" ] && cmp -s "$tmp/out/kcidb.json" "$tmp/run-x86_64.json" ||
	fail "--out DIR: DIR/kcidb.json is not the document (or something was printed)"
n=$((n + 1))
"$bin" report --format kcidb tests/golden/run-x86_64/input tests/golden/run-crash/input > "$tmp/two.json" &&
	jq -e '(.builds | length) == 2 and ([.tests[] | select(.path == "scaletest")] | length) == 2' \
		"$tmp/two.json" > /dev/null || fail "two runs: not one document with both"
valid "$tmp/two.json" "two runs"
for args in "--format junit tests/golden/run-x86_64/input" "--format kcidb" \
	    "--format kcidb --replay tests/golden/run-x86_64/input" \
	    "--format kcidb --compare tests/golden/compare-regression/input/compare.json" \
	    "--format kcidb --nightly tests/golden/nightly/input tests/golden/run-x86_64/input" \
	    "--format kcidb tests/no-such-run"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$bin" report $args > "$tmp/out.txt" 2>&1
	rc=$?
	[ $rc = 2 ] || fail "report $args: exit $rc, want 2"
done

# The check can fail, and says where.
n=$((n + 1))
(cd "$top" && "$js" "$schema" tests/kcidb/bad.json) > "$tmp/bad.out" 2>&1
rc=$?
if [ $rc != 1 ]; then
	fail "tests/kcidb/bad.json: jsonschema exit $rc, want 1"
elif ! diff -u "$here/bad.out" "$tmp/bad.out" >&2; then
	fail "tests/kcidb/bad.json: the violations differ from tests/kcidb/bad.out"
fi

echo "kcidb: $((n - nfail)) passed, $nfail failed" >&2
[ $nfail = 0 ]
