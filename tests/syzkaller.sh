#!/bin/sh
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
#	sh tests/syzkaller.sh		# the figures; make check runs it
#	sh tests/syzkaller.sh -v	# and each log that differs, as mismatches lists it
set -u

NAME=syzkaller
. "$(dirname "$0")/lib.sh"

corpus=$fx/syzkaller/linux-report
list=$fx/syzkaller/mismatches
verbose=
[ "${1:-}" = -v ] && verbose=1
mkdir "$tmp/log" "$tmp/out"

# Each file: its log (syzkaller's test drops every CR and
# the "REPORT:" section); triage must answer 0 (nothing) or 1 (found).
for f in "$corpus"/*; do
	name=${f##*/}
	sed -e '0,/^$/d' -e '/^REPORT:$/,$d' -e 's/\r//g' "$f" > "$tmp/log/$name"
	"$bin" triage "$tmp/log/$name" > "$tmp/out/$name" 2>&1
	rc=$?
	n=$((n + 1))
	[ $rc -le 1 ] || fail "triage $name: exit $rc"
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
n=$((n + 1))
[ "$(wc -l < "$tmp/both")" -eq "$(ls "$corpus" | wc -l)" ] || fail "not every log was classified"

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
	"$titled of $found found titled as syzkaller ($((titled * 1000 / found)) per mille)"

n=$((n + 1))
[ $((found * 100)) -ge $((crashes * 95)) ] || fail "found $found of $crashes crashes: below 95%"
n=$((n + 1))
[ "$fp" -le 1 ] || fail "$fp false positives: more than 1"
n=$((n + 1))
[ $((titled * 100)) -ge $((found * 80)) ] || fail "titled $titled of $found as syzkaller: below 80%"

# The list of what differs, and why, is kept up to date: the same logs,
# each the same way.
sort "$tmp/differ" > "$tmp/differ.sorted"
grep -v '^#' "$list" | awk 'NF { print $1, $2 }' | sort > "$tmp/listed"
n=$((n + 1))
if ! cmp -s "$tmp/differ.sorted" "$tmp/listed"; then
	fail "$list is stale (-: listed, +: what differs now)"
	diff -u "$tmp/listed" "$tmp/differ.sorted" | sed -n 's/^[-+][^-+]/    &/p' >&2
fi
# Each reason is one of the categories the list's header names.
n=$((n + 1))
grep -v '^#' "$list" | awk 'NF { sub(/:$/, "", $3); print $3 }' | sort -u > "$tmp/reasons"
sed -n 's/^#   \([a-z-]*\):.*/\1/p' "$list" | sort -u > "$tmp/categories"
bad=$(comm -23 "$tmp/reasons" "$tmp/categories")
[ -z "$bad" ] || fail "$list: reasons not among its categories: $bad"
if [ -n "$verbose" ]; then
	while read -r name what; do
		printf '%s %s\t%s | %s\n' "$name" "$what" \
			"$(awk -F '\t' -v n="$name" '$1 == n { print $3 }' "$tmp/both")" \
			"$(awk -F '\t' -v n="$name" '$1 == n { print $6 " (" $7 ")" }' "$tmp/both")"
	done < "$tmp/differ.sorted"
fi

# What varies between two nights is out of every title: addresses,
# offsets, pids (comm/pid, pid:N), source lines, timestamps, durations,
# paths.
n=$((n + 1))
cut -f 6 "$tmp/both" | grep -E \
	'0x[0-9a-fA-F]|(^|[^A-Za-z0-9_])[0-9a-f]{8,}([^A-Za-z0-9_]|$)|\+0x|/0x|/[0-9]+|pid[: ]*[0-9]|\.[ch]:[0-9]|\[ *[0-9]+\.[0-9]+\]|[0-9]+ ?(s|secs|seconds|ms|jiffies)([^a-z]|$)|(^| )/[^ ]' \
	> "$tmp/unstable"
[ -s "$tmp/unstable" ] && fail "titles with what varies: $(head -n 3 "$tmp/unstable" | tr '\n' '|')"

done_tests
