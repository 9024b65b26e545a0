#!/bin/sh
# What does the harness add on top of the guest's own work?
#
# Side by side, in one run, alternating:
#   harness: scaletest run SCENARIO --set rmmod=0 --set fio=0
#            --set monitor_interval_ms=0 (warm caches): the foundation's
#            phases, with the dd pattern check as its I/O
#   bare:    the same kernel, modules, disks and QEMU, with a bare /init
#            that only loads the modules, waits for the disks and reboots:
#            no channel, no snapshots, no I/O check, no reports.
# The bare initramfs is the harness's own archive with a second one
# appended that replaces /init (the kernel unpacks both in order), written
# by build/bench/mkcpio with the harness's cpio writer.
#
#   sh tests/bench/overhead.sh [SCENARIO] [REPEATS]
#
# Prints each wall time, the medians, the ratio and how much of the
# difference is the disk inventory (deliberate guest work); writes them
# to results/bench/<stamp>-overhead.json.  A benchmark, not a test: it
# asserts nothing about time.
set -eu

. "$(dirname "$0")/lib.sh"
scn=${1:-$top/scenarios/seed-i386-4000}
reps=${2:-2}
sets="--set rmmod=0 --set fio=0 --set monitor_interval_ms=0"
bench_init overhead "$reps" "$scn" "$reps"
[ -x "$mkcpio" ] || { echo "bench: '$mkcpio' is not built (make build/bench/mkcpio)" >&2; exit 3; }

harness_run() { # OUT
	bench_run "$1" "$scn" $sets
}

# One harness run first: warms the caches and tells us the artifacts.
harness_run "$work/warm"
res=$work/warm/latest/result.json
bench_vm_of "$res"
mem=$(jq -r .vm.memory_mb "$res")
disks=$(jq -r .settings.disks "$res")
vdisks=$(jq -r .settings.virtio_disks "$res")

cat > "$work/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox mount -t proc p /proc
/bin/busybox mount -t sysfs s /sys
/bin/busybox mount -t devtmpfs d /dev
/bin/busybox --install -s
. /etc/scaletest.conf
for l in /etc/modules.base /etc/modules.disk; do
	while read -r m a; do [ -n "$m" ] && insmod "$m" $a; done < $l
done
want=$DISKS
while set -- /sys/block/*; [ $# -lt "$want" ]; do usleep 100000; done
while read -r m a; do [ -n "$m" ] && insmod "$m" $a; done < /etc/modules.virtio
want=$((DISKS + VIRTIO_DISKS))
while set -- /sys/block/*; [ $# -lt "$want" ]; do usleep 100000; done
echo bare-done
reboot -f
INIT
chmod 755 "$work/init"
"$mkcpio" "$work/init.cpio" init="$work/init"
cat "$initrd" "$work/init.cpio" > "$work/bare.cpio"

bench_side bare "$qemu -machine pc,accel=$accel -m $mem with the harness's kernel and initramfs, $vdisks virtio-scsi disks, and a bare /init appended (loads the modules, waits for the disks, reboots)"
bench_side harness "bin/scaletest run $(bench_quote "$scn") $sets"
bench_metric wall_s s "$reps" "bare harness" harness/bare "wall time of one run"
bench_metric inventory_s s "$reps" harness - "the disk inventory in the harness run (guest time)"
bench_metric wall_less_inventory_s s "$reps" "bare harness" harness/bare "wall time less the disk inventory"

bare_once() {
	set -- -nodefaults -no-user-config -display none -no-reboot \
		-machine pc,accel="$accel" -m "$mem" -kernel "$kernel" -initrd "$work/bare.cpio" \
		-append "console=ttyS0,115200 panic=-1 loglevel=4 rdinit=/init" \
		-serial "file:$work/bare.log"
	if [ "$vdisks" -gt 0 ]; then
		set -- "$@" -device virtio-scsi-pci,id=vscsi
		j=0
		while [ $j -lt "$vdisks" ]; do
			truncate -s 64M "$work/vd$j.img"
			set -- "$@" -drive "if=none,id=vd$j,file=$work/vd$j.img,format=raw,cache=unsafe,werror=report,rerror=report" \
				-device "scsi-hd,drive=vd$j,bus=vscsi.0,scsi-id=$j,lun=0"
			j=$((j + 1))
		done
	fi
	: > "$work/bare.log"
	t0=$(bench_now)
	timeout 900 "$qemu" "$@" || true
	t1=$(bench_now)
	grep -q bare-done "$work/bare.log" ||
		{ tail -n 10 "$work/bare.log" >&2; bench_die "the bare run did not finish"; }
	echo "$t0 $t1" | awk '{ printf "%.1f\n", $2 - $1 }'
}

harness_once() { # N
	t0=$(bench_now)
	harness_run "$work/h$1"
	t1=$(bench_now)
	echo "$t0 $t1" | awk '{ printf "%.1f\n", $2 - $1 }'
}

echo "bench: $(bench_quote "$scn"), $disks disks + $vdisks virtio, $reps repeats each, alternating"
i=0
while [ $i -lt "$reps" ]; do
	b=$(bare_once)
	h=$(harness_once $i)
	inv=$(jq -r '.timings.inventory_s // 0' "$work/h$i/latest/result.json")
	echo "bench: run $((i + 1)): bare ${b}s  harness ${h}s (inventory ${inv}s)"
	bench_value wall_s bare "$b"
	bench_value wall_s harness "$h"
	bench_value inventory_s harness "$inv"
	bench_value wall_less_inventory_s bare "$b"
	bench_value wall_less_inventory_s harness "$(echo "$h $inv" | awk '{ printf "%.1f\n", $1 - $2 }')"
	i=$((i + 1))
done
last=$work/h$((reps - 1))/latest/result.json
jq -r '"bench: last harness run: setup \(.timings.setup_s) s, boot mark at \(.timings.boot_s) s, enumeration \(.timings.enumerate_s) s, total \(.timings.total_s) s"' "$last"
bench_finish
