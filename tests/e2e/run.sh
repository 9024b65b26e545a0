#!/bin/sh
# End-to-end tests: real QEMU boots (TCG is fine) of scenarios/smoke, with
# assertions on result.json.  Faults are injected into the guest with the
# kernel parameter scaletest_fault=KIND:PHASE (initramfs/lib.sh, fault()).
#
#   sh tests/e2e/run.sh [NAME...]     run all tests, or those named
set -u
. "$(dirname "$0")/lib.sh"

common_failure_checks() { # status word
	check "exit status 1 (got $rc)" [ "$rc" = 1 ]
	check "status $1" j ".status == \"$1\""
	check "no QEMU left running" no_qemu_left "$name"
	check "console.log kept" [ -s "$dir/console.log" ]
	check "not made latest" [ ! -e "$out/$name/latest" ]
	check "report.md written" [ -s "$dir/report.md" ]
}

test_smoke_x86_64() {
	run_smoke smoke-x86_64
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "present == requested" j '.disks.present == .disks.requested and .disks.requested > 0'
	check "virtio present == requested" j '.disks.virtio_present == .disks.virtio_requested'
	check "six phases, each with meminfo and slab" j '[.phases[] | select(.meminfo.MemFree and .slab.total_kb)] | length == 6'
	check "MemFree after insmod < before" j '(.phases[] | select(.name=="after-insmod") | .meminfo.MemFree) < (.phases[] | select(.name=="before-insmod") | .meminfo.MemFree)'
	check "Slab grew at insmod" j '.deltas.insmod.Slab_kb > 0'
	check "no LowFree on amd64" j '.deltas.insmod.LowFree_kb == null and .kernel.highmem == false'
	check "per-disk MemFree cost positive" j '.deltas.insmod.per_disk_bytes.MemFree > 0'
	check "memory came back after rmmod" j '(.phases[] | select(.name=="after-rmmod") | .meminfo.MemFree) > (.phases[] | select(.name=="after-io") | .meminfo.MemFree)'
	check "enumeration timed" j '.timings.enumerate_s >= 0'
	last=$(jq -r '.disks.last.name' "$dir/result.json")
	first_v=$(jq -r '.disks.virtio[0].name' "$dir/result.json")
	n=$(jq -r '.disks.requested' "$dir/result.json")
	check "last scsi_debug disk has index N-1 ($last)" [ "$(sd_index "$last")" = $((n - 1)) ]
	check "virtio disks named after the last ($first_v)" [ "$(sd_index "$first_v")" = "$n" ]
	check "dev_t recorded" j '.disks.last.dev | test("^[0-9]+:[0-9]+$")'
	check "latest points at the run" [ "$(readlink "$out/smoke-x86_64/latest")" = "$(basename "$dir")" ]
	check "summary printed" grep -q "MemFree is the headline" "$log"
	check "no temporary run directory left" [ -z "$(find "$out/smoke-x86_64" -name '.tmp-*')" ]
	cp "$dir/report.md" "$out/report.before"
	rm "$dir/report.md"
	"$bin" report "$dir" > /dev/null
	check "report regenerated from result.json alone" cmp -s "$out/report.before" "$dir/report.md"
}

test_smoke_i386() {
	run_smoke smoke-i386 --set arch=i386
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "present == requested" j '.disks.present == .disks.requested'
	check "HIGHMEM kernel" j '.kernel.highmem == true and .kernel.arch == "i386"'
	check "LowFree present and falls at insmod" j '.deltas.insmod.LowFree_kb < 0'
	check "LowFree after insmod < before" j '(.phases[] | select(.name=="after-insmod") | .meminfo.LowFree) < (.phases[] | select(.name=="before-insmod") | .meminfo.LowFree)'
	check "virtio disks follow scsi_debug" j '.checks[] | select(.name == "virtio disks follow scsi_debug") | .pass'
	check "summary names LowFree the headline" grep -q "LowFree is the headline" "$log"
}

test_virtio_blk() {
	run_smoke virtio-blk --set virtio_bus=blk
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "virtio-blk disks present" j '.disks.virtio_bus == "blk" and .disks.virtio_present == .disks.virtio_requested'
	check "virtio-blk disks are vdX" j '[.disks.virtio[].name | test("^vd[a-z]+$")] | all'
	check "I/O verified on them" j '([.io[] | select(.ok)] | length) == .disks.virtio_requested'
}

test_timeout() {
	run_smoke timeout --set cmdline=scaletest_fault=hang:after-insmod --set timeout_insmod=5
	common_failure_checks timeout
	check "reason names the phase" j '.reason | test("after-insmod")'
}

test_crash() {
	run_smoke crash --set cmdline=scaletest_fault=panic:after-insmod
	common_failure_checks crash
	check "reason is the panic line" j '.reason | test("^Kernel panic")'
}

test_oom() {
	run_smoke oom --set cmdline=scaletest_fault=oom:after-io
	common_failure_checks oom
	check "reason is an OOM line" j '.reason | test("oom|Out of memory")'
}

test_garbled_channel() {
	run_smoke garble --set cmdline=scaletest_fault=garble:after-insmod
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass despite garbage" j '.status == "pass"'
	check "rejections counted" j '.channel.rejected >= 4'
	for what in "checksum mismatch" "stray bytes" "bad header" "bad trailer" "sequence gap"; do
		check "rejected: $what" j ".channel.rejections | any(test(\"$what\"))"
	done
	check "initramfs reused from the cache" grep -q "(cached)" "$log"
}

signal_test() { # name, signal
	name=$1
	log=$out/$name.log
	"$bin" run "$smoke" --out "$out/$name" --set cmdline=scaletest_fault=hang:after-insmod > "$log" 2>&1 &
	pid=$!
	i=0
	while ! grep -q "before-insmod" "$log" 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	sleep 1
	kill -"$2" $pid
	wait $pid
	rc=$?
	dir=$(find "$out/$name" -mindepth 1 -maxdepth 1 -type d -name '2*' | head -n 1)
	[ -n "$dir" ] || dir=$out/$name/none
	check "exit status 130 (got $rc)" [ "$rc" = 130 ]
	check "status interrupted" j '.status == "interrupted"'
	check "no QEMU left running" no_qemu_left "$name"
	check "not made latest" [ ! -e "$out/$name/latest" ]
	check "phases kept" j '.phases | length >= 2'
}

test_sigterm() { signal_test sigterm TERM; }
test_sigint() { signal_test sigint INT; }

e2e_main "smoke_x86_64 smoke_i386 virtio_blk timeout crash oom garbled_channel sigterm sigint" "$@"
