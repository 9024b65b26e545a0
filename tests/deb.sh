#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Debian package (debian/), built and installed as a user of this
# machine would (make test runs it; it needs root for dpkg -i, and the deb
# profile: make deps-deb):
#
#   1. dpkg-buildpackage -b -us -uc builds scaletest_VERSION_amd64.deb, in
#      a copy of the tree (the tree's build/ and debian/ are not touched);
#   2. lintian --pedantic on the binary package (its .changes) and on the
#      source package (dpkg-source -b of the same copy) reports no error
#      and no warning but those overridden, each with its reason, in
#      debian/scaletest.lintian-overrides and debian/source/
#      lintian-overrides;
#   3. the .deb declares the runtime dependencies and holds the binary, the
#      data, the manual pages and the completion;
#   4. dpkg -i installs it; scaletest --version says the changelog's
#      version; a dry run of /usr/share/scaletest/scenarios/smoke from
#      another directory names /usr/share/scaletest/initramfs/init; man
#      finds scaletest-run(1), and scaletest help run shows it on a terminal;
#      then dpkg --purge removes it, and nothing of it is left.  The package
#      is never left installed (a trap purges it), and a machine where
#      scaletest is already installed is refused (exit 3): that installation
#      is not this test's to replace.
#
#   sh tests/deb.sh                (make test runs it)
#   sh tests/deb.sh 'lintian_*'    some tests (--list names them; each
#                                  builds the package if no test did yet)
# suite: full
# order: 20
set -u

. "$(dirname "$0")/lib.sh"
need dpkg-buildpackage dh lintian git -- "make deps-deb"
if [ "$(id -u)" != 0 ]; then
	say "$SUITE: dpkg -i needs root"
	exit 3
fi
if dpkg-query -W -f='${Status}' scaletest 2>/dev/null | grep -q ' installed$'; then
	say "$SUITE: scaletest is installed on this machine already; not replacing it"
	exit 3
fi
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
arch=$(dpkg --print-architecture)
deb=$tmp/scaletest_${version}_$arch.deb
# The package is never left installed: purged on the way out, half-
# installed too.
installed=0
at_exit '[ $installed = 0 ] || dpkg --purge scaletest > /dev/null 2>&1'
# A reader that stops reading (sh tests/deb.sh | head) ends the suite
# through its exit trap too, not by SIGPIPE past it.
trap 'exit 141' PIPE

# built: the binary package, built once by dpkg-buildpackage -b -us -uc
# from a copy of what git tracks or would (untracked files that are not
# ignored: work in progress builds as it is), its log in $tmp/build.log;
# 1 (a failure said once) if it cannot be built.
built() {
	[ -s "$deb" ] && return 0
	if [ -e "$tmp/build.failed" ]; then
		fail "no package: its build failed (above)"
		return 1
	fi
	rm -rf "$tmp/scaletest"
	tree_copy "$tmp/scaletest"
	if ! (cd "$tmp/scaletest" && dpkg-buildpackage -b -us -uc) > "$tmp/build.log" 2>&1; then
		: > "$tmp/build.failed"
		fail "dpkg-buildpackage -b -us -uc failed"
		tail -n 30 "$tmp/build.log" | sed 's/^/    /' >&2
		return 1
	fi
	if [ ! -s "$deb" ]; then
		: > "$tmp/build.failed"
		fail "no $(basename "$deb")"
		return 1
	fi
}

# source_package: the source package, made once by dpkg-source -b of a
# fresh copy (the build leaves its files in its own).
source_package() {
	set -- "$tmp"/src/scaletest_*.dsc
	[ -f "$1" ] && return 0
	rm -rf "$tmp/src"
	tree_copy "$tmp/src/scaletest"
	checked
	(cd "$tmp/src" && dpkg-source -b scaletest) > "$tmp/source.log" 2>&1 || {
		fail "dpkg-source -b failed"
		sed 's/^/    /' "$tmp/source.log" >&2
		return 1
	}
}

# lintian_ok FILE: lintian --pedantic reports no error or warning but
# those overridden.
lintian_ok() {
	checked
	lintian --pedantic --fail-on error,warning "$1" > "$tmp/lintian" 2>&1
	rc=$?
	if [ $rc != 0 ]; then
		fail "lintian $(basename "$1"): exit $rc"
		sed 's/^/    /' "$tmp/lintian" >&2
	fi
	# Errors and warnings, overridden or not, are each to have a reason:
	# those not overridden fail above.
	grep -E '^[EW]: ' "$tmp/lintian" >&2
}

# pkg_installed: the package installed by dpkg -i (once; a failure said).
pkg_installed() {
	[ $installed = 1 ] && return 0
	built || return 1
	installed=1	# half-installed too: purged on the way out
	if ! dpkg -i "$deb" > "$tmp/install.log" 2>&1; then
		fail "dpkg -i $(basename "$deb") failed"
		sed 's/^/    /' "$tmp/install.log" >&2
		return 1
	fi
}

# 1: the build.
test_build() {
	checked
	built || return
	check "no $(basename "$deb")" [ -s "$deb" ]
	checked
	if sed -n '/override_dh_auto_install/,$p' "$tmp/build.log" | grep -q '^cc '; then
		fail "dh_auto_install (make install) compiled again: the build's and the install's make arguments differ"
	fi
}

# 2: lintian, binary and source.
test_lintian_binary() {
	built || return
	for what in "$tmp"/scaletest_*.changes; do
		lintian_ok "$what"
	done
}

test_lintian_source() {
	source_package || return
	for what in "$tmp"/src/scaletest_*.dsc; do
		lintian_ok "$what"
	done
}

# 3: what the package says and holds.
test_depends() {
	built || return
	dpkg-deb -f "$deb" Depends > "$tmp/depends"
	for d in qemu-system-x86 kmod dpkg-dev gcc-multilib libc6-dev-i386 libjson-c5 libarchive13; do
		check "Depends lacks $d: $(cat "$tmp/depends")" grep -q "\(^\|, \)$d\( \|,\|$\)" "$tmp/depends"
	done
}

test_contents() {
	built || return
	dpkg-deb -c "$deb" | awk '{ print $6 }' > "$tmp/contents"
	for f in ./usr/bin/scaletest ./usr/share/scaletest/initramfs/init ./usr/share/scaletest/initramfs/lib/channel.sh \
		 ./usr/share/scaletest/kernel-configs/base.config ./usr/share/scaletest/scenarios/smoke \
		 ./usr/share/man/man1/scaletest.1.gz ./usr/share/man/man1/scaletest-run.1.gz \
		 ./usr/share/man/man5/scaletest-scenario.5.gz ./usr/share/bash-completion/completions/scaletest \
		 ./usr/share/doc/scaletest/copyright; do
		check "the package lacks $f" grep -qx "$f" "$tmp/contents"
	done
}

# 4: install, use, purge.
test_installs_and_runs() {
	checked
	pkg_installed || return
	got=$(/usr/bin/scaletest --version 2>&1)
	check "scaletest --version says '$got', want 'scaletest $version'" [ "$got" = "scaletest $version" ]
	rm -rf "$tmp/elsewhere"
	mkdir "$tmp/elsewhere"
	checked
	(cd "$tmp/elsewhere" && SCALETEST_CACHE="$tmp/cache" /usr/bin/scaletest run /usr/share/scaletest/scenarios/smoke --dry-run) \
		> "$tmp/dry" 2>&1 && grep -qF /usr/share/scaletest/initramfs/init "$tmp/dry" ||
		{ fail "the packaged dry run does not name /usr/share/scaletest/initramfs/init"; tail -n 5 "$tmp/dry" >&2; }
	check "man -w scaletest-run does not find the packaged page" \
		[ "$(man -w scaletest-run 2>/dev/null)" = /usr/share/man/man1/scaletest-run.1.gz ]
	MANPAGER=cat PAGER=cat MANWIDTH=80 script -qec "/usr/bin/scaletest help run" /dev/null < /dev/null |
		tr -d '\r' > "$tmp/help"
	check "scaletest help run on a terminal does not show the packaged (gzip'd) page" \
		grep -q '^SCALETEST-RUN(1)' "$tmp/help"
}

test_purge_leaves_nothing() {
	pkg_installed || return
	checked
	if dpkg --purge scaletest > "$tmp/purge.log" 2>&1; then
		installed=0
	else
		fail "dpkg --purge failed"
		sed 's/^/    /' "$tmp/purge.log" >&2
	fi
	checked
	! dpkg-query -W -f='${Status}' scaletest 2>/dev/null | grep -q ' installed$' || fail "still installed after --purge"
	checked
	[ ! -e /usr/bin/scaletest ] && [ ! -e /usr/share/scaletest ] || fail "files left after --purge"
}

run_tests "$@"
