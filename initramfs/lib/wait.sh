# SPDX-License-Identifier: Apache-2.0
# scaletest guest: waiting for the disks, and telling the host how far it
# is (busybox sh, sourced by /init).
#
#	nap MS				sleep in this shell (read -t on a FIFO)
#	wait_blocks COUNT SECONDS	until exactly COUNT block devices
#	bg_wait SECONDS COMMAND...	COMMAND in the background, counting
#	progress_v			a "progress" record when the count moved
#	queues_start, queues_v, queues_stop	$nq: the SCSI devices made so far
#				(a class with CLASS_SCAN=1: scsi_debug)

# The waits.  A sleep process (usleep) every tenth of a second costs a fork
# and an exec under TCG: the 4000-disk insmod took 1.07 times as long
# with a loop napping so beside it (docs/measurements.md).  So the waits
# nap with the shell's own "read -t" on a FIFO that nobody writes to,
# except bg_wait's job when it ends.
#
# nap MS: sleep MS milliseconds in this shell (or until a line comes).
nap() {
	[ -p /tmp/.nap ] || { mkfifo /tmp/.nap && exec 5<>/tmp/.nap; }
	read -r -t $(($1 / 1000)).$(($1 % 1000 / 100))$(($1 % 100 / 10))$(($1 % 10)) _ <&5
}

# wait_blocks COUNT SECONDS: until exactly COUNT block devices exist,
# counting every 0.1 s (a sweep step's enumerate time is when the count is
# reached); the counts go to the host as progress records.
wait_blocks() {
	local end _wq
	uptime_v
	end=$((up_cs + $2 * 100))
	_wq=0
	while :; do
		class_count_v
		[ "$nblk" -eq "$1" ] && return 0
		uptime_v
		[ "$up_cs" -ge "$end" ] && return 1
		# The SCSI devices once a second (a read of /proc/slabinfo).
		_wq=$((_wq + 1))
		[ $((_wq % 10)) = 1 ] && queues_v
		progress_v
		nap 100
	done
}

# bg_wait SECONDS COMMAND...: run COMMAND (insmod, rmmod: they return only
# once the kernel has made or removed every disk) in the background, and
# meanwhile send the count of block devices as progress records; COMMAND's
# status, or 124 if SECONDS passed first.  Nothing here waits for a count,
# and the kernel making or removing the disks needs the same one CPU, while
# a count costs more the more disks there are (13 ms at 4000 under TCG:
# busybox reads and sorts the names): so after each count (and the record
# it may send) the loop naps at least 99 times as long as they took, 1% of
# the guest's time, and at least a second; the job's end wakes it at once.
# What they took is read from the clock (a 1 ms read), not from this
# shell's ticks (/proc/self/stat, 8 ms, twice an iteration): a kernel thread
# that ran meanwhile makes the nap longer, never shorter.
BG_WAIT_PCT=1
bg_wait() {
	local _s _pid _w0 _ms _rc end
	_s=$1
	shift
	rm -f /tmp/.bg.rc
	[ -p /tmp/.nap ] || { mkfifo /tmp/.nap && exec 5<>/tmp/.nap; }
	( "$@"; echo $? > /tmp/.bg.rc; echo > /tmp/.nap ) &
	_pid=$! bg_running=1
	ta_job "$_pid"
	uptime_v
	end=$((up_cs + _s * 100))
	while [ ! -e /tmp/.bg.rc ]; do
		[ "$up_cs" -ge "$end" ] && return 124
		_w0=$up_cs
		class_count_v
		queues_v
		progress_v
		uptime_v
		_ms=$(((up_cs - _w0) * 10 * (100 - BG_WAIT_PCT) / BG_WAIT_PCT))
		[ $_ms -ge 1000 ] || _ms=1000
		[ $_ms -le $(((end - up_cs) * 10)) ] || _ms=$(((end - up_cs) * 10))
		nap $_ms
		uptime_v
	done
	wait "$_pid"
	bg_running=
	read -r _rc < /tmp/.bg.rc
	return "$_rc"
}

# A "progress" record (harness/record/monitor.h): the count a wait loop just
# took ($nblk at $up_s), when it moved and a second has passed since the
# last one, or longer if a send would take more than 2% of the CPU (one
# costs about 25 ms under TCG: the frame's wc, crc32 and cat).  They are
# the host's live progress line, which so does not depend on the monitor
# (whose duty cycle spreads its samples out at thousands of disks, and
# which may be off).  What these records cost /init
# (its own ticks and its children's across each emit, from
# /proc/self/stat: the shell opens it, so self is /init) is summed in
# prog_cpu and sent with the next one.  The shell reaps a finished
# background job in any wait of its own, and the job's ticks then count as
# its children's: so a send during which bg_wait's job may have ended (its
# status file is there after it) is not counted.
# During insmod (and a sweep's steps) a fourth number: the SCSI devices
# the kernel has made so far ($nq, queues_v), which move for minutes
# before the first block device at tens of thousands of disks.
prog_cs=-100 prog_n=-1 prog_q=-1 prog_cpu=0 prog_gap=100 bg_running=
progress_v() {
	local _t0
	{ [ "$nblk" -ne "$prog_n" ] || [ "${nq:--1}" -ne "$prog_q" ]; } &&
		[ $((up_cs - prog_cs)) -ge "$prog_gap" ] || return 0
	prog_n=$nblk prog_q=${nq:--1} prog_cs=$up_cs
	ticks_v; _t0=$ticks
	echo "$up_s $nblk $prog_cpu${nq:+ $nq}" > /tmp/.progress
	emit progress "$phase" /tmp/.progress
	ticks_v
	[ -n "$bg_running" ] && [ -e /tmp/.bg.rc ] && return 0
	prog_cpu=$((prog_cpu + ticks - _t0))
	prog_gap=$(((ticks - _t0) * 49))
	[ $prog_gap -ge 100 ] || prog_gap=100
}

# The SCSI devices made since queues_start, in $nq: the request_queue
# slab's active objects less those then.  The kernel allocates one queue
# per SCSI device as the scan finds it, long before the device is in sysfs
# (an asynchronous scan adds a host's devices there when the whole host is
# scanned: at 65,536 disks on one host, minutes of nothing in /sys/block).
# One grep: the shell's read takes /proc/slabinfo a byte at a time (a
# system call each, some 25 kB), which under TCG cost more than the
# process.  $nq stays empty without queues_start, and where the kernel
# has no request_queue slab of its own (merged into another cache): the
# host then shows the block devices.
queues_v() {
	nq=
	[ -n "$q_base" ] || return 0
	set -- $(grep -m 1 '^request_queue ' /proc/slabinfo 2>/dev/null)
	[ "${1:-}" = request_queue ] && nq=$(($2 - q_base))
	return 0
}

queues_start() {
	[ "$CLASS_SCAN" = 1 ] || return 0
	q_base=0
	queues_v
	q_base=$nq nq=
}

queues_stop() {
	q_base= nq=
}
