#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
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
#   3. statuses as outcome.h maps them (for JUnit too), on real runs and on
#      edits of them: a kernel crash is FAIL, a harness-blamed ending or a
#      harness error ERROR, a check a kernel crash kept from running SKIP
#      (never MISS, which blames the harness), one the harness kept from
#      running MISS, a figure DONE;
#   4. figures that are the run's own: each memory figure's number is its
#      result.json value (bytes per disk as analysis.c wrote them, kB times
#      1024), each time per disk its curve's (ms as s), and every figure
#      per disk has a unit and a prefix a dashboard scales by;
#   5. the kernel told apart: a patched build's checkout has its patchset
#      hash, a stock one "" (so the two are two checkouts), a git commit its
#      repository's https URL, never one that names a user;
#   6. ids unique in a document, each run's saying where it came from: two
#      runs with one run_id (a run from elsewhere claiming another's) get
#      apart ids, and misc names each one's run_id and directory;
#   7. the command line: --out DIR writes DIR/kcidb.json (what stdout would
#      have held), several runs make one document, --origin NAME makes
#      every id NAME's, bad usage is exit 2.
#
# And the check can fail: tests/kcidb/bad.json breaks the schema in
# thirteen places, each said as bad.out has it.
#
#   sh tests/kcidb/validate.sh              (make check runs it)
#   sh tests/kcidb/validate.sh 'status_*'   some tests (--list names them)
# suite: quick
set -u

. "$(dirname "$0")/../lib.sh"
here=$top/tests/kcidb
js=$build/jsonschema
schema=$top/tests/fixtures/kcidb/kcidb-io-v05_03.schema.json

# valid DOC LABEL: the schema takes it.
valid() {
	checked
	if ! "$js" "$schema" "$1" > "$tmp/js.out" 2>&1; then
		fail "$2: not valid against kcidb-io v5.3"
		sed 's/^/    /' "$tmp/js.out" >&2
	fi
}

# linked DOC LABEL: ids unique, links resolve, version 5.3.
linked() {
	checked
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
	checked
	got=$(jq -r --arg p "$2" '[.tests[] | select(.path == $p) | .status] | .[0] // "none"' "$1")
	[ "$got" = "$3" ] || fail "$4: $2 is $got, want $3"
}

# made NAME: tests/golden/NAME/input's document, made now by this
# scaletest (golden.sh proves the committed ones are the same), in
# $tmp/NAME.json.
made() {
	gi=tests/golden/$1/input
	checked
	if [ -f "$gi/result.json" ]; then
		"$bin" report --format kcidb "$gi" > "$tmp/$1.json" 2> "$tmp/err"
	else
		"$bin" report --nightly "$gi" --format kcidb > "$tmp/$1.json" 2> "$tmp/err"
	fi || fail "$1: report --format kcidb failed: $(cat "$tmp/err")"
}

# edit NAME JQ [BASE]: BASE's result.json (run-crash's by default) edited
# by JQ, its document in $tmp/NAME.json, valid.
edit() {
	mkdir -p "$tmp/$1"
	jq "$2" "tests/golden/${3:-run-crash}/input/result.json" > "$tmp/$1/result.json"
	checked
	"$bin" report --format kcidb "$tmp/$1" > "$tmp/$1.json" || fail "$1: report failed"
	valid "$tmp/$1.json" "$1"
}

# 1 and 2: a golden input's documents, the committed one and the one made
# now, are valid and linked.
golden_documents() {
	d=tests/golden/$1/expected/kcidb.json
	if [ -f "$d" ]; then
		valid "$d" "$d"
		linked "$d" "$d"
	fi
	made "$1"
	valid "$tmp/$1.json" "$tmp/$1.json"
	linked "$tmp/$1.json" "$tmp/$1.json"
}

# The hostile result.json's document: valid, linked, its crash context
# one log_excerpt, cut to KCIDB's limit.
test_hostile() {
	checked
	"$bin" report --format kcidb tests/kcidb/hostile > "$tmp/hostile.json" 2> "$tmp/err" ||
		fail "hostile: report --format kcidb failed: $(cat "$tmp/err")"
	valid "$tmp/hostile.json" "hostile result.json"
	linked "$tmp/hostile.json" "hostile result.json"
	check "hostile: the crash context is not a log_excerpt of at most 16384 characters" \
		jq -e '[.tests[] | select(.log_excerpt != null) | .log_excerpt | length <= 16384 and length > 1000] |
			all and length == 1' "$tmp/hostile.json"
}

# 3: statuses.  A kernel crash (run-crash: a panic, blamed on the kernel).
test_status_kernel_panic() {
	made run-crash
	d=$tmp/run-crash.json
	status "$d" scaletest FAIL "a kernel panic"
	status "$d" scaletest.checks.no_crash FAIL "a kernel panic"
	status "$d" scaletest.checks.no_OOM PASS "a kernel panic"
	status "$d" scaletest.checks.scsi_debug_disks_present SKIP "a kernel panic"
	check "a kernel panic: a check blamed on the harness (MISS)" \
		jq -e '[.tests[] | select(.status == "MISS")] | length == 0' "$d"
}

# A run that failed a check, and one that passed: every check as it is.
test_status_checks_as_result_json() {
	for g in run-i386 run-x86_64; do
		made $g
		checked
		bad=$(jq -r --slurpfile r tests/golden/$g/input/result.json '
			($r[0].checks | map({key: ("scaletest.checks." + (.name | gsub("[^A-Za-z0-9_-]+"; "_") |
			  gsub("^_+|_+$"; ""))), value: (if .pass then "PASS" else "FAIL" end)}) | from_entries) as $w |
			.tests[] | select(.path | startswith("scaletest.checks.")) |
			select($w[.path] != .status) | "\(.path) is \(.status), want \($w[.path])"' \
			"$tmp/$g.json")
		[ -z "$bad" ] || fail "$g: $bad"
	done
}

test_status_failed_check_and_pass() {
	made run-i386
	made run-x86_64
	status "$tmp/run-i386.json" scaletest FAIL "a failed check"
	status "$tmp/run-x86_64.json" scaletest PASS "a run that passed"
}

# Edits of run-crash: the harness to blame, the harness's own error, an
# OOM (kernel), a timeout with no class.
test_status_hang_blamed_on_harness() {
	edit hang '.status = "timeout" | .crash.class = "hang" | .crash.blame = "harness"'
	status "$tmp/hang.json" scaletest ERROR "a hang blamed on the harness"
}

test_status_harness_error() {
	edit error '.status = "error" | .reason = "qemu-system-x86_64 not found" | .crash = null'
	status "$tmp/error.json" scaletest ERROR "the harness's error"
	status "$tmp/error.json" scaletest.checks.virtio_disks_present MISS "the harness's error"
}

test_status_oom() {
	edit oom '.status = "oom" | .crash.class = "oom" | .crash.blame = "kernel"'
	status "$tmp/oom.json" scaletest FAIL "an OOM"
}

test_status_timeout_without_class() {
	edit timeout '.status = "timeout" | .crash = null'
	status "$tmp/timeout.json" scaletest ERROR "a timeout with no crash class"
}

# A night: a regression, a run without a baseline, a run that left nothing.
test_nightly_regression_fails() {
	made nightly
	check "nightly: the regression is no FAIL" \
		jq -e '[.tests[] | select(.id | startswith("scaletest:20261203-102003-smoke:scaletest.compare.")) |
			.status] | index("FAIL") != null' "$tmp/nightly.json"
}

test_nightly_no_baseline_misses() {
	made nightly
	check "nightly: a run without a baseline is not MISS" \
		jq -e '.tests[] | select(.id == "scaletest:20261203-103005-smoke-blk:scaletest.baseline") |
			.status == "MISS"' "$tmp/nightly.json"
}

test_nightly_lost_run_errors() {
	made nightly
	check "nightly: the run that left no result.json is not one ERROR" \
		jq -e '[.tests[] | select(.path == "scaletest" and .status == "ERROR")] | length == 1' \
			"$tmp/nightly.json"
}

# 4: the memory figures are result.json's.
test_memory_figures_from_result_json() {
	for g in run-x86_64 run-build-i386-stock run-sweep-attribution; do
		made $g
		checked
		bad=$(jq -r --slurpfile r tests/golden/$g/input/result.json '
			$r[0].deltas.insmod as $d |
			.tests[] | select(.path | test("^scaletest[.]memory[.][A-Za-z]+[.](per_disk|change)$")) |
			(.path | split(".")) as $p |
			(if $p[3] == "per_disk" then $d.per_disk_bytes[$p[2]] else $d[$p[2] + "_kb"] * 1024 end) as $want |
			select($want != null and .number.value != $want) |
			"\(.path) is \(.number.value), result.json says \($want)"' "$tmp/$g.json")
		[ -z "$bad" ] || fail "$g: $bad"
		check "$g: no MemFree per disk figure" \
			jq -e '[.tests[] | select(.path == "scaletest.memory.MemFree.per_disk")] | length == 1' \
				"$tmp/$g.json"
	done
}

# A check the harness kept from running is MISS: a hang blamed on it.
test_status_harness_hang_misses_checks() {
	edit hangmiss '.status = "timeout" | .crash.class = "hang" | .crash.blame = "harness"'
	status "$tmp/hangmiss.json" scaletest.checks.scsi_debug_disks_present MISS "a hang blamed on the harness"
	status "$tmp/hangmiss.json" scaletest.checks.no_crash FAIL "a hang blamed on the harness"
}

# 4: the time per disk is the curve's, ms as s; every figure per disk (and
# a night's comparisons) has a unit without a prefix and the prefix.
test_time_curve_figures_from_result_json() {
	made run-time-attribution
	checked
	bad=$(jq -r --slurpfile r tests/golden/run-time-attribution/input/result.json '
		$r[0].time_curves as $c |
		.tests[] | select(.path | test("^scaletest[.]time_curve[.](insmod|rmmod)[.](per_disk|marginal_last)$")) |
		(.path | split(".")) as $p |
		($c[$p[2]].fit[if $p[3] == "per_disk" then "ms_per_disk" else "marginal_last_ms" end] / 1000) as $want |
		select((.number.value - $want | fabs) > 1e-12 or .number.unit != "s" or .number.prefix != "metric") |
		"\(.path) is \(.number), result.json says \($want) s"' "$tmp/run-time-attribution.json")
	[ -z "$bad" ] || fail "run-time-attribution: $bad"
	check "run-time-attribution: no insmod time per disk figure" \
		jq -e '[.tests[] | select(.path == "scaletest.time_curve.insmod.per_disk")] | length == 1' \
			"$tmp/run-time-attribution.json"
}

test_figures_have_unit_and_prefix() {
	for g in run-time-attribution run-sweep-time-attribution nightly; do
		made $g
		checked
		bad=$(jq -r '.tests[] | select(.number != null) |
			select((.path | test("[.](per_disk|marginal_last|change|unaccounted)$|^scaletest[.]compare[.]")) and
			       (.number.unit == null or .number.prefix == null or
				(.number.unit | test("^(kB|ms|us)$")))) |
			"\(.path): \(.number)"' "$tmp/$g.json")
		[ -z "$bad" ] || fail "$g: a figure without its unit and prefix: $bad"
	done
}

# 5: a patched build is a checkout of its own, a stock one has "".
test_patchset_hash_tells_patched_from_stock() {
	h=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
	made run-build-i386-stock
	check "a stock build: patchset_hash is not \"\"" \
		jq -e '.checkouts[0].patchset_hash == ""' "$tmp/run-build-i386-stock.json"
	edit patched ".kernel.build.patches = [\"0001-sd-more.patch\"] | .kernel.build.patchset_hash = \"$h\"" \
		run-build-i386-stock
	check "a patched build: patchset_hash is not its own" \
		jq -e --arg h "$h" '.checkouts[0].patchset_hash == $h' "$tmp/patched.json"
	check "a patched build: the comment does not count its patch" \
		jq -e '.checkouts[0].comment | endswith(" with 1 patch")' "$tmp/patched.json"
	# An older harness wrote no hash: unknown, left out (never "").
	edit patched-old '.kernel.build.patches = ["0001-sd-more.patch"]' run-build-i386-stock
	check "a patched build without a hash: patchset_hash written" \
		jq -e '.checkouts[0] | has("patchset_hash") | not' "$tmp/patched-old.json"
	edit patched-bad '.kernel.build.patches = ["a.patch"] | .kernel.build.patchset_hash = "zz"' \
		run-build-i386-stock
	check "a patched build with a bad hash: patchset_hash written" \
		jq -e '.checkouts[0] | has("patchset_hash") | not' "$tmp/patched-bad.json"
}

test_git_repository_url_where_known() {
	c=0123456789abcdef0123456789abcdef01234567
	edit git ".kernel.build.source_tree = \"/src/linux@$c\" |
		  .kernel.build.git_url = \"https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git\"" \
		run-build-i386-stock
	check "a git commit: no git_commit_hash and git_repository_url" \
		jq -e --arg c "$c" '.checkouts[0] | .git_commit_hash == $c and
			.git_repository_url == "https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git"' \
			"$tmp/git.json"
	# A URL that carries a user (a token) never goes out.
	edit git-user ".kernel.build.source_tree = \"/src/linux@$c\" |
		       .kernel.build.git_url = \"https://me:ghp_secret@github.com/me/linux.git\"" \
		run-build-i386-stock
	check "a git URL with a user: written" \
		jq -e '.checkouts[0] | has("git_repository_url") | not' "$tmp/git-user.json"
	nsecret=$(grep -c ghp_secret "$tmp/git-user.json")
	check "a git URL's token is in the document" [ "$nsecret" = 0 ]
}

# 6: two runs with one run_id (issue 36: a run from elsewhere claiming
# another's): apart ids, each saying where it came from.
test_two_runs_one_run_id() {
	checked
	rm -rf "$tmp/claim"
	mkdir -p "$tmp/claim"
	cp tests/golden/run-x86_64/input/result.json "$tmp/claim/"
	"$bin" report --format kcidb tests/golden/run-x86_64/input "$tmp/claim" > "$tmp/claim.json" ||
		fail "two runs with one run_id: report failed"
	valid "$tmp/claim.json" "two runs with one run_id"
	linked "$tmp/claim.json" "two runs with one run_id"
	check "two runs with one run_id: not two builds apart, each with its run_dir" \
		jq -e --arg b "$tmp/claim" '[.builds[] | {id, d: .misc.run_dir, r: .misc.run_id}] ==
			[{id: "scaletest:20261203-054926-smoke", d: "tests/golden/run-x86_64/input",
			  r: "20261203-054926-smoke"},
			 {id: "scaletest:20261203-054926-smoke~2", d: $b, r: "20261203-054926-smoke"}]' \
			"$tmp/claim.json"
	check "two runs with one run_id: the second's tests are not its own" \
		jq -e '[.tests[] | select(.build_id == "scaletest:20261203-054926-smoke~2") |
			.id | startswith("scaletest:20261203-054926-smoke~2:")] | all and length > 10' \
			"$tmp/claim.json"
	# A run_id that would reach into the id's other parts is made a name.
	edit colon '.run_id = "a:scaletest.checks:b x"' run-x86_64
	check "a run_id with ':' and ' ': not made a name" \
		jq -e '.builds[0].id == "scaletest:a_scaletest_checks_b_x" and .builds[0].misc.run_id == "a:scaletest.checks:b x"' \
			"$tmp/colon.json"
}

# 7: the command line.
test_out_dir_holds_the_document() {
	made run-x86_64
	checked
	rm -rf "$tmp/outdir"
	"$bin" report --format kcidb --out "$tmp/outdir" tests/golden/run-x86_64/input > "$tmp/stdout" &&
		[ ! -s "$tmp/stdout" ] && cmp -s "$tmp/outdir/kcidb.json" "$tmp/run-x86_64.json" ||
		fail "--out DIR: DIR/kcidb.json is not the document (or something was printed)"
}

test_two_runs_one_document() {
	checked
	"$bin" report --format kcidb tests/golden/run-x86_64/input tests/golden/run-crash/input > "$tmp/two.json" &&
		jq -e '(.builds | length) == 2 and ([.tests[] | select(.path == "scaletest")] | length) == 2' \
			"$tmp/two.json" > /dev/null || fail "two runs: not one document with both"
	valid "$tmp/two.json" "two runs"
}

# The origin KCIDB gave the submitter: every id starts with it, every
# entry names it; one KCIDB would refuse is bad usage.
test_origin_namespaces_ids() {
	checked
	"$bin" report --format kcidb --origin my_ci2 tests/golden/run-x86_64/input > "$tmp/origin.json" ||
		fail "--origin my_ci2: report failed"
	valid "$tmp/origin.json" "--origin my_ci2"
	linked "$tmp/origin.json" "--origin my_ci2"
	check "--origin my_ci2: an id or origin that is not my_ci2's" \
		jq -e '[.checkouts[], .builds[], .tests[]] | map((.id | startswith("my_ci2:")) and .origin == "my_ci2") |
			all and length > 10' "$tmp/origin.json"
	check "--origin my_ci2: a build_id that is not my_ci2's" \
		jq -e '[.tests[].build_id, .builds[].checkout_id] | map(startswith("my_ci2:")) | all' "$tmp/origin.json"
	for o in My-CI "" "a:b" "$(printf 'x%.0s' $(seq 65))"; do
		expect 2 "^scaletest: --origin '.*': an origin is made of a-z, 0-9 and _" -- \
			"$bin" report --format kcidb --origin "$o" tests/golden/run-x86_64/input
	done
	expect 2 '^scaletest: --origin is for --format kcidb' -- \
		"$bin" report --origin my_ci tests/golden/run-x86_64/input
}

test_bad_usage() {
	for args in "--format junit tests/golden/run-x86_64/input" "--format kcidb" \
		    "--format kcidb --replay tests/golden/run-x86_64/input" \
		    "--format kcidb --compare tests/golden/compare-regression/input/compare.json" \
		    "--format kcidb --nightly tests/golden/nightly/input tests/golden/run-x86_64/input" \
		    "--format kcidb tests/no-such-run"; do
		# shellcheck disable=SC2086
		expect 2 '^scaletest: ' -- "$bin" report $args
	done
}

# The check can fail, and says where.
test_bad_document_refused() {
	checked
	"$js" "$schema" tests/kcidb/bad.json > "$tmp/bad.out" 2>&1
	rc=$?
	if [ $rc != 1 ]; then
		fail "tests/kcidb/bad.json: jsonschema exit $rc, want 1"
	elif ! diff -u "$here/bad.out" "$tmp/bad.out" >&2; then
		fail "tests/kcidb/bad.json: the violations differ from tests/kcidb/bad.out"
	fi
}

for f in "$bin" "$js"; do
	[ -x "$f" ] || { say "$SUITE: $f missing: run make check's build first"; exit 1; }
done
need jq -- "make deps-test"
cd "$top" || exit 1
# Each golden run's and night's documents (a comparison has none).
for g in tests/golden/*/input; do
	[ -f "$g/result.json" ] || [ -f "$g/summary.json" ] || continue
	name=$(basename "$(dirname "$g")")
	add_test "golden/$name" golden_documents "$name"
done
run_tests "$@"
