# SPDX-License-Identifier: Apache-2.0
# scaletest guest: where the time goes (busybox sh, sourced by /init after
# the rest of lib/ and the config).  Scenario key time_attribution
# (docs/time.md, "Where the time goes"); parsed by harness/record/stacks.c, folded by
# harness/record/timeattr.c.
#
#	ta_setup		before the before-insmod snapshot: can we
#				sample?  where do the tasks come from?
#	ta_begin LABEL		the sampler starts (insmod, step-K, rmmod)
#	ta_job PID		bg_wait's job: its children are the command
#	ta_end			the sampler stops, its last chunk sent
#
# A sampler in the background reads the kernel stacks of the tasks doing
# the work while scsi_debug's disks come (insmod, each sweep step) and go
# (rmmod): the command (bg_wait's job and its children), whatever its
# state, and every other task in state R or D (the kworkers of async SCSI
# scanning and sd probing; insmod itself waits in async_synchronize_full).
# On a 1-CPU guest every task it samples is off the CPU while it runs, so
# its saved stack is exact: a task in D shows where it waits, one in R
# where it was preempted (the harness boots with preempt=full, so that is
# where it ran).
#
# A sample is one awk (TA_AWK, below): the tasks in R and D from one read
# of debugfs's sched/debug, or from every /proc/PID/stat without it; then
# the stat, schedstat (on-CPU nanoseconds) and stack of those kept.  No
# process per task.  It keeps a duty cycle as the monitor does: after each
# sample it waits at least (100 - P) / P times what a sample costs (its
# own CPU time and awk's, from schedstat), P = TA_PCT
# (time_attribution_max_cpu_pct), and at least TA_MS milliseconds.
#
# The samples go to the host as "stacks" records (phase: the label), each
# about TA_CHUNK lines:
#	stacks 1 LABEL CHUNK TASKS	CHUNK from 1; TASKS sched-debug or proc
#	b UPTIME			the first chunk: when the sampler began
#	s N UPTIME COST_US JOB		a sample: number, uptime, the sampler's
#					CPU time before it, bg_wait's job (-1)
#	t PID PPID STATE EXEC_NS COMM	a task (EXEC_NS "-" without schedstat)
#	 frame				its /proc/PID/stack, "[<0>] " cut off
#	...
#	end N UPTIME COST_US TICKS	the last chunk: samples, when it stopped,
#					its CPU time, and its CPU ticks (1/100 s,
#					children included)
# ta_setup sends a "timeattr" record: status=ok tasks=... preempt=..., or
# status=unavailable reason=... (then no label is sampled).
#
# Faults for the harness's own tests (scaletest_fault=; faults.sh, fault_at):
# ta-nostack (as a kernel without /proc/PID/stack), ta-scan (every
# /proc/PID/stat, as without debugfs's task list), ta-garble:LABEL (a
# malformed chunk first), ta-hang:LABEL (the sampler stops answering:
# ta_end kills it after 10 s).

TA_CHUNK=1500

# ta_setup: whether the kernel lets us read stacks (ta_state ok, or
# unavailable with ta_reason, sent as a "timeattr" record), and where the
# candidates come from (ta_tasks: sched-debug, with debugfs mounted and
# /proc/PID/task/PID/children, else proc).  Before the before-insmod
# snapshot, so that mounting debugfs is not charged to insmod.
ta_setup() {
	[ "$TIME_ATTR" = 1 ] && [ "$DISKS" -gt 0 ] || return 0
	ta_state=unavailable
	if fault_at stack-read; then
		ta_reason="no /proc/PID/stack (fault ta-nostack)"
	elif [ ! -e /proc/self/stack ]; then
		ta_reason="no /proc/PID/stack (CONFIG_STACKTRACE?)"
	elif ! read -r _l < /proc/1/stack 2>/dev/null; then
		ta_reason="/proc/PID/stack cannot be read"
	else
		ta_state=ok
	fi
	if [ "$ta_state" != ok ]; then
		say "time attribution unavailable: $ta_reason"
		emit_kv timeattr before-insmod <<EOT
status=unavailable
reason=$ta_reason
EOT
		return 0
	fi
	[ -e /sys/kernel/debug/sched ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	ta_tasks=proc
	[ -r /sys/kernel/debug/sched/debug ] && [ -e /proc/1/task/1/children ] &&
		! fault_at task-list && ta_tasks=sched-debug
	# The preemption model (the harness boots with preempt=full): "none
	# voluntary (full)" names it in parentheses; kernels without
	# PREEMPT_DYNAMIC have no such file.
	_pm=unknown
	if read -r _l < /sys/kernel/debug/sched/preempt 2>/dev/null; then
		_pm=${_l#*\(}
		_pm=${_pm%%\)*}
	fi
	emit_kv timeattr before-insmod <<EOT
status=ok
tasks=$ta_tasks
preempt=$_pm
EOT
}

# ta_begin LABEL: start the sampler for LABEL.
ta_begin() {
	[ "$TIME_ATTR" = 1 ] || return 0
	[ "$ta_state" = ok ] || return 0
	rm -f /tmp/.ta.stop /tmp/.ta.job
	rm -f /tmp/.ta.nap
	mkfifo /tmp/.ta.nap && exec 7<>/tmp/.ta.nap
	ta_loop "$1" &
	ta_pid=$!
}

# ta_job PID: bg_wait's job (a subshell); its children are sampled in
# any state.
ta_job() {
	[ -n "$ta_pid" ] || return 0
	echo "$1" > /tmp/.ta.job.new && mv /tmp/.ta.job.new /tmp/.ta.job
	echo job >&7
}

# ta_end: stop the sampler and wait until its last chunk is sent (at most
# about 10 s: then it is killed, and the label's last chunk is missing,
# which the host reports).
ta_end() {
	[ -n "$ta_pid" ] || return 0
	: > /tmp/.ta.stop
	echo stop >&7
	_i=0
	while [ -d "/proc/$ta_pid" ] && [ $_i -lt 100 ]; do
		nap 100
		_i=$((_i + 1))
		# (a zombie until waited for: its stat says Z)
		read -r _st < "/proc/$ta_pid/stat" 2>/dev/null || break
		case ${_st##*) } in Z*) break ;; esac
	done
	[ $_i -lt 100 ] || kill "$ta_pid" 2>/dev/null
	wait "$ta_pid" 2>/dev/null
	ta_pid=
}

# The sampler (in the background).  A sample is one awk: it reads every
# task's stat (the shell's glob names the /proc entries; a task gone
# before its turn is skipped), and the schedstat and stack of the tasks
# kept, appends them to the chunk, and prints how many lines it wrote and
# its own CPU time.  What a sample cost is this shell's CPU time across
# it (the fork included) plus awk's own, both from schedstat, exact to
# the nanosecond (ticks of 1/100 s would round a 15 ms sample to 0 or 2).
ta_loop() {
	exec 6<>/tmp/.ta.nap
	_lb=$1
	read -r _st < /proc/self/stat
	_me=${_st%% *}
	# At the highest priority (nice -20, its awks too): on one CPU a sampler
	# of nice 0 gets 1/(R+1) of it while R tasks are runnable, and its
	# sample, costing more with every task it reads, stretched to seconds:
	# connecting 4096 nvme_loop namespaces (10 to 16 async scan workers in R,
	# 120 to 180 in D, 264 ms a sample) gave 3 samples in 11 s.  Its share of
	# the CPU is still what the duty cycle below allows.
	renice -n -20 -p "$_me" >/dev/null 2>&1 || :
	_n=0 _lines=0 _chunk=1 _cost=0
	_c1= _c2= _c3=
	# The first sample waits (up to 0.2 s) for bg_wait to name its job,
	# which starts right after this: ta_job wakes it.
	[ -e /tmp/.ta.job ] || read -r -t 0.2 _ <&6
	echo "stacks 1 $_lb $_chunk $ta_tasks" > /tmp/.ta.buf
	read -r _up _ < /proc/uptime
	echo "b $_up" >> /tmp/.ta.buf
	# Faults for the harness's own tests (faults.sh): a malformed chunk
	# first, or a sampler that stops answering.
	fault_at sampler "$_lb"
	while [ ! -e /tmp/.ta.stop ]; do
		_n=$((_n + 1))
		ta_self_us; _c0=$self_us
		_j=-1 _kids=
		if [ -e /tmp/.ta.job ]; then
			read -r _j < /tmp/.ta.job
			[ "$ta_tasks" = sched-debug ] &&
				read -r _kids < "/proc/$_j/task/$_j/children" 2>/dev/null
		fi
		read -r _up _ < /proc/uptime
		echo "s $_n $_up $_cost $_j" >> /tmp/.ta.buf
		if [ "$ta_tasks" = sched-debug ]; then
			set --
		else
			set -- /proc/[0-9]*
		fi
		set -- $(awk -v me="$_me" -v job="$_j" -v kids="$_kids" -v out=/tmp/.ta.buf \
		    -v debug="$ta_tasks" "$TA_AWK" "$@" 2>/dev/null)
		_lines=$((_lines + 1 + ${1:-0}))
		ta_self_us
		_c=$((self_us - _c0 + ${2:-0}))
		_cost=$((_cost + _c))
		if [ $_lines -ge $TA_CHUNK ]; then
			emit stacks "$_lb" /tmp/.ta.buf
			_chunk=$((_chunk + 1))
			_lines=0
			echo "stacks 1 $_lb $_chunk $ta_tasks" > /tmp/.ta.buf
		fi
		# The duty cycle: at least (100 - P) / P times what it cost.  Not
		# this sample's cost alone but the least of the last four: the
		# kernel charges the interrupts and softirqs that run while a
		# task is current to that task (no IRQ_TIME_ACCOUNTING), and a
		# batch of RCU callbacks freeing a disk's structures landed on
		# a sample now and then, at 10 to 20 times its own cost (i386,
		# rmmod of 4000 disks): what every sample costs is its own.
		_pace=$_c
		for _p in $_c1 $_c2 $_c3; do [ "$_p" -lt "$_pace" ] && _pace=$_p; done
		_c3=$_c2 _c2=$_c1 _c1=$_c
		_ms=$((_pace * (100 - TA_PCT) / TA_PCT / 1000))
		[ $_ms -ge "$TA_MS" ] || _ms=$TA_MS
		read -r -t $((_ms / 1000)).$((_ms % 1000 / 100))$((_ms % 100 / 10))$((_ms % 10)) _ <&6
	done
	ticks_v
	read -r _up _ < /proc/uptime
	echo "end $_n $_up $_cost $ticks" >> /tmp/.ta.buf
	emit stacks "$_lb" /tmp/.ta.buf
	rm -f /tmp/.ta.buf
}

# A sample (ta_loop): the candidates are, with debug=sched-debug, the tasks
# in R or D in the scheduler's list (one read for every task, where a
# /proc/PID/stat costs about 0.12 ms each under TCG) and bg_wait's job's
# children (kids); else every /proc/PID given as an argument.  Each
# candidate's stat says its state, parent and comm; kept are those in R
# or D and the job's children, but never the sampler (me) or this awk.
# The sched/debug line: " S            task   PID ..." (">R" for the
# running task), the comm right-aligned in 15 columns.
TA_AWK='
function us(f,  l, a) {
	l = "0"
	if ((getline l < f) > 0) { split(l, a, " "); l = a[1] }
	close(f)
	return int(l / 1000)
}
BEGIN {
	f = "/proc/self/stat"
	getline l < f; close(f); split(l, a, " "); self = a[1]
	nc = 0
	if (debug == "sched-debug") {
		f = "/sys/kernel/debug/sched/debug"
		while ((getline l < f) > 0) {
			if (l ~ /^runnable tasks:/) { in_list = 1; continue }
			if (!in_list || l !~ /^[ >][A-Za-z] /)
				continue
			st = substr(l, 2, 1)
			if (st != "R" && st != "D")
				continue
			split(substr(l, 19), a, " ")
			cand[++nc] = "/proc/" a[1]
		}
		close(f)
		nk = split(kids, a, " ")
		for (i = 1; i <= nk; i++)
			cand[++nc] = "/proc/" a[i]
	} else {
		for (i = 1; i < ARGC; i++)
			cand[++nc] = ARGV[i]
	}
	for (i = 1; i <= nc; i++) {
		if (cand[i] in done)
			continue
		done[cand[i]] = 1
		f = cand[i] "/stat"
		r = getline l < f
		close(f)
		if (r <= 0)
			continue
		split(l, a, " "); p = a[1]
		s = l; sub(/.*\) /, "", s); split(s, b, " "); st = b[1]; pp = b[2]
		if (p == me || p == self || !(st == "R" || st == "D" || pp == job))
			continue
		c = l; sub(/^[^(]*\(/, "", c); sub(/\) [^)]*$/, "", c)
		x = "-"; f = cand[i] "/schedstat"
		if ((getline l < f) > 0) { split(l, a, " "); x = a[1] }
		close(f)
		print "t", p, pp, st, x, c >> out; n++
		f = cand[i] "/stack"
		while ((getline l < f) > 0) { sub(/^[^ ]* /, "", l); print " " l >> out; n++ }
		close(f)
	}
	print n + 0, us("/proc/self/schedstat")
	exit
}'

# This shell's CPU time in microseconds (schedstat's nanoseconds, cut), in
# $self_us.
ta_self_us() {
	if ! read -r self_us _ < /proc/self/schedstat 2>/dev/null; then
		ticks_v
		self_us=$((ticks * 10000))
		return
	fi
	self_us=${self_us%???}
	self_us=${self_us:-0}
}
