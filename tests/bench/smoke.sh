#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make test: every benchmark in a tiny form (the smoke scenario or one
# disk, one repeat a side), so that a benchmark that no longer runs fails
# the test suite instead of the next person who quotes its figures.
#
# Asserts that each ran and wrote its figures: one JSON file per benchmark
# with the fixed keys, the expected metrics, one number per side of each,
# a median for every side and a ratio where there should be one (lib.sh's
# bench_validate), and that the benchmark table (docs/measurements.md) can be made from them.  It
# never asserts anything about time.  Also checks mkcpio's refusals and
# the figures' arithmetic (the pairs' own ratio).  The
# files go to a temporary directory, not results/bench/.
#
#   sh tests/bench/smoke.sh            every benchmark
#   sh tests/bench/smoke.sh overhead   one (the names: --list)
# suite: full
# Late (tests/run.sh): it builds the stock 6.1 kernel, which e2e/kernel then finds.
# order: 80
set -u

. "$(dirname "$0")/../lib.sh"
here=$top/tests/bench
work=$tmp

# ---- mkcpio ------------------------------------------------------------------
mkcpio=$build/bench/mkcpio
[ -x "$mkcpio" ] || { say "bench/smoke: '$mkcpio' is not built (make build/bench/mkcpio)"; exit 3; }

# Its refusals: usage (exit 2), not NAME=SRC, a missing file; nothing left.
test_mkcpio_refusals() {
	echo hello > "$work/f"
	st=0; "$mkcpio" "$work/a.cpio" 2>/dev/null || st=$?
	check "mkcpio without NAME=SRC exited $st, not 2" [ $st -eq 2 ]
	st=0; "$mkcpio" "$work/a.cpio" nosrc 2>"$work/err" || st=$?
	check "mkcpio nosrc: exit $st, $(cat "$work/err")" sh -c "[ $st -eq 2 ] && grep -q \"'nosrc' is not NAME=SRC\" '$work/err'"
	st=0; "$mkcpio" "$work/a.cpio" x="$work/missing" 2>"$work/err" || st=$?
	check "mkcpio with a missing file: exit $st, $(cat "$work/err")" sh -c "[ $st -eq 2 ] && grep -q 'cannot stat' '$work/err'"
	check "mkcpio left no archive after refusing" absent "$work/a.cpio"
}

# An archive: newc; the directories come first, then the file, with its bytes.
test_mkcpio_archive() {
	echo hello > "$work/f"
	rm -f "$work/a.cpio"
	check "mkcpio a/b/init failed" "$mkcpio" "$work/a.cpio" /a/b/init="$work/f"
	check "mkcpio did not write a newc archive" [ "$(head -c 6 "$work/a.cpio")" = 070701 ]
	names=$(grep -a -o 'a/b/init\|a/b\|hello' "$work/a.cpio" | tr '\n' ' ')
	check "mkcpio archive holds '$names'" [ "$names" = "a/b a/b/init hello " ]
}

# ---- the figures' arithmetic ----------------------------------------------------
# lib.sh's JSON of figures from known values: the medians' ratio and the
# pairs' own (B[i] / A[i]) differ when the pairs do, and a zero in A
# leaves the pairs' figure out rather than dividing by it.
test_paired_ratio() {
	(
		BENCH_OUT=$work/figures
		. "$here/lib.sh"
		bench_init pairs 3
		bench_side a "a"
		bench_side b "b"
		bench_metric t s 3 "a b" b/a "time"
		bench_metric z s 3 "a b" b/a "zero"
		for v in "1 2" "2 2" "4 8"; do
			set -- $v
			bench_value t a "$1"; bench_value t b "$2"
			bench_value z a "$(($1 == 1 ? 0 : $1))"; bench_value z b "$2"
		done
		bench_finish > "$work/pairs.out"
	)
	f=$(ls "$work"/figures/*-pairs.json 2>/dev/null | head -n 1)
	check "the figures were written" [ -n "$f" ]
	check "medians' ratio 2/2, pairs 2, 1, 2: $(jq -c '.metrics[0].ratio' "$f")" \
		jq -e '.metrics[0].ratio | .value == 1 and .paired == {median: 2, min: 1, max: 2}' "$f"
	check "no pairs' figure past a zero: $(jq -c '.metrics[1].ratio' "$f")" \
		jq -e '.metrics[1].ratio.paired == null' "$f"
	check "the pairs' figure printed: $(cat "$work/pairs.out")" grep -q 'b/a 1, pair by pair 2 (1 to 2)' "$work/pairs.out"
}

# ---- the benchmarks -------------------------------------------------------------
# bench NAME: its arguments and the metrics its JSON must have, then runs it.
bench() {
	case $1 in
	overhead) run_one overhead "wall_s cpu_s inventory_s up_init_s enum_s up_sd_s up_inventory_s up_io_s vm_s host_s" "$smoke" 1 ;;
	monitor) run_one monitor "enumerate_s per_disk_B samples cpu_pct" "$smoke" 1 ;;
	timeattr) run_one timeattr "enumerate_s rmmod_s total_s per_disk_B memfree_per_disk_B returned_pct cost_pct samples closure_pct" "$smoke" 1 ;;
	waits) run_one waits "run_enumerate_s sweep_enumerate_s progress_records progress_cpu_s" "$smoke" 1 ;;
	channel) run_one channel "send_s kB_per_s" "$smoke" 1 64 ;;
	fio-range) run_one fio-range "write_iops read_iops io_extra_kB" "$smoke" 1 ;;
	initramfs) run_one initramfs "uptime_s boot_s archive_bytes" 1 x86_64 ;;
	modload) run_one modload "load_s module_bytes" 1 ;;
	boot) run_one boot "uptime_s boot_s" 1 x86_64 ;;
	fio) run_one fio "size_bytes cpio_bytes size_i386_bytes harness_uptime_s harness_boot_s bare_uptime_s bare_host_s" 1 ;;
	esac
}

run_one() { # NAME METRICS ARG...
	name=$1 metrics=$2
	shift 2
	say "smoke: sh tests/bench/$name.sh $*"
	mkdir -p "$work/out/$name"
	checked
	if ! BENCH_OUT=$work/out/$name sh "$here/$name.sh" "$@" > "$work/$name.log" 2>&1; then
		tail -n 20 "$work/$name.log" >&2
		fail "$name.sh $* exited non-zero"
		return
	fi
	set -- "$work/out/$name"/*-"$name".json
	[ $# -eq 1 ] && [ -f "$1" ] || { fail "$name.sh wrote $# JSON files, not 1"; return; }
	checked
	# (in a subshell of this one: bench/lib.sh finds tests/lib.sh from $0)
	( . "$here/lib.sh" && bench_validate "$1" ) || fail "$name.sh's JSON is not right (above)"
	got=$(jq -r '[.metrics[].name] | join(" ")' "$1")
	check "$name.sh's metrics are '$got', not '$metrics'" [ "$got" = "$metrics" ]
	bad=$(jq -r '.repeats as $r | .metrics[] | select(.count != $r) | .name' "$1")
	check "$name.sh: metrics whose count is not the repeats: $bad" [ -z "$bad" ]
	check "$name.sh did not say where its figures are" grep -q '^bench: figures in ' "$work/$name.log"
}

smoke=$top/scenarios/smoke
for b in overhead monitor timeattr waits channel fio-range initramfs modload boot fio; do
	add_test "$b" bench "$b"
done

# ---- the benchmark table ------------------------------------------------------------
# From the figures the benchmarks above wrote in this run of the suite.
table() {
	set -- "$work"/out/*/*.json
	if [ ! -f "$1" ]; then
		skip "no benchmark ran before it in this run of the suite"
		return
	fi
	check "table.sh failed on the smoke figures" sh -c "sh '$here/table.sh' \"\$@\" > '$work/table.md'" - "$@"
	rows=$(grep -c '^| ' "$work/table.md" || true)
	want=$(jq -s '[.[].metrics[]] | length + 1' "$@")	# and the header
	check "table.sh made $rows rows, not $want" [ "$rows" -eq "$want" ]
}

add_test table table
run_tests "$@"
