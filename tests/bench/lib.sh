# SPDX-License-Identifier: Apache-2.0
# Sourced by every benchmark: its work directory, and the JSON file of
# figures it leaves behind (the fields are described in tests/bench/README).
#
#	. "$(dirname "$0")/lib.sh"
#	bench_init NAME REPEATS ARG...     # ARG...: the resolved arguments
#	bench_side SIDE COMMAND            # what one side runs, in words
#	bench_metric NAME UNIT COUNT SIDES RATIO WHAT
#	bench_value METRIC SIDE NUMBER     # one measurement, COUNT per side
#	bench_finish                       # writes the JSON, prints the medians
#
# SIDES is a space-separated list of side names; RATIO is "B/A" (the
# median of side B over the median of side A) or "-" for none; with a
# ratio the JSON also has the pairs' own: the median, least and most of
# B[i] / A[i], the i-th value of each side (the benchmarks alternate the
# sides, so a pair shares its moment's load: steadier than the medians'
# ratio on a shared machine); COUNT is
# how many values each side must have, usually REPEATS.  Numbers only:
# bench_value refuses anything else, and jq builds the file, so strings
# are escaped properly.  The file is $BENCH_OUT/<stamp>-NAME.json
# (BENCH_OUT defaults to results/bench), written under a temporary name
# and renamed into place.
#
# tests/lib.sh (sourced here) gives $top (the tree), $bin (bin/scaletest, or
# $SCALETEST_BIN) and say; this adds $work (its $tmp: a temporary
# directory removed on exit), $mkcpio (build/bench/mkcpio),
# bench_die MESSAGE, bench_run OUT SCENARIO ARG..., bench_now (seconds, for wall times), bench_median
# (of numbers on stdin) and bench_validate FILE (checks a file's shape).

. "$(dirname "$0")/../lib.sh"
mkcpio=$build/bench/mkcpio

bench_die() {
	echo "bench: $*" >&2
	exit 1
}

bench_now() { date +%s.%N; }

# bench_run OUT SCENARIO ARG...: one harness run into OUT, quiet, its
# stderr kept in OUT.err; a run that does not pass ends the benchmark
# (its figures would mean nothing), quoting the end of that stderr.
bench_run() {
	_out=$1
	shift
	"$bin" run "$@" --out "$_out" --quiet 2>"$_out.err" ||
		{ tail -n 5 "$_out.err" >&2; bench_die "the run in $_out did not pass"; }
}

# bench_vm_of RESULT.json: what a harness run booted, for a bare QEMU of
# the same: $kernel, $initrd (its initramfs), $arch, $accel and $qemu.
bench_vm_of() {
	kernel=$(jq -r .kernel.image "$1")
	initrd=$(jq -r .vm.initramfs "$1")
	arch=$(jq -r .kernel.arch "$1")
	accel=$(jq -r .vm.accel "$1")
	qemu=qemu-system-x86_64
	[ "$arch" = i386 ] && qemu=qemu-system-i386
	:
}

bench_median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# A word of a command line, quoted for sh when it needs it; paths inside the
# tree are shown relative to it.
bench_quote() {
	a=$1
	case $a in
	"$top"/*) a=${a#"$top"/} ;;
	esac
	case $a in
	'' | *[!A-Za-z0-9_./=:,+@%-]*)
		printf "'%s'" "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")" ;;
	*) printf '%s' "$a" ;;
	esac
}

bench_init() { # NAME REPEATS ARG...
	bench_name=$1
	bench_repeats=$2
	shift 2
	case $bench_repeats in
	'' | *[!0-9]* | 0) echo "bench: repeats must be a positive number, not '$bench_repeats'" >&2; exit 2 ;;
	esac
	command -v jq >/dev/null 2>&1 || { echo "bench: jq is missing (make deps-test installs it)" >&2; exit 3; }
	[ -x "$bin" ] || { echo "bench: '$bin' is not built (make)" >&2; exit 3; }
	work=$tmp
	bench_command="sh tests/bench/$bench_name.sh"
	for a in "$@"; do
		bench_command="$bench_command $(bench_quote "$a")"
	done
	bench_started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	bench_stamp=$(date -u +%Y%m%d-%H%M%S)
	bench_load0=$(cut -d' ' -f1 /proc/loadavg)
	: > "$work/.sides"
	: > "$work/.metrics"
	: > "$work/.values"
}

bench_side() { # SIDE COMMAND
	printf '%s\t%s\n' "$1" "$(printf '%s' "$2" | tr '\t\n' '  ')" >> "$work/.sides"
}

bench_metric() { # NAME UNIT COUNT SIDES RATIO WHAT
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" >> "$work/.metrics"
}

bench_value() { # METRIC SIDE NUMBER
	case $3 in
	'' | *[!0-9.eE+-]* | *[!0-9]) bench_die "$1 of $2: '$3' is not a number" ;;
	esac
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$work/.values"
}

# The JSON of figures, from the files bench_side, bench_metric and
# bench_value filled.  Medians and ratios are computed here, once.
bench_json() {
	jq -n \
		--arg bench "$bench_name" --arg command "$bench_command" \
		--arg started "$bench_started" --arg finished "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
		--arg version "$("$bin" --version 2>/dev/null | sed 's/^scaletest //')" \
		--arg qemu "$(qemu-system-x86_64 --version 2>/dev/null | head -n 1)" \
		--argjson repeats "$bench_repeats" --argjson cpus "$(nproc)" \
		--argjson load0 "$bench_load0" --argjson load1 "$(cut -d' ' -f1 /proc/loadavg)" \
		--rawfile sides "$work/.sides" --rawfile metrics "$work/.metrics" \
		--rawfile values "$work/.values" '
	def rows: split("\n") | map(select(length > 0) | split("\t"));
	def median: sort | if length == 0 then null
		elif length % 2 == 1 then .[(length - 1) / 2]
		else (.[length / 2 - 1] + .[length / 2]) / 2 end;
	($values | rows | map({m: .[0], s: .[1], v: (.[2] | tonumber)})) as $v
	| {schema: 1, bench: $bench, command: $command,
	   started: $started, finished: $finished, scaletest: $version,
	   host: {cpus: $cpus, loadavg_start: $load0, loadavg_end: $load1, qemu: $qemu},
	   repeats: $repeats,
	   sides: ($sides | rows | map({name: .[0], command: .[1]})),
	   metrics: ($metrics | rows | map(
		. as [$name, $unit, $count, $sidelist, $ratio, $what]
		| ($sidelist | split(" ")) as $ss
		| ($ss | map(. as $s | {key: $s, value: [$v[] | select(.m == $name and .s == $s) | .v]})
		   | from_entries) as $vals
		| ($vals | map_values(median)) as $med
		| {name: $name, unit: $unit, what: $what, count: ($count | tonumber),
		   values: $vals, median: $med,
		   ratio: (if $ratio == "-" then null
			   else ($ratio | split("/")) as [$n, $d]
			   | ([range(0; [($vals[$n] | length), ($vals[$d] | length)] | min)]
			      | map(. as $i | if $vals[$d][$i] == 0 then null else $vals[$n][$i] / $vals[$d][$i] end)) as $pr
			   | {of: $ratio,
			      value: (if $med[$d] == null or $med[$n] == null or $med[$d] == 0 then null
				      else $med[$n] / $med[$d] end),
			      paired: (if ($pr | length) == 0 or any($pr[]; . == null) then null
				       else {median: ($pr | median), min: ($pr | min), max: ($pr | max)} end)} end)}))}'
}

# Checks the shape of a benchmark's JSON: the fixed keys, numbers where
# numbers belong, every side of every metric with its count of values,
# a median for each and a ratio where one was asked for.  Prints what is
# wrong and returns 1.
bench_validate() { # FILE
	problems=$(jq -r '
	def num: type == "number";
	[(.sides // [])[] | .name] as $names
	| [ (if .schema == 1 then empty else "schema is not 1" end),
	  (if (.bench | type) == "string" and (.command | type) == "string"
	      and (.started | type) == "string" and (.finished | type) == "string"
	   then empty else "bench, command, started or finished missing" end),
	  (if (.repeats | num) and .repeats > 0 then empty else "repeats is not a positive number" end),
	  (if (.host.cpus | num) then empty else "host.cpus is not a number" end),
	  (if (.sides | length) > 0 and all(.sides[]; (.name | type) == "string" and (.command | type) == "string")
	   then empty else "sides missing or without a command" end),
	  (if (.metrics | length) > 0 then empty else "no metrics" end),
	  (.metrics[] | . as $m
	   | (if (.count | num) and .count > 0 then empty else "\($m.name): count is not a positive number" end),
	     (.values | to_entries[]
	      | (if (.value | length) == $m.count then empty
		 else "\($m.name) of \(.key): \(.value | length) values, not \($m.count)" end),
		(if all(.value[]; num) then empty else "\($m.name) of \(.key): a value is not a number" end),
		(if ($m.median[.key] | num) then empty else "\($m.name) of \(.key): no median" end),
		(.key as $k | if any($names[]; . == $k) then empty
		 else "\($m.name): side \($k) is not among the sides" end)),
	     (if .ratio == null or (.ratio.value | num) then empty
	      else "\($m.name): ratio \(.ratio.of) is not a number" end))
	] | .[]' "$1") || { echo "bench: $1: not JSON of figures" >&2; return 1; }
	[ -z "$problems" ] && return 0
	printf '%s\n' "$problems" | sed "s|^|bench: $1: |" >&2
	return 1
}

# Writes the JSON, checks it, and prints each metric's medians and ratio.
bench_finish() {
	out=${BENCH_OUT:-$top/results/bench}
	mkdir -p "$out"
	file=$out/$bench_stamp-$bench_name.json
	bench_json > "$work/.json" || bench_die "cannot make the JSON of figures"
	bench_validate "$work/.json" || exit 1
	mv "$work/.json" "$file.tmp" && mv "$file.tmp" "$file" || bench_die "cannot write '$file'"
	jq -r '.metrics[] | "bench: median \(.what) (\(.unit)): "
		+ ([.median | to_entries[] | "\(.key) \(.value * 1000 | round / 1000)"] | join(", "))
		+ (if .ratio.value != null then "; \(.ratio.of) \(.ratio.value * 100 | round / 100)" else "" end)
		+ (if .ratio.paired != null then ", pair by pair \(.ratio.paired.median * 100 | round / 100) (\(.ratio.paired.min * 100 | round / 100) to \(.ratio.paired.max * 100 | round / 100))" else "" end)' "$file"
	echo "bench: figures in $(bench_quote "$file")"
}
