#!/bin/sh
# Install the Debian packages scaletest needs, only those missing.
# Safe to re-run: with everything present it changes nothing.
#
#   sh tools/deps.sh install   install what is missing (root, or sudo)
#   sh tools/deps.sh check     list what is missing; exit 1 if anything is
#
# Packages and why:
#   gcc make pkg-config                     build
#   libarchive-dev                          initramfs: cpio newc writer
#   libjson-c-dev                           result.json
#   zlib1g-dev libssl-dev                   CRC-32 (channel), SHA-256 (caches)
#   qemu-system-x86                         the VMs (qemu-system-x86_64/-i386)
#   kmod                                    depmod -b for unpacked kernels
#   jq procps                               end-to-end test assertions
#   flex bison bc libelf-dev xz-utils git   building kernels from source
#   ccache                                  faster kernel rebuilds
# and the i386 architecture (dpkg --add-architecture i386), so apt can fetch
# linux-image-686-pae:i386 and busybox-static:i386 for the 32-bit guest.
set -eu

PACKAGES="gcc make pkg-config libarchive-dev libjson-c-dev zlib1g-dev libssl-dev
qemu-system-x86 kmod jq procps flex bison bc libelf-dev xz-utils git ccache"

mode=${1:-install}

missing=
for p in $PACKAGES; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done
need_i386=
dpkg --print-foreign-architectures | grep -qx i386 || need_i386=1

if [ "$mode" = check ]; then
	[ -n "$missing" ] && echo "missing packages:$missing"
	[ -n "$need_i386" ] && echo "missing: dpkg architecture i386"
	[ -z "$missing$need_i386" ] && echo "all dependencies present"
	[ -z "$missing$need_i386" ]
	exit
fi
[ "$mode" = install ] || { echo "usage: $0 install|check" >&2; exit 2; }

if [ -z "$missing$need_i386" ]; then
	echo "deps: all present"
	exit 0
fi

SUDO=
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "deps: need root to install:$missing${need_i386:+ (and dpkg --add-architecture i386)}" >&2
		exit 3
	fi
fi

if [ -n "$need_i386" ]; then
	echo "deps: adding the i386 architecture"
	$SUDO dpkg --add-architecture i386
fi
echo "deps: apt-get update"
$SUDO apt-get update -q
if [ -n "$missing" ]; then
	echo "deps: installing$missing"
	# shellcheck disable=SC2086
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi
