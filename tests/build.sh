#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The build as a user meets it: a copy of the tree built without libvirt's
# development files (pkg-config does not find them), then with them, as
# after `make deps-libvirt`: a plain `make` must rebuild what the new flags
# change (build/CFLAGS, as git's GIT-CFLAGS), and a `make` after that
# nothing.  Two builds of the whole tree: a minute on two cores.
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
	check "and the flags unchanged" sh -c "! grep -q 'new flags' '$tmp/make3.log'"
}

run_tests "$@"
