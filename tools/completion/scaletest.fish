# SPDX-License-Identifier: Apache-2.0
# fish completion for scaletest(1).
#
# Installed as share/fish/vendor_completions.d/scaletest.fish.  What to
# offer is scaletest's own answer ('scaletest __complete WORD...',
# harness/cli/cmd_complete.c), as for the bash and zsh completions beside
# this one, so the three offer the same words (tests/completion.sh checks
# it): lines "WORD" or "WORD<TAB>DESCRIPTION", which fish takes as they
# are, then one saying what else (:words, :nospace, :files, :dirs).

function __scaletest_complete
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -q cur[1]; or set cur ''
    set -l kind words
    for line in ($words[1] __complete $words[2..-1] $cur 2>/dev/null)
        switch $line
            case ':*'
                set kind (string sub -s 2 -- $line)
            case '*'
                printf '%s\n' $line
        end
    end
    switch $kind
        case files
            __fish_complete_path $cur
        case dirs
            __fish_complete_directories $cur ''
    end
end

complete -c scaletest -f -a '(__scaletest_complete)'
