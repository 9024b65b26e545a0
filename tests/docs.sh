#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The documentation's checks that need no QEMU: the README is a front door
# to docs/ (short, a link to every page), every relative link leads
# somewhere, every fenced block of the README and of docs/*.md carries a
# recipe marker (tools/recipes.sh; the
# blocks marked run or dry-run are run by tests/e2e/user.sh), the
# extractor on fixtures (tests/fixtures/recipes/), and docs/measurements.md's
# benchmark table against the committed figures (tests/bench/table.sh).
# suite: quick
set -u

. "$(dirname "$0")/lib.sh"
recipes=$top/tools/recipes.sh
rfx=$fx/recipes

# Every markdown page a user reads: README.md and docs/, whatever pages
# they are cut into.
pages() {
	echo "$top/README.md"
	find "$top/docs" -name '*.md' 2>/dev/null | sort
}

test_every_block_marked() {
	for p in $(pages); do
		check "${p#"$top"/}: every fenced block has a recipe marker (above)" sh "$recipes" check "$p"
	done
	check "the README has a block run as written" sh -c "sh '$recipes' list '$top/README.md' | grep -q '	run	'"
}

# The README is a front door: short enough to read at once, with a link to
# every page of docs/, so that each page is one click from it and none is
# orphaned (a page only reachable by knowing its name).
test_readme_front_door() {
	n=$(wc -l < "$top/README.md")
	check "the README is at most 160 lines (it has $n): the manual goes in docs/" [ "$n" -le 160 ]
	for p in "$top"/docs/*.md; do
		page=docs/${p##*/}
		check "the README links $page" grep -qF "]($page)" "$top/README.md"
	done
}

# Every relative link of README.md and docs/*.md leads to a file or
# folder of the tree (links from docs/ are relative to docs/).
test_links_resolve() {
	for p in $(pages); do
		dir=$(dirname "$p")
		grep -o '\]([^)]*)' "$p" | sed 's/^](//; s/)$//; s/#.*//' | sort -u > "$tmp/links"
		while read -r l; do
			case $l in ''|*://*|mailto:*) continue ;; esac
			check "${p#"$top"/}: the link '$l' leads somewhere" [ -e "$dir/$l" ]
		done < "$tmp/links"
	done
}

test_list() {
	sh "$recipes" list "$rfx/marked.md" > "$tmp/list"
	check "four blocks listed (the transcript at 27)" [ "$(wc -l < "$tmp/list")" = 4 ]
	check "a run block, its fence's line" grep -qx "$rfx/marked.md:4	run	" "$tmp/list"
	check "a dry-run block after a blank line" grep -qx "$rfx/marked.md:17	dry-run	" "$tmp/list"
	check "a block not runnable, with its reason, in a ~~~ fence" \
		grep -qx "$rfx/marked.md:22	not runnable here	needs another host" "$tmp/list"
}

test_commands() {
	sh "$recipes" commands "$rfx/marked.md" 4 > "$tmp/cmds"
	printf '%s\n' "echo one" "printf '%s\n' \"two\"     \"three\"   # a continuation" "echo four" > "$tmp/want"
	check "the commands: continuations joined, comment lines left out" diff -u "$tmp/want" "$tmp/cmds"
	check "they run" sh -e "$tmp/cmds"
	sh "$recipes" commands "$rfx/marked.md" 27 > "$tmp/cmds"
	printf '%s\n' "echo hello" "printf 'a\nb\n'" > "$tmp/want"
	check "a transcript's commands are its \$ lines" diff -u "$tmp/want" "$tmp/cmds"
	sh "$recipes" output "$rfx/marked.md" 27 > "$tmp/out1"
	printf '%s\n' hello a b > "$tmp/want"
	check "and its output the lines after them" diff -u "$tmp/want" "$tmp/out1"
	check "which is what the commands print" sh -c "sh '$tmp/cmds' | diff -u '$tmp/out1' -"
}

test_unmarked_refused() {
	expect 1 "unmarked.md:3: a fenced block without a recipe marker" -- sh "$recipes" check "$rfx/unmarked.md"
	expect 1 "unmarked.md:8: the recipe marker \"maybe\" is not run, dry-run" -- sh "$recipes" check "$rfx/unmarked.md"
	expect 1 "unmarked.md:13: the recipe marker \"not runnable here:\" is not" -- sh "$recipes" check "$rfx/unmarked.md"
	expect 1 "unmarked.md:19: a fenced block without a recipe marker" -- sh "$recipes" check "$rfx/unmarked.md"
	expect 1 "unclosed.md: a fenced block is not closed" -- sh "$recipes" check "$rfx/unclosed.md"
	expect 1 "cannot read '$tmp/nope.md'" -- sh "$recipes" check "$tmp/nope.md"
	expect 2 "^usage: " -- sh "$recipes" list
}

# docs/measurements.md's benchmark table is made from results/bench/*.json.
test_bench_table() {
	check "the benchmark table is the committed figures' (make bench-table)" \
		sh "$top/tests/bench/table.sh" --check
}

run_tests "$@"
