#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The licence: LICENSE is the Apache License 2.0, every file the project
# wrote names its licence in an SPDX-License-Identifier line
# (tools/spdx.sh, whose header says which files), and debian/copyright
# (DEP-5) gives every path a licence, with no pattern that matches nothing.
# suite: quick
SUITE=licence
. "$(dirname "$0")/lib.sh"

spdx=$top/tools/spdx.sh

test_tree_marked() {
	expect 0 "^[0-9]+ files carry their SPDX-License-Identifier$" -- sh "$spdx" check "$top"
	# The check covers what it says: C, shell, man pages, the Makefile,
	# the kernel patches (and not the data).
	sh "$spdx" list "$top" > "$tmp/list"
	for f in "Apache-2.0 harness/cli/main.c" "Apache-2.0 harness/lib/util.h" \
		"Apache-2.0 initramfs/init" "Apache-2.0 initramfs/lib/channel.sh" \
		"Apache-2.0 Makefile" "Apache-2.0 docs/man/scaletest.1" "Apache-2.0 .ci/run" \
		"GPL-2.0-only tests/fixtures/console/crashmod/crashmod.c"; do
		check "spdx.sh lists '$f'" grep -qxF "$f" "$tmp/list"
	done
	check "the kernel patches are GPL-2.0-only" grep -q '^GPL-2.0-only scenarios/patches/.*\.patch$' "$tmp/list"
	check "no fixture or golden file is listed" lacks "$tmp/list" " tests/(fixtures/(syzkaller|kcidb|replay)|golden)/"
}

# A tree of each kind of file, for the failures.
mktree() {
	rm -rf "$tmp/tree"
	mkdir -p "$tmp/tree/harness/lib" "$tmp/tree/scenarios/patches/p" "$tmp/tree/tests/fixtures/x"
	printf '// SPDX-License-Identifier: Apache-2.0\nint a;\n' > "$tmp/tree/harness/lib/a.c"
	printf '#!/bin/sh\n# SPDX-License-Identifier: Apache-2.0\ntrue\n' > "$tmp/tree/harness/lib/b.sh"
	printf 'Subject: x\n\n---\nSPDX-License-Identifier: GPL-2.0-only\n--- a/f\n+++ b/f\n' \
		> "$tmp/tree/scenarios/patches/p/0001.patch"
	printf 'int unmarked_fixture;\n' > "$tmp/tree/tests/fixtures/x/f.c"
}

test_tree_fixture_passes() {
	mktree
	expect 0 "^3 files carry" -- sh "$spdx" check "$tmp/tree"
}

test_missing_named() {
	mktree
	printf '#!/bin/sh\ntrue\n' > "$tmp/tree/harness/lib/b.sh"
	expect 1 "^harness/lib/b\.sh: no SPDX-License-Identifier in its first lines \(want Apache-2\.0\)$" \
		-- sh "$spdx" check "$tmp/tree"
}

test_wrong_licence_named() {
	mktree
	printf '// SPDX-License-Identifier: MIT\nint a;\n' > "$tmp/tree/harness/lib/a.c"
	expect 1 "^harness/lib/a\.c: SPDX-License-Identifier MIT, want Apache-2\.0$" -- sh "$spdx" check "$tmp/tree"
}

test_patch_in_commit_message_refused() {
	mktree
	# Above "---" the line would land in the kernel's commit message.
	printf 'Subject: x\n\nSPDX-License-Identifier: GPL-2.0-only\n---\n--- a/f\n+++ b/f\n' \
		> "$tmp/tree/scenarios/patches/p/0001.patch"
	expect 1 "^scenarios/patches/p/0001\.patch: no SPDX" -- sh "$spdx" check "$tmp/tree"
}

test_empty_tree_refused() {
	rm -rf "$tmp/empty"
	mkdir -p "$tmp/empty"
	expect 1 "^no file to check" -- sh "$spdx" check "$tmp/empty"
}

test_licence_file() {
	check "LICENSE is the Apache License 2.0" grep -q '^ *Apache License$' "$top/LICENSE"
	check "LICENSE names Version 2.0" grep -q 'Version 2.0, January 2004' "$top/LICENSE"
	check "LICENSE has the terms" grep -q 'TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION' "$top/LICENSE"
	if [ -f /usr/share/common-licenses/Apache-2.0 ]; then
		check "LICENSE is Debian's text of the licence" cmp -s "$top/LICENSE" /usr/share/common-licenses/Apache-2.0
	fi
}

# Every Files: pattern of debian/copyright matches a file of the tree (a
# stale one misleads the reader, and lintian calls it superfluous), and
# the main stanza is Apache-2.0.
test_copyright() {
	c=$top/debian/copyright
	check "Format is DEP-5" grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/$' "$c"
	check "Files: * is Apache-2.0" sh -c 'awk "/^Files: \\*\$/ {f=1; next} f && /^License:/ {print \$2; exit}" "$1" | grep -qx Apache-2.0' sh "$c"
	check "the kernel patches are GPL-2.0-only" sh -c 'awk "/^Files: scenarios\\/patches/ {f=1; next} f && /^License:/ {print \$2; exit}" "$1" | grep -qx GPL-2.0-only' sh "$c"
	awk '/^Files:/ { sub(/^Files:/, ""); f = 1 } /^[A-Z]/ && !/^Files:/ { f = 0 } f { for (i = 1; i <= NF; i++) print $i }' "$c" > "$tmp/patterns"
	n=0
	while read -r p; do
		[ "$p" = "*" ] && continue
		n=$((n + 1))
		# shellcheck disable=SC2086
		m=$(cd "$top" && git ls-files -- "$p" 2>/dev/null | head -n 1)
		[ -n "$m" ] || m=$(cd "$top" && find . -path "./$p" | head -n 1)
		[ -n "$m" ] || fail "debian/copyright: pattern '$p' matches no file"
	done < "$tmp/patterns"
	[ "$n" -gt 0 ] && checked || fail "no Files: pattern read from debian/copyright"
	for l in Apache-2.0 GPL-2.0-only GPL-2+; do
		check "debian/copyright states $l" grep -qx "License: $l" "$c"
	done
}

run_tests "$@"
