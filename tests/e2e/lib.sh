# SPDX-License-Identifier: Apache-2.0
# The end-to-end suites' own helpers (run.sh, faults.sh, kernel.sh, ...),
# on top of the one test library, tests/lib.sh, which this sources:
#
#   # suite: full
#   . "$(dirname "$0")/lib.sh"
#   test_foo() { run_smoke foo --set x=y; check "what" j '.status == "pass"'; }
#   run_tests "$@"
#
# Run directories go to $out (the suite's $tmp: kept, and named, when a
# test failed).  Needs jq and pgrep.

. "$(dirname "$0")/../lib.sh"

smoke=$top/scenarios/smoke
out=$tmp

need jq pgrep -- "install them (make deps-test)"
[ -x "$bin" ] || { say "$SUITE: build bin/scaletest first (make)"; exit 3; }

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
# $rc, $dir (the run directory), $log (stderr+stdout).  With
# SCALETEST_E2E_SUITE=SUITE (sid, experimental, ...) smoke takes that
# suite's kernel (kernel_suite): the same tests on another kernel.
run_smoke() {
	name=$1
	shift
	log=$out/$name.log
	# stdout and stderr apart ($log.out, $log.err; the progress line must
	# stay off stdout), then together in $log.
	if [ -n "${SCALETEST_E2E_SUITE:-}" ]; then
		set -- --set "kernel_suite=$SCALETEST_E2E_SUITE" "$@"
	fi
	"$bin" run "$smoke" --out "$out/$name" "$@" > "$log.out" 2> "$log.err"
	rc=$?
	cat "$log.out" "$log.err" > "$log"
	dir=$(find "$out/$name" -mindepth 1 -maxdepth 1 -type d -name '2*' | head -n 1)
	[ -n "$dir" ] || dir=$out/$name/none
}

no_qemu_left() { # (pgrep: 1 is "none", 2 and 3 are errors, never "none")
	pgrep -f "qemu-system.*$out/$1" > /dev/null
	[ $? = 1 ]
}

alive() { # pid: running (not gone, not a zombie)
	[ -r "/proc/$1/stat" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null
}

# The one way an e2e test waits for a moment: wait_until [-p PID] [-t S]
# CMD... polls CMD every 0.1 s until it succeeds.  The moment is always a
# condition the test can see (a line in the log, a file, a process), never
# a time: the bound (S seconds, default 600) only ends a test that would
# otherwise hang.  1 if the bound was reached, or with -p if PID ended
# first and CMD still fails.
wait_until() {
	_wpid=
	_ws=600
	while [ $# -gt 1 ]; do
		case $1 in
		-p) _wpid=$2; shift 2 ;;
		-t) _ws=$2; shift 2 ;;
		*) break ;;
		esac
	done
	_i=0
	until "$@"; do
		if { [ -n "$_wpid" ] && ! alive "$_wpid"; } || [ $_i -ge $((_ws * 10)) ]; then
			"$@"
			return
		fi
		sleep 0.1
		_i=$((_i + 1))
	done
}

# Every result.json a run of the harness wrote during a test (a directory
# with host.json: a run directory, not a file a test made) is valid
# against docs/result.schema.json, checked after each test as part of it:
# the live writers, whatever the test looked at.
schema_js=$build/jsonschema
[ -x "$schema_js" ] || { say "$SUITE: $schema_js missing: run make build/jsonschema"; exit 3; }
schema_stamp=$tmp/.result-schema-stamp
touch "$schema_stamp"
results_valid() {
	find "$out" -name result.json -type f -newer "$schema_stamp" > "$tmp/.result-schema-new" 2> /dev/null
	while read -r _r; do
		[ -f "$(dirname "$_r")/host.json" ] || continue
		checked
		if ! "$schema_js" "$top/docs/result.schema.json" "$_r" > "$tmp/.result-schema.out" 2>&1; then
			fail "$_r: not valid against docs/result.schema.json"
			sed 's/^/    /' "$tmp/.result-schema.out" >&2
		fi
	done < "$tmp/.result-schema-new"
	touch "$schema_stamp"
}
after_each results_valid
