#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The test library (tests/lib.sh), the unit tests' runner
# (tests/unit/main.c) and the runner of suites (tests/run.sh), tested on
# suites of their own made here: TAP lines and the summary, the name
# filter, a test without an assertion, skips, tests made from data, the
# absence checks; a suite whose every test skipped is "skip", a filter
# that selects no test is an error; and the runner going on past a
# failing suite to one verdict of all of them.
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
	printf '#!/bin/sh\nprintf "ok %%s - u%%s\\n" 1 1 2 2 3 3\necho 1..3\necho "unit: 3 passed, 0 failed"\n' > "$t0/build/unit-tests"
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
	cat > "$t0/tests/d_skips.sh" <<'EOF'
#!/bin/sh
# suite: quick
. "$(dirname "$0")/lib.sh"
[ -n "${D_SKIPS_TOOL:-}" ] || skip_all "no such tool here"
test_uses_the_tool() { check "the tool" true; }
test_too() { check "the tool again" true; }
run_tests "$@"
EOF
	cat > "$t0/tests/absence.sh" <<'EOF'
#!/bin/sh
. "$(dirname "$0")/lib.sh"
mkdir -p "$tmp/run/sub"
: > "$tmp/run/there"
test_absent_passes() { check "nothing named gone in run/" absent "$tmp/run/gone"; }
test_absent_present() { check "there is not there" absent "$tmp/run/there"; }
test_absent_parent_renamed() { check "latest not made" absent "$tmp/renamed/latest"; }
test_absent_dangling_link() { ln -s "$tmp/nowhere" "$tmp/run/link"; check "no link" absent "$tmp/run/link"; }
test_none_in_passes() { check "no .tmp- in run/" none_in "$tmp/run" -name '.tmp-*'; }
test_none_in_found() { check "no file in run/" none_in "$tmp/run" -type f; }
test_none_in_renamed() { check "no .tmp- in renamed/" none_in "$tmp/renamed" -name '.tmp-*'; }
test_lacks_passes() { echo "booting" > "$tmp/run/log"; check "not booted" lacks "$tmp/run/log" 'boot(ed| +uptime)'; }
test_lacks_found() { echo "booted" > "$tmp/run/log2"; check "not booted" lacks "$tmp/run/log2" 'boot(ed| +uptime)'; }
test_lacks_missing() { check "not booted" lacks "$tmp/renamed/log" booted; }
test_lacks_fixed() { echo 'a.b' > "$tmp/run/log3"; check "no a*b" lacks -F "$tmp/run/log3" 'a*b'; }
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
	# From the environment a pattern may be another suite's; a suite where
	# none matches says so, in its plan and on stderr.
	expect 0 "^1\.\.0 # SKIP no test matches TESTS='nosuch'$" -- env TESTS=nosuch sh "$t0/tests/mixed.sh"
	check "and says it on stderr" grep -qx "mixed: no test here matches TESTS='nosuch'" "$tmp/out"
	check "its summary counts nothing" grep -qx "mixed: 0 passed, 0 failed" "$tmp/out"
	expect 2 "unknown option '--bogus'" -- sh "$t0/tests/mixed.sh" --bogus
	sh "$t0/tests/mixed.sh" --list > "$tmp/names"
	printf '%s\n' passes fails asserts_nothing skips glob_one glob_two data_1 data_2 > "$tmp/want"
	check "--list names every test, in order" diff -u "$tmp/want" "$tmp/names"
	# A pattern is matched against names, never against files here.
	: > "$tmp/tree/glob_x"
	expect 0 "^mixed: 2 passed, 0 failed$" -- env -C "$tmp/tree" sh tests/mixed.sh 'glob_*'
}

# A suite whose every test skipped did not run: exit 77 ("skip"), never 0.
test_all_skipped_is_skip() {
	tree
	expect 77 "^d_skips: 0 passed, 0 failed, 2 skipped$" -- sh "$t0/tests/d_skips.sh"
	check "each test says why" grep -qx "ok 1 - uses_the_tool # SKIP no such tool here" "$tmp/out"
	expect 77 "^d_skips: 0 passed, 0 failed, 1 skipped$" -- sh "$t0/tests/d_skips.sh" too
	expect 0 "^d_skips: 2 passed, 0 failed$" -- env D_SKIPS_TOOL=1 sh "$t0/tests/d_skips.sh"
	# One test skipped beside others that ran: the suite ran.
	expect 1 "^mixed: 5 passed, 2 failed, 1 skipped$" -- sh "$t0/tests/mixed.sh"
	expect 0 "^mixed: 1 passed, 0 failed, 1 skipped$" -- sh "$t0/tests/mixed.sh" passes skips
}

# A test the default run leaves out (opt_in): a skip that says why and how
# to run it; it runs when named exactly (argument or TESTS=) or with its
# variable at 1, not for a pattern that merely matches it, nor VAR=0.
test_opt_in() {
	tree
	cat > "$t0/tests/optin.sh" <<'EOS'
#!/bin/sh
. "$(dirname "$0")/lib.sh"
test_cheap() { check "true" true; }
test_costly() { opt_in OPTIN_COSTLY "takes an hour" || return; say "costly ran"; check "true" true; }
run_tests "$@"
EOS
	expect 0 "^optin: 1 passed, 0 failed, 1 skipped$" -- sh "$t0/tests/optin.sh"
	check "the skip says why and how to run it" grep -qxF \
		"ok 2 - costly # SKIP takes an hour; run it by name (sh tests/optin.sh costly) or with OPTIN_COSTLY=1" "$tmp/out"
	check "its body did not run" lacks -F "$tmp/out" "costly ran"
	expect 0 "costly ran" -- sh "$t0/tests/optin.sh" costly
	check "named: it ran and passed" grep -qxF "ok 1 - costly" "$tmp/out"
	expect 77 "^ok 1 - costly # SKIP " -- sh "$t0/tests/optin.sh" 'cost*'
	expect 0 "^optin: 2 passed, 0 failed$" -- env OPTIN_COSTLY=1 sh "$t0/tests/optin.sh"
	expect 0 "^optin: 1 passed, 0 failed, 1 skipped$" -- env OPTIN_COSTLY=0 sh "$t0/tests/optin.sh"
	expect 0 "^optin: 1 passed, 0 failed$" -- env TESTS='nothing costly' sh "$t0/tests/optin.sh"
	check "in TESTS: it ran" grep -qxF "ok 1 - costly" "$tmp/out"
}

# absent, none_in and lacks fail when the directory or file they look in is
# not there (a renamed directory), not only when the path or line is.
test_absence_checks() {
	tree
	sh "$t0/tests/absence.sh" > "$tmp/out" 2> "$tmp/err"
	for l in "ok 1 - absent_passes" "not ok 2 - absent_present" "not ok 3 - absent_parent_renamed" \
		 "not ok 4 - absent_dangling_link" "ok 5 - none_in_passes" "not ok 6 - none_in_found" \
		 "not ok 7 - none_in_renamed" "ok 8 - lacks_passes" "not ok 9 - lacks_found" \
		 "not ok 10 - lacks_missing" "ok 11 - lacks_fixed"; do
		check "stdout has '$l'" grep -qxF -- "$l" "$tmp/out"
	done
	check "a renamed directory is said" grep -q "absent: '.*/renamed', where 'latest' would be, is not a directory" "$tmp/err"
	check "so is what was found" grep -q "none_in: found in '.*/run':" "$tmp/err"
	check "none_in names the missing directory" grep -q "none_in: '.*/renamed' is not a directory" "$tmp/err"
	check "lacks says what it found" grep -q "lacks: '.*/log2' has 'boot(ed| +uptime)':" "$tmp/err"
	check "lacks names the missing file" grep -q "lacks: '.*/renamed/log' is not there" "$tmp/err"
	# What they replace: both of these pass with the directory gone.
	check "(the old check passes when the directory is renamed)" [ ! -e "$tmp/renamed/latest" ]
	check "(and so does the old find behind 2>/dev/null)" \
		[ -z "$(find "$tmp/renamed" -name '.tmp-*' 2>/dev/null)" ]
	check "(and the old ! grep on a missing file)" sh -c "! grep -q booted '$tmp/renamed/log' 2>/dev/null"
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
	check "a passed suite leaves no temporary directory" none_in "$TMPDIR"
	TMPDIR=$TMPDIR sh "$t0/tests/a_fails.sh" > /dev/null 2>&1
	TMPDIR=$TMPDIR sh "$t0/tests/a_fails.sh" good > /dev/null 2>&1
	check "an empty one is removed even when a test failed" none_in "$TMPDIR"
}

# The runner: every suite runs, the failing first one included, then one
# verdict names every failure.
test_runner_goes_on() {
	tree
	rm -f "$t0/tests/outside.sh" "$t0/tests/mixed.sh" "$t0/tests/d_skips.sh"
	TEST_LOGS=$tmp/logs sh "$t0/tests/run.sh" --quick > "$tmp/out" 2>&1
	rc=$?
	check "exit 1: a suite failed (got $rc)" [ $rc = 1 ]
	check "the unit tests ran first" sh -c "grep -n '^=== ' '$tmp/out' | head -n 1 | grep -q '=== unit:'"
	check "the failing suite ran" grep -q "^=== a_fails: sh tests/a_fails.sh" "$tmp/out"
	check "the suite after it ran too" grep -qx "b_passes: 1 passed, 0 failed" "$tmp/out"
	check "a full suite is left out of --quick" lacks "$tmp/out" c_full
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

# A suite whose every test skipped is "skip": reported by make check
# (--quick), a failure of make test (which installs every suite's tools).
test_runner_skipped_suite() {
	tree
	TEST_LOGS=$tmp/logs sh "$t0/tests/run.sh" --quick d_skips b_passes > "$tmp/out" 2>&1
	rc=$?
	check "--quick: exit 0 (got $rc)" [ $rc = 0 ]
	check "--quick: the table says skip" grep -Eq "^  d_skips +skip +[0-9]+ s  0 passed, 0 failed, 2 skipped" "$tmp/out"
	check "--quick: the verdict counts it apart" grep -q "^=== 2 suites in .*, 1 passed, 1 skipped, 0 failed" "$tmp/out"
	TEST_LOGS=$tmp/logs sh "$t0/tests/run.sh" d_skips b_passes > "$tmp/out" 2>&1
	rc=$?
	check "make test: exit 1 (got $rc)" [ $rc = 1 ]
	check "make test: the table says skip" grep -Eq "^  d_skips +skip " "$tmp/out"
	check "make test: a failure, said why" grep -q "^  d_skips: every test skipped (make test requires it" "$tmp/out"
	check "with the skips' reasons" grep -q "^    ok 1 - uses_the_tool # SKIP no such tool here" "$tmp/out"
	check "make test: the verdict counts it failed" grep -q "^=== 2 suites in .*, 1 passed, 1 failed" "$tmp/out"
}

# TESTS= across suites: a suite where nothing matches is "none"; a filter
# that selects no test in any suite run is an error.
test_runner_filter_selects_nothing() {
	tree
	TESTS=nosuch TEST_LOGS=$tmp/logs sh "$t0/tests/run.sh" a_fails b_passes > "$tmp/out" 2>&1
	rc=$?
	check "exit 2 (got $rc)" [ $rc = 2 ]
	check "said so" grep -q "^=== run.sh: TESTS='nosuch' selects no test in the 2 suites run" "$tmp/out"
	check "each suite: none" grep -Eq "^  b_passes +none " "$tmp/out"
	check "the verdict counts them" grep -q "^=== 2 suites in .*, 0 passed, 2 with no test selected, 0 failed" "$tmp/out"
	TESTS='fin*' TEST_LOGS=$tmp/logs sh "$t0/tests/run.sh" a_fails b_passes > "$tmp/out" 2>&1
	rc=$?
	check "a pattern one suite has: exit 0 (got $rc)" [ $rc = 0 ]
	check "that suite ran it" grep -Eq "^  b_passes +ok +[0-9]+ s  1 passed, 0 failed" "$tmp/out"
	check "the other selected none" grep -Eq "^  a_fails +none " "$tmp/out"
	TESTS='broken fine' TEST_LOGS=$tmp/logs sh "$t0/tests/run.sh" a_fails b_passes > "$tmp/out" 2>&1
	rc=$?
	check "a selected test that fails: exit 1 (got $rc)" [ $rc = 1 ]
	# The unit tests too: the fake one here prints its TAP lines.
	TESTS=nosuch TEST_LOGS=$tmp/logs sh "$t0/tests/run.sh" --quick > "$tmp/out" 2>&1
	check "unit counts the tests it ran" grep -Eq "^  unit +ok " "$tmp/out"
}

# The unit tests' runner (tests/unit/main.c) on a unit suite made here,
# linked with the tree's build (make builds build/unit/main.o).
test_unit_runner() {
	for f in CFLAGS LDFLAGS unit/main.o libscaletest.a; do
		[ -f "$top/build/$f" ] || { skip "build/$f missing: run make build/unit-tests"; return; }
	done
	u=$tmp/unit
	mkdir -p "$u/fx"
	echo data > "$u/fx/x.txt"
	cat > "$u/self.c" <<'EOF'
#include <signal.h>
#include <stdlib.h>
#include "test.h"
TEST(self_passes) { CHECK_EQ_INT(2 + 2, 4); }
TEST(self_asserts_nothing) { }
TEST(self_reads_a_fixture_only) { free(fixture("x.txt", NULL)); }
TEST(self_fails) { CHECKF(0, "on purpose"); CHECK_STR("a", "a"); }
TEST(self_skips) { SKIP("not here"); }
TEST(self_crashes) { abort(); }
TEST(self_glob_one) { CHECK_CONTAINS("abc", "b"); }
TEST(self_glob_two) { REQUIRE(1); }
EOF
	# shellcheck disable=SC2046
	(cd "$top" && $(cat build/CFLAGS) -Itests/unit -c -o "$u/self.o" "$u/self.c")
	set -- $(cat "$top/build/LDFLAGS")
	ld=$1
	shift
	"$ld" -o "$u/unit-tests" "$top/build/unit/main.o" "$u/self.o" "$top/build/libscaletest.a" "$@"
	check "the unit suite built" [ -x "$u/unit-tests" ] || return
	"$u/unit-tests" "$u/fx" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	check "exit 1 when a test failed (got $rc)" [ $rc = 1 ]
	for l in "ok 1 - self_passes" "not ok 2 - self_asserts_nothing" "not ok 3 - self_reads_a_fixture_only" \
		 "not ok 4 - self_fails" "ok 5 - self_skips # SKIP not here" "not ok 6 - self_crashes" \
		 "ok 7 - self_glob_one" "ok 8 - self_glob_two" "1..8" "unit: 3 passed, 4 failed, 1 skipped"; do
		check "stdout has '$l'" grep -qxF -- "$l" "$tmp/out"
	done
	check "nothing but TAP, comments and the summary on stdout" \
		sh -c "! grep -Ev '^((not )?ok [0-9]+ - |1\\.\\.|# |unit: )' '$tmp/out'"
	check "a test without assertions fails, said why" grep -qx "  FAIL: self_asserts_nothing: no assertion ran" "$tmp/err"
	check "reading a fixture is no assertion" grep -qx "  FAIL: self_reads_a_fixture_only: no assertion ran" "$tmp/err"
	check "a failed CHECKF says its message" grep -q "^  FAIL: self_fails: .*self.c:[0-9]*: on purpose$" "$tmp/err"
	# abort(): a sanitizer build (make check SANITIZE=...) takes SIGSEGV
	# itself and exits, so the crash is SIGABRT, which it leaves alone.
	check "a crash is a failure" grep -q "^  FAIL: self_crashes: crashed: Aborted" "$tmp/err"
	expect 0 "^unit: 2 passed, 0 failed$" -- "$u/unit-tests" "$u/fx" 'self_glob_*'
	expect 0 "^ok 1 - self_passes$" -- "$u/unit-tests" "$u/fx" self_passes
	expect 2 "no test named 'nosuch'" -- "$u/unit-tests" "$u/fx" self_passes nosuch
	expect 0 "^unit: 2 passed, 0 failed$" -- env TESTS='self_glob_*' "$u/unit-tests" "$u/fx"
	expect 0 "^1\.\.0 # SKIP no test matches TESTS='nosuch'$" -- env TESTS=nosuch "$u/unit-tests" "$u/fx"
	expect 77 "^unit: 0 passed, 0 failed, 1 skipped$" -- "$u/unit-tests" "$u/fx" self_skips
	expect 2 "unknown option '--bogus'" -- "$u/unit-tests" "$u/fx" --bogus
	"$u/unit-tests" --list > "$tmp/names"
	printf 'self_%s\n' passes asserts_nothing reads_a_fixture_only fails skips crashes \
		glob_one glob_two > "$tmp/want"
	check "--list names every test, in order" diff -u "$tmp/want" "$tmp/names"
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
	grep ' quick$' "$tmp/order" | cut -d' ' -f1 > "$tmp/quick"
	check "the unit tests first, then the quick ones in name order" \
		sh -c '[ "$(head -n 1 "$1")" = unit ] && tail -n +2 "$1" | sort -c' - "$tmp/quick"
	check "every quick one before the full ones" \
		awk '/ quick$/ { q = NR } / full$/ && !f { f = NR } END { exit !(q && f && q < f) }' "$tmp/order"
	sh "$top/tests/run.sh" --list | cut -d' ' -f1 | tail -n 3 > "$tmp/last"
	check "this tree: bench/smoke, e2e/kernel, e2e/bisect run last, in that order" \
		[ "$(tr '\n' ' ' < "$tmp/last")" = "bench/smoke e2e/kernel e2e/bisect " ]
}


# Two lanes: a suite with "# lane: kernel" runs beside the others, from
# the start.  The two meet: each leaves a mark and waits for the other's
# (a serial runner never lets them meet, and the guard ends the wait).
test_runner_lanes() {
	tree
	rm -f "$t0/tests/outside.sh"
	for s in k_kernel:2 m_other:1; do
		n=${s%:*}
		mk=$tmp/meet
		{
			printf '#!/bin/sh\n# suite: full\n'
			[ "${s#*:}" = 2 ] && printf '# lane: kernel\n'
			printf '. "$(dirname "$0")/lib.sh"\n'
			printf 'test_meet() {\n\t: > "%s.%s"\n\ti=0\n' "$mk" "$n"
			printf '\twhile [ $i -lt ${MEET_TRIES:-300} ] && [ "$(ls "%s".* 2>/dev/null | wc -l)" -lt 2 ]; do sleep 0.1; i=$((i + 1)); done\n' "$mk"
			printf '\tcheck "the other suite ran at the same time" [ "$(ls "%s".* | wc -l)" = 2 ]\n}\nrun_tests "$@"\n' "$mk"
		} > "$t0/tests/$n.sh"
	done
	TEST_LOGS=$tmp/logs sh "$t0/tests/run.sh" k_kernel m_other > "$tmp/out" 2>&1
	rc=$?
	check "both pass, each meeting the other (exit $rc)" [ $rc = 0 ]
	check "said it runs two lanes" grep -q "^=== run.sh: two lanes: k_kernel beside the rest" "$tmp/out"
	check "the table in the suites' order" \
		sh -c 'grep -E "^  (k_kernel|m_other) " "$1" | cut -c3-10 | tr -d " " | tr "\n" " " | grep -qx "k_kernel m_other "' - "$tmp/out"
	check "the kernel lane's log kept" grep -q "^ok 1 - meet" "$tmp/logs/k_kernel.log"
	rm -f "$mk".*
	MEET_TRIES=1 TEST_JOBS=1 TEST_LOGS=$tmp/logs sh "$t0/tests/run.sh" k_kernel m_other > "$tmp/out1" 2>&1
	rc=$?
	check "TEST_JOBS=1: one after the other, so they never meet (exit $rc)" [ $rc = 1 ]
	check "and its failure named with the check" grep -q "FAIL: meet: the other suite ran at the same time" "$tmp/out1"
	expect 2 "TEST_JOBS='x' is not a number" -- env TEST_JOBS=x sh "$t0/tests/run.sh" k_kernel
}

# Once its own suites are done the kernel lane takes from the others'
# queue: m_wait waits for n_mark, which comes after it in the queue, so
# the two meet only if the kernel lane (done at once) takes n_mark.
# A suite with a line "# exclusive: NAME" runs holding the lock NAME.
test_runner_lanes_share() {
	tree
	rm -f "$t0/tests/outside.sh"
	mk=$tmp/meet2
	printf '#!/bin/sh\n# suite: full\n# lane: kernel\n. "$(dirname "$0")/lib.sh"\ntest_done() { check "true" true; }\nrun_tests "$@"\n' > "$t0/tests/k_kernel.sh"
	printf '#!/bin/sh\n# suite: full\n. "$(dirname "$0")/lib.sh"\ntest_wait() {\n\ti=0\n\twhile [ $i -lt 300 ] && [ ! -e "%s" ]; do sleep 0.1; i=$((i + 1)); done\n\tcheck "n_mark ran meanwhile" [ -e "%s" ]\n}\nrun_tests "$@"\n' "$mk" "$mk" > "$t0/tests/m_wait.sh"
	printf '#!/bin/sh\n# suite: full\n. "$(dirname "$0")/lib.sh"\ntest_mark() { : > "%s"; check "marked" [ -e "%s" ]; }\nrun_tests "$@"\n' "$mk" "$mk" > "$t0/tests/n_mark.sh"
	TEST_LOGS=$tmp/logs sh "$t0/tests/run.sh" k_kernel m_wait n_mark > "$tmp/out" 2>&1
	rc=$?
	check "the kernel lane took n_mark from the queue (exit $rc)" [ $rc = 0 ]
	[ $rc = 0 ] || sed 's/^/    | /' "$tmp/out"

	cat > "$t0/tests/x_a.sh" <<'XEOF'
#!/bin/sh
# suite: full
# exclusive: thing
. "$(dirname "$0")/lib.sh"
test_held() { check "its lock held while it runs" sh -c '! flock -n "$1" true' - "$TEST_LOGS/.exclusive-thing"; }
run_tests "$@"
XEOF
	TEST_LOGS=$tmp/logs sh "$t0/tests/run.sh" k_kernel x_a > "$tmp/out2" 2>&1
	rc=$?
	check "an exclusive suite runs holding its lock (exit $rc)" [ $rc = 0 ]
	[ $rc = 0 ] || sed 's/^/    | /' "$tmp/out2"
	sed -i '/^# exclusive: thing$/d' "$t0/tests/x_a.sh"
	TEST_LOGS=$tmp/logs sh "$t0/tests/run.sh" k_kernel x_a > "$tmp/out3" 2>&1
	rc=$?
	check "without the line, no lock (exit $rc)" [ $rc = 1 ]
}

run_tests "$@"
