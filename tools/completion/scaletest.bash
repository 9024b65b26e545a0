# SPDX-License-Identifier: Apache-2.0
# bash completion for scaletest(1)                     -*- shell-script -*-
#
# Installed as share/bash-completion/completions/scaletest.  What to offer
# is scaletest's own answer ('scaletest __complete WORD...', harness/cli/
# cmd_complete.c: the command table, each command's usage, the scenario
# keys), so it never goes stale and the zsh and fish completions beside
# this one offer the same words (tests/completion.sh checks all three).
# Its last line says what else: file or folder names, or no space after
# the word (KEY=).

_scaletest()
{
	local cur line kind=words
	local -a words=()
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	while IFS= read -r line; do
		case $line in
		:*) kind=${line#:} ;;
		*) words+=("${line%%$'\t'*}") ;;
		esac
	done < <("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
	COMPREPLY=("${words[@]}")
	case $kind in
	nospace)
		compopt -o nospace 2>/dev/null
		;;
	files)
		compopt -o filenames 2>/dev/null
		while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen -f -- "$cur")
		;;
	dirs)
		compopt -o filenames 2>/dev/null
		while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen -d -- "$cur")
		;;
	esac
	return 0
}
complete -F _scaletest scaletest
