#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The build as a user meets it: a copy of the tree built without libvirt's
# development files (pkg-config does not find them), then with them, as
# after `make deps-libvirt`: a plain `make` must rebuild what the new flags
# change (build/CFLAGS, as git's GIT-CFLAGS), and a `make` after that
# nothing.  Two builds of the whole tree: a minute on two cores.  And
# what make decides before it compiles (make -n into folders of the
# test's own): -Werror only with DEVELOPER=1, the default of a git
# checkout and no tarball's; make dist's tarball says its version to a
# build without git; a library whose .pc is missing is named before any
# compiler runs.
# suite: full
# order: 10
set -u

. "$(dirname "$0")/lib.sh"

compiled() { # LOG: how many objects the make in LOG compiled
	grep -c -- ' -c -o ' "$1"
}

test_new_packages_rebuild() {
	src=$tmp/src
	tree_copy "$src"
	check "the tree copied" [ -f "$src/Makefile" ]
	real=$(command -v pkg-config) || { skip "no pkg-config here"; return; }
	pkg-config --exists libvirt libxml-2.0 || { skip "libvirt's development files are not installed (make deps-libvirt)"; return; }
	# A pkg-config that finds everything but libvirt and libxml2.
	mkdir -p "$tmp/nolibvirt"
	printf '#!/bin/sh\nfor a; do case $a in libvirt|libxml-2.0) exit 1 ;; esac; done\nexec %s "$@"\n' \
		"$real" > "$tmp/nolibvirt/pkg-config"
	chmod +x "$tmp/nolibvirt/pkg-config"
	mkdir -p "$tmp/results"

	PATH=$tmp/nolibvirt:$PATH make -C "$src" -j2 > "$tmp/make1.log" 2>&1
	check "built without libvirt" [ -x "$src/bin/scaletest" ]
	expect 3 "built without libvirt" -- "$src/bin/scaletest" gc --connect test:///default "$tmp/results"

	make -C "$src" -j2 > "$tmp/make2.log" 2>&1
	check "make with libvirt found: builds" [ $? = 0 ]
	check "the new flags said" grep -q "new flags in build/CFLAGS" "$tmp/make2.log"
	check "every object compiled again ($(compiled "$tmp/make2.log") of $(compiled "$tmp/make1.log"))" \
		[ "$(compiled "$tmp/make2.log")" = "$(compiled "$tmp/make1.log")" ]
	expect 0 "test:///default: 0 leftover domains" -- "$src/bin/scaletest" gc --connect test:///default "$tmp/results"

	make -C "$src" -j2 > "$tmp/make3.log" 2>&1
	check "then make again: nothing compiled ($(compiled "$tmp/make3.log"))" [ "$(compiled "$tmp/make3.log")" = 0 ]
	check "and the flags unchanged" lacks "$tmp/make3.log" 'new flags'
}

# plan DIR [MAKEARGS...]: what make in DIR would compile into fresh
# folders of the test's (make -n; DEVELOPER from its command line
# only), in $tmp/plan.
plan() {
	d=$1
	shift
	rm -rf "$tmp/nb" "$tmp/nbin"
	env -u DEVELOPER -u MAKEFLAGS -u MAKELEVEL make -n -C "$d" BUILD="$tmp/nb" BIN="$tmp/nbin" "$@" "$tmp/nbin/scaletest" > "$tmp/plan" 2>&1
}
werror() { grep -qE '^cc .* -Werror( |$)' "$tmp/plan"; }

test_developer_knob() {
	plan "$top" DEVELOPER=1
	check "DEVELOPER=1: no -Werror" werror
	plan "$top" DEVELOPER=0
	check "DEVELOPER=0: -Werror" sh -c "! grep -qE '^cc .* -Werror( |\$)' '$tmp/plan'"
	check "DEVELOPER=0: the warnings are not on" grep -qE '^cc .* -Wall -Wextra -Wshadow' "$tmp/plan"
	if [ -e "$top/.git" ]; then
		plan "$top"
		check "a git checkout's make: no -Werror" werror
	fi
	rm -rf "$tmp/copy"
	tree_copy "$tmp/copy"
	rm -rf "$tmp/copy/.git"
	plan "$tmp/copy"
	check "a tree without git (a tarball): -Werror" sh -c "! grep -qE '^cc .* -Werror( |\$)' '$tmp/plan'"
}

test_dist_says_its_version() {
	[ -e "$top/.git" ] || { skip "not a git checkout"; return; }
	plan "$top"
	want=$(sed -n "s/.*-DSCALETEST_VERSION='\"\([^\"]*\)\"'.*/\1/p" "$tmp/plan" | head -n 1)
	check "the tree's build says no version" test -n "$want"
	rm -rf "$tmp/d"
	make -s -C "$top" BUILD="$tmp/d" dist > "$tmp/dist.log" 2>&1
	check "make dist failed: $(cat "$tmp/dist.log")" test -s "$tmp/d/scaletest-$want.tar.gz"
	rm -rf "$tmp/un"
	mkdir -p "$tmp/un" && tar -xzf "$tmp/d/scaletest-$want.tar.gz" -C "$tmp/un" || return
	check "the tarball's VERSION is not '$want'" [ "$(cat "$tmp/un/scaletest-$want/VERSION")" = "$want" ]
	rm -rf "$tmp/copy"
	tree_copy "$tmp/copy"
	(cd "$tmp/copy" && find . -type f | sort) > "$tmp/want.files"
	echo ./VERSION >> "$tmp/want.files"
	sort -o "$tmp/want.files" "$tmp/want.files"
	(cd "$tmp/un/scaletest-$want" && find . -type f | sort) > "$tmp/got.files"
	checked
	diff -u "$tmp/want.files" "$tmp/got.files" >&2 || fail "the tarball holds other files than the tree's and VERSION"
	plan "$tmp/un/scaletest-$want"
	check "a build of the tarball would not say '$want'" grep -qF "SCALETEST_VERSION='\"$want\"'" "$tmp/plan"
}

test_missing_pc_named() {
	real=$(command -v pkg-config) || { skip "no pkg-config here"; return; }
	mkdir -p "$tmp/nokmod"
	printf '#!/bin/sh\nfor a; do case $a in libkmod) exit 1 ;; esac; done\nexec %s "$@"\n' \
		"$real" > "$tmp/nokmod/pkg-config"
	chmod +x "$tmp/nokmod/pkg-config"
	rm -rf "$tmp/mb" "$tmp/mbin"
	PATH=$tmp/nokmod:$PATH make -C "$top" BUILD="$tmp/mb" BIN="$tmp/mbin" "$tmp/mbin/scaletest" > "$tmp/make.log" 2>&1
	check "make without libkmod.pc: exit 0" [ $? != 0 ]
	check "make without libkmod.pc does not name it" grep -qF "missing development files: pkg-config finds no 'libkmod.pc'" "$tmp/make.log"
	check "a compiler ran without libkmod.pc" sh -c "! grep -q '^cc ' '$tmp/make.log'"
}

run_tests "$@"
