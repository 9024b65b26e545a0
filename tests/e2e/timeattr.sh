#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# End-to-end tests of the time attribution (docs/time.md):
# they boot QEMU (TCG works) with the smoke scenario and assert on
# result.json.  The faults (scaletest_fault=KIND on the kernel command
# line, initramfs/lib/timeattr.sh) stand for kernels and samplers that do not
# cooperate.
#
#   sh tests/e2e/timeattr.sh [NAME...]       (names: --list)
# suite: full
# order: 40
set -u
. "$(dirname "$0")/lib.sh"

# Stacks sampled during insmod and rmmod: every phase's time attributed
# within the closure's tolerance, rmmod's to the command itself (the
# teardown of each disk), the raw samples kept, the curves fitted, the
# reports say it all.
test_time_attribution() {
	run_smoke time-attribution --set time_attribution=1 --set time_attribution_max_cpu_pct=50
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "time attribution ok" j '.time_attribution.status == "ok"'
	check "booted with preempt=full" j '.time_attribution.preempt == "full"'
	check "insmod and rmmod sampled" j '[.time_attribution.phases[].phase] == ["insmod", "rmmod"]'
	check "every phase complete, with samples" j '[.time_attribution.phases[] | .complete and .samples > 0] | all'
	check "every phase's closure holds" j '[.time_attribution.phases[].closure.closes] | all'
	check "attributed time within the tolerance of the wall time" j '[.time_attribution.phases[].closure | (.attributed_s - .wall_s | fabs) <= .tolerance_s + 0.0005] | all'
	check "sites add up to the attributed time" j '[.time_attribution.phases[] | ([.sites[].s] | add) + .other_s - .on_cpu_s - .wait_s - .idle_s | fabs < 0.05] | all'
	# The command's largest site, not the largest of all: on 7.x, rmmod of
	# 40 disks takes under a second (3 samples), and one sample of the
	# harness's own fork can outweigh it.
	check "rmmod's largest site of the command's is under sd_remove" j '[.time_attribution.phases[1].sites[] | select(.class == "command")][0] | .stack | any(test("^(sd_remove|del_gendisk|__scsi_remove_device)\\+"))'
	check "per disk is the site's seconds over the disks" j '[.time_attribution.phases[].sites[] | (.s_per_disk * 40 - .s) | fabs < 0.001] | all'
	check "no site named after a scheduling primitive" j '[.time_attribution.phases[].sites[].site | select(test("^(__schedule|schedule|schedule_timeout|__wait_for_common|__wait_rcu_gp|preempt_schedule)( |$)"))] | length == 0'
	check "the command's CPU time from schedstat" j '.time_attribution.phases[1].command_cpu_s > 0'
	check "the sampler's cost measured" j '.time_attribution.cost.cpu_s > 0 and .time_attribution.cost.pct > 0'
	check "raw samples kept" sh -c "ls '$dir'/timeattr/rmmod-001.stacks '$dir'/timeattr/insmod-001.stacks"
	check "no stacks record rejected" j '[.channel.rejections[] | select(test("stacks|timeattr"))] | length == 0'
	check "rmmod's curve fitted from the progress counts" j '.time_curves.rmmod.fit.ms_per_disk > 0 and .time_curves.rmmod.disks == 40'
	check "insmod's curve fitted" j '.time_curves.insmod.fit.ms_per_disk > 0'
	check "report says where the time goes" grep -q "Where each disk's time goes" "$dir/report.md"
	check "report lists seconds per disk" grep -q "## Seconds per disk" "$dir/report.md"
	check "report.html draws an icicle per phase" sh -c "[ \$(grep -c 'class=\"chart icicle\"' '$dir/report.html') = 2 ]"
	check "the terminal summary names rmmod's sites" grep -q "where the time goes, rmmod" "$log.out"
	check "no QEMU left running" no_qemu_left time-attribution
}

# Off by default: no section, no samples, no preempt=full; the curves
# come with every run.
test_time_attribution_off() {
	run_smoke time-attribution-off
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "no time_attribution section" j 'has("time_attribution") | not'
	check "no samples kept" absent "$dir/timeattr"
	check "not booted with preempt=full" lacks "$dir/qemu-argv.txt" 'preempt=full'
	check "rmmod's curve all the same" j '.time_curves.rmmod.fit.ms_per_disk > 0'
}

# A kernel without /proc/PID/stack (the fault stands for it): the run
# passes, the section says why there is nothing.
test_time_attribution_unavailable() {
	run_smoke time-attribution-unavailable --set time_attribution=1 --set cmdline=scaletest_fault=ta-nostack
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "time attribution unavailable" j '.time_attribution.status == "unavailable"'
	check "with the reason" j '.time_attribution.reason | test("/proc/PID/stack")'
	check "no phases" j '.time_attribution.phases == []'
	check "report says so" grep -q "Time attribution unavailable" "$dir/report.md"
	check "terminal says so" grep -q "time attribution unavailable" "$log.out"
}

# Without debugfs's scheduler list (the fault stands for a kernel without
# it, as the minimal builds are): every /proc/PID/stat is read instead.
test_time_attribution_proc_scan() {
	run_smoke time-attribution-scan --set time_attribution=1 --set time_attribution_max_cpu_pct=50 --set cmdline=scaletest_fault=ta-scan
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "the tasks came from /proc" j '[.time_attribution.phases[].tasks_from] | all(. == "proc")'
	check "every phase's closure holds" j '[.time_attribution.phases[].closure.closes] | all'
	check "rmmod's largest site is the command's" j '.time_attribution.phases[1].sites[0].class == "command"'
}

# A malformed chunk from the sampler: rejected with its reason, the rest
# of the samples count, the run passes.
test_time_attribution_garbled() {
	run_smoke time-attribution-garbled --set time_attribution=1 --set time_attribution_max_cpu_pct=50 --set cmdline=scaletest_fault=ta-garble:rmmod
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "the bad chunk rejected, by line" j '[.channel.rejections[] | select(test("stacks for .rmmod.: line 3"))] | length == 1'
	check "rmmod still attributed" j '.time_attribution.phases[1] | .phase == "rmmod" and .samples > 0 and .closure.closes'
}

# A sampler that stops answering: rmmod's end waits for it a bounded time,
# then kills it; the phase is incomplete, the run passes.
test_time_attribution_hung_sampler() {
	run_smoke time-attribution-hung --set time_attribution=1 --set cmdline=scaletest_fault=ta-hang:rmmod
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "rmmod's samples incomplete" j '[.time_attribution.phases[] | select(.phase == "rmmod")] | length == 0 or (.[0].complete | not)'
	check "insmod's complete" j '.time_attribution.phases[0] | .phase == "insmod" and .complete'
	check "the guest went on: after-rmmod measured" j '[.phases[].name] | index("after-rmmod") != null'
}

# A sweep up and down: each step attributed, the sweep as a whole, the
# growth of each site over the rising steps, and removal per disk fitted
# over the falling ones.  (rmmod_tolerance_pct=100: a sweep that falls
# leaves more of its memory taken than the leak check allows on smoke,
# with or without the sampler; not what this test is about.)
test_time_attribution_sweep() {
	run_smoke time-attribution-sweep --set time_attribution=1 --set time_attribution_max_cpu_pct=50 --set sweep=0,20,40,60,20 --set memory_mb=768 --set rmmod_tolerance_pct=100
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "each step, the sweep and rmmod" j '[.time_attribution.phases[].phase] == ["step-1", "step-2", "step-3", "step-4", "step-5", "sweep", "rmmod"]'
	check "a step's disks are its change" j '[.time_attribution.phases[:5][].disks] == [0, 20, 20, 20, 40]'
	check "every step's samples cover its span: tasks, or idle" j '[.time_attribution.phases[] | select(.phase | test("^step-")) | (.on_cpu_s + .wait_s + .idle_s - .span_s) | fabs < 0.01] | all'
	check "rmmod's closure holds" j '.time_attribution.phases[-1] | .phase == "rmmod" and .closure.closes'
	check "the sweep's phase has stacks, a step none" j '(.time_attribution.phases[5].stacks | length > 0) and (.time_attribution.phases[1] | has("stacks") | not)'
	check "growth over the rising steps per site" j '.time_attribution.growth.sites | length > 0'
	check "and per function, the growing ones named or null" j '(.time_attribution.growth.functions | length > 0) and (.time_attribution.growth | has("growing_site") and has("growing_function"))'
	check "each growth row has a step per rising count" j '[.time_attribution.growth.sites[].steps | length == 4] | all'
	check "removal per disk fitted over the falling steps" j '.sweep.down_fit.remove.ms_per_disk > 0 and .sweep.down_fit.remove.disks == 40'
	check "the enumeration fit has its marginal costs" j '.sweep.fit.enumerate | has("marginal_first") and has("marginal_last")'
	check "report has the growth table" grep -q "Each call site's time per disk over the sweep's steps" "$dir/report.md"
}

run_tests "$@"
