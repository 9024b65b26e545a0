#!/bin/sh
# End-to-end tests of repeats, comparisons, baselines and the nightly run,
# on real smoke runs.
#
#   sh tests/e2e/compare.sh [NAME...]
set -u
. "$(dirname "$0")/lib.sh"

quick="--set fio_runtime=1 --set monitor_interval_ms=0"
baselines=$out/baselines

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
	log=$out/self.log
	"$bin" compare "$group" "$group" --out "$out/self" > "$log" 2>&1
	rc=$?
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "no change" jq -e '.verdict == "no change"' "$out/self/compare.json"
	check "Welch's p on repeats" jq -e '.metrics[] | select(.name == "MemFree per disk") | .sides[1].p != null' "$out/self/compare.json"
	check "one label, numbered" jq -e '.sides[0].label == ((.sides[1].label | sub(" #2$"; "")) + " #1")' "$out/self/compare.json"
	check "markdown, html and JUnit written" test -s "$out/self/compare.md" -a -s "$out/self/compare.html" -a -s "$out/self/compare.xml"
	check "JUnit has the gating metrics" grep -q '<testcase classname="scaletest.compare.smoke" name="MemFree per disk"' "$out/self/compare.xml"
}

test_baseline_and_compare() {
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
	printf '# the e2e matrix\nsmoke fio_runtime=1 monitor_interval_ms=0\n' > "$out/matrix"
	# The matrix's scenario paths are relative to the matrix file.
	cp "$smoke" "$out/smoke"
	# With 40 disks the per-disk figures vary by about 10% from run to
	# run (the README's "run-to-run spread"), so this night's threshold
	# sits well above that: the test checks the pipeline, not the noise.
	"$bin" nightly "$out/matrix" --out "$out/night" --baselines "$baselines" --threshold 40 > "$out/n1.log" 2>&1
	rc=$?
	night=$(find "$out/night" -maxdepth 1 -name 'nightly-*' | head -n 1)
	check "passing night: exit 0 (got $rc)" [ "$rc" = 0 ]
	[ "$rc" = 0 ] || sed 's/^/    | /' "$out/n1.log"
	check "summary.md written" grep -q "^| smoke | pass |" "$night/summary.md"
	check "summary.xml has the run's checks" grep -q 'name="scsi_debug disks present"' "$night/summary.xml"
	check "and the comparison" grep -q 'testsuite name="scaletest.compare.smoke"' "$night/summary.xml"

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

	printf 'smoke disks=-1\n' > "$out/bad-matrix"
	"$bin" nightly "$out/bad-matrix" --out "$out/night3" > "$out/n3.log" 2>&1
	rc=$?
	check "a bad matrix: exit 2 before anything runs (got $rc)" [ "$rc" = 2 ]
	check "naming the line" grep -q "bad-matrix:1: this matrix line is not runnable" "$out/n3.log"
	check "nothing ran" [ ! -e "$out/night3" ]
}

e2e_main "repeat_group compare_group_with_itself baseline_and_compare baseline_refuses_failures compare_refuses_other_environment nightly" "$@"
