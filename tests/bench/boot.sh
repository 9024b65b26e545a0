#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Boot time under TCG: Debian's prebuilt kernel against the same version
# built from source with kernel-configs/ (kernel=build), side by side,
# alternating.  Reports the guest's uptime when /init ran its first phase
# and the host time from QEMU's start to that point, and writes them to
# results/bench/<stamp>-boot.json.  Asserts nothing about time.
#
#   sh tests/bench/boot.sh [REPEATS] [ARCH]
set -eu

. "$(dirname "$0")/lib.sh"
reps=${1:-3}
arch=${2:-x86_64}
bench_init boot "$reps" "$reps" "$arch"
sets="--set arch=$arch --set disks=1 --set virtio_disks=0 --set fio=0 --set monitor_interval_ms=0"

for k in debian build; do
	bench_side $k "bin/scaletest run scenarios/smoke $sets --set kernel=$k"
done
bench_metric uptime_s s "$reps" "debian build" build/debian "guest uptime at /init's first phase"
bench_metric boot_s s "$reps" "debian build" build/debian "host time from QEMU's start to that phase"

one() { # KERNEL
	out=$work/$1-$i
	bench_run "$out" "$top/scenarios/smoke" $sets --set kernel="$1"
	jq -r '"\(.phases[0].uptime_s) \(.timings.boot_s) \(.kernel.version)"' "$out/latest/result.json"
}

echo "bench: boot to /init, $arch, Debian's kernel vs built from source, $reps repeats each"
i=warm
one build > /dev/null	# build (or find in the cache) first
i=0
while [ $i -lt "$reps" ]; do
	for k in debian build; do
		r=$(one $k)
		set -- $r
		echo "bench: $k ($3): guest uptime at /init's first phase $1 s, host $2 s"
		bench_value uptime_s $k "$1"
		bench_value boot_s $k "$2"
	done
	i=$((i + 1))
done
bench_finish
