#!/bin/sh
# Include cycles between the harness's modules.  A module is a .c file and
# its header by path without the extension (lib/util is harness/lib/util.c
# and harness/lib/util.h); module A depends on B when either file of A
# includes "B.h".  Prints every group of modules that depend on each other
# in a circle, with the edges inside it, and fails if there is one.
#
#	sh tests/includes.sh		# the suite: harness/ (make check)
#	sh tests/includes.sh DIR	# a tree (tests/cli.sh's fixtures): its
#					# verdict, exit 1 for a cycle
#	sh tests/includes.sh -v DIR	# ... and every edge listed
# suite: quick
set -u

verbose=0
if [ "${1:-}" = -v ]; then
	verbose=1
	shift
fi

# scan DIR: the check of one tree; its verdict on stdout, 1 for a cycle.
scan() {
	(cd "$1" || exit 2
awk -v verbose="$verbose" '
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
	printf "includes: %d modules, no cycles\n", nmod
}
' */*.c */*.h)
}

if [ $# -gt 0 ] && [ -d "$1" ]; then
	scan "$1"
	exit
fi
. "$(dirname "$0")/lib.sh"

test_no_cycles() {
	check "no include cycle in harness/ (sh tests/includes.sh -v harness lists every edge)" \
		scan "$top/harness"
	scan "$top/harness" | tail -n 1 >&2
}

run_tests "$@"
