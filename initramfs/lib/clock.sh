# SPDX-License-Identifier: Apache-2.0
# scaletest guest: clocks read without a process (busybox sh, sourced by
# /init).  Functions that the polling loops call set variables instead of
# printing, so no subshell is forked per poll:
#
#	uptime_v		$up_s (seconds) and $up_cs (centiseconds)
#	uptime_cs		$up_cs, printed
#	ticks_v			$ticks and $start_tick: this shell's CPU time

# uptime in centiseconds, in $up_cs.
uptime_v() {
	read up_s _ < /proc/uptime
	up_cs=$(( ${up_s%.*} * 100 + 1${up_s#*.} - 100 ))
}

uptime_cs() {
	uptime_v
	echo "$up_cs"
}

# This shell's CPU ticks and its reaped children's (utime, stime, cutime,
# cstime), in $ticks, and when it started (starttime), in $start_tick:
# both in clock ticks of 1/100 s, from /proc/self/stat.
ticks_v() {
	local _st
	read -r _st < /proc/self/stat
	set -- $_st
	shift 13
	ticks=$(($1 + $2 + $3 + $4))
	shift 8
	start_tick=$1
}
