# SPDX-License-Identifier: Apache-2.0
# scaletest guest: the record channel (busybox sh, sourced by /init).
#
#	chan_open		fd 3 on the channel (virtio-serial or a UART)
#	chan_lock, chan_unlock N	its token, and the last record's number
#	emit TYPE PHASE FILE	one framed record, FILE its payload
#	emit_kv TYPE PHASE	the same, with key=value lines on stdin
#	snapshot PHASE		the phase's mark, meminfo and slabinfo, one record
#	say TEXT...		a progress line on the console
#
# Everything here writes to the record channel on fd 3; the console (fd 1)
# only gets short progress lines.  The frame is parsed by
# harness/record/channel.c (initramfs/init has its layout).

# The record channel: CHANNEL is the second serial port's node, or
# "virtio": a virtio-serial port named org.scaletest.rec (harness/vm/vm.h),
# about 450 times faster under TCG.  Its driver, with virtio_pci, is
# loaded here from /etc/modules.channel, before the first record (and so
# before the boot snapshot); the port appears once the device has
# announced it (a control message after the probe), so wait for it.
chan_open() {
	local _dev _end _p _n
	if [ "$CHANNEL" = virtio ]; then
		load_list /etc/modules.channel || return 1
		_dev=
		uptime_v
		_end=$((up_cs + 1000))	# 10 s
		until [ -c "$_dev" ]; do
			for _p in /sys/class/virtio-ports/*; do
				[ -r "$_p/name" ] && read -r _n < "$_p/name" &&
					[ "$_n" = org.scaletest.rec ] && _dev=/dev/${_p##*/}
			done
			[ -c "$_dev" ] && break
			uptime_v
			[ "$up_cs" -lt "$_end" ] || return 1
			nap 10
		done
		CHANNEL=$_dev
	fi
	[ -c "$CHANNEL" ] || return 1
	# Raw: no \n -> \r\n translation, no echo, 8 bits (a UART only).
	case $CHANNEL in /dev/ttyS*) stty -F "$CHANNEL" raw -echo 115200 2>/dev/null ;; esac
	exec 3>"$CHANNEL"
	# The channel's token (chan_lock): one byte in a FIFO.  Opened for
	# reading and writing, so that neither open nor a write ever blocks.
	mkfifo /tmp/.chan && exec 8<>/tmp/.chan || return 1
	echo 0 > /tmp/.seq
	printf t >&8
}

# chan_lock: wait for the channel's token and take it; the last sequence
# number sent, in $chan_seq.  chan_unlock N: N is now the last; give the
# token back.  /init and its background loops (the monitor, the time
# sampler) all send records: whoever holds the token writes a whole frame,
# so numbers stay unique and frames never interleave.  The token is one
# byte, so that exactly one reader gets it (the shell's read takes a line
# a byte at a time: two readers of a line could each get part of it).
# The shell's own read and printf, no process (a lock directory took a
# mkdir and an rmdir a record, and a usleep while another held it).
chan_lock() {
	read -r -n 1 _ <&8
	read -r chan_seq < /tmp/.seq
}

chan_unlock() {
	echo "$1" > /tmp/.seq
	printf t >&8
}

say() {
	local _up
	read _up _ < /proc/uptime
	echo "scaletest[$_up]: $*"
}

# emit TYPE PHASE FILE: one framed record with FILE as payload, under the
# channel's token (chan_lock).  The length comes from stat, not wc -c:
# busybox runs stat and crc32 in the forked shell, wc needs an exec too
# (3 ms against 6 under TCG, for each record).
emit() {
	local _seq
	chan_lock
	_seq=$((chan_seq + 1))
	set -- "$1" "$2" "$3" "$(stat -c %s "$3")" "$(crc32 < "$3")"
	printf '@@ST1 %d %s %s %d %s\n' "$_seq" "$1" "$2" "$4" "$5" >&3
	cat "$3" >&3
	printf '@@END %d\n' "$_seq" >&3
	chan_unlock $_seq
}

# emit_kv TYPE PHASE, with key=value lines on stdin (a here document:
# the shell's read, not a cat process).
emit_kv() {
	local _l
	while IFS= read -r _l; do printf '%s\n' "$_l"; done > /tmp/.kv
	emit "$1" "$2" /tmp/.kv
}

# snapshot PHASE: one "snapshot" record (records.c), its sections the
# phase's mark (the uptime), /proc/meminfo, /proc/zoneinfo (read right
# after it: its per-CPU lists' free pages, which MemFree leaves out,
# record/zoneinfo.h) and /proc/slabinfo (empty without it):
#	@@@ mark
#	UPTIME
#	@@@ meminfo
#	<the text of /proc/meminfo>
#	@@@ zoneinfo
#	<the text of /proc/zoneinfo>
#	@@@ slabinfo
#	<the text of /proc/slabinfo>
# One frame and one cat, not three of each: a snapshot cost about 90 ms
# under TCG as three records, six of them in a default run.
snapshot() {
	say "phase $1"
	read up_s _ < /proc/uptime
	[ -e /tmp/.slabhead ] || echo "@@@ slabinfo" > /tmp/.slabhead
	[ -e /tmp/.zonehead ] || echo "@@@ zoneinfo" > /tmp/.zonehead
	{
		printf '@@@ mark\n%s\n@@@ meminfo\n' "$up_s"
		cat /proc/meminfo /tmp/.zonehead /proc/zoneinfo /tmp/.slabhead /proc/slabinfo 2>/dev/null
	} > /tmp/.snap
	emit snapshot "$1" /tmp/.snap
}
