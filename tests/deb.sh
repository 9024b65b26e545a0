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
#      data and result.schema.json, the manual pages, the docs under
#      /usr/share/doc/scaletest and the bash, zsh and fish completions;
#   4. the Build-Depends are complete: every library the Makefile asks
#      pkg-config for comes from a package named there, and
#      dpkg-checkbuilddeps on a system without that one package names it
#      (tests/deb-chroot.sh builds in fresh chroots with nothing else);
#      the build runs dh_auto_test (none failed), without -Werror;
#   5. autopkgtest (debian/tests/) passes with the null runner, on this
#      machine: the installed binary on replay fixtures and a dry run;
#   6. dpkg -i installs it; scaletest --version says the changelog's
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
need dpkg-buildpackage dh lintian git pkg-config -- "make deps-deb"
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
		 ./usr/share/scaletest/result.schema.json \
		 ./usr/share/man/man1/scaletest.1.gz ./usr/share/man/man1/scaletest-run.1.gz \
		 ./usr/share/man/man5/scaletest-scenario.5.gz ./usr/share/bash-completion/completions/scaletest \
		 ./usr/share/zsh/vendor-completions/_scaletest ./usr/share/fish/vendor_completions.d/scaletest.fish \
		 ./usr/share/doc/scaletest/copyright; do
		check "the package lacks $f" grep -qx "$f" "$tmp/contents"
	done
	# the docs, compressed or not as dh_compress decided
	for p in "$top/README.md" "$top"/docs/*.md; do
		f=./usr/share/doc/scaletest/${p#"$top"/}
		[ "$p" = "$top/README.md" ] && f=./usr/share/doc/scaletest/README.md
		check "the package lacks $f" grep -qx -e "$f" -e "$f.gz" "$tmp/contents"
	done
	checked
	dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/scaletest/result.schema.json 2>/dev/null |
		cmp -s - "$top/docs/result.schema.json" || fail "the packaged result.schema.json is not docs/result.schema.json"
}

# 4: the Build-Depends.
# The libraries the Makefile asks pkg-config for (PKGS, LIBVIRT_PKGS).
makefile_pkgs() {
	printf 'print-pkgs:\n\t@echo $(PKGS) $(LIBVIRT_PKGS)\n' > "$tmp/print.mk"
	make -s --no-print-directory -C "$top" -f Makefile -f "$tmp/print.mk" print-pkgs
}

build_depends() { # the package names of debian/control's Build-Depends
	sed -n '/^Build-Depends:/,/^[A-Z]/p' "$top/debian/control" | sed 's/^Build-Depends://' |
		tr ',' '\n' | sed 's/^[[:space:]]*//; s/[[:space:](<].*//' | grep -v '^[A-Z]' | sed '/^$/d'
}

test_build_depends_complete() {
	build_depends > "$tmp/bd"
	check "no Build-Depends read from debian/control" test -s "$tmp/bd"
	mods=$(makefile_pkgs)
	check "the Makefile names no pkg-config module" test -n "$mods"
	for m in $mods; do
		pc=$(pkg-config --variable=pcfiledir "$m" 2>/dev/null)/$m.pc
		if [ ! -f "$pc" ]; then
			fail "pkg-config finds no $m here (make deps-deb)"
			continue
		fi
		owner=$(dpkg-query -S "$pc" 2>/dev/null | head -n 1 | cut -d: -f1)
		check "$m: no package owns $pc" test -n "$owner"
		check "$m ($pc) comes from $owner, which Build-Depends does not name" grep -qx "$owner" "$tmp/bd"
	done
}

# A system without one of them: a copy of dpkg's status without that
# package's stanza (nor those of the packages that provide it);
# dpkg-checkbuilddeps must name it.
test_checkbuilddeps_names_each_missing() {
	for p in $(build_depends); do
		case $p in debhelper-compat) continue ;; esac
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q ' installed$'; then
			fail "$p (Build-Depends) is not installed here (make deps-deb)"
			continue
		fi
		rm -rf "$tmp/admin"
		mkdir -p "$tmp/admin/updates" "$tmp/admin/info"
		# without it and whatever Provides it (pkgconf provides pkg-config)
		awk -v p="$p" 'BEGIN { RS = ""; ORS = "\n\n" }
			!($0 ~ "(^|\n)Package: " p "\n" || $0 ~ "\nProvides:([^\n]*[ ,])? *" p "( |,|\n|$)") { print }' \
			/var/lib/dpkg/status > "$tmp/admin/status"
		cp /var/lib/dpkg/arch "$tmp/admin/arch" 2>/dev/null
		(cd "$top" && dpkg-checkbuilddeps --admindir="$tmp/admin") > "$tmp/cbd" 2>&1
		rc=$?
		checked
		[ $rc != 0 ] || fail "dpkg-checkbuilddeps passes without $p"
		check "dpkg-checkbuilddeps without $p does not name it: $(cat "$tmp/cbd")" \
			grep -qiE "unmet build dependencies:.* $p( |\(|$)" "$tmp/cbd"
	done
}

test_build_runs_tests_without_werror() {
	built || return
	checked
	grep -E '^=== [0-9]+ suites in .*, 0 failed' "$tmp/build.log" > /dev/null ||
		fail "dh_auto_test ran no suite, or one failed"
	checked
	if grep -E '^(cc|gcc) .* -Werror( |$)' "$tmp/build.log" > "$tmp/werror"; then
		fail "the package build compiles with -Werror: $(head -1 "$tmp/werror" | cut -c1-120)"
	fi
}

# 5: autopkgtest, null runner (it installs the package here: purged after).
test_autopkgtest() {
	if ! command -v autopkgtest > /dev/null 2>&1; then
		skip "no autopkgtest (apt-get install autopkgtest; make deps-deb)"
		return
	fi
	built || return
	installed=1
	autopkgtest "$deb" "$tmp/scaletest" -- null > "$tmp/autopkgtest.log" 2>&1
	rc=$?
	checked
	if [ $rc != 0 ]; then
		fail "autopkgtest -- null: exit $rc"
		tail -n 30 "$tmp/autopkgtest.log" | sed 's/^/    /' >&2
	fi
	grep -E '^(installed|ok:|FAIL:)' "$tmp/autopkgtest.log" | sed 's/^/# autopkgtest: /' >&2
	check "autopkgtest ran the installed test" grep -qE '^installed +PASS' "$tmp/autopkgtest.log"
	dpkg --purge scaletest > /dev/null 2>&1 && installed=0
}

# 6: install, use, purge.
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
		tr -d '\r' | sed "s/$(printf '\033')\\[[0-9;]*m//g" > "$tmp/help"
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
