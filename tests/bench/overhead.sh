#!/bin/sh
# What does the harness add on top of the guest's own work?
#
# Side by side, in one run, alternating:
#   harness: scaletest run SCENARIO --set rmmod=0 --set fio=0
#            --set monitor_interval_ms=0 (warm caches): the foundation's
#            phases, with the dd pattern check as its I/O
#   bare:    the same kernel, modules, disks and QEMU, with a hand-written
#            /init that only loads the modules, waits for the disks and
#            reboots: no channel, no snapshots, no I/O check, no reports.
# The bare initramfs is the harness's own archive with a second cpio
# appended that replaces /init (the kernel unpacks both in order).
#
#   sh tests/bench/overhead.sh [SCENARIO] [REPEATS]
#
# Prints each wall time, the ratio of the medians and how much of the
# difference is the disk inventory (deliberate guest work).  A benchmark, not a
# test: it asserts nothing about time.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/bin/scaletest
scn=${1:-$top/scenarios/seed-i386-4000}
reps=${2:-2}
sets="--set rmmod=0 --set fio=0 --set monitor_interval_ms=0"
work=$(mktemp -d "${TMPDIR:-/tmp}/scaletest-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }

# One harness run first: warms the caches and tells us the artifacts.
"$bin" run "$scn" $sets --out "$work/warm" --quiet 2>/dev/null
res=$(find "$work/warm" -name result.json | head -n 1)
kernel=$(jq -r .kernel.image "$res")
initrd=$(jq -r .vm.initramfs "$res")
arch=$(jq -r .kernel.arch "$res")
mem=$(jq -r .vm.memory_mb "$res")
disks=$(jq -r .settings.disks "$res")
vdisks=$(jq -r .settings.virtio_disks "$res")
qemu=qemu-system-x86_64
[ "$arch" = i386 ] && qemu=qemu-system-i386

mkdir -p "$work/bare"
cat > "$work/bare/init" <<'EOF'
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
EOF
chmod 755 "$work/bare/init"
(cd "$work/bare" && echo init | busybox cpio -o -H newc 2>/dev/null) > "$work/init.cpio"
cat "$initrd" "$work/init.cpio" > "$work/bare.cpio"

bare_once() {
	set -- -nodefaults -no-user-config -display none -no-reboot \
		-machine pc,accel=tcg -m "$mem" -kernel "$kernel" -initrd "$work/bare.cpio" \
		-append "console=ttyS0,115200 panic=-1 loglevel=4 rdinit=/init" \
		-serial "file:$work/bare.log"
	if [ "$vdisks" -gt 0 ]; then
		set -- "$@" -device virtio-scsi-pci,id=vscsi
		i=0
		while [ $i -lt "$vdisks" ]; do
			truncate -s 64M "$work/vd$i.img"
			set -- "$@" -drive "if=none,id=vd$i,file=$work/vd$i.img,format=raw,cache=unsafe" \
				-device "scsi-hd,drive=vd$i,bus=vscsi.0,scsi-id=$i,lun=0"
			i=$((i + 1))
		done
	fi
	t0=$(now)
	timeout 900 "$qemu" "$@"
	t1=$(now)
	grep -q bare-done "$work/bare.log" || { echo "bench: bare run did not finish" >&2; exit 1; }
	echo "$t0 $t1" | awk '{ printf "%.1f\n", $2 - $1 }'
}

harness_once() {
	t0=$(now)
	"$bin" run "$scn" $sets --out "$work/h$i" --quiet 2>/dev/null
	t1=$(now)
	jq -r '.timings.inventory_s // 0' "$work/h$i/latest/result.json" >> "$work/inventory.times"
	echo "$t0 $t1" | awk '{ printf "%.1f\n", $2 - $1 }'
}

echo "bench: $scn, $disks disks + $vdisks virtio, $reps repeats each, alternating"
: > "$work/bare.times"
: > "$work/harness.times"
: > "$work/inventory.times"
i=0
while [ $i -lt "$reps" ]; do
	b=$(bare_once)
	h=$(harness_once)
	echo "bench: run $((i + 1)): bare ${b}s  harness ${h}s"
	echo "$b" >> "$work/bare.times"
	echo "$h" >> "$work/harness.times"
	i=$((i + 1))
done
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
mb=$(median "$work/bare.times")
mh=$(median "$work/harness.times")
echo "$mb $mh" | awk '{ printf "bench: median bare %.1f s, harness %.1f s, harness/bare %.2f, difference %.1f s\n", $1, $2, $2 / $1, $2 - $1 }'
mi=$(median "$work/inventory.times")
echo "$mb $mh $mi" | awk '{ printf "bench: of the difference, the disk inventory (sysfs attributes and first block of every disk, guest time) %.1f s, the rest %.1f s; harness/bare without the inventory %.2f\n", $3, $2 - $1 - $3, ($2 - $3) / $1 }'
last=$work/h$((reps - 1))/latest/result.json
jq -r '"bench: last harness run: setup \(.timings.setup_s) s, boot mark at \(.timings.boot_s) s, enumeration \(.timings.enumerate_s) s, total \(.timings.total_s) s"' "$last"
