# SPDX-License-Identifier: Apache-2.0
# scaletest guest: the block devices and their modules (busybox sh,
# sourced by /init).
#
#	load_list FILE		insmod each "PATH [params]" line of FILE
#	count_blocks_v		$nblk: how many block devices (no process)
#	list_blocks		"NAME MAJ:MIN" of every block device
#	list_new_blocks FILE	the same for those not in FILE
#	new_block_names FILE	the names of those not in FILE
#	apply_knobs FILE	scheduler and nr_requests on the disks in FILE
#	class_fail WHY, class_why	a disk class's failure, in its words
#	hide_names FILE		FILE without the class's hidden devices (CLASS_HIDDEN)
#	sysfs_each NAMES FILE, sysfs_each_or NAMES FILE	NAME/FILE of each NAME

# load_list FILE: insmod each "PATH [params]" line in order; a PATH
# marked "?PATH" is a soft dependency (harness/guest/moddep.h), which may
# fail to load, as modprobe allows (crct10dif_pclmul on a CPU without
# PCLMULQDQ, say).
load_list() {
	local m args
	while read -r m args; do
		case $m in
		"") ;;
		"?"*) insmod "${m#?}" $args 2>/dev/null || say "soft dependency ${m#?} did not load" ;;
		*) insmod "$m" $args || return 1 ;;
		esac
	done < "$1"
}

# Number of block devices, in $nblk.  An unmatched glob stays as written;
# testing the first name with -e instead would count 0 whenever that
# device went between the glob and the test (as sda does early in rmmod).
count_blocks_v() {
	set -- /sys/block/*
	if [ "$1" = "/sys/block/*" ]; then nblk=0; else nblk=$#; fi
}

count_blocks() {
	class_count_v
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
		[ -z "$CLASS_HIDDEN" ] || hide_names /tmp/.names
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
	local known d dev
	known=$1
	cd /sys/block || return 1
	set -- *
	# (Not awk 'NR == FNR': with an empty FILE, as when there are no
	# scsi_debug disks, that would hold for every new name too.)
	printf '%s\n' "$@" | awk -v known="$known" -v hide="$CLASS_HIDDEN" '
		BEGIN { while ((getline l < known) > 0) { split(l, f, " "); old[f[1]] = 1 } }
		!($1 in old) && (hide == "" || $1 !~ ("^(" hide ")$"))' > /tmp/.new
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
	local known
	known=$1
	cd /sys/block || return 1
	set -- *
	[ -e "$1" ] && printf '%s\n' "$@" | awk -v known="$known" -v hide="$CLASS_HIDDEN" '
		BEGIN { while ((getline l < known) > 0) { split(l, f, " "); old[f[1]] = 1 } }
		!($1 in old) && (hide == "" || $1 !~ ("^(" hide ")$"))'
	cd /
}

# Per-queue knobs on the disks named in FILE (one name per line).
apply_knobs() {
	local rc d
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

# class_fail WHY: a disk class function's failure in the guest's words
# (class-*.sh; they may run as bg_wait's job, in a subshell, so the
# words go through a file); returns 1.  class_why: ": WHY..." for
# /init's message when one was said, else nothing.
class_fail() {
	echo "$*" >> /tmp/.class.why
	return 1
}

class_why() {
	[ -s /tmp/.class.why ] && printf ': %s' "$(tr '\n' ' ' < /tmp/.class.why | sed 's/ *$//')"
}

# hide_names FILE: FILE's names less the disk class's hidden devices
# (CLASS_HIDDEN, an extended regular expression of whole names: NVMe's
# path devices, nvme0c0n1, which have no dev_t of their own, no /dev
# node and no dev file in sysfs).  The lists and the inventory leave them
# out; class_count_v does not count them.
hide_names() {
	grep -v -x -E "$CLASS_HIDDEN" "$1" > "$1.shown"
	mv "$1.shown" "$1"
}

# sysfs_each_or NAMES FILE: as sysfs_each, with "-" for a NAME that has no
# FILE (one awk: a device whose queue has no such attribute keeps its row).
sysfs_each_or() {
	awk -v f="$2" '{ p = $0 "/" f; v = "-"; if ((getline v < p) <= 0) v = "-"; close(p); print v }' "$1"
}
