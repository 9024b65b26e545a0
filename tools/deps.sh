#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Install the Debian packages scaletest needs, by profile, only those
# missing.  Safe to re-run: with everything present it changes nothing.
#
#   sh tools/deps.sh install [PROFILE...]   install what is missing (root, or sudo)
#   sh tools/deps.sh check [PROFILE...]     list what is missing; exit 1 if anything is
#   sh tools/deps.sh list [PROFILE...]      print the profiles' packages, one a line
#
# PROFILE (default: default); every profile includes default:
#   default  make deps: what the default run (make scale-test: the default
#            scenario, Debian's kernels) needs
#   kbuild   make deps-kbuild: scenarios that build kernels from source
#            (kernel = build), and make nightly, whose matrix has some
#   libvirt  make deps-libvirt: the libvirt backend (--connect, backend = libvirt)
#   test     make deps-test: the command-line and end-to-end tests' tools, and
#            kbuild's (they build kernels): what make check needs
#   fuzz     make deps-fuzz: make fuzz (clang, libFuzzer)
#   html     make deps-html: the test that renders report.html (chromium)
#   deb      make deps-deb: the Debian package's build and check (tests/deb.sh)
#   full     all of them: make test and .ci/run
#
# Packages and why:
# default:
#   gcc make pkg-config                     build
#   libarchive-dev                          initramfs: cpio newc writer; decompresses
#                                           .ko.xz/.ko.zst/.ko.gz modules
#   libkmod-dev                             the modules a guest needs (dependencies,
#                                           soft dependencies, aliases), as modprobe
#   libjson-c-dev                           result.json
#   zlib1g-dev libssl-dev                   CRC-32 (channel), SHA-256 (caches)
#   qemu-system-x86                         the VMs (qemu-system-x86_64/-i386)
#   kmod                                    depmod -b for unpacked kernels
#   dpkg-dev                                dpkg-source, to unpack fio's source
#   gcc-multilib libc6-dev-i386             the static 32-bit fio (gcc -m32)
# kbuild:
#   flex bison bc libelf-dev xz-utils git   building kernels from source
#   ccache                                  faster kernel rebuilds
# libvirt:
#   libvirt-dev libxml2-dev                 the libvirt backend: libvirt's C API,
#                                           and libxml2's writer for domain XML
#   libvirt-daemon-system libvirt-clients   libvirtd and virtlogd for the
#                                           libvirt backend and its tests
#                                           (tests/libvirt/daemons.sh), virsh
# test:
#   jq procps                               end-to-end test assertions
#   libxml2-utils                           xmllint: the JUnit XML of hostile
#                                           strings is well-formed (cli.sh)
#   fio                                     the host's dynamic fio, measured
#                                           against the static build
#   mandoc man-db                           the manual pages' check (tests/man.sh:
#                                           mandoc -Tlint, makewhatis, man -l)
#   openssh-server                          a private sshd on 127.0.0.1 for the
#                                           qemu+ssh e2e test (tests/libvirt/sshd.sh)
#   zstd                                    the .ko.zst modules of the unit tests'
#                                           modules tree (tests/fixtures/kmod/mktree.sh)
#   zsh fish                                the zsh and fish completions, run by their
#                                           own shells (tests/completion.sh)
#   busybox-static                          the host's /bin/busybox: the unit tests of the
#                                           ELF reader and fio's closure on a real static
#                                           program (tests/unit/test_fio.c)
# fuzz:
#   clang libclang-rt-14-dev                make fuzz: the libFuzzer targets
#                                           (tests/fuzz/; libFuzzer and the
#                                           sanitizer runtimes)
# html:
#   chromium                                the test that renders report.html
# deb:
#   debhelper lintian                       dpkg-buildpackage -b of debian/ (dh), and
#                                           lintian on the package (tests/deb.sh)
#   debootstrap autopkgtest                 the package built in clean bookworm and trixie
#                                           chroots (tests/deb-chroot.sh); its autopkgtest
#                                           (debian/tests/, tests/deb.sh)
#   libvirt-dev libxml2-dev                 the package's Build-Depends beyond default's
#                                           (it always has the libvirt backend)
# and, with every profile, the i386 architecture (dpkg --add-architecture
# i386), so apt can fetch linux-image-686-pae:i386 and busybox-static:i386
# for the 32-bit guest; and Debian's source packages (deb-src), so that
# apt-get source can fetch fio's source: when `apt-get source --print-uris
# fio` fails and no deb-src entry is configured, the deb entries of
# /etc/apt/sources.list.d/debian.sources (deb822) are copied with "Types:
# deb-src" into /etc/apt/sources.list.d/scaletest-src.sources; on a machine
# with the one-line /etc/apt/sources.list instead, its "deb" lines become
# "deb-src" lines in /etc/apt/sources.list.d/scaletest-src.list.
set -eu

PROFILE_default="gcc make pkg-config libarchive-dev libjson-c-dev zlib1g-dev libssl-dev
libkmod-dev qemu-system-x86 kmod dpkg-dev gcc-multilib libc6-dev-i386"
PROFILE_kbuild="flex bison bc libelf-dev xz-utils git ccache"
PROFILE_libvirt="libvirt-dev libxml2-dev libvirt-daemon-system libvirt-clients"
PROFILE_test="jq procps libxml2-utils fio openssh-server mandoc man-db zstd zsh fish busybox-static"
PROFILE_fuzz="clang libclang-rt-14-dev"
PROFILE_html="chromium"
PROFILE_deb="debhelper lintian libvirt-dev libxml2-dev debootstrap autopkgtest"
PROFILES="default kbuild libvirt test fuzz html deb"

usage() {
	echo "usage: $0 install|check|list [default|kbuild|libvirt|test|fuzz|html|deb|full]..." >&2
	exit 2
}

mode=${1:-install}
[ $# -gt 0 ] && shift
case "$mode" in install|check|list) ;; *) usage ;; esac

# The packages of the profiles asked for (default when none), default's
# always first.
PACKAGES=$PROFILE_default
for p in "$@"; do
	case "$p" in
	full) for q in $PROFILES; do [ "$q" = default ] || PACKAGES="$PACKAGES $(eval echo \"\$PROFILE_$q\")"; done ;;
	default) ;;
	# The tests build kernels (cli.sh, e2e/kernel.sh): test includes kbuild.
	test) PACKAGES="$PACKAGES $PROFILE_kbuild $PROFILE_test" ;;
	kbuild|libvirt|fuzz|html|deb) PACKAGES="$PACKAGES $(eval echo \"\$PROFILE_$p\")" ;;
	*) echo "deps: unknown profile '$p'" >&2; usage ;;
	esac
done
# Once each, in order.
PACKAGES=$(printf '%s\n' $PACKAGES | awk '!seen[$0]++')

if [ "$mode" = list ]; then
	printf '%s\n' $PACKAGES
	exit 0
fi

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

APT=/etc/apt
DEB822=$APT/sources.list.d/debian.sources
ONELINE=$APT/sources.list

# Source packages usable?  (--print-uris downloads nothing.)
src_ok() {
	apt-get source --print-uris -qq fio >/dev/null 2>&1
}
need_src=
src_ok || need_src=1

if [ "$mode" = check ]; then
	[ -n "$missing" ] && echo "missing packages:$missing"
	[ -n "$need_i386" ] && echo "missing: dpkg architecture i386"
	[ -n "$need_src" ] && echo "missing: Debian source packages (deb-src entries for apt-get source fio)"
	[ -z "$missing$need_i386$need_src" ] && echo "all dependencies present"
	[ -z "$missing$need_i386$need_src" ]
	exit
fi

if [ -z "$missing$need_i386$need_src" ]; then
	echo "deps: all present"
	exit 0
fi

SUDO=
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "deps: need root to install:$missing${need_i386:+ (and dpkg --add-architecture i386)}${need_src:+ (and deb-src entries)}" >&2
		exit 3
	fi
fi

# Is any deb-src entry configured at all (used or not)?
have_deb_src() {
	grep -Eqs '^[[:space:]]*deb-src[[:space:]]' "$ONELINE" "$APT"/sources.list.d/*.list ||
		grep -Eiqs '^Types:.*deb-src' "$APT"/sources.list.d/*.sources
}

# deb822: every enabled stanza of type deb, again as deb-src, with all its
# other fields (URIs, Suites, Components, Signed-By, ...) and their
# continuation lines; comments dropped.
deb822_to_src() {
	awk '
	function flush() {
		if (n && isdeb && !hassrc && enabled) {
			if (out)
				print ""
			print "Types: deb-src"
			for (i = 1; i <= n; i++)
				print f[i]
			out = 1
		}
		n = 0; isdeb = 0; hassrc = 0; enabled = 1; keep = 0
	}
	BEGIN { enabled = 1 }
	/^#/ { next }
	/^[ \t]*$/ { flush(); next }
	/^[ \t]/ { if (keep) f[++n] = $0; next }
	{
		name = tolower($0); sub(/:.*/, "", name)
		val = $0; sub(/^[^:]*:/, "", val); val = " " val " "
		keep = 0
		if (name == "types") {
			if (val ~ /[ \t]deb[ \t]/) isdeb = 1
			if (val ~ /[ \t]deb-src[ \t]/) hassrc = 1
			next
		}
		if (name == "enabled") {
			if (tolower(val) ~ /no/) enabled = 0
			next
		}
		keep = 1; f[++n] = $0
	}
	END { flush() }' "$1"
}

# One-line format: "deb [options] URI suite components" -> "deb-src ...".
oneline_to_src() {
	awk '$1 == "deb" { $1 = "deb-src"; print }' "$1"
}

enable_src() {
	if [ -f "$DEB822" ]; then
		dst=$APT/sources.list.d/scaletest-src.sources
		body=$(deb822_to_src "$DEB822")
		from=$DEB822
	elif [ -f "$ONELINE" ]; then
		dst=$APT/sources.list.d/scaletest-src.list
		body=$(oneline_to_src "$ONELINE")
		from=$ONELINE
	else
		echo "deps: neither $DEB822 nor $ONELINE exists: add deb-src entries for Debian by hand" >&2
		exit 3
	fi
	if [ -z "$body" ]; then
		echo "deps: no enabled 'deb' entries in $from to copy as deb-src: add them by hand" >&2
		exit 3
	fi
	echo "deps: enabling Debian's source packages: $dst (from $from)"
	printf '# Written by scaletest tools/deps.sh: deb-src twins of %s,\n# for apt-get source fio.\n%s\n' \
		"$from" "$body" | $SUDO tee "$dst.tmp" >/dev/null
	$SUDO mv "$dst.tmp" "$dst"
}

if [ -n "$need_i386" ]; then
	echo "deps: adding the i386 architecture"
	$SUDO dpkg --add-architecture i386
fi
if [ -n "$need_src" ] && ! have_deb_src; then
	enable_src
fi
# A mirror in the middle of a sync serves an index whose size does not match
# its Release file ("Mirror sync in progress?"): apt then keeps the old index
# or none and exits 100.  Try again a little later; if it still fails, go on
# with the indexes apt has, and let the install below say what is missing.
apt_update() {
	tries=0
	while :; do
		tries=$((tries + 1))
		echo "deps: apt-get update"
		$SUDO apt-get update -q && return 0
		if [ "$tries" -ge 3 ]; then
			echo "deps: apt-get update failed $tries times (see above); going on with the package indexes apt has" >&2
			return 0
		fi
		echo "deps: apt-get update failed; trying again in 15 s" >&2
		sleep 15
	done
}
apt_update
if [ -n "$missing" ]; then
	echo "deps: installing$missing"
	# shellcheck disable=SC2086
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi
if [ -n "$need_src" ] && ! src_ok; then
	echo "deps: apt-get source --print-uris fio still fails after apt-get update:" >&2
	apt-get source --print-uris fio >&2 || true
	exit 3
fi
