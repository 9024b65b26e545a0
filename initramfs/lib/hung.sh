# SPDX-License-Identifier: Apache-2.0
# scaletest guest: where the tasks of a hung-task report wait (busybox sh,
# sourced by /init); parsed by harness/record/hung.c.
#
#	hung_watch	in the monitor's loop: a "hung" record when the
#			hung-task detector spoke since the last call
#
# At the default loglevel (4) the console shows a hung-task report's first
# line ("INFO: task insmod:139 blocked for more than 1 seconds.") but not
# the stack the kernel prints after it at KERN_INFO, so the host cannot
# say where the task waits ("INFO: task hung in corrupted").  The guest
# reads it instead: the detector counts its reports down in
# /proc/sys/kernel/hung_task_warnings (10 at boot; -1 never counts) and,
# on kernels that have it, up in hung_task_detect_count; a read of each
# per monitor sample (no process) says whether it spoke.  When it did,
# one awk reads /proc/PID/stat of every task and /proc/PID/stack of those
# in D state, at most HUNG_TASKS of them, and sends
#
#	hung 1 UPTIME
#	t PID COMM
#	 frame			innermost first, "[<0>] " cut off
#
# The host titles the report with the stack of the task it names
# (harness/record/console.c).  At most HUNG_RECORDS records a boot (the
# detector prints 10 reports unless told otherwise).
HUNG_TASKS=8
HUNG_RECORDS=10
hung_seen=
hung_sent=0

# The detector's counts, "WARNINGS:DETECTED" ("" for one it lacks), in
# $hung_now; empty without the detector.
hung_now_v() {
	local _w _d
	_w= _d=
	[ -e /proc/sys/kernel/hung_task_warnings ] && read -r _w < /proc/sys/kernel/hung_task_warnings
	[ -e /proc/sys/kernel/hung_task_detect_count ] &&
		read -r _d < /proc/sys/kernel/hung_task_detect_count
	hung_now=$_w:$_d
	[ "$hung_now" != : ] || hung_now=
}

hung_watch() {
	hung_now_v
	[ -n "$hung_now" ] || return 0
	if [ -z "$hung_seen" ] || [ "$hung_now" = "$hung_seen" ] ||
	   [ "$hung_sent" -ge "$HUNG_RECORDS" ]; then
		hung_seen=$hung_now
		return 0
	fi
	hung_seen=$hung_now
	hung_sent=$((hung_sent + 1))
	hung_stacks > /tmp/.hung && emit hung monitor /tmp/.hung
}

# The record: the stat of every task (the shell's glob names the /proc
# entries; a task gone before its turn is skipped), the stack of those in
# D state.
hung_stacks() {
	local _up
	read -r _up _ < /proc/uptime
	echo "hung 1 $_up"
	set -- /proc/[0-9]*
	awk -v max="$HUNG_TASKS" 'BEGIN {
		for (i = 1; i < ARGC && n < max; i++) {
			f = ARGV[i] "/stat"
			r = getline l < f
			close(f)
			if (r <= 0)
				continue
			s = l; sub(/.*\) /, "", s)
			if (substr(s, 1, 2) != "D ")
				continue
			split(l, a, " ")
			c = l; sub(/^[^(]*\(/, "", c); sub(/\) [^)]*$/, "", c)
			print "t", a[1], c
			n++
			f = ARGV[i] "/stack"
			while ((getline l < f) > 0) {
				sub(/^[^ ]* /, "", l)
				print " " l
			}
			close(f)
		}
		exit
	}' "$@"
}
