# SPDX-License-Identifier: Apache-2.0
# bash completion for scaletest(1)                     -*- shell-script -*-
#
# Installed as share/bash-completion/completions/scaletest.  The commands
# and each command's options are read from scaletest itself ('scaletest
# --help', 'scaletest CMD -h'), so they never go stale; scenario files,
# run directories and other arguments complete as file names.

_scaletest()
{
	local cur prev cmd opts
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}

	if [ "$COMP_CWORD" -eq 1 ]; then
		opts=$("${COMP_WORDS[0]}" --help 2>/dev/null |
			awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
		COMPREPLY=($(compgen -W "$opts help --help --version" -- "$cur"))
		return 0
	fi
	cmd=${COMP_WORDS[1]}
	if [ "$cmd" = help ]; then
		opts=$("${COMP_WORDS[0]}" --help 2>/dev/null |
			awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
		COMPREPLY=($(compgen -W "$opts scenario" -- "$cur"))
		return 0
	fi
	case $prev in
	--set)
		# scenario keys, from the key reference
		opts=$("${COMP_WORDS[0]}" keys 2>/dev/null | sed -n 's/^| `\([a-z_0-9]*\)` .*/\1=/p')
		compopt -o nospace 2>/dev/null
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return 0
		;;
	--out|--baselines|--modules|--source|--patches|--baseline|--nightly|--replay)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur"))
		return 0
		;;
	esac
	if [ "$COMP_CWORD" -eq 2 ] && [[ $cur != -* ]]; then
		# a command's verbs (kernel build, cache list|clean, ...), from
		# its usage lines: "scaletest CMD VERB ..."
		opts=$("${COMP_WORDS[0]}" "$cmd" -h 2>/dev/null |
			awk -v c="$cmd" '/^$/ { exit } { for (i = 1; i < NF; i++)
				if ($i == "scaletest" && $(i + 1) == c && $(i + 2) ~ /^[a-z]+$/) print $(i + 2) }')
		if [ -n "$opts" ]; then
			COMPREPLY=($(compgen -W "$opts" -- "$cur"))
			return 0
		fi
	fi
	if [[ $cur == -* ]]; then
		opts=$("${COMP_WORDS[0]}" "$cmd" -h 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return 0
	fi
	compopt -o filenames 2>/dev/null
	COMPREPLY=($(compgen -f -- "$cur"))
	return 0
}
complete -F _scaletest scaletest
