#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# End-to-end tests: real QEMU boots (TCG is fine) of scenarios/smoke, with
# assertions on result.json.  Faults are injected into the guest with the
# kernel parameter scaletest_fault=KIND:PHASE (initramfs/lib/faults.sh, fault()).
#
#   sh tests/e2e/run.sh [NAME...]     run all tests, or those named
# suite: full
# order: 65
set -u
. "$(dirname "$0")/lib.sh"

common_failure_checks() { # status word
	check "exit status 1 (got $rc)" [ "$rc" = 1 ]
	check "status $1" j ".status == \"$1\""
	check "no QEMU left running" no_qemu_left "$name"
	check "console.log kept" [ -s "$dir/console.log" ]
	check "not made latest" absent "$out/$name/latest"
	check "report.md written" [ -s "$dir/report.md" ]
}

test_smoke_x86_64() {
	run_smoke smoke-x86_64
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "records over virtio-serial (channel = auto, Debian's kernel)" j '.vm.channel == "virtio-serial"'
	check "present == requested" j '.disks.present == .disks.requested and .disks.requested > 0'
	check "virtio present == requested" j '.disks.virtio_present == .disks.virtio_requested'
	check "six phases, each with meminfo and slab" j '[.phases[] | select(.meminfo.MemFree and .slab.total_kb)] | length == 6'
	check "MemFree after insmod < before" j '(.phases[] | select(.name=="after-insmod") | .meminfo.MemFree) < (.phases[] | select(.name=="before-insmod") | .meminfo.MemFree)'
	check "Slab grew at insmod" j '.deltas.insmod.Slab_kb > 0'
	check "no LowFree on amd64" j '.deltas.insmod.LowFree_kb == null and .kernel.highmem == false'
	check "per-disk MemFree cost positive" j '.deltas.insmod.per_disk_bytes.MemFree > 0'
	check "every phase has the per-CPU lists' free pages (zoneinfo)" j '[.phases[] | select(.zoneinfo.pcp_kb >= 0)] | length == 6'
	check "per disk counts them as free: -(MemFree + lists) x 1024 / disks" j '.deltas.insmod as $d | $d.per_disk_bytes.MemFree == ((-($d.MemFree_kb + $d.pcp_kb) * 1024 / .disks.requested) | floor)'
	check "their snapshots kept" [ -s "$dir/snapshots/02-after-insmod.zoneinfo" ]
	check "memory came back after rmmod" j '(.phases[] | select(.name=="after-rmmod") | .meminfo.MemFree) > (.phases[] | select(.name=="after-io") | .meminfo.MemFree)'
	check "enumeration timed" j '.timings.enumerate_s >= 0'
	check "fio: verify, sample and all groups ran" j '[.fio.jobs[].group] | (index("verify") != null and index("sample") != null and index("all") != null)'
	check "fio: no job failed" j '[.fio.jobs[] | select(.error != 0)] | length == 0'
	check "fio: verify on every virtio disk" j '([.fio.jobs[] | select(.group == "verify")] | length) == .disks.virtio_requested'
	check "fio: sample includes first, middle and last" j '[.fio.jobs[] | select(.group == "sample") | .filename] as $f | ($f | index("/dev/sda")) != null and ($f | index("/dev/sdan")) != null and ($f | index("/dev/sdu")) != null'
	check "fio: the all job read" j '.fio.jobs[] | select(.group == "all") | .read.ios > 0'
	check "fio JSON kept" [ -s "$dir/fio/all.json" ]
	check "inventory: one row per device" j '.inventory.devices == .disks.requested + .disks.virtio_requested'
	check "inventory checks pass" j '[.checks[] | select(.name | test("dev_t|sequence|after the range|readable")) | .pass] | (length == 4 and all)'
	check "inventory file kept" [ "$(wc -l < "$dir/inventory.txt")" -eq 42 ]
	check "monitor: samples during insmod, I/O and rmmod" j '[.monitor.samples[].step] | (index("insmod") != null and index("io") != null and index("rmmod") != null)'
	check "monitor: no gaps" j '.monitor.gaps == []'
	check "monitor: I/O peak measured" j '.monitor.peak.during_io.MemFree_min > 0'
	check "monitor: samples count the block devices" j '[.monitor.samples[] | select(.step == "insmod") | .blocks | numbers] | length > 0'
	# The live progress line: stderr is a file here, so plain lines.
	check "progress on stderr: insmod present/wanted" grep -Eq '^scaletest: insmod: [0-9]+/40 disks present \([0-9]+%\)' "$log.err"
	check "progress on stderr: insmod ends at 40/40" grep -q '^scaletest: insmod: 40/40 disks present (100%)' "$log.err"
	check "progress on stderr: rmmod" grep -Eq '^scaletest: rmmod: [0-9]+/40 disks removed' "$log.err"
	check "no progress on stdout" lacks "$log.out" "disks present|disks removed"
	check "no terminal control on stderr" lacks -F "$log.err" "$(printf '\033')"
	check "leak check passed" j '.checks[] | select(.name == "memory returned after rmmod") | .pass'
	last=$(jq -r '.disks.last.name' "$dir/result.json")
	first_v=$(jq -r '.disks.virtio[0].name' "$dir/result.json")
	n=$(jq -r '.disks.requested' "$dir/result.json")
	check "last scsi_debug disk has index N-1 ($last)" [ "$(sd_index "$last")" = $((n - 1)) ]
	check "virtio disks named after the last ($first_v)" [ "$(sd_index "$first_v")" = "$n" ]
	check "dev_t recorded" j '.disks.last.dev | test("^[0-9]+:[0-9]+$")'
	check "latest points at the run" [ "$(readlink "$out/smoke-x86_64/latest")" = "$(basename "$dir")" ]
	check "summary printed" grep -q "MemFree is the headline" "$log"
	check "no temporary run directory left" none_in "$out/smoke-x86_64" -name '.tmp-*'
	cp "$dir/report.md" "$out/report.before"
	rm "$dir/report.md"
	"$bin" report "$dir" > /dev/null
	check "report regenerated from result.json alone" cmp -s "$out/report.before" "$dir/report.md"
}

# Debian's 6.12 (bookworm-security): its modules are .ko.xz, decompressed
# on the host; a soft dependency that fails in the guest does not stop the
# run; the disks and their names as on 6.1.
test_smoke_debian_612() {
	run_smoke smoke-debian-612 --set kernel_package=linux-image-6.12-amd64
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "a 6.12 kernel from a versioned package" j '(.kernel.version | startswith("6.12.")) and (.kernel.package | test("^linux-image-6\\.12\\.[0-9]+\\+deb12-amd64$"))'
	check "present == requested" j '.disks.present == .disks.requested and .disks.requested > 0'
	check "virtio present == requested" j '.disks.virtio_present == .disks.virtio_requested'
	check "per-disk MemFree cost positive" j '.deltas.insmod.per_disk_bytes.MemFree > 0'
	check "6.12's per-CPU lists read (high_min and high_max read past)" j '[.phases[] | select(.zoneinfo.pcp_kb >= 0)] | length == 6'
	check "inventory checks pass" j '[.checks[] | select(.name | test("dev_t|sequence|after the range|readable")) | .pass] | (length == 4 and all)'
	mods=$(jq -r .kernel.image "$dir/result.json" | sed 's|/boot/vmlinuz-.*||')/lib/modules/$(jq -r .kernel.version "$dir/result.json")
	check "the package's scsi_debug is .ko.xz" [ -f "$mods/kernel/drivers/scsi/scsi_debug.ko.xz" ]
}

# The guest's per-disk scripts at 65,536 disks without a 40-minute boot:
# initramfs/lib/inventory.sh and blocks.sh (inventory, list_blocks), in busybox (Debian's
# busybox-static, as in the guest) chrooted into a sysfs-like tree
# (tests/fixtures/sysblock/mksys.c: 65,536 sd disks, 4 virtio disks after
# them, one device outside both block lists), with the guest's 8 MiB stack
# and so its limit on arguments.  At this count "cat ./*/queue/nr_requests"
# failed with E2BIG and busybox paste joined the inventory into one line
# of 3 fields per disk, which the host refused.  No QEMU here.
test_inventory_65536() {
	n=65536 m=4
	r=$out/inv65536
	bb=$(find "${SCALETEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/scaletest}/debs" \
		-path '*busybox-static_*_amd64/bin/busybox' -type f 2>/dev/null | head -n 1)
	if [ -z "$bb" ]; then
		mkdir -p "$out/bbdeb" && (cd "$out/bbdeb" && apt-get download -q busybox-static:amd64 > /dev/null 2>&1) &&
			dpkg-deb -x "$out"/bbdeb/*.deb "$out/bbdeb/x" && bb=$out/bbdeb/x/bin/busybox
	fi
	check "a busybox-static to run the guest's scripts" [ -x "$bb" ]
	mkdir -p "$r/bin" "$r/lib/scaletest"
	check "mksys builds" cc -O2 -o "$out/mksys" "$top/tests/fixtures/sysblock/mksys.c"
	check "the tree of $n + $m disks made" "$out/mksys" "$r" $n $m
	cp "$bb" "$r/bin/busybox"
	cp "$top"/initramfs/lib/*.sh "$r/lib/scaletest/"
	check "inventory and list_blocks ran in the chroot" chroot "$r" /bin/busybox sh -c \
		'/bin/busybox --install -s /bin && ulimit -s 8192 && . /lib/scaletest/blocks.sh && . /lib/scaletest/inventory.sh &&
		 inventory > /tmp/inventory 2> /tmp/inventory.err && list_blocks > /tmp/blocks.all'
	inv=$r/tmp/inventory
	check "no argument list too long" lacks "$r/tmp/inventory.err" "too long"
	check "one inventory row per device ($(wc -l < "$inv"))" [ "$(wc -l < "$inv")" -eq $((n + m + 1)) ]
	check "every row has 7 fields" awk 'NF != 7 { exit 1 }' "$inv"
	check "each sd disk's dev_t as its block list says" awk 'FILENAME == ARGV[1] { d[$1] = $2; next }
		($1 in d) && d[$1] != $2 { exit 1 }' "$r/tmp/blocks.sd" "$inv"
	check "scsi_debug disks: none, 1 hardware queue, readable" awk -v sd="$r/tmp/blocks.sd" '
		BEGIN { while ((getline l < sd) > 0) { split(l, f, " "); want[f[1]] = 1 } }
		($1 in want) { n++; if ($5 != "none" || $6 != 1 || $7 != 1) exit 1 } END { exit n != '$n' }' "$inv"
	check "the last scsi_debug disk is sdcrxp (135:65520)" grep -qx 'sdcrxp 135:65520 8192 256 none 1 1' "$inv"
	check "the virtio disks after it: sdcrxq (8:65536) .. sdcrxt, 2 queues" sh -c \
		'grep -qx "sdcrxq 8:65536 8192 128 mq-deadline 2 1" "$1" && grep -q "^sdcrxt 8:65584 " "$1"' - "$inv"
	check "a device in no block list: its own dev_t, unreadable" grep -qx 'zram0 252:0 0 256 none 1 0' "$inv"
	check "names past sdaaaa" grep -q '^sdaaaa 70:18272 ' "$inv"
	check "list_blocks: one line per device, name and dev_t" awk 'NF != 2 { exit 1 } END { exit NR != '$((n + m + 1))' }' "$r/tmp/blocks.all"
	rm -rf "$r"
}

# A hung-task report while insmod still makes disks is the detector's
# verdict on a long wait, not a hang: the run goes on and passes, and the
# report is a finding (result.json, report.md, the summary).  The detector
# at 1 s, so that the scan of one host of 4,000 disks (seconds under TCG,
# one asynchronous job that insmod waits on without a wakeup) trips it.
test_hung_task_finding() {
	run_smoke hung-task-finding --set disks=4000 --set memory_mb=2048 --set fio=0 --set rmmod=0 \
		--set cmdline=sysctl.kernel.hung_task_timeout_secs=1
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass" and .crash == null'
	check "the console has the report" j '.console.crash | test("blocked for more than")'
	check "a hung-task finding, with its title and context" j '.findings[0].class == "hung-task" and (.findings[0].title | startswith("INFO: task hung")) and (.findings[0].context | test("blocked for more than"))'
	# At the default loglevel the console shows no stack: the guest read the
	# blocked task's (initramfs/lib/hung.sh), and the title names where it waits.
	check "the guest sent the blocked tasks' stacks" sh -c 'ls "$1"/hung/*.txt > /dev/null' - "$dir"
	check "the finding names where insmod waits, not 'corrupted'" j '.findings[0].title | startswith("INFO: task hung in ") and (endswith(" corrupted") | not)'
	say "hung_task_finding: $(jq -r '.findings[0].title' "$dir/result.json" 2>/dev/null)"
	check "present == requested" j '.disks.present == .disks.requested'
	check "the run said it goes on" grep -q "a hung-task report while insmod goes on: recorded as a finding" "$log.err"
	check "report.md has the finding" grep -q "^## Findings" "$dir/report.md"
	check "the summary names it" grep -q "finding (the run went on): hung-task: INFO: task hung" "$log.out"
}

# The progress line counts the SCSI devices the scan makes while no block
# device exists yet (the asynchronous scan adds a host's devices to sysfs
# at its end), then the disks.  On one host of 4,000 disks that scan is
# over in about 2 s, within one gap between progress records: whether a
# record falls inside it is the machine's speed (CI's once did not).  So
# the guest holds sd_mod back (the fault insmod-sd-late) until it has sent
# the host a record counting every SCSI device: the scan's count, then
# the disks', on any machine.
test_progress_scan() {
	n=1000
	run_smoke progress-scan --set disks=$n --set memory_mb=1024 --set fio=0 --set rmmod=0 \
		--set monitor_interval_ms=0 --set virtio_disks=1 --set cmdline=scaletest_fault=insmod-sd-late
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "present == requested" j '.disks.present == .disks.requested'
	check "the guest held sd_mod back" grep -q "fault: the host was sent $n SCSI devices scanned; loading sd_mod" "$dir/console.log"
	check "progress: every SCSI device scanned" grep -q "^scaletest: insmod: $n/$n SCSI devices scanned (100%)" "$log.err"
	check "progress: then the disks, to $n/$n" grep -q "^scaletest: insmod: $n/$n disks present (100%)" "$log.err"
	check "the scan's count before the disks'" sh -c 'grep -n "^scaletest: insmod: " "$1" | sed -n "1p" | grep -q "SCSI devices scanned"' - "$log.err"
	check "progress records with the queue count kept their cost" j '.progress.records > 0'
}

test_smoke_i386() {
	# The second UART as the record channel, as on kernels without
	# virtio_console (those built from kernel-configs/ use it by themselves).
	run_smoke smoke-i386 --set arch=i386 --set channel=uart
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "records over the UART (channel = uart)" j '.vm.channel == "uart"'
	check "present == requested" j '.disks.present == .disks.requested'
	check "HIGHMEM kernel" j '.kernel.highmem == true and .kernel.arch == "i386"'
	check "LowFree present and falls at insmod" j '.deltas.insmod.LowFree_kb < 0'
	check "LowFree after insmod < before" j '(.phases[] | select(.name=="after-insmod") | .meminfo.LowFree) < (.phases[] | select(.name=="before-insmod") | .meminfo.LowFree)'
	check "virtio disks follow scsi_debug" j '.checks[] | select(.name == "virtio disks follow scsi_debug") | .pass'
	check "summary names LowFree the headline" grep -q "LowFree is the headline" "$log"
}

test_virtio_blk() {
	run_smoke virtio-blk --set virtio_bus=blk
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "virtio-blk disks present" j '.disks.virtio_bus == "blk" and .disks.virtio_present == .disks.virtio_requested'
	check "virtio-blk disks are vdX" j '[.disks.virtio[].name | test("^vd[a-z]+$")] | all'
	check "fio verified them" j '.checks[] | select(.name == "fio verify on the virtio disks") | .pass'
	check "on /dev/vdX" j '[.fio.jobs[] | select(.group == "verify") | .filename | test("^/dev/vd[a-z]+$")] | (length > 0 and all)'
}

test_fio_verify_mismatch() {
	run_smoke verify-mismatch --set cmdline=scaletest_fault=corrupt:after-io
	check "exit status 1 (got $rc)" [ "$rc" = 1 ]
	check "status fail" j '.status == "fail"'
	check "reason names the job and the disk" j '.reason | test("fio verify.*verify-sd[a-z]+ on /dev/sd[a-z]+")'
	check "fio's output kept" [ -s "$dir/fio/verify.json" ]
	check "no QEMU left running" no_qemu_left "$name"
}

test_monitor_gap() {
	run_smoke monitor-gap --set cmdline=scaletest_fault=monitor-garble
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass: the run goes on" j '.status == "pass"'
	check "the lost sample is a recorded gap" j '.monitor.gaps == [[2, 2]]'
	check "the truncated record was rejected" j '.channel.rejected > 0'
}

test_queue_knobs() {
	run_smoke knobs --set cpus=2 --set scheduler=none --set nr_requests=32 --set sd_submit_queues=2 --set sd_max_queue=64
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "scheduler none on every scsi_debug disk" j '.inventory.schedulers.none >= .disks.requested'
	check "nr_requests 32 on every scsi_debug disk" j '.inventory.nr_requests["32"] == .disks.requested'
	check "two hardware queues per scsi_debug disk" j '.inventory.hw_queues["2"] >= .disks.requested'
}

test_fio_unbuildable() {
	# A cache with the kernel and busybox but no fio, and an apt-get that
	# cannot reach anything: fio cannot be built.
	fresh=$out/fresh-cache
	main=$("$bin" cache list | sed -n 's/^cache: //p')
	mkdir -p "$fresh" "$out/stub"
	for d in kernels debs apt accel; do
		[ -e "$main/$d" ] && ln -s "$main/$d" "$fresh/$d"
	done
	printf '#!/bin/sh\necho "E: simulated: no network" >&2\nexit 100\n' > "$out/stub/apt-get"
	chmod +x "$out/stub/apt-get"
	log=$out/unbuildable.log
	SCALETEST_CACHE=$fresh PATH="$out/stub:$PATH" "$bin" run "$smoke" --out "$out/unbuildable" > "$log" 2>&1
	rc=$?
	check "exit status 3 (got $rc)" [ "$rc" = 3 ]
	check "the error names fio" grep -q "fio" "$log"
	run_smoke no-fio --set fio=0
	check "without fio the scenario still runs (got $rc)" [ "$rc" = 0 ]
	check "and checks its disks with dd" j '.checks[] | select(.name == "virtio I/O verified") | .pass'
}

# Attribution on smoke: the call sites of the disks' memory, from hist
# triggers in the guest (docs/attribution.md).
test_attribution() {
	run_smoke attribution --set attribution=1
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "attribution ok" j '.attribution.status == "ok"'
	check "stack key found" j '.attribution.stack_key | test("stacktrace")'
	check "page_alloc and page_free traced" j '.attribution.sources.page_alloc.bytes > 0 and .attribution.sources.page_free.bytes > 0'
	check "kmalloc traced" j '.attribution.sources.kmalloc.bytes > 0'
	check "call sites listed, none an allocator frame" j '[.attribution.sources.page_alloc.sites[].site] | (length > 0 and all(test("^(__alloc_pages|alloc_pages|allocate_slab|___slab_alloc|__kmalloc|kmalloc_trace)( |$)") | not))'
	check "every site has bytes > 0 and a stack" j '[.attribution.sources[] | select(.status != "unavailable") | .sites[] | select(.bytes <= 0 or (.stack | length) == 0)] | length == 0'
	check "sites sorted by bytes" j '.attribution.sources.page_alloc.sites | [.[].bytes] as $b | $b == ($b | sort | reverse)'
	check "blk-mq or scsi among the top 5 page sites" j '[.attribution.sources.page_alloc.sites[:5][].site] | any(test("blk_mq|scsi|sdebug|sd_"))'
	check "per disk below the total" j '.attribution.sources.page_alloc.sites[0] | .bytes_per_disk < .bytes'
	check "nothing dropped from the tables" j '[.attribution.sources[] | select(.status != "unavailable") | .dropped] | all(. == 0)'
	# Debian's kernels have no CONFIG_PAGE_OWNER: that source says why.
	check "page_owner unavailable, with the reason" j '.attribution.sources.page_owner | .status == "unavailable" and (.reason | test("page_owner"))'
	check "the report says so" grep -q "page_owner unavailable" "$dir/report.md"
	check "closure worked out" j '.attribution.closure.closes | type == "boolean"'
	check "closure: some of the MemFree drop explained" j '.attribution.closure.explained_pct > 0'
	check "raw hist files kept" [ -s "$dir/attribution/page-alloc.hist" ]
	check "no hist record rejected" j '[.channel.rejections[] | select(test("hist|attr"))] | length == 0'
	check "report says where the bytes go" grep -q "Where each disk's bytes go" "$dir/report.md"
	check "report.html has the chart" grep -q "page allocations at insmod by call site" "$dir/report.html"
	check "no QEMU left running" no_qemu_left attribution
}

# The kernel refusing the trigger (a fault that asks for a key no event
# has): the run passes, attribution says why it is missing.
test_attribution_unavailable() {
	run_smoke attribution-unavailable --set attribution=1 --set cmdline=scaletest_fault=attr-refuse
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "attribution unavailable" j '.attribution.status == "unavailable"'
	check "with the reason" j '.attribution.reason | test("refused")'
	check "no hist sources" j '[.attribution.sources // {} | keys[] | select(. != "page_owner")] | length == 0'
	check "page_owner unavailable too (Debian's kernel)" j '.attribution.sources.page_owner.status == "unavailable"'
	check "report says so" grep -q "Attribution unavailable" "$dir/report.md"
	check "no QEMU left running" no_qemu_left attribution-unavailable
}

test_timeout() {
	run_smoke timeout --set cmdline=scaletest_fault=hang:after-insmod --set timeout_insmod=5
	common_failure_checks timeout
	check "reason names the phase" j '.reason | test("after-insmod")'
}

test_crash() {
	run_smoke crash --set cmdline=scaletest_fault=panic:after-insmod
	common_failure_checks crash
	check "reason is the crash title, a panic" j '.reason == .crash.title and (.reason | test("^kernel panic"))'
}

# The hung-task fault at the default loglevel (4): the console shows the
# report's first line and no stack; the guest reads the blocked task's
# (initramfs/lib/hung.sh), and the title is the one the stack on the
# console gives at loglevel 7 (the replay fixture hung-task, the same bug).
test_hung_task_titled() {
	run_smoke hung-task-titled --set cmdline=scaletest_fault=hung:after-virtio \
		--set timeout_insmod=60 --set timeout_io=60
	common_failure_checks crash
	want=$(jq -r .crash.title "$fx/replay/hung-task/result.json")
	check "class hung-task" j '.crash.class == "hung-task"'
	check "the console shows no stack" sh -c '! grep -q "Call Trace" "$1"' - "$dir/console.log"
	check "the guest sent the blocked task's stack" sh -c 'ls "$1"/hung/*.txt > /dev/null' - "$dir"
	check "titled '$want', as at loglevel 7" j ".crash.title == \"$want\""
}

test_oom() {
	run_smoke oom --set cmdline=scaletest_fault=oom:after-io
	common_failure_checks oom
	check "reason is an OOM line" j '.reason | test("oom|Out of memory")'
}

test_garbled_channel() {
	run_smoke garble --set cmdline=scaletest_fault=garble:after-insmod
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass despite garbage" j '.status == "pass"'
	check "rejections counted" j '.channel.rejected >= 4'
	for what in "checksum mismatch" "stray bytes" "bad header" "bad trailer" "sequence gap"; do
		check "rejected: $what" j ".channel.rejections | any(test(\"$what\"))"
	done
	check "initramfs reused from the cache" grep -q "(cached)" "$log"
}

# start_hung_run NAME: a run in the background whose guest hangs after
# insmod; returns once the guest has reached before-insmod ($pid, $log).
start_hung_run() {
	name=$1
	log=$out/$name.log
	"$bin" run "$smoke" --out "$out/$name" --set cmdline=scaletest_fault=hang:after-insmod > "$log" 2>&1 &
	pid=$!
	wait_until -p $pid grep -q "before-insmod" "$log"
}

signal_test() { # name, signal
	start_hung_run "$1"
	sleep 1
	kill -"$2" $pid
	wait $pid
	rc=$?
	dir=$(find "$out/$name" -mindepth 1 -maxdepth 1 -type d -name '2*' | head -n 1)
	[ -n "$dir" ] || dir=$out/$name/none
	check "exit status 130 (got $rc)" [ "$rc" = 130 ]
	check "status interrupted" j '.status == "interrupted"'
	check "no QEMU left running" no_qemu_left "$name"
	check "not made latest" absent "$out/$name/latest"
	check "phases kept" j '.phases | length >= 2'
}

test_sigterm() { signal_test sigterm TERM; }
test_sigint() { signal_test sigint INT; }

# SIGKILL runs no handler: QEMU must die with the harness all the same.
test_sigkill() {
	start_hung_run sigkill
	check "QEMU running before the kill" pgrep -f "qemu-system.*$out/$name" >/dev/null
	kill -KILL $pid
	wait $pid
	rc=$?
	wait_until -t 10 no_qemu_left "$name"
	check "killed by SIGKILL (exit $rc)" [ "$rc" = 137 ]
	check "no QEMU left running" no_qemu_left "$name"
	check "no run that looks complete" none_in "$out/$name" -maxdepth 1 -name '2*'
	check "not made latest" absent "$out/$name/latest"
	# The directory it leaves is known for what it is: gc collects it.
	check "gc names it abandoned" sh -c "'$bin' gc --dry-run '$out/$name' | grep -q 'abandoned (its harness is gone)'"
	check "gc collects it" sh -c "'$bin' gc '$out/$name' | grep -q '^1 run directory collected'"
	check "no .tmp- run directory left" none_in "$out/$name" -name '.tmp-*'
}

# A sweep in one boot: up 0, 20, 40, then down to 20 (hosts of 20 disks).
pt() { # step index (0-based), jq expression on that point
	jq -e ".sweep.points[$1] | $2" "$dir/result.json" >/dev/null 2>&1
}
test_sweep() {
	run_smoke sweep --set sweep=0,20,40,20
	check "exit 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "every step measured" j '.sweep.complete and (.sweep.points | length) == 4'
	check "each point at its step's count" j '[.sweep.points[].disks] == [0, 20, 40, 20] and [.sweep.points[].step] == [1, 2, 3, 4]'
	check "the run's disks are the last step, present == requested" \
		j '.settings.disks == 20 and .disks.requested == 20 and .disks.present == .disks.requested'
	check "MemFree taken grows with the disks" pt 2 '.memfree_drop_kb > 0'
	check "  0 < 20 < 40 disks" j '.sweep.points as $p | $p[0].memfree_drop_kb < $p[1].memfree_drop_kb and $p[1].memfree_drop_kb < $p[2].memfree_drop_kb'
	check "removing 20 disks gave memory back" j '.sweep.points as $p | $p[3].memfree_drop_kb < $p[2].memfree_drop_kb'
	check "slab grows with the disks" j '.sweep.points as $p | $p[0].slab_growth_kb < $p[2].slab_growth_kb'
	check "fit over the 3 rising steps: bytes per disk > 0, R^2 high" \
		j '.sweep.fit.MemFree.points == 3 and .sweep.fit.MemFree.bytes_per_disk > 0 and .sweep.fit.MemFree.r2 > 0.95'
	check "slab's share of a disk is less than MemFree's" \
		j '.sweep.fit.Slab.bytes_per_disk > 0 and .sweep.fit.Slab.bytes_per_disk < .sweep.fit.MemFree.bytes_per_disk'
	check "no LowFree fit on amd64" j '.sweep.fit.LowFree == null'
	check "enumeration fitted" j '.sweep.fit.enumerate.ms_per_disk > 0'
	check "a down-leg fit over the peak and the last step" j '.sweep.down_fit.MemFree.points == 2 and .sweep.down_fit.MemFree.bytes_per_disk > 0'
	check "rates where disks came or went" j '[.sweep.points[1:][].rate_disks_per_s > 0] | all'
	check "the raw points kept" [ "$(ls "$dir/sweep" 2>/dev/null | wc -l)" = 4 ]
	check "sweep.tsv: a header and a line per point" [ "$(wc -l < "$dir/sweep.tsv")" = 5 ]
	check "report.md has the sweep" grep -q '^## Sweep: cost against the disk count' "$dir/report.md"
	check "report.html plots it" grep -q 'class="chart sweep"' "$dir/report.html"
	check "the summary gives the fitted line" grep -q 'sweep: 4 of 4 steps at 0, 20, 40, 20 disks' "$log"
	check "no record rejected" j '.channel.rejected == 0'
	check "no QEMU left" no_qemu_left sweep
}

# Attribution in a sweep: the page hists after each step, and each call
# site's bytes fitted against the disk count (docs/attribution.md, "Per sweep step").
test_sweep_attribution() {
	run_smoke sweep-attribution --set sweep=0,20,40 --set attribution=1
	check "exit 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "attribution ok" j '.attribution.status == "ok"'
	check "one steps entry per step, at the requested counts" \
		j '[.attribution.steps[].disks] == [0, 20, 40] and [.attribution.steps[].step] == [.sweep.points[].step]'
	check "page_alloc bytes never fall over the rising steps" \
		j '[.attribution.steps[].page_alloc_bytes] as $b | ($b | length) == 3 and $b == ($b | sort)'
	check "each step has its net and top sites" \
		j '[.attribution.steps[] | (.net_bytes == .page_alloc_bytes - .page_free_bytes) and (.sites | length) > 0] | all'
	check "blk_mq_alloc_map_and_rqs fitted: bytes per disk > 0, R^2 > 0.9" \
		j '[.attribution.step_fit[] | select(.site == "blk_mq_alloc_map_and_rqs")] | length == 1 and (.[0].bytes_per_disk > 0 and .[0].r2 > 0.9 and .[0].points == 3)'
	check "the steps' read time measured" j '.attribution.steps_read_s > 0'
	check "raw step hist files kept" [ -s "$dir/attribution/page-alloc@03.hist" ]
	check "no hist record rejected" j '[.channel.rejections[] | select(test("hist|attr"))] | length == 0'
	check "report.md has the fitted sites" grep -q "fitted over the sweep's steps" "$dir/report.md"
	check "no QEMU left" no_qemu_left sweep-attribution
}

# A step that never completes: the guest's wait runs out; the steps before
# it are kept and fitted, and the run says where it stopped.
test_sweep_stall() {
	run_smoke sweep-stall --set sweep=0,20,40,60 --set cmdline=scaletest_fault=sweep-stall:3 \
		--set timeout_insmod=5
	check "exit 1 (got $rc)" [ "$rc" = 1 ]
	check "status timeout" j '.status == "timeout"'
	check "the reason names the step" j '.reason | test("step 3 \\(40 disks\\)")'
	check "two points kept, not complete" j '(.sweep.points | length) == 2 and (.sweep.complete | not)'
	check "fitted from what was measured" j '.sweep.fit.MemFree.points == 2 and .sweep.fit.MemFree.bytes_per_disk > 0'
	check "the summary says it stopped" grep -q 'sweep: 2 of 4 steps at 0, 20 disks, stopped early' "$log"
	check "no QEMU left" no_qemu_left sweep-stall
}

# The knee: past the list a host at a time until MemFree is below the
# floor, then back to the list's last count.
test_sweep_knee() {
	run_smoke sweep-knee --set sweep=0,20,40 --set sweep_floor_mb=330
	check "exit 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "the floor was reached" j '.sweep.knee.reached and .sweep.knee.field == "MemFree"'
	check "the knee is past the list, a whole number of hosts" \
		j '.sweep.knee.max_disks > 40 and .sweep.knee.max_disks % 20 == 0'
	check "free memory at the knee is at or above the floor" j '.sweep.knee.free_kb_at_max >= .sweep.knee.floor_kb'
	check "one host more is below it" j '.sweep.knee as $k | [.sweep.points[] | select(.disks == $k.max_disks + 20)][0].meminfo.MemFree < $k.floor_kb'
	check "back to the list's last count" j '.sweep.points[-1].disks == 40 and .disks.present == 40'
	check "per-disk figure from the fit" j '.sweep.knee.per_disk_bytes == .sweep.fit.MemFree.bytes_per_disk and .sweep.knee.per_disk_bytes > 0'
	check "a down-leg fit over the way back" j '.sweep.down_fit.MemFree.points == 2'
	check "the report says where" grep -q '^The knee: [0-9,]* disks with MemFree at or above the floor' "$dir/report.md"
	check "no record rejected" j '.channel.rejected == 0'
	check "no QEMU left" no_qemu_left sweep-knee
}

# A sweep that runs the guest out of memory in a step (the pre-boot check
# told the disks are 1 kB each, so it lets the peak through): the run ends
# as oom from the console's report, not at a deadline; the points measured
# before are kept and fitted, and the reason names the step.
test_sweep_oom() {
	run_smoke sweep-oom --set sweep=0,100,200,400,800 --set memory_mb=256 \
		--set disk_cost_kb=1 --set fio=0
	common_failure_checks oom
	check "the reason is the OOM, in a named step" \
		j '.reason | test("Out of memory.*, in sweep step [0-9]+ of 5 \\(to [0-9]+ disks; [0-9]+ points? kept\\)")'
	check "points kept, not complete" j '(.sweep.points | length) >= 2 and (.sweep.complete | not)'
	check "the step named is the one after the last point" \
		j '(.sweep.points | length) as $n | .reason | test("sweep step \($n + 1) of")'
	check "fitted from what was measured" j '.sweep.fit.MemFree.bytes_per_disk > 0 and .sweep.fit.MemFree.points >= 2'
	check "ended at the OOM, not at the step's deadline" jq -e '.timed_out == false' "$dir/host.json"
}

# The sweep checked by one boot per point: the boots' own fit, kept beside.
test_sweep_boots() {
	name=sweep-boots
	log=$out/$name.log
	"$bin" sweep "$smoke" --disks 0,20,40 --boots --out "$out/$name" > "$log" 2>&1
	rc=$?
	dir=$(find "$out/$name" -mindepth 1 -maxdepth 1 -type d -name '2*' | head -n 1)
	[ -n "$dir" ] || dir=$out/$name/none
	b() { jq -e "$1" "$dir/boots.json" >/dev/null 2>&1; }
	check "exit 0 (got $rc)" [ "$rc" = 0 ]
	check "the sweep passed" j '.status == "pass" and .sweep.complete'
	check "a boot per non-zero count, each passed" b '[.runs[].disks] == [20, 40] and ([.runs[].status] | all(. == "pass"))'
	for n in 20 40; do
		r=$(jq -r ".runs[] | select(.disks == $n) | .dir" "$dir/boots.json" 2>/dev/null)
		check "boot of $n disks: its own run, the sweep's host layout" \
			jq -e ".settings.disks == $n and .settings.sd_hosts == $((n / 20)) and .settings.sweep == \"\" and .disks.present == $n" "$r/result.json"
	done
	check "the boots' fit: bytes per disk > 0" b '.fit.MemFree.points == 2 and .fit.MemFree.bytes_per_disk > 0'
	check "the sweep's own figure beside it" b '.sweep_bytes_per_disk.MemFree > 0 and (.difference_pct.MemFree | type) == "number"'
	check "wall times of both ways" b '.wall_s.sweep > 0 and .wall_s.boots > 0'
	check "the comparison printed" grep -q '^sweep against one boot per point (2 boots):' "$log"
	check "no QEMU left" no_qemu_left "$name"
}

# A sweep's memory sized by a probe sweep; refused when the host cannot
# hold it.
test_sweep_size_memory() {
	name=sweep-size
	log=$out/$name.log
	"$bin" sweep "$smoke" --disks 0,256,512,1024 --size-memory --set fio=0 --out "$out/$name" > "$log" 2>&1
	rc=$?
	dir=$(ls -d "$out/$name"/2* 2>/dev/null | while read -r d; do
		jq -e '.settings.disks == 1024' "$d/result.json" >/dev/null 2>&1 && echo "$d"; done | head -n 1)
	probe=$(ls -d "$out/$name"/2* 2>/dev/null | while read -r d; do
		jq -e '.settings.disks == 512' "$d/result.json" >/dev/null 2>&1 && echo "$d"; done | head -n 1)
	[ -n "$dir" ] || dir=$out/$name/none
	check "exit 0 (got $rc)" [ "$rc" = 0 ]
	check "the probe ran: 0, 256, 512 disks in 2 GiB, fitted" \
		jq -e '.settings.sweep == "0,256,512" and .settings.memory_mb == 2048 and .sweep.fit.MemFree.bytes_per_disk > 0' "$probe/result.json"
	check "the sweep passed in the sized guest" j '.status == "pass" and .disks.present == 1024'
	check "sized: a multiple of 256 MiB, less than the placeholder" \
		j '.settings.memory_mb % 256 == 0 and .settings.memory_mb < 65536'
	check "room for the peak at the probe's cost" sh -c "[ \$(jq '.settings.memory_mb * 1024' '$dir/result.json') -gt \$(jq '.sweep.fit.MemFree.bytes_per_disk * 1024 / 1024' '$probe/result.json') ]"
	check "it said how it sized" grep -Eq 'size-memory: [0-9]+ B per disk .* 1024 disks need a [0-9]+ MiB guest' "$log"
	check "no QEMU left" no_qemu_left "$name"

	name=sweep-size-big
	log=$out/$name.log
	"$bin" sweep "$smoke" --disks 0,50000,100000 --size-memory --out "$out/$name" > "$log" 2>&1
	rc=$?
	check "too big for the host: exit 3 (got $rc)" [ "$rc" = 3 ]
	check "it says the host cannot hold it" grep -q 'size-memory: 100000 disks need a [0-9]* MiB guest, but the host has [0-9]* MiB available' "$log"
	check "only the probe ran" [ "$(ls -d "$out/$name"/2* 2>/dev/null | wc -l)" = 1 ]
}

# reproduce.sh of a smoke run, run from this checkout: the same settings,
# the same kernel, the per-disk figure within the smoke spread.
test_reproduce() {
	run_smoke reproduce
	check "the first run passed" j '.status == "pass"'
	check "reproduce.sh written" [ -s "$dir/reproduce.sh" ]
	rlog=$out/reproduce-again.log
	SCALETEST_REPRODUCE_OUT=$out/reproduce-again sh "$dir/reproduce.sh" "$top" > "$rlog" 2>&1
	rrc=$?
	new=$out/reproduce-again/latest/result.json
	check "the rerun exits 0 (got $rrc)" [ "$rrc" = 0 ]
	check "the rerun passed" jq -e '.status == "pass"' "$new"
	check "every setting the same (the kernel package pinned)" sh -c \
		"[ \"\$(jq -S '.settings | del(.kernel_package)' '$dir/result.json')\" = \"\$(jq -S '.settings | del(.kernel_package)' '$new')\" ]"
	check "the same kernel package and version" sh -c \
		"[ \"\$(jq -c '[.kernel.package, .kernel.package_version]' '$dir/result.json')\" = \"\$(jq -c '[.kernel.package, .kernel.package_version]' '$new')\" ]"
	check "MemFree per disk within 20% of the first run's (smoke varies by about 8%)" sh -c \
		"jq -e --slurpfile a '$dir/result.json' '(.deltas.insmod.per_disk_bytes.MemFree / \$a[0].deltas.insmod.per_disk_bytes.MemFree) as \$r | \$r > 0.8 and \$r < 1.2' '$new'"
	check "it printed both figures" grep -Eq '^MemFree per disk: [0-9]+ B then, [0-9]+ B now$' "$rlog"
	check "the reports name it" grep -q 'sh reproduce.sh' "$dir/report.md"
	check "no QEMU left" no_qemu_left reproduce
}

run_tests "$@"
