#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# End-to-end tests of repeats, comparisons, baselines and the nightly run,
# on real smoke runs.
#
#   sh tests/e2e/compare.sh [NAME...]
#
# The tests share the group of repeat_group and the baseline of
# baseline_and_compare: one run alone makes what it needs first.
# suite: full
# order: 30
set -u
. "$(dirname "$0")/lib.sh"

quick="--set fio_runtime=1 --set monitor_interval_ms=0"
baselines=$out/baselines

# valid_junit FILE: FILE is valid against the Jenkins JUnit schema
# (tests/junit/junit-10.xsd); xmllint's complaints when it is not.
valid_junit() {
	xmllint --noout --schema "$top/tests/junit/junit-10.xsd" "$1" 2> "$out/xmllint.log" ||
		{ sed 's/^/    | /' "$out/xmllint.log" >&2; return 1; }
}

test_repeat_group() {
	log=$out/repeat.log
	# shellcheck disable=SC2086
	"$bin" run "$smoke" --repeat 2 --out "$out/group" $quick > "$log" 2>&1
	rc=$?
	group=$(find "$out/group" -mindepth 1 -maxdepth 1 -type d -name '2*' | head -n 1)
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "group.json lists two passed runs" jq -e '.runs | length == 2' "$group/group.json"
	check "group status pass" jq -e '.status == "pass" and (.statuses | all(. == "pass"))' "$group/group.json"
	check "latest points at the group" [ "$(readlink "$out/group/latest")" = "$(basename "$group")" ]
	check "the spread is printed" grep -q "MemFree per disk .*mean .*sd" "$log"
}

test_compare_group_with_itself() {
	[ -n "${group:-}" ] || test_repeat_group
	log=$out/self.log
	"$bin" compare "$group" "$group" --out "$out/self" > "$log" 2>&1
	rc=$?
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "no change" jq -e '.verdict == "no change"' "$out/self/compare.json"
	check "Welch's p on repeats" jq -e '.metrics[] | select(.name == "MemFree per disk") | .sides[1].p != null' "$out/self/compare.json"
	check "one label, numbered" jq -e '.sides[0].label == ((.sides[1].label | sub(" #2$"; "")) + " #1")' "$out/self/compare.json"
	check "markdown, html and JUnit written" test -s "$out/self/compare.md" -a -s "$out/self/compare.html" -a -s "$out/self/compare.xml"
	check "JUnit has the gating metrics" grep -q '<testcase classname="scaletest.compare.smoke" name="MemFree per disk"' "$out/self/compare.xml"
	check "compare.xml is valid JUnit" valid_junit "$out/self/compare.xml"
}

test_baseline_and_compare() {
	[ -n "${group:-}" ] || test_repeat_group
	"$bin" baseline update "$group" --baselines "$baselines" > "$out/bl.log" 2>&1
	rc=$?
	check "baseline update: exit 0 (got $rc)" [ "$rc" = 0 ]
	bl=$(sed -n 's/^baseline //p' "$out/bl.log")
	check "baseline holds both runs" test -s "$bl/1/result.json" -a -s "$bl/2/result.json"
	check "key.json names the scenario" jq -e '.key["scenario.name"] == "smoke"' "$bl/key.json"
	# shellcheck disable=SC2086
	run_smoke fresh $quick
	# 40 disks vary by about 10% run to run: a threshold above the noise.
	"$bin" compare --baseline "$dir" --baselines "$baselines" --threshold 40 > "$out/vs.log" 2>&1
	rc=$?
	check "compare --baseline: exit 0 (got $rc)" [ "$rc" = 0 ]
	check "compare --baseline: no regression" grep -q "^# scaletest compare: \(no change\|improvement\)" "$out/vs.log"
	"$bin" baseline find "$dir" --baselines "$baselines" > "$out/find.log" 2>&1
	check "baseline find names it" grep -q "$bl" "$out/find.log"
}

test_baseline_refuses_failures() {
	[ -n "${group:-}" ] || test_repeat_group
	run_smoke crashed --set cmdline=scaletest_fault=panic:after-insmod $quick
	"$bin" baseline update "$dir" --baselines "$baselines" > "$out/blf.log" 2>&1
	rc=$?
	check "exit status 2 (got $rc)" [ "$rc" = 2 ]
	check "says why" grep -q "has status crash" "$out/blf.log"
	"$bin" compare "$group" "$dir" > "$out/cf.log" 2>&1
	rc=$?
	check "compare refuses it too (exit 2, got $rc)" [ "$rc" = 2 ]
	mkdir -p "$out/other-schema"
	printf '{"schema": 2, "status": "pass"}\n' > "$out/other-schema/result.json"
	"$bin" baseline update "$out/other-schema" --baselines "$baselines" > "$out/bls.log" 2>&1
	rc=$?
	check "another schema version is refused (exit 2, got $rc)" [ "$rc" = 2 ]
	check "naming the version" grep -q "schema version 2" "$out/bls.log"
}

test_compare_refuses_other_environment() {
	[ -n "${group:-}" ] || test_repeat_group
	# shellcheck disable=SC2086
	run_smoke bigger --set memory_mb=640 $quick
	"$bin" compare "$group" "$dir" > "$out/env.log" 2>&1
	rc=$?
	check "exit status 2 (got $rc)" [ "$rc" = 2 ]
	check "names the differing key" grep -q "settings.memory_mb: 512 vs 640" "$out/env.log"
	"$bin" compare "$group" "$dir" --allow-mismatch > "$out/env2.log" 2>&1
	rc=$?
	check "--allow-mismatch compares (got $rc)" [ "$rc" != 2 ]
	check "with a warning" grep -q "WARNING: different environments" "$out/env2.log"
}

test_nightly() {
	[ -n "${bl:-}" ] || test_baseline_and_compare
	printf '# the e2e matrix\nsmoke fio_runtime=1 monitor_interval_ms=0\n' > "$out/matrix"
	# The matrix's scenario paths are relative to the matrix file.
	cp "$smoke" "$out/smoke"
	# With 40 disks the per-disk figures vary by about 10% from run to
	# run (docs/measurements.md, "Run-to-run spread"), so this night's threshold
	# sits well above that: the test checks the pipeline, not the noise.
	"$bin" nightly "$out/matrix" --out "$out/night" --baselines "$baselines" --threshold 40 > "$out/n1.log" 2>&1
	rc=$?
	night=$(find "$out/night" -maxdepth 1 -name 'nightly-*' | head -n 1)
	check "passing night: exit 0 (got $rc)" [ "$rc" = 0 ]
	[ "$rc" = 0 ] || sed 's/^/    | /' "$out/n1.log"
	check "summary.md written" grep -q "^| smoke | pass |" "$night/summary.md"
	check "summary.xml has the run's checks" grep -q 'name="scsi_debug disks present"' "$night/summary.xml"
	check "and the comparison" grep -q 'testsuite name="scaletest.compare.smoke\.[0-9]\{8\}-[0-9]\{6\}-smoke"' "$night/summary.xml"
	check "summary.xml is valid JUnit" valid_junit "$night/summary.xml"
	check "the run's suite names its host" grep -q '<testsuite name="scaletest.smoke\.[0-9]\{8\}-[0-9]\{6\}-smoke" .* hostname="' "$night/summary.xml"

	# Make the baseline half of what the kernel really costs, the same in
	# every baseline run (no spread): tonight must then be a regression.
	v=$(jq '.deltas.insmod.per_disk_bytes.MemFree * 0.5 | floor' "$bl/1/result.json")
	for r in "$bl"/*/result.json; do
		jq --argjson v "$v" '.deltas.insmod.per_disk_bytes.MemFree = $v' "$r" > "$r.new" && mv "$r.new" "$r"
	done
	"$bin" nightly "$out/matrix" --out "$out/night2" --baselines "$baselines" --threshold 40 > "$out/n2.log" 2>&1
	rc=$?
	night=$(find "$out/night2" -maxdepth 1 -name 'nightly-*' | head -n 1)
	check "regression: exit 1 (got $rc)" [ "$rc" = 1 ]
	[ "$rc" = 1 ] || sed 's/^/    | /' "$out/n2.log"
	check "regression in the summary" grep -q "| regression |" "$night/summary.md"
	check "a JUnit failure for it" grep -q '<failure message="MemFree per disk' "$night/summary.xml"
	check "counted in failures" grep -q '<testsuite name="scaletest.compare.smoke\.[^"]*" tests="[0-9]*" failures="[1-9]' "$night/summary.xml"

	printf 'smoke disks=-1\n' > "$out/bad-matrix"
	"$bin" nightly "$out/bad-matrix" --out "$out/night3" > "$out/n3.log" 2>&1
	rc=$?
	check "a bad matrix: exit 2 before anything runs (got $rc)" [ "$rc" = 2 ]
	check "naming the line" grep -q "bad-matrix:1: this matrix line is not runnable" "$out/n3.log"
	check "nothing ran" absent "$out/night3"
}

test_nightly_first() {
	# A runner with no baseline of its own (an empty directory: as on a
	# machine whose accelerator or QEMU differs from the committed ones).
	mkdir -p "$out/first" "$out/first-baselines"
	printf 'smoke fio_runtime=1 monitor_interval_ms=0\n' > "$out/first/matrix"
	cp "$smoke" "$out/first/smoke"
	"$bin" nightly "$out/first/matrix" --out "$out/first/n1" --baselines "$out/first-baselines" > "$out/f1.log" 2>&1
	rc=$?
	night=$(find "$out/first/n1" -maxdepth 1 -name 'nightly-*' | head -n 1)
	check "no baseline: exit 4 (got $rc)" [ "$rc" = 4 ]
	[ "$rc" = 4 ] || sed 's/^/    | /' "$out/f1.log"
	accel=$(jq -r '.runs[0].accel' "$night/summary.json")
	qemu=$(jq -r '.runs[0].qemu' "$night/summary.json")
	check "the runner in summary.json" [ -n "$accel" -a "$accel" != null -a -n "$qemu" -a "$qemu" != null ]
	check "the summary says what to do" grep -qF "no baseline for smoke on this runner (accel $accel, qemu $qemu): run \`make nightly-first\` / \`scaletest nightly --record-baselines\` to record them" "$out/f1.log"
	check "a JUnit failure for it" grep -q '<testsuite name="scaletest.baseline.smoke\.[^"]*" tests="1" failures="1" errors="0"' "$night/summary.xml"
	"$bin" nightly "$out/first/matrix" --out "$out/first/n1b" --baselines "$out/first-baselines" --allow-missing-baselines > "$out/f1b.log" 2>&1
	rc=$?
	check "--allow-missing-baselines: exit 0 (got $rc)" [ "$rc" = 0 ]

	"$bin" nightly "$out/first/matrix" --out "$out/first/n2" --baselines "$out/first-baselines" --record-baselines > "$out/f2.log" 2>&1
	rc=$?
	night=$(find "$out/first/n2" -maxdepth 1 -name 'nightly-*' | head -n 1)
	check "first night: exit 0 (got $rc)" [ "$rc" = 0 ]
	[ "$rc" = 0 ] || sed 's/^/    | /' "$out/f2.log"
	check "the baseline recorded" jq -e '.recorded == 1 and .without_baseline == 0 and .runs[0].verdict == "baseline recorded"' "$night/summary.json"
	check "for this runner's key" jq -e --arg q "$qemu" '.key["vm.qemu_version"] == $q' "$out"/first-baselines/smoke--*/key.json

	# The next night is compared with it (threshold above the 40-disk
	# run-to-run spread, as in test_nightly).
	"$bin" nightly "$out/first/matrix" --out "$out/first/n3" --baselines "$out/first-baselines" --threshold 40 > "$out/f3.log" 2>&1
	rc=$?
	night=$(find "$out/first/n3" -maxdepth 1 -name 'nightly-*' | head -n 1)
	check "the night after: exit 0 (got $rc)" [ "$rc" = 0 ]
	[ "$rc" = 0 ] || sed 's/^/    | /' "$out/f3.log"
	check "compared with the recorded baseline" jq -e '.without_baseline == 0 and (.runs[0].baseline | test("first-baselines/smoke--"))' "$night/summary.json"
}

run_tests "$@"
