# Shared by the end-to-end suites (run.sh, kernel.sh); sourced, POSIX sh.
#
#   . "$(dirname "$0")/lib.sh"
#   test_foo() { run_smoke foo --set x=y; check "what" j '.status == "pass"'; }
#   e2e_main "foo bar" "$@"
#
# Run directories go to $out, a temporary directory kept (and named) when a
# test fails.  Needs jq and pgrep.

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/bin/scaletest
smoke=$top/scenarios/smoke
out=$(mktemp -d "${TMPDIR:-/tmp}/scaletest-e2e.XXXXXX")
ntests=0
nfail=0
failed_names=

for tool in jq pgrep; do
	command -v $tool >/dev/null 2>&1 || { echo "e2e: $tool is needed (make deps-test)" >&2; exit 3; }
done
[ -x "$bin" ] || { echo "e2e: build bin/scaletest first (make)" >&2; exit 3; }

say() { printf '%s\n' "$*" >&2; }

# Current test's state.
t=
t_fail=0
check() { # description, then a command that must succeed
	desc=$1
	shift
	if "$@" > /dev/null; then
		:
	else
		say "  FAIL: $t: $desc"
		t_fail=1
	fi
}

# jq -e on the current result.json
j() {
	jq -e "$1" "$dir/result.json" >/dev/null 2>&1
}

# sd index of a name (sda 0, sdz 25, sdaa 26, ...), computed independently of
# the harness: bijective base 26.
sd_index() {
	s=${1#sd}
	i=0
	while [ -n "$s" ]; do
		c=${s%"${s#?}"}
		s=${s#?}
		v=$(printf '%d' "'$c")
		i=$((i * 26 + v - 96))
	done
	echo $((i - 1))
}

# run_smoke NAME [args...]: runs the smoke scenario into $out/NAME; sets
# $rc, $dir (the run directory), $log (stderr+stdout).
run_smoke() {
	name=$1
	shift
	log=$out/$name.log
	# stdout and stderr apart ($log.out, $log.err; the progress line must
	# stay off stdout), then together in $log.
	"$bin" run "$smoke" --out "$out/$name" "$@" > "$log.out" 2> "$log.err"
	rc=$?
	cat "$log.out" "$log.err" > "$log"
	dir=$(find "$out/$name" -mindepth 1 -maxdepth 1 -type d -name '2*' | head -n 1)
	[ -n "$dir" ] || dir=$out/$name/none
}

no_qemu_left() {
	! pgrep -f "qemu-system.*$out/$1" >/dev/null 2>&1
}

# e2e_main "ALL TESTS" [NAME...]: run the named tests (default: all).
e2e_main() {
	all=$1
	shift
	[ $# -gt 0 ] && all="$*"
	for t in $all; do
		t_fail=0
		ntests=$((ntests + 1))
		start=$(date +%s)
		say "e2e: $t"
		"test_$t"
		say "e2e: $t: $([ $t_fail = 0 ] && echo ok || echo FAILED) ($(( $(date +%s) - start )) s)"
		if [ $t_fail != 0 ]; then
			nfail=$((nfail + 1))
			failed_names="$failed_names $t"
		fi
	done
	say "e2e: $ntests tests, $nfail failed${failed_names:+:$failed_names}"
	if [ $nfail = 0 ]; then
		rm -rf "$out"
		exit 0
	fi
	say "e2e: run directories kept in $out"
	exit 1
}
