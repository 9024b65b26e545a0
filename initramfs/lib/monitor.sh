# SPDX-License-Identifier: Apache-2.0
# scaletest guest: the memory monitor (busybox sh, sourced by /init);
# its samples are parsed by harness/record/monitor.c.
#
#	monitor_start		the background loop, at step "insmod"
#	monitor_step STEP	the step its next samples are marked with
#	monitor_stop		the loop's end, waited for (5 s at most)
#
# The loop also watches the hung-task detector (hung.sh, hung_watch).

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
			fault_at sample "$n" || emit sample monitor /tmp/.sample
			# A hung-task report since the last sample: where its
			# tasks wait (hung.sh; a read of two /proc/sys files).
			hung_watch
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
	local i
	[ -e /tmp/.step ] || return 0	# never started (an early failure)
	set_step stop
	i=0
	while [ ! -e /tmp/.monitor.done ] && [ $i -lt 100 ]; do usleep 50000; i=$((i + 1)); done
}
