#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The layering of the harness's modules.  A module is a .c file and its
# header by path without the extension (lib/util is harness/lib/util.c and
# harness/lib/util.h); module A depends on B when either file of A includes
# "B.h".  Two rules, and this script fails on any break of either:
#
# 1. The floors.  The folders of harness/ stand one above the other, in the
#    order data flows (docs/internals.md, "How it works"), and a folder never includes
#    a header of a folder above it:
#
#	lib < scenario < kernel < guest < record < vm < result < report
#	    < compare < run < campaign < cli
#
#    (a module may include any of its own folder, and any below).  A new
#    folder must be placed in FLOORS below, or it is an error.
# 2. No cycles: every group of modules that depend on each other in a
#    circle is printed with the edges inside it.
#
#	sh tests/includes.sh		# the suite: harness/ (make check)
#	sh tests/includes.sh -v DIR	# ... and every edge listed
#	sh tests/includes.sh DIR	# a tree (tests/cli.sh's fixtures): its
#					# verdict, exit 1 for a problem; its floors
#					# are its file "floors", or none
# suite: quick
set -u

FLOORS="lib scenario kernel guest record vm result report compare run campaign cli"
verbose=0
if [ "${1:-}" = -v ]; then
	verbose=1
	shift
fi

# scan DIR FLOORS: the check of one tree; its verdict on stdout, 1 for a
# problem.
scan() {
	(cd "$1" || exit 2
awk -v verbose="$verbose" -v floors="$2" '
function folder(path) {
	sub(/\/.*/, "", path)
	return path
}

function module(path) {
	sub(/\.[ch]$/, "", path)
	return path
}

# Tarjan: strongly connected components of the include graph.
function strong(v,    i, w, n, comp, edges, a, b) {
	idx[v] = low[v] = next_idx++
	stack[++sp] = v
	onstack[v] = 1
	for (i = 1; i <= nout[v]; i++) {
		w = out[v, i]
		if (!(w in idx)) {
			strong(w)
			if (low[w] < low[v])
				low[v] = low[w]
		} else if (onstack[w] && idx[w] < low[v]) {
			low[v] = idx[w]
		}
	}
	if (low[v] != idx[v])
		return
	n = 0
	comp = ""
	do {
		w = stack[sp--]
		onstack[w] = 0
		incomp[w] = v
		members[++n] = w
	} while (w != v)
	if (n < 2)
		return
	comp = members[n]
	for (i = n - 1; i >= 1; i--)
		comp = comp " " members[i]
	edges = ""
	for (a = 1; a <= n; a++)
		for (i = 1; i <= nout[members[a]]; i++) {
			b = out[members[a], i]
			if (incomp[b] == v)
				edges = edges "\n  " members[a] " -> " b
		}
	printf "includes: cycle: %s%s\n", comp, edges
	cycles++
}

{
	m = module(FILENAME)
	if (!(m in seen)) {
		seen[m] = 1
		order[++nmod] = m
	}
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
	t = $0
	sub(/^[^"]*"/, "", t)
	sub(/".*/, "", t)
	if (t !~ /\.h$/)
		next
	t = module(t)
	if (t == m || ((m, t) in edge))
		next
	edge[m, t] = 1
	out[m, ++nout[m]] = t
}
END {
	nfl = split(floors, fl, " ")
	for (i = 1; i <= nfl; i++)
		floor[fl[i]] = i
	if (nfl)
		for (i = 1; i <= nmod; i++) {
			f = folder(order[i])
			if (!(f in floor)) {
				printf "includes: %s: the folder %s/ has no floor (tests/includes.sh, FLOORS)\n", order[i], f
				cycles++
				continue
			}
			for (j = 1; j <= nout[order[i]]; j++) {
				t = out[order[i], j]
				if (folder(t) in floor && floor[folder(t)] > floor[f]) {
					printf "includes: floor: %s includes \"%s.h\": %s/ stands above %s/\n", order[i], t, folder(t), f
					cycles++
				}
			}
		}
	for (i = 1; i <= nmod; i++)
		for (j = 1; j <= nout[order[i]]; j++) {
			t = out[order[i], j]
			if (!(t in seen)) {
				printf "includes: %s includes \"%s.h\", which is not in harness/\n", order[i], t
				cycles++
			} else if (verbose) {
				printf "%s -> %s\n", order[i], t
			}
		}
	for (i = 1; i <= nmod; i++)
		if (!(order[i] in idx))
			strong(order[i])
	if (cycles) {
		printf "includes: %d problem%s\n", cycles, (cycles > 1 ? "s" : "")
		exit 1
	}
	printf "includes: %d modules, %sno cycles\n", nmod, nfl ? nfl " floors kept, " : ""
}
' */*.c */*.h)
}

if [ $# -gt 0 ] && [ -d "$1" ]; then
	# A tree of fixtures gives its own floors (a file "floors"), or has none.
	f=
	[ -f "$1/floors" ] && f=$(cat "$1/floors")
	scan "$1" "$f"
	exit
fi
. "$(dirname "$0")/lib.sh"

test_floors_and_no_cycles() {
	check "no folder includes one above it, no include cycle in harness/ (sh tests/includes.sh -v harness lists every edge)" \
		scan "$top/harness" "$FLOORS"
	scan "$top/harness" "$FLOORS" | tail -n 1 >&2
}

run_tests "$@"
