#!/bin/sh
# Initramfs compression: which boots faster under TCG?
#
# Side by side, alternating, the smoke scenario with initramfs_compress=none
# and =gzip: the archive size, the guest uptime when /init ran its first
# phase (the kernel unpacks the archive before that), and the host time to
# that point.  A benchmark: it asserts nothing about time.
#
#   sh tests/bench/initramfs.sh [REPEATS] [ARCH]
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/bin/scaletest
reps=${1:-3}
arch=${2:-x86_64}
work=$(mktemp -d "${TMPDIR:-/tmp}/scaletest-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

one() { # compress
	"$bin" run "$top/scenarios/smoke" --set arch="$arch" --set initramfs_compress="$1" \
		--set disks=1 --set virtio_disks=0 --out "$work/$1" --quiet 2>/dev/null
	r=$(find "$work/$1" -name result.json -newer "$work/stamp" | head -n 1)
	jq -r '"\(.phases[0].uptime_s) \(.timings.boot_s) \(.vm.initramfs)"' "$r"
}

echo "bench: initramfs compression, $arch, $reps repeats each, alternating"
i=0
while [ $i -lt "$reps" ]; do
	for c in none gzip; do
		touch "$work/stamp"
		sleep 1
		set -- $(one $c)
		size=$(stat -c %s "$3")
		echo "$c $1 $2 $size" >> "$work/times"
		echo "bench: $c: guest uptime at /init's first phase $1 s, host $2 s, archive $size bytes"
	done
	i=$((i + 1))
done
awk '{ n[$1]++; up[$1] += $2; host[$1] += $3; size[$1] = $4 }
     END { for (c in n) printf "bench: %s: mean guest %.2f s, mean host %.2f s, %d bytes\n", c, up[c] / n[c], host[c] / n[c], size[c] }' "$work/times"
