# SPDX-License-Identifier: Apache-2.0
# scaletest guest: a sweep, the disks step by step (busybox sh, sourced by
# /init).
#
#	sweep_run		every step of SWEEP (and the knee); 1 or 2 with
#				the reason in $sweep_why

# A sweep (SWEEP="0 250 500", harness/scenario sweep): the disk class made
# ready with no device (class_sweep_start: scsi_debug loaded without
# hosts), then units of HOST_DISKS disks added (or removed: a negative
# count; class_step: scsi_debug's hosts through add_host) until each
# count, waiting for exactly that many disks, since the step may return
# before they exist.  After each
# step one "point" record (parsed by harness/record/sweep.c):
#	@@@ point I DISKS UPTIME
#	@@@ timing
#	add_cs=N		the write to add_host
#	enumerate_cs=N		from the write until the count was reached
#	@@@ meminfo
#	<the text of /proc/meminfo>
#	@@@ zoneinfo
#	<the text of /proc/zoneinfo: the per-CPU lists' free pages>
#	@@@ slabinfo
#	<the text of /proc/slabinfo>
# With attribution, the step's page-alloc and page-free hist files follow
# its point (attr_step).
# The scheduler and nr_requests knobs go on each step's new disks before
# its snapshot.  With FLOOR_KB (sweep_floor_mb), the steps go on past
# the list, a host at a time, until the headline free memory (LowFree, or
# MemFree without HIGHMEM) is below it, then come back to the list's last
# count in one step: the knee.  Returns 1 (a step failed) or 2 (a
# step's deadline passed) with the reason in $sweep_why.
sweep_run() {
	local have i want last
	queues_start
	class_sweep_start || { sweep_why="$CLASS_MAKE failed$(class_why)"; return 1; }
	have=0
	i=0
	cp /tmp/blocks.base /tmp/.sweep.known
	for want in $SWEEP; do
		sweep_step || return
	done
	[ "$FLOOR_KB" -gt 0 ] || return 0
	# The knee: one host more at a time until the headline free memory is
	# below the floor (or the steps run out), then back to the list's end.
	last=$have
	while [ $i -lt "$SWEEP_MAX_STEPS" ]; do
		headline_free_v
		[ "$free_kb" -lt "$FLOOR_KB" ] && break
		want=$((have + HOST_DISKS))
		sweep_step || return
	done
	[ "$have" -eq "$last" ] && return 0
	want=$last
	sweep_step
}

# LowFree on HIGHMEM kernels, else MemFree, in $free_kb.
headline_free_v() {
	local k v mem_kb
	free_kb=
	while read -r k v _; do
		case $k in
		LowFree:) free_kb=$v; break ;;
		MemFree:) mem_kb=$v ;;
		esac
	done < /proc/meminfo
	[ -n "$free_kb" ] || free_kb=$mem_kb
}

# One step: from $have disks to $want, then its point record.
sweep_step() {
	local _s0 _s1 _s2
	i=$((i + 1))
	ta_begin "step-$i"
	uptime_v; _s0=$up_cs
	if fault_at step "$i"; then
		:
	elif [ "$want" -ne "$have" ]; then
		# (Adding returns at once, the disks come after; removing
		# returns once they are gone: in the background either way.)
		bg_wait "$TIMEOUT_INSMOD" class_step $(((want - have) / HOST_DISKS))
		case $? in
		0) ;;
		124) sweep_why="step $i ($want disks): $CLASS_STEP took over ${TIMEOUT_INSMOD}s"; return 2 ;;
		*) sweep_why="step $i ($want disks): $CLASS_STEP failed$(class_why)"; return 1 ;;
		esac
	fi
	uptime_v; _s1=$up_cs
	wait_blocks $((nbase + want)) "$TIMEOUT_INSMOD" ||
		{ sweep_why="step $i ($want disks): $(count_blocks) of $((nbase + want)) block devices after ${TIMEOUT_INSMOD}s"; return 2; }
	uptime_v; _s2=$up_cs
	ta_end
	if [ "$want" -gt "$have" ] && { [ -n "$SCHEDULER" ] || [ "$NR_REQUESTS" -gt 0 ]; }; then
		new_block_names /tmp/.sweep.known > /tmp/.sweep.names
		cat /tmp/.sweep.names >> /tmp/.sweep.known
		apply_knobs /tmp/.sweep.names ||
			{ sweep_why="step $i ($want disks): setting the scheduler or nr_requests failed"; return 1; }
	fi
	have=$want
	read up_s _ < /proc/uptime
	{
		echo "@@@ point $i $want $up_s"
		echo "@@@ timing"
		echo "add_cs=$((_s1 - _s0))"
		echo "enumerate_cs=$((_s2 - _s0))"
		echo "@@@ meminfo"
		cat /proc/meminfo
		echo "@@@ zoneinfo"
		cat /proc/zoneinfo
		echo "@@@ slabinfo"
		cat /proc/slabinfo 2>/dev/null
	} > /tmp/.point
	emit point sweep /tmp/.point
	attr_step "$i"
	say "sweep: step $i: $want disks"
}
