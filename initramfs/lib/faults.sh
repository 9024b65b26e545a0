# SPDX-License-Identifier: Apache-2.0
# scaletest guest: fault injection for the harness's own tests (busybox sh,
# sourced by /init).  Every fault is here; /init and the feature code only
# call the hooks:
#
#	fault PHASE			on entering PHASE
#	stall_or STEP COMMAND...	COMMAND, or half of it and no end
#	fault_at POINT [ARG]		at a point inside a feature: 0 when
#					a fault took that point over

# Fault injection for the harness's own tests: the kernel command line
# parameter scaletest_fault=KIND:PHASE (passed to /init as an environment
# variable) makes the guest misbehave when it enters PHASE:
#   hang    stop answering (the host's phase deadline must fire)
#   panic   a real kernel panic through sysrq
#   oom     fill memory until the OOM killer runs
#   garble  send corrupted and truncated records, then carry on
#   hung    leave a task in D state: scsi_debug stops answering (every_nth=1,
#           opts=4: every command times out) while sync writes /dev/sda back, with
#           kernel.hung_task_timeout_secs at 5 (a phase after insmod)
#   chanlost  stop sending records (fd 3 goes to /dev/null, and so for
#           the monitor started after it) and carry on: the console goes
#           on, the channel is silent
# and two that act at a point rather than a phase:
#   corrupt:after-io   overwrite a block of every virtio disk between
#                      writing it and reading it back (a verify failure)
#   monitor-garble     truncate the monitor's second sample (a gap)
#   sweep-stall:N      a sweep's step N adds no host, so its wait for the
#                      count runs out (the steps before it are kept)
#   insmod-stall       scsi_debug is loaded with half its disks and the
#                      insmod never ends: the count stops short (a moment
#                      inside insmod that no machine is too fast for)
#   rmmod-stall        half of the scsi_debug disks are deleted and the
#                      rmmod never ends (the same inside rmmod)
#   insmod-sd-late     sd_mod is held back at boot, so insmod's scan makes
#                      every SCSI device and no disk; it is loaded once the
#                      host has been sent a progress record counting all
#                      of them (the scan's count, seen on any machine: at
#                      4000 disks on one host the scan is over in 2 s)
#   attr-refuse        ask the hist triggers for a key no event has, so that
#                      the kernel refuses them (attribution "unavailable")
#   flood:PHASE        write guest_output_mb + 1 MiB of zeros on the record
#                      channel (the harness must stop the VM at its budget)
# and timeattr.sh's ta-nostack, ta-scan, ta-garble:LABEL and ta-hang:LABEL.
# The ones at a point inside a feature come through fault_at, below.
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
	"hung:$1")
		say "fault: a task stuck in D state in $1"
		echo 5 > /proc/sys/kernel/hung_task_timeout_secs
		echo 1 > /sys/bus/pseudo/drivers/scsi_debug/every_nth
		echo 4 > /sys/bus/pseudo/drivers/scsi_debug/opts
		# sync waits for the write-back in plain D state (a direct read
		# would wait with a timeout, a buffered one killably: neither
		# is a hung task)
		dd if=/dev/zero of=/dev/sda bs=4096 count=1 seek=100 2>/dev/null
		sync &
		while :; do sleep 1000; done ;;
	"flood:$1")
		say "fault: flooding the record channel in $1"
		head -c $(( (${scaletest_flood_mb:-1024} + 1) * 1048576 )) /dev/zero >&3
		while :; do sleep 1000; done ;;
	"chanlost:$1")
		say "fault: dropping the record channel in $1"
		exec 3>/dev/null ;;
	"garble:$1")
		say "fault: garbling the channel in $1"
		chan_lock
		_seq=$chan_seq
		printf 'stray bytes before a header\n' >&3
		printf '@@ST1 999999999999 mark x 5 00000000\n' >&3
		printf '@@ST1 %d meminfo %s 6 00000000\nhello\n@@END %d\n' $((_seq + 1)) "$1" $((_seq + 1)) >&3
		printf '@@ST1 %d slabinfo %s 100 12345678\ncut short' $((_seq + 2)) "$1" >&3
		printf '\n' >&3
		chan_unlock $((_seq + 2)) ;;
	esac
}

# stall_or STEP COMMAND...: COMMAND, or with scaletest_fault=STEP-stall half
# of what it would do and then no end (fault(): insmod-stall, rmmod-stall).
# Runs as bg_wait's job, so its wait loop goes on counting.
stall_or() {
	local _step _m _args _n _i _d
	_step=$1
	shift
	if [ "$scaletest_fault" = "$_step-sd-late" ]; then
		"$@" && sd_late
		return
	fi
	[ "$scaletest_fault" = "$_step-stall" ] || { "$@"; return; }
	case $_step in
	insmod)
		say "fault: loading half of the disks, then stalling in insmod"
		while read -r _m _args; do
			[ -n "$_m" ] || continue
			case $_m in
			*scsi_debug*) _args="$_args $(half_of $_args)" ;;
			esac
			insmod "$_m" $_args || return 1
		done < /etc/modules.disk ;;
	rmmod)
		say "fault: deleting half of the disks, then stalling in rmmod"
		_n=$(wc -l < /tmp/sd-disks)
		_i=0
		while read -r _d && [ $_i -lt $((_n / 2)) ]; do
			echo 1 > "/sys/block/$_d/device/delete"
			_i=$((_i + 1))
		done < /tmp/sd-disks ;;
	esac
	while :; do sleep 1000; done
}

# sd_late (insmod-sd-late, in bg_wait's job once scsi_debug is loaded):
# wait until the wait loop has sent the host a progress record whose SCSI
# device count (the 4th field, progress_v) is all the disks, then load the
# sd_mod that fault_at base-modules held back.  The file is rewritten by
# the loop as this reads it: a short read only reads less.  It needs a
# kernel that counts SCSI devices (a request_queue slab of its own, as
# Debian's have: queues_v); elsewhere insmod's deadline ends the wait.
sd_late() {
	local _up _nb _cpu _nq
	while :; do
		_nq=
		read -r _up _nb _cpu _nq < /tmp/.progress 2>/dev/null
		[ "${_nq:-0}" -ge "$DISKS" ] && break
		usleep 100000
	done
	say "fault: the host was sent $_nq SCSI devices scanned; loading sd_mod"
	load_list /tmp/modules.sd
}

# half_of SCSI_DEBUG_ARGS...: the argument that halves the disks (the last
# of a repeated module parameter wins): the LUNs, else the targets, else
# the hosts.
half_of() {
	local _a _h _t _l
	for _a; do
		case $_a in
		add_host=*) _h=${_a#*=} ;;
		num_tgts=*) _t=${_a#*=} ;;
		max_luns=*) _l=${_a#*=} ;;
		esac
	done
	if [ "${_l:-1}" -gt 1 ]; then echo "max_luns=$((_l / 2))"
	elif [ "${_t:-1}" -gt 1 ]; then echo "num_tgts=$((_t / 2))"
	else echo "add_host=$((${_h:-1} / 2))"
	fi
}

# fault_at POINT [ARG]: the faults that act at a point inside a feature
# rather than on entering a phase, so that the feature code holds one
# hook per point and no fault of its own.  Returns 0 when a fault acted
# there (the feature then leaves out what the fault stands in for):
#   written DISK   io.sh, between writing DISK and reading it back:
#                  corrupt:after-io overwrites a block of it
#   sample N       monitor.sh, instead of sending sample N:
#                  monitor-garble sends sample 2 truncated
#   step I         sweep.sh, instead of adding sweep step I's hosts:
#                  sweep-stall:I adds none
#   base-modules   /init, instead of loading /etc/modules.base:
#                  insmod-sd-late loads it without sd_mod (kept in
#                  /tmp/modules.sd for sd_late)
#   stack-key      attribution.sh, before asking for a stack-keyed hist
#                  trigger: attr-refuse (the feature asks for a key no
#                  event has)
#   stack-read     timeattr.sh, before reading a stack: ta-nostack (as a
#                  kernel without /proc/PID/stack)
#   task-list      timeattr.sh, before taking debugfs's task list:
#                  ta-scan (every /proc/PID/stat instead)
#   connect S      class-nvme_loop.sh, before connecting subsystem S:
#                  nvme-connect:S asks for a subsystem the target does not
#                  have, so the connect fails (the guest's words and the
#                  kernel's in the reason)
#   ns-enable S:I  class-nvme_loop.sh, before backing namespace I of
#                  subsystem S: nvme-enable:S:I backs it by a device that
#                  does not exist, so it does not enable
#   io-running     /init, as the I/O begins: yank removes the disk class's
#                  devices in the background (class_remove: rmmod, or
#                  nvme_loop's controllers deleted) while it runs; the
#                  count after the I/O ends the run when they went
#   sampler LABEL  timeattr.sh, the sampler of LABEL before its first
#                  sample: ta-garble:LABEL sends a malformed chunk (the
#                  host rejects it and goes on), ta-hang:LABEL stops
#                  answering (ta_end must not wait for it for ever)
fault_at() {
	local _m _a
	case $1:$scaletest_fault in
	written:corrupt:after-io)
		fault_corrupt "$2" ;;
	sample:monitor-garble)
		[ "$2" = 2 ] || return 1
		fault_garble_sample
		return 0 ;;
	base-modules:insmod-sd-late)
		say "fault: holding sd_mod back until the scan is seen"
		: > /tmp/modules.sd
		while read -r _m _a; do
			case $_m in
			*/sd_mod.ko*) echo "$_m $_a" >> /tmp/modules.sd ;;
			*) echo "$_m $_a" ;;
			esac
		done < /etc/modules.base > /tmp/modules.base-sd
		load_list /tmp/modules.base-sd || fail "loading base modules failed" ;;
	step:sweep-stall:"$2")
		say "fault: step $2 adds no host" ;;
	stack-key:attr-refuse) ;;
	stack-read:ta-nostack) ;;
	task-list:ta-scan) ;;
	sampler:ta-garble:"$2")
		printf 'stacks 1 %s 1 sched-debug\ns 1 1.0 0 -1\nt 5 1 RR 7 x\n' "$2" > /tmp/.ta.bad
		emit stacks "$2" /tmp/.ta.bad ;;
	sampler:ta-hang:"$2")
		while :; do sleep 1000; done ;;
	connect:nvme-connect:"$2")
		say "fault: connecting to a subsystem the target does not have instead of $2" ;;
	ns-enable:nvme-enable:"$2")
		say "fault: namespace $2 backed by a device that does not exist"
		_m=${2%%:*} _a=${2#*:}
		echo /dev/scaletest-none > "$NVMET/subsystems/$NVME_NQN$_m/namespaces/$_a/device_path" ;;
	io-running:yank)
		say "fault: removing the $DISK_CLASS devices while the I/O runs"
		( sleep 2; class_remove && say "fault: removed" ||
			say "fault: the removal was refused$(class_why)" ) & ;;
	*) return 1 ;;
	esac
}

fault_corrupt() {
	say "fault: corrupting /dev/$1"
	dd if=/dev/urandom of="/dev/$1" bs=65536 count=1 seek=1 oflag=direct conv=notrunc 2>/dev/null
}

fault_garble_sample() {
	local _seq
	say "fault: truncating monitor sample 2"
	chan_lock
	_seq=$((chan_seq + 1))
	printf '@@ST1 %d sample monitor 99999 00000000\n@@@ sample 2 cut' "$_seq" >&3
	printf '\n' >&3
	chan_unlock $_seq
}
