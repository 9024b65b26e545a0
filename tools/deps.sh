#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Install the Debian packages scaletest needs, by profile, only those
# missing.  Safe to re-run: with everything present it changes nothing.
#
#   sh tools/deps.sh install [PROFILE...] [--scenario FILE]...
#                                           install what is missing (root, or sudo)
#   sh tools/deps.sh check [PROFILE...] [--scenario FILE]...
#                                           list what is missing; exit 1 if anything is
#   sh tools/deps.sh list [PROFILE...]      print the profiles' packages, one a line
#
# Hosts: Debian 12 (bookworm) and Debian 13 (trixie), read from
# /etc/os-release (DEPS_OS_RELEASE names another file, for the tests).  On
# any other system install and check say so, and what scaletest needs,
# and exit 3 having changed nothing; list prints bookworm's names.
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
#   qemu-system-x86                         the VMs (qemu-system-x86_64/-i386):
#                                           QEMU 7.2 on bookworm, 10.0 on trixie
#   debian-archive-keyring                  the keys kernel_suite's own apt checks
#                                           Debian's signatures with
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
#   gpg                                     signs tests/apt.sh's local archive
#   debootstrap                             tests/e2e/trixie.sh: a fresh Debian 13
#                                           to run make scale-test in
# fuzz:
#   clang libclang-rt-14-dev                make fuzz: the libFuzzer targets
#                                           (tests/fuzz/; libFuzzer and the
#                                           sanitizer runtimes); on trixie
#                                           libclang-rt-19-dev (clang 19)
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
# The host's apt is the user's.  Only a scenario that takes Debian's
# packages from this host's apt (one that sets no kernel_suite:
# docs/kernels.md "Kernels from any Debian suite") needs it changed: an
# i386 one the i386 architecture (dpkg --add-architecture i386, for
# linux-image-686-pae:i386 and busybox-static:i386), one that runs fio (the
# default) Debian's source packages (deb-src entries, for apt-get source
# fio: when none is configured, the deb entries of
# /etc/apt/sources.list.d/debian.sources (deb822) are copied with "Types:
# deb-src" into /etc/apt/sources.list.d/scaletest-src.sources; on a machine
# with the one-line /etc/apt/sources.list instead, its "deb" lines become
# "deb-src" lines in /etc/apt/sources.list.d/scaletest-src.list).  The
# scenarios asked for are the --scenario files (make deps passes
# $(SCENARIO), scenarios/seed-i386-4000 by default, which sets
# kernel_suite, as every shipped scenario but smoke does: so a plain make
# deps changes nothing but installed packages); the test and full profiles
# ask for both, for the suites that run smoke on the host's apt.  Before
# it changes /etc/apt it says what and why; DEPS_APT_CHANGES=no leaves
# /etc/apt alone (a run that needs the change then fails, saying what is
# missing).  DEPS_APT_DIR names another /etc/apt (for the tests).
set -eu

PROFILE_default="gcc make pkg-config libarchive-dev libjson-c-dev zlib1g-dev libssl-dev
libkmod-dev qemu-system-x86 kmod dpkg-dev gcc-multilib libc6-dev-i386 debian-archive-keyring"
PROFILE_kbuild="flex bison bc libelf-dev xz-utils git ccache"
PROFILE_libvirt="libvirt-dev libxml2-dev libvirt-daemon-system libvirt-clients"
PROFILE_test="jq procps libxml2-utils fio openssh-server mandoc man-db zstd gpg debootstrap zsh fish busybox-static"
PROFILE_fuzz="clang libclang-rt-14-dev"
PROFILE_html="chromium"
PROFILE_deb="debhelper lintian libvirt-dev libxml2-dev debootstrap autopkgtest"
PROFILES="default kbuild libvirt test fuzz html deb"

usage() {
	echo "usage: $0 install|check|list [default|kbuild|libvirt|test|fuzz|html|deb|full]... [--scenario FILE]..." >&2
	exit 2
}

mode=${1:-install}
[ $# -gt 0 ] && shift
case "$mode" in install|check|list) ;; *) usage ;; esac

# The host: Debian 12 or 13, else nothing is changed.
os_release=${DEPS_OS_RELEASE:-/etc/os-release}
os_field() { # NAME: its value in os-release, unquoted
	[ -r "$os_release" ] || return 0
	sed -n "s/^$1=//p" "$os_release" | head -n 1 | sed 's/^"\(.*\)"$/\1/'
}
os_id=$(os_field ID)
os_version=$(os_field VERSION_ID)
case "$os_id:$os_version" in
debian:12) release=bookworm ;;
debian:13) release=trixie ;;
*) release= ;;
esac
if [ -z "$release" ] && [ "$mode" != list ]; then
	name=$(os_field PRETTY_NAME)
	cat >&2 <<EOT
deps: this host is ${name:-unknown} (ID=${os_id:-?}, VERSION_ID=${os_version:-?} in $os_release),
deps: not Debian 12 (bookworm) or 13 (trixie): tools/deps.sh changes nothing here.
deps: scaletest needs, from your system's own packages: a C compiler (gcc, and
deps: gcc -m32 with a 32-bit libc for the static fio of i386 guests), make,
deps: pkg-config, the development files of libarchive, json-c, zlib, OpenSSL
deps: (libcrypto) and libkmod; QEMU (qemu-system-x86_64 and qemu-system-i386);
deps: depmod (kmod); dpkg-deb and dpkg-source (dpkg); and apt-get and apt-cache
deps: with Debian's archive keyring (debian-archive-keyring) to fetch Debian's
deps: kernels (the shipped scenarios set kernel_suite, so any host with apt
deps: can), or kernel = files with a kernel of your own.  Then run 'make'.
EOT
	exit 3
fi
[ "$release" = trixie ] && PROFILE_fuzz="clang libclang-rt-19-dev"

# The packages of the profiles asked for (default when none), default's
# always first; the scenarios asked for.
PACKAGES=$PROFILE_default
SCENARIOS=
apt_for_tests=
while [ $# -gt 0 ]; do
	p=$1
	shift
	case "$p" in
	--scenario)
		[ $# -gt 0 ] || usage
		SCENARIOS="$SCENARIOS
$1"
		shift
		continue ;;
	--scenario=*)
		SCENARIOS="$SCENARIOS
${p#--scenario=}"
		continue ;;
	full)
		for q in $PROFILES; do [ "$q" = default ] || PACKAGES="$PACKAGES $(eval echo \"\$PROFILE_$q\")"; done
		apt_for_tests=1 ;;
	default) ;;
	# The tests build kernels (cli.sh, e2e/kernel.sh): test includes kbuild.
	test) PACKAGES="$PACKAGES $PROFILE_kbuild $PROFILE_test"; apt_for_tests=1 ;;
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
# What a scenario needs of this host's apt: "i386" and "src" lines (none
# when it sets kernel_suite: scaletest's own apt serves it).
scenario_needs() { # FILE
	awk '
	function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
	/^[ \t]*(#|$)/ || index($0, "=") == 0 { next }
	{
		k = trim(substr($0, 1, index($0, "=") - 1))
		v = substr($0, index($0, "=") + 1)
		if (v !~ /^[ \t]*"/) sub(/#.*/, "", v)
		v = trim(v); gsub(/^"|"$/, "", v)
		val[k] = v
	}
	END {
		if (val["kernel_suite"] != "") exit
		if (val["arch"] == "i386") print "i386"
		if (!("fio" in val) || val["fio"] != "0") print "src"
	}' "$1"
}
want_i386=
want_src=
why_i386=
why_src=
if [ -n "$apt_for_tests" ]; then
	want_i386=1 want_src=1 why_i386="the test profile" why_src="the test profile"
fi
old_ifs=$IFS
IFS='
'
for sc in $SCENARIOS; do
	IFS=$old_ifs
	if [ ! -f "$sc" ]; then
		echo "deps: no scenario file '$sc'" >&2
		exit 2
	fi
	for n in $(scenario_needs "$sc"); do
		case $n in
		i386) want_i386=1 why_i386="${why_i386:+$why_i386, }$sc" ;;
		src) want_src=1 why_src="${why_src:+$why_src, }$sc" ;;
		esac
	done
done
IFS=$old_ifs

need_i386=
if [ -n "$want_i386" ]; then
	dpkg --print-foreign-architectures | grep -qx i386 || need_i386=1
fi

APT=${DEPS_APT_DIR:-/etc/apt}
DEB822=$APT/sources.list.d/debian.sources
ONELINE=$APT/sources.list

# Source packages usable?  (--print-uris downloads nothing.)
src_ok() {
	apt-get source --print-uris -qq fio >/dev/null 2>&1
}
need_src=
if [ -n "$want_src" ]; then
	src_ok || need_src=1
fi
apt_changes=${DEPS_APT_CHANGES:-yes}

if [ "$mode" = check ]; then
	[ -n "$missing" ] && echo "missing packages:$missing"
	[ -n "$need_i386" ] && echo "missing: dpkg architecture i386 (for $why_i386)"
	[ -n "$need_src" ] && echo "missing: Debian source packages (deb-src entries for apt-get source fio, for $why_src)"
	[ -z "$missing$need_i386$need_src" ] && echo "all dependencies present"
	[ -z "$missing$need_i386$need_src" ]
	exit
fi

if [ -n "$need_i386$need_src" ] && [ "$apt_changes" = no ]; then
	[ -n "$need_i386" ] && echo "deps: $why_i386 takes i386 packages from this host's apt (no kernel_suite), which has no i386 architecture; DEPS_APT_CHANGES=no: leaving /etc/apt alone (set kernel_suite, or run 'dpkg --add-architecture i386')" >&2
	[ -n "$need_src" ] && echo "deps: $why_src builds fio from Debian's source through this host's apt (no kernel_suite), which has no deb-src entries; DEPS_APT_CHANGES=no: leaving /etc/apt alone (set kernel_suite, or add deb-src entries)" >&2
	need_i386=
	need_src=
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
	echo "deps: $why_i386 takes i386 packages from this host's apt (it sets no kernel_suite): adding the i386 architecture (dpkg --add-architecture i386; DEPS_APT_CHANGES=no leaves /etc/apt alone)"
	$SUDO dpkg --add-architecture i386
fi
if [ -n "$need_src" ] && ! have_deb_src; then
	echo "deps: $why_src builds fio from Debian's source through this host's apt (it sets no kernel_suite): adding deb-src entries (DEPS_APT_CHANGES=no leaves /etc/apt alone)"
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
