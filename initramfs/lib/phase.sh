# SPDX-License-Identifier: Apache-2.0
# scaletest guest: around the phases (busybox sh, sourced by /init):
# clean caches before a snapshot, RCU expedited during rmmod, kmemleak
# after it, and the end of the run.
#
#	drop_caches		clean caches dropped (and slab caches shrunk: slab_sheaves)
#	rcu_expedite 1|0	RCU grace periods expedited, or back
#	kmemleak_scan		kmemleak's report, when the kernel has it
#	finish STATUS [PHASE] [REASON]	the end record, then reboot
#	fail, fail_timeout REASON...	finish with fail or timeout
#	fail_hard REASON...	(no channel) say it and reboot

# Drop clean caches (page cache, dentries and inodes) so that a snapshot
# shows memory the kernel really holds; called before the before-insmod and
# after-rmmod snapshots: unused dentries of removed sysfs directories keep
# their inodes and the inodes their kernfs nodes, tens of MB for 4000
# disks, which the leak check must not count as leaked.  On a kernel with
# the slab allocator's per-CPU sheaves (6.18 and later: slab_sheaves) every
# slab cache is then shrunk (/sys/kernel/slab/*/shrink), twice, the second
# time for what RCU freed during the first: such a kernel keeps freed
# objects in the sheaves and each node's barn, which drop_caches does not
# empty, so the slab pages of 200 removed disks stayed taken (kernfs
# nodes, inodes, request queues: 8 MB at the after-rmmod snapshot of a 7.2
# smoke run, its leak check failed).  Not on older kernels, which return
# those pages without it: the shrink costs half a second at 4000 disks
# under TCG (245 caches, twice), a cost of the harness's own.
drop_caches() {
	sync
	[ -w /proc/sys/vm/drop_caches ] && echo 3 > /proc/sys/vm/drop_caches
	slab_sheaves || return 0
	for _pass in 1 2; do
		for _s in /sys/kernel/slab/*/shrink; do
			[ -w "$_s" ] && { echo 1 > "$_s"; } 2> /dev/null
		done
	done
	:
}

# slab_sheaves: true on a kernel of 6.18 or later (the per-CPU sheaves),
# from /proc/sys/kernel/osrelease (the shell's read, no process).
slab_sheaves() {
	local _r _maj _min
	read -r _r < /proc/sys/kernel/osrelease || return 1
	_maj=${_r%%.*} _min=${_r#*.}
	_min=${_min%%[!0-9]*}
	case $_maj$_min in '' | *[!0-9]*) return 1 ;; esac
	[ "$_maj" -gt 6 ] || { [ "$_maj" -eq 6 ] && [ "$_min" -ge 18 ]; }
}

# rcu_expedite 1|0: RCU grace periods expedited or not (scenario key
# rmmod_rcu_expedited, during rmmod only: del_gendisk waits a grace period
# per disk in synchronize_rcu).  The state reached goes to the host as an
# "info" record (rmmod_rcu_expedited=on, off, or unavailable without
# /sys/kernel/rcu_expedited, as with TINY_RCU, whose grace periods are
# short anyway).
rcu_expedite() {
	[ "$RMMOD_EXPEDITED" = 1 ] || return 0
	if [ ! -w /sys/kernel/rcu_expedited ]; then
		rcu_exp_state=unavailable
	elif echo "$1" > /sys/kernel/rcu_expedited 2>/dev/null; then
		[ "$1" = 1 ] && rcu_exp_state=on
		return 0
	else
		rcu_exp_state=unavailable
	fi
}

# After rmmod: kmemleak's view, when the kernel has it.
kmemleak_scan() {
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	[ -w /sys/kernel/debug/kmemleak ] || return 0
	say "kmemleak: scanning"
	echo scan > /sys/kernel/debug/kmemleak
	sleep 2
	echo scan > /sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak > /tmp/.kmemleak
	emit kmemleak after-rmmod /tmp/.kmemleak
}

# finish STATUS [PHASE] [REASON]: report the end and leave the VM.
finish() {
	monitor_stop
	ta_end
	{
		echo "status=$1"
		[ -n "$2" ] && echo "phase=$2"
		[ -n "$3" ] && echo "reason=$3"
	} > /tmp/.end
	emit end "${2:-done}" /tmp/.end
	say "end: $1${3:+: $3}"
	exec 3>&-
	sync
	reboot -f
	sleep 10
}

fail() {
	finish fail "$phase" "$*"
}

fail_timeout() {
	finish timeout "$phase" "$*"
}

fail_hard() {
	say "fatal: $*"
	reboot -f
}
