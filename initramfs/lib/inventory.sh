# SPDX-License-Identifier: Apache-2.0
# scaletest guest: the disk inventory (busybox sh, sourced by /init), one
# row per block device; parsed by harness/record/inventory.c.
#
#	inventory		the rows, on stdout

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
	[ -z "$CLASS_HIDDEN" ] || hide_names /tmp/.inv.names
	# dev_t from the block lists already read (after insmod, the virtio
	# disks), not from every disk's sysfs file again; a device in neither
	# (none is expected) is read on its own.
	cat /tmp/blocks.sd /tmp/blocks.virtio 2>/dev/null > /tmp/.inv.known
	awk 'FILENAME == "/tmp/.inv.known" { dev[$1] = $2; next }
	     !($1 in dev) { d = "?"; f = $1 "/dev"; getline d < f; close(f); dev[$1] = d }
	     { print dev[$1] }' /tmp/.inv.known /tmp/.inv.names > /tmp/.inv.dev
	sysfs_each /tmp/.inv.names size > /tmp/.inv.size
	if [ -n "$CLASS_QUEUELESS" ]; then
		# (Bio-based devices, as NVMe's multipath heads on 7.x, have
		# neither file: "-".)
		sysfs_each_or /tmp/.inv.names queue/nr_requests > /tmp/.inv.nr
		sysfs_each_or /tmp/.inv.names queue/scheduler | sed 's/.*\[\(.*\)\].*/\1/' > /tmp/.inv.sched
	else
		sysfs_each /tmp/.inv.names queue/nr_requests > /tmp/.inv.nr
		sed 's|$|/queue/scheduler|' /tmp/.inv.names | xargs sed 's/.*\[\(.*\)\].*/\1/' > /tmp/.inv.sched
	fi
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
