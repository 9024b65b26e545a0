#!/bin/sh
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
#   sh tests/deb.sh
# suite: full
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scaletest-deb.XXXXXX")
installed=0
cleanup() {
	[ $installed = 1 ] && dpkg --purge scaletest > /dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
n=0
nfail=0

fail() {
	echo "  FAIL: $*" >&2
	nfail=$((nfail + 1))
}

for t in dpkg-buildpackage dh lintian git; do
	command -v $t > /dev/null 2>&1 || { echo "deb: $t missing: make deps-deb" >&2; exit 3; }
done
[ "$(id -u)" = 0 ] || { echo "deb: dpkg -i needs root" >&2; exit 3; }
if dpkg-query -W -f='${Status}' scaletest 2>/dev/null | grep -q ' installed$'; then
	echo "deb: scaletest is installed on this machine already; not replacing it" >&2
	exit 3
fi
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
arch=$(dpkg --print-architecture)
deb=$tmp/scaletest_${version}_$arch.deb

# 1: build, from a copy of what git tracks or would (untracked files that
# are not ignored: work in progress builds as it is).
mkdir "$tmp/scaletest"
git -C "$top" ls-files -z --cached --others --exclude-standard |
	(cd "$top" && tar --null -T - -cf -) | tar -xf - -C "$tmp/scaletest"
n=$((n + 1))
if ! (cd "$tmp/scaletest" && dpkg-buildpackage -b -us -uc) > "$tmp/build.log" 2>&1; then
	fail "dpkg-buildpackage -b -us -uc failed"
	tail -n 30 "$tmp/build.log" | sed 's/^/    /' >&2
	exit 1
fi
n=$((n + 1))
[ -s "$deb" ] || { fail "no $(basename "$deb")"; exit 1; }
n=$((n + 1))
sed -n '/override_dh_auto_install/,$p' "$tmp/build.log" | grep -q '^cc ' &&
	fail "dh_auto_install (make install) compiled again: the build's and the install's make arguments differ"

# 2: lintian, binary and source.  The source package is made from a fresh
# copy (the build left its files in the first).
mkdir "$tmp/src"
git -C "$top" ls-files -z --cached --others --exclude-standard |
	(cd "$top" && tar --null -T - -cf -) | tar -xf - -C "$tmp/src" --transform 's|^|scaletest/|'
(cd "$tmp/src" && dpkg-source -b scaletest) > "$tmp/source.log" 2>&1 || fail "dpkg-source -b failed"
for what in "$tmp"/scaletest_*.changes "$tmp"/src/scaletest_*.dsc; do
	n=$((n + 1))
	lintian --pedantic --fail-on error,warning "$what" > "$tmp/lintian" 2>&1
	rc=$?
	if [ $rc != 0 ]; then
		fail "lintian $(basename "$what"): exit $rc"
		sed 's/^/    /' "$tmp/lintian" >&2
	fi
	# Errors and warnings, overridden or not, are each to have a reason:
	# those not overridden fail above.
	grep -E '^[EW]: ' "$tmp/lintian" >&2
done

# 3: what the package says and holds.
dpkg-deb -f "$deb" Depends > "$tmp/depends"
for d in qemu-system-x86 kmod dpkg-dev gcc-multilib libc6-dev-i386 libjson-c5 libarchive13; do
	n=$((n + 1))
	grep -q "\(^\|, \)$d\( \|,\|$\)" "$tmp/depends" || fail "Depends lacks $d: $(cat "$tmp/depends")"
done
dpkg-deb -c "$deb" | awk '{ print $6 }' > "$tmp/contents"
for f in ./usr/bin/scaletest ./usr/share/scaletest/initramfs/init ./usr/share/scaletest/initramfs/lib.sh \
	 ./usr/share/scaletest/kernel-configs/base.config ./usr/share/scaletest/scenarios/smoke \
	 ./usr/share/man/man1/scaletest.1.gz ./usr/share/man/man1/scaletest-run.1.gz \
	 ./usr/share/man/man5/scaletest-scenario.5.gz ./usr/share/bash-completion/completions/scaletest \
	 ./usr/share/doc/scaletest/copyright; do
	n=$((n + 1))
	grep -qx "$f" "$tmp/contents" || fail "the package lacks $f"
done

# 4: install, use, purge.
n=$((n + 1))
if dpkg -i "$deb" > "$tmp/install.log" 2>&1; then
	installed=1
else
	installed=1	# half-installed: still purged on the way out
	fail "dpkg -i $(basename "$deb") failed"
	sed 's/^/    /' "$tmp/install.log" >&2
fi
n=$((n + 1))
got=$(/usr/bin/scaletest --version 2>&1)
[ "$got" = "scaletest $version" ] || fail "scaletest --version says '$got', want 'scaletest $version'"
mkdir "$tmp/elsewhere"
n=$((n + 1))
(cd "$tmp/elsewhere" && SCALETEST_CACHE="$tmp/cache" /usr/bin/scaletest run /usr/share/scaletest/scenarios/smoke --dry-run) \
	> "$tmp/dry" 2>&1 && grep -qF /usr/share/scaletest/initramfs/init "$tmp/dry" ||
	{ fail "the packaged dry run does not name /usr/share/scaletest/initramfs/init"; tail -n 5 "$tmp/dry" >&2; }
n=$((n + 1))
[ "$(man -w scaletest-run 2>/dev/null)" = /usr/share/man/man1/scaletest-run.1.gz ] ||
	fail "man -w scaletest-run does not find the packaged page"
n=$((n + 1))
MANPAGER=cat PAGER=cat MANWIDTH=80 script -qec "/usr/bin/scaletest help run" /dev/null < /dev/null |
	tr -d '\r' > "$tmp/help"
grep -q '^SCALETEST-RUN(1)' "$tmp/help" || fail "scaletest help run on a terminal does not show the packaged (gzip'd) page"
n=$((n + 1))
dpkg --purge scaletest > "$tmp/purge.log" 2>&1 || { fail "dpkg --purge failed"; sed 's/^/    /' "$tmp/purge.log" >&2; }
installed=0
n=$((n + 1))
! dpkg-query -W -f='${Status}' scaletest 2>/dev/null | grep -q ' installed$' || fail "still installed after --purge"
n=$((n + 1))
[ ! -e /usr/bin/scaletest ] && [ ! -e /usr/share/scaletest ] || fail "files left after --purge"

echo "deb: $((n - nfail)) passed, $nfail failed" >&2
[ $nfail = 0 ]
