#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The shells' completions (tools/completion/: bash, zsh, fish) against
# the tables they come from.  Each asks 'scaletest __complete WORD...'
# (harness/cli/cmd_complete.c) and adapts its answer to its shell:
#
#   1. __complete against the tables: the commands of --help, the scenario
#      keys of 'scaletest keys', every option a command's usage lists on a
#      line of its own (and none of another command's), the verbs of its
#      usage lines, what an option's argument is (--out DIR: folders;
#      --format md|mdoc: those words);
#   2. each shell against __complete, over the same command lines: the
#      same words offered (file and folder names included, in a folder
#      made for it), no space after KEY= where the shell is told that.
#      bash and fish really complete (bash's completion function, fish's
#      complete -C); zsh's completion system runs only inside its line
#      editor, so _scaletest runs with _describe and _files standing in,
#      which print what they were given (the words, -S '', -/).
#
#   sh tests/completion.sh            (make check runs it)
#   sh tests/completion.sh 'agree_*'  some tests (--list names them)
#
# A shell that is not installed is skipped (make deps-test installs them).
# suite: quick
set -u

. "$(dirname "$0")/lib.sh"
comp=$top/tools/completion
mkdir -p "$tmp/path" "$tmp/cwd/dird" "$tmp/cwd/dire"
ln -sf "$bin" "$tmp/path/scaletest"
: > "$tmp/cwd/a.scn"
: > "$tmp/cwd/dfile"
PATH=$tmp/path:$PATH
export PATH

# The command lines: the words after "scaletest", then "|" and the word
# being completed (empty: a new word).
cases='|
|ru
help|
run|--
run --set|
run --set|di
run --out|
run|
run|d
keys --format|
kernel|
kernel build --arch|
kernel build --source|
cache|
baseline|l
report --replay|d
compare|--
bisect --good|
sweep|--s
nosuchcommand|
gc --keep|'

# words CASE: the words before the current one, one a line.
before() { printf '%s\n' "${1%|*}" | tr ' ' '\n' | sed '/^$/d'; }
current() { printf '%s' "${1##*|}"; }

# ref CASE: what __complete offers (the words, sorted) and its last line,
# with the names of the folder made for it where it says :files or :dirs.
ref() {
	set -f
	# shellcheck disable=SC2046
	(cd "$tmp/cwd" && scaletest __complete $(before "$1") "$(current "$1")") > "$tmp/ref.raw"
	set +f
	kind=$(tail -n 1 "$tmp/ref.raw")
	{
		sed '$d' "$tmp/ref.raw" | cut -f1
		cur=$(current "$1")
		case $kind in
		:files) (cd "$tmp/cwd" && for f in "$cur"*; do [ -e "$f" ] && echo "$f"; done) ;;
		:dirs) (cd "$tmp/cwd" && for f in "$cur"*; do [ -d "$f" ] && echo "$f"; done) ;;
		esac
	} | LC_ALL=C sort
}

# with_bash CASE: what bash's completion offers (sorted), then "nospace"
# if it asked for it.
with_bash() {
	(cd "$tmp/cwd" && bash -c '
		out=$1
		compopt() { case "$*" in *nospace*) echo nospace > "$out.nospace" ;; esac; }
		. "$2"
		COMP_WORDS=(scaletest "${@:4}")
		COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
		_scaletest
		printf "%s\n" "${COMPREPLY[@]}" | sed "/^\$/d" | LC_ALL=C sort
	' sh "$tmp/bash" "$comp/scaletest.bash" "" $(before "$1") "$(current "$1")")
	[ ! -e "$tmp/bash.nospace" ] || { echo nospace; rm -f "$tmp/bash.nospace"; }
}

# with_fish CASE: what fish's complete -C offers (sorted; folders without
# their trailing /).
with_fish() {
	line="scaletest $(before "$1" | tr '\n' ' ')$(current "$1")"
	(cd "$tmp/cwd" && fish -N -c 'source $argv[1]; complete -C $argv[2]' "$comp/scaletest.fish" "$line") |
		cut -f1 | sed 's|/$||' | LC_ALL=C sort
}

# with_zsh CASE: what _scaletest hands _describe and _files (sorted),
# then "nospace" if it passed -S ''.
with_zsh() {
	(cd "$tmp/cwd" && zsh -f -c '
		fpath=($1 $fpath)
		autoload -Uz _scaletest
		_describe() {
			local e; local -a a
			a=("${(@P)4}")
			for e in "${a[@]}"; do print -r -- "${${e%%:*}//\\\\/}"; done
			[[ $5 == -S && -z $6 ]] && print -r -- nospace > $out.nospace
			return 0
		}
		_files() {
			local -a f
			if [[ $1 == -/ ]]; then f=(${PREFIX}*(N/)); else f=(${PREFIX}*(N)); fi
			print -rl -- $f
		}
		shift
		out=$1; shift
		words=(scaletest "$@")
		CURRENT=${#words}
		PREFIX=${words[CURRENT]}
		_scaletest | LC_ALL=C sort
		[[ -e $out.nospace ]] && { print nospace; rm -f $out.nospace }
	' zsh "$comp" "$tmp/zsh" $(before "$1") "$(current "$1")")
}

# 1: __complete against the tables.
test_commands_are_the_table() {
	"$bin" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }' > "$tmp/want"
	printf '%s\n' help --help --version >> "$tmp/want"
	LC_ALL=C sort -o "$tmp/want" "$tmp/want"
	check "the --help lists no command" test -s "$tmp/want"
	ref '|' > "$tmp/got"
	checked
	diff -u "$tmp/want" "$tmp/got" >&2 || fail "__complete's commands are not those of --help"
}

test_keys_are_the_key_table() {
	"$bin" keys | sed -n 's/^| `\([a-z_0-9]*\)` .*/\1=/p' | LC_ALL=C sort > "$tmp/want"
	check "scaletest keys lists no key" test -s "$tmp/want"
	ref 'run --set|' > "$tmp/got"
	checked
	diff -u "$tmp/want" "$tmp/got" >&2 || fail "__complete's --set words are not the key table's"
	check "KEY= is completed without a space after it" \
		sh -c "scaletest __complete run --set '' | tail -n 1 | grep -qx :nospace"
}

# Every command: the options its usage lists, each on a line of its own,
# are offered; every option offered is in its usage.
test_options_are_the_usage() {
	for c in $(ref '|' | grep '^[a-z]' | grep -v '^help$'); do
		"$bin" "$c" -h > "$tmp/usage"
		sed -n 's/^ \{1,\}\(--[a-z][a-z0-9-]*\).*/\1/p' "$tmp/usage" | LC_ALL=C sort -u > "$tmp/listed"
		ref "$c|--" > "$tmp/got"
		checked
		if [ -n "$(LC_ALL=C comm -23 "$tmp/listed" "$tmp/got")" ]; then
			fail "$c: options its usage lists that are not offered: $(LC_ALL=C comm -23 "$tmp/listed" "$tmp/got" | tr '\n' ' ')"
		fi
		for o in $(cat "$tmp/got"); do
			checked
			grep -q -- "$o\\([^a-z0-9-]\\|\$\\)" "$tmp/usage" || fail "$c: '$o' offered, not in its usage"
		done
	done
	ref 'compare|--' > "$tmp/got"
	check "compare offers run's --repeat, which its usage only mentions" sh -c "! grep -qx -- --repeat '$tmp/got'"
}

test_verbs_are_the_usage() {
	for c in kernel cache baseline; do
		"$bin" "$c" -h | sed -n "s/.*scaletest $c \\([a-z][a-z]*\\)\\( .*\\)\\{0,1\\}\$/\\1/p" | LC_ALL=C sort -u > "$tmp/want"
		check "$c: its usage names no verb" test -s "$tmp/want"
		ref "$c|" > "$tmp/got"
		checked
		diff -u "$tmp/want" "$tmp/got" >&2 || fail "$c: the verbs offered are not its usage's"
	done
	ref 'run|' > "$tmp/got"
	check "run (no verbs) completes file names" grep -qx a.scn "$tmp/got"
}

test_option_arguments() {
	check "--out DIR: folders" sh -c "cd '$tmp/cwd' && scaletest __complete run --out '' | tail -n 1 | grep -qx :dirs"
	check "--format md|mdoc: the words" sh -c "[ \"\$(cd '$tmp/cwd' && scaletest __complete keys --format '' | tr '\n' ' ')\" = 'md mdoc :words ' ]"
	check "--good REV: nothing" sh -c "[ \"\$(cd '$tmp/cwd' && scaletest __complete bisect --good '' | tr '\n' ' ')\" = ':words ' ]"
	check "--source debian|...|PATH: debian and files" \
		sh -c "[ \"\$(cd '$tmp/cwd' && scaletest __complete kernel build --source '' | tr '\n' ' ')\" = 'debian :files ' ]"
}

# 2: each shell against __complete.
agree() { # SHELL CASE
	ref "$2" > "$tmp/want"
	case $(tail -n 1 "$tmp/ref.raw") in :nospace) echo nospace >> "$tmp/want" ;; esac
	case $1 in
	bash) with_bash "$2" ;;
	zsh) with_zsh "$2" ;;
	fish) with_fish "$2"
	      # fish puts no space after a word ending in =: nothing to ask
	      case $(tail -n 1 "$tmp/ref.raw") in :nospace) echo nospace ;; esac ;;
	esac > "$tmp/got" 2> "$tmp/err"
	checked
	if ! diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then
		fail "$1: 'scaletest $(printf '%s' "$2" | tr '|' ' ')' does not offer what __complete does"
		sed 's/^/    /' "$tmp/diff" "$tmp/err" >&2
	fi
}

agree_all() { # SHELL
	if ! command -v "$1" > /dev/null 2>&1; then
		skip "no $1 (make deps-test)"
		return
	fi
	while IFS= read -r c; do
		agree "$1" "$c"
	done <<EOF
$cases
EOF
}

test_agree_bash() { agree_all bash; }
test_agree_zsh() { agree_all zsh; }
test_agree_fish() { agree_all fish; }

# Each completion asks the binary it completes for, by its own name.
test_scripts_ask_complete() {
	for f in scaletest.bash _scaletest scaletest.fish; do
		check "$f does not ask '__complete'" grep -q '__complete' "$comp/$f"
	done
	check "_scaletest is not a zsh completion function (#compdef)" sh -c "head -n 1 '$comp/_scaletest' | grep -qx '#compdef scaletest'"
}

run_tests "$@"
