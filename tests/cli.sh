#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Command-line tests: usage, exit codes and error messages, scenario errors
# that must stop a run before anything boots, and reports regenerated from
# fixture result.json files.  Nothing here boots QEMU.
# suite: quick
set -u

. "$(dirname "$0")/lib.sh"

# Usage and the command table.
test_usage_and_command_table() {
	expect 0 "^usage: scaletest" -- "$bin" --help
	expect 0 "run +boot a scenario" -- "$bin" --help
	# A commit (git describe), a release (VERSION, make dist), or "unknown"
	# in a copy of the files with neither (e2e/user copies a changed tree).
	expect 0 "^scaletest [0-9A-Za-z][0-9A-Za-z.+~-]*$" -- "$bin" --version
	expect 2 "^usage: scaletest" -- "$bin"
	expect 2 "'frobnicate' is not a scaletest command" -- "$bin" frobnicate
	expect 0 "^usage: scaletest run SCENARIO" -- "$bin" run --help
	expect 0 "^usage: scaletest run SCENARIO" -- "$bin" help run
	expect 0 "^usage: scaletest report" -- "$bin" report --help
	expect 2 "run needs a scenario" -- "$bin" run
	expect 2 "run takes one scenario" -- "$bin" run a b
	expect 2 "unrecognized option" -- "$bin" run --bogus x
	expect 2 "report needs a run directory" -- "$bin" report
}

# kernel and cache: nested verbs and their errors.
test_kernel_and_cache_verbs() {
	expect 0 "^usage: scaletest kernel build" -- "$bin" kernel --help
	expect 0 "^usage: scaletest kernel build" -- "$bin" kernel build --help
	expect 2 "'frob' is not a kernel command" -- "$bin" kernel frob
	expect 2 "^usage: scaletest kernel build" -- "$bin" kernel
	expect 2 "kernel_source '/nonexistent' is neither 'debian' nor a directory" -- "$bin" kernel build --source /nonexistent
	expect 2 "kernel_source 'debian:6': Debian's source is 'debian' or 'debian:X.Y' \\(linux-source-X.Y, e.g. debian:6.12\\)" -- "$bin" kernel build --source debian:6
	expect 2 "kernel_source 'debian:6.12x': Debian's source is 'debian' or 'debian:X.Y'" -- "$bin" kernel build --source debian:6.12x
	expect 2 "kernel_rev needs kernel=build and kernel_source a git repository" -- "$bin" kernel build --source debian:6.12 --set kernel_rev=HEAD
	expect 2 "kernel_config_base: 'bigconfig' is not one of tinyconfig, defconfig" -- "$bin" kernel build --config bigconfig
	expect 0 "kernels/build +[0-9]+ entries" -- env SCALETEST_CACHE="$tmp/cache" "$bin" cache list
	expect 2 "'nosuch' is not a cache category" -- env SCALETEST_CACHE="$tmp/cache" "$bin" cache clean nosuch
	expect 2 "say what to clean" -- env SCALETEST_CACHE="$tmp/cache" "$bin" cache clean
	mkdir -p "$tmp/cache/initramfs"
	echo x > "$tmp/cache/initramfs/abc.cpio"
	expect 0 "initramfs: removed 1 entry" -- env SCALETEST_CACHE="$tmp/cache" "$bin" cache clean initramfs
	checked
	[ -e "$tmp/cache/initramfs/abc.cpio" ] && fail "cache clean left the entry"
}

# The suites' package lists (kernel_suite: apt/suites/SUITE/DAY-HASH) are a
# category of their own, two levels deep: listed and cleaned per entry,
# apart from apt's memos, never through a link.
test_cache_suites() {
	c=$tmp/cs
	mkdir -p "$c/apt/suites/sid/20261207-aaaaaaaaaaaa/lists" "$c/apt/suites/trixie/20261207-bbbbbbbbbbbb" \
		"$tmp/cs-outside/20261207-cccccccccccc"
	chmod 700 "$c"
	echo x > "$c/apt/suites/sid/20261207-aaaaaaaaaaaa/lists/InRelease"
	: > "$c/apt/suites/sid/20261207-aaaaaaaaaaaa.lock"
	echo memo > "$c/apt/0123456789abcdef"
	ln -s "$tmp/cs-outside" "$c/apt/suites/planted"
	expect 0 "^  apt/suites +2 entries .*package lists" -- env SCALETEST_CACHE="$c" "$bin" cache list
	expect 0 "^  apt +1 entries " -- env SCALETEST_CACHE="$c" "$bin" cache list
	expect 0 "^apt: removed 1 entry$" -- env SCALETEST_CACHE="$c" "$bin" cache clean apt
	check "apt's clean left the suites' lists" test -d "$c/apt/suites/sid/20261207-aaaaaaaaaaaa/lists"
	expect 0 "^apt/suites: removed 2 entries$" -- env SCALETEST_CACHE="$c" "$bin" cache clean apt/suites
	check "the entries are gone" test ! -e "$c/apt/suites/sid/20261207-aaaaaaaaaaaa"
	check "and their lock" test ! -e "$c/apt/suites/sid/20261207-aaaaaaaaaaaa.lock"
	check "the emptied suite folders too" test ! -e "$c/apt/suites/trixie"
	check "a planted link is not followed" test -d "$tmp/cs-outside/20261207-cccccccccccc"
}

# Nested verbs come from small tables: a missing or unknown one is a
# one-line error naming it, then the usage, exit 2.
test_nested_verbs() {
	expect 2 "^scaletest: 'kernel' needs a subcommand: build or list$" -- "$bin" kernel
	expect 2 "^scaletest: 'frob' is not a kernel command$" -- "$bin" kernel frob
	expect 2 "^usage: scaletest kernel build" -- "$bin" kernel frob
	expect 0 "^usage: scaletest kernel build" -- "$bin" kernel help
	expect 2 "^scaletest: 'cache' needs a subcommand: list or clean$" -- "$bin" cache
	expect 2 "^usage: scaletest cache list" -- "$bin" cache
	expect 2 "^scaletest: 'frob' is not a cache command$" -- "$bin" cache frob
	expect 2 "^usage: scaletest cache list" -- "$bin" cache frob
	expect 2 "'cache list' takes no arguments, not 'x'" -- env SCALETEST_CACHE="$tmp/cache" "$bin" cache list x
	expect 0 "^usage: scaletest cache list" -- "$bin" cache --help
	expect 0 "^usage: scaletest cache list" -- "$bin" cache clean --help
	expect 2 "^scaletest: 'baseline' needs a subcommand: update, find or list$" -- "$bin" baseline
	expect 2 "^usage: scaletest baseline update" -- "$bin" baseline
	expect 2 "^scaletest: 'frob' is not a baseline command$" -- "$bin" baseline frob
	expect 2 "^usage: scaletest baseline update" -- "$bin" baseline frob --baselines "$tmp/bl"
	expect 2 "^scaletest: 'baseline' needs a subcommand" -- "$bin" baseline --baselines "$tmp/bl"
	expect 2 "'baseline update' needs one run" -- "$bin" baseline update
	expect 2 "'baseline find' needs one run" -- "$bin" baseline find a b
	expect 2 "'baseline list' takes no run, not 'x'" -- "$bin" baseline list x
	expect 2 "unrecognized option '--bogus'" -- "$bin" baseline --bogus list
	expect 0 "^no baselines in .*/bl$" -- "$bin" baseline --baselines "$tmp/bl" list
	expect 0 "^no baselines in .*/bl$" -- "$bin" baseline list --baselines "$tmp/bl"
	expect 0 "^usage: scaletest baseline update" -- "$bin" baseline find --help
}

# Every command of the table (scaletest --help lists it) and every verb of
# a nested one (its usage lines name them): --help exits 0 and ends with an
# "Exit status:" block, each code of which docs/statuses.md ("Statuses and
# exit codes", the page) documents.
exit_codes=$(cat "$top/docs/statuses.md")
# help_ends_with_exit_status WORDS...: WORDS --help.
help_ends_with_exit_status() {
	checked
	if ! "$bin" "$@" --help > "$tmp/help" 2>&1; then
		fail "scaletest $* --help: exit $?, want 0"
		return
	fi
	# The codes of the last block, if nothing but its lines follows it.
	codes=$(awk '/^Exit status:$/ { f = 1; c = ""; next }
		f && /^  [0-9]+ +[^ ]/ { c = c " " $1; next }
		f && /^       +[^ ]/ { next }
		f { f = 0 }
		END { if (f) print c }' "$tmp/help")
	if [ -z "$codes" ]; then
		fail "scaletest $* --help does not end with an 'Exit status:' block"
		tail -n 5 "$tmp/help" | sed 's/^/    /' >&2
		return
	fi
	for code in $codes; do
		printf '%s\n' "$exit_codes" | grep -q "\`$code\`" ||
			fail "scaletest $* --help lists exit $code, which docs/statuses.md does not"
	done
}
commands=$("$bin" --help | sed -n '/^commands:$/,/^$/p' | awk 'NF > 1 { print $1 }')
test_help_ends_with_exit_statuses() {
	checked
	case " $(echo $commands) " in
	*" run "*" triage "*) ;;
	*) fail "scaletest --help lists no command table: '$commands'" ;;
	esac
	help_ends_with_exit_status
	for c in $commands; do
		help_ends_with_exit_status "$c"
		verbs=$("$bin" "$c" --help | sed -n "s/^\(usage:\)\{0,1\} *scaletest $c \([a-z][a-z]*\).*/\2/p" | sort -u)
		[ -n "$verbs" ] || continue
		for v in $verbs; do
			help_ends_with_exit_status "$c" "$v"
		done
		# The usage names the verbs the table has, no more, no fewer.
		checked
		table=$("$bin" "$c" 2>&1 | sed -n "s/^scaletest: '$c' needs a subcommand: //p" |
			sed 's/, / /g; s/ or / /' | tr ' ' '\n' | sort -u)
		[ "$(echo $table)" = "$(echo $verbs)" ] ||
			fail "scaletest $c: its usage names verbs '$(echo $verbs)', its table '$(echo $table)'"
	done
}

# A path that does not exist, where each command takes one: exit 2 and a
# message naming it (a run directory: "cannot open run directory").
test_missing_path() {
	nx=$tmp/no-such-run
	for c in $commands; do
		case $c in
		run | check | nightly | triage) set -- "$c" "$nx" ;;
		report) set -- report "$nx" ;;
		compare) set -- compare "$nx" "$nx" ;;
		baseline) set -- baseline find "$nx" ;;
		kernel) set -- kernel build "$nx" ;;
		cache) set -- cache clean "$nx" ;;
		fio) set -- fio --host-closure "$nx" ;;
		keys) set -- keys "$nx" ;;
		gc) set -- gc "$nx" ;;
		sweep) set -- sweep "$nx" --disks 0,20,40 ;;
		bisect) set -- bisect "$nx" --source "$nx" --good a --bad b --metric memfree_per_disk --max 1 ;;
		*)
			checked
			fail "tests/cli.sh has no missing-path case for '$c': add one"
			continue
			;;
		esac
		expect 2 "^scaletest: .*'$nx'" -- env SCALETEST_CACHE="$tmp/cache" "$bin" "$@"
	done
	for args in "report $nx" "report --out $tmp/o $nx" "report --replay $nx" "compare $nx $nx" \
		    "compare --baseline $nx" "baseline find $nx" "baseline update $nx"; do
		expect 2 "^scaletest: cannot open run directory '$nx': No such file or directory$" -- \
			"$bin" $args
	done
	expect 2 "^scaletest: cannot open night directory '$nx': " -- "$bin" report --nightly "$nx"
	expect 2 "^scaletest: cannot open '$nx': No such file" -- "$bin" report --compare "$nx"
	mkdir -p "$tmp/not-a-run"
	expect 2 "^scaletest: '$tmp/not-a-run' is not a run directory: it has no result.json$" -- \
		"$bin" report "$tmp/not-a-run"
	checked
	[ -e "$tmp/o" ] && fail "report --out made its directory for a missing run"
	# Nothing is written for one missing run among good ones.
	mkdir -p "$tmp/good"
	cp "$fx/run/result.json" "$tmp/good/"
	expect 2 "cannot open run directory '$nx'" -- "$bin" report "$tmp/good" "$nx"
	checked
	[ -e "$tmp/good/report.md" ] && fail "report wrote reports before finding a run directory missing"
}

# A command line of the wrong shape: what was wrong, then the usage.
test_wrong_shape_usage() {
	for args in "baseline update" "baseline find a b" "baseline list x" "cache clean" \
		    "cache list x" "kernel build a b" "keys x" "fio x" "run" "check" "triage" \
		    "compare a" "nightly" "report" "compare --threshold x a b" "run --repeat 0 s"; do
		checked
		"$bin" $args > "$tmp/out" 2>&1
		got=$?
		first=$(head -n 1 "$tmp/out")
		if [ $got != 2 ]; then
			fail "scaletest $args: exit $got, want 2"
		elif ! printf '%s\n' "$first" | grep -q '^scaletest: ' ||
		     ! sed -n 2p "$tmp/out" | grep -q '^usage: scaletest '; then
			fail "scaletest $args: not a message, then the usage"
			sed 's/^/    /' "$tmp/out" >&2
		fi
	done
}

# nightly: the first-night mode and the missing-baseline status are told.
test_nightly_help() {
	expect 0 "--record-baselines +the first night on a runner" -- "$bin" nightly --help
	expect 0 "^  4    every run passed and nothing regressed, but a run had no baseline" -- "$bin" nightly --help
	expect 2 "nightly takes one matrix file" -- "$bin" nightly --record-baselines
}

# A night whose first run fails for the environment (its QEMU is missing)
# and whose second fails on its own (a kernel that is not one): each run is
# classified by its own failure, not by one that came before it in the
# same process.  The night exits 3 (a run could not run here); the second
# run's reason does not blame a missing package or tool, and a night of the
# second alone exits 1.  No QEMU runs: PATH holds a stand-in for
# qemu-system-x86_64 only.
test_nightly_classifies_each_run() {
	d=$tmp/night
	mkdir -p "$d/bin" "$d/nomods"
	printf '#!/bin/sh\nexit 1\n' > "$d/bin/qemu-system-x86_64"
	chmod +x "$d/bin/qemu-system-x86_64"
	echo "not a kernel" > "$d/notakernel"
	printf 'arch = i386\nmemory_mb = 256\ndisks = 8\nvirtio_disks = 0\n' > "$d/env.scn"
	printf 'arch = x86_64\nmemory_mb = 256\ndisks = 8\nvirtio_disks = 0\nkernel = files\nkernel_image = %s\nkernel_modules = %s\n' \
		"$d/notakernel" "$d/nomods" > "$d/own.scn"
	printf 'env.scn\nown.scn\n' > "$d/both"
	printf 'own.scn\n' > "$d/own"
	expect 3 "qemu-system-i386 not found: install the Debian package qemu-system-x86" -- \
		env PATH="$d/bin" SCALETEST_CACHE="$tmp/ncache" "$bin" nightly "$d/both" --out "$d/out"
	check "the night's summary counts both runs failed" \
		jq -e '.failed == 2 and ([.runs[].status] == ["error", "error"])' "$d"/out/nightly-*/summary.json
	check "the second run's own reason, not the first run's class" \
		jq -e '.runs[1].reason == "setup failed before boot; see build.log"' "$d"/out/nightly-*/summary.json
	expect 1 "is not a modules tree" -- \
		env PATH="$d/bin" SCALETEST_CACHE="$tmp/ncache" "$bin" nightly "$d/own" --out "$d/out1"
}

# kernel build's plumbing on a fake kernel tree (its Makefile only writes
# files): built, then cached; a patch that does not apply is the input's
# fault, exit 3 (it was 1): it names the patch, the source and the hunk,
# shows git's reasons and the rejected hunk, and adds no cache entry; a
# patch directory given relative to here is found (it was looked for in
# the work tree).
kb() {
	env SCALETEST_CACHE="$tmp/kcache" "$bin" kernel build --source "$fx/kbuild/tree" "$@"
}

test_kernel_build_fake_tree() {
	expect 0 "^kernel 6\.1\.0-fake \(built\)$" -- kb
	expect 0 "^kernel 6\.1\.0-fake \(cached\)$" -- kb
	expect 3 "patch '0001-does-not-apply.patch' does not apply to /.*/kbuild/tree \(block/blk.c hunk #1\), nothing was built" -- kb --patches "$fx/kbuild/bad"
	expect 3 "^error: patch failed: block/blk.c:1$" -- kb --patches "$fx/kbuild/bad"
	expect 3 "^-this line is not in the tree$" -- kb --patches "$fx/kbuild/bad"
	expect 3 "\(block/blk.c hunk #1\)" -- sh -c "cd '$fx' && env SCALETEST_CACHE='$tmp/kcache' '$bin' kernel build --source kbuild/tree --patches kbuild/bad"
	checked
	if [ "$(ls "$tmp/kcache/kernels/build" | grep -v '\.lock$' | wc -l)" != 1 ]; then
		fail "kernel build: not exactly one entry after a build, a hit and a failure"
		ls -l "$tmp/kcache/kernels/build" >&2
	fi
}

# A run whose patch does not apply stops before anything is built or
# booted: exit 3 (it was 1, "setup failed before boot"), the patch, the
# source and the hunk named on stderr and as the run's reason.
test_run_patch_does_not_apply() {
	expect 3 "patch '0001-does-not-apply.patch' does not apply to .*kbuild/tree \(block/blk.c hunk #1\), nothing was built" -- \
		env SCALETEST_CACHE="$tmp/kcache-run" "$bin" run "$top/scenarios/smoke" \
		--source "$fx/kbuild/tree" --patches "$fx/kbuild/bad" --out "$tmp/patch-runs"
	checked
	r=$(ls -d "$tmp"/patch-runs/*-smoke 2>/dev/null | head -n 1)
	if [ -z "$r" ] || ! jq -e '.status == "error" and (.reason | test("^refused before build: patch .0001-does-not-apply.patch. does not apply to .*: block/blk.c hunk #1; see build.log$"))' "$r/result.json" > /dev/null; then
		fail "run: result.json does not name the patch and the hunk as the reason"
		cat "$r/result.json" >&2 2>/dev/null
	fi
	if [ -n "$r" ] && [ -e "$r/console.log" ] && [ -s "$r/console.log" ]; then
		fail "run: a console log, so something booted"
	fi
	if ls "$tmp/kcache-run/kernels/build" 2>/dev/null | grep -qv '\.lock$'; then
		fail "run: a kernel build entry was made"
	fi
}

# Shipped scenarios are valid.
test_shipped_scenarios_valid() {
	expect 0 "smoke: ok" -- "$bin" check $(find "$top/scenarios" -maxdepth 1 -type f)
}

# Bad scenarios: file:line: message, exit 2, and nothing booted (no run
# directory is even created).
bad() { # file-basename pattern
	checked
	f=$fx/scenarios/$1
	"$bin" run "$f" --out "$tmp/results" > "$tmp/out" 2>&1
	got=$?
	if [ "$got" != 2 ]; then
		fail "$1: exit $got, want 2"
		sed 's/^/    /' "$tmp/out" >&2
	elif ! grep -Eq -- "$2" "$tmp/out"; then
		fail "$1: output does not match '$2'"
		sed 's/^/    /' "$tmp/out" >&2
	elif [ -e "$tmp/results" ]; then
		fail "$1: a results directory was created"
	fi
}

test_bad_scenarios() {
	bad unknown-key.scn "unknown-key.scn:3: unknown key 'dsks' \(did you mean 'disks'\?\)"
	bad bad-number.scn "bad-number.scn:2: memory_mb: '2G' is not a whole number"
	bad out-of-range.scn "out-of-range.scn:4: disks: 2000000 is out of range 0..1048576"
	bad bad-enum.scn "bad-enum.scn:1: arch: 'arm64' is not one of x86_64, i386"
	bad duplicate.scn "duplicate.scn:3: duplicate key 'disks' \(first set on line 2\)"
	bad too-many-disks.scn "too-many-disks.scn:3: 5000 disks need about 878 MiB of low memory"
	bad uneven-hosts.scn "uneven-hosts.scn:2: 4001 disks cannot be spread evenly over 2 hosts"
	bad no-equals.scn "no-equals.scn:2: expected '=' after the key"
	bad files-without-image.scn "files-without-image.scn:1: kernel=files needs kernel_image and kernel_modules"
	bad bad-cmdline.scn "bad-cmdline.scn:1: cmdline may hold only"
	bad patches-without-build.scn "patches-without-build.scn:2: kernel_patches and kernel_fragments need kernel=build"
	bad missing-patches.scn "missing-patches.scn:2: kernel_patches '.*no-such-dir' does not exist"
	bad sweep-not-rising.scn "sweep-not-rising.scn:3: sweep '0,20,10,30': step 4 \(30\) rises again after falling from the peak 20"
	bad sweep-no-layout.scn "sweep-no-layout.scn:3: no host layout reaches these counts: their greatest common divisor is 1, so 4999 disks need 4999 scsi_debug hosts"
	bad sweep-too-big.scn "sweep-too-big.scn:3: 4000 disks need about 1406 MiB of memory"
}

# scaletest sweep: --disks is its list; a bad one is exit 2, nothing created.
# Without --disks: "even", 0 to the scenario's disks in the most even steps
# up to 8 (smoke's 40: 5 apart); even:N in N; both written out as the list.
test_sweep_disks() {
	expect 0 "sweep of scsi_debug disks in one boot: 0, 5, 10, 15, 20, 25, 30, 35, 40$" -- "$bin" sweep "$top/scenarios/smoke" --dry-run --out "$tmp/r3"
	expect 0 "sweep = 0,10,20,30,40 " -- "$bin" sweep "$top/scenarios/smoke" --disks even:4 --dry-run --out "$tmp/r3"
	expect 0 "sweep of scsi_debug disks in one boot: 0, 41$" -- "$bin" run "$top/scenarios/smoke" --set disks=41 --set sweep=even --dry-run --out "$tmp/r3"
	expect 2 "sweep 'even:7': disks \(40\) is not a multiple of 7" -- "$bin" sweep "$top/scenarios/smoke" --disks even:7 --out "$tmp/r3"
	expect 2 "sweep 'even:0': even:N needs N from 1 to 63" -- "$bin" sweep "$top/scenarios/smoke" --disks even:0 --out "$tmp/r3"
	expect 2 "sweep 'even:x': even:N needs N from 1 to 63" -- "$bin" sweep "$top/scenarios/smoke" --disks even:x --out "$tmp/r3"
	expect 2 "sweep 'even' spaces its steps up to disks, which is 0" -- "$bin" run "$top/scenarios/smoke" --set disks=0 --set sweep=even --out "$tmp/r3"
	expect 2 "--disks needs a list of counts" -- "$bin" sweep "$top/scenarios/smoke" --disks
	expect 2 "--disks given twice" -- "$bin" sweep "$top/scenarios/smoke" --disks 0,20 --disks 0,40
	expect 2 "sweep '40,20': the counts must rise first" -- "$bin" sweep "$top/scenarios/smoke" --disks 40,20 --out "$tmp/r3"
	expect 2 "sweep '0,20,20': step 3 repeats 20" -- "$bin" sweep "$top/scenarios/smoke" --disks=0,20,20 --out "$tmp/r3"
	expect 2 "--set disks: disks \(20\) must be the sweep's last step \(40\)" -- "$bin" sweep "$top/scenarios/smoke" --disks 0,20,40 --set disks=20 --out "$tmp/r3"
	expect 0 "sweep of scsi_debug disks in one boot: 0, 20, 40, 20" -- "$bin" sweep "$top/scenarios/smoke" --disks 0,20,40,20 --dry-run --out "$tmp/r3"
	expect 0 "hosts of 20 disks \(1 targets x 20 LUNs" -- "$bin" run "$top/scenarios/smoke" --set sweep=0,20,40,20 --dry-run --out "$tmp/r3"
	checked
	[ -e "$tmp/r3" ] && fail "a bad sweep created a results directory"
}

# The record channel: virtio-serial on Debian's kernels (auto), the UART
# when asked; the QEMU command line follows.
test_record_channel() {
	expect 0 "record channel: a virtio-serial port \(org.scaletest.rec\) \(channel = auto" -- "$bin" run "$top/scenarios/smoke" --dry-run --out "$tmp/r3"
	expect 0 "-device virtserialport,bus=vser.0,chardev=rec,name=org.scaletest.rec" -- "$bin" run "$top/scenarios/smoke" --dry-run --out "$tmp/r3"
	expect 0 "-chardev socket,id=rec,fd=CHANNEL_FD -serial chardev:rec" -- "$bin" run "$top/scenarios/smoke" --set channel=uart --dry-run --out "$tmp/r3"
	expect 2 "--set channel=tty: channel: 'tty' is not one of auto, uart, virtio" -- "$bin" run "$top/scenarios/smoke" --set channel=tty --out "$tmp/r3"
	checked
	[ -e "$tmp/r3" ] && fail "a bad channel created a results directory"
}

# Bad --set and paths: exit 2, no results directory.
test_bad_set() {
	expect 2 "cannot read '/nonexistent/scenario'" -- "$bin" run /nonexistent/scenario --out "$tmp/r2"
	expect 2 "--set disks=-4: disks: -4 is out of range" -- "$bin" run "$top/scenarios/smoke" --set disks=-4 --out "$tmp/r3"
	expect 2 "--set nosuch=1: unknown key 'nosuch'" -- "$bin" run "$top/scenarios/smoke" --set nosuch=1 --out "$tmp/r3"
	expect 2 "too-many-disks.scn:3: " -- "$bin" check "$fx/scenarios/too-many-disks.scn"
	checked
	[ -e "$tmp/r2" ] || [ -e "$tmp/r3" ] && fail "a bad --set created a results directory"
}

# Missing QEMU: exit 3, naming the package to install, before anything runs.
test_missing_qemu() {
	mkdir -p "$tmp/emptypath"
	expect 3 "qemu-system-x86_64 not found: install the Debian package qemu-system-x86" -- \
		env PATH="$tmp/emptypath" "$bin" run "$top/scenarios/smoke" --out "$tmp/r4"
}

# A guest larger than the host's free memory: refused before anything runs.
# The host's figure made 1024 MiB (SCALETEST_FAULT, docs/faults.md), so
# that it runs on any host; then the real figure, where memory_mb can ask
# for more than it (a host with less than 64 GiB available).
test_oversized_guest() {
	expect 3 "the host has 1024 MiB available, the guest needs 2048 MiB" -- \
		env SCALETEST_FAULT=host-memavailable:1024 \
		"$bin" run "$top/scenarios/smoke" --set memory_mb=2048 --out "$tmp/r6"
	check "an oversized guest created no results directory" absent "$tmp/r6"
	expect 3 "SCALETEST_FAULT 'host-memavailable:lots': the MiB after" -- \
		env SCALETEST_FAULT=host-memavailable:lots \
		"$bin" run "$top/scenarios/smoke" --set memory_mb=2048 --out "$tmp/r6"
	avail=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
	if [ "$avail" -lt 65000 ]; then
		expect 3 "the host has [0-9]+ MiB available, the guest needs 65536 MiB" -- \
			"$bin" run "$top/scenarios/smoke" --set memory_mb=65536 --out "$tmp/r6"
		check "an oversized guest created no results directory" absent "$tmp/r6"
	fi
}

# A kernel package that does not exist: exit 3, naming it; the run directory
# is kept with status error.
test_missing_kernel_package() {
	if command -v apt-cache >/dev/null 2>&1; then
		expect 3 "package 'linux-image-doesnotexist:amd64' not found" -- \
			"$bin" run "$top/scenarios/smoke" --set kernel_package=linux-image-doesnotexist \
			--out "$tmp/r5" --quiet
		checked
		r=$(find "$tmp/r5" -name result.json | head -n 1)
		if [ -z "$r" ] || ! grep -q '"status": "error"' "$r"; then
			fail "missing kernel package: no result.json with status error"
		fi
	else
		skip "no apt-cache here"
	fi
}

# Reports come from result.json alone: the golden report for a fixture run,
# and hostile guest strings escaped.
test_report_golden_and_hostile() {
	mkdir -p "$tmp/run"
	cp "$fx/run/result.json" "$tmp/run/"
	expect 0 "^scaletest .*: pass" -- "$bin" report "$tmp/run"
	checked
	if ! diff -u "$fx/run/report.md" "$tmp/run/report.md" >&2; then
		fail "report.md differs from the golden tests/fixtures/run/report.md"
	fi
	mkdir -p "$tmp/hostile"
	cp "$fx/run-hostile/result.json" "$tmp/hostile/"
	expect 0 "" -- "$bin" report "$tmp/hostile"
	checked
	# Outside code fences nothing may be raw HTML; nowhere a control byte.
	awk '/^```/ { f = !f; next } !f' "$tmp/hostile/report.md" > "$tmp/hostile/prose"
	if grep -q '<script>' "$tmp/hostile/prose" || grep -q "$(printf '\033')" "$tmp/hostile/report.md" ||
	   grep -q "$(printf '\033')" "$tmp/out"; then
		fail "hostile strings reached report.md or the summary unescaped"
	fi
	checked
	if ! grep -q 'sd&lt;script&gt;' "$tmp/hostile/report.md"; then
		fail "hostile device name not escaped as expected in report.md"
	fi
}

# reproduce.sh from hostile settings: every value stays inside the quoted
# here document, or is left out; the script is valid sh.
test_reproduce_hostile_settings() {
	mkdir -p "$tmp/repro"
	jq '.tool = "scaletest $(touch PWNED)`id`" | .run_id = "x;rm -rf /" |
	    .settings.description = "$(touch PWNED) `id` \u0027q\u0027" | .settings.cmdline = "a\"b" |
	    .settings.name = "SCALETEST_SCENARIO" | .kernel.package_version = "1$(id)"' \
		"$fx/run-hostile/result.json" > "$tmp/repro/result.json"
	expect 0 "" -- "$bin" report "$tmp/repro"
	checked
	r=$tmp/repro/reproduce.sh
	if ! sh -n "$r"; then
		fail "reproduce.sh is not valid sh"
	elif [ "$(grep -c '^SCALETEST_SCENARIO$' "$r")" != 1 ] ||
	     [ "$(grep -c "<<'SCALETEST_SCENARIO'" "$r")" != 1 ]; then
		fail "reproduce.sh: the here document is not one quoted block"
	elif awk "/<<'SCALETEST_SCENARIO'/ { h = 1; next } /^SCALETEST_SCENARIO\$/ { h = 0; next } !h" "$r" | grep -q 'touch PWNED\|`id`\|(id)\|rm -rf'; then
		fail "reproduce.sh: a hostile value reached the shell outside the here document"
	elif ! grep -q '^cmdline = "a\\"b"$' "$r" || ! grep -q '^description = "\$(touch PWNED) `id`' "$r"; then
		fail "reproduce.sh: the values are not where they should be"
	fi
}

# A result.json of another schema, or not JSON: exit 1, said so.
test_report_bad_json() {
	mkdir -p "$tmp/schema"
	printf '{"schema": 99, "status": "pass"}\n' > "$tmp/schema/result.json"
	expect 1 "schema version 99, this scaletest reads 1" -- "$bin" report "$tmp/schema"
	mkdir -p "$tmp/broken"
	printf '{"schema": 1, "status": ' > "$tmp/broken/result.json"
	expect 1 "not valid JSON" -- "$bin" report "$tmp/broken"
}

# Malformed result.json: a container of the wrong type at each level.
# report and compare used to abort in a json-c assertion (SIGABRT) on an
# object where they iterate an array; now result_load names the key.
test_result_json_wrong_shapes() {
	i=0
	for edit in '.phases = {"a": 1}' '.checks = "x"' '.fio = [1]' '.fio.jobs = {"a": 1}' \
		    '.fio.jobs = 5' '.monitor.samples = {}' '.slab_growth = {"x": 1}' \
		    '.slab_growth_rest = 3' '.channel.rejections = "r"' '.disks.virtio = {}' \
		    '.deltas = []' '.inventory = [1]' '.io = {}' '.settings = [1]'; do
		i=$((i + 1))
		key=$(printf '%s' "$edit" | sed 's/^\.\([a-z_.]*\) =.*/\1/')
		mkdir -p "$tmp/shape$i"
		jq -c ".status = \"pass\" | $edit" "$fx/run-i386/result.json" > "$tmp/shape$i/result.json"
		expect 1 "result.json: '$key' should be (array|object), not " -- "$bin" report "$tmp/shape$i"
		expect 2 "result.json: '$key' should be " -- "$bin" compare "$tmp/shape$i" "$tmp/shape$i"
	done
	# Wrong types below the containers are left out of the report, not fatal.
	mkdir -p "$tmp/inner"
	jq -c '.phases = [1, "x", {"name": 5, "meminfo": []}] | .checks = [3, {"name": {}}] |
	       .fio.jobs = [[], {"read": 1}] | .monitor.samples = [null, {"meminfo": "x"}]' \
		"$fx/run-i386/result.json" > "$tmp/inner/result.json"
	expect 0 "" -- "$bin" report "$tmp/inner"
}

# Invalid UTF-8 and C0/C1 controls in a result.json (hand-edited, or from
# an older scaletest): every report is still valid UTF-8 and junit.xml is
# well-formed XML.
test_result_json_bad_bytes() {
	mkdir -p "$tmp/bytes"
	{
		printf '{"schema": 1, "status": "fail", "reason": "bad \302\233 31m \377\376 \001 end",\n'
		printf ' "checks": [{"name": "c\302\205", "pass": false, "detail": "\355\240\200 x"}],\n'
		printf ' "guest": {"k\377": "v\302\233"}}\n'
	} > "$tmp/bytes/result.json"
	expect 0 "" -- "$bin" report "$tmp/bytes"
	checked
	for f in report.md report.html junit.xml; do
		if LC_ALL=C grep -q "$(printf '[\001\033\377\376]')" "$tmp/bytes/$f" ||
		   LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$tmp/bytes/$f"; then
			fail "a control or invalid byte reached $f"
		fi
	done
	if LC_ALL=C grep -q "$(printf '\302\233')" "$tmp/out"; then
		fail "a C1 CSI reached the terminal summary"
	fi
	if command -v xmllint >/dev/null 2>&1; then
		checked
		xmllint --noout "$tmp/bytes/junit.xml" 2>"$tmp/xmllint" ||
			{ fail "junit.xml of hostile bytes is not well-formed XML"; cat "$tmp/xmllint" >&2; }
	fi
}

# run's kernel shorthands and --dry-run.  A fake bzImage: "HdrS" at
# 0x202, boot protocol 2.15, the version string at 0x400 (offset 0x200 at
# 0x20e), XLF_KERNEL_64 at 0x236 for a 64-bit one.
fake_bzimage() { # FILE VERSION 64|32
	{
		head -c 514 /dev/zero
		printf 'HdrS\017\002'
		head -c 6 /dev/zero
		printf '\000\002'
		head -c $((0x236 - 0x210)) /dev/zero
		if [ "$3" = 64 ]; then printf '\001\000'; else printf '\000\000'; fi
		head -c $((0x400 - 0x238)) /dev/zero
		printf '%s (fake@scaletest) #1 SMP\000' "$2"
	} > "$1"
}

dry_setup() {
	fake_bzimage "$tmp/bz64" 6.1.0-fake 64
	fake_bzimage "$tmp/bz32" 6.1.0-fake 32
	mkdir -p "$tmp/mods/lib/modules/6.1.0-fake" "$tmp/nomods" "$tmp/stub"
	: > "$tmp/mods/lib/modules/6.1.0-fake/modules.dep"
	echo 'not a kernel' > "$tmp/notbz"
	# A QEMU that leaves a mark: a dry run must not start one.  Asking its
	# version is not starting one: where /dev/kvm opens, the dry run looks up
	# this host's cached KVM verdict, whose key holds the version.
	for q in qemu-system-x86_64 qemu-system-i386; do
		printf '#!/bin/sh\n[ "$1" = --version ] && { echo "QEMU emulator version 7.2.0 (stub)"; exit 0; }\ntouch "%s/qemu-started"\n' "$tmp" > "$tmp/stub/$q"
		chmod +x "$tmp/stub/$q"
	done
}

dry() {
	env SCALETEST_CACHE="$tmp/dcache" PATH="$tmp/stub:$PATH" "$bin" run --dry-run --out "$tmp/dres" "$@"
}

test_dry_run_kernel() {
	dry_setup
	expect 0 "^  --dry-run +print the plan" -- "$bin" run --help
	expect 0 "^  --kernel BZIMAGE" -- "$bin" run --help
	expect 0 "-kernel $tmp/bz64 -initrd " -- dry "$top/scenarios/smoke" --kernel "$tmp/bz64" --modules "$tmp/mods"
	expect 0 "^qemu-system-x86_64 .* -m 512 -smp 1 " -- dry "$top/scenarios/smoke" --kernel "$tmp/bz64" --modules "$tmp/mods"
	expect 0 "^  kernel_image = $tmp/bz64 +# command line$" -- dry "$top/scenarios/smoke" --kernel "$tmp/bz64" --modules "$tmp/mods"
	expect 0 "^  disks = 40 +# .*smoke:6$" -- dry "$top/scenarios/smoke" --kernel "$tmp/bz64" --modules "$tmp/mods"
	expect 0 "^  40 scsi_debug \(1 host x 1 targets x 40 LUNs" -- dry "$top/scenarios/smoke" --kernel "$tmp/bz64" --modules "$tmp/mods"
	# Under TCG the guest skips the IO-APIC timer check (a busy host fails it).
	expect 0 "accel=tcg .* -append '[^']* no_timer_check'" -- dry "$top/scenarios/smoke" --kernel "$tmp/bz64" --modules "$tmp/mods" --set accel=tcg
	expect 0 "accel=kvm .* -append '[^']*rdinit=/init'" -- dry "$top/scenarios/smoke" --kernel "$tmp/bz64" --modules "$tmp/mods" --set accel=kvm
	checked
	dry "$top/scenarios/smoke" --kernel "$tmp/bz64" --modules "$tmp/mods" --set virtio_disks=3 > "$tmp/plan" 2>&1
	drives=$(grep '^qemu-system' "$tmp/plan" | tr ' ' '\n' | grep -c '^if=none,id=vd[0-9]*,file=')
	[ "$drives" = 3 ] || fail "dry run with virtio_disks=3: $drives -drive options in the qemu command line"
	checked
	[ -e "$tmp/qemu-started" ] && fail "a dry run started QEMU"
	[ -e "$tmp/dres" ] && fail "a dry run made the results directory"
}

# Without a scenario: the default one, its arch from the image.
test_dry_run_default_scenario() {
	dry_setup
	expect 0 "^scenario .*/scenarios/seed-i386-4000, resolved" -- dry --kernel "$tmp/bz64" --modules "$tmp/mods"
	expect 0 "arch = x86_64, as the --kernel image says \(.*seed-i386-4000 had i386\)" -- dry --kernel "$tmp/bz64" --modules "$tmp/mods"
	expect 0 "^qemu-system-x86_64 " -- dry --kernel "$tmp/bz64" --modules "$tmp/mods"
	expect 0 "^qemu-system-i386 " -- dry --kernel "$tmp/bz32" --modules "$tmp/mods"
}

# Bad paths and conflicts: usage errors (exit 2) that name the input.
test_dry_run_bad_paths() {
	dry_setup
	expect 2 "^scaletest: --kernel '$tmp/nope': No such file or directory$" -- dry --kernel "$tmp/nope"
	expect 2 "^scaletest: --kernel '$tmp/notbz': not a bzImage" -- dry --kernel "$tmp/notbz"
	expect 2 "^scaletest: --modules '$tmp/nomods' is not a modules tree" -- dry --kernel "$tmp/bz64" --modules "$tmp/nomods"
	expect 2 "^scaletest: --kernel '$tmp/bz64' \(6\.1\.0-fake\) needs --modules DIR: /lib/modules/6\.1\.0-fake has no modules\.dep" -- dry --kernel "$tmp/bz64"
	expect 2 "^scaletest: --kernel and --set kernel_package=linux-image-amd64 both choose the kernel: give one$" -- dry "$top/scenarios/smoke" --kernel "$tmp/bz64" --modules "$tmp/mods" --set kernel_package=linux-image-amd64
	expect 2 "^scaletest: --kernel and --source name two kernels: give one$" -- dry --kernel "$tmp/bz64" --source "$fx/kbuild/tree"
	expect 2 "^scaletest: --kernel '$tmp/bz32' is an i386 kernel, but .*scenarios/smoke:4 sets arch = x86_64 \(add --set arch=i386, or give an x86_64 kernel\)$" -- dry "$top/scenarios/smoke" --kernel "$tmp/bz32" --modules "$tmp/mods"
	expect 2 "^scaletest: --kernel '$tmp/bz64' is an x86_64 kernel, but --set arch=i386$" -- dry --kernel "$tmp/bz64" --modules "$tmp/mods" --set arch=i386
	expect 2 "^scaletest: --modules goes with --kernel BZIMAGE$" -- dry "$top/scenarios/smoke" --modules "$tmp/mods"
	expect 2 "^scaletest: --patches needs --source TREE, or a scenario with kernel = build" -- dry "$top/scenarios/smoke" --patches "$fx/kbuild/bad"
	expect 2 "^scaletest: --source '$tmp/nope': No such file or directory$" -- dry --source "$tmp/nope"
	expect 2 "run needs a scenario \(or --kernel BZIMAGE or --source TREE\)" -- "$bin" run --dry-run
}

# A scenario's own kernel gives way to --kernel, and the note says which lines.
test_dry_run_scenario_kernel_gives_way() {
	dry_setup
	expect 0 "^scaletest: --kernel replaces the kernel of .*build-i386-4000-patched: kernel = build \(line 6\), kernel_source = debian \(line 7\), kernel_patches = .*sched-tags-32 \(line 8\)$" -- dry "$top/scenarios/build-i386-4000-patched" --kernel "$tmp/bz32" --modules "$tmp/mods"
	expect 0 "^  kernel_patches = \"\" +# command line$" -- dry "$top/scenarios/build-i386-4000-patched" --kernel "$tmp/bz32" --modules "$tmp/mods"
}

# --source: what would be built, nothing built; --patches on a build scenario.
test_dry_run_source() {
	dry_setup
	expect 0 "not cached: a run would build $fx/kbuild/tree with 1 patch \(0001-does-not-apply\.patch\), tinyconfig plus base\.config, i386-highmem\.config, fast-boot\.config, for i386" -- dry --source "$fx/kbuild/tree" --patches "$fx/kbuild/bad"
	expect 0 " -kernel KERNEL_IMAGE -initrd " -- dry --source "$fx/kbuild/tree"
	checked
	[ -e "$tmp/dcache/kernels/build" ] && [ -n "$(ls "$tmp/dcache/kernels/build")" ] && fail "a dry run built a kernel"
	expect 0 "^  kernel_patches = $fx/kbuild/bad +# command line$" -- dry "$top/scenarios/build-i386-4000-stock" --patches "$fx/kbuild/bad" --set kernel_source="$fx/kbuild/tree"
}

# --connect: the domain XML instead of QEMU's command line.
test_dry_run_libvirt() {
	dry_setup
	if pkg-config --exists libvirt libxml-2.0 2>/dev/null; then
		expect 0 "^<domain type=\"qemu\">$" -- dry "$top/scenarios/smoke" --kernel "$tmp/bz64" --modules "$tmp/mods" --connect qemu:///system --set accel=tcg
		expect 0 "^<domain type=\"kvm\">$" -- dry "$top/scenarios/smoke" --kernel "$tmp/bz64" --modules "$tmp/mods" --connect qemu:///system --set accel=kvm
		expect 0 "<name>scaletest-RUN_ID-XXXXXXXX</name>" -- dry "$top/scenarios/smoke" --kernel "$tmp/bz64" --modules "$tmp/mods" --connect qemu:///system --set accel=tcg
		expect 0 "<kernel>$tmp/bz64</kernel>" -- dry "$top/scenarios/smoke" --kernel "$tmp/bz64" --modules "$tmp/mods" --connect qemu:///system --set accel=tcg
	else
		skip "built without libvirt"
	fi
}

# Modules as kernels ship them (tests/fixtures/kmod/mktree.sh: a tree of
# .ko.xz/.zst/.gz indexed by depmod, and trees each broken one way): what
# the harness cannot use is exit 3 before anything boots, naming the file
# and what to do.  The stub QEMU marks a start; the cache is the test's own.
kmt() { sh "$top/tests/fixtures/kmod/mktree.sh" "$@" 2>/dev/null; }
test_modules_as_shipped() {
	dry_setup
	fake_bzimage "$tmp/bzk" 9.9.9-scaletest 64
	mrun() {
		env SCALETEST_CACHE="$tmp/mcache" PATH="$tmp/stub:$PATH" "$bin" run "$top/scenarios/smoke" \
			--out "$tmp/mres" --set fio=0 "$@"
	}
	for v in damaged sigafter notelf bz2 nodep; do
		kmt "$tmp/kmod-$v" "$v"
	done
	expect 3 "module '$tmp/kmod-damaged/lib/modules/9\.9\.9-scaletest/kernel/drivers/scsi/scsi_debug\.ko\.xz' \(xz\): .*the file is damaged" -- \
		mrun --kernel "$tmp/bzk" --modules "$tmp/kmod-damaged"
	expect 3 "module '.*/kmod-sigafter/.*/scsi_debug\.ko\.xz' has a signature appended after it was compressed" -- \
		mrun --kernel "$tmp/bzk" --modules "$tmp/kmod-sigafter"
	expect 3 "module '.*/kmod-notelf/.*/scsi_debug\.ko\.xz' is not an ELF file once decompressed" -- \
		mrun --kernel "$tmp/bzk" --modules "$tmp/kmod-notelf"
	expect 3 "module 'scsi_debug' is not in modules.dep although '.*/kmod-bz2/.*/scsi_debug\.ko\.bz2' is there: it is compressed in a way neither the kernel's module loader nor depmod reads" -- \
		mrun --kernel "$tmp/bzk" --modules "$tmp/kmod-bz2"
	expect 3 "kernel 9\.9\.9-scaletest: '.*/kmod-nodep/lib/modules/9\.9\.9-scaletest/modules\.dep' is missing: .*run 'depmod -b ROOT VERSION'" -- \
		mrun --kernel "$tmp/bzk" --modules "$tmp/kmod-nodep/lib/modules/9.9.9-scaletest"
	# virtio-blk disks: virtio_blk.ko.gz, which Debian's depmod passes over.
	kmt "$tmp/kmod-ok"
	expect 3 "module 'virtio_blk' is not in modules.dep although '.*/virtio_blk\.ko\.gz' is there" -- \
		mrun --kernel "$tmp/bzk" --modules "$tmp/kmod-ok" --set virtio_bus=blk
	checked
	[ -e "$tmp/qemu-started" ] && fail "a run refused for its modules started QEMU"
	# The same as a Debian package (apt-cache and apt-get download stubbed for
	# this one package, the real ones for busybox): the harness unpacks it,
	# indexes it with depmod and refuses its signed-then-compressed module.
	pk=$tmp/pkg
	kmt "$pk/root" sigafter
	cp "$tmp/bzk" "$pk/root/boot/vmlinuz-9.9.9-scaletest"
	mkdir -p "$pk/root/DEBIAN" "$pk/apt"
	printf 'Package: linux-image-9.9.9-scaletest\nVersion: 9.9.9-1\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: test\n' > "$pk/root/DEBIAN/control"
	dpkg-deb -b -Znone "$pk/root" "$pk/linux-image-9.9.9-scaletest_9.9.9-1_amd64.deb" > /dev/null
	real_cache=$(command -v apt-cache) real_get=$(command -v apt-get)
	printf '#!/bin/sh\ncase "$*" in *linux-image-9.9.9-scaletest*) printf "Package: linux-image-9.9.9-scaletest\\nVersion: 9.9.9-1\\n\\n"; exit 0 ;; esac\nexec %s "$@"\n' "$real_cache" > "$pk/apt/apt-cache"
	printf '#!/bin/sh\ncase "$*" in *linux-image-9.9.9-scaletest*) cp "%s"/*.deb . ; exit 0 ;; esac\nexec %s "$@"\n' "$pk" "$real_get" > "$pk/apt/apt-get"
	chmod +x "$pk/apt/apt-cache" "$pk/apt/apt-get"
	expect 3 "module '.*/kernels/debian/linux-image-9\.9\.9-scaletest_9\.9\.9-1_amd64/lib/modules/9\.9\.9-scaletest/kernel/drivers/scsi/scsi_debug\.ko\.xz' has a signature appended after it was compressed" -- \
		env SCALETEST_CACHE="$tmp/mcache" PATH="$pk/apt:$tmp/stub:$PATH" "$bin" run "$top/scenarios/smoke" \
			--out "$tmp/mres" --set fio=0 --set kernel_package=linux-image-9.9.9-scaletest
	checked
	[ -e "$tmp/qemu-started" ] && fail "a run refused for its package's modules started QEMU"
}

# Past bsg's 32,768 minors on a kernel before 6.5 with BLK_DEV_BSG: refused
# before anything is made (exit 2), naming the limit and the kernels that
# lift it; the same count on 6.5 and later, with virtio-blk disks, or on a
# kernel without bsg is not refused (it goes on, to the modules, which
# these fake trees do not have: exit 3).  1 kB a disk: only bsg is asked.

# A scsi_debug host of more than 4096 disks: insmod returned a fifth later
# on one host than over many (docs/many-disks.md).  The plan (and the run)
# say so and name the sd_hosts that make hosts of at most 1024 disks, as
# measured; a sweep, whose hosts its steps make, is told that a run can.
# A layout under the line says nothing.
test_crowded_host_note() {
	dry_setup
	crowd() { dry "$top/scenarios/smoke" --kernel "$tmp/bz64" --modules "$tmp/mods" \
		--set disk_cost_kb=1 --set virtio_disks=0 "$@"; }
	expect 0 "^  note: 8192 disks a scsi_debug host: insmod returns long after the last of them appears \(32,768 disks on one host took 20% longer than over 32 hosts: docs/many-disks.md\); spread them: sd_hosts = 8 \(1024 disks a host\)$" -- \
		crowd --set disks=8192
	expect 0 "^  note: 12000 disks a scsi_debug host: .*spread them: sd_hosts = 24 \(1000 disks a host\)$" -- \
		crowd --set disks=24000 --set sd_hosts=2
	expect 0 "^  note: 65536 disks a scsi_debug host: .*spread them: sd_hosts = 64 \(1024 disks a host\)$" -- \
		crowd --set disks=65536
	expect 0 "^  note: 16384 disks a scsi_debug host: .*a sweep adds hosts of its steps' greatest common divisor and cannot spread them; a run of its peak can: sd_hosts = 32 \(1024 disks a host\)$" -- \
		crowd --set sweep=0,16384,32768
	expect 0 "^  note: 8191 disks a .*spread them: no sd_hosts up to 1024 divides 8191 disks into hosts of at most 1024$" -- \
		crowd --set disks=8191
	for layout in "disks=4096" "disks=16384 sd_hosts=4" "sweep=0,4096,8192"; do
		# shellcheck disable=SC2086
		crowd $(printf -- '--set %s ' $layout) > "$tmp/crowd.out" 2>&1
		check "$layout: planned" grep -q "^disks:" "$tmp/crowd.out"
		check "$layout: no note on hosts of at most 4096 disks" lacks "$tmp/crowd.out" "a scsi_debug host:"
	done
	expect 0 "1024 hosts x 1 targets x 1 LUNs" -- crowd --set disks=1024 --set sd_hosts=1024
	expect 2 "sd_hosts" -- crowd --set disks=2050 --set sd_hosts=1025
}
test_bsg_limit() {
	dry_setup
	for v in 6.1.0-fake 6.12.0-fake; do
		kmt "$tmp/bsg-$v" nodep
		mv "$tmp/bsg-$v/lib/modules/9.9.9-scaletest" "$tmp/bsg-$v/lib/modules/$v"
		printf 'CONFIG_SCSI=y\nCONFIG_BLK_DEV_BSG=y\n' > "$tmp/bsg-$v/lib/modules/$v/config"
		fake_bzimage "$tmp/bz-$v" "$v" 64
	done
	bsg() { # VERSION SETTING...
		_v=$1
		shift
		env SCALETEST_CACHE="$tmp/mcache" PATH="$tmp/stub:$PATH" "$bin" run "$top/scenarios/smoke" \
			--out "$tmp/bres" --set fio=0 --set disk_cost_kb=1 --kernel "$tmp/bz-$_v" \
			--modules "$tmp/bsg-$_v" "$@"
	}
	expect 2 "smoke: 32770 SCSI devices \\(32760 scsi_debug disks, then 10 virtio-scsi disks after 32760\\) are more than the 32768 that bsg \\(CONFIG_BLK_DEV_BSG\\) gives minors to on Linux before 6\\.5, and kernel 6\\.1\\.0-fake has it" -- \
		bsg 6.1.0-fake --set disks=32760 --set virtio_disks=10
	expect 2 "Linux 6\\.5 raised the limit to 2\\^20 \\(commits 9077fb2ab78c and 37c918e03ef7\\).*virtio_bus = blk" -- \
		bsg 6.1.0-fake --set disks=32760 --set virtio_disks=10
	expect 2 "40000 SCSI devices \\(40000 scsi_debug disks\\) are more than the 32768" -- \
		bsg 6.1.0-fake --set disks=40000 --set virtio_disks=0
	expect 2 "65536 SCSI devices .* sweep|65536 SCSI devices \\(65536 scsi_debug disks" -- \
		bsg 6.1.0-fake --set sweep=0,32768,65536 --set virtio_disks=0
	checked
	[ -e "$tmp/bres" ] && fail "a layout refused for bsg made a results directory"
	expect 2 "40000 SCSI devices" -- bsg 6.1.0-fake --set disks=40000 --set virtio_disks=0 --dry-run
	expect 3 "modules\\.dep. is missing" -- bsg 6.1.0-fake --set disks=32760 --set virtio_disks=10 --set virtio_bus=blk
	expect 3 "modules\\.dep. is missing" -- bsg 6.1.0-fake --set disks=32768 --set virtio_disks=0
	expect 3 "modules\\.dep. is missing" -- bsg 6.12.0-fake --set disks=65536 --set virtio_disks=4
	sed -i 's/CONFIG_BLK_DEV_BSG=y/# CONFIG_BLK_DEV_BSG is not set/' "$tmp/bsg-6.1.0-fake/lib/modules/6.1.0-fake/config"
	expect 3 "modules\\.dep. is missing" -- bsg 6.1.0-fake --set disks=40000
	checked
	[ -e "$tmp/qemu-started" ] && fail "a run refused before boot started QEMU"
}

# A disk class the kernel cannot provide, and more devices than a class
# allows: refused before anything is made (exit 2), naming what is
# missing or the limit, and what to use instead (docs/disk-classes.md).
test_disk_class_refused() {
	dry_setup
	v=6.1.0-fake
	kmt "$tmp/dc" nodep
	mv "$tmp/dc/lib/modules/9.9.9-scaletest" "$tmp/dc/lib/modules/$v"
	printf 'CONFIG_SCSI=y\nCONFIG_BLK_DEV_NULL_BLK=m\nCONFIG_CONFIGFS_FS=m\nCONFIG_NVME_TARGET=m\n# CONFIG_NVME_TARGET_LOOP is not set\nCONFIG_NVME_TARGET_TCP=m\nCONFIG_NVME_TCP=m\n' \
		> "$tmp/dc/lib/modules/$v/config"
	fake_bzimage "$tmp/bz-dc" "$v" 64
	dc() {
		env SCALETEST_CACHE="$tmp/mcache" PATH="$tmp/stub:$PATH" "$bin" run "$top/scenarios/smoke" \
			--out "$tmp/dcres" --set fio=0 --kernel "$tmp/bz-dc" --modules "$tmp/dc" "$@"
	}
	expect 2 "smoke: disk_class = nvme_loop needs the NVMe target's loop transport \\(nvme-loop\\) \\(CONFIG_NVME_TARGET_LOOP\\), and kernel 6\\.1\\.0-fake has it neither built in nor as a module: Debian builds nvme-loop from 6\\.12 on .*nvme_transport = tcp" -- \
		dc --set disk_class=nvme_loop
	expect 2 "CONFIG_NVME_TARGET_LOOP" -- dc --set disk_class=nvme_loop --dry-run
	checked
	[ -e "$tmp/dcres" ] && fail "a class the kernel lacks made a results directory"
	sed -i 's/CONFIG_BLK_DEV_NULL_BLK=m/# CONFIG_BLK_DEV_NULL_BLK is not set/' "$tmp/dc/lib/modules/$v/config"
	expect 2 "disk_class = null_blk needs null_blk \\(the block layer's test device\\) \\(CONFIG_BLK_DEV_NULL_BLK\\).*or disk_class = scsi_debug" -- \
		dc --set disk_class=null_blk
	expect 2 "disk_class = nvme_loop needs null_blk \\(the namespaces' backing device\\)" -- \
		dc --set disk_class=nvme_loop --set nvme_transport=tcp
	# With the class's modules there, the refusal is past: the next
	# missing piece of this fake tree is modules.dep.
	sed -i 's/# CONFIG_BLK_DEV_NULL_BLK is not set/CONFIG_BLK_DEV_NULL_BLK=m/' "$tmp/dc/lib/modules/$v/config"
	expect 3 "modules\\.dep. is missing" -- dc --set disk_class=nvme_loop --set nvme_transport=tcp
	checked
	[ -e "$tmp/qemu-started" ] && fail "a run refused before boot started QEMU"
	# More than the class allows, before any kernel: scenario check.
	expect 2 "disks: 524289 nvme_loop namespaces are more than the 524288 one boot can make: each namespace takes two of the 2\\^20 minors" -- \
		"$bin" check "$top/scenarios/smoke" --set disk_class=nvme_loop --set disks=524289 --set disk_cost_kb=1 --set memory_mb=65536
	expect 2 "sd_hosts is a key of disk_class = scsi_debug, and this scenario's disk_class is null_blk" -- \
		"$bin" check "$top/scenarios/smoke" --set disk_class=null_blk --set sd_hosts=2
	expect 2 "nvme_ns_per_subsys: 1025 namespaces a subsystem are more than the 1024 the kernel.s NVMe target holds \\(NVMET_MAX_NAMESPACES" -- \
		"$bin" check "$top/scenarios/smoke" --set disk_class=nvme_loop --set nvme_ns_per_subsys=1025
}

# compare of more than two sides: the first is the base; usage errors.
test_compare_sides() {
	rx=$fx/replay
	expect 2 "compare takes two sides or more" -- "$bin" compare "$rx/garble"
	expect 2 "--format: 'html' is not text, md or json" -- "$bin" compare --format html "$rx/garble" "$rx/garble"
	expect 2 "compare takes at most 10 sides, not 11" -- "$bin" compare \
		"$rx/garble" "$rx/garble" "$rx/garble" "$rx/garble" "$rx/garble" "$rx/garble" \
		"$rx/garble" "$rx/garble" "$rx/garble" "$rx/garble" "$rx/garble"
	expect 2 "settings.scheduler: default vs default vs $" -- \
		"$bin" compare "$rx/smoke-x86_64" "$rx/garble" "$fx/run"
	# C regresses on a gating metric: exit 1, the only REGRESSION is C's.
	expect 1 "^  C: 20261203-054926-smoke .*: REGRESSION$" -- \
		"$bin" compare --allow-mismatch --format text "$rx/smoke-x86_64" "$rx/garble" "$fx/run"
	checked
	if [ "$(grep -c 'REGRESSION' "$tmp/out")" != 3 ]; then	# the verdict, C's line, one metric
		fail "compare --format text: REGRESSION other than for C's gating metric"
		sed 's/^/    /' "$tmp/out" >&2
	fi
	expect 1 "^enumeration time .* worse " -- sh -c "\"$bin\" compare --allow-mismatch --format text \
		\"$rx/smoke-x86_64\" \"$rx/garble\" \"$fx/run\" | sed 's/^ *//'; exit 1"
	expect 0 '"schema": 2' -- "$bin" compare --format json "$rx/garble" "$rx/smoke-x86_64"
	expect 0 '"label": "20261203-161611-smoke #3"' -- \
		"$bin" compare --format json "$rx/smoke-x86_64" "$rx/garble" "$rx/smoke-x86_64"
}

# report never writes into a committed baseline's run without --out; with
# --out it writes there and leaves the run alone.
test_report_baseline_guard() {
	mkdir -p "$tmp/results/baselines/smoke--0123/1"
	cp "$fx/run/result.json" "$tmp/results/baselines/smoke--0123/1/"
	expect 2 "is a run of a committed baseline: .* --out DIR" -- "$bin" report "$tmp/results/baselines/smoke--0123/1"
	expect 2 "is a run of a committed baseline" -- "$bin" report --replay "$tmp/results/baselines/smoke--0123/1"
	expect 0 "^scaletest 20261203-054926-smoke: pass" -- \
		"$bin" report "$tmp/results/baselines/smoke--0123/1" --out "$tmp/bl-report"
	checked
	if [ "$(ls "$tmp/results/baselines/smoke--0123/1")" != result.json ] || [ ! -s "$tmp/bl-report/report.html" ]; then
		fail "report --out of a baseline's run: not written to --out only"
	fi
	mkdir -p "$tmp/elsewhere/smoke--4567/2"
	cp "$fx/run/result.json" "$tmp/elsewhere/smoke--4567/2/"
	echo '{}' > "$tmp/elsewhere/smoke--4567/key.json"
	expect 2 "is a run of a committed baseline" -- "$bin" report "$tmp/elsewhere/smoke--4567/2"
}

# docs/scenarios.md's key reference is the key table's own output.
test_docs_keys() {
	checked
	sed -n '/<!-- keys:start -->/,/<!-- keys:end -->/p' "$top/docs/scenarios.md" | sed '1d;$d' > "$tmp/docs-keys"
	check "docs/scenarios.md has the key reference's markers" grep -q '<!-- keys:end -->' "$top/docs/scenarios.md"
	"$bin" keys > "$tmp/keys"
	if ! diff -u "$tmp/keys" "$tmp/docs-keys" >&2; then
		fail "docs/scenarios.md's key reference is stale: regenerate it with 'make docs-keys'"
	fi
}

# scaletest bisect: every bad input is said before anything is built or
# written (exit 2); a tiny repository stands in for a kernel tree.
bisect_repo() {
	g=$tmp/git
	[ -d "$g/.git" ] && return 0
	git init -q "$g"
	for i in 0 1 2 3; do
		echo "$i" > "$g/f"
		git -C "$g" add f
		git -C "$g" -c user.name=t -c user.email=t@t commit -q -m "c$i"
	done
	git -C "$g" checkout -q -b side HEAD~2
	echo side > "$g/s"
	git -C "$g" add s
	git -C "$g" -c user.name=t -c user.email=t@t commit -q -m side
	git -C "$g" checkout -q master
}

sm=$top/scenarios/smoke
bis() { # exit pattern args...: bisect of the smoke scenario into $tmp/bis
	want=$1 pat=$2
	shift 2
	expect "$want" "$pat" -- env SCALETEST_CACHE="$tmp/cache" "$bin" bisect "$sm" --out "$tmp/bis" "$@"
}

m="--metric memfree_per_disk"
test_bisect_bad_input() {
	bisect_repo
	bis 2 "bisect needs --source TREE, --good REV and --bad REV" --source "$g" $m --max 1
	bis 2 "bisect needs a criterion: --max N" --source "$g" --good HEAD~1 --bad HEAD $m
	bis 2 "give one of --max, --min, --baseline, --worse-than-good" --source "$g" --good HEAD~1 --bad HEAD $m --max 1 --worse-than-good
	bis 2 "bisect needs --metric NAME" --source "$g" --good HEAD~1 --bad HEAD --max 1
	bis 2 "unknown metric 'lowfree'; known: lowfree_per_disk memfree_per_disk" --source "$g" --good HEAD~1 --bad HEAD --metric lowfree --max 1
	bis 2 "--max/--min: 'x' is not a number" --source "$g" --good HEAD~1 --bad HEAD $m --max x
	bis 2 "--runs: '0' is not a count from 1 to 20" --source "$g" --good HEAD~1 --bad HEAD $m --max 1 --runs 0
	bis 2 "--source '$tmp' is not a git repository" --source "$tmp" --good HEAD~1 --bad HEAD $m --max 1
	bis 2 "--bad 'nosuch' is not a commit of '$g'" --source "$g" --good HEAD~1 --bad nosuch $m --max 1
	bis 2 "--good '--output=x' is not a commit" --source "$g" --good=--output=x --bad HEAD $m --max 1
	bis 2 "--good side \([0-9a-f]{12}\) is not an ancestor of --bad master" --source "$g" --good side --bad master $m --max 1
	bis 2 "--good and --bad are the same commit" --source "$g" --good master --bad HEAD $m --max 1
	echo dirty >> "$g/f"
	bis 2 "'$g' has uncommitted changes to tracked files" --source "$g" --good HEAD~2 --bad HEAD $m --max 1
	git -C "$g" checkout -q f
	checked
	[ -e "$tmp/bis" ] && fail "bisect wrote its directory for bad input"
}

# A good end that does not build (this repository has no kernel in it):
# nothing to bisect, exit 1, the bisect directory says why; the user's
# tree has no bisect state and no new worktree.
test_bisect_unbuildable_good() {
	bisect_repo
	bis 1 "--good HEAD~2 is skip: the build failed" --source "$g" --good HEAD~2 --bad HEAD $m --max 1
	checked
	jq -e '.outcome == "good_untestable" and (.steps | length) == 1' "$tmp"/bis/bisect-*/bisect.json >/dev/null ||
		fail "bisect.json of an unbuildable good end"
	checked
	{ git -C "$g" rev-parse -q --verify BISECT_HEAD || [ -n "$(git -C "$g" worktree list | sed 1d)" ] ||
	  [ -n "$(git -C "$g" status --porcelain)" ]; } >/dev/null 2>&1 &&
		fail "bisect left state in the user's repository"
}

# The layering check (make check runs it on harness/) fails on a cycle of
# includes, naming its modules; on a cycle of calls that no include shows
# (a prototype written out by hand), naming the names; and on a call up a
# floor.
test_includes_check() {
	expect 1 "^includes: cycle: a/x a/y a/z$" -- sh "$top/tests/includes.sh" "$fx/includes/cycle"
	expect 1 "^  a/y -> a/z$" -- sh "$top/tests/includes.sh" "$fx/includes/cycle"
	expect 1 "^includes: 1 problem$" -- sh "$top/tests/includes.sh" "$fx/includes/cycle"
	expect 0 "^includes: 1 modules, no cycles$" -- sh "$top/tests/includes.sh" "$fx/includes/ok"
	expect 1 "^includes: cycle: a/x a/y$" -- sh "$top/tests/includes.sh" "$fx/includes/calls"
	expect 1 "^  a/y -> a/x \(uses x\(\)\)$" -- sh "$top/tests/includes.sh" "$fx/includes/calls"
	expect 1 "^includes: floor: lo/l uses h\(\) of hi/h: hi/ stands above lo/$" -- \
		sh "$top/tests/includes.sh" "$fx/includes/floor"
	expect 1 "^includes: 1 problem$" -- sh "$top/tests/includes.sh" "$fx/includes/floor"
}

# A results directory without room, or read-only: exit 3 before anything
# is fetched or booted, no run directory (root only: it mounts tmpfs).
test_results_dir_room() {
	if [ "$(id -u)" = 0 ] && mkdir -p "$tmp/small" "$tmp/ro" &&
	   mount -t tmpfs -o size=2m tmpfs "$tmp/small" 2>/dev/null; then
		expect 3 "the results directory '$tmp/small/r' has [0-9]+ MiB free; this run needs about 192 MiB \(2 virtio disks of 64 MiB" -- \
			"$bin" run "$top/scenarios/smoke" --out "$tmp/small/r"
		check "a run refused for room left no file in its results directory" none_in "$tmp/small/r"
		umount "$tmp/small"
		if mount -t tmpfs -o ro tmpfs "$tmp/ro" 2>/dev/null; then
			expect 3 "the results directory '$tmp/ro' is not writable: Read-only file system" -- \
				"$bin" run "$top/scenarios/smoke" --out "$tmp/ro"
			umount "$tmp/ro"
		fi
	else
		skip "needs root and tmpfs"
	fi
}

run_tests "$@"
