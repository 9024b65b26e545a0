#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# End-to-end: a guest that writes past guest_output_mb (issue 25, finding 6).
# The guest floods the record channel with a MiB more than the budget
# (scaletest_fault=flood:PHASE); the harness must keep no more than the
# budget, stop the VM and call the run an error naming the key.
# suite: full
# order: 10
. "$(dirname "$0")/lib.sh"

test_flood_channel() {
	run_smoke flood --quiet --set guest_output_mb=16 \
		--set "cmdline=scaletest_fault=flood:after-insmod scaletest_flood_mb=16"
	check "exit 1 (the run failed)" [ "$rc" = 1 ]
	check "status error" j '.status == "error"'
	check "the reason names guest_output_mb" j '.reason | test("more than 16 MiB on its record channel \\(guest_output_mb\\)")'
	check "channel.log holds at most the budget" [ "$(stat -c %s "$dir/channel.log")" -le 16777216 ]
	check "the guest's records before the flood were kept" j '.phases | length >= 2'
	check "no QEMU left" no_qemu_left flood
}

run_tests "$@"
