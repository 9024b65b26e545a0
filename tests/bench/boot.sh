#!/bin/sh
# Boot time under TCG: Debian's prebuilt kernel against the same version
# built from source with kernel-configs/ (kernel=build), side by side,
# alternating.  Reports the guest's uptime when /init ran its first phase
# and the host time from QEMU's start to that point.  Asserts nothing.
#
#   sh tests/bench/boot.sh [REPEATS] [ARCH]
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/bin/scaletest
reps=${1:-3}
arch=${2:-x86_64}
work=$(mktemp -d "${TMPDIR:-/tmp}/scaletest-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

one() { # kernel
	"$bin" run "$top/scenarios/smoke" --set arch="$arch" --set kernel="$1" \
		--set disks=1 --set virtio_disks=0 --set fio=0 --set monitor_interval_ms=0 \
		--out "$work/$1" --quiet 2>/dev/null
	r=$(ls -t "$work/$1"/*/result.json | head -n 1)
	jq -r '"\(.phases[0].uptime_s) \(.timings.boot_s) \(.kernel.version)"' "$r"
}

echo "bench: boot to /init, $arch, Debian's kernel vs built from source, $reps repeats each"
one build > /dev/null	# build (or find in the cache) first
i=0
while [ $i -lt "$reps" ]; do
	for k in debian build; do
		set -- $(one $k)
		echo "$k $1 $2" >> "$work/times"
		echo "bench: $k ($3): guest uptime at /init's first phase $1 s, host $2 s"
	done
	i=$((i + 1))
done
awk '{ n[$1]++; up[$1] += $2; host[$1] += $3 }
     END { for (k in n) printf "bench: %s: mean guest %.2f s, mean host %.2f s\n", k, up[k] / n[k], host[k] / n[k] }' "$work/times"
