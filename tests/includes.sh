#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The layering of the harness's modules.  A module is a .c file and its
# header by path without the extension (lib/util is harness/lib/util.c and
# harness/lib/util.h); module A depends on B when either file of A includes
# "B.h", or when A's object refers to a name (a function, a table) that
# B's object defines: the calls, read with nm from the objects the build
# made, so a prototype written out by hand instead of an include hides
# nothing.  Two rules, and this script fails on any break of either:
#
# 1. The floors.  The folders of harness/ stand one above the other, in the
#    order data flows (docs/internals.md, "How it works"), and a folder never
#    includes a header of a folder above it, nor calls a name defined there:
#
#	lib < scenario < kernel < guest < record < vm < result < report
#	    < compare < run < campaign < cli
#
#    (a module may use any of its own folder, and any below).  A new
#    folder must be placed in FLOORS below, or it is an error.
# 2. No cycles: every group of modules that depend on each other in a
#    circle, by includes and calls together, is printed with the edges
#    inside it (an edge that is a call says which names it takes).
#
#	sh tests/includes.sh		# the suite: harness/ and the objects in
#					# $SCALETEST_BUILD (build/), which make
#					# check builds first
#	sh tests/includes.sh -v harness	# its verdict, every edge listed
#	sh tests/includes.sh DIR	# a tree (tests/cli.sh's fixtures),
#					# compiled here for its calls: its
#					# verdict, exit 1 for a problem; its
#					# floors are its file "floors", or none
# suite: quick
set -u

FLOORS="lib scenario kernel guest record vm result report compare run campaign cli"
verbose=0
if [ "${1:-}" = -v ]; then
	verbose=1
	shift
fi

# calls OBJDIR: "FROM TO NAME" for every name that an object FROM.o under
# OBJDIR refers to and another, TO.o, defines (nm: U there, defined here);
# NAME is "f()" for a function, the bare name for data (a table).
calls() {
	(cd "$1" && nm -A -P */*.o) | awk '
	{
		obj = $1
		sub(/\.o:$/, "", obj)
		if ($3 == "U")
			used[++nu] = obj " " $2
		else if ($3 ~ /^[A-Z]$/) {
			d = ($2 in def) ? "" : obj	# defined twice: by neither
			def[$2] = d
			fn[$2] = $3 ~ /[TW]/ ? "()" : ""
		}
	}
	END {
		for (i = 1; i <= nu; i++) {
			split(used[i], u, " ")
			if ((u[2] in def) && def[u[2]] != "" && def[u[2]] != u[1])
				print u[1], def[u[2]], u[2] fn[u[2]]
		}
	}' | sort -u
}

# objects SRCDIR OBJDIR: the calls of a build, after checking that every
# module's object is there and no older than its source; 1 when one is not.
objects() {
	bad=0
	for c in "$1"/*/*.c; do
		m=${c#"$1"/}
		m=${m%.c}
		if [ ! -f "$2/$m.o" ]; then
			echo "includes: no object $2/$m.o for $m.c: build first (make)" >&2
			bad=1
		elif [ "$c" -nt "$2/$m.o" ]; then
			echo "includes: $2/$m.o is older than $m.c: build first (make)" >&2
			bad=1
		fi
	done
	[ "$bad" = 0 ] || return 1
	calls "$2"
}

# scan DIR FLOORS CALLS: the check of one tree, with the calls between its
# objects in the file CALLS; its verdict on stdout, 1 for a problem.
scan() {
	(cd "$1" || exit 2
awk -v verbose="$verbose" -v floors="$2" -v callfile="$3" '
function folder(path) {
	sub(/\/.*/, "", path)
	return path
}

function module(path) {
	sub(/\.[ch]$/, "", path)
	return path
}

function add(a, b) {
	if (a == b || ((a, b) in edge))
		return
	edge[a, b] = 1
	out[a, ++nout[a]] = b
}

# How an edge is said: "a -> b", and the names of b it uses when it
# calls (an include alone is said bare).
function said(a, b) {
	return a " -> " b (((a, b) in called) ? " (uses " called[a, b] ")" : "")
}

# Tarjan: strongly connected components of the graph.
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
				edges = edges "\n  " said(members[a], b)
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
	if (t != m)
		included[m, t] = 1
	add(m, t)
}
END {
	# The calls, once the modules are known: an object of no module here
	# (a test, a tool) is not the tree'"'"'s.
	while (callfile != "" && (getline l < callfile) > 0) {
		split(l, c, " ")
		if (!(c[1] in seen) || !(c[2] in seen))
			continue
		k = ((c[1], c[2]) in called) ? called[c[1], c[2]] ", " c[3] : c[3]
		called[c[1], c[2]] = k
		add(c[1], c[2])
	}
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
				if (!(folder(t) in floor) || floor[folder(t)] <= floor[f])
					continue
				if ((order[i], t) in included)
					printf "includes: floor: %s includes \"%s.h\": %s/ stands above %s/\n", order[i], t, folder(t), f
				else
					printf "includes: floor: %s uses %s of %s: %s/ stands above %s/\n", order[i], called[order[i], t], t, folder(t), f
				cycles++
			}
		}
	for (i = 1; i <= nmod; i++)
		for (j = 1; j <= nout[order[i]]; j++) {
			t = out[order[i], j]
			if (!(t in seen)) {
				printf "includes: %s includes \"%s.h\", which is not in harness/\n", order[i], t
				cycles++
			} else if (verbose) {
				print said(order[i], t)
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
	here=$(cd "$(dirname "$0")/.." && pwd)
	o=$(mktemp -d "${TMPDIR:-/tmp}/scaletest-includes.XXXXXX") || exit 2
	trap 'rm -rf "$o"' EXIT
	if [ "$(cd "$1" && pwd)" = "$here/harness" ]; then
		# harness/ itself: its floors, and the build's objects.
		objects "$1" "${SCALETEST_BUILD:-$here/build}" > "$o/calls" || exit 2
		scan "$1" "$FLOORS" "$o/calls"
		exit
	fi
	# A tree of fixtures gives its own floors (a file "floors"), or has
	# none; its .c files are compiled here for their calls.
	f=
	[ -f "$1/floors" ] && f=$(cat "$1/floors")
	for c in "$1"/*/*.c; do
		m=${c#"$1"/}
		mkdir -p "$o/${m%/*}"
		${CC:-cc} -c -I "$1" -o "$o/${m%.c}.o" "$c" ||
			{ echo "includes: cannot compile $m" >&2; exit 2; }
	done
	calls "$o" > "$o/calls"
	scan "$1" "$f" "$o/calls"
	exit
fi
. "$(dirname "$0")/lib.sh"

test_floors_and_no_cycles() {
	objects "$top/harness" "$build" > "$tmp/calls" ||
		{ fail "the objects of harness/ in $build (make builds them)"; return; }
	scan "$top/harness" "$FLOORS" "$tmp/calls" > "$tmp/verdict"
	check "no folder includes one above it or calls a name defined there, no cycle of includes and calls in harness/ (sh tests/includes.sh -v harness lists every edge)" \
		test $? = 0
	cat "$tmp/verdict" >&2
}

run_tests "$@"
