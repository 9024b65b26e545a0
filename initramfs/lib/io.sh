# SPDX-License-Identifier: Apache-2.0
# scaletest guest: the I/O phase, fio or a pattern written and read back
# (busybox sh, sourced by /init).
#
#	io_verify		without fio: IO_MB MiB on every virtio disk
#	fio_jobs		with fio: verify, sample and all (run_fio)

# Write IO_MB MiB of random data to every disk that appeared with the virtio
# driver, read it back with O_DIRECT and compare checksums (without fio).
io_verify() {
	local want rc d t0 t1 t2 got
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
		fault_at written "$d"
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
	local g jf frc
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
	local rc d
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
		for d in $(cat /tmp/virtio-disks); do fault_at written "$d"; done
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
