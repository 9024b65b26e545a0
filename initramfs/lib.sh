# scaletest guest helpers (busybox sh), sourced by /init.
#
# Everything here writes to the record channel on fd 3; the console (fd 1)
# only gets short progress lines.  Functions that the polling loops call
# set variables instead of printing, so no subshell is forked per poll.

# The record channel: CHANNEL is the second serial port's node, or
# "virtio": a virtio-serial port named org.scaletest.rec (harness/vm/vm.h),
# about 450 times faster under TCG.  Its driver, with virtio_pci, is
# loaded here from /etc/modules.channel, before the first record (and so
# before the boot snapshot); the port appears once the device has
# announced it (a control message after the probe), so wait for it.
chan_open() {
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
	echo 0 > /tmp/.seq
}

say() {
	read _up _ < /proc/uptime
	echo "scaletest[$_up]: $*"
}

# emit TYPE PHASE FILE: one framed record with FILE as payload.
# /init and the background monitor both send records: the frame is written
# under a lock (mkdir is atomic) and the sequence number lives in a file,
# so numbers stay unique and frames never interleave.  The length comes
# from stat, not wc -c: busybox runs stat and crc32 in the forked shell,
# wc needs an exec too (3 ms against 6 under TCG, for each record).
emit() {
	until mkdir /tmp/.chanlock 2>/dev/null; do usleep 2000; done
	read _seq < /tmp/.seq
	_seq=$((_seq + 1))
	echo $_seq > /tmp/.seq
	set -- "$1" "$2" "$3" "$(stat -c %s "$3")" "$(crc32 < "$3")"
	printf '@@ST1 %d %s %s %d %s\n' "$_seq" "$1" "$2" "$4" "$5" >&3
	cat "$3" >&3
	printf '@@END %d\n' "$_seq" >&3
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

# snapshot PHASE: one "snapshot" record (records.c), its sections the
# phase's mark (the uptime), /proc/meminfo and /proc/slabinfo (empty
# without it):
#	@@@ mark
#	UPTIME
#	@@@ meminfo
#	<the text of /proc/meminfo>
#	@@@ slabinfo
#	<the text of /proc/slabinfo>
# One frame and one cat, not three of each: a snapshot cost about 90 ms
# under TCG as three records, six of them in a default run.
snapshot() {
	say "phase $1"
	read up_s _ < /proc/uptime
	[ -e /tmp/.slabhead ] || echo "@@@ slabinfo" > /tmp/.slabhead
	{
		printf '@@@ mark\n%s\n@@@ meminfo\n' "$up_s"
		cat /proc/meminfo /tmp/.slabhead /proc/slabinfo 2>/dev/null
	} > /tmp/.snap
	emit snapshot "$1" /tmp/.snap
}

# Drop clean caches (page cache, dentries and inodes) so that a snapshot
# shows memory the kernel really holds; called before the before-insmod and
# after-rmmod snapshots: unused dentries of removed sysfs directories keep
# their inodes and the inodes their kernfs nodes, tens of MB for 4000
# disks, which the leak check must not count as leaked.
drop_caches() {
	sync
	[ -w /proc/sys/vm/drop_caches ] && echo 3 > /proc/sys/vm/drop_caches
	:
}

# Number of block devices, in $nblk.  An unmatched glob stays as written;
# testing the first name with -e instead would count 0 whenever that
# device went between the glob and the test (as sda does early in rmmod).
count_blocks_v() {
	set -- /sys/block/*
	if [ "$1" = "/sys/block/*" ]; then nblk=0; else nblk=$#; fi
}

count_blocks() {
	count_blocks_v
	echo "$nblk"
}

# "name MAJ:MIN" for every block device.  Thousands of them: a few
# processes, not one per device (that took seconds under TCG), and never
# every path in one argv: at 65,536 disks "cat ./*/queue/nr_requests"
# alone is over the kernel's limit on arguments (a quarter of the 8 MiB
# stack), E2BIG, and cat ran not at all.  So the paths go through xargs
# (sysfs_each), which splits them; printf is the shell's own.  Both lists
# are in the same sorted order.
list_blocks() {
	cd /sys/block || return 1
	set -- *
	if [ -e "$1" ]; then
		printf '%s\n' "$@" > /tmp/.names
		sysfs_each /tmp/.names dev > /tmp/.devs
		paste -d ' ' /tmp/.names /tmp/.devs
	fi
	cd /
}

# sysfs_each NAMES FILE: NAME/FILE of every NAME (one a line in the file
# NAMES, relative to the current directory) with one cat per xargs batch,
# in order.
sysfs_each() {
	sed "s|\$|/$2|" "$1" | xargs cat
}

# list_new_blocks FILE: "NAME MAJ:MIN" for the block devices whose names
# are not in FILE (a list_blocks output); reads only the new ones' dev,
# not 4000 sysfs files again.
list_new_blocks() {
	known=$1
	cd /sys/block || return 1
	set -- *
	# (Not awk 'NR == FNR': with an empty FILE, as when there are no
	# scsi_debug disks, that would hold for every new name too.)
	printf '%s\n' "$@" | awk -v known="$known" '
		BEGIN { while ((getline l < known) > 0) { split(l, f, " "); old[f[1]] = 1 } }
		!($1 in old)' > /tmp/.new
	while read -r d; do
		read -r dev < "$d/dev"
		echo "$d $dev"
	done < /tmp/.new
	cd /
}

# new_block_names FILE: the names of the block devices not in FILE (whose
# first column is a name: a list_blocks output or a list of names), from
# one readdir of /sys/block: no disk's own sysfs files are read, so the
# snapshot that follows does not count the harness's dentries.
new_block_names() {
	known=$1
	cd /sys/block || return 1
	set -- *
	[ -e "$1" ] && printf '%s\n' "$@" | awk -v known="$known" '
		BEGIN { while ((getline l < known) > 0) { split(l, f, " "); old[f[1]] = 1 } }
		!($1 in old)'
	cd /
}

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
	uptime_v
	end=$((up_cs + $2 * 100))
	_wq=0
	while :; do
		count_blocks_v
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
# a count costs more the more disks there are (50 ms at 4000 under TCG:
# busybox reads and sorts the names): so after each count (and the record
# it may send) the loop naps at least 49 times what they cost it, 2% of
# the CPU, and at least a second; the job's end wakes it at once.
BG_WAIT_PCT=2
bg_wait() {
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
		uptime_v
		[ "$up_cs" -ge "$end" ] && return 124
		ticks_v; _w0=$ticks
		count_blocks_v
		queues_v
		progress_v
		ticks_v
		_ms=$(((ticks - _w0) * 10 * (100 - BG_WAIT_PCT) / BG_WAIT_PCT))
		[ $_ms -ge 1000 ] || _ms=1000
		[ $_ms -le $(((end - up_cs) * 10)) ] || _ms=$(((end - up_cs) * 10))
		nap $_ms
	done
	wait "$_pid"
	bg_running=
	read -r _rc < /tmp/.bg.rc
	return "$_rc"
}

# write_to FILE VALUE (for bg_wait).
write_to() {
	echo "$2" > "$1"
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
# A read loop of this shell, no process.  $nq stays empty without
# queues_start, and where the kernel has no request_queue slab of its own
# (merged into another cache): the host then shows the block devices.
queues_v() {
	nq=
	[ -n "$q_base" ] || return 0
	while read -r _qn _qa _; do
		[ "$_qn" = request_queue ] && { nq=$((_qa - q_base)); return 0; }
	done < /proc/slabinfo
}

queues_start() {
	q_base=0
	queues_v
	q_base=$nq nq=
}

queues_stop() {
	q_base= nq=
}

# This shell's CPU ticks and its reaped children's (utime, stime, cutime,
# cstime), in $ticks, and when it started (starttime), in $start_tick:
# both in clock ticks of 1/100 s, from /proc/self/stat.
ticks_v() {
	read -r _st < /proc/self/stat
	set -- $_st
	shift 13
	ticks=$(($1 + $2 + $3 + $4))
	shift 8
	start_tick=$1
}

# load_list FILE: insmod each "PATH [params]" line in order; a PATH
# marked "?PATH" is a soft dependency (harness/guest/moddep.h), which may
# fail to load, as modprobe allows (crct10dif_pclmul on a CPU without
# PCLMULQDQ, say).
load_list() {
	while read -r m args; do
		case $m in
		"") ;;
		"?"*) insmod "${m#?}" $args 2>/dev/null || say "soft dependency ${m#?} did not load" ;;
		*) insmod "$m" $args || return 1 ;;
		esac
	done < "$1"
}

# A sweep (SWEEP="0 250 500", harness/scenario sweep): scsi_debug loaded
# without hosts, then hosts of HOST_DISKS disks added (or removed: a
# negative count) through add_host until each count, waiting for exactly
# that many disks, since the write returns before they exist.  After each
# step one "point" record (parsed by harness/record/sweep.c):
#	@@@ point I DISKS UPTIME
#	@@@ timing
#	add_cs=N		the write to add_host
#	enumerate_cs=N		from the write until the count was reached
#	@@@ meminfo
#	<the text of /proc/meminfo>
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
	ah=/sys/bus/pseudo/drivers/scsi_debug/add_host
	queues_start
	load_list /etc/modules.disk || { sweep_why="insmod scsi_debug failed"; return 1; }
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
	i=$((i + 1))
	ta_begin "step-$i"
	uptime_v; _s0=$up_cs
	if [ "$scaletest_fault" = "sweep-stall:$i" ]; then
		say "fault: step $i adds no host"
	elif [ "$want" -ne "$have" ]; then
		# (Adding returns at once, the disks come after; removing
		# returns once they are gone: in the background either way.)
		bg_wait "$TIMEOUT_INSMOD" write_to "$ah" $(((want - have) / HOST_DISKS))
		case $? in
		0) ;;
		124) sweep_why="step $i ($want disks): writing $ah took over ${TIMEOUT_INSMOD}s"; return 2 ;;
		*) sweep_why="step $i ($want disks): writing $ah failed"; return 1 ;;
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
		echo "@@@ slabinfo"
		cat /proc/slabinfo 2>/dev/null
	} > /tmp/.point
	emit point sweep /tmp/.point
	attr_step "$i"
	say "sweep: step $i: $want disks"
}

# Per-queue knobs on the disks named in FILE (one name per line).
apply_knobs() {
	[ -n "$SCHEDULER" ] || [ "$NR_REQUESTS" -gt 0 ] || return 0
	say "knobs: scheduler=${SCHEDULER:-default} nr_requests=${NR_REQUESTS}"
	rc=0
	while read -r d; do
		if [ -n "$SCHEDULER" ]; then
			echo "$SCHEDULER" > "/sys/block/$d/queue/scheduler" 2>/dev/null || rc=1
		fi
		if [ "$NR_REQUESTS" -gt 0 ]; then
			echo "$NR_REQUESTS" > "/sys/block/$d/queue/nr_requests" 2>/dev/null || rc=1
		fi
	done < "$1"
	return $rc
}

# Every block device: name, dev_t, size in sectors, nr_requests, active
# scheduler, hardware queues, and whether its first block can be read.
# One process per attribute (and xargs batch: sysfs_each), as in
# list_blocks; one head per batch reads all the first blocks.  The
# columns are joined by one awk reading them in step: a column that came
# up short (a device that went away between the listing and a read) gives
# "?" in its rows, which the host refuses by line, rather than the rows
# sliding against each other.
inventory() {
	cd /sys/block || return 1
	set -- *
	printf '%s\n' "$@" > /tmp/.inv.names
	# dev_t from the block lists already read (after insmod, the virtio
	# disks), not from every disk's sysfs file again; a device in neither
	# (none is expected) is read on its own.
	cat /tmp/blocks.sd /tmp/blocks.virtio 2>/dev/null > /tmp/.inv.known
	awk 'FILENAME == "/tmp/.inv.known" { dev[$1] = $2; next }
	     !($1 in dev) { d = "?"; f = $1 "/dev"; getline d < f; close(f); dev[$1] = d }
	     { print dev[$1] }' /tmp/.inv.known /tmp/.inv.names > /tmp/.inv.dev
	sysfs_each /tmp/.inv.names size > /tmp/.inv.size
	sysfs_each /tmp/.inv.names queue/nr_requests > /tmp/.inv.nr
	sed 's|$|/queue/scheduler|' /tmp/.inv.names | xargs sed 's/.*\[\(.*\)\].*/\1/' > /tmp/.inv.sched
	# The hardware queues: NAME/mq/0, NAME/mq/1... (the start point with a
	# slash, so that find enters it however it is reached).
	sed 's|$|/mq/|' /tmp/.inv.names | xargs sh -c 'find "$@" -mindepth 1 -maxdepth 1' find 2>/dev/null |
		awk -F'/+' 'NF == 3 && $3 ~ /^[0-9]+$/ { n[$1]++ } END { for (d in n) print d, n[d] }' > /tmp/.inv.hwq
	cd /
	sed 's|^|/dev/|' /tmp/.inv.names | xargs head -q -c 512 > /dev/null 2> /tmp/.inv.readerr
	echo 1 > /proc/sys/vm/drop_caches
	awk 'BEGIN {
		while ((getline l < "/tmp/.inv.hwq") > 0) { split(l, f, " "); hwq[f[1]] = f[2] }
		while ((getline l < "/tmp/.inv.readerr") > 0) {
			n = split(l, f, " ")
			for (i = 1; i <= n; i++) { gsub(/\047/, "", f[i]); if (f[i] !~ /^\/dev\//) continue; sub(/^\/dev\//, "", f[i]); sub(/:$/, "", f[i]); bad[f[i]] = 1 }
		}
		while ((getline name < "/tmp/.inv.names") > 0) {
			d = s = r = c = "?"
			getline d < "/tmp/.inv.dev"; getline s < "/tmp/.inv.size"
			getline r < "/tmp/.inv.nr"; getline c < "/tmp/.inv.sched"
			print name, d, s, r, c, (hwq[name] ? hwq[name] : 0), (bad[name] ? 0 : 1)
		}
	}'
}

# Write IO_MB MiB of random data to every disk that appeared with the virtio
# driver, read it back with O_DIRECT and compare checksums (without fio).
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
		fault_corrupt "$d"
		got=$(dd if="/dev/$d" bs=1048576 count="$IO_MB" iflag=direct 2>/dev/null | crc32)
		uptime_v; t2=$up_cs
		if [ "$got" = "$want" ]; then
			echo "disk=$d ok=1 write_cs=$((t1 - t0)) read_cs=$((t2 - t1)) bytes=$((IO_MB * 1048576))" >> /tmp/.io
		else
			echo "disk=$d ok=0 error=mismatch want=$want got=$got" >> /tmp/.io
			rc=1
		fi
	done
	rm -f /tmp/.pattern
	emit io after-io /tmp/.io
	return $rc
}

# run_fio GROUP JOBFILE [fio options...]: fio's JSON goes to the host as a
# "fio" record, its other output as "fiolog", its exit status as "fiorc";
# returns fio's status.
run_fio() {
	g=$1
	jf=$2
	shift 2
	say "fio: $g"
	fio --output-format=json --output=/tmp/.fio.json "$@" "$jf" > /tmp/.fio.log 2>&1
	frc=$?
	[ -s /tmp/.fio.json ] && emit fio "$g" /tmp/.fio.json
	[ -s /tmp/.fio.log ] && emit fiolog "$g" /tmp/.fio.log
	echo "status=$frc" > /tmp/.fiorc
	emit fiorc "$g" /tmp/.fiorc
	rm -f /tmp/.fio.json /tmp/.fio.log
	return $frc
}

# The fio jobs of the after-io phase: verify on every virtio disk (written
# with checksums, then read back and checked in a second run, so that a
# fault can come between), random reads on a sample of scsi_debug disks,
# and one job over every scsi_debug disk at once.
# fio_global RW BS: the [global] section every job file starts with.
fio_global() {
	echo "[global]"
	echo "ioengine=psync"
	# fio looks each file's disk up by walking sysfs: with thousands of
	# disks that walk, once per file, takes minutes under TCG.
	echo "disk_util=0"
	echo "direct=1"
	echo "rw=$1"
	echo "bs=$2"
}

fio_jobs() {
	rc=0
	if [ "$VIRTIO_DISKS" -gt 0 ]; then
		{
			fio_global write 64k
			echo "size=${IO_MB}M"
			echo "verify=crc32c"
			for d in $(cat /tmp/virtio-disks); do
				echo "[verify-$d]"
				echo "filename=/dev/$d"
			done
		} > /tmp/verify.fio
		run_fio verify-write /tmp/verify.fio --do_verify=0 || rc=1
		for d in $(cat /tmp/virtio-disks); do fault_corrupt "$d"; done
		run_fio verify /tmp/verify.fio --verify_only=1 || rc=1
	fi
	if [ -n "$FIO_SAMPLE" ]; then
		{
			fio_global randread "${FIO_BS_KB}k"
			echo "runtime=$FIO_RUNTIME"
			echo "time_based=1"
			for d in $FIO_SAMPLE; do
				echo "[sample-$d]"
				echo "filename=/dev/$d"
			done
		} > /tmp/sample.fio
		run_fio sample /tmp/sample.fio || rc=1
	fi
	if [ "$FIO_ALL" = 1 ] && [ "$DISKS" -gt 0 ]; then
		{
			fio_global randread "${FIO_BS_KB}k"
			echo "runtime=$FIO_RUNTIME"
			echo "time_based=1"
			echo "file_service_type=roundrobin"
			echo "group_reporting=1"
			# fio caps an option's value at 4096 bytes: thousands of
			# disks become jobs of 300 files each, run together and
			# reported as one.
			sed 's|^|/dev/|' /tmp/sd-disks |
			awk 'NR % 300 == 1 { if (NR > 1) printf "\n"; printf "[all-%d]\nfilename=%s", int(NR / 300), $0; next }
			     { printf ":%s", $0 } END { printf "\n" }'
		} > /tmp/all.fio
		run_fio all /tmp/all.fio || rc=1
	fi
	return $rc
}

# The monitor: a background loop that samples meminfo, slabinfo and vmstat
# every MONITOR_MS milliseconds, or less often when a sample costs so much
# that it would take more than MONITOR_PCT percent of the CPU, while insmod,
# I/O and rmmod run; each sample headed by the count of block devices (so
# result.json can tie its memory to a disk count) and the CPU ticks the
# monitor took before it.  /init says what it is doing in /tmp/.step;
# the loop ends when /tmp/.step says "stop".
# The step is replaced by a rename, never rewritten in place: a reader
# between the truncation and the write of "echo > file" would read nothing,
# take it for the end of the step list, and the monitor would stop for good.
#
# The monitor shares the guest's one CPU with the enumeration it measures,
# and under TCG every process costs: a sample is one awk (meminfo, the slab
# total and the kept vmstat counters in one pass), and the loop waits with
# the shell's own "read -t" on a FIFO rather than a sleep process per tenth
# of a second.  set_step writes a line to the FIFO, so a new step is
# sampled at once.  (tests/bench/monitor.sh measures what it costs.)
set_step() {
	echo "$1" > /tmp/.step.new && mv /tmp/.step.new /tmp/.step
	[ -p /tmp/.wake ] && echo "$1" >&4
	:
}

monitor_start() {
	[ "$MONITOR_MS" -gt 0 ] || return 0
	# Opened for reading and writing, so that neither side ever blocks
	# in open() and a write never fails for want of a reader.
	set_step insmod
	mkfifo /tmp/.wake && exec 4<>/tmp/.wake
	(
		n=0 cpu=0
		while read -r step < /tmp/.step && [ "$step" != stop ]; do
			n=$((n + 1))
			read up _ < /proc/uptime
			# How many block devices (the memory's disk count)
			# (a glob in this shell, no process; see docs/fio-monitor.md).
			count_blocks_v
			# Only what the host keeps: meminfo, the slab total (kB;
			# num_slabs x pagesperslab pages of 4 kB, as the host sums
			# /proc/slabinfo; nothing without slabinfo) and the vmstat
			# counters of record/monitor.c's monitor_vmstat[].
			awk -v head="$n $up $step $nblk $cpu" -v names="$MONITOR_VMSTAT" \
			    -v mi=/proc/meminfo -v si=/proc/slabinfo -v vm=/proc/vmstat 'BEGIN {
				# names: a|b|c; looked up, not matched as a
				# regular expression (compiled again per line)
				nw = split(names, w, "|")
				for (k = 1; k <= nw; k++)
					want[w[k]] = 1
				print "@@@ sample " head
				print "@@@ meminfo"
				while ((getline l < mi) > 0)
					print l
				print "@@@ slab"
				kb = 0; i = 0
				while ((getline l < si) > 0)
					if (++i > 2) { split(l, f, " "); kb += f[15] * f[6] * 4 }
				if (i > 0)
					printf "%d\n", kb
				print "@@@ vmstat"
				while ((getline l < vm) > 0) {
					split(l, f, " ")
					if (f[1] in want)
						print l
				}
			}' > /tmp/.sample
			if [ "$scaletest_fault" = "monitor-garble" ] && [ $n = 2 ]; then
				fault_garble_sample
			else
				emit sample monitor /tmp/.sample
			fi
			# The duty cycle: what this sample cost the loop (its own
			# ticks and its children's, of 1/100 s, from
			# /proc/self/stat: the shell opens it, so self is this
			# loop), and at least (100 - P) / P times that before the
			# next, so that the monitor takes at most MONITOR_PCT
			# percent of the CPU however much a sample costs.
			ticks_v
			_ms=$(((ticks - cpu) * 10 * (100 - MONITOR_PCT) / MONITOR_PCT))
			[ $_ms -ge "$MONITOR_MS" ] || _ms=$MONITOR_MS
			cpu=$ticks
			# Wait it out, or until set_step says the step changed,
			# so that every step gets its samples.
			read -r -t $((_ms / 1000)).$((_ms % 1000 / 100))$((_ms % 100 / 10))$((_ms % 10)) _ <&4
		done
		# What the monitor cost the guest's CPU: its own ticks and its
		# children's (utime, stime, cutime, cstime of /proc/self/stat;
		# the shell opens it, so self is this loop) and since when
		# (starttime), in clock ticks of 1/100 s; tests/bench/monitor.sh
		# reads the line from the console.
		ticks_v
		read up _ < /proc/uptime
		say "monitor: $n samples, $ticks cpu ticks since tick $start_tick, uptime $up"
		echo done > /tmp/.monitor.done
	) &
}

monitor_step() {
	[ "$MONITOR_MS" -gt 0 ] && set_step "$1"
	return 0
}

monitor_stop() {
	[ -e /tmp/.step ] || return 0	# never started (an early failure)
	set_step stop
	i=0
	while [ ! -e /tmp/.monitor.done ] && [ $i -lt 100 ]; do usleep 50000; i=$((i + 1)); done
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
#   attr-refuse        ask the hist triggers for a key no event has, so that
#                      the kernel refuses them (attribution "unavailable")
#   flood:PHASE        write guest_output_mb + 1 MiB of zeros on the record
#                      channel (the harness must stop the VM at its budget)
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
		until mkdir /tmp/.chanlock 2>/dev/null; do usleep 2000; done
		read _seq < /tmp/.seq
		printf 'stray bytes before a header\n' >&3
		printf '@@ST1 999999999999 mark x 5 00000000\n' >&3
		printf '@@ST1 %d meminfo %s 6 00000000\nhello\n@@END %d\n' $((_seq + 1)) "$1" $((_seq + 1)) >&3
		printf '@@ST1 %d slabinfo %s 100 12345678\ncut short' $((_seq + 2)) "$1" >&3
		printf '\n' >&3
		echo $((_seq + 2)) > /tmp/.seq
		rmdir /tmp/.chanlock ;;
	esac
}

# stall_or STEP COMMAND...: COMMAND, or with scaletest_fault=STEP-stall half
# of what it would do and then no end (fault(): insmod-stall, rmmod-stall).
# Runs as bg_wait's job, so its wait loop goes on counting.
stall_or() {
	_step=$1
	shift
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

# half_of SCSI_DEBUG_ARGS...: the argument that halves the disks (the last
# of a repeated module parameter wins): the LUNs, else the targets, else
# the hosts.
half_of() {
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

fault_corrupt() {
	[ "$scaletest_fault" = "corrupt:after-io" ] || return 0
	say "fault: corrupting /dev/$1"
	dd if=/dev/urandom of="/dev/$1" bs=65536 count=1 seek=1 oflag=direct conv=notrunc 2>/dev/null
}

fault_garble_sample() {
	say "fault: truncating monitor sample 2"
	until mkdir /tmp/.chanlock 2>/dev/null; do usleep 2000; done
	read _seq < /tmp/.seq
	_seq=$((_seq + 1))
	echo $_seq > /tmp/.seq
	printf '@@ST1 %d sample monitor 99999 00000000\n@@@ sample 2 cut' "$_seq" >&3
	printf '\n' >&3
	rmdir /tmp/.chanlock
}

# Attribution (scenario key attribution): which kernel call sites allocate
# memory while scsi_debug's disks appear.  Hist triggers on kmem events,
# keyed on the kernel stack, count every allocation in the kernel itself
# (no ring buffer, nothing copied to user space until the end):
#   page-alloc    kmem/mm_page_alloc         keys stack, order; hitcount
#   page-free     kmem/mm_page_free          keys order; hitcount
#   kmalloc       kmem/kmalloc               keys stack; bytes_req, bytes_alloc
#   kmalloc-node  kmem/kmalloc_node          (when the kernel has it)
#   cache         kmem/kmem_cache_alloc      keys stack; bytes_req, bytes_alloc
#   cache-node    kmem/kmem_cache_alloc_node (when the kernel has it)
# attr_start sets them before the before-insmod snapshot (a trigger's table
# is allocated when it is set, so it is not in what insmod is charged),
# attr_pause stops counting before the after-insmod snapshot, and
# attr_collect, after that snapshot, sends each "hist" file as a "hist"
# record (phase: the name above), removes the triggers and sends an "attr"
# record: status=ok key=... or status=unavailable reason=...
# The stack key is "common_stacktrace" on kernels from 6.5, "stacktrace"
# before: the first one the kernel accepts is used.
# The page allocator's last (attr_start clears them all once set).
ATTR_EVENTS="kmalloc:kmalloc kmalloc-node:kmalloc_node cache:kmem_cache_alloc cache-node:kmem_cache_alloc_node page-free:mm_page_free page-alloc:mm_page_alloc"

attr_trigger() { # NAME STACKKEY
	case $1 in
	page-alloc) echo "hist:keys=$2,order:vals=hitcount" ;;
	page-free) echo "hist:keys=order:vals=hitcount" ;;
	*) echo "hist:keys=$2:vals=hitcount,bytes_req,bytes_alloc" ;;
	esac
}

attr_unavailable() {
	attr_state=unavailable
	attr_reason=$1
	say "attribution unavailable: $1"
}

attr_start() {
	attr_state=off
	attr_set=""
	attr_steps_cs=0
	po_state=off
	[ "$ATTRIBUTION" = 1 ] && [ "$DISKS" -gt 0 ] || return 0
	po_start
	uptime_v; _t0=$up_cs
	T=/sys/kernel/tracing
	[ -d $T/events ] || mount -t tracefs tracefs $T 2>/dev/null
	if [ ! -d $T/events ]; then
		mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
		T=/sys/kernel/debug/tracing
	fi
	if [ ! -d $T/events ]; then
		attr_unavailable "no tracefs (CONFIG_FTRACE?)"; return 0
	fi
	if [ ! -e $T/events/kmem/mm_page_alloc/trigger ]; then
		attr_unavailable "no kmem/mm_page_alloc trigger file (CONFIG_HIST_TRIGGERS?)"; return 0
	fi
	attr_key=""
	attr_set=""
	for e in $ATTR_EVENTS; do
		n=${e%%:*}
		f=$T/events/kmem/${e#*:}/trigger
		[ -e "$f" ] || continue
		# The first trigger with a stack key finds the key's name.
		if [ -z "$attr_key" ] && [ "$n" != page-free ]; then
			for k in common_stacktrace stacktrace; do
				[ "$scaletest_fault" = attr-refuse ] && k=no_such_field_$k
				if echo "$(attr_trigger "$n" $k)" >> "$f" 2>/dev/null; then
					attr_key=$k
					attr_set="$attr_set $n"
					break
				fi
			done
			if [ -z "$attr_key" ]; then
				attr_unavailable "the kernel refused a hist trigger keyed on the stack"; return 0
			fi
			continue
		fi
		echo "$(attr_trigger "$n" "$attr_key")" >> "$f" 2>/dev/null && attr_set="$attr_set $n"
	done
	case " $attr_set " in
	*" page-alloc "*) ;;
	*) attr_unavailable "the kernel refused the mm_page_alloc hist trigger"; attr_remove; return 0 ;;
	esac
	# Setting a trigger allocates its table, which the triggers set
	# before it counted: start every count from zero.
	for n in $attr_set; do
		echo "$(attr_trigger "$n" "$attr_key"):clear" >> "$T/events/kmem/$(attr_event "$n")/trigger" 2>/dev/null
	done
	attr_state=ok
	uptime_v; attr_start_cs=$((up_cs - _t0))
}

# The event of NAME, from ATTR_EVENTS.
attr_event() {
	for e in $ATTR_EVENTS; do
		[ "${e%%:*}" = "$1" ] && echo "${e#*:}"
	done
}

# Removes the triggers that attr_start set.
attr_remove() {
	for n in $attr_set; do
		echo "!$(attr_trigger "$n" "$attr_key")" >> "$T/events/kmem/$(attr_event "$n")/trigger" 2>/dev/null
	done
	attr_set=""
}

attr_pause() {
	[ "$attr_state" = ok ] || return 0
	for n in $attr_set; do
		echo "$(attr_trigger "$n" "$attr_key"):pause" >> "$T/events/kmem/$(attr_event "$n")/trigger" 2>/dev/null
	done
}

# Per sweep step (sweep_step, after the step's point record): the
# page-alloc and page-free hist files as "stephist" records, phase
# SOURCE-STEP ("page-alloc-2", "page-free-2"; parsed by
# harness/record/records.c, on_stephist).  The counts are cumulative since
# the triggers were cleared before the before-insmod snapshot, so the host
# fits each call site's bytes against the disk count.  The two triggers
# are paused while their files are read and sent and continued after, so
# the reader's own pages (cat, /tmp/.hist, the serial line) are not
# counted; the kmalloc and cache triggers go on counting, as they do
# between the other phases.  Cost: the read, summed over the steps in
# attr_steps_cs (the attr record's steps_cs); it comes after the step's
# point, so no step's enumeration time holds it, but the sweep takes that
# much longer: 2.0-2.4 s a step on smoke (0, 20, 40 disks, TCG; the
# page-alloc file is 25-170 kB).
attr_step() { # STEP
	[ "$attr_state" = ok ] || return 0
	uptime_v; _t0=$up_cs
	_steps=""
	for n in page-alloc page-free; do
		case " $attr_set " in *" $n "*) _steps="$_steps $n" ;; esac
	done
	for n in $_steps; do
		echo "$(attr_trigger "$n" "$attr_key"):pause" >> "$T/events/kmem/$(attr_event "$n")/trigger" 2>/dev/null
	done
	for n in $_steps; do
		cat "$T/events/kmem/$(attr_event "$n")/hist" > /tmp/.hist 2>/dev/null
		emit stephist "$n-$1" /tmp/.hist
	done
	rm -f /tmp/.hist
	for n in $_steps; do
		echo "$(attr_trigger "$n" "$attr_key"):cont" >> "$T/events/kmem/$(attr_event "$n")/trigger" 2>/dev/null
	done
	uptime_v; attr_steps_cs=$((attr_steps_cs + up_cs - _t0))
}

attr_collect() {
	[ "$attr_state" = off ] && return 0
	po_collect
	if [ "$attr_state" = ok ]; then
		uptime_v; _t0=$up_cs
		for n in $attr_set; do
			d=$T/events/kmem/$(attr_event "$n")
			cat "$d/hist" > /tmp/.hist 2>/dev/null
			emit hist "$n" /tmp/.hist
		done
		_srcs=$attr_set
		attr_remove
		rm -f /tmp/.hist
		uptime_v
		emit_kv attr after-insmod <<EOT
status=ok
key=$attr_key
sources=$_srcs
start_cs=$attr_start_cs
collect_cs=$((up_cs - _t0))
steps_cs=$attr_steps_cs
$(po_kv)
EOT
	else
		emit_kv attr after-insmod <<EOT
status=unavailable
reason=$attr_reason
$(po_kv)
EOT
	fi
}

# page_owner (CONFIG_PAGE_OWNER, booted with page_owner=on: the harness
# adds it for kernels built with the debug fragment), a second source
# beside the hist triggers: every page still allocated, with the stack
# that allocated it.  po_start reads it before the triggers are set and
# before the before-insmod snapshot, po_collect after the after-insmod
# snapshot; each read is folded here (po_fold) to per-stack counts and
# sent as a "pageowner" record (phase before-insmod, after-insmod); the
# host subtracts one from the other.  Reading allocates (cat, awk, the
# folded file in /tmp): the "before" read and its file are done and gone
# before the snapshot, so the MemFree drop is not charged with them; the
# "after" read comes after its snapshot.  What the readers themselves hold
# at the moment of each read is in both and mostly cancels.
# /sys/kernel/debug/page_owner_stacks/show_stacks (6.10 and later) has
# the counts already; the older page_owner file has one block per
# allocation:
#   Page allocated via order 0, mask 0x...(GFP_KERNEL), pid 1, tgid 1 (init), ts ... ns
#   PFN 0x1234 type Unmovable Block 9 type Unmovable Flags 0x...()
#    post_alloc_hook+0x.../0x...
#    ...
#   (blank line)
# The folded record (parsed by harness/record/pageowner.c):
#   pageowner 1 FILE
#   COUNT ORDER
#    frame        (one a line, each with its leading blank)
#   ...
#   end NSTACKS
po_start() {
	po_state=unavailable
	po_reason=""
	[ -d /sys/kernel/debug/mm ] || [ -e /sys/kernel/debug/page_owner ] ||
		mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	if [ -r /sys/kernel/debug/page_owner_stacks/show_stacks ]; then
		po_file=/sys/kernel/debug/page_owner_stacks/show_stacks
	elif [ -r /sys/kernel/debug/page_owner ]; then
		po_file=/sys/kernel/debug/page_owner
	else
		po_reason="no /sys/kernel/debug/page_owner (CONFIG_PAGE_OWNER and page_owner=on: a kernel built with the debug fragment)"
		return 0
	fi
	uptime_v; _t0=$up_cs
	if ! po_fold "$po_file" > /tmp/.po; then
		po_reason="reading $po_file failed"; rm -f /tmp/.po; return 0
	fi
	emit pageowner before-insmod /tmp/.po
	rm -f /tmp/.po
	uptime_v; po_before_cs=$((up_cs - _t0))
	po_state=ok
}

po_collect() {
	[ "$po_state" = ok ] || return 0
	uptime_v; _t0=$up_cs
	if ! po_fold "$po_file" > /tmp/.po; then
		po_state=unavailable; po_reason="reading $po_file failed"; rm -f /tmp/.po; return 0
	fi
	emit pageowner after-insmod /tmp/.po
	rm -f /tmp/.po
	uptime_v; po_after_cs=$((up_cs - _t0))
}

# key=value lines of the attr record about page_owner.
po_kv() {
	if [ "$po_state" = ok ]; then
		printf 'page_owner=ok\npage_owner_file=%s\npage_owner_before_cs=%s\npage_owner_after_cs=%s\n' \
			"${po_file##*/}" "$po_before_cs" "$po_after_cs"
	else
		printf 'page_owner=unavailable\npage_owner_reason=%s\n' "$po_reason"
	fi
}

# po_fold FILE: FILE (page_owner or show_stacks) folded, on stdout.
# page_owner answers a read too small for its next block with ENOMEM, and
# awk reads into what is left of its buffer: cat reads whole buffers.  A
# failed cat leaves a line that makes awk fail too.
po_fold() {
	{ cat "$1" || echo "@@ cat failed"; } | awk -v src="${1##*/}" '
	function flush() {
		if (inb) { n[ord "|" st] += cnt; inb = 0 }
		st = ""
	}
	/^Page allocated via order / {
		flush(); ord = $5; sub(/,.*/, "", ord); cnt = 1; inb = 1; next
	}
	/^@@ cat failed$/ { bad = 1; exit 1 }
	/^nr_base_pages: / { ord = 0; cnt = $2; inb = 1; flush(); next }
	/^ / { st = st $0 "\n"; next }
	/^$/ { if (src != "show_stacks") flush(); next }
	END {
		if (bad)
			exit 1
		flush()
		print "pageowner 1 " src
		for (k in n) {
			i = index(k, "|")
			print n[k], substr(k, 1, i - 1)
			printf "%s", substr(k, i + 1)
			ns++
		}
		print "end", ns + 0
	}'
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
