#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The table of benchmark figures in docs/measurements.md (linked from the
# README), made from the benchmarks' JSON.
#
#   sh tests/bench/table.sh [FILE...]   print the Markdown table
#   sh tests/bench/table.sh --update    replace the copy in docs/measurements.md
#                                       (make bench-table)
#   sh tests/bench/table.sh --check     exit 1, with a diff, when that copy
#                                       differs from a regeneration
#
# Without FILEs the table is made from the files under results/bench/ that
# git knows (committed or added), so the document quotes only figures whose
# JSON is in the repository; outside a git checkout, from every file
# there.  For each command line the newest file counts.  One row per
# figure: on the first row of each benchmark its command, date, version
# and the host's 1-minute load average at its start and end (the machine
# is shared), then the medians of every side, the ratio, and how many
# runs each side had.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
readme=$top/docs/measurements.md
start='<!-- bench:start -->'
end='<!-- bench:end -->'

command -v jq >/dev/null 2>&1 || { echo "table: jq is missing (make deps-test installs it)" >&2; exit 3; }

committed() {
	if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$top" ls-files -z -- 'results/bench/*.json' | tr '\0' '\n' |
			while read -r f; do [ -f "$top/$f" ] && echo "$top/$f"; done
	else
		for f in "$top"/results/bench/*.json; do [ -f "$f" ] && echo "$f"; done
	fi
}

table() { # FILE...
	if [ $# -eq 0 ]; then
		echo "_No benchmark figures committed under results/bench/ yet._"
		return
	fi
	jq -s -r '
	def commas: if . < 1000 then tostring
		else ((. / 1000 | floor) | commas) + "," + ((. % 1000) | tostring | ("00" + .)[-3:]) end;
	def fixed($d): (. * pow(10; $d) | round) as $n
		| ($n | fabs | tostring) as $s
		| ([range(0; ([0, $d + 1 - ($s | length)] | max))] | map("0") | join("") + $s) as $p
		| (if $n < 0 then "-" else "" end)
		  + (if $d == 0 then $p else $p[:($p | length) - $d] + "." + $p[($p | length) - $d:] end);
	def num: if fabs >= 1000 or . == floor then (if . < 0 then "-" else "" end) + (fabs | round | commas)
		elif fabs >= 100 then fixed(0) elif fabs >= 10 then fixed(1) else fixed(2) end;
	def unit($u): if $u == "count" then "" else " " + $u end;
	def order($b): (["overhead", "monitor", "channel", "fio-range", "fio", "boot", "initramfs", "modload"] | index($b)) // 99;
	"| benchmark | figure | medians | ratio | runs | date, version, host load |",
	"|---|---|---|---|---:|---|",
	(group_by(.command) | map(max_by(.started))
	 | sort_by([order(.bench), .command])[]
	 | . as $r
	 | .metrics | to_entries[]
	 | .key as $i | .value as $m
	 | "| " + (if $i == 0 then "`" + $r.command + "`" else "" end)
	   + " | " + $m.what
	   + " | " + ([$m.median | to_entries[] | "\(.key) \(.value | num)\(unit($m.unit))"] | join(", "))
	   + " | " + (if $m.ratio.value == null then "" else "\($m.ratio.of) \($m.ratio.value | fixed(2))" end)
	   + " | " + ($m.count | tostring) + (if ($m.values | length) > 1 then " each" else "" end)
	   + " | " + (if $i == 0 then ($r.started[:10]) + ", " + $r.scaletest
			     + ", " + ($r.host.loadavg_start | fixed(1)) + "-" + ($r.host.loadavg_end | fixed(1))
			   else "" end)
	   + " |")' "$@"
}

readme_block() {
	awk -v s="$start" -v e="$end" '$0 == e { on = 0 } on { print } $0 == s { on = 1 }' "$readme"
}

case ${1:-} in
--update)
	tmp=$(mktemp "${TMPDIR:-/tmp}/scaletest-table.XXXXXX")
	trap 'rm -f "$tmp" "$tmp.readme"' EXIT
	# shellcheck disable=SC2046
	set -- $(committed)
	table "$@" > "$tmp"
	grep -qx "$start" "$readme" && grep -qx "$end" "$readme" ||
		{ echo "table: $readme has no '$start' ... '$end' lines" >&2; exit 1; }
	awk -v s="$start" -v e="$end" -v t="$tmp" '
		$0 == e { while ((getline l < t) > 0) print l; skip = 0 }
		!skip { print }
		$0 == s { skip = 1 }' "$readme" > "$tmp.readme"
	mv "$tmp.readme" "$readme"
	;;
--check)
	tmp=$(mktemp "${TMPDIR:-/tmp}/scaletest-table.XXXXXX")
	trap 'rm -f "$tmp" "$tmp.readme"' EXIT
	# shellcheck disable=SC2046
	set -- $(committed)
	table "$@" > "$tmp"
	readme_block > "$tmp.readme"
	if ! diff -u "$tmp.readme" "$tmp" >&2; then
		echo "table: the benchmark table of docs/measurements.md differs from results/bench/ (above); run 'make bench-table'" >&2
		exit 1
	fi
	;;
-*)
	echo "usage: sh tests/bench/table.sh [--update | --check | FILE...]" >&2
	exit 2
	;;
*)
	if [ $# -eq 0 ]; then
		# shellcheck disable=SC2046
		set -- $(committed)
	fi
	table "$@"
	;;
esac
