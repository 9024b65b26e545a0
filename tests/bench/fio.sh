#!/bin/sh
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
# Needs 'scaletest fio' (cmd_fio in the command table; SCALETEST_BIN names
# another build of the harness), busybox, jq and the host's fio package
# (make deps).  A benchmark: it prints numbers and asserts nothing about
# time.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${SCALETEST_BIN:-$top/bin/scaletest}
reps=${1:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/scaletest-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
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

# A cpio of files at given archive paths, with their parent directories
# first (the kernel's unpacker creates no missing parents).
stage() { # DIR, then lines "SRC DEST" on stdin
	mkdir -p "$1"
	while read -r src dst; do
		mkdir -p "$1/$(dirname "$dst")"
		cp -L "$src" "$1/$dst"
	done
}
archive() { # DIR OUT
	(cd "$1" && find . -mindepth 1 | sed 's|^\./||' | busybox cpio -o -H newc 2>/dev/null) > "$2"
}
echo "$static64 bin/fio" | stage "$work/p-static"
sed 's|^/\(.*\)|/\1 \1|' "$work/closure.txt" | stage "$work/p-dynamic"
mkdir -p "$work/p-none"
for p in none static dynamic; do
	archive "$work/p-$p" "$work/p-$p.cpio"
done

cat > "$work/init" <<'EOF'
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
EOF
chmod 755 "$work/init"
(cd "$work" && echo init | busybox cpio -o -H newc 2>/dev/null) > "$work/init.cpio"

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

# ---- harness runs: fio=0 and fio=1 -----------------------------------------
harness_once() { # FIO; leaves "status uptime boot initramfs" in $work/one
	out=$work/h$1
	rm -rf "$out"
	"$bin" run "$top/scenarios/smoke" --set fio="$1" --set fio_runtime=1 \
		--out "$out" --quiet 2>"$work/h$1.err" || true
	r=$(find "$out" -name result.json | head -n 1)
	[ -n "$r" ] || { echo "bench: the fio=$1 run left no result.json:" >&2; tail -n 5 "$work/h$1.err" >&2; exit 1; }
	jq -r '"\(.status) \(.phases[0].uptime_s) \(.timings.boot_s) \(.vm.initramfs)"' "$r" > "$work/one"
	cp "$r" "$work/last-h$1.json"
}

echo "bench: harness: scaletest run scenarios/smoke --set fio=0|1 (fio_runtime=1)"
: > "$work/harness.times"
i=0
while [ $i -lt "$reps" ]; do
	for f in 0 1; do
		harness_once $f
		read -r st up hb ir < "$work/one"
		echo "$f $up $hb" >> "$work/harness.times"
		echo "bench:   run $((i + 1)) fio=$f: $st, guest uptime at the first phase $up s, host boot $hb s, initramfs $(bytes "$ir") bytes"
	done
	i=$((i + 1))
done
for f in 0 1; do
	up=$(awk -v f=$f '$1 == f { print $2 }' "$work/harness.times" | median)
	hb=$(awk -v f=$f '$1 == f { print $3 }' "$work/harness.times" | median)
	echo "bench: harness median fio=$f: .phases[0].uptime_s $up s, .timings.boot_s $hb s"
done

# ---- bare boots with each payload ------------------------------------------
res=$work/last-h0.json
kernel=$(jq -r .kernel.image "$res")
base=$(jq -r .vm.initramfs "$res")
mem=$(jq -r .vm.memory_mb "$res")
accel=$(jq -r .vm.accel "$res")
for p in none static dynamic; do
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
	echo "$up $(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }') ${fv:-?}" > "$work/one"
}

echo "bench: bare: the fio=0 run's kernel and initramfs + payload + /init ($accel, $mem MiB)"
: > "$work/bare.times"
i=0
while [ $i -lt "$reps" ]; do
	for p in none static dynamic; do
		bare_once $p
		read -r up ho fv < "$work/one"
		echo "$p $up $ho" >> "$work/bare.times"
		echo "bench:   run $((i + 1)) $p: guest uptime at /init $up s, host $ho s, archive $(bytes "$work/boot-$p.cpio") bytes, fio --version: $fv"
	done
	i=$((i + 1))
done
for p in none static dynamic; do
	up=$(awk -v p=$p '$1 == p { print $2 }' "$work/bare.times" | median)
	ho=$(awk -v p=$p '$1 == p { print $3 }' "$work/bare.times" | median)
	echo "bench: bare median $p: guest uptime at /init $up s, host $ho s"
done
echo "bench: host: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); other QEMU processes now: $(pgrep -c qemu-system || true)"
