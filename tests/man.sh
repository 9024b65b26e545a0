#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The manual pages (docs/man/): scaletest(1), one page per command,
# scaletest-scenario(5).
#
#   1. mandoc -Tlint clean, at every level (style included), with the
#      pages' cross references resolved among themselves only (-M: a
#      manpath of them, indexed by makewhatis; the host's pages do not count);
#   2. one page per command of the command table (scaletest --help lists
#      it), each named in scaletest(1), and no page for a command that is
#      not there;
#   3. every option a command's -h text names is in its page (rendered:
#      what a reader sees), so the pages say what --help says;
#   4. scaletest-scenario(5)'s key list is what 'scaletest keys --format
#      mdoc' prints from the key table (make man-keys rewrites it);
#   5. 'scaletest help CMD' and 'scaletest CMD --help' show the page on a
#      terminal (script(1) gives them one; MANPAGER=cat), the text off one;
#      -h is the text on a terminal too; 'help scenario' shows the
#      scenario page;
#   6. man -l renders every page without a word on standard error.
#
#   sh tests/man.sh               (make check runs it)
#   sh tests/man.sh 'help_*'      some tests (--list names them)
# suite: quick
set -u

. "$(dirname "$0")/lib.sh"
man=$top/docs/man

# A page as a reader sees it: mandoc's text, overstrikes (bold) removed.
render() {
	mandoc -Tascii "$1" | sed 's/.\x08//g'
}

# The commands scaletest --help lists, one a line, in $tmp/commands.
commands() {
	"$bin" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }' \
		> "$tmp/commands"
}

# onterm COMMAND: COMMAND (a shell command line) run on a pseudo-terminal
# by script(1), its output with the CR of its CR LF removed.
# (groff 1.23, trixie's, underlines and bolds with SGR escapes on a
# terminal: taken out, as a reader's eye does.)
onterm() {
	MANPAGER=cat PAGER=cat MANWIDTH=80 "$script" -qec "$*" /dev/null < /dev/null | tr -d '\r' |
		sed "s/$(printf '\033')\[[0-9;]*m//g"
}

# 1: lint, with a manpath of the pages so that .Xr finds them (the host's
# pages do not count).
test_lint() {
	rm -rf "$tmp/mp"
	mkdir -p "$tmp/mp/man1" "$tmp/mp/man5"
	cp "$man"/*.1 "$tmp/mp/man1/"
	cp "$man"/*.5 "$tmp/mp/man5/"
	check "makewhatis failed" "$makewhatis" "$tmp/mp"
	for p in "$man"/*.1 "$man"/*.5; do
		checked
		if ! mandoc -Tlint -W style -M "$tmp/mp" "$p" > "$tmp/lint" 2>&1 || [ -s "$tmp/lint" ]; then
			fail "$(basename "$p"): mandoc -Tlint"
			sed 's/^/    /' "$tmp/lint" >&2
		fi
	done
}

# 2: a page per command, each named in scaletest(1), and no other.
test_page_per_command() {
	commands
	check "scaletest --help lists no command" [ -s "$tmp/commands" ]
	render "$man/scaletest.1" > "$tmp/scaletest.txt"
	while read -r c; do
		check "no page for '$c': docs/man/scaletest-$c.1" [ -f "$man/scaletest-$c.1" ]
		[ -f "$man/scaletest-$c.1" ] || continue
		check "scaletest(1) does not name scaletest-$c(1)" grep -q "scaletest-$c(1)" "$tmp/scaletest.txt"
	done < "$tmp/commands"
}

test_no_page_without_command() {
	commands
	for p in "$man"/scaletest-*.1; do
		c=$(basename "$p" .1)
		c=${c#scaletest-}
		check "$(basename "$p"): no command '$c' in scaletest --help" grep -qx "$c" "$tmp/commands"
	done
}

# 3: every option of a command's -h in its page, every option of --help
# in scaletest(1).
test_command_options_in_pages() {
	commands
	while read -r c; do
		[ -f "$man/scaletest-$c.1" ] || continue
		render "$man/scaletest-$c.1" > "$tmp/page"
		"$bin" "$c" -h | grep -o -- '--[a-z][a-z0-9-]*' | sort -u > "$tmp/opts"
		while read -r o; do
			check "scaletest-$c(1) does not name $o, which '$c -h' does" grep -q -- "$o" "$tmp/page"
		done < "$tmp/opts"
	done < "$tmp/commands"
}

test_global_options_in_scaletest_1() {
	render "$man/scaletest.1" > "$tmp/scaletest.txt"
	"$bin" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u > "$tmp/opts"
	while read -r o; do
		check "scaletest(1) does not name $o, which --help does" grep -q -- "$o" "$tmp/scaletest.txt"
	done < "$tmp/opts"
}

# 4: the scenario page's keys are the key table's.
test_scenario_keys_current() {
	checked
	sed -n '/^\.\\" keys:start$/,/^\.\\" keys:end$/p' "$man/scaletest-scenario.5" | sed '1d;$d' \
		> "$tmp/page-keys"
	"$bin" keys --format mdoc > "$tmp/keys"
	if ! diff -u "$tmp/keys" "$tmp/page-keys" >&2; then
		fail "scaletest-scenario(5)'s key list is stale: make man-keys"
	fi
}

# 5: help on a terminal and off one.  script(1) runs the command on a
# pseudo-terminal; its output (CR LF) is compared line by line.
test_help_on_terminal_is_the_page() {
	onterm "'$bin' help run" > "$tmp/term"
	checked
	if ! grep -q '^SCALETEST-RUN(1)' "$tmp/term"; then
		fail "help run on a terminal: no manual page"
		head -5 "$tmp/term" >&2
	fi
	onterm "'$bin' report --help" > "$tmp/term"
	check "report --help on a terminal: no manual page" grep -q '^SCALETEST-REPORT(1)' "$tmp/term"
	onterm "'$bin' kernel build --help" > "$tmp/term"
	check "kernel build --help on a terminal: no manual page" grep -q '^SCALETEST-KERNEL(1)' "$tmp/term"
	onterm "'$bin' help scenario" > "$tmp/term"
	check "help scenario on a terminal: no manual page" grep -q '^SCALETEST-SCENARIO(5)' "$tmp/term"
}

test_short_help_on_terminal_is_the_text() {
	onterm "'$bin' run -h" > "$tmp/term"
	"$bin" run -h > "$tmp/want"
	check "run -h on a terminal is not the usage text" cmp -s "$tmp/term" "$tmp/want"
}

test_help_off_terminal_is_the_text() {
	"$bin" run -h > "$tmp/want"
	"$bin" help run > "$tmp/text"
	check "help run off a terminal is not the usage text" cmp -s "$tmp/text" "$tmp/want"
	"$bin" run --help > "$tmp/text"
	check "run --help off a terminal is not the usage text" cmp -s "$tmp/text" "$tmp/want"
	"$bin" help scenario > "$tmp/text"
	"$bin" keys > "$tmp/want"
	check "help scenario off a terminal is not the key reference" cmp -s "$tmp/text" "$tmp/want"
}

# Without man on PATH: the text, on a terminal too.
test_help_without_man_is_the_text() {
	rm -rf "$tmp/noman"
	mkdir "$tmp/noman"
	for c in sh tr sed; do ln -s "$(command -v $c)" "$tmp/noman/$c"; done
	PATH=$tmp/noman onterm "'$bin' help run" > "$tmp/term"
	"$bin" run -h > "$tmp/want"
	check "help run without man is not the usage text" cmp -s "$tmp/term" "$tmp/want"
}

# 6: man renders every page.
test_man_renders_every_page() {
	for p in "$man"/*.1 "$man"/*.5; do
		checked
		if ! MANWIDTH=80 man -l "$p" > "$tmp/page" 2> "$tmp/err" || [ -s "$tmp/err" ] || [ ! -s "$tmp/page" ]; then
			fail "man -l $(basename "$p")"
			sed 's/^/    /' "$tmp/err" >&2
		fi
	done
}

PATH=$PATH:/usr/sbin	# makewhatis, for a user without sbin on PATH
need mandoc makewhatis man script -- "make deps-test (mandoc, man-db, bsdutils)"
makewhatis=$(command -v makewhatis)
script=$(command -v script)
run_tests "$@"
