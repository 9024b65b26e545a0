#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Browser test of the HTML reports: render report.html of fixture runs,
# the page of the comparison fixture and the pages of two comparisons of
# three sides (scaletest compare of fixture runs, with the overlays of
# every side's memory) in headless Chromium (Debian's chromium package),
# then
#   - assert on the DOM Chromium built (--dump-dom): the charts are there
#     with their bars and lines (an overlay has one line per side and a
#     legend entry per side), the status and known figures are shown,
#     and the hostile fixture's strings are text, not elements;
#   - take screenshots (--screenshot, 1280x2400) and check that each is
#     far larger than the screenshot of an empty page taken the same way
#     (a blank or unstyled render compresses to almost nothing).
#
#   sh tests/html/chromium.sh            after make (needs bin/scaletest and
#                                        build/libscaletest.a)
#   HTML_KEEP=DIR sh tests/html/chromium.sh   also keep the pages and the
#                                        screenshots in DIR, to look at
#
# Without chromium every test is skipped ("# SKIP chromium not installed")
# and the suite is "skip" (exit 77), never "ok": make check would report
# it, make test (which installs chromium: make deps-full) fails on it.  Nothing is fetched: the
# pages are self-contained and the flags turn off Chromium's own traffic.
# suite: full
# order: 10
set -u

. "$(dirname "$0")/../lib.sh"
lib=$build/libscaletest.a

chromium=$(command -v chromium 2>/dev/null || true)
[ -n "$chromium" ] || skip_all "chromium not installed (make deps-html)"
need jq -- "make deps-test"
if [ ! -x "$bin" ] || [ ! -f "$lib" ]; then
	say "html: $bin or $lib missing: run make first"
	exit 3
fi

# The flags every Chromium run gets, each with a new, empty profile.
browse() { # what-to-do-flag... URL
	profile=$(mktemp -d "$tmp/profile.XXXXXX")
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$profile" "$@" 2>>"$tmp/chromium.log"
	rc=$?
	rm -rf "$profile"
	return $rc
}

# count FILE STRING: occurrences of a fixed string.
count() {
	grep -oF -- "$2" "$1" | wc -l | tr -d ' '
}

# has_count FILE STRING N
has_count() {
	checked
	got=$(count "$1" "$2")
	[ "$got" = "$3" ] || fail "$(basename "$1"): '$2' appears $got times, want $3"
}

# has FILE STRING: present at least once.
has() {
	checked
	grep -qF -- "$2" "$1" || fail "$(basename "$1"): '$2' not found"
}

# has_not FILE STRING: absent.
has_not() {
	checked
	! grep -qF -- "$2" "$1" || fail "$(basename "$1"): '$2' found"
}

# dom NAME PAGE: Chromium's DOM of PAGE in $tmp/NAME.dom.
dom() {
	checked
	if ! browse --dump-dom "file://$2" > "$tmp/$1.dom" || [ ! -s "$tmp/$1.dom" ]; then
		fail "$1: chromium --dump-dom failed"
		tail -n 5 "$tmp/chromium.log" | sed 's/^/    /' >&2
		return 1
	fi
	return 0
}

# shot NAME PAGE: a 1280x2400 screenshot of PAGE in $tmp/NAME.png.
shot() {
	checked
	rm -f "$tmp/$1.png"
	if ! browse --screenshot="$tmp/$1.png" --window-size=1280,2400 "file://$2" > /dev/null ||
	   [ ! -s "$tmp/$1.png" ]; then
		fail "$1: chromium --screenshot wrote no PNG"
		tail -n 5 "$tmp/chromium.log" | sed 's/^/    /' >&2
		return 1
	fi
	if [ "$(head -c 8 "$tmp/$1.png" | od -An -c | tr -d ' \n')" != '211PNG\r\n032\n' ]; then
		fail "$1: the screenshot is not a PNG"
		return 1
	fi
	return 0
}

# pages: every page the tests look at, made once: runs through the real
# command (report.html next to report.md), the comparison through a small
# program on the same library, and two comparisons of three sides.
pages() {
	[ -e "$tmp/.pages" ] && return 0
	: > "$tmp/.pages"
	for run in run run-hostile run-i386; do
		mkdir -p "$tmp/$run"
		cp "$fx/$run/result.json" "$tmp/$run/"
		if ! "$bin" report "$tmp/$run" > "$tmp/$run.out" 2>&1 || [ ! -s "$tmp/$run/report.html" ]; then
			fail "scaletest report $run wrote no report.html"
			sed 's/^/    /' "$tmp/$run.out" >&2
		fi
	done
	cc=${CC:-cc}
	cflags=$(pkg-config --cflags json-c 2>/dev/null || echo -I/usr/include/json-c)
	libs=$(pkg-config --libs libarchive json-c zlib libcrypto 2>/dev/null ||
		echo -larchive -ljson-c -lz -lcrypto)
	if ! $cc -std=gnu11 -D_GNU_SOURCE $cflags -I"$top/harness" -o "$tmp/render" \
		"$top/tests/html/render.c" "$lib" $libs -lm > "$tmp/cc.log" 2>&1; then
		fail "cannot build tests/html/render.c"
		sed 's/^/    /' "$tmp/cc.log" >&2
	elif ! "$tmp/render" compare "$fx/compare/regression.json" "$tmp/compare.html"; then
		fail "render compare regression.json failed"
	fi
	# Three sides: two x86_64 smoke runs and an older one (a mismatch, so
	# --allow-mismatch); and the 4000-disk i386 run three times (one label,
	# numbered), whose monitor has 30 samples during insmod.
	rx=$fx/replay
	for c in "cmp3:--allow-mismatch $rx/smoke-x86_64 $rx/garble $fx/run" \
		 "cmp-i386:$rx/seed-i386-4000 $rx/seed-i386-4000 $rx/seed-i386-4000"; do
		# shellcheck disable=SC2086
		"$bin" compare ${c#*:} --out "$tmp/${c%%:*}" > "$tmp/${c%%:*}.out" 2>&1
		rc=$?
		if [ $rc -gt 1 ] || [ ! -s "$tmp/${c%%:*}/compare.html" ]; then
			fail "scaletest compare for ${c%%:*} wrote no compare.html (exit $rc)"
			sed 's/^/    /' "$tmp/${c%%:*}.out" >&2
		fi
	done
	printf '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>empty</title></head><body></body></html>\n' \
		> "$tmp/empty.html"
}

# An i386 run of 4000 disks: LowFree, the monitor, fio, status fail.
test_i386_report() {
	pages
	if dom i386 "$tmp/run-i386/report.html"; then
		d=$tmp/i386.dom
		has "$d" '<span class="status st-bad">fail</span>'
		has "$d" 'check failed: fio verify on the virtio disks'
		has "$d" '<tr class="headline"><td>LowFree</td><td class="n">845,300 kB</td>'
		has "$d" '<td class="n">182,127 B</td>'
		has_count "$d" '<svg' 3
		has_count "$d" '<rect class="bar"' 28		# 6 phases x 3 + 10 caches
		has_count "$d" '<polyline class="series"' 3	# MemFree, LowFree, Slab
		has_count "$d" '<rect class="step"' 4		# insmod, virtio, io, rmmod
		has "$d" '>guest uptime, s</text>'
		has "$d" '<td>verify-write</td><td>verify-sdeww</td>'
		has "$d" '<td class="fail">FAIL</td>'
		has_not "$d" '<script'
	fi
}

# The golden x86_64 run: no LowFree, the figures of report.md.
test_x86_64_report() {
	pages
	if dom x86_64 "$tmp/run/report.html"; then
		d=$tmp/x86_64.dom
		has "$d" '<span class="status st-ok">pass</span>'
		has "$d" 'MemFree is the headline: a 64-bit kernel has no LowFree'
		has "$d" '<td class="n">470,732 B</td>'
		has_not "$d" '<td>LowFree</td>'
		has_count "$d" '<svg' 2
		has_count "$d" '<rect class="bar"' 22
	fi
}

# Hostile strings from the guest: shown as text, never parsed as markup.
test_hostile_report() {
	pages
	if dom hostile "$tmp/run-hostile/report.html"; then
		d=$tmp/hostile.dom
		has "$d" '<td>last scsi_debug</td><td>sd&lt;script&gt;alert(1)&lt;/script&gt;|x</td>'
		has "$d" 'guest said ?[2J&lt;b&gt;hi&lt;/b&gt;'
		has "$d" '<td>virtio</td><td>sd?[31mred</td>'
		has_not "$d" '<script'
		has_not "$d" '<b>hi</b>'
		checked
		if grep -q "$(printf '\033')" "$d"; then
			fail "hostile: an escape byte reached the DOM"
		fi
	fi
}

# The comparison: the regression marked, the warning, a chart per gating
# metric with error bars, the slab changes, hostile text escaped.
test_compare_page() {
	pages
	if [ -s "$tmp/compare.html" ] && dom compare "$tmp/compare.html"; then
		d=$tmp/compare.dom
		has "$d" '<p class="verdict v-regression">Verdict: '
		has_count "$d" '<tr class="regression">' 3
		has "$d" '<div class="warn" id="mismatch">'
		has "$d" '<code>vm.qemu_version</code>: A 7.2.22, B 8.0.0'
		has "$d" '<td class="n">+16,832 B</td>'
		has_count "$d" '<svg' 6		# 5 gating metrics with data + slab
		has_count "$d" '<line class="err"' 30
		has_count "$d" '<rect class="bar"' 18	# 5 x (A, B) + 8 caches
		has "$d" "quiet x=\"1\" y='2' &lt;script&gt;alert(1)&lt;/script&gt;?[31m"
		has_not "$d" '<script'
	fi
}

# svg_of DOM CLASS: the lines of the <svg class="CLASS"> element.
svg_of() {
	sed -n "/<svg [^>]*class=\"$2\"/,/<\/svg>/p" "$1"
}

# has_in TEXT-FILE STRING N WHAT: STRING occurs N times in the file.
has_in() {
	checked
	got=$(count "$1" "$2")
	[ "$got" = "$3" ] || fail "$4: '$2' appears $got times, want $3"
}

# Three sides: a column a side, only a gating metric is a regression, and
# the overlays draw a line and a legend entry per side.
test_three_sides() {
	pages
	if [ -s "$tmp/cmp3/compare.html" ] && dom cmp3 "$tmp/cmp3/compare.html"; then
		d=$tmp/cmp3.dom
		has "$d" '<p class="verdict v-regression">Verdict: '
		has "$d" '<th>A (base)</th><th>B</th><th>C</th>'
		has "$d" '<th class="n">C mean ± sd</th><th class="n">C change</th>'
		has_count "$d" '<td class="v-regression">' 2	# C's MemFree not in the counters; C in the sides' table
		has "$d" '<td class="v-worse">worse</td>'
		has_not "$d" '<tr class="regression"><td>enumeration time'
		svg_of "$d" 'chart overlay phases' > "$tmp/cmp3.phases"
		has_in "$tmp/cmp3.phases" '<polyline class="series side"' 3 "cmp3 phase overlay"
		has_in "$tmp/cmp3.phases" '<line class="key"' 3 "cmp3 phase overlay legend"
		has_in "$tmp/cmp3.phases" '>A: 20261203-161611-smoke</text>' 1 "cmp3 phase overlay legend"
		has_in "$tmp/cmp3.phases" '>C: 20261203-054926-smoke</text>' 1 "cmp3 phase overlay legend"
		for color in '#4e79a7' '#f28e2b' '#e15759'; do
			has_in "$tmp/cmp3.phases" "<polyline class=\"series side\" fill=\"none\" stroke=\"$color\"" 1 \
				"cmp3 phase overlay, a colour a side"
		done
		has_not "$d" '<script'
	fi
}

# The i386 run thrice: labels numbered, the monitor overlay with a free
# memory and a slab line per side.
test_i386_thrice() {
	pages
	if [ -s "$tmp/cmp-i386/compare.html" ] && dom cmp-i386 "$tmp/cmp-i386/compare.html"; then
		d=$tmp/cmp-i386.dom
		has "$d" '<p class="verdict v-nochange">Verdict: no change</p>'
		has "$d" '<b>20261203-161722-seed-i386-4000 #3</b>'
		svg_of "$d" 'chart overlay monitor' > "$tmp/cmp-i386.monitor"
		has_in "$tmp/cmp-i386.monitor" '<polyline class="series"' 6 "cmp-i386 monitor overlay"
		has_in "$tmp/cmp-i386.monitor" '<line class="key"' 3 "cmp-i386 monitor overlay legend"
		has_in "$tmp/cmp-i386.monitor" '>seconds since insmod began</text>' 1 "cmp-i386 monitor overlay axis"
		has_in "$tmp/cmp-i386.monitor" 'LowFree, kB</text>' 1 "cmp-i386 monitor overlay: LowFree on HIGHMEM"
		svg_of "$d" 'chart overlay phases' > "$tmp/cmp-i386.phases"
		has_in "$tmp/cmp-i386.phases" '<polyline class="series side"' 3 "cmp-i386 phase overlay"
	fi
}

# A page's layout as Chromium computed it: a copy of PAGE with a script
# that writes the document's scroll width into the DOM, dumped at a
# window 1280 pixels wide (the pages themselves have no script).
layout_dom() { # NAME PAGE
	sed 's|</body>|<script>document.body.setAttribute("data-scroll-width", document.documentElement.scrollWidth)</script></body>|' \
		"$2" > "$tmp/$1.layout.html"
	checked
	if ! browse --dump-dom --window-size=1280,2400 "file://$tmp/$1.layout.html" > "$tmp/$1.dom" ||
	   [ ! -s "$tmp/$1.dom" ]; then
		fail "$1: chromium --dump-dom failed"
		return 1
	fi
	return 0
}

# The page a person reads (issue 40): a finding's console lines are lines
# in a box no wider than the page, not one 2,000-pixel line with '?' for
# the newlines; a run made with --set says so beside its description.
test_finding_context_and_overrides() {
	mkdir -p "$tmp/hung"
	jq '.scenario.overrides = ["disks=4000", "loglevel=4"]' \
		"$fx/replay/hung-task-finding/result.json" > "$tmp/hung/result.json"
	checked
	if ! "$bin" report "$tmp/hung" > "$tmp/hung.out" 2>&1; then
		fail "scaletest report of the hung-task finding failed"
		return
	fi
	if layout_dom hung "$tmp/hung/report.html"; then
		d=$tmp/hung.dom
		checked
		w=$(sed -n 's/.*data-scroll-width="\([0-9]*\)".*/\1/p' "$d")
		if [ -z "$w" ] || [ "$w" -gt 1280 ]; then
			fail "hung: the page is ${w:-?} pixels wide in a 1280-pixel window"
		fi
		# The context's lines, each on its own line of the <pre>.
		sed -n '/<p class="finding">/,/<\/pre>/p' "$d" > "$tmp/hung.pre"
		checked
		n=$(wc -l < "$tmp/hung.pre")
		[ "$n" -ge 8 ] || fail "hung: the finding's context is $n lines, not its own"
		has "$tmp/hung.pre" 'INFO: task insmod:'
		has_not "$tmp/hung.pre" 'phase boot?scaletest'
		has "$d" '<span class="overridden">overridden: <code>disks=4000</code>, <code>loglevel=4</code></span>'
	fi
}

# The curves: disks present against time and ms per disk against disks,
# a line a phase on a run's page, a line a kernel in compare --series.
test_time_curves() {
	pages
	mkdir -p "$tmp/curves"
	cp "$fx/replay/smoke-time-attribution/result.json" "$tmp/curves/"
	checked
	"$bin" report "$tmp/curves" > "$tmp/curves.out" 2>&1 || fail "scaletest report of the curves failed"
	if dom curves "$tmp/curves/report.html"; then
		svg_of "$tmp/curves.dom" 'chart curves disks-time' > "$tmp/curves.a"
		has_in "$tmp/curves.a" '<polyline class="series curve"' 2 "run: disks against time, insmod and rmmod"
		has_in "$tmp/curves.a" '>disks present</text>' 1 "run: disks against time, its axis"
		svg_of "$tmp/curves.dom" 'chart curves ms-per-disk' > "$tmp/curves.b"
		has_in "$tmp/curves.b" '<line class="fit"' 2 "run: ms per disk, the fits"
		has_in "$tmp/curves.b" '>ms per disk</text>' 1 "run: ms per disk, its axis"
	fi
	checked
	"$bin" compare --series "$fx/replay/sweep" "$fx/replay/sweep-612" --out "$tmp/series" \
		> "$tmp/series.out" 2>&1
	[ $? -le 1 ] || fail "compare --series failed"
	if [ -s "$tmp/series/compare.html" ] && dom series "$tmp/series/compare.html"; then
		svg_of "$tmp/series.dom" 'chart curves disks-time' > "$tmp/series.a"
		has_in "$tmp/series.a" '<polyline class="series curve"' 2 "series: a kernel a line"
		has_in "$tmp/series.a" '<line class="key"' 2 "series: a kernel a legend entry"
		svg_of "$tmp/series.dom" 'chart curves ms-per-disk' > "$tmp/series.b"
		has_in "$tmp/series.b" '<polyline class="series curve"' 2 "series: ms per disk, a kernel a line"
	fi
}

# Screenshots: a rendered page is far more than an empty one.
test_screenshots() {
	pages
	if shot empty "$tmp/empty.html"; then
		empty=$(wc -c < "$tmp/empty.png")
		for page in i386:run-i386/report.html hostile:run-hostile/report.html compare:compare.html \
			    cmp3:cmp3/compare.html cmp-i386:cmp-i386/compare.html \
			    hung-shot:hung/report.html curves-shot:curves/report.html \
			    series-shot:series/compare.html; do
			name=${page%%:*}
			[ -s "$tmp/${page#*:}" ] || continue
			if shot "$name" "$tmp/${page#*:}"; then
				checked
				size=$(wc -c < "$tmp/$name.png")
				if [ "$size" -lt $((empty * 4)) ] || [ "$size" -lt 40000 ]; then
					fail "$name: screenshot of $size bytes, an empty page's is $empty: blank?"
				fi
			fi
		done
	fi
}


# HTML_KEEP=DIR: the pages and screenshots, kept to look at.
keep() {
	mkdir -p "$HTML_KEEP" &&
	cp "$tmp"/*.png "$tmp"/*.dom "$HTML_KEEP"/ 2>/dev/null
	cp "$tmp/run-i386/report.html" "$HTML_KEEP/run-i386.html" 2>/dev/null
	cp "$tmp/run-hostile/report.html" "$HTML_KEEP/run-hostile.html" 2>/dev/null
	cp "$tmp/compare.html" "$HTML_KEEP/compare.html" 2>/dev/null
	cp "$tmp/cmp3/compare.html" "$HTML_KEEP/compare-3-sides.html" 2>/dev/null
	cp "$tmp/cmp-i386/compare.html" "$HTML_KEEP/compare-i386.html" 2>/dev/null
	cp "$tmp/hung/report.html" "$HTML_KEEP/run-hung-finding.html" 2>/dev/null
	cp "$tmp/curves/report.html" "$HTML_KEEP/run-curves.html" 2>/dev/null
	cp "$tmp/series/compare.html" "$HTML_KEEP/compare-series.html" 2>/dev/null
	say "html: pages and screenshots kept in $HTML_KEEP"
}
[ -z "${HTML_KEEP:-}" ] || at_exit keep

run_tests "$@"
