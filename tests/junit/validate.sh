#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# JUnit files against the schema CI reads: every JUnit document the golden
# tests hold (tests/golden/*/expected/{junit,compare,summary}.xml, which
# tests/golden.sh proves are byte for byte what the writers make) is
#
#   1. valid against tests/junit/junit-10.xsd (the Jenkins dialect), by
#      xmllint --noout --schema;
#   2. counted right: on each <testsuite>, tests, failures, errors and
#      skipped (0 when absent) are the number of its <testcase>,
#      <failure>, <error> and <skipped> elements, and <testsuites> has
#      their sums (XML Schema 1.0 cannot say this, so xmllint --xpath
#      counts);
#   3. named apart: no two <testsuite> of a document share a name (Jenkins
#      and GitLab would merge them into one: the nightly's three smoke
#      runs would show as one suite).
#
# Three negative cases show that each part can fail, and fails the right
# way: bad-schema.xml (properties inside a testcase) is refused by the
# schema, bad-counts.xml (a <failure> counted in errors, a <skipped> not
# counted) by the count, bad-names.xml (two suites of one name) by the
# names.
#
#   sh tests/junit/validate.sh        (make check runs it)
# suite: quick
set -u

. "$(dirname "$0")/../lib.sh"
here=$top/tests/junit
xsd=$here/junit-10.xsd
need xmllint -- "install libxml2-utils (make deps-test)"

# xp FILE EXPR: the XPath expression's value.
xp() {
	xmllint --xpath "$2" "$1" 2>/dev/null
}

# same FILE WHAT WANT GOT: one count; prints the mismatch, returns 1.
same() {
	[ "$3" = "$4" ] && return 0
	echo "$1: $2 says $3, the document has $4"
	return 1
}

# counts FILE: prints every count that does not match its elements.
counts() {
	bad=0
	ns=$(xp "$1" 'count(/testsuites/testsuite)')
	i=1
	while [ "$i" -le "$ns" ]; do
		s="/testsuites/testsuite[$i]"
		name=$(xp "$1" "string($s/@name)")
		same "$1" "testsuite '$name' tests" "$(xp "$1" "string($s/@tests)")" \
			"$(xp "$1" "count($s/testcase)")" || bad=1
		same "$1" "testsuite '$name' failures" "$(xp "$1" "string($s/@failures)")" \
			"$(xp "$1" "count($s/testcase/failure)")" || bad=1
		same "$1" "testsuite '$name' errors" "$(xp "$1" "string($s/@errors)")" \
			"$(xp "$1" "count($s/testcase/error)")" || bad=1
		same "$1" "testsuite '$name' skipped" "$(xp "$1" "number(concat('0', $s/@skipped))")" \
			"$(xp "$1" "count($s/testcase/skipped)")" || bad=1
		i=$((i + 1))
	done
	all=/testsuites/testsuite/testcase
	same "$1" "testsuites tests" "$(xp "$1" "string(/testsuites/@tests)")" \
		"$(xp "$1" "count($all)")" || bad=1
	same "$1" "testsuites failures" "$(xp "$1" "string(/testsuites/@failures)")" \
		"$(xp "$1" "count($all/failure)")" || bad=1
	same "$1" "testsuites errors" "$(xp "$1" "string(/testsuites/@errors)")" \
		"$(xp "$1" "count($all/error)")" || bad=1
	return $bad
}

# names FILE: prints every suite name that more than one <testsuite> has.
names() {
	dup=$(xp "$1" '/testsuites/testsuite/@name' | sed 's/^ *name="\(.*\)"$/\1/' | sort | uniq -d)
	[ -z "$dup" ] && return 0
	echo "$dup" | sed "s|^|$1: more than one testsuite named |"
	return 1
}

# validate FILE: all three parts; what failed on stdout.
validate() {
	xmllint --noout --schema "$xsd" "$1" 2>&1 || return 1
	r=0
	counts "$1" || r=1
	names "$1" || r=1
	return $r
}

# A golden JUnit file: valid, counted right.
junit_file() {
	checked
	if ! validate "$1" > "$tmp/out"; then
		fail "$1 is not valid JUnit"
		sed 's/^/    /' "$tmp/out" >&2
	fi
}

# The negative cases: each refused, for its own reason.
test_bad_schema_refused() {
	checked
	if validate "$here/bad-schema.xml" > "$tmp/out"; then
		fail "bad-schema.xml passed: the schema check accepts anything"
	elif ! grep -q "Element 'properties': This element is not expected" "$tmp/out"; then
		fail "bad-schema.xml refused, but not for its properties in a testcase"
		sed 's/^/    /' "$tmp/out" >&2
	fi
}

test_bad_counts_refused() {
	checked
	if validate "$here/bad-counts.xml" > "$tmp/out"; then
		fail "bad-counts.xml passed: the count check accepts anything"
	elif ! grep -q "testsuite 'scaletest.smoke' failures says 0, the document has 1" "$tmp/out" ||
	     ! grep -q "testsuite 'scaletest.smoke' errors says 1, the document has 0" "$tmp/out" ||
	     ! grep -q "testsuite 'scaletest.smoke' skipped says 0, the document has 1" "$tmp/out"; then
		fail "bad-counts.xml refused, but not for its failure counted as an error and its uncounted skip"
		sed 's/^/    /' "$tmp/out" >&2
	fi
}

test_bad_names_refused() {
	checked
	if validate "$here/bad-names.xml" > "$tmp/out"; then
		fail "bad-names.xml passed: the name check accepts anything"
	elif ! grep -q "more than one testsuite named scaletest.smoke$" "$tmp/out"; then
		fail "bad-names.xml refused, but not for its two suites named scaletest.smoke"
		sed 's/^/    /' "$tmp/out" >&2
	fi
}

test_golden_has_junit_files() {
	check "JUnit files under tests/golden/*/expected" [ -n "$files" ]
}

cd "$top" || exit 1
files=$(ls tests/golden/*/expected/junit.xml tests/golden/*/expected/compare.xml \
	tests/golden/*/expected/summary.xml 2>/dev/null)
for f in $files; do
	# tests/golden/NAME/expected/FILE.xml -> NAME/FILE
	n=${f#tests/golden/}
	add_test "${n%%/*}/$(basename "$f" .xml)" junit_file "$f"
done
run_tests "$@"
