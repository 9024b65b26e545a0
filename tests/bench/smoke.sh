#!/bin/sh
# make test: every benchmark in a tiny form (the smoke scenario or one
# disk, one repeat a side), so that a benchmark that no longer runs fails
# the test suite instead of the next person who quotes its figures.
#
# Asserts that each ran and wrote its figures: one JSON file per benchmark
# with the fixed keys, the expected metrics, one number per side of each,
# a median for every side and a ratio where there should be one (lib.sh's
# bench_validate), and that the benchmark table (docs/measurements.md) can be made from them.  It
# never asserts anything about time.  Also checks mkcpio's refusals.  The
# files go to a temporary directory, not results/bench/.
#
#   sh tests/bench/smoke.sh
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/scaletest-bench-smoke.XXXXXX")
trap 'rm -rf "$work"' EXIT
fails=0

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

# ---- mkcpio ------------------------------------------------------------------
mkcpio=$top/build/bench/mkcpio
[ -x "$mkcpio" ] || { echo "smoke: '$mkcpio' is not built (make build/bench/mkcpio)" >&2; exit 3; }
echo hello > "$work/f"
st=0; "$mkcpio" "$work/a.cpio" 2>/dev/null || st=$?
[ $st -eq 2 ] || fail "mkcpio without NAME=SRC exited $st, not 2"
st=0; "$mkcpio" "$work/a.cpio" nosrc 2>"$work/err" || st=$?
[ $st -eq 2 ] && grep -q "'nosrc' is not NAME=SRC" "$work/err" || fail "mkcpio nosrc: exit $st, $(cat "$work/err")"
st=0; "$mkcpio" "$work/a.cpio" x="$work/missing" 2>"$work/err" || st=$?
[ $st -eq 2 ] && grep -q "cannot stat" "$work/err" || fail "mkcpio with a missing file: exit $st, $(cat "$work/err")"
[ ! -e "$work/a.cpio" ] || fail "mkcpio left an archive after refusing"
"$mkcpio" "$work/a.cpio" /a/b/init="$work/f" || fail "mkcpio a/b/init failed"
[ "$(head -c 6 "$work/a.cpio")" = 070701 ] || fail "mkcpio did not write a newc archive"
# The directories come first, then the file, with its bytes.
names=$(grep -a -o 'a/b/init\|a/b\|hello' "$work/a.cpio" | tr '\n' ' ')
[ "$names" = "a/b a/b/init hello " ] || fail "mkcpio archive holds '$names'"

# ---- the benchmarks -------------------------------------------------------------
# name, arguments, and the metrics its JSON must have.
run_one() { # NAME METRICS ARG...
	name=$1 metrics=$2
	shift 2
	t0=$(date +%s)
	echo "smoke: sh tests/bench/$name.sh $*"
	mkdir -p "$work/out/$name"
	if ! BENCH_OUT=$work/out/$name sh "$here/$name.sh" "$@" > "$work/$name.log" 2>&1; then
		tail -n 20 "$work/$name.log" >&2
		fail "$name.sh $* exited non-zero"
		return
	fi
	set -- "$work/out/$name"/*-"$name".json
	[ $# -eq 1 ] && [ -f "$1" ] || { fail "$name.sh wrote $# JSON files, not 1"; return; }
	( . "$here/lib.sh" && bench_validate "$1" ) || fail "$name.sh's JSON is not right (above)"
	got=$(jq -r '[.metrics[].name] | join(" ")' "$1")
	[ "$got" = "$metrics" ] || fail "$name.sh's metrics are '$got', not '$metrics'"
	bad=$(jq -r '.repeats as $r | .metrics[] | select(.count != $r) | .name' "$1")
	[ -z "$bad" ] || fail "$name.sh: metrics whose count is not the repeats: $bad"
	grep -q '^bench: figures in ' "$work/$name.log" || fail "$name.sh did not say where its figures are"
	echo "smoke: $name: $(($(date +%s) - t0)) s"
}

smoke=$top/scenarios/smoke
run_one overhead "wall_s cpu_s inventory_s up_init_s up_sd_s up_inventory_s up_io_s vm_s host_s" "$smoke" 1
run_one monitor "enumerate_s per_disk_B samples cpu_pct" "$smoke" 1
run_one timeattr "enumerate_s rmmod_s total_s per_disk_B memfree_per_disk_B returned_pct cost_pct samples closure_pct" "$smoke" 1
run_one waits "run_enumerate_s sweep_enumerate_s progress_records progress_cpu_s" "$smoke" 1
run_one channel "send_s kB_per_s" "$smoke" 1 64
run_one fio-range "write_iops read_iops io_extra_kB" "$smoke" 1
run_one initramfs "uptime_s boot_s archive_bytes" 1 x86_64
run_one boot "uptime_s boot_s" 1 x86_64
run_one fio "size_bytes cpio_bytes size_i386_bytes harness_uptime_s harness_boot_s bare_uptime_s bare_host_s" 1

# ---- the benchmark table ------------------------------------------------------------
set -- "$work"/out/*/*.json
if [ -f "$1" ]; then
	sh "$here/table.sh" "$@" > "$work/table.md" || fail "table.sh failed on the smoke figures"
	rows=$(grep -c '^| ' "$work/table.md" || true)
	want=$(jq -s '[.[].metrics[]] | length + 1' "$@")	# and the header
	[ "$rows" -eq "$want" ] || fail "table.sh made $rows rows, not $want"
fi

if [ $fails -gt 0 ]; then
	echo "smoke: $fails failure(s)" >&2
	exit 1
fi
echo "smoke: every benchmark ran and wrote its figures"
