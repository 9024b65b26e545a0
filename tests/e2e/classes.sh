#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# End-to-end tests of the disk classes beyond scsi_debug (docs/disk-classes.md):
# real QEMU boots of scenarios/smoke's 40 devices as null_blk devices and
# as nvme_loop namespaces (over nvme-loop on Debian's 6.12, over nvme-tcp
# on 6.1), QEMU NVMe disks after the range, and the faults in the middle
# of a class (a connect that fails, a namespace that does not enable, the
# devices removed while I/O runs on them).  A few dozen devices each, so
# that the suite stays short.
#
#   sh tests/e2e/classes.sh [NAME...]     run all tests, or those named
# suite: full
# order: 35
set -u
. "$(dirname "$0")/lib.sh"

k612=--set\ kernel_package=linux-image-6.12-amd64

# The checks every passing class run holds.  BACKING: the block devices
# the guest has besides the class's and the real disks (nvme_loop's
# namespaces are backed by one null_blk device, nullb0).
passed() { # class [backing]
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "disks.class $1" j ".disks.class == \"$1\""
	check "settings say the class" j ".settings.disk_class == \"$1\""
	check "scsi_debug's own keys are not its settings" j '.settings | has("sd_hosts") | not'
	check "present == requested" j '.disks.present == .disks.requested and .disks.requested == 40'
	check "virtio present == requested" j '.disks.virtio_present == .disks.virtio_requested'
	check "every check passed" j '[.checks[] | .pass] | all'
	check "the class's names and dev_t check ran" j "[.checks[] | select(.name == \"$1 names and dev_t follow their sequence\") | .pass] == [true]"
	check "the devices' check says the class" j "[.checks[] | select(.name == \"$1 devices present\" or .name == \"$1 namespaces present\")] | length == 1"
	check "per-device MemFree cost positive" j '.deltas.insmod.per_disk_bytes.MemFree > 0'
	check "memory came back" j '.checks[] | select(.name == "memory returned after rmmod") | .pass'
	check "fio's all job read every device" j '.fio.jobs[] | select(.group == "all") | .read.ios > 0'
	check "no fio job failed" j '[.fio.jobs[] | select(.error != 0)] | length == 0'
	check "inventory: one row per device" j ".inventory.devices == .disks.requested + .disks.virtio_requested + ${2:-0}"
	check "time curve of the making" j '.time_curves.insmod.points | length > 0'
	check "the summary speaks of the class" grep -q "disks: 40 of 40 $1" "$log"
}

test_null_blk() {
	run_smoke null-blk --set disk_class=null_blk
	passed null_blk
	check "nullb0 .. nullb39" j '.disks.first.name == "nullb0" and .disks.last.name == "nullb39"'
	check "its parameters kept" j '.disks.null_blk.nr_devices == 40 and .disks.null_blk.memory_backed == 0'
	check "one major, minor = index" j '(.disks.first.dev | split(":")[1]) == "0" and (.disks.last.dev | split(":")[1]) == "39"'
	check "virtio-scsi disks from sda (no SCSI disk before them)" j '[.disks.virtio[].name] == ["sda", "sdb"]'
	check "fio's sample: the first, middle and last" j '[.fio.jobs[] | select(.group == "sample") | .filename] as $f | ($f | index("/dev/nullb0")) != null and ($f | index("/dev/nullb20")) != null and ($f | index("/dev/nullb39")) != null'
	check "report.md speaks of null_blk devices" grep -q "| first null_blk | nullb0 |" "$dir/report.md"
	check "report.html's per device is by null_blk devices" grep -q "number of null_blk devices" "$dir/report.html"
}

# A sweep makes the devices in null_blk's configfs, step by step, and
# takes them away again before rmmod.
test_null_blk_sweep() {
	run_smoke null-blk-sweep --set disk_class=null_blk --set sweep=0,20,40 --set fio=0
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "three points" j '.sweep.points | length == 3'
	check "MemFree per device fitted, positive" j '.sweep.fit.MemFree.bytes_per_disk > 0'
	check "nullb0 .. nullb39" j '.disks.first.name == "nullb0" and .disks.last.name == "nullb39"'
	check "every check passed" j '[.checks[] | .pass] | all'
}

test_nvme_loop_612() {
	# shellcheck disable=SC2086
	run_smoke nvme-loop-612 $k612 --set disk_class=nvme_loop --set nvme_ns_per_subsys=16 \
		--set virtio_bus=nvme
	passed nvme_loop 1
	check "three subsystems of 16, 16 and 8" j '.disks.nvme_loop.subsystems == 3 and .disks.nvme_loop.transport == "loop"'
	check "nvme0n1 .. nvme2n8" j '.disks.first.name == "nvme0n1" and .disks.last.name == "nvme2n8"'
	check "the QEMU NVMe disks after the range: nvme3n1, nvme3n2" j '[.disks.virtio[].name] == ["nvme3n1", "nvme3n2"]'
	check "their check" j '[.checks[] | select(.name == "virtio disks named and numbered after the range") | .pass] == [true]'
	check "fio verified them" j '([.fio.jobs[] | select(.group == "verify")] | length) == 2'
	check "the target's build timed apart" j '.guest_timings."before-insmod".target_s >= 0'
	check "no path device among the devices" sh -c '! grep -q "nvme[0-9]*c[0-9]*n" "$1"' - "$dir/inventory.txt"
	check "the one device more is the backing nullb0" grep -q "^nullb0 " "$dir/inventory.txt"
}

# 6.1 has no nvme-loop, but nvmet-tcp and nvme-tcp over the loopback.
test_nvme_tcp_61() {
	run_smoke nvme-tcp-61 --set disk_class=nvme_loop --set nvme_transport=tcp
	passed nvme_loop 1
	check "over tcp" j '.disks.nvme_loop.transport == "tcp"'
	check "nvme0n1 .. nvme0n40" j '.disks.first.name == "nvme0n1" and .disks.last.name == "nvme0n40"'
}

failed_with() { # status pattern
	check "exit status 1 (got $rc)" [ "$rc" = 1 ]
	check "status $1" j ".status == \"$1\""
	check "the reason: $2" j ".reason | test(\"$2\")"
	check "no QEMU left running" no_qemu_left "$name"
	check "report.md written" [ -s "$dir/report.md" ]
}

# The connect of the second subsystem fails: the guest's words and the
# kernel's, what the first one made is not lost.
test_fault_nvme_connect() {
	run_smoke fault-nvme-connect --set disk_class=nvme_loop --set nvme_transport=tcp \
		--set nvme_ns_per_subsys=20 --set cmdline=scaletest_fault=nvme-connect:1
	failed_with fail "nvme_loop connect failed: connecting nqn[.]2026-12[.]org[.]scaletest:sub1: .*write error"
	check "before-insmod measured" j '[.phases[] | select(.name == "before-insmod")] | length == 1'
	check "the monitor's samples kept" j '.monitor.samples | length > 0'
}

test_fault_nvme_enable() {
	run_smoke fault-nvme-enable --set disk_class=nvme_loop --set nvme_transport=tcp \
		--set cmdline=scaletest_fault=nvme-enable:0:3
	failed_with fail "nvme_loop: preparing the devices failed: namespace 3 of nqn[.]2026-12[.]org[.]scaletest:sub0 did not enable"
	check "boot measured" j '[.phases[] | select(.name == "boot")] | length == 1'
}

# The devices go while fio reads them: the run ends after the I/O, with
# every phase before it kept.
test_fault_yank() {
	run_smoke fault-yank --set disk_class=nvme_loop --set nvme_transport=tcp \
		--set fio_runtime=10 --set cmdline=scaletest_fault=yank
	failed_with fail "block devices after the I/O: nvme_loop devices went away while it ran"
	check "after-insmod and after-virtio kept" j '[.phases[] | select(.name == "after-insmod" or .name == "after-virtio")] | length == 2'
	check "the per-device figures of insmod kept" j '.deltas.insmod.per_disk_bytes.MemFree > 0'
	check "the console says what the fault did" grep -q "fault: removing the nvme_loop devices while the I/O runs" "$dir/console.log"
}

run_tests "$@"
