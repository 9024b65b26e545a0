#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The test library (tests/lib.sh) and the runner (tests/run.sh), tested on
# suites of their own made here: TAP lines and the summary, the name
# filter, a test without an assertion, skips, tests made from data; and the
# runner going on past a failing suite to one verdict of all of them.
# suite: quick
set -u

. "$(dirname "$0")/lib.sh"
# The suites made here fail on purpose and so keep their files: in our
# own $tmp, which goes when this suite passes (not one more /tmp
# directory on every make check).
TMPDIR=$tmp/inner
export TMPDIR
# ... and their runner finds its unit tests in its own tree's build/.
unset SCALETEST_BUILD
mkdir -p "$TMPDIR"

# tree: a copy of the library and the runner, and suites of our own, in
# $tmp/tree/tests/ (the runner finds suites beside itself).
tree() {
	t0=$tmp/tree
	rm -rf "$t0"
	mkdir -p "$t0/tests" "$t0/build"
	cp "$top/tests/lib.sh" "$top/tests/run.sh" "$t0/tests/"
	printf '#!/bin/sh\necho "unit: 3 passed, 0 failed"\n' > "$t0/build/unit-tests"
	chmod +x "$t0/build/unit-tests"
	cat > "$t0/tests/mixed.sh" <<'EOF'
#!/bin/sh
# suite: quick
. "$(dirname "$0")/lib.sh"
test_passes() { check "true holds" true; }
test_fails() { check "false holds" false; check "the next check still runs" true; }
test_asserts_nothing() { :; }
test_skips() { skip "not here"; return; }
test_glob_one() { expect 0 "^one$" -- echo one; }
test_glob_two() { checked; [ 2 = 2 ] || fail "two"; }
data() { check "$1 is a number" test "$1" -ge 0; }
for n in 1 2; do add_test "data_$n" data "$n"; done
run_tests "$@"
EOF
	cat > "$t0/tests/a_fails.sh" <<'EOF'
#!/bin/sh
# suite: quick
. "$(dirname "$0")/lib.sh"
test_good() { check "true" true; }
test_broken() { fail "on purpose"; }
run_tests "$@"
EOF
	cat > "$t0/tests/b_passes.sh" <<'EOF'
#!/bin/sh
# suite: quick
. "$(dirname "$0")/lib.sh"
test_fine() { check "true" true; }
run_tests "$@"
EOF
	cat > "$t0/tests/c_full.sh" <<'EOF'
#!/bin/sh
# suite: full
. "$(dirname "$0")/lib.sh"
test_slow() { check "true" true; }
run_tests "$@"
EOF
	cat > "$t0/tests/outside.sh" <<'EOF'
#!/bin/sh
. "$(dirname "$0")/lib.sh"
check "an assertion at the top level" true
test_x() { check "true" true; }
run_tests "$@"
EOF
}

test_tap_lines_and_summary() {
	tree
	sh "$t0/tests/mixed.sh" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	check "exit 1 when a test failed (got $rc)" [ $rc = 1 ]
	for l in "ok 1 - passes" "not ok 2 - fails" "not ok 3 - asserts_nothing" \
		 "ok 4 - skips # SKIP not here" "ok 5 - glob_one" "ok 6 - glob_two" \
		 "ok 7 - data_1" "ok 8 - data_2" "1..8" "mixed: 5 passed, 2 failed, 1 skipped"; do
		check "stdout has '$l'" grep -qxF -- "$l" "$tmp/out"
	done
	check "nothing but TAP, comments and the summary on stdout" \
		sh -c "! grep -Ev '^((not )?ok [0-9]+ - |1\\.\\.|# |mixed: )' '$tmp/out'"
	check "the failed check said on stderr" grep -qF "FAIL: fails: false holds" "$tmp/err"
	check "a test without assertions fails, said why" grep -qF "FAIL: asserts_nothing: no assertion ran" "$tmp/err"
	check "the files of a failed run are kept" grep -q "files of the failed tests kept in" "$tmp/err"
}

test_name_filter() {
	tree
	expect 0 "^mixed: 1 passed, 0 failed$" -- sh "$t0/tests/mixed.sh" passes
	expect 0 "^mixed: 2 passed, 0 failed$" -- sh "$t0/tests/mixed.sh" 'glob_*'
	expect 0 "^ok 1 - data_2$" -- sh "$t0/tests/mixed.sh" data_2
	expect 2 "no test named 'nosuch'" -- sh "$t0/tests/mixed.sh" passes nosuch
	expect 0 "^mixed: 2 passed, 0 failed$" -- env TESTS='glob_*' sh "$t0/tests/mixed.sh"
	expect 0 "^mixed: 0 passed, 0 failed$" -- env TESTS=nosuch sh "$t0/tests/mixed.sh"
	expect 2 "unknown option '--bogus'" -- sh "$t0/tests/mixed.sh" --bogus
	sh "$t0/tests/mixed.sh" --list > "$tmp/names"
	printf '%s\n' passes fails asserts_nothing skips glob_one glob_two data_1 data_2 > "$tmp/want"
	check "--list names every test, in order" diff -u "$tmp/want" "$tmp/names"
	# A pattern is matched against names, never against files here.
	: > "$tmp/tree/glob_x"
	expect 0 "^mixed: 2 passed, 0 failed$" -- env -C "$tmp/tree" sh tests/mixed.sh 'glob_*'
}

test_assertion_outside_a_test() {
	tree
	expect 1 "an assertion ran outside a test" -- sh "$t0/tests/outside.sh"
}

test_tmp_removed_when_passed() {
	tree
	TMPDIR=$tmp/tmpdir
	mkdir -p "$TMPDIR"
	TMPDIR=$TMPDIR sh "$t0/tests/b_passes.sh" > /dev/null 2>&1
	check "a passed suite leaves no temporary directory" [ -z "$(ls -A "$TMPDIR")" ]
	TMPDIR=$TMPDIR sh "$t0/tests/a_fails.sh" > /dev/null 2>&1
	TMPDIR=$TMPDIR sh "$t0/tests/a_fails.sh" good > /dev/null 2>&1
	check "an empty one is removed even when a test failed" [ -z "$(ls -A "$TMPDIR")" ]
}

# The runner: every suite runs, the failing first one included, then one
# verdict names every failure.
test_runner_goes_on() {
	tree
	rm -f "$t0/tests/outside.sh" "$t0/tests/mixed.sh"
	TEST_LOGS=$tmp/logs sh "$t0/tests/run.sh" --quick > "$tmp/out" 2>&1
	rc=$?
	check "exit 1: a suite failed (got $rc)" [ $rc = 1 ]
	check "the unit tests ran first" sh -c "grep -n '^=== ' '$tmp/out' | head -n 1 | grep -q '=== unit:'"
	check "the failing suite ran" grep -q "^=== a_fails: sh tests/a_fails.sh" "$tmp/out"
	check "the suite after it ran too" grep -qx "b_passes: 1 passed, 0 failed" "$tmp/out"
	check "a full suite is left out of --quick" sh -c "! grep -q c_full '$tmp/out'"
	check "the verdict counts them" grep -q "^=== 3 suites in .*, 2 passed, 1 failed" "$tmp/out"
	check "the table has each suite's summary" grep -Eq "^  b_passes +ok +[0-9]+ s  1 passed, 0 failed" "$tmp/out"
	check "the failures are listed at the end" sh -c "sed -n '/^=== failed:/,\$p' '$tmp/out' | grep -q '    not ok 2 - broken'"
	check "with the log kept" [ -s "$tmp/logs/a_fails.log" ]
	TEST_LOGS=$tmp/logs sh "$t0/tests/run.sh" b_passes c_full > "$tmp/out" 2>&1
	rc=$?
	check "named suites, quick or full: exit 0 (got $rc)" [ $rc = 0 ]
	check "both ran" grep -q "^=== 2 suites in .*, 2 passed, 0 failed" "$tmp/out"
	expect 2 "no suite 'nosuch'" -- sh "$t0/tests/run.sh" nosuch
	expect 0 "^c_full full$" -- sh "$t0/tests/run.sh" --list
}

# This tree's own suites: each is found, and each runs alone by name.
test_every_suite_found() {
	sh "$top/tests/run.sh" --list > "$tmp/suites"
	for f in "$top"/tests/*.sh "$top"/tests/*/*.sh; do
		grep -q '^run_tests "\$@"$' "$f" || continue
		n=${f#"$top"/tests/}
		check "${n%.sh} is a suite of the runner (a '# suite: quick' or 'full' line)" \
			grep -q "^${n%.sh} \(quick\|full\)$" "$tmp/suites"
	done
}


# The order: quick suites first, then the full ones by their "# order: N"
# line (50 without one), then by name; and this tree's suites that share
# kernel builds run last, bench/smoke (it builds the stock 6.1 kernel),
# e2e/kernel (which finds it, and unpacks the 6.12 source), e2e/bisect
# (whose histories are cloned from the sources kernel.sh unpacked).
test_runner_order() {
	tree
	rm -f "$t0/tests/outside.sh"
	printf '#!/bin/sh\n# suite: full\n# order: 90\n. "$(dirname "$0")/lib.sh"\ntest_x() { check "true" true; }\nrun_tests "$@"\n' > "$t0/tests/a_late.sh"
	printf '#!/bin/sh\n# suite: full\n# order: 10\n. "$(dirname "$0")/lib.sh"\ntest_x() { check "true" true; }\nrun_tests "$@"\n' > "$t0/tests/d_early.sh"
	sh "$t0/tests/run.sh" --list > "$tmp/order"
	check "quick first, then the sanitizer build, then full by order: d_early (10), c_full (50), a_late (90)" \
		[ "$(grep ' full$' "$tmp/order" | cut -d' ' -f1 | tr '\n' ' ')" = "sanitize d_early c_full a_late " ]
	check "quick ones in name order before them" \
		[ "$(grep ' quick$' "$tmp/order" | cut -d' ' -f1 | tr '\n' ' ')" = "unit a_fails b_passes mixed " ]
	sh "$top/tests/run.sh" --list | cut -d' ' -f1 | tail -n 3 > "$tmp/last"
	check "bench/smoke, e2e/kernel, e2e/bisect run last, in that order" \
		[ "$(tr '\n' ' ' < "$tmp/last")" = "bench/smoke e2e/kernel e2e/bisect " ]
}

run_tests "$@"
