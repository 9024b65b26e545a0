# SPDX-License-Identifier: Apache-2.0
# scaletest guest: the scsi_debug class of scaled disks (busybox sh,
# sourced by /init after /etc/scaletest.conf).  Its row is
# harness/scenario/diskclass.c's first; every class script defines the
# same functions and words, which /init, lib/wait.sh and lib/sweep.sh
# call:
#
#	class_prepare		before the before-insmod snapshot: what the
#				class needs that is not counted (nothing here)
#	class_make		make the DISKS devices (bg_wait's job); returns
#				once the kernel has them, or as soon as it
#				goes on making them by itself
#	class_count_v		$nblk: the block devices now (those of the
#				class and the others), no process
#	class_remove		remove them all (bg_wait's job)
#	class_sweep_start	a sweep: ready to add devices, none made
#	class_step N		a sweep: N more units (HOST_DISKS devices
#				each), or -N fewer (bg_wait's job)
#	CLASS_MAKE, CLASS_REMOVE, CLASS_STEP	what they do, in the guest's
#				messages
#	CLASS_SCAN		1: while the devices come, also count what
#				the kernel makes before they show in sysfs
#				(queues_v: the SCSI devices scanned)
#	CLASS_HIDDEN		(unset here) an extended regular expression of
#				block devices that are not the class's own
#				and have no dev_t (nvme_loop's path devices):
#				the lists, the count and the inventory leave
#				them out (blocks.sh hide_names)
#	CLASS_QUEUELESS		(unset here) 1: some of its devices have no
#				queue/nr_requests or queue/scheduler (bio-based):
#				the inventory says "-" for them
#
# scsi_debug: the module's parameters make every disk
# (/etc/modules.disk, built by harness/guest/guest.c from the row's
# params); its add_host attribute adds or removes hosts.

CLASS_MAKE="insmod scsi_debug"
CLASS_REMOVE="rmmod scsi_debug"
CLASS_STEP="writing /sys/bus/pseudo/drivers/scsi_debug/add_host"
CLASS_SCAN=1

class_prepare() {
	:
}

class_make() {
	load_list /etc/modules.disk
}

class_count_v() {
	count_blocks_v
}

class_remove() {
	rmmod scsi_debug
}

class_sweep_start() {
	load_list /etc/modules.disk
}

class_step() {
	echo "$1" > /sys/bus/pseudo/drivers/scsi_debug/add_host
}
