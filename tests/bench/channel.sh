#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The record channel's two ways out of the guest: a virtio-serial port
# (the default since the channel key) against the second emulated UART
# (the fallback on kernels without virtio_console).
#
# One boot of the harness's own kernel and initramfs with a bare /init
# appended: it loads the virtio modules and virtio_console, then sends the
# same payload REPEATS times over each way, alternating, timing each send
# in guest time (what the guest's one CPU spends, which is what competes
# with the enumeration the harness measures):
#   uart:    the second 16550 (ttyS1, raw, as the harness's chan_open sets
#            it), QEMU's -serial file:...
#   virtio:  a virtserialport (virtio-serial-pci), QEMU's chardev file
# Both host ends are plain files, so only the guest and QEMU's device
# model are timed, and the host checks that every byte arrived.
#
#   sh tests/bench/channel.sh [SCENARIO] [REPEATS] [KB]
#
# SCENARIO gives the kernel and initramfs (a harness run of it first, with
# warm caches); KB is the payload (default 1024: a 4000-disk run sends a few
# hundred kB as its disk lists and inventory).  Writes the figures to
# results/bench/<stamp>-channel.json; asserts nothing about time.
set -eu

. "$(dirname "$0")/lib.sh"
scn=${1:-$top/scenarios/smoke}
reps=${2:-3}
kb=${3:-1024}
case $kb in
'' | *[!0-9]* | 0) echo "bench: KB must be a positive number, not '$kb'" >&2; exit 2 ;;
esac
bench_init channel "$reps" "$scn" "$reps" "$kb"
# virtio-serial is so much faster that one payload takes less than the
# guest clock's 10 ms: it sends the payload vtimes times per send, and
# the time per payload is the total divided by that.
vtimes=32
[ -x "$mkcpio" ] || { echo "bench: '$mkcpio' is not built (make build/bench/mkcpio)" >&2; exit 3; }

bench_run "$work/warm" "$scn" --set disks=0 --set fio=0 --set monitor_interval_ms=0
res=$work/warm/latest/result.json
bench_vm_of "$res"
version=$(jq -r .kernel.version "$res")
vcon=$(dirname "$kernel")/../lib/modules/$version/kernel/drivers/char/virtio_console.ko
[ -f "$vcon" ] || bench_die "no virtio_console.ko for $version (looked for $vcon)"

cat > "$work/init" <<INIT
#!/bin/busybox sh
/bin/busybox mount -t proc p /proc
/bin/busybox mount -t sysfs s /sys
/bin/busybox mount -t devtmpfs d /dev
/bin/busybox --install -s
# (modules.channel, when the harness chose virtio-serial, holds virtio_pci
# and virtio_console.)
for l in /etc/modules.channel /etc/modules.base /etc/modules.virtio; do
	[ -f \$l ] || continue
	while read -r m a; do [ -n "\$m" ] && insmod "\$m" \$a; done < \$l
done
[ -d /sys/module/virtio_console ] || insmod /virtio_console.ko
i=0
while [ ! -c /dev/vport0p1 ] && [ \$i -lt 100 ]; do usleep 100000; i=\$((i + 1)); done
[ -c /dev/vport0p1 ] || { echo "bench-error no /dev/vport0p1"; reboot -f; }
stty -F /dev/ttyS1 raw -echo 115200
dd if=/dev/urandom of=/tmp/payload bs=1024 count=$kb 2>/dev/null
exec 5>/dev/ttyS1 6>/dev/vport0p1
n=0
while [ \$n -lt $reps ]; do
	for way in uart virtio; do
		read t0 _ < /proc/uptime
		if [ \$way = uart ]; then
			cat /tmp/payload >&5
		else
			k=0
			while [ \$k -lt $vtimes ]; do cat /tmp/payload >&6; k=\$((k + 1)); done
		fi
		read t1 _ < /proc/uptime
		echo "bench-send \$way \$t0 \$t1"
	done
	n=\$((n + 1))
done
sleep 1
echo bench-done
reboot -f
INIT
chmod 755 "$work/init"
"$mkcpio" "$work/init.cpio" init="$work/init" virtio_console.ko="$vcon"
cat "$initrd" "$work/init.cpio" > "$work/bench.cpio"

: > "$work/console.log"
"$qemu" -nodefaults -no-user-config -display none -no-reboot \
	-machine pc,accel="$accel" -m 512 -kernel "$kernel" -initrd "$work/bench.cpio" \
	-append "console=ttyS0,115200 panic=-1 loglevel=4 rdinit=/init" \
	-serial "file:$work/console.log" -serial "file:$work/uart.bin" \
	-device virtio-serial-pci -chardev "file,id=vs,path=$work/virtio.bin" \
	-device "virtserialport,chardev=vs,name=scaletest.0" > "$work/qemu.log" 2>&1 &
qpid=$!
i=0
while kill -0 $qpid 2>/dev/null && [ $i -lt 6000 ]; do sleep 0.1; i=$((i + 1)); done
kill $qpid 2>/dev/null && bench_die "the guest did not finish in 10 minutes"
wait $qpid || true
tr -d '\r' < "$work/console.log" > "$work/console.txt"
grep -q '^bench-done' "$work/console.txt" ||
	{ tail -n 10 "$work/console.txt" "$work/qemu.log" >&2; bench_die "the guest did not finish"; }
want=$((kb * 1024 * reps))
for way in uart virtio; do
	got=$(wc -c < "$work/$way.bin")
	[ $way = virtio ] && want=$((kb * 1024 * reps * vtimes))
	[ "$got" -eq "$want" ] || bench_die "$way: $got bytes arrived, not $want"
done

bench_side uart "$qemu -serial file:... (the second 16550, raw), cat of $kb kB from the guest"
bench_side virtio "$qemu -device virtio-serial-pci, virtserialport with a file chardev, cat of $kb kB from the guest"
bench_metric send_s s "$reps" "uart virtio" uart/virtio "guest time to send $kb kB"
bench_metric kB_per_s kB/s "$reps" "uart virtio" virtio/uart "throughput"

echo "bench: $(bench_quote "$scn") ($arch, $accel), $kb kB, $reps sends each way, alternating in one boot"
grep '^bench-send ' "$work/console.txt" | while read -r _ way t0 t1; do
	n=1
	[ $way = virtio ] && n=$vtimes
	s=$(echo "$t0 $t1" | awk -v n=$n '{ printf "%.4f\n", ($2 - $1) / n }')
	r=$(echo "$s" | awk -v kb="$kb" -v n=$n '{ printf "%.1f\n", ($1 > 0 ? kb / $1 : kb * n / 0.01) }')
	echo "bench: $way: $s s, $r kB/s"
	bench_value send_s "$way" "$s"
	bench_value kB_per_s "$way" "$r"
done
bench_finish
