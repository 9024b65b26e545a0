#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Debian package builds where Debian builds: in a fresh minimal
# bookworm and trixie (debootstrap --variant=minbase), with nothing but
# build-essential and the Build-Depends installed (apt-get build-dep of
# the tree's debian/control), as an unprivileged user, as a buildd would
# (no sbuild: chroot, with /proc and /dev/pts mounted as sbuild does):
#
#   1. dpkg-buildpackage -b -us -uc builds scaletest_VERSION_amd64.deb,
#      running dh_auto_test (the quick suites that need no QEMU: debian/
#      rules) with none failed, and no -Werror of the project's (DEVELOPER
#      is for developers; Debian's own -Werror=format-security stays);
#   2. that release's lintian --pedantic reports no error and no warning
#      but those overridden (its tags, all of them, are printed);
#   3. one Build-Depends missing (libkmod-dev purged): dpkg-buildpackage
#      stops at dpkg-checkbuilddeps naming it, before any compiler runs.
#
# Each release's figures (seconds to set up, install the Build-Depends and
# build; the .deb's size) are printed as "# RELEASE: ..." lines.
#
#   sh tests/deb-chroot.sh                 (make test runs it; minutes)
#   sh tests/deb-chroot.sh 'build_*'       some tests (--list names them)
#   DEB_CHROOT_RELEASES=trixie sh tests/deb-chroot.sh
#
# Needs root (chroot, mount), debootstrap and Debian's archive
# ($DEB_CHROOT_MIRROR, default deb.debian.org).  The minimal base system
# of each release is kept in the cache (CACHE/chroot/RELEASE-minbase.tar,
# with its SHA-256 beside it, rebuilt when a week old or when it does not
# match; SCALETEST_CACHE as the harness's cache, which must be this
# user's and no one else's to be used; DEB_CHROOT_CACHE=0: never), and so
# are the Build-Depends' packages apt downloaded (apt checks each against
# the archive's signed lists before it installs it).  The chroots are
# unmounted and removed on the way out, failed or not.
# suite: full
# order: 55
set -u

. "$(dirname "$0")/lib.sh"
need chroot mount umount -- "util-linux, coreutils"
if [ "$(id -u)" != 0 ]; then
	say "$SUITE: chroot and mount need root"
	exit 3
fi
# (Skipped, each test saying so, where debootstrap is not installed.)
PATH=$PATH:/usr/sbin:/sbin
command -v debootstrap > /dev/null 2>&1 || skip_all "no debootstrap (apt-get install debootstrap; make deps-deb)"
releases=${DEB_CHROOT_RELEASES:-bookworm trixie}
mirror=${DEB_CHROOT_MIRROR:-http://deb.debian.org/debian}
arch=$(dpkg --print-architecture)
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
# A reader that stops reading ends the suite through its exit trap too.
trap 'exit 141' PIPE

# The cache: the harness's root, if it is this user's and no one else may
# write it or a folder above it (docs/trust.md); else none.  Its minbase
# tarballs are tests/e2e/trixie.sh's too (tests/minbase.sh).
. "$top/tests/minbase.sh"
cache=
if [ "${DEB_CHROOT_CACHE:-1}" != 0 ]; then
	minbase_cache "${SCALETEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/scaletest}/chroot"
	cache=$minbase_dir
fi

# Every chroot of the suite, unmounted and removed on the way out (only
# when nothing is mounted in it any more: never rm -rf through a mount).
at_exit 'for r in $releases; do teardown "$r"; done'

mounted_under() { # DIR: the mount points under DIR, deepest first
	awk -v d="$1/" 'index($2 "/", d) == 1 { print $2 }' /proc/self/mounts | sort -r
}

teardown() { # RELEASE
	c=$tmp/$1
	[ -d "$c" ] || return 0
	for m in $(mounted_under "$c"); do
		umount "$m" 2>/dev/null || umount -l "$m"
	done
	if [ -n "$(mounted_under "$c")" ]; then
		say "# $SUITE: still mounted under $c, left there: $(mounted_under "$c" | tr '\n' ' ')"
		return 1
	fi
	rm -rf "$c"
}

# in_chroot RELEASE CMD...: CMD as root in the release's chroot.
in_chroot() {
	r=$1
	shift
	chroot "$tmp/$r" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive HOME=/root "$@"
}

# as_builder RELEASE CMD...: CMD as the unprivileged builder, in /build/scaletest.
as_builder() {
	r=$1
	shift
	chroot --userspec=builder:builder "$tmp/$r" env -i \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		LANG=C.UTF-8 HOME=/home/builder sh -c 'cd /build/scaletest && "$@"' sh "$@"
}

now() { date +%s; }

# base RELEASE: the release's minimal system in $tmp/RELEASE.base.tar,
# from the cache when it is there, sealed and at most a week old; else
# debootstrap'd and, where there is a cache, kept there; a failure said.
base() {
	_base "$1" && return 0
	fail "debootstrap $1 failed"
	tail -n 5 "$tmp/$1.debootstrap.log" 2>/dev/null | sed 's/^/    /' >&2
	return 1
}

_base() {
	r=$1 out=$tmp/$1.base.tar
	[ -s "$out" ] && return 0
	minbase "$r" "$out" "$mirror" "$tmp/$r.debootstrap.log" && mv "$out.from" "$tmp/$r.base.from"
}

# ready RELEASE: $tmp/RELEASE, the base system with build-essential and the
# Build-Depends, the source in /build/scaletest owned by the builder.
# Once; 1 and a failure said if it cannot be made.
ready() {
	r=$1 c=$tmp/$1
	[ -e "$tmp/$r.ready" ] && return 0
	if [ -e "$tmp/$r.failed" ]; then
		fail "no $r chroot (above)"
		return 1
	fi
	: > "$tmp/$r.failed"
	checked
	teardown "$r" || return 1
	s=$(now)
	base "$r" || return 1
	mkdir "$c" && tar -C "$c" -xf "$tmp/$r.base.tar" || { fail "cannot unpack the $r base"; return 1; }
	set_up=$(( $(now) - s ))
	cp /etc/resolv.conf "$c/etc/resolv.conf"
	printf '#!/bin/sh\nexit 101\n' > "$c/usr/sbin/policy-rc.d"
	chmod 755 "$c/usr/sbin/policy-rc.d"
	mount -t proc proc "$c/proc" || { fail "cannot mount /proc in the $r chroot"; return 1; }
	mkdir -p "$c/dev/pts"
	mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$c/dev/pts" &&
		rm -f "$c/dev/ptmx" && ln -s pts/ptmx "$c/dev/ptmx" || { fail "cannot mount /dev/pts in the $r chroot"; return 1; }
	tree_copy "$c/build/scaletest"
	in_chroot "$r" useradd -m -d /home/builder builder > /dev/null &&
		in_chroot "$r" chown -R builder:builder /build || { fail "no builder user in the $r chroot"; return 1; }
	if [ -n "$cache" ] && [ -d "$cache/$r-debs" ]; then
		cp "$cache/$r-debs"/*.deb "$c/var/cache/apt/archives/" 2>/dev/null
	fi
	s=$(now)
	if ! in_chroot "$r" sh -c 'apt-get update &&
			apt-get install -y --no-install-recommends build-essential &&
			apt-get build-dep -y --no-install-recommends /build/scaletest' > "$tmp/$r.deps.log" 2>&1; then
		fail "$r: apt-get build-dep failed"
		tail -n 15 "$tmp/$r.deps.log" | sed 's/^/    /' >&2
		return 1
	fi
	deps=$(( $(now) - s ))
	if [ -n "$cache" ]; then
		mkdir -p "$cache/$r-debs" && chmod 700 "$cache/$r-debs"
		# the packages of this week's base only: older ones go with it
		find "$cache/$r-debs" -name '*.deb' ! -newer "$cache/$r-minbase.tar" -delete 2>/dev/null
		cp -n "$c/var/cache/apt/archives"/*.deb "$cache/$r-debs/" 2>/dev/null
	fi
	say "# $r: base system $(cat "$tmp/$r.base.from"), unpacked in ${set_up} s; build-essential and the Build-Depends: $(in_chroot "$r" dpkg-query -f '.\n' -W | wc -l) packages in total, installed in ${deps} s"
	rm -f "$tmp/$r.failed"
	: > "$tmp/$r.ready"
}

# built RELEASE: the package built in the release's chroot (once), its log
# in $tmp/RELEASE.build.log.
built() {
	r=$1 c=$tmp/$1
	deb=$c/build/scaletest_${version}_$arch.deb
	[ -s "$deb" ] && return 0
	if [ -e "$tmp/$r.build.failed" ]; then
		fail "no $r package: its build failed (above)"
		return 1
	fi
	ready "$r" || return 1
	s=$(now)
	if ! as_builder "$r" dpkg-buildpackage -b -us -uc > "$tmp/$r.build.log" 2>&1; then
		: > "$tmp/$r.build.failed"
		fail "$r: dpkg-buildpackage -b -us -uc failed"
		grep -E '^(not ok|  FAIL)' "$tmp/$r.build.log" | head -n 20 | sed 's/^/    /' >&2
		tail -n 20 "$tmp/$r.build.log" | sed 's/^/    /' >&2
		return 1
	fi
	say "# $r: dpkg-buildpackage -b (with dh_auto_test) took $(( $(now) - s )) s;" \
	    "$(basename "$deb") is $(stat -c %s "$deb") bytes, Installed-Size $(dpkg-deb -f "$deb" Installed-Size) KiB"
	[ -s "$deb" ] || { fail "$r: no $(basename "$deb")"; return 1; }
}

# 1: the build, its tests, its flags.
release_build() { # RELEASE
	r=$1
	built "$r" || return
	checked
	# dh_auto_test's run: tests/run.sh's verdict line, none failed.
	grep -E '^=== [0-9]+ suites in .*, 0 failed' "$tmp/$r.build.log" > "$tmp/verdict" ||
		fail "$r: dh_auto_test ran no suite, or one failed"
	say "# $r: dh_auto_test: $(cut -c5- "$tmp/verdict")"
	checked
	if grep -E '^(cc|gcc) .* -Werror( |$)' "$tmp/$r.build.log" > "$tmp/werror"; then
		fail "$r: the package build compiled with -Werror: $(head -1 "$tmp/werror" | cut -c1-120)"
	fi
	check "$r: the build compiled nothing with the strict warnings" grep -qE '^(cc|gcc) .* -Wshadow' "$tmp/$r.build.log"
	n=$(grep -c 'warning:' "$tmp/$r.build.log")
	say "# $r: compiler warnings: $n"
}

# 2: lintian of that release.
release_lintian() { # RELEASE
	r=$1 c=$tmp/$1
	built "$r" || return
	checked
	if ! in_chroot "$r" apt-get install -y --no-install-recommends lintian > "$tmp/$r.lintian-install.log" 2>&1; then
		fail "$r: cannot install lintian"
		tail -n 5 "$tmp/$r.lintian-install.log" | sed 's/^/    /' >&2
		return
	fi
	# Every tag, the overridden ones too (O:, their reasons as N: lines);
	# an error or a warning not overridden (E:, W:) fails.  (--fail-on
	# would count the overridden ones too when they are shown.)
	as_builder "$r" sh -c 'lintian --version; lintian --pedantic --display-info --show-overrides ../scaletest_*.changes' \
		> "$tmp/$r.lintian" 2>&1
	rc=$?
	grep -v '^N: ' "$tmp/$r.lintian" > "$tmp/$r.tags"
	say "# $r: $(head -n 1 "$tmp/$r.tags"): $(sed 1d "$tmp/$r.tags" | wc -l) tags (overridden ones included)"
	sed 1d "$tmp/$r.tags" | sed "s/^/# $r: /" >&2
	checked
	[ $rc = 0 ] || fail "$r: lintian: exit $rc"
	checked
	if grep -qE '^[EW]: ' "$tmp/$r.tags"; then
		fail "$r: lintian reports errors or warnings that are not overridden"
	fi
}

# 3: a Build-Depends missing is named before anything is compiled.
release_missing_build_depends() { # RELEASE
	r=$1
	ready "$r" || return
	if ! in_chroot "$r" dpkg --purge libkmod-dev > "$tmp/$r.purge.log" 2>&1; then
		fail "$r: cannot purge libkmod-dev"
		sed 's/^/    /' "$tmp/$r.purge.log" >&2
		return
	fi
	as_builder "$r" dpkg-buildpackage -b -us -uc > "$tmp/$r.nodep.log" 2>&1
	rc=$?
	checked
	[ $rc != 0 ] || fail "$r: dpkg-buildpackage without libkmod-dev: exit 0"
	check "$r: dpkg-buildpackage without libkmod-dev does not name it" \
		grep -qiE 'unmet build dependencies:.*libkmod-dev' "$tmp/$r.nodep.log"
	checked
	if grep -qE '^(cc|gcc) ' "$tmp/$r.nodep.log"; then
		fail "$r: a compiler ran before the missing libkmod-dev was named"
	fi
	# the release's last test: its chroot goes (a later test makes it again)
	teardown "$r" && rm -f "$tmp/$r.ready" "$tmp/$r.failed" "$tmp/$r.build.failed"
}

for r in $releases; do
	case $r in
	'' | *[!a-z]*) say "$SUITE: '$r' is not a release name"; exit 2 ;;
	esac
	add_test "build_$r" release_build "$r"
	add_test "lintian_$r" release_lintian "$r"
	add_test "missing_build_depends_$r" release_missing_build_depends "$r"
done

run_tests "$@"
