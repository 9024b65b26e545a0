# scaletest guest helpers (busybox sh), sourced by /init.
#
# Everything here writes to the record channel on fd 3; the console (fd 1)
# only gets short progress lines.  Functions that the polling loops call
# set variables instead of printing, so no subshell is forked per poll.

seq=0

chan_open() {
	[ -c "$CHANNEL" ] || return 1
	# Raw: no \n -> \r\n translation, no echo, 8 bits.
	stty -F "$CHANNEL" raw -echo 115200 2>/dev/null
	exec 3>"$CHANNEL"
}

say() {
	read _up _ < /proc/uptime
	echo "scaletest[$_up]: $*"
}

# emit TYPE PHASE FILE: one framed record with FILE as payload.
# Records from the background monitor and from /init must not interleave,
# so the frame is written under a lock (mkdir is atomic).
emit() {
	until mkdir /tmp/.chanlock 2>/dev/null; do usleep 2000; done
	seq=$((seq + 1))
	set -- "$1" "$2" "$3" "$(wc -c < "$3")" "$(crc32 < "$3")"
	printf '@@ST1 %d %s %s %d %s\n' "$seq" "$1" "$2" "$4" "$5" >&3
	cat "$3" >&3
	printf '@@END %d\n' "$seq" >&3
	rmdir /tmp/.chanlock
}

# emit_kv TYPE PHASE, with key=value lines on stdin.
emit_kv() {
	cat > /tmp/.kv
	emit "$1" "$2" /tmp/.kv
}

# uptime in centiseconds, in $up_cs.
uptime_v() {
	read up_s _ < /proc/uptime
	up_cs=$(( ${up_s%.*} * 100 + 1${up_s#*.} - 100 ))
}

uptime_cs() {
	uptime_v
	echo "$up_cs"
}

snapshot() {
	say "phase $1"
	read up_s _ < /proc/uptime
	echo "$up_s" > /tmp/.mark
	emit mark "$1" /tmp/.mark
	cat /proc/meminfo > /tmp/.meminfo
	emit meminfo "$1" /tmp/.meminfo
	cat /proc/slabinfo > /tmp/.slabinfo 2>/dev/null || : > /tmp/.slabinfo
	emit slabinfo "$1" /tmp/.slabinfo
}

# Number of block devices, in $nblk.
count_blocks_v() {
	set -- /sys/block/*
	if [ -e "$1" ]; then nblk=$#; else nblk=0; fi
}

count_blocks() {
	count_blocks_v
	echo "$nblk"
}

# "name MAJ:MIN" for every block device.  Thousands of them: two processes
# and a paste, not a read per device (that took seconds under TCG).  Both
# globs expand in the same sorted order.
list_blocks() {
	cd /sys/block || return 1
	set -- *
	if [ -e "$1" ]; then
		printf '%s\n' "$@" > /tmp/.names
		cat ./*/dev > /tmp/.devs
		paste -d ' ' /tmp/.names /tmp/.devs
	fi
	cd /
}

# wait_blocks COUNT SECONDS: until exactly COUNT block devices exist.
wait_blocks() {
	uptime_v
	end=$((up_cs + $2 * 100))
	while :; do
		count_blocks_v
		[ "$nblk" -eq "$1" ] && return 0
		uptime_v
		[ "$up_cs" -ge "$end" ] && return 1
		usleep 100000
	done
}

load_list() {
	while read -r m args; do
		[ -n "$m" ] || continue
		insmod "$m" $args || return 1
	done < "$1"
}

# Write IO_MB MiB of random data to every disk that appeared with the virtio
# driver, read it back with O_DIRECT and compare checksums.
io_verify() {
	[ "$VIRTIO_DISKS" -gt 0 ] || return 0
	dd if=/dev/urandom of=/tmp/.pattern bs=1048576 count="$IO_MB" 2>/dev/null || return 1
	want=$(crc32 < /tmp/.pattern)
	: > /tmp/.io
	rc=0
	for d in $(cat /tmp/virtio-disks); do
		uptime_v; t0=$up_cs
		if ! dd if=/tmp/.pattern of="/dev/$d" bs=1048576 count="$IO_MB" oflag=direct conv=fsync 2>/dev/null; then
			echo "disk=$d ok=0 error=write" >> /tmp/.io
			rc=1
			continue
		fi
		uptime_v; t1=$up_cs
		got=$(dd if="/dev/$d" bs=1048576 count="$IO_MB" iflag=direct 2>/dev/null | crc32)
		uptime_v; t2=$up_cs
		if [ "$got" = "$want" ]; then
			echo "disk=$d ok=1 write_cs=$((t1 - t0)) read_cs=$((t2 - t1)) bytes=$((IO_MB * 1048576))" >> /tmp/.io
		else
			echo "disk=$d ok=0 error=mismatch want=$want got=$got" >> /tmp/.io
			rc=1
		fi
	done
	emit io after-io /tmp/.io
	return $rc
}

# finish STATUS [PHASE] [REASON]: report the end and leave the VM.
finish() {
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

# Fault injection for the harness's own tests: the kernel command line
# parameter scaletest_fault=KIND:PHASE (passed to /init as an environment
# variable) makes the guest misbehave when it enters PHASE:
#   hang    stop answering (the host's phase deadline must fire)
#   panic   a real kernel panic through sysrq
#   oom     fill memory until the OOM killer runs
#   garble  send corrupted and truncated records, then carry on
fault() {
	case "$scaletest_fault" in
	"hang:$1")
		say "fault: hanging in $1"
		while :; do sleep 1000; done ;;
	"panic:$1")
		say "fault: panic in $1"
		echo 1 > /proc/sys/kernel/sysrq
		echo c > /proc/sysrq-trigger ;;
	"oom:$1")
		say "fault: filling memory in $1"
		mkdir -p /mnt/fill
		mount -t tmpfs -o size=100% fill /mnt/fill
		dd if=/dev/zero of=/mnt/fill/a bs=1048576 2>/dev/null
		dd if=/dev/zero of=/tmp/fill bs=1048576 2>/dev/null
		while :; do sleep 1000; done ;;
	"garble:$1")
		say "fault: garbling the channel in $1"
		printf 'stray bytes before a header\n' >&3
		printf '@@ST1 999999999999 mark x 5 00000000\n' >&3
		printf '@@ST1 %d meminfo %s 6 00000000\nhello\n@@END %d\n' $((seq + 1)) "$1" $((seq + 1)) >&3
		seq=$((seq + 1))
		printf '@@ST1 %d slabinfo %s 100 12345678\ncut short' $((seq + 1)) "$1" >&3
		printf '\n' >&3 ;;
	esac
}
