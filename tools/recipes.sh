#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The recipes of the documentation: every fenced block of a markdown file
# (README.md, docs/*.md), with the marker the line before it carries,
# an HTML comment that says what a test does with the block:
#
#	<!-- recipe: run -->                     run as written (tests/e2e/user.sh,
#	                                         from a fresh clone's directory)
#	<!-- recipe: dry-run -->                 run, each "bin/scaletest run" and
#	                                         "bin/scaletest sweep" with --dry-run
#	<!-- recipe: not runnable here: WHY -->  not run; WHY says why (another
#	                                         host, the user's own kernel tree)
#
# Blank lines may stand between the marker and the fence.  A block without
# a marker, or with another one, is an error: a recipe nobody tests.  The
# commands of a block are its lines, "\" continuations joined and lines
# that are only a comment left out; in a transcript (lines starting with
# "$ ") they are those lines, and the lines after each, up to the next,
# are its output.
#
#	sh tools/recipes.sh check FILE...      every block marked (exit 1 if not)
#	sh tools/recipes.sh list FILE...       FILE:LINE<TAB>KIND<TAB>WHY, a block a line
#	sh tools/recipes.sh commands FILE LINE the commands of the block at LINE,
#	                                       one a line
#	sh tools/recipes.sh output FILE LINE   a transcript's expected output
#
# LINE is the fence's line.  POSIX sh and awk; nothing is run here.
set -u

blocks() { # FILE: FILE:LINE<TAB>KIND<TAB>WHY for each block; errors on stderr
	awk -v file="$1" '
	function marker(s,    k) {
		if (s !~ /^<!-- recipe: .* -->$/)
			return ""
		sub(/^<!-- recipe: /, "", s)
		sub(/ -->$/, "", s)
		return s
	}
	/^ ? ? ?(```|~~~)/ {
		if (!inb) {
			inb = 1
			fence = substr($0, 1, 3)
			m = marker(last)
			if (m == "run" || m == "dry-run") {
				printf "%s:%d\t%s\t\n", file, NR, m
			} else if (m ~ /^not runnable here: ./) {
				why = m
				sub(/^not runnable here: /, "", why)
				printf "%s:%d\tnot runnable here\t%s\n", file, NR, why
			} else if (m != "") {
				printf "%s:%d: the recipe marker \"%s\" is not run, dry-run or \"not runnable here: WHY\"\n", file, NR, m > "/dev/stderr"
				bad++
			} else {
				printf "%s:%d: a fenced block without a recipe marker (<!-- recipe: run -->, <!-- recipe: dry-run --> or <!-- recipe: not runnable here: WHY --> on a line before it)\n", file, NR > "/dev/stderr"
				bad++
			}
			next
		}
		if (index($0, fence) == 1) {
			inb = 0
			last = ""
			next
		}
	}
	inb { next }
	NF { last = $0 }
	END {
		if (inb) {
			printf "%s: a fenced block is not closed\n", file > "/dev/stderr"
			bad++
		}
		exit bad ? 1 : 0
	}' "$1"
}

# The lines of the block whose fence is at line $2 of file $1.
body() {
	awk -v at="$2" 'NR == at { inb = 1; next } inb && /^ ? ? ?(```|~~~)/ { exit } inb { print }' "$1"
}

case ${1:-} in
check | list)
	what=$1
	shift
	[ $# -gt 0 ] || { echo "usage: sh tools/recipes.sh $what FILE..." >&2; exit 2; }
	bad=0
	for f in "$@"; do
		[ -r "$f" ] || { echo "recipes: cannot read '$f'" >&2; bad=1; continue; }
		if [ "$what" = list ]; then
			blocks "$f" || bad=1
		else
			blocks "$f" > /dev/null || bad=1
		fi
	done
	exit $bad
	;;
commands)
	[ $# = 3 ] || { echo "usage: sh tools/recipes.sh commands FILE LINE" >&2; exit 2; }
	body "$2" "$3" | awk '
	{ lines[++n] = $0 }
	/^\$ / { transcript = 1 }
	END {
		for (i = 1; i <= n; i++) {
			l = lines[i]
			if (transcript) {
				if (l ~ /^\$ /)
					print substr(l, 3)
				continue
			}
			if (l ~ /^[ \t]*(#|$)/ && cont == "")
				continue
			if (l ~ /\\$/) {
				cont = cont substr(l, 1, length(l) - 1)
				continue
			}
			print cont l
			cont = ""
		}
	}'
	;;
output)
	[ $# = 3 ] || { echo "usage: sh tools/recipes.sh output FILE LINE" >&2; exit 2; }
	body "$2" "$3" | awk '/^\$ / { on = 1; next } on { print }'
	;;
*)
	echo "usage: sh tools/recipes.sh check|list FILE... | commands|output FILE LINE" >&2
	exit 2
	;;
esac
