#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The licence of every file the project wrote, said in its first lines.
#
#   sh tools/spdx.sh check [DIR]   every file of the tree (default: this one) that
#                                  must carry an identifier carries the right one;
#                                  each one that does not is named; exit 1 then
#   sh tools/spdx.sh list [DIR]    those files, "LICENCE PATH" a line
#
# Which files: the sources, scripts, Makefiles, manual pages and CI files
# the project wrote (C, shell, man pages, the Makefile, debian/rules,
# .ci/run, the completions, the CI examples) carry Apache-2.0; the kernel
# patches (kernel-configs/patches/, scenarios/patches/) are changes to
# Linux and carry GPL-2.0-only.  Not marked (debian/copyright covers them):
# data in formats that have no comments or whose bytes are the test
# (JSON, captured console logs and fixtures, golden files, fuzz corpora,
# bench figures, results), prose (Markdown), scenario and config
# fragments (their text is hashed into cache and baseline keys), and what
# others wrote (tests/fixtures/syzkaller, tests/fixtures/kcidb).
set -eu

mode=${1:-check}
dir=${2:-$(cd "$(dirname "$0")/.." && pwd)}
case $mode in check|list) ;; *) echo "usage: $0 check|list [DIR]" >&2; exit 2 ;; esac
cd "$dir" || exit 2

# The files, relative to DIR, with the licence each must carry.
files() {
	find . \( -path ./.git -o -path './build*' -o -path './bin*' -o -path ./results \
		-o -path ./tests/fuzz/corpus -o -path ./tests/fuzz/regress \
		-o -path ./tests/golden -o -path ./tests/jsonschema/cases \
		-o -path ./tests/jsonschema/not-json -o -path ./tests/jsonschema/schema-errors \
		-o -path ./debian/scaletest -o -path ./debian/.debhelper -o -path ./debian/tmp \) -prune -o \
		-type f -print | sed 's|^\./||' | LC_ALL=C sort | while read -r f; do
		case $f in
		# A kernel module (GPL, as modules must be) and its scripts.
		tests/fixtures/console/crashmod/*.c) echo "GPL-2.0-only $f" ;;
		tests/fixtures/console/crashmod/*) echo "Apache-2.0 $f" ;;
		tests/fixtures/*) ;;
		kernel-configs/patches/*.patch | scenarios/patches/*.patch) echo "GPL-2.0-only $f" ;;
		*.c | *.h | *.sh | docs/man/*.[1-8] | Makefile | debian/rules | .ci/run | \
		initramfs/init | tools/completion/* | .gitlab-ci.yml | .github/workflows/*.yml)
			echo "Apache-2.0 $f" ;;
		esac
	done
}

if [ "$mode" = list ]; then
	files
	exit 0
fi

bad=0
n=0
while read -r lic f; do
	[ -n "$f" ] || continue
	n=$((n + 1))
	# A patch says it where git am keeps it out of the commit: after "---".
	case $f in *.patch) after_dashes=1 ;; *) after_dashes= ;; esac
	if [ -n "$after_dashes" ]; then
		got=$(sed -n -E '/^---$/,/^(diff --git |--- a\/)/p' "$f" | sed -n 's/.*SPDX-License-Identifier: *\([^ *]*\).*/\1/p' | head -n 1)
	else
		got=$(head -n 3 "$f" | sed -n 's/.*SPDX-License-Identifier: *\([^ *]*\).*/\1/p' | head -n 1)
	fi
	if [ -z "$got" ]; then
		echo "$f: no SPDX-License-Identifier in its first lines (want $lic)"
		bad=1
	elif [ "$got" != "$lic" ]; then
		echo "$f: SPDX-License-Identifier $got, want $lic"
		bad=1
	fi
done <<EOT
$(files)
EOT
if [ "$n" = 0 ]; then
	echo "no file to check under $dir"
	exit 1
fi
[ "$bad" = 0 ] && echo "$n files carry their SPDX-License-Identifier"
exit "$bad"
