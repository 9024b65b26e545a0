#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# End-to-end tests of kernels built from source: Debian's linux-source of
# the prebuilt kernel's version, built with kernel-configs/ (tinyconfig +
# base, x86_64, fast-boot), stock and with scenarios/patches/sched-tags-32;
# both booted with the smoke scenario; and every way a build can go wrong.
#
#   sh tests/e2e/kernel.sh [NAME...]
#
# The first build is cold (a few minutes); later ones reuse the work tree
# and ccache.  Tests share what they built: one run alone first makes what
# it needs (the stock build, the two boots, the debug run).  They run in
# the order that builds each configuration once in each object tree (one
# a source and architecture): in each series the stock build, the patched
# ones and the failing ones first, the debug build last (its options are
# read by most of the kernel's files: switching the tree to it and back
# would compile most of the kernel twice).  make test runs this suite after
# bench/smoke, which builds the stock 6.1 kernel, and before e2e/bisect,
# which clones its histories from the sources unpacked here (# order).
# suite: full
# After bench/smoke, before e2e/bisect (above).
# order: 85
# lane: kernel
set -u
. "$(dirname "$0")/lib.sh"

fx=$top/tests/fixtures
patched=$top/scenarios/patches/sched-tags-32
cache=$("$bin" cache list | sed -n 's/^cache: //p')
builds=$cache/kernels/build

# kbuild ARGS...: scaletest kernel build into $klog; sets $rc, $image.
kbuild() {
	nbuilds=$((${nbuilds:-0} + 1))
	klog=$out/kbuild-$nbuilds.log
	"$bin" kernel build --arch x86_64 "$@" > "$klog" 2>&1
	rc=$?
	image=$(sed -n 's/^image //p' "$klog")
}

entries() {
	ls "$builds" 2>/dev/null | grep -v -e '\.lock$' -e '\.tmp-' | sort
}

test_build_stock() {
	kbuild
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "bzImage exists" [ -s "$image" ]
	check "modules staged with modules.dep" [ -s "$(sed -n 's/^modules //p' "$klog")/modules.dep" ]
	stock_image=$image
}

test_cache_hit() {
	[ -n "${stock_image:-}" ] || test_build_stock
	kbuild
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "reported as cached" grep -q "(cached)" "$klog"
	check "same artifact" [ "$image" = "$stock_image" ]
	check "nothing was compiled" sh -c "! grep -q 'building (' '$klog'"
}

test_build_patched() {
	kbuild --patches "$patched"
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "a different artifact" test -n "$image" -a "$image" != "$stock_image"
	check "the patch applied, or the build was cached" grep -q -e "applying 0001-blk-mq-sched" -e "(cached)" "$klog"
}

# Boot both, with enough disks that the difference is not lost in noise:
# the patched kernel preallocates 32 scheduler requests per disk, not 256.
test_boot_stock_vs_patched() {
	run_smoke boot-stock --set kernel=build --set disks=200
	stock_dir=$dir
	check "stock: status pass" j '.status == "pass" and .kernel.source == "build"'
	check "stock: records over the UART (no virtio_console in the build)" j '.vm.channel == "uart"'
	check "stock: no patches recorded" j '.kernel.build.patches == []'
	check "stock: present == requested" j '.disks.present == .disks.requested'
	run_smoke boot-patched --set kernel=build --set disks=200 --set kernel_patches="$patched"
	check "patched: status pass" j '.status == "pass"'
	check "patched: the patch recorded" j '.kernel.build.patches | length == 1'
	patched_dir=$dir
	s=$(jq '.deltas.insmod.per_disk_bytes.MemFree' "$stock_dir/result.json")
	p=$(jq '.deltas.insmod.per_disk_bytes.MemFree' "$dir/result.json")
	say "  per-disk MemFree: stock $s B, patched $p B"
	check "patched costs less per disk than stock ($p < $s)" [ "$p" -lt "$s" ]
}

# channel = virtio on a kernel without virtio_console: refused before boot,
# naming the kernel and the way out.
test_channel_virtio_refused() {
	run_smoke virtio-refused --set kernel=build --set disks=200 --set channel=virtio
	check "exit status 1 (got $rc)" [ "$rc" = 1 ]
	check "status error, nothing booted" j '.status == "error" and (.phases | length) == 0'
	check "the reason names virtio_console and the way out" grep -q "has no virtio_console.*use channel = uart or auto" "$log"
}

# Stock against patched is what compare is for: the patch is an
# improvement one way and a regression the other, and what differs is named.
test_compare_stock_patched() {
	[ -n "${patched_dir:-}" ] || test_boot_stock_vs_patched
	"$bin" compare "$stock_dir" "$patched_dir" > "$out/cmp1.log" 2>&1
	rc=$?
	check "stock -> patched: exit 0 (got $rc)" [ "$rc" = 0 ]
	check "stock -> patched: improvement" grep -q "^# scaletest compare: improvement" "$out/cmp1.log"
	check "the patch is named as the difference" grep -q "kernel.build.patches (none) → 0001-blk-mq-sched" "$out/cmp1.log"
	"$bin" compare "$patched_dir" "$stock_dir" > "$out/cmp2.log" 2>&1
	rc=$?
	check "patched -> stock: exit 1 (got $rc)" [ "$rc" = 1 ]
	check "patched -> stock: regression" grep -q "^# scaletest compare: regression" "$out/cmp2.log"
}

test_patch_does_not_apply() {
	before=$(entries)
	kbuild --patches "$fx/patches/bad"
	check "exit status 3 (got $rc)" [ "$rc" = 3 ]
	check "names the patch, the source and the hunk" grep -q "patch '0001-does-not-apply.patch' does not apply to debian:linux-source-.* (block/blk-mq-sched.c hunk #1), nothing was built" "$klog"
	check "shows the failing file" grep -q "block/blk-mq-sched.c" "$klog"
	check "shows the rejected hunk" grep -q "this line is not in any kernel" "$klog"
	check "no cache entry added" [ "$(entries)" = "$before" ]
}

# The glue-directory patch written for 6.12 (kernel-configs/patches/
# glue-dir-612) on Debian's 6.1 source, whose get_device_parent() still
# reaches the class through dev->class->p: the run stops before building,
# exit 3, naming the patch, the source and the hunk, and builds nothing
# (the 6.1 work tree is reset and the patch tried: no compile).
test_glue_patch_wrong_source() {
	before=$(entries)
	"$bin" run "$top/scenarios/smoke" --source debian \
		--patches "$top/kernel-configs/patches/glue-dir-612" --out "$out/glue-61" \
		> "$out/glue-61.log" 2>&1
	rc=$?
	check "exit status 3 (got $rc)" [ "$rc" = 3 ]
	check "names the patch, the source and the hunk" grep -q \
		"patch '0001-driver-core-find-glue-directories-by-name.patch' does not apply to debian:linux-source-6\.1=.* (drivers/base/core.c hunk #[0-9]" \
		"$out/glue-61.log"
	check "says so before building" sh -c "! grep -q -e 'configuring:' -e 'building (' '$out/glue-61.log'"
	check "the run's reason" jq -e '.status == "error" and (.reason | test("^refused before build: patch .0001-driver-core-find-glue-directories-by-name.patch. does not apply"))' \
		"$out"/glue-61/*-smoke/result.json
	check "no cache entry added" [ "$(entries)" = "$before" ]
	check "no QEMU left running" no_qemu_left glue-61
}

test_dropped_option() {
	before=$(entries)
	kbuild --fragment "$fx/kconfig/dropped.config"
	check "exit status 1 (got $rc)" [ "$rc" = 1 ]
	check "names the dropped option" grep -q "CONFIG_SCALETEST_NO_SUCH_OPTION=y (now: absent)" "$klog"
	check "no cache entry added" [ "$(entries)" = "$before" ]
	kbuild --fragment "$fx/kconfig/malformed.config"
	check "malformed fragment: exit 1 (got $rc)" [ "$rc" = 1 ]
	check "malformed fragment: names the line" grep -q "malformed.config: line 1: not a config option" "$klog"
}

test_not_a_kernel_tree() {
	mkdir -p "$out/not-a-tree"
	echo hello > "$out/not-a-tree/README"
	kbuild --source "$out/not-a-tree"
	check "exit status 1 (got $rc)" [ "$rc" = 1 ]
	check "says it is not a kernel tree" grep -q "is not a kernel tree" "$klog"
	kbuild --source "$out/does-not-exist"
	check "missing source: exit 2 (got $rc)" [ "$rc" = 2 ]
	check "missing source: says so" grep -q "neither 'debian' nor a directory" "$klog"
}

test_compiler_error() {
	before=$(entries)
	kbuild --patches "$fx/patches/compile-error"
	check "exit status 1 (got $rc)" [ "$rc" = 1 ]
	check "says make failed" grep -q "make bzImage modules failed" "$klog"
	check "shows the compiler's error" grep -q "deliberate build failure" "$klog"
	logfile=$(sed -n 's/^scaletest: log: //p' "$klog")
	check "full log kept" grep -q "deliberate build failure" "$logfile"
	check "no cache entry added" [ "$(entries)" = "$before" ]
}

# A build interrupted while make runs: the fixture patch makes make wait
# in block/Makefile and mark a file when SCALETEST_TEST_HOLD names one, so
# the SIGTERM lands inside the build on any machine (after "building (" and
# two seconds, a warm ccache could have finished it).
test_interrupted_build() {
	# A patch of its own, so that this build is never a cache hit.
	mkdir -p "$out/interrupt"
	sed "s/a comment that makes a different build key/build $(date +%s%N) $$/" \
		"$fx/patches/interrupt/0001-comment.patch" > "$out/interrupt/0001-comment.patch"
	before=$(entries)
	klog=$out/interrupt.log
	hold=$out/interrupt.hold
	SCALETEST_TEST_HOLD=$hold "$bin" kernel build --arch x86_64 --patches "$out/interrupt" > "$klog" 2>&1 &
	pid=$!
	check "make reached the hold in block/Makefile" wait_until -p $pid test -e "$hold"
	check "the harness was building" grep -q "building (" "$klog"
	kill -TERM $pid
	wait $pid
	rc=$?
	check "interrupted: exit 130 (got $rc)" [ "$rc" = 130 ]
	check "interrupted: no make left running" sh -c "! pgrep -f '[m]ake .*obj-x86_64' >/dev/null"
	check "interrupted: no cache entry added" [ "$(entries)" = "$before" ]
	check "interrupted: no temporary entry left" sh -c "! ls '$builds' | grep -q '\.tmp-'"
	kbuild --patches "$out/interrupt"
	check "the next build completes (got $rc)" [ "$rc" = 0 ]
	check "and leaves a kernel" [ -s "$image" ]
}

# The 32-bit HIGHMEM build, as the stock-vs-patched scenarios use it:
# boots, has LowFree, and the guest's static 32-bit fio runs on it.
test_build_i386_boots() {
	run_smoke i386-build --set arch=i386 --set kernel=build
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass" and .kernel.source == "build" and .kernel.arch == "i386"'
	check "HIGHMEM: LowFree falls at insmod" j '.deltas.insmod.LowFree_kb < 0'
	check "fio ran cleanly" j '.checks[] | select(.name == "fio jobs without errors") | .pass'
}

# page_owner, the second attribution source: the debug fragment has
# CONFIG_PAGE_OWNER and the harness boots it with page_owner=on.  The
# tinyconfig build has no tracing, so the hist triggers are unavailable
# and page_owner stands alone.  Relations, not numbers: page_owner counts
# the pages insmod still holds, so its net is at most the MemFree drop
# (with the closure's tolerance).
test_attribution_page_owner() {
	kbuild --fragment debug
	check "debug build: exit status 0 (got $rc)" [ "$rc" = 0 ]
	run_smoke page-owner --set kernel=build --set kernel_fragments=debug \
		--set attribution=1 --set timeout_boot=600 --set timeout_insmod=600
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass" and .kernel.source == "build"'
	check "booted with page_owner=on" grep -rqs "page_owner=on" "$dir"
	check "hist triggers unavailable (no tracing in the build), with the reason" \
		j '.attribution.status == "unavailable" and (.attribution.reason | length > 0)'
	check "page_owner ok" j '.attribution.sources.page_owner.status == "ok"'
	check "page_owner gained pages per disk" j '.attribution.sources.page_owner.bytes_per_disk > 0'
	check "net = gained - freed" j '.attribution.sources.page_owner | .net_bytes == .bytes - .freed_bytes'
	check "net > 0" j '.attribution.sources.page_owner.net_bytes > 0'
	check "net <= MemFree drop * (1 + tolerance)" \
		j '.attribution | .sources.page_owner.net_bytes <= .memfree_drop_bytes * 1.15'
	check "sites sorted by bytes, none an allocator frame" \
		j '.attribution.sources.page_owner.sites | ([.[].bytes] as $b | $b == ($b | sort | reverse)) and ([.[].site] | all(test("^(post_alloc_hook|get_page_from_freelist|__alloc_pages|alloc_pages|allocate_slab)( |$)") | not))'
	check "blk-mq, scsi or sd among the top 5 sites" \
		j '[.attribution.sources.page_owner.sites[:5][].site] | any(test("blk_mq|scsi|sdebug|sd_|sbitmap"))'
	check "both reads kept" [ -s "$dir/attribution/page_owner-before-insmod.txt" -a -s "$dir/attribution/page_owner-after-insmod.txt" ]
	check "no pageowner record rejected" j '[.channel.rejections[] | select(test("pageowner|attr"))] | length == 0'
	check "report shows page_owner" grep -q "page_owner: pages still allocated" "$dir/report.md"
	check "no QEMU left running" no_qemu_left page-owner
}

# Stock against patched, call site by call site: the patch preallocates 32
# scheduler requests per queue instead of 256, so page_owner must show the
# request pools' site (blk_mq_alloc_map_and_rqs) holding less per disk,
# and compare must list it as a fall.
test_attribution_stock_patched() {
	po_stock=$out/page-owner
	stock_run=$(find "$po_stock" -mindepth 1 -maxdepth 1 -type d -name '2*' | head -n 1)
	if [ -z "$stock_run" ]; then
		test_attribution_page_owner
		stock_run=$(find "$po_stock" -mindepth 1 -maxdepth 1 -type d -name '2*' | head -n 1)
	fi
	check "the stock debug run is there (attribution_page_owner)" [ -n "$stock_run" ]
	[ -n "$stock_run" ] || return
	run_smoke page-owner-patched --set kernel=build --set kernel_fragments=debug \
		--set kernel_patches="$patched" --set attribution=1 \
		--set timeout_boot=600 --set timeout_insmod=600
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "page_owner ok" j '.attribution.sources.page_owner.status == "ok"'
	site='[.attribution.sources.page_owner.sites[] | select(.site == "blk_mq_alloc_map_and_rqs") | .bytes_per_disk] | add // 0'
	s=$(jq "$site" "$stock_run/result.json")
	p=$(jq "$site" "$dir/result.json")
	say "  blk_mq_alloc_map_and_rqs per disk (page_owner): stock $s B, patched $p B"
	check "stock: the request pools' site holds pages ($s B a disk)" [ "$s" -gt 0 ]
	check "patched: the site holds less per disk ($p < $s)" [ "$p" -lt "$s" ]
	"$bin" compare "$stock_run" "$dir" --out "$out/cmp-po" > "$out/cmp-po.log" 2>&1
	rc=$?
	check "compare stock -> patched: exit 0 (got $rc)" [ "$rc" = 0 ]
	check "compare lists the site among page_owner's changes, falling" \
		jq -e '[.attribution_page_owner[] | select(.site == "blk_mq_alloc_map_and_rqs")
			| .bytes_per_disk[1] < .bytes_per_disk[0]] == [true]' "$out/cmp-po/compare.json"
	check "compare.md names it" grep -q "blk\\\\_mq\\\\_alloc\\\\_map\\\\_and\\\\_rqs\\|blk_mq_alloc_map_and_rqs" "$out/cmp-po/compare.md"
	check "no QEMU left running" no_qemu_left page-owner-patched
}

# 6.12 from Debian's linux-source-6.12 (kernel_source = debian:6.12, with
# kernel-configs/linux-6.12.config): built for x86_64 and booted; built for
# i386 with HIGHMEM64G (still in 6.12) and booted with LowFree; the debug
# build's page_owner (6.10 and later: page_owner_stacks/show_stacks) with
# the same relations as on 6.1; the patch's 6.12 form against stock, call
# site by call site.
test_612_builds_and_boots() {
	kbuild --source debian:6.12
	check "6.12 build: exit status 0 (got $rc)" [ "$rc" = 0 ]
	run_smoke build-612 --set kernel=build --set kernel_source=debian:6.12
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "its fragments: linux-6.12 after fast-boot" \
		j '.kernel.build.fragments | index("linux-6.12.config") > index("fast-boot.config")' 
	check "a 6.12 build" j '.status == "pass" and .kernel.source == "build" and (.kernel.version | startswith("6.12."))'
	check "present == requested" j '.disks.present == .disks.requested'
	check "slabinfo there (SLUB_DEBUG, no SLUB_TINY)" j '.deltas.insmod.Slab_kb > 0'
}

test_612_stock_patched() {
	# The stock side is 612_builds_and_boots's run when that passed in
	# this run of the suite (the same kernel and settings: one boot of it).
	stock612=$(find "$out/build-612" -mindepth 1 -maxdepth 1 -type d -name '2*' 2>/dev/null | head -n 1)
	if [ -n "$stock612" ] && jq -e '.status == "pass"' "$stock612/result.json" > /dev/null 2>&1; then
		dir=$stock612
	else
		run_smoke stock-612 --set kernel=build --set kernel_source=debian:6.12
		check "stock: exit status 0 (got $rc)" [ "$rc" = 0 ]
		stock612=$dir
	fi
	check "stock: a 6.12 build, passed" j '.status == "pass" and .kernel.source == "build" and (.kernel.version | startswith("6.12.")) and .kernel.build.patches == []'
	run_smoke patched-612 --set kernel=build --set kernel_source=debian:6.12 \
		--set kernel_patches="$top/scenarios/patches/sched-tags-32-612"
	check "patched: exit status 0 (got $rc)" [ "$rc" = 0 ]
	s=$(jq '.deltas.insmod.per_disk_bytes.MemFree' "$stock612/result.json")
	p=$(jq '.deltas.insmod.per_disk_bytes.MemFree' "$dir/result.json")
	say "  6.12 MemFree per disk: stock $s B, patched $p B"
	check "the patched 6.12 costs less per disk ($p < $s)" jq -n -e "$p < $s"
	"$bin" compare --series --format md "$stock612" "$dir" > "$out/series-612.md" 2>&1
	check "compare --series names both kernels" sh -c 'grep -q "^| A: 6\.12\..*, build" "$1" && grep -q "^| B: 6\.12\..*, build .* + 1 patch" "$1"' - "$out/series-612.md"
}

test_612_i386_highmem() {
	run_smoke i386-612 --set arch=i386 --set kernel=build --set kernel_source=debian:6.12
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "an i386 6.12 with HIGHMEM" j '.status == "pass" and .kernel.arch == "i386" and .kernel.highmem == true and (.kernel.version | startswith("6.12."))'
	check "LowFree falls at insmod" j '.deltas.insmod.LowFree_kb < 0 and .deltas.insmod.per_disk_bytes.LowFree > 0'
}

test_612_page_owner() {
	kbuild --source debian:6.12 --fragment debug
	check "6.12 debug build: exit status 0 (got $rc)" [ "$rc" = 0 ]
	run_smoke page-owner-612 --set kernel=build --set kernel_source=debian:6.12 \
		--set kernel_fragments=debug --set attribution=1 --set timeout_boot=600 --set timeout_insmod=600
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass, 6.12" j '.status == "pass" and (.kernel.version | startswith("6.12."))'
	check "page_owner ok" j '.attribution.sources.page_owner.status == "ok"'
	check "page_owner read from show_stacks or page_owner" grep -Eq "page_owner_file=(show_stacks|page_owner)" "$dir/attribution/attr.txt"
	check "net > 0, at most the MemFree drop * (1 + tolerance)" \
		j '.attribution | .sources.page_owner.net_bytes > 0 and .sources.page_owner.net_bytes <= .memfree_drop_bytes * 1.15'
	check "no site an allocator's or a _noprof name" \
		j '[.attribution.sources.page_owner.sites[].site] | all(test("_noprof|^(post_alloc_hook|get_page_from_freelist|__alloc_pages|alloc_pages|alloc_pages_mpol|allocate_slab)( |$)") | not)'
	check "blk_mq_alloc_map_and_rqs among the sites" \
		j '[.attribution.sources.page_owner.sites[].site] | index("blk_mq_alloc_map_and_rqs") != null'
	check "no pageowner record rejected" j '[.channel.rejections[] | select(test("pageowner|attr"))] | length == 0'
}

# A patched kernel that crashes at scale (tests/fixtures/patches/
# crash-at-scale-612: BUG once 100 glue directories were made, which 64
# disks' three class devices pass), run after its stock kernel into one
# results directory: the run ends on the BUG as a crash, long before its
# insmod deadline, triage names it, and the stock run is kept as it was
# (its result.json, latest pointing at it; compare names the crash).
# The debug build of test_612_page_owner (its KALLSYMS names the BUG's
# function): the stock side is that build again, a cache hit, and the
# patched one recompiles drivers/base/core.c in the same tree, so it comes
# last in the 6.12 series.
test_612_crash_at_scale() {
	pair=$out/crash-pair
	set -- --set kernel=build --set kernel_source=debian:6.12 --set kernel_fragments=debug \
		--set disks=64 --set memory_mb=1024 --set timeout_boot=600 --set timeout_insmod=600
	"$bin" run "$smoke" --out "$pair" "$@" > "$out/crash-stock.log" 2>&1
	rc=$?
	check "stock: exit status 0 (got $rc)" [ "$rc" = 0 ]
	stock=$(readlink -f "$pair/latest")
	sum=$(sha256sum < "$stock/result.json")
	"$bin" run "$smoke" --out "$pair" "$@" \
		--set kernel_patches="$fx/patches/crash-at-scale-612" > "$out/crash-patched.log" 2>&1
	rc=$?
	dir=$(find "$pair" -mindepth 1 -maxdepth 1 -type d -name '2*' ! -path "$stock" | head -n 1)
	check "patched: exit status 1 (got $rc)" [ "$rc" = 1 ]
	check "patched: status crash" j '.status == "crash" and .crash.class != null'
	# tinyconfig has no CONFIG_BUG: the BUG_ON is a bare ud2, an "invalid
	# opcode" oops, named by its RIP (the fixture keeps the function out of
	# line: get_device_parent, where it would be inlined, is a frame titles skip)
	check "the title names the BUG where it is" j '.crash.title | test("BUG|invalid opcode") and test("class_dir_create_and_add")'
	check "ended on the crash, well before insmod's deadline" \
		j '.timings.total_s < .settings.timeout_insmod'
	title=$(jq -r '.crash.title' "$dir/result.json")
	"$bin" triage "$dir/console.log" > "$out/crash-triage.txt" 2>&1
	rc=$?
	check "triage finds it (exit 1, got $rc)" [ "$rc" = 1 ]
	check "triage gives the same title" grep -qF "$title" "$out/crash-triage.txt"
	check "the stock run's result.json untouched" [ "$(sha256sum < "$stock/result.json")" = "$sum" ]
	check "latest still the stock run" [ "$(readlink -f "$pair/latest")" = "$stock" ]
	"$bin" compare --series "$stock" "$dir" > "$out/crash-compare.txt" 2>&1
	rc=$?
	check "compare refuses the crashed side, exit 2 (got $rc)" [ "$rc" = 2 ]
	check "naming its status and title" grep -qF "has status crash ($title)" "$out/crash-compare.txt"
	check "no QEMU left running" no_qemu_left crash-pair
}

run_tests "$@"
