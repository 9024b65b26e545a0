#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# End-to-end tests of the libvirt backend: scenarios/smoke booted through
# libvirt (qemu:///system, TCG) next to the qemu backend, the faults of
# issue 9 (daemon down, host unreachable, permission denied, the harness
# killed, libvirtd killed mid-run) and the fan-out over connection slots.
# The daemons are started by tests/libvirt/daemons.sh and stopped again if
# this script started them.  Needs root, jq, virsh.
#
#   sh tests/e2e/libvirt.sh [NAME...]     run all tests, or those named
# suite: full
# exclusive: libvirt
# order: 45
set -u
. "$(dirname "$0")/lib.sh"

URI=qemu:///system
# Per-disk MemFree of the two backends may differ by this share of the
# qemu run's figure.  Measured here (docs/measurements.md, "The libvirt backend"): smoke runs of
# either backend spread by about 6% run to run; 20% leaves room for the
# spread of both without letting a disk's cost double unnoticed.
TOL_PCT=20
# The guests of the tests that kill something (the harness, a libvirtd)
# hang once they reach after-insmod, a fault: the kill lands while the run
# goes on, on a machine of any speed.
hang="--set cmdline=scaletest_fault=hang:after-insmod"

command -v virsh >/dev/null 2>&1 || { say "e2e: virsh is needed (make deps-libvirt)"; exit 3; }
# --open-kvm: /dev/kvm to the group kvm, as udev does, while the tests run
# (on a bare host libvirt takes a minute per domain otherwise: tests/e2e/user.sh
# runs it as the host has it).
started=$(sh "$top/tests/libvirt/daemons.sh" start --open-kvm) || exit 3
cleanup_daemons() {
	if [ "$started" = started ]; then
		sh "$top/tests/libvirt/daemons.sh" stop
	else
		sh "$top/tests/libvirt/daemons.sh" restore-kvm
	fi
}
at_exit cleanup_daemons

# Domains of this script's runs still known to libvirt (by run id).
our_domains() {
	virsh -q -c "$URI" list --all --name 2>/dev/null | grep "^scaletest-.*$1" || true
}

no_domain_left() { # run id (or a part of it)
	[ -z "$(our_domains "$1")" ]
}

# wait_for CMD...: until CMD succeeds (lib.sh's wait_until: a bound, not a
# measure).
wait_for() { wait_until "$@"; }

# The .tmp run directory of a run in progress under $out/$1.
tmp_dir() {
	find "$out/$1" -mindepth 1 -maxdepth 1 -name '.tmp-*' 2>/dev/null | head -n 1
}

domain_up() { # name: the run under $out/NAME has a running domain
	d=$(tmp_dir "$1")
	[ -n "$d" ] && [ -s "$d/domain.xml" ] && [ -n "$(our_domains "${d##*/.tmp-}")" ]
}

guest_talks() { # name: ... and the guest has written to its console
	d=$(tmp_dir "$1")
	domain_up "$1" && [ -s "$d/console.log" ]
}

per_disk() { # run dir
	jq -r '.deltas.insmod.per_disk_bytes.MemFree' "$1/result.json"
}

test_smoke_both_backends() {
	run_smoke qemu-side
	qdir=$dir
	check "qemu backend passes (rc $rc)" [ "$rc" = 0 ]
	run_smoke libvirt-side --connect "$URI"
	check "libvirt backend passes (rc $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "present == requested" j '.disks.present == .disks.requested and .disks.requested > 0'
	check "virtio present == requested" j '.disks.virtio_present == .disks.virtio_requested'
	check "virtio disks follow scsi_debug" j '.checks[] | select(.name == "virtio disks follow scsi_debug") | .pass'
	check "six phases measured" j '[.phases[] | select(.meminfo.MemFree)] | length == 6'
	check "vm.backend is libvirt" j '.vm.backend == "libvirt"'
	check "vm.uri recorded" j '.vm.uri == "qemu:///system"'
	check "libvirt and hypervisor versions recorded" j '(.vm.libvirt_version | test("^[0-9]+[.]")) and (.vm.hypervisor_version == .vm.qemu_version)'
	check "domain named with the prefix and run id" j '.run_id as $id | .vm.domain | startswith("scaletest-" + $id)'
	check "domain.xml kept" [ -s "$dir/domain.xml" ]
	check "domain.xml has no network interface" lacks "$dir/domain.xml" '<interface'
	check "same disks as the qemu backend" [ "$(jq -c '[.disks.present, .disks.virtio_present, .disks.last.name]' "$dir/result.json")" = "$(jq -c '[.disks.present, .disks.virtio_present, .disks.last.name]' "$qdir/result.json")" ]
	q=$(per_disk "$qdir")
	l=$(per_disk "$dir")
	check "per-disk MemFree within $TOL_PCT% of qemu's ($l vs $q B)" \
		[ $(( (l - q) * (l - q) * 10000 )) -le $(( q * q * TOL_PCT * TOL_PCT )) ]
	check "no domain left" no_domain_left "$(jq -r .run_id "$dir/result.json")"
	check "compare calls them different environments" sh -c "'$bin' compare '$qdir' '$dir' 2>&1 | grep -q 'vm.backend: qemu vs libvirt'"
}

# The harness dies without a chance to clean up: AUTODESTROY must.
test_sigkill_leaves_no_domain() {
	name=sigkill
	"$bin" run "$smoke" --out "$out/$name" --connect "$URI" $hang > "$out/$name.log" 2>&1 &
	pid=$!
	check "the domain came up" wait_for domain_up $name
	d=$(tmp_dir $name)
	id=${d##*/.tmp-}
	kill -KILL $pid
	wait $pid 2>/dev/null
	check "no domain left after SIGKILL" wait_for no_domain_left "$id"
	check "no QEMU left" wait_for sh -c "! pgrep -f '[q]emu-system.*guest=scaletest-$id' >/dev/null"
}

test_sigterm_interrupts() {
	name=sigterm
	"$bin" run "$smoke" --out "$out/$name" --connect "$URI" $hang > "$out/$name.log" 2>&1 &
	pid=$!
	check "the domain came up" wait_for domain_up $name
	d=$(tmp_dir $name)
	id=${d##*/.tmp-}
	kill -TERM $pid
	wait $pid
	rc=$?
	dir=$(find "$out/$name" -mindepth 1 -maxdepth 1 -type d -name '2*' | head -n 1)
	check "exit status 130 (got $rc)" [ "$rc" = 130 ]
	check "status interrupted" j '.status == "interrupted"'
	check "no domain left after SIGTERM" no_domain_left "$id"
}

# Bad connections: exit 3, a message naming the fix, nothing booted.
test_bad_connections() {
	for case in "qemu:///system?socket=/nonexistent/libvirt-sock|daemons.sh start" \
		    "qemu+tcp://127.0.0.1:1/system|check that the host answers" \
		    "nosuchdriver:///x|is the URI right"; do
		uri=${case%%|*}
		says=${case#*|}
		run_smoke bad "--connect" "$uri" 2>/dev/null
		check "$uri: exit 3 (got $rc)" [ "$rc" = 3 ]
		check "$uri: says '$says'" grep -q "$says" "$log"
		check "$uri: nothing booted (no run directory)" [ ! -d "$dir" ]
		rm -rf "$out/bad"
	done
	if command -v setpriv >/dev/null 2>&1; then
		# nobody cannot open the root-only socket of qemu:///system.
		chmod o+rx "$out"
		setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent \
			"$bin" run "$smoke" --out "$out/perm" --connect "$URI" > "$out/perm.log" 2>&1
		rc=$?
		check "permission denied: exit 3 (got $rc)" [ "$rc" = 3 ]
		check "permission denied: names the fix" grep -q "run as root, or add the user to the group libvirt" "$out/perm.log"
	fi
}

# libvirtd killed under a running domain: a harness-side error, not the
# kernel's; once libvirtd is back, the next run sweeps the orphan away.
test_connection_lost() {
	name=lost
	"$bin" run "$smoke" --out "$out/$name" --connect "$URI" $hang > "$out/$name.log" 2>&1 &
	pid=$!
	check "the domain came up" wait_for guest_talks $name
	d=$(tmp_dir $name)
	id=${d##*/.tmp-}
	kill -KILL "$(cat /run/libvirtd.pid)"
	wait $pid
	rc=$?
	dir=$(find "$out/$name" -mindepth 1 -maxdepth 1 -type d -name '2*' | head -n 1)
	check "exit status 1 (got $rc)" [ "$rc" = 1 ]
	check "status error, not crash or fail" j '.status == "error"'
	check "reason: the connection was lost" j '.reason | test("lost the connection to libvirt")'
	check "recorded as connection_lost" j '.vm.connection_lost == true'
	# QEMU outlives libvirtd, and a libvirtd started again may not take
	# it back: on a local host the harness kills it.
	check "no QEMU left" wait_for sh -c "! pgrep -f '[q]emu-system.*guest=scaletest-$id' >/dev/null"
	libvirtd -d
	check "libvirtd is back" wait_for sh "$top/tests/libvirt/daemons.sh" status
	check "no domain left" no_domain_left "$id"
}

test_fanout_slots() {
	name=fanout
	"$bin" run "$smoke" --repeat 2 --out "$out/$name" --connect "$URI,slots=2" > "$out/$name.log" 2>&1
	rc=$?
	g=$(find "$out/$name" -mindepth 1 -maxdepth 1 -type d -name '2*' | head -n 1)
	check "both runs passed (rc $rc)" [ "$rc" = 0 ]
	check "group.json: two runs" jq -e '.runs | length == 2' "$g/group.json"
	check "each run records where it ran" jq -e '[.placements[].uri] | length == 2 and all(. == "qemu:///system")' "$g/group.json"
	check "the two ran at the same time" jq -e '.placements[0].start < .placements[1].end and .placements[1].start < .placements[0].end' "$g/group.json"
	for r in "$g"/2*/; do
		check "$(basename "$r"): vm.uri recorded" jq -e '.vm.uri == "qemu:///system" and .status == "pass"' "$r/result.json"
	done
	check "no domain left" no_domain_left smoke
}

test_upload_removes_volumes() {
	run_smoke upload --connect "$URI,upload"
	check "passes with uploaded files (rc $rc)" [ "$rc" = 0 ]
	check "the domain booted the uploaded kernel" grep -q "<kernel>/var/lib/libvirt/images/scaletest/scaletest-" "$dir/domain.xml"
	check "the disks were volumes of the pool" grep -q "images/scaletest/scaletest-.*[.]disk0" "$dir/domain.xml"
	check "every volume removed afterwards" sh -c "! virsh -q -c '$URI' vol-list scaletest | grep -q scaletest-"
}


# libvirtd killed at several moments while the harness sets the VM up
# (run directory made, domain XML written, guest talking): a harness-side
# error, never a crash of the harness, and no QEMU left.
has_tmp() { [ -n "$(tmp_dir "$1")" ]; }
has_xml() { d=$(tmp_dir "$1"); [ -n "$d" ] && [ -s "$d/domain.xml" ]; }
has_console() { d=$(tmp_dir "$1"); [ -n "$d" ] && [ -s "$d/console.log" ]; }

test_lost_during_start() {
	for moment in has_tmp has_xml has_console; do
		name=start-$moment
		uri2=$(sh "$top/tests/libvirt/daemons.sh" start-second) || { check "a second libvirtd starts" false; return; }
		"$bin" run "$smoke" --out "$out/$name" --connect "$uri2" $hang > "$out/$name.log" 2>&1 &
		pid=$!
		check "$moment: reached" wait_for $moment $name
		kill -KILL "$(cat /run/scaletest-libvirt-2/libvirtd.pid)"
		wait $pid
		rc=$?
		dir=$(find "$out/$name" -mindepth 1 -maxdepth 1 -type d -name '2*' | head -n 1)
		# At has_tmp the harness may not have connected yet: libvirtd gone
		# before it did is a setup failure (exit 3), after it a lost
		# connection (exit 1); an error either way, never a signal.
		case $moment in
		has_tmp) check "$moment: exit 1 or 3, not a signal (got $rc)" [ "$rc" = 1 -o "$rc" = 3 ] ;;
		*) check "$moment: exit 1, not a signal (got $rc)" [ "$rc" = 1 ] ;;
		esac
		check "$moment: status error" j '.status == "error"'
		id=$(jq -r .run_id "$dir/result.json")
		check "$moment: no QEMU left" wait_for sh -c "! pgrep -f '[q]emu-system.*guest=scaletest-$id' >/dev/null"
		sh "$top/tests/libvirt/daemons.sh" stop-second
	done
}

# Two connections; the libvirtd of the first dies under run 1: run 1 is
# run again on the other connection, and the lost attempt is recorded.
test_retry_on_other_connection() {
	name=retry
	uri2=$(sh "$top/tests/libvirt/daemons.sh" start-second) || { check "a second libvirtd starts" false; return; }
	# The least loaded connection first: run 1 on uri2, run 2 on $URI.
	"$bin" run "$smoke" --repeat 2 --out "$out/$name" --connect "$uri2" --connect "$URI" > "$out/$name.log" 2>&1 &
	pid=$!
	check "run 1's guest talks on the second libvirtd" wait_for sh -c \
		"find '$out/$name' -path '*/.slot-0-0/.tmp-*/console.log' -size +0 | grep -q ."
	kill -KILL "$(cat /run/scaletest-libvirt-2/libvirtd.pid)"
	wait $pid
	rc=$?
	g=$(find "$out/$name" -mindepth 1 -maxdepth 1 -type d -name '2*' | head -n 1)
	check "both runs passed in the end (rc $rc)" [ "$rc" = 0 ]
	check "group.json: two runs, both passed" jq -e '(.runs | length == 2) and all(.statuses[]; . == "pass")' "$g/group.json"
	check "three attempts recorded" jq -e '.placements | length == 3' "$g/group.json"
	check "the lost attempt: run 1 on the second libvirtd" jq -e --arg u "$uri2" \
		'[.placements[] | select(.connection_lost)] | length == 1 and .[0].uri == $u and .[0].job == 0 and .[0].attempt == 1 and .[0].status == "error"' "$g/group.json"
	check "its retry: run 1 on the other connection, passed" jq -e --arg u "$URI" \
		'[.placements[] | select(.attempt == 2)] | length == 1 and .[0].uri == $u and .[0].job == 0 and .[0].status == "pass"' "$g/group.json"
	lost=$(find "$g/.retried" -mindepth 1 -maxdepth 1 -type d | head -n 1)
	check "the lost attempt is kept in .retried/" [ -n "$lost" ]
	check "the lost attempt says why" jq -e '.vm.connection_lost == true and (.reason | test("lost the connection to libvirt"))' "$lost/result.json"
	check "no QEMU of the lost attempt left" wait_for sh -c "! pgrep -f '[q]emu-system.*guest=scaletest-$(basename "$lost")' >/dev/null"
	check "the harness says it ran it again" grep -q "running it again on another connection" "$out/$name.log"
	sh "$top/tests/libvirt/daemons.sh" stop-second
}

# SIGKILL while the files are uploaded: AUTODESTROY takes the domain, the
# volumes stay; gc --connect (or the next run's sweep) deletes them.
test_sigkill_during_upload() {
	name=upload-kill
	"$bin" run "$smoke" --out "$out/$name" --connect "$URI,upload" $hang > "$out/$name.log" 2>&1 &
	pid=$!
	check "volumes appear in the pool" wait_for sh -c "virsh -q -c '$URI' vol-list scaletest 2>/dev/null | grep -q 'scaletest-.*+$(hostname)+$pid+'"
	d=$(tmp_dir $name)
	id=${d##*/.tmp-}
	kill -KILL $pid
	wait $pid 2>/dev/null
	check "its volumes are left after SIGKILL" sh -c "virsh -q -c '$URI' vol-list scaletest | grep -q '+$pid+'"
	check "AUTODESTROY took the domain" wait_for no_domain_left "$id"
	"$bin" gc --connect "$URI" "$out/$name" > "$out/$name.gc" 2>&1
	check "gc --connect deletes them" sh -c "! virsh -q -c '$URI' vol-list scaletest | grep -q '+$pid+'"
	check "gc says what it deleted" grep -q "deleted the leftover volume 'scaletest-.*+$pid+" "$out/$name.gc"
	check "gc collected the run directory" grep -q '^1 run directory collected' "$out/$name.gc"
	check "no domain left" wait_for no_domain_left "$id"
}


# A harness that reads late (a libvirt call that took a minute while the
# guest ran, as where /dev/kvm is closed to libvirt's QEMU user) loses
# nothing: SCALETEST_FAULT=libvirt-stall holds the watch loop until the
# domain has ended and 40 s more (longer than the 30 s after which the
# pumps used to give up on a full socket), the socketpairs at their
# smallest, so that the pumps must hold nearly all of the guest's output.
test_slow_reader_loses_nothing() {
	export SCALETEST_FAULT=libvirt-stall:40
	run_smoke stall --connect "$URI"
	unset SCALETEST_FAULT
	check "the watch loop was held" grep -q "fault: reading nothing until the domain has ended" "$log"
	check "passes (rc $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "six phases measured" j '[.phases[] | select(.meminfo.MemFree)] | length == 6'
	check "fio's records all there, the last group's too" \
		j '([.fio.jobs[] | select(.error != 0)] | length) == 0 and ([.fio.jobs[].group] | index("all") != null)'
	check "the fio checks passed" j '[.checks[] | select(.name | test("^fio")) | .pass] | (length == 2 and all)'
	check "no record rejected or cut" j '.channel.rejected == 0'
	check "no domain left" no_domain_left "$(jq -r .run_id "$dir/result.json")"
}

# A remote URI for real: qemu+ssh to a private sshd on this host.  The
# harness takes the remote path (uploads, streams through ssh).
test_remote_over_ssh() {
	ssh_uri=$(sh "$top/tests/libvirt/sshd.sh" start) || { check "a private sshd starts" false; return; }
	run_smoke ssh --connect "$ssh_uri"
	check "passes over qemu+ssh (rc $rc)" [ "$rc" = 0 ]
	check "vm.uri is the ssh URI" jq -e --arg u "$ssh_uri" '.vm.uri == $u and .vm.backend == "libvirt"' "$dir/result.json"
	check "present == requested" j '.disks.present == .disks.requested and .disks.requested > 0'
	check "the kernel was uploaded to the pool" grep -q "<kernel>/var/lib/libvirt/images/scaletest/scaletest-" "$dir/domain.xml"
	check "every volume removed afterwards" sh -c "! virsh -q -c '$URI' vol-list scaletest | grep -q '$(jq -r .vm.domain "$dir/result.json")'"
	check "no domain left" no_domain_left "$(jq -r .run_id "$dir/result.json")"
	sh "$top/tests/libvirt/sshd.sh" stop
}

run_tests "$@"
