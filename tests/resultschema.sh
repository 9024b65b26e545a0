#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# result.json against its schema, docs/result.schema.json (checked by
# build/jsonschema, tests/tools/jsonschema.c), so that the schema owns the
# format: every object the harness defines is closed, so a field a writer
# adds without adding it to the schema fails here.
#
#   1. every stored result.json a writer made: the replay fixtures (what
#      live runs wrote), the golden inputs (runs of older harnesses, the
#      nights' runs among them) and the unit tests' runs;
#   2. the writers now: each replay fixture rebuilt by this scaletest
#      (scaletest report --replay), result.json and its replay/ copy;
#   3. the check can fail, each the right way: a missing required key, a
#      wrong type, an integer that is not one, an unknown key at the top
#      and inside a section, a bad status and crash class, and the hostile
#      result.json of the KCIDB tests (tests/kcidb/hostile: wrong types
#      everywhere, made for the readers' robustness) refused;
#   4. the reference, docs/result-json-reference.md, is what
#      tools/result-reference.sh renders from the schema now (make
#      result-reference), and every named field has a description.
#
# (The end-to-end suites validate each run's result.json too:
# tests/e2e/lib.sh.)
#
#   sh tests/resultschema.sh             (make check runs it)
#   sh tests/resultschema.sh 'replay/*'  some tests (--list names them)
# suite: quick
set -u

. "$(dirname "$0")/lib.sh"
js=$build/jsonschema
schema=$top/docs/result.schema.json

# valid FILE LABEL: the schema takes it.
valid() {
	checked
	if ! "$js" "$schema" "$1" > "$tmp/js.out" 2>&1; then
		fail "$2: not valid against docs/result.schema.json"
		sed 's/^/    /' "$tmp/js.out" >&2
	fi
}

# refused FILE WANT LABEL: jsonschema exits 1 (not 2: the schema loads)
# and one of its lines is exactly WANT (the document's name left out).
refused() {
	checked
	"$js" "$schema" "$1" > "$tmp/js.out" 2>&1
	rc=$?
	if [ $rc != 1 ]; then
		fail "$3: jsonschema exit $rc, want 1"
		sed 's/^/    /' "$tmp/js.out" >&2
	elif ! sed "s|^$1: ||" "$tmp/js.out" | grep -qxF -- "$2"; then
		fail "$3: not refused with '$2'"
		sed 's/^/    /' "$tmp/js.out" >&2
	fi
}

# 1 and 2: a replay fixture's stored result.json, and the one this
# scaletest makes of its inputs now.
replay_fixture() {
	d=tests/fixtures/replay/$1
	valid "$d/result.json" "$d/result.json"
	rm -rf "$tmp/$1"
	checked
	if ! "$bin" report --replay "$d" --out "$tmp/$1" > "$tmp/$1.log" 2>&1; then
		fail "$1: scaletest report --replay failed"
		sed 's/^/    /' "$tmp/$1.log" >&2
		return
	fi
	valid "$tmp/$1/result.json" "$1: the replayed result.json"
}

golden_input() {
	valid "$1" "$1"
}

# 3: edits of a real result.json, each refused for what was broken.
edited() { # NAME JQ: smoke-x86_64's result.json edited, in $tmp/NAME.json
	jq "$2" tests/fixtures/replay/smoke-x86_64/result.json > "$tmp/$1.json" ||
		fail "$1: jq failed"
}

test_missing_required_key_refused() {
	edited no-status 'del(.status)'
	refused "$tmp/no-status.json" '(root): required property "status" is missing' "no status"
	edited no-checks-pass 'del(.checks[0].pass)'
	refused "$tmp/no-checks-pass.json" '/checks/0: required property "pass" is missing' "a check without pass"
}

test_wrong_type_refused() {
	edited string-count '.disks.requested = "40"'
	refused "$tmp/string-count.json" '/disks/requested: "40" is not of type integer' "a count as a string"
	edited fraction '.disks.present = 39.5'
	refused "$tmp/fraction.json" '/disks/present: 39.5 is not of type integer or null' "a fractional disk count"
	edited pass-string '.checks[0].pass = "yes"'
	refused "$tmp/pass-string.json" '/checks/0/pass: "yes" is not of type boolean' "a check's pass as a string"
}

test_unknown_key_refused() {
	edited top-key '.bogus = 1'
	refused "$tmp/top-key.json" '(root): property "bogus" is not allowed' "an unknown key at the top"
	edited vm-key '.vm.memory_gb = 1'
	refused "$tmp/vm-key.json" '/vm: property "memory_gb" is not allowed' "an unknown key in vm"
}

test_bad_enum_refused() {
	edited status '.status = "passed"'
	refused "$tmp/status.json" '/status: "passed" is not one of "pass", "fail", "timeout", "crash", "oom", "error", "interrupted"' "a bad status"
	edited class '.crash = {class: "explosion", blame: "kernel", type: null, title: "t", detail: null, line: 1, context: ""}'
	checked
	"$js" "$schema" "$tmp/class.json" > "$tmp/js.out" 2>&1
	grep -q '/crash/class: "explosion" is not one of "panic"' "$tmp/js.out" ||
		fail "a bad crash class: not refused for its class: $(cat "$tmp/js.out")"
}

# Made for the readers (report, compare, kcidb must survive it), not by a
# writer: refused, for its wrong types.
test_hostile_result_refused() {
	refused tests/kcidb/hostile/result.json '/kernel/arch: "X86-64!" is not one of "x86_64", "i386"' "the hostile result.json"
	refused tests/kcidb/hostile/result.json '/checks/11/pass: "yes" is not of type boolean' "the hostile result.json"
}

# 4: the reference is the schema's.
test_reference_up_to_date() {
	checked
	if ! sh tools/result-reference.sh > "$tmp/ref.md"; then
		fail "tools/result-reference.sh failed"
	elif ! diff -u docs/result-json-reference.md "$tmp/ref.md" >&2; then
		fail "docs/result-json-reference.md is stale: run make result-reference"
	fi
}

test_every_field_described() {
	checked
	bad=$(jq -r '. as $r | [paths(objects) as $p | select($p[-2] == "properties") |
		select(getpath($p) | has("description") or (.["$ref"] // "" | ltrimstr("#/") | split("/") as $d |
			$d != [] and ($r | getpath($d) | has("description"))) | not) | $p | map(tostring) | join("/")] | .[]' "$schema")
	[ -z "$bad" ] || fail "fields without a description: $bad"
}

for f in "$bin" "$js"; do
	[ -x "$f" ] || { say "$SUITE: $f missing: run make check's build first"; exit 1; }
done
need jq -- "make deps-test"
cd "$top" || exit 1
for d in tests/fixtures/replay/*/; do
	n=$(basename "$d")
	add_test "replay/$n" replay_fixture "$n"
done
for f in tests/golden/*/input/result.json tests/golden/*/input/*/result.json \
	 tests/fixtures/run*/result.json; do
	[ -f "$f" ] || continue
	n=${f#tests/}
	n=${n%/result.json}
	add_test "stored/$n" golden_input "$f"
done
run_tests "$@"
