# Shared by the command-line test scripts (tests/cli.sh, tests/triage.sh):
# sourced after setting NAME, it sets top, bin, fx and a temporary $tmp
# (removed on exit), and gives fail, expect and done_tests.
#
#	NAME=cli
#	. "$(dirname "$0")/lib.sh"
#	expect 2 "^usage:" -- "$bin" run
#	done_tests		# "cli: N tests, N failed"; exit status
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${SCALETEST_BIN:-$top/bin/scaletest}
fx=$top/tests/fixtures
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scaletest-$NAME.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0
nfail=0

fail() {
	echo "  FAIL: $*" >&2
	nfail=$((nfail + 1))
}

# expect RC PATTERN -- command...: exit status must be RC and the combined
# output must match the grep -E PATTERN.
expect() {
	want=$1
	pat=$2
	shift 3
	n=$((n + 1))
	"$@" > "$tmp/out" 2>&1
	got=$?
	if [ "$got" != "$want" ]; then
		fail "$*: exit $got, want $want"
		sed 's/^/    /' "$tmp/out" >&2
	elif ! grep -Eq -- "$pat" "$tmp/out"; then
		fail "$*: output does not match '$pat'"
		sed 's/^/    /' "$tmp/out" >&2
	fi
}

done_tests() {
	echo "$NAME: $n tests, $nfail failed"
	[ "$nfail" -eq 0 ]
}
