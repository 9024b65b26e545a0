#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Compressed modules: decompress them on the host, or let the guest do it?
#
# Debian's 6.12 ships its modules as .ko.xz.  The harness decompresses
# them once on the host into the (cached) initramfs; the alternatives are
# to put the .ko.xz files in the initramfs and have the guest decompress
# them: busybox insmod in user space, or the kernel itself
# (finit_module with MODULE_INIT_COMPRESSED_FILE, CONFIG_MODULE_DECOMPRESS:
# build/bench/finit, tests/bench/finit.c, built static here).  Side by
# side, alternating, one boot each: the same kernel and initramfs (the
# harness's, with the .ko.xz files and a bare /init appended), loading
# the modules a run loads (sd_mod, scsi_debug with no host, virtio_scsi,
# their dependencies in modprobe's order) one of the three ways:
#   host     busybox insmod of the decompressed .ko (what the harness does)
#   busybox  busybox insmod of the .ko.xz
#   kernel   build/bench/finit of the .ko.xz
# Measured: the guest's time to load them all (from /proc/uptime), and the
# initramfs bytes each way needs.  A benchmark: it asserts nothing.
#
#   sh tests/bench/modload.sh [REPEATS] [PACKAGE]
set -eu

. "$(dirname "$0")/lib.sh"
reps=${1:-3}
pkg=${2:-linux-image-6.12-amd64}
bench_init modload "$reps" "$reps" "$pkg"
[ -x "$mkcpio" ] || { echo "bench: '$mkcpio' is not built (make build/bench/mkcpio)" >&2; exit 3; }
command -v modprobe > /dev/null || bench_die "modprobe (kmod) is needed"

# One harness run: the kernel, its modules and the initramfs.
bench_run "$work/warm" "$top/scenarios/smoke" --set kernel_package="$pkg" \
	--set disks=1 --set virtio_disks=1 --set fio=0
res=$work/warm/latest/result.json
bench_vm_of "$res"
ver=$(jq -r .kernel.version "$res")
root=$(dirname "$(dirname "$kernel")")
mods=$root/lib/modules/$ver
gcc -static -O2 -o "$work/finit" "$top/tests/bench/finit.c"

# The modules in modprobe's order, once each, as the guest names them.
modprobe -C /dev/null -d "$root" -S "$ver" --show-depends -a sd_mod scsi_debug virtio_scsi |
	awk '$1 == "insmod" && !seen[$2]++ { print $2 }' > "$work/files"
[ -s "$work/files" ] || bench_die "no modules found for $ver"
set -- "init=$work/init" "bin/finit=$work/finit"
: > "$work/list"
xz_bytes=0 ko_bytes=0
while read -r f; do
	rel=${f#"$mods/"}
	case $rel in *.ko.xz) ;; *) bench_die "$rel is not a .ko.xz: the benchmark is for xz modules" ;; esac
	set -- "$@" "xz/$rel=$f"
	echo "$rel" >> "$work/list"
	xz_bytes=$((xz_bytes + $(stat -c %s "$f")))
	ko_bytes=$((ko_bytes + $(xz -dc "$f" | wc -c)))
done < "$work/files"
set -- "$@" "etc/modload.list=$work/list"

cat > "$work/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox mount -t proc p /proc
/bin/busybox --install -s
for w in $(cat /proc/cmdline); do case $w in modload=*) side=${w#modload=} ;; esac; done
ver=$(uname -r)
cs() { read -r u _ < /proc/uptime; echo $(( ${u%.*} * 100 + 1${u#*.} - 100 )); }
t0=$(cs)
while read -r rel; do
	p=
	case $rel in */scsi_debug.ko.xz) p=add_host=0 ;; esac
	case $side in
	host) insmod "/lib/modules/$ver/${rel%.xz}" $p ;;
	busybox) insmod "/xz/$rel" $p ;;
	kernel) /bin/finit "/xz/$rel" $p ;;
	esac || { echo "modload-failed $side $rel"; break; }
done < /etc/modload.list
t1=$(cs)
echo "modload $side $((t1 - t0))"
reboot -f
INIT
chmod 755 "$work/init"
"$mkcpio" "$work/extra.cpio" "$@"
cat "$initrd" "$work/extra.cpio" > "$work/modload.cpio"

bench_side host "busybox insmod of the decompressed .ko files in the harness's initramfs (what the harness does)"
bench_side busybox "busybox insmod of the .ko.xz files (user-space decompression in the guest)"
bench_side kernel "finit_module(MODULE_INIT_COMPRESSED_FILE) of the .ko.xz files (the kernel decompresses)"
bench_metric load_s s "$reps" "host busybox kernel" kernel/host "guest time to load the modules"
bench_metric module_bytes B 1 "host kernel" kernel/host "bytes of the modules in the initramfs"
bench_value module_bytes host "$ko_bytes"
bench_value module_bytes kernel "$xz_bytes"

once() { # SIDE
	: > "$work/log"
	timeout 300 "$qemu" -nodefaults -no-user-config -display none -no-reboot \
		-machine pc,accel="$accel" -m 512 -kernel "$kernel" -initrd "$work/modload.cpio" \
		-append "console=ttyS0,115200 panic=-1 loglevel=4 rdinit=/init modload=$1" \
		-serial "file:$work/log" || true
	! grep -a "modload-failed" "$work/log" >&2 || bench_die "side $1 could not load a module"
	v=$(tr -d '\r' < "$work/log" | awk -v s="$1" '$1 == "modload" && $2 == s { print $3 / 100 }')
	[ -n "$v" ] || { tail -n 5 "$work/log" >&2; bench_die "side $1 said nothing"; }
	echo "$v"
}

echo "bench: module loading, $ver, $(wc -l < "$work/list") modules ($ko_bytes bytes, $xz_bytes as .ko.xz), $reps repeats each, alternating"
i=0
while [ $i -lt "$reps" ]; do
	for side in host busybox kernel; do
		v=$(once $side)
		echo "bench: $side: $v s"
		bench_value load_s $side "$v"
	done
	i=$((i + 1))
done
bench_finish
