# SPDX-License-Identifier: Apache-2.0
# scaletest guest: the null_blk class of scaled disks (busybox sh, sourced
# by /init after /etc/scaletest.conf): the block layer's own test device,
# nullb0, nullb1 ...  Its row is in harness/scenario/diskclass.c; the
# functions are those of class-scsi_debug.sh (which says what each does).
#
# Without a sweep, null_blk's nr_devices parameter makes every device at
# insmod (/etc/modules.disk), and insmod returns once they are all there.
# A sweep loads it with nr_devices=0 and makes its devices in null_blk's
# configfs (a directory nullbI, then power=1; they take the module's
# parameters as their defaults), named nullbI as the module names them;
# removing them is power=0 and rmdir, and rmmod only works once none is
# left there (configfs holds the module).

CLASS_MAKE="insmod null_blk"
CLASS_REMOVE="rmmod null_blk"
CLASS_STEP="making null_blk devices in configfs"
CLASS_SCAN=0
NULLB_CFS=/sys/kernel/config/nullb

class_prepare() {
	:
}

class_make() {
	load_list /etc/modules.disk
}

class_count_v() {
	count_blocks_v
}

# The configfs devices, "NULLB_CFS/nullbI" a line, in index order.
nullb_cfs_list() {
	[ -d "$NULLB_CFS" ] || return 0
	set -- "$NULLB_CFS"/nullb*
	[ -e "$1" ] || return 0
	printf '%s\n' "$@" | sort -t b -k 3 -n
}

# nullb_cfs_remove FILE: power off and remove the configfs devices in FILE.
nullb_cfs_remove() {
	local d
	while read -r d; do
		echo 0 > "$d/power" 2>/tmp/.nb.err ||
			{ class_fail "$d/power: $(cat /tmp/.nb.err)"; return 1; }
	done < "$1"
	xargs rmdir < "$1" 2>/tmp/.nb.err || { class_fail "rmdir: $(cat /tmp/.nb.err)"; return 1; }
}

class_remove() {
	nullb_cfs_list > /tmp/.nb.all
	[ -s /tmp/.nb.all ] && { nullb_cfs_remove /tmp/.nb.all || return 1; }
	rmmod null_blk 2>/tmp/.nb.err || { class_fail "$(cat /tmp/.nb.err)"; return 1; }
}

class_sweep_start() {
	load_list /etc/modules.disk || return 1
	grep -q ' /sys/kernel/config ' /proc/mounts ||
		mount -t configfs configfs /sys/kernel/config 2>/tmp/.nb.err ||
		{ class_fail "mounting configfs: $(cat /tmp/.nb.err)"; return 1; }
	[ -d "$NULLB_CFS" ] || class_fail "no $NULLB_CFS: this null_blk has no configfs"
}

# class_step N: N x HOST_DISKS devices more (N > 0) or fewer.
class_step() {
	local n have i d
	nullb_cfs_list > /tmp/.nb.all
	have=$(wc -l < /tmp/.nb.all)
	n=$(($1 * HOST_DISKS))
	if [ "$n" -gt 0 ]; then
		i=$have
		: > /tmp/.nb.new
		while [ "$i" -lt $((have + n)) ]; do
			echo "$NULLB_CFS/nullb$i" >> /tmp/.nb.new
			i=$((i + 1))
		done
		xargs mkdir < /tmp/.nb.new 2>/tmp/.nb.err ||
			{ class_fail "mkdir: $(cat /tmp/.nb.err)"; return 1; }
		while read -r d; do
			echo 1 > "$d/power" 2>/tmp/.nb.err ||
				{ class_fail "$d/power: $(cat /tmp/.nb.err)"; return 1; }
		done < /tmp/.nb.new
	else
		tail -n $((-n)) /tmp/.nb.all > /tmp/.nb.gone
		nullb_cfs_remove /tmp/.nb.gone
	fi
}
