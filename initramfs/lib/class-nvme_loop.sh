# SPDX-License-Identifier: Apache-2.0
# scaletest guest: the nvme_loop class of scaled disks (busybox sh, sourced
# by /init after /etc/scaletest.conf): NVMe namespaces of the kernel's own
# NVMe target (nvmet), reached by the kernel's NVMe host over the loop
# transport (nvme-loop) or over TCP on the loopback interface (nvme-tcp).
# Its row is in harness/scenario/diskclass.c; the functions are those of
# class-scsi_debug.sh (which says what each does).
#
# What is measured is the host's side, as on a machine connected to an
# array of thousands of namespaces: class_prepare, before the before-insmod
# snapshot, loads the modules (/etc/modules.prep: null_blk with one device
# that keeps no data, nvmet, the transport) and builds the target in
# configfs: NVME_SUBSYS subsystems of NVME_PER namespaces each (the last
# may hold fewer), every namespace backed by /dev/nullb0, all on one port.
# class_make then connects the host to each subsystem, one controller
# each, by writing its options to /dev/nvme-fabrics (what nvme-cli's
# connect does); the controller scans its namespaces by itself, and the
# wait counts them.  The host names a namespace after its subsystem
# (nvme0n1 .. nvme0n1024, nvme1n1 ..) with multipath, Debian's default;
# each also has a hidden path device (nvme0c0n1: no dev_t, no /dev node)
# that the lists and the count leave out (CLASS_HIDDEN).  class_remove
# deletes the controllers (delete_controller); the target stays.
#
# A sweep connects (or deletes) whole subsystems: a step of N units of
# HOST_DISKS namespaces is N x HOST_DISKS / NVME_PER controllers.

CLASS_MAKE="nvme_loop connect"
CLASS_REMOVE="nvme_loop disconnect"
CLASS_STEP="connecting nvme_loop subsystems"
CLASS_SCAN=0
CLASS_HIDDEN='nvme[0-9]+c[0-9]+n[0-9]+'
# (Their heads are bio-based: on 7.x without nr_requests or scheduler.)
CLASS_QUEUELESS=1
NVMET=/sys/kernel/config/nvmet
NVME_NQN=nqn.2026-12.org.scaletest:sub

# The kernel's last words on NVMe, for a failure's reason.
nvme_dmesg() {
	dmesg | grep -i nvme | tail -n 3 | tr '\n' ' ' | sed 's/^/ (kernel: /; s/ *$/)/'
}

class_prepare() {
	local s n left sub i d t0 t1
	uptime_v; t0=$up_cs
	load_list /etc/modules.prep || { class_fail "loading the NVMe target's modules failed"; return 1; }
	grep -q ' /sys/kernel/config ' /proc/mounts ||
		mount -t configfs configfs /sys/kernel/config 2>/tmp/.nv.err ||
		{ class_fail "mounting configfs: $(cat /tmp/.nv.err)"; return 1; }
	[ -d "$NVMET" ] || { class_fail "no $NVMET: nvmet did not register in configfs"; return 1; }
	if [ "$NVME_TRANSPORT" = tcp ]; then
		ifconfig lo 127.0.0.1 up 2>/tmp/.nv.err ||
			{ class_fail "the loopback interface: $(cat /tmp/.nv.err)"; return 1; }
	fi
	mkdir "$NVMET/ports/1" || { class_fail "mkdir $NVMET/ports/1 failed"; return 1; }
	echo "$NVME_TRANSPORT" > "$NVMET/ports/1/addr_trtype" 2>/tmp/.nv.err ||
		{ class_fail "the port's transport $NVME_TRANSPORT: $(cat /tmp/.nv.err)$(nvme_dmesg)"; return 1; }
	if [ "$NVME_TRANSPORT" = tcp ]; then
		echo ipv4 > "$NVMET/ports/1/addr_adrfam"
		echo 127.0.0.1 > "$NVMET/ports/1/addr_traddr"
		echo 4420 > "$NVMET/ports/1/addr_trsvcid"
	fi
	s=0
	left=$DISKS
	[ -n "$SWEEP" ] && left=$((NVME_SUBSYS * NVME_PER))
	while [ "$s" -lt "$NVME_SUBSYS" ]; do
		sub=$NVMET/subsystems/$NVME_NQN$s
		n=$NVME_PER
		[ "$left" -lt "$n" ] && n=$left
		mkdir "$sub" && echo 1 > "$sub/attr_allow_any_host" ||
			{ class_fail "making subsystem $NVME_NQN$s failed"; return 1; }
		i=1
		: > /tmp/.nv.ns
		while [ "$i" -le "$n" ]; do
			echo "$sub/namespaces/$i" >> /tmp/.nv.ns
			i=$((i + 1))
		done
		xargs mkdir < /tmp/.nv.ns 2>/tmp/.nv.err ||
			{ class_fail "making the namespaces of $NVME_NQN$s: $(cat /tmp/.nv.err)"; return 1; }
		i=1
		while read -r d; do
			fault_at ns-enable "$s:$i" || echo /dev/nullb0 > "$d/device_path"
			echo 1 > "$d/enable" 2>/tmp/.nv.err ||
				{ class_fail "namespace $i of $NVME_NQN$s did not enable: $(cat /tmp/.nv.err)$(nvme_dmesg)"; return 1; }
			i=$((i + 1))
		done < /tmp/.nv.ns
		ln -s "$sub" "$NVMET/ports/1/subsystems/$NVME_NQN$s" ||
			{ class_fail "linking $NVME_NQN$s to the port failed"; return 1; }
		s=$((s + 1))
		left=$((left - n))
	done
	uptime_v; t1=$up_cs
	emit_kv timing before-insmod <<EOT
target_cs=$((t1 - t0))
EOT
}

# nvme_connect S: the host's controller of subsystem S.
nvme_connect() {
	local o
	o="transport=$NVME_TRANSPORT,nqn=$NVME_NQN$1"
	[ "$NVME_TRANSPORT" = tcp ] && o="$o,traddr=127.0.0.1,trsvcid=4420"
	[ "$NVME_IOQ" -gt 0 ] && o="$o,nr_io_queues=$NVME_IOQ"
	fault_at connect "$1" && o="transport=$NVME_TRANSPORT,nqn=${NVME_NQN}none$1"
	echo "$o" > /dev/nvme-fabrics 2>/tmp/.nv.err ||
		{ class_fail "connecting $NVME_NQN$1: $(cat /tmp/.nv.err)$(nvme_dmesg)"; return 1; }
}

class_make() {
	local s
	s=0
	while [ "$s" -lt "$NVME_SUBSYS" ]; do
		nvme_connect "$s" || return 1
		s=$((s + 1))
	done
}

# Every block device but the hidden path devices, from one reading of
# /sys/block: two globs (all, then the paths) read it twice, and the
# namespaces that came in between made the count negative (-1085 at 4096
# namespaces).  An unmatched glob stays as written, "*": not counted.
class_count_v() {
	local _b
	nblk=0
	for _b in /sys/block/*; do
		case ${_b#/sys/block/} in
		nvme*c*|"*") ;;
		*) nblk=$((nblk + 1)) ;;
		esac
	done
}

# The host's controllers of this class (not a PCI NVMe disk's), "S PATH"
# a line, S the subsystem's number, by S.
nvme_ctrls() {
	local c t q
	for c in /sys/class/nvme/nvme*; do
		[ -e "$c/transport" ] || continue
		read -r t < "$c/transport"
		[ "$t" = "$NVME_TRANSPORT" ] || continue
		read -r q < "$c/subsysnqn"
		echo "${q#"$NVME_NQN"} $c"
	done | sort -n
}

# nvme_delete FILE: delete the controllers of FILE (nvme_ctrls lines).
nvme_delete() {
	local s c
	while read -r s c; do
		echo 1 > "$c/delete_controller" 2>/tmp/.nv.err ||
			{ class_fail "deleting the controller of $NVME_NQN$s: $(cat /tmp/.nv.err)"; return 1; }
	done < "$1"
}

class_remove() {
	nvme_ctrls > /tmp/.nv.ctrls
	nvme_delete /tmp/.nv.ctrls
}

class_sweep_start() {
	:
}

# class_step N: N x HOST_DISKS namespaces more (whole subsystems), or fewer.
class_step() {
	local k have s
	k=$(($1 * HOST_DISKS / NVME_PER))
	nvme_ctrls > /tmp/.nv.ctrls
	have=$(wc -l < /tmp/.nv.ctrls)
	if [ "$k" -gt 0 ]; then
		s=$have
		while [ "$s" -lt $((have + k)) ]; do
			nvme_connect "$s" || return 1
			s=$((s + 1))
		done
	else
		tail -n $((-k)) /tmp/.nv.ctrls > /tmp/.nv.gone
		nvme_delete /tmp/.nv.gone
	fi
}
