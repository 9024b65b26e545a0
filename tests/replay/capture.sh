#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Capture the replay fixtures from real runs (boots QEMU; a few minutes).
#
#   sh tests/replay/capture.sh [NAME...]     default: all of them
#
# Each case runs bin/scaletest for real and keeps, in
# tests/fixtures/replay/NAME/, what a replay reads (scenario.scn,
# channel.log, console.log, host.json) and the result.json the live run
# wrote.  tests/replay/run.sh then rebuilds result.json from the inputs
# without QEMU and compares it with diff -u.  Large channel logs are kept
# gzipped (the replay reads either).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/bin/scaletest
fixtures=$top/tests/fixtures/replay
smoke=$top/scenarios/smoke
seed=$top/scenarios/seed-i386-4000

# NAME SCENARIO ARGS...: one row per case.
cases() {
	cat <<EOT
smoke-x86_64 $smoke
smoke-i386 $smoke --set arch=i386
smoke-attribution $smoke --set attribution=1
attribution-refused $smoke --set attribution=1 --set cmdline=scaletest_fault=attr-refuse
debug-page-owner $smoke --set kernel=build --set kernel_fragments=debug --set attribution=1 --set timeout_boot=600 --set timeout_insmod=600
seed-i386-4000 $seed
crash $smoke --set cmdline=scaletest_fault=panic:after-insmod
oom $smoke --set cmdline=scaletest_fault=oom:after-io
timeout $smoke --set cmdline=scaletest_fault=hang:after-insmod --set timeout_insmod=5
garble $smoke --set cmdline=scaletest_fault=garble:after-insmod
hung-task $smoke --set cmdline=scaletest_fault=hung:after-virtio --set loglevel=7 --set timeout_insmod=60 --set timeout_io=60
hung-task-finding $smoke --set disks=4000 --set memory_mb=2048 --set fio=0 --set rmmod=0 --set cmdline=sysctl.kernel.hung_task_timeout_secs=1
channel-lost $smoke --set cmdline=scaletest_fault=chanlost:before-insmod --set timeout_insmod=60
qemu-exit $smoke kill-qemu:after-insmod
sweep $smoke --set sweep=0,20,40,20
sweep-612 $smoke --set sweep=0,20,40,20 --set kernel_package=linux-image-6.12-amd64
smoke-612 $smoke --set kernel_package=linux-image-6.12-amd64
sweep-612-zoneinfo $smoke --set sweep=0,20,40,20 --set kernel_package=linux-image-6.12-amd64
sweep-attribution $smoke --set sweep=0,20,40 --set attribution=1
sweep-stall $smoke --set sweep=0,20,40,60 --set cmdline=scaletest_fault=sweep-stall:3 --set timeout_insmod=5
sweep-oom $smoke --set sweep=0,100,200,400,800 --set memory_mb=256 --set disk_cost_kb=1 --set fio=0
smoke-time-attribution $smoke --set time_attribution=1 --set time_attribution_max_cpu_pct=50
time-attribution-unavailable $smoke --set time_attribution=1 --set cmdline=scaletest_fault=ta-nostack
sweep-time-attribution $smoke --set sweep=0,20,40,60,20 --set time_attribution=1 --set time_attribution_max_cpu_pct=50 --set memory_mb=768 --set rmmod_tolerance_pct=100
null-blk $smoke --set disk_class=null_blk
null-blk-sweep $smoke --set disk_class=null_blk --set sweep=0,20,40,20 --set fio=0
nvme-tcp-61 $smoke --set disk_class=nvme_loop --set nvme_transport=tcp
nvme-loop-612 $smoke --set kernel_package=linux-image-6.12-amd64 --set disk_class=nvme_loop --set nvme_ns_per_subsys=16 --set virtio_bus=nvme
nvme-connect-fail $smoke --set disk_class=nvme_loop --set nvme_transport=tcp --set nvme_ns_per_subsys=20 --set cmdline=scaletest_fault=nvme-connect:1
EOT
}

[ -x "$bin" ] || { echo "capture: build first (make)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
cases | while read -r name scenario args; do
	if [ $# -gt 0 ]; then
		want=
		for n in "$@"; do [ "$n" = "$name" ] && want=1; done
		[ -n "$want" ] || continue
	fi
	echo "capture: $name"
	case "$args" in
	kill-qemu:*)
		# QEMU killed from outside once the guest says it reached the
		# phase: the harness must see QEMU end early.
		"$bin" run "$scenario" --quiet --out "$work/$name" > "$work/$name.log" 2>&1 &
		pid=$!
		until grep -qs "phase ${args#kill-qemu:}\$" "$work/$name"/.tmp-*/console.log; do
			kill -0 "$pid" 2>/dev/null || break
			sleep 1
		done
		qemu=$(pgrep -P "$pid" -f qemu-system) && kill -KILL "$qemu"
		wait "$pid" || true ;;
	*)
		# shellcheck disable=SC2086 # args are words from the table above
		"$bin" run "$scenario" --quiet --out "$work/$name" $args > "$work/$name.log" 2>&1 || true ;;
	esac
	run=$(ls -d "$work/$name"/2* | head -n 1)
	rm -rf "${fixtures:?}/$name"
	mkdir -p "$fixtures/$name"
	for f in scenario.scn channel.log console.log host.json result.json; do
		cp "$run/$f" "$fixtures/$name/$f"
	done
	if [ "$(wc -c < "$fixtures/$name/channel.log")" -gt 65536 ]; then
		gzip -9n "$fixtures/$name/channel.log"
	fi
	echo "capture: $name: $(jq -r .status "$run/result.json"), $(du -sk "$fixtures/$name" | cut -f1) kB"
done
