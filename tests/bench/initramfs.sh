#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Initramfs compression: which boots faster under TCG?
#
# Side by side, alternating, the smoke scenario with initramfs_compress=none
# and =gzip: the archive size, the guest uptime when /init ran its first
# phase (the kernel unpacks the archive before that), and the host time to
# that point.  Writes the figures to results/bench/<stamp>-initramfs.json.
# A benchmark: it asserts nothing about time.
#
#   sh tests/bench/initramfs.sh [REPEATS] [ARCH]
set -eu

. "$(dirname "$0")/lib.sh"
reps=${1:-3}
arch=${2:-x86_64}
bench_init initramfs "$reps" "$reps" "$arch"
sets="--set arch=$arch --set disks=1 --set virtio_disks=0"

for c in none gzip; do
	bench_side $c "bin/scaletest run scenarios/smoke $sets --set initramfs_compress=$c"
done
bench_metric uptime_s s "$reps" "none gzip" gzip/none "guest uptime at /init's first phase"
bench_metric boot_s s "$reps" "none gzip" gzip/none "host time from QEMU's start to that phase"
bench_metric archive_bytes B "$reps" "none gzip" gzip/none "size of the initramfs"

one() { # COMPRESS
	out=$work/$1-$i
	bench_run "$out" "$top/scenarios/smoke" $sets --set initramfs_compress="$1"
	r=$out/latest/result.json
	echo "$(jq -r '"\(.phases[0].uptime_s) \(.timings.boot_s)"' "$r") $(stat -c %s "$(jq -r .vm.initramfs "$r")")"
}

echo "bench: initramfs compression, $arch, $reps repeats each, alternating"
i=0
while [ $i -lt "$reps" ]; do
	for c in none gzip; do
		r=$(one $c)
		set -- $r
		echo "bench: $c: guest uptime at /init's first phase $1 s, host $2 s, archive $3 bytes"
		bench_value uptime_s $c "$1"
		bench_value boot_s $c "$2"
		bench_value archive_bytes $c "$3"
	done
	i=$((i + 1))
done
bench_finish
