#!/bin/sh
# Runs scaletest run 20261207-134544-x86_64-4000 again: the same scenario, every setting resolved, the same kernel.
#
#   sh reproduce.sh [CLONE]    CLONE: a clone of scaletest (default: .)
#
# harness: scaletest 33e6136-dirty
# kernel: 6.1.0-57-amd64 (Debian package linux-image-6.1.0-57-amd64 6.1.192-3)
# QEMU: 7.2.22, accelerator tcg
set -eu
clone=${1:-.}
cd "$clone"
want=33e6136-dirty
have=$(git describe --always --dirty 2>/dev/null || echo unknown)
case $want in
"$have" | "$have"-*) ;;
*) echo "reproduce: the run was made by scaletest $want; $clone is at $have (git checkout ${want%-dirty})" >&2 ;;
esac
qemu_want=7.2.22
qemu_have=$(qemu-system-x86_64 --version 2>/dev/null | sed -n '1s/.*version \([^ ]*\).*/\1/p')
[ "$qemu_have" = "$qemu_want" ] ||
	echo "reproduce: the run saw QEMU $qemu_want, this host has ${qemu_have:-none}" >&2
scn=$(mktemp "${TMPDIR:-/tmp}/reproduce.XXXXXX")
trap 'rm -f "$scn"' EXIT
cat > "$scn" <<'SCALETEST_SCENARIO'
name = x86_64-4000
description = "4000 scsi_debug disks + 4 virtio disks on Debian's amd64 kernel (MemFree)"
arch = x86_64
kernel = debian
kernel_package = linux-image-6.1.0-57-amd64
kernel_image = ""
kernel_modules = ""
kernel_source = debian
kernel_rev = ""
kernel_patches = ""
kernel_config_base = tinyconfig
kernel_fragments = ""
kernel_build_timeout = 3600
build_jobs = 0
memory_mb = 4096
cpus = 1
accel = auto
backend = qemu
disks = 3000
sweep = ""
sweep_floor_mb = 0
sd_hosts = 1
sd_dev_size_mb = 4
sd_fake_rw = 0
virtio_disks = 4
virtio_bus = scsi
channel = auto
virtio_disk_mb = 64
io_mb = 4
rmmod = 1
rmmod_rcu_expedited = 1
rmmod_tolerance_pct = 25
rmmod_tolerance_kb = 8192
sd_max_queue = 0
sd_submit_queues = 0
scheduler = default
nr_requests = 0
fio = 1
fio_runtime = 5
fio_bs_kb = 4
fio_sample_disks = 8
fio_sample_indexes = ""
fio_all = 1
monitor_interval_ms = 1000
monitor_max_cpu_pct = 2
attribution = 0
time_attribution = 0
time_attribution_max_cpu_pct = 5
slab_nomerge = 0
initramfs_compress = none
loglevel = 4
cmdline = ""
guest_output_mb = 1024
disk_cost_kb = 0
timeout_boot = 120
timeout_insmod = 900
timeout_io = 600
timeout_rmmod = 900
SCALETEST_SCENARIO
make >&2
out=${SCALETEST_REPRODUCE_OUT:-results-reproduce}
bin/scaletest run "$scn" --out "$out" || rc=$?
new=$out/latest/result.json
v=$(jq -r .kernel.package_version "$new" 2>/dev/null || echo '?')
[ "$v" = 6.1.192-3 ] || echo "reproduce: the kernel package is now version $v, the run had 6.1.192-3" >&2
echo "MemFree per disk: 358247 B then, $(jq -r '.deltas.insmod.per_disk_bytes.MemFree // "n/a"' "$new" 2>/dev/null) B now"
exit ${rc:-0}
