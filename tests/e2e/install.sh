#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# End-to-end: scaletest installed (make install into a DESTDIR) boots the
# installed smoke scenario from a directory that is not the tree, with the
# installed guest scripts, and puts its results in ./results there.
#
#   sh tests/e2e/install.sh [NAME...]
# suite: full
# order: 10
set -u
. "$(dirname "$0")/lib.sh"

# no_qemu_in DIR: no QEMU whose working directory is DIR (the installed
# run names its disks relative to it, results/.tmp-ID/disks/...).
no_qemu_in() {
	for p in $(pgrep qemu-system 2>/dev/null); do
		[ "$(readlink "/proc/$p/cwd" 2>/dev/null)" = "$1" ] && return 1
	done
	return 0
}

test_installed_smoke() {
	dest=$out/dest
	inst=$dest/usr
	make --no-print-directory -s -C "$top" install DESTDIR="$dest" PREFIX=/usr > "$out/install.log" 2>&1
	check "make install DESTDIR PREFIX=/usr" [ -x "$inst/bin/scaletest" ]
	mkdir -p "$out/cwd"
	(cd "$out/cwd" && env -u SCALETEST_ROOT "$inst/bin/scaletest" run \
		"$inst/share/scaletest/scenarios/smoke" --set fio_runtime=1 \
		> "$out/installed.out" 2> "$out/installed.err")
	rc=$?
	dir=$(find "$out/cwd/results" -mindepth 1 -maxdepth 1 -type d -name '2*' 2>/dev/null | head -n 1)
	[ -n "$dir" ] || dir=$out/cwd/results/none
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "the run is in ./results of the directory it ran in" [ -s "$dir/result.json" ]
	check "results/latest there" [ -e "$out/cwd/results/latest/result.json" ]
	check "status pass" j '.status == "pass"'
	check "the installed scenario ran" j ".scenario.file == \"$inst/share/scaletest/scenarios/smoke\""
	check "present == requested" j '.disks.present == .disks.requested and .disks.requested > 0'
	check "virtio present == requested" j '.disks.virtio_present == .disks.virtio_requested'
	check "MemFree fell at insmod" j '.deltas.insmod.per_disk_bytes.MemFree > 0'
	check "nothing of the tree named in its record" lacks -F "$dir/result.json" "$top/"
	check "reports written" [ -s "$dir/report.md" -a -s "$dir/junit.xml" ]
	check "no QEMU left running" no_qemu_in "$out/cwd"
	# Its KCIDB document, from the installed binary, is valid.
	"$inst/bin/scaletest" report --format kcidb "$dir" > "$out/kcidb.json" 2> "$out/kcidb.err"
	check "report --format kcidb of the installed run" [ -s "$out/kcidb.json" ]
	if [ -x "$build/jsonschema" ]; then
		check "the KCIDB document is valid" "$build/jsonschema" \
			"$top/tests/fixtures/kcidb/kcidb-io-v05_03.schema.json" "$out/kcidb.json"
	fi
	make --no-print-directory -s -C "$top" uninstall DESTDIR="$dest" PREFIX=/usr > /dev/null 2>&1
	check "make uninstall leaves no file" sh -c "[ -z \"\$(find '$dest' -type f)\" ]"
}

run_tests "$@"
