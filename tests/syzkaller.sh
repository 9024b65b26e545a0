#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The crash classifier held to syzkaller's: `scaletest triage` over every
# log of syzkaller's corpus of Linux crash reports (tests/fixtures/
# syzkaller/linux-report, its README says whence), against the title
# (TITLE: or an ALT:) and type (TYPE:) syzkaller gives each, or none.
# Fails below the goals: at least 95% of the crashes syzkaller does not
# mark corrupted found, at most 1 crash found in a log without one, at
# least 80% of those found titled as syzkaller titles them; and when
# tests/fixtures/syzkaller/mismatches, which lists every log that differs
# and why, has gone stale either way.  Also: no title holds a pid, an
# address, an offset, a line number, a timestamp, a duration or a path.
#
#	sh tests/syzkaller.sh			# the figures and the goals
#	SYZKALLER_VERBOSE=1 sh tests/syzkaller.sh	# and each log that differs
# suite: quick
set -u

SUITE=syzkaller
. "$(dirname "$0")/lib.sh"

corpus=$fx/syzkaller/linux-report
list=$fx/syzkaller/mismatches

# classify: triage over the corpus, once per suite run (every test needs
# it); $tmp/both then holds one row per log (name, corrupted, expected
# title, type, alternatives; the title, type and class triage gave),
# $tmp/figures the counts, $tmp/differ what differs and how, and
# $tmp/badexit the logs triage answered with neither 0 nor 1.
classify() {
	[ -s "$tmp/figures" ] && return 0
	mkdir -p "$tmp/log" "$tmp/out"
	: > "$tmp/badexit"
	# Each file: its log (syzkaller's test drops every CR and the
	# "REPORT:" section); triage must answer 0 (nothing) or 1 (found).
	for f in "$corpus"/*; do
		name=${f##*/}
		sed -e '0,/^$/d' -e '/^REPORT:$/,$d' -e 's/\r//g' "$f" > "$tmp/log/$name"
		"$bin" triage "$tmp/log/$name" > "$tmp/out/$name" 2>&1
		rc=$?
		[ $rc -le 1 ] || echo "$name $rc" >> "$tmp/badexit"
	done
	# One row per log: name, corrupted, expected title, type and alternatives;
	# the title, type and class triage gave.
	(cd "$corpus" && awk '
		FNR == 1 { if (name != "") row(); name = FILENAME; title = type = alts = ""; corrupted = "N" }
		/^$/ { nextfile }
		/^TITLE: / { title = substr($0, 8) }
		/^TYPE: / { type = substr($0, 7) }
		/^ALT: / { alts = alts "\034" substr($0, 6) }
		/^CORRUPTED: Y/ { corrupted = "Y" }
		function row() { printf "%s\t%s\t%s\t%s\t%s\n", name, corrupted, title, type == "" ? "UNKNOWN" : type, alts }
		END { row() }' *) | sort > "$tmp/want"
	(cd "$tmp/out" && awk '
		FNR == 1 { if (name != "") row(); name = FILENAME; title = type = cls = ""; done = 0 }
		/^context:$/ { done = 1 }
		!done && /^title: / { title = substr($0, 8) }
		!done && /^type: / { type = substr($0, 7) }
		!done && /^class: / { cls = substr($0, 8) }
		function row() { printf "%s\t%s\t%s\t%s\n", name, title, type, cls }
		END { row() }' *) | sort > "$tmp/got"
	join -t "$(printf '\t')" "$tmp/want" "$tmp/got" > "$tmp/both"

	# What differs: missed (a crash not found), false-positive (one found in a
	# log without), title (found, titled otherwise), type (titled alike, typed
	# otherwise).
	awk -F '\t' '
		{ name = $1; corrupted = $2; want = $3; wtype = $4; alts = $5; got = $6; gtype = $7 }
		want == "" {
			clean++
			if (got != "") { fp++; print name, "false-positive" > "/dev/stderr" }
			next
		}
		{
			same = got == want
			n = split(alts, a, "\034")
			for (i = 2; i <= n; i++)
				if (got == a[i])
					same = 1
			if (corrupted == "N") crashes++
			if (got == "") { what = "missed" }
			else {
				if (corrupted == "N") found++
				if (same && corrupted == "N") titled++
				if (!same) what = "title"
				else if (got == want && gtype != wtype) what = "type"
				else what = ""
			}
			if (what != "") print name, what > "/dev/stderr"
		}
		END {
			printf "%d %d %d %d %d\n", crashes, found, clean, fp, titled
		}' "$tmp/both" > "$tmp/figures" 2> "$tmp/differ"
	read crashes found clean fp titled < "$tmp/figures"
	echo "syzkaller corpus: $found of $crashes crashes found ($((found * 1000 / crashes)) per mille)," \
		"$fp false positives in $clean logs without one," \
		"$titled of $found found titled as syzkaller ($((titled * 1000 / found)) per mille)" >&2
}

figures() {
	classify
	read crashes found clean fp titled < "$tmp/figures"
}

test_every_log_classified() {
	classify
	check "triage answers every log with 0 or 1 (not: $(tr '\n' ' ' < "$tmp/badexit"))" \
		test ! -s "$tmp/badexit"
	check "every log classified" test "$(wc -l < "$tmp/both")" -eq "$(ls "$corpus" | wc -l)"
}

test_found_at_least_95_percent() {
	figures
	check "found $found of $crashes crashes: below 95%" test $((found * 100)) -ge $((crashes * 95))
}

test_at_most_one_false_positive() {
	figures
	check "$fp false positives: more than 1" test "$fp" -le 1
}

test_titled_as_syzkaller_at_least_80_percent() {
	figures
	check "titled $titled of $found as syzkaller: below 80%" test $((titled * 100)) -ge $((found * 80))
}

# The list of what differs, and why, is kept up to date: the same logs,
# each the same way, each reason one of the categories its header names.
test_mismatches_listed_with_reasons() {
	classify
	sort "$tmp/differ" > "$tmp/differ.sorted"
	grep -v '^#' "$list" | awk 'NF { print $1, $2 }' | sort > "$tmp/listed"
	checked
	if ! cmp -s "$tmp/differ.sorted" "$tmp/listed"; then
		fail "$list is stale (-: listed, +: what differs now)"
		diff -u "$tmp/listed" "$tmp/differ.sorted" | sed -n 's/^[-+][^-+]/    &/p' >&2
	fi
	grep -v '^#' "$list" | awk 'NF { sub(/:$/, "", $3); print $3 }' | sort -u > "$tmp/reasons"
	sed -n 's/^#   \([a-z-]*\):.*/\1/p' "$list" | sort -u > "$tmp/categories"
	bad=$(comm -23 "$tmp/reasons" "$tmp/categories")
	check "$list: reasons not among its categories: $bad" test -z "$bad"
	if [ -n "${SYZKALLER_VERBOSE:-}" ]; then
		while read -r name what; do
			printf '%s %s\t%s | %s\n' "$name" "$what" \
				"$(awk -F '\t' -v n="$name" '$1 == n { print $3 }' "$tmp/both")" \
				"$(awk -F '\t' -v n="$name" '$1 == n { print $6 " (" $7 ")" }' "$tmp/both")" >&2
		done < "$tmp/differ.sorted"
	fi
}

# What varies between two nights is out of every title: addresses,
# offsets, pids (comm/pid, pid:N), source lines, timestamps, durations,
# paths.
test_titles_hold_nothing_that_varies() {
	classify
	cut -f 6 "$tmp/both" | grep -E \
		'0x[0-9a-fA-F]|(^|[^A-Za-z0-9_])[0-9a-f]{8,}([^A-Za-z0-9_]|$)|\+0x|/0x|/[0-9]+|pid[: ]*[0-9]|\.[ch]:[0-9]|\[ *[0-9]+\.[0-9]+\]|[0-9]+ ?(s|secs|seconds|ms|jiffies)([^a-z]|$)|(^| )/[^ ]' \
		> "$tmp/unstable"
	check "titles with what varies: $(head -n 3 "$tmp/unstable" | tr '\n' '|')" test ! -s "$tmp/unstable"
}

run_tests "$@"
