#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# fio in the guest: a static binary, or the host's dynamic fio and every
# library it needs?  What does each cost in bytes and in boot time?
#
# Side by side, for the x86_64 guest of the smoke scenario:
#   sizes    the static fio (scaletest fio) and the host's /usr/bin/fio
#            plus its loader and libraries (scaletest fio --host-closure):
#            the files' bytes and the cpio archive that carries them; and
#            the static i386 fio's bytes.
#   harness  scaletest run scenarios/smoke with fio=0 and fio=1 (the harness
#            itself adds the static fio): result.json's guest uptime at the
#            first phase (.phases[0].uptime_s) and host time to it
#            (.timings.boot_s), alternating, REPEATS each.
#   bare     the fio=0 run's kernel and initramfs with a second archive
#            appended (the kernel unpacks both in order): none, the static
#            fio, or the dynamic fio's closure at its host paths, plus an
#            /init that prints /proc/uptime, runs fio --version (so each
#            payload is shown to work) and reboots; guest uptime at /init
#            and host time until that line reached the console, alternating,
#            REPEATS each.  This is overhead.sh's trick: the only way to
#            boot the dynamic payload without changing the harness.
#
#   sh tests/bench/fio.sh [REPEATS]
#
# Needs 'scaletest fio' (SCALETEST_BIN names another build of the harness),
# build/bench/mkcpio (the archives), jq and the host's fio package (make
# deps).  Writes the figures to results/bench/<stamp>-fio.json.  A
# benchmark: it prints numbers and asserts nothing about time.
set -eu

. "$(dirname "$0")/lib.sh"
reps=${1:-3}
bench_init fio "$reps" "$reps"
[ -x "$mkcpio" ] || { echo "bench: '$mkcpio' is not built (make build/bench/mkcpio)" >&2; exit 3; }
now() { bench_now; }
bytes() { # FILE... -> total bytes, following symlinks
	stat -L -c %s "$@" | awk '{ s += $1 } END { print s + 0 }'
}
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }

if ! "$bin" fio --help >/dev/null 2>&1; then
	echo "bench: '$bin fio' is not a command: add { \"fio\", cmd_fio, ..., usage_fio } to harness/cli/main.c's table" >&2
	exit 3
fi

# ---- the payloads ---------------------------------------------------------
static64=$("$bin" fio --arch x86_64 2>"$work/fio.err") || { cat "$work/fio.err" >&2; exit 1; }
static32=$("$bin" fio --arch i386 2>"$work/fio.err") || { cat "$work/fio.err" >&2; exit 1; }
"$bin" fio --host-closure > "$work/closure.txt" 2>"$work/fio.err" || { cat "$work/fio.err" >&2; exit 1; }
nclosure=$(wc -l < "$work/closure.txt")

# Archives of files at given paths, with their parent directories first
# (the kernel's unpacker creates no missing parents): mkcpio does both.
"$mkcpio" "$work/p-static.cpio" bin/fio="$static64"
set --
while read -r f; do set -- "$@" "$f=$f"; done < "$work/closure.txt"
"$mkcpio" "$work/p-dynamic.cpio" "$@"

cat > "$work/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox mount -t proc p /proc
read -r up idle < /proc/uptime
echo "bench-uptime $up"
if [ -x /bin/fio ]; then
	v=$(/bin/fio --version 2>&1)
elif [ -x /usr/bin/fio ]; then
	v=$(/usr/bin/fio --version 2>&1)
else
	v=none
fi
echo "bench-fio $v"
/bin/busybox reboot -f
INIT
chmod 755 "$work/init"
"$mkcpio" "$work/init.cpio" init="$work/init"

bench_side static "the static fio: bin/scaletest fio --arch x86_64 (or i386), stripped"
bench_side dynamic "the host's /usr/bin/fio with its loader and libraries: bin/scaletest fio --host-closure"
bench_side fio0 "bin/scaletest run scenarios/smoke --set fio=0 --set fio_runtime=1"
bench_side fio1 "bin/scaletest run scenarios/smoke --set fio=1 --set fio_runtime=1"
bench_side bare-none "qemu-system-x86_64 with the fio=0 run's kernel and initramfs and an /init that prints /proc/uptime and reboots"
bench_side bare-static "the same with the static fio appended at /bin/fio"
bench_side bare-dynamic "the same with the dynamic fio's closure appended at its host paths"
bench_metric size_bytes B 1 "static dynamic" dynamic/static "bytes of fio for the x86_64 guest"
bench_metric cpio_bytes B 1 "static dynamic" dynamic/static "bytes of the cpio archive that carries it"
bench_metric size_i386_bytes B 1 static - "bytes of the static fio for the i386 guest"
bench_metric harness_uptime_s s "$reps" "fio0 fio1" fio1/fio0 "harness run: guest uptime at the first phase"
bench_metric harness_boot_s s "$reps" "fio0 fio1" fio1/fio0 "harness run: host time from QEMU's start to the first phase"
bench_metric bare_uptime_s s "$reps" "bare-none bare-static bare-dynamic" bare-dynamic/bare-static "bare boot: guest uptime at /init"
bench_metric bare_host_s s "$reps" "bare-none bare-static bare-dynamic" bare-dynamic/bare-static "bare boot: host time until /init reported"

version=$(echo "$static64" | sed -n 's|.*/fio/\([^/]*\)_x86_64/fio$|\1|p')
echo "bench: fio ${version:-?} payloads for the x86_64 guest; $reps repeats each, alternating"
s=$(bytes "$static64")
d=$(xargs stat -L -c %s < "$work/closure.txt" | awk '{ s += $1 } END { print s }')
ld=$(sed -n 2p "$work/closure.txt")
echo "bench: size: static fio (stripped)          $(printf '%10d' "$s") bytes ($(mib "$s")), cpio $(bytes "$work/p-static.cpio") bytes"
echo "bench: size: /usr/bin/fio + $((nclosure - 2)) libraries + $ld"
echo "bench:                                      $(printf '%10d' "$d") bytes ($(mib "$d")), cpio $(bytes "$work/p-dynamic.cpio") bytes, $nclosure files"
echo "bench: size: dynamic / static               $(awk -v a="$d" -v b="$s" 'BEGIN { printf "%.1fx", a / b }')"
s32=$(bytes "$static32")
echo "bench: size: static i386 fio (stripped)     $(printf '%10d' "$s32") bytes ($(mib "$s32"))"
echo "bench: the largest libraries of the closure:"
while read -r f; do echo "$(bytes "$f") $f"; done < "$work/closure.txt" | sort -rn | head -n 5 |
	awk '{ printf "bench:   %10d  %s\n", $1, $2 }'
bench_value size_bytes static "$s"
bench_value size_bytes dynamic "$d"
bench_value cpio_bytes static "$(bytes "$work/p-static.cpio")"
bench_value cpio_bytes dynamic "$(bytes "$work/p-dynamic.cpio")"
bench_value size_i386_bytes static "$s32"

# ---- harness runs: fio=0 and fio=1 -----------------------------------------
harness_once() { # FIO; leaves "status uptime boot initramfs" in $work/one
	out=$work/h$1
	rm -rf "$out"
	bench_run "$out" "$top/scenarios/smoke" --set fio="$1" --set fio_runtime=1
	r=$out/latest/result.json
	jq -r '"\(.status) \(.phases[0].uptime_s) \(.timings.boot_s) \(.vm.initramfs)"' "$r" > "$work/one"
	cp "$r" "$work/last-h$1.json"
}

echo "bench: harness: scaletest run scenarios/smoke --set fio=0|1 (fio_runtime=1)"
i=0
while [ $i -lt "$reps" ]; do
	for f in 0 1; do
		harness_once $f
		read -r st up hb ir < "$work/one"
		bench_value harness_uptime_s fio$f "$up"
		bench_value harness_boot_s fio$f "$hb"
		echo "bench:   run $((i + 1)) fio=$f: $st, guest uptime at the first phase $up s, host boot $hb s, initramfs $(bytes "$ir") bytes"
	done
	i=$((i + 1))
done

# ---- bare boots with each payload ------------------------------------------
res=$work/last-h0.json
kernel=$(jq -r .kernel.image "$res")
base=$(jq -r .vm.initramfs "$res")
mem=$(jq -r .vm.memory_mb "$res")
accel=$(jq -r .vm.accel "$res")
cat "$base" "$work/init.cpio" > "$work/boot-none.cpio"
for p in static dynamic; do
	cat "$base" "$work/p-$p.cpio" "$work/init.cpio" > "$work/boot-$p.cpio"
done

bare_once() { # PAYLOAD; leaves "uptime host fio-version" in $work/one
	log=$work/bare-$1.log
	: > "$log"
	t0=$(now)
	timeout 300 qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot \
		-machine pc,accel="$accel" -m "$mem" -kernel "$kernel" -initrd "$work/boot-$1.cpio" \
		-append "console=ttyS0,115200 panic=-1 loglevel=4 rdinit=/init" \
		-serial "file:$log" &
	pid=$!
	t1=
	# Poll the console; QEMU may print the line and exit between two
	# looks, so look once more after it ended (either way the time is
	# late by at most one poll, 20 ms, plus a fork or two).
	while :; do
		alive=1
		kill -0 $pid 2>/dev/null || alive=
		if grep -q '^bench-uptime' "$log"; then t1=$(now); break; fi
		[ -n "$alive" ] || break
		sleep 0.02
	done
	wait $pid || true
	[ -n "$t1" ] || { echo "bench: $1: /init never reported; the console's end:" >&2; tail -n 20 "$log" >&2; exit 1; }
	up=$(tr -d '\r' < "$log" | sed -n 's/^bench-uptime //p')
	fv=$(tr -d '\r' < "$log" | sed -n 's/^bench-fio //p' | head -n 1)
	case $1:$fv in
	none:none | static:fio-* | dynamic:fio-*) ;;
	*) bench_die "$1: fio --version in the guest said '$fv'" ;;
	esac
	echo "$up $(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }') ${fv:-?}" > "$work/one"
}

echo "bench: bare: the fio=0 run's kernel and initramfs + payload + /init ($accel, $mem MiB)"
i=0
while [ $i -lt "$reps" ]; do
	for p in none static dynamic; do
		bare_once $p
		read -r up ho fv < "$work/one"
		bench_value bare_uptime_s bare-$p "$up"
		bench_value bare_host_s bare-$p "$ho"
		echo "bench:   run $((i + 1)) $p: guest uptime at /init $up s, host $ho s, archive $(bytes "$work/boot-$p.cpio") bytes, fio --version: $fv"
	done
	i=$((i + 1))
done
echo "bench: host: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); other QEMU processes now: $(pgrep -c qemu-system || true)"
bench_finish
