#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# What does the harness add on top of the guest's own work?
#
# Side by side, in one run, alternating:
#   harness: scaletest run SCENARIO --set rmmod=0 --set fio=0
#            --set monitor_interval_ms=0 (warm caches): the foundation's
#            phases, with the dd pattern check as its I/O
#   bare:    the same kernel, modules, disks and QEMU, with a bare /init
#            that does the same guest work and nothing else: loads the
#            modules, waits for the disks, runs the harness's own disk
#            inventory and dd pattern check (initramfs/lib/'s functions, their
#            records dropped) and reboots: no channel, no snapshots, no
#            block lists sent, no reports.
# What is left between the two is the harness's own cost, against "a bare
# boot that does the same guest work".  Each side's wall time and CPU time
# (user + system of every process of the run: QEMU, and on the harness
# side the harness too, from the shell's "times"); CPU time is the
# steadier of the two on a shared machine, since waiting for a core does
# not count.
# The bare initramfs is the harness's own archive with a second one
# appended that replaces /init (the kernel unpacks both in order), written
# by build/bench/mkcpio with the harness's cpio writer.
#
#   sh tests/bench/overhead.sh [SCENARIO] [REPEATS]
#
# Prints each wall and CPU time, the medians and the ratios; writes them to
# results/bench/<stamp>-overhead.json.  A benchmark, not a test: it
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
/bin/busybox mount -t tmpfs t /tmp
/bin/busybox --install -s
# Where the time goes: the guest's uptime at each stage, on the console.
mark() { echo "bare-mark $1 $(cut -d" " -f1 /proc/uptime)"; }
mark init
ulimit -n 65536 2>/dev/null || ulimit -n 4096
for _lib in channel clock blocks wait sweep inventory io monitor phase faults attribution; do . /lib/scaletest/$_lib.sh; done
. /etc/scaletest.conf
# The harness's framing, gone: no channel, no records.
emit() { :; }
emit_kv() { cat > /dev/null; }
# modules.channel first when the harness chose virtio-serial: it holds
# virtio_pci, which the virtio disks need too.
for l in /etc/modules.channel /etc/modules.base - /etc/modules.disk; do
	[ "$l" = - ] && { mark insmod; continue; }
	[ -f $l ] || continue
	while read -r m a; do [ -n "$m" ] && insmod "${m#\?}" $a; done < $l
done
want=$DISKS
while set -- /sys/block/*; [ $# -lt "$want" ]; do usleep 100000; done
ls /sys/block > /tmp/.sd
mark sd
while read -r m a; do [ -n "$m" ] && insmod "${m#\?}" $a; done < /etc/modules.virtio
want=$((DISKS + VIRTIO_DISKS))
while set -- /sys/block/*; [ $# -lt "$want" ]; do usleep 100000; done
mark virtio
# The same guest work as the harness's: the inventory (which reads every
# disk's dev_t itself here, where the harness's block lists read them
# first) and the dd pattern check on the virtio disks.
new_block_names /tmp/.sd > /tmp/virtio-disks
inventory > /dev/null
mark inventory
io_verify || echo bare-io-failed
mark io
echo bare-done
reboot -f
INIT
chmod 755 "$work/init"
"$mkcpio" "$work/init.cpio" init="$work/init"
cat "$initrd" "$work/init.cpio" > "$work/bare.cpio"

bench_side bare "$qemu -machine pc,accel=$accel -m $mem with the harness's kernel and initramfs, $vdisks virtio-scsi disks, and a bare /init appended (loads the modules, waits for the disks, runs the harness's inventory and dd check with their records dropped, reboots)"
bench_side harness "bin/scaletest run $(bench_quote "$scn") $sets"
bench_metric wall_s s "$reps" "bare harness" harness/bare "wall time of one run"
bench_metric cpu_s s "$reps" "bare harness" harness/bare "CPU time of one run (user + system, every process)"
bench_metric inventory_s s "$reps" harness - "the disk inventory in the harness run (guest time)"
# Where the difference accrues: the guest's uptime at the end of each
# stage (bare: its marks; harness: the snapshot after it), the QEMU
# process's lifetime, and the harness's host-side time around it.
bench_metric up_init_s s "$reps" "bare harness" harness/bare "guest uptime when /init starts"
bench_metric enum_s s "$reps" "bare harness" harness/bare "the scsi_debug disks made: insmod until all are there (bare: its marks; harness: enumerate_s)"
bench_metric up_sd_s s "$reps" "bare harness" harness/bare "guest uptime when the scsi_debug disks are all there (harness: after-insmod)"
bench_metric up_inventory_s s "$reps" "bare harness" harness/bare "guest uptime after the virtio disks and the inventory (harness: after-virtio)"
bench_metric up_io_s s "$reps" "bare harness" harness/bare "guest uptime after the dd check (harness: after-io)"
bench_metric vm_s s "$reps" "bare harness" harness/bare "the VM's lifetime (bare: the whole run)"
bench_metric host_s s "$reps" harness - "the harness's own time outside the VM (set-up, reports)"

# The children's line of "times" (the second, "XmY.YYs XmY.YYs": user and
# system) as seconds.
cpu_of() {
	sed -n 2p "$1" | tr 'ms' '  ' | awk '{ printf "%.1f\n", $1 * 60 + $2 + $3 * 60 + $4 }'
}

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
	(timeout 900 "$qemu" "$@" || true; times > "$work/times")
	t1=$(bench_now)
	grep -q bare-done "$work/bare.log" ||
		{ tail -n 10 "$work/bare.log" >&2; bench_die "the bare run did not finish"; }
	! grep -q bare-io-failed "$work/bare.log" || bench_die "the bare run's dd check failed"
	echo "$t0 $t1 $(cpu_of "$work/times")" | awk '{ printf "%.1f %s\n", $2 - $1, $3 }'
}

# The stage marks of the last bare run and of harness run RESULT.
marks() { # BARE_LOG RESULT BARE_WALL
	for m in init sd inventory io; do
		v=$(tr -d "\r" < "$1" | awk -v m="$m" '$1 == "bare-mark" && $2 == m { print $3; exit }')
		bench_value up_${m}_s bare "$v"
	done
	jq -r '[.phases[] | {(.name): .uptime_s}] | add | .boot, ."after-insmod", ."after-virtio", ."after-io"' "$2" |
		{ for m in init sd inventory io; do read -r v; bench_value up_${m}_s harness "$v"; done; }
	v=$(tr -d "\r" < "$1" | awk '$1 == "bare-mark" && $2 == "insmod" { i = $3 } $1 == "bare-mark" && $2 == "sd" { printf "%.2f\n", $3 - i; exit }')
	bench_value enum_s bare "$v"
	bench_value enum_s harness "$(jq -r .timings.enumerate_s "$2")"
	bench_value vm_s bare "$3"
	bench_value vm_s harness "$(jq -r .timings.vm_s "$2")"
	bench_value host_s harness "$(jq -r '.timings.total_s - .timings.vm_s | . * 100 | round / 100' "$2")"
}

harness_once() { # N
	t0=$(bench_now)
	(harness_run "$work/h$1"; times > "$work/times")
	t1=$(bench_now)
	echo "$t0 $t1 $(cpu_of "$work/times")" | awk '{ printf "%.1f %s\n", $2 - $1, $3 }'
}

echo "bench: $(bench_quote "$scn"), $disks disks + $vdisks virtio, $reps repeats each, alternating"
i=0
while [ $i -lt "$reps" ]; do
	set -- $(bare_once)
	bw=$1 bc=$2
	set -- $(harness_once $i)
	hw=$1 hc=$2
	inv=$(jq -r '.timings.inventory_s // 0' "$work/h$i/latest/result.json")
	marks "$work/bare.log" "$work/h$i/latest/result.json" "$bw"
	echo "bench: run $((i + 1)): bare ${bw} s wall, ${bc} s CPU; harness ${hw} s wall, ${hc} s CPU (its inventory ${inv} s)"
	bench_value wall_s bare "$bw"
	bench_value wall_s harness "$hw"
	bench_value cpu_s bare "$bc"
	bench_value cpu_s harness "$hc"
	bench_value inventory_s harness "$inv"
	i=$((i + 1))
done
last=$work/h$((reps - 1))/latest/result.json
jq -r '"bench: last harness run: setup \(.timings.setup_s) s, boot mark at \(.timings.boot_s) s, enumeration \(.timings.enumerate_s) s, total \(.timings.total_s) s"' "$last"
bench_finish
