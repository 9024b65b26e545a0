#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The paths users take, taken as they take them: a fresh clone of this tree
# (a git clone, or a copy of the files with the changes not committed yet),
# built there with a plain `make`, every command run from the clone's
# directory with default options, so that results go to its relative
# results/; the host as `make deps-*` leaves it: nothing chmodded and no
# daemon started behind the harness's back (docs/libvirt.md's recipe starts
# libvirtd with `make libvirt-start`, and /dev/kvm stays as it is: 0600
# root:root here, where libvirt takes a minute a call).
#
#   - the default run, `make scale-test` (the README's first command)
#   - scenarios/smoke with no option
#   - every recipe of the README and of docs/*.md marked run or dry-run
#     (tools/recipes.sh): each command as written, from the clone's
#     directory (dry-run: bin/scaletest run and sweep with --dry-run); a
#     transcript's output must be what its commands print.  The libvirt
#     backend from the project directory is one of them.
#
#   sh tests/e2e/user.sh [NAME...]       (names: --list)
# suite: full
# exclusive: libvirt
# order: 50
set -u
. "$(dirname "$0")/lib.sh"

clone=$out/clone
recipes=$top/tools/recipes.sh

# The clone, built, once: the first test that needs it makes it.
clone_built() {
	[ -x "$clone/bin/scaletest" ] && return 0
	if git -C "$top" rev-parse --git-dir > /dev/null 2>&1 &&
	   [ -z "$(git -C "$top" status --porcelain --untracked-files=normal)" ]; then
		git clone -q "$top" "$clone"
	else
		say "# user: the tree has changes not committed: a copy of its files, not a clone"
		tree_copy "$clone"
	fi
	make -C "$clone" -j2 > "$out/make.log" 2>&1 ||
		{ tail -n 20 "$out/make.log" >&2; fail "make in a fresh clone failed"; return 1; }
	checked
}

# in_clone CMD...: CMD from the clone's directory.
in_clone() {
	(cd "$clone" && "$@")
}

no_qemu_of_clone() {
	! pgrep -f "qemu-system.*$clone/" > /dev/null 2>&1
}

# The README's first command after the set-up: the default scenario.
test_make_scale_test() {
	clone_built || return
	in_clone make scale-test > "$out/scale-test.log" 2>&1
	rc=$?
	check "make scale-test: exit 0 (got $rc)" [ "$rc" = 0 ]
	[ "$rc" = 0 ] || tail -n 20 "$out/scale-test.log" >&2
	dir=$clone/results/latest
	check "its run in the clone's results/" [ -s "$dir/result.json" ]
	check "the default scenario, passed" j '.status == "pass" and .settings.name == "seed-i386-4000"'
	check "present == requested" j '.disks.present == .disks.requested and .disks.requested > 0'
	check "no QEMU left" no_qemu_of_clone
}

test_smoke_default_options() {
	clone_built || return
	in_clone bin/scaletest run scenarios/smoke > "$out/smoke.log" 2>&1
	rc=$?
	check "exit 0 (got $rc)" [ "$rc" = 0 ]
	id=$(sed -n 's/^scaletest: run \([^ ]*\) in results\/.*/\1/p' "$out/smoke.log" | head -n 1)
	check "it said the run directory, relative: results/$id" [ -n "$id" ]
	dir=$clone/results/$id
	check "the run directory is in the clone's results/" [ -s "$dir/result.json" ]
	check "status pass" j '.status == "pass"'
	check "latest names it" [ "$(readlink "$clone/results/latest")" = "$id" ]
	check "no .tmp- run directory left" none_in "$clone/results" -maxdepth 1 -name '.tmp-*'
	check "no QEMU left" no_qemu_of_clone
}

# shown_in WANT GOT: GOT's lines are WANT's, a line "..." in WANT standing
# for any number of lines; the first difference on stderr.
shown_in() {
	awk 'NR == FNR { w[++m] = $0; next } { g[++n] = $0 }
	function seg_at(s, e, p,    k) { for (k = s; k <= e; k++) if (g[p + k - s] != w[k] || p + k - s > n) return 0; return 1 }
	END {
		p = 1; i = 1
		while (i <= m) {
			free = 0
			while (i <= m && w[i] == "...") { free = 1; i++ }
			if (i > m) exit 0
			for (e = i; e < m && w[e + 1] != "..."; e++) ;
			last = (e == m)
			if (last && free) { q = n - (e - i); if (q < p) { print "fewer lines printed than the transcript shows" > "/dev/stderr"; exit 1 } } else { q = p }
			while (!seg_at(i, e, q)) {
				if (!free || last || q > n) { printf "transcript line \"%s\" not printed where it shows it\n", w[i] > "/dev/stderr"; exit 1 }
				q++
			}
			if (last && q + e - i != n) { printf "more lines printed than the transcript shows\n" > "/dev/stderr"; exit 1 }
			p = q + e - i + 1; i = e + 1
		}
		exit (p == n + 1 || free) ? 0 : 1
	}' "$1" "$2"
}

# One recipe: the block at FILE:LINE of the clone, run as its marker says.
recipe() {
	file=${1%:*}
	line=${1##*:}
	kind=$(sh "$recipes" list "$clone/$file" | awk -F '\t' -v at="$clone/$file:$line" '$1 == at { print $2 }')
	sh "$recipes" commands "$clone/$file" "$line" > "$out/recipe.cmds"
	check "$1: the block has commands" [ -s "$out/recipe.cmds" ]
	if [ -n "$(sh "$recipes" output "$clone/$file" "$line")" ]; then
		# A transcript: what it shows is what its commands print ("..."
		# standing for lines left out).
		sh "$recipes" output "$clone/$file" "$line" > "$out/recipe.want"
		in_clone sh "$out/recipe.cmds" > "$out/recipe.got" 2>&1
		check "$1: the commands print what the transcript shows (above)" \
			shown_in "$out/recipe.want" "$out/recipe.got"
		return
	fi
	while IFS= read -r cmd; do
		if [ "$kind" = dry-run ]; then
			case $cmd in
			"bin/scaletest run "* | "bin/scaletest sweep "*)
				cmd=$(printf '%s' "$cmd" | sed 's/^\(bin\/scaletest [a-z]*\) \(.*\)$/\1 --dry-run \2/') ;;
			esac
		fi
		say "  \$ $cmd"
		in_clone sh -c "$cmd" < /dev/null > "$out/recipe.log" 2>&1
		rc=$?
		check "$1: '$cmd' exits 0 (got $rc)" [ "$rc" = 0 ]
		[ "$rc" = 0 ] || tail -n 15 "$out/recipe.log" >&2
	done < "$out/recipe.cmds"
	check "$1: no QEMU left" no_qemu_of_clone
}

# Every page a user reads, the recipes in it: one test each, named after
# the page and the fence's line (the tree's own pages: the clone's are the
# same files).
for page in README.md $(cd "$top" && find docs -name '*.md' 2>/dev/null | sort); do
	sh "$recipes" list "$top/$page" 2>/dev/null | while IFS='	' read -r at kind why; do
		[ "$kind" = run ] || [ "$kind" = dry-run ] || continue
		echo "${at#"$top"/}"
	done > "$tmp/.recipes"
	while read -r at; do
		n=$(printf '%s' "$at" | tr ':/' '--')
		add_test "recipe-$n" recipe_in_clone "$at"
	done < "$tmp/.recipes"
done
recipe_in_clone() {
	clone_built || return
	recipe "$1"
}

# A recipe may start libvirtd (make libvirt-start): it is stopped again
# when the suite ends, if it was started here.
at_exit '[ -x "$clone/bin/scaletest" ] && make -C "$clone" libvirt-stop > /dev/null 2>&1'

run_tests "$@"
