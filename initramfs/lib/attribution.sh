# SPDX-License-Identifier: Apache-2.0
# scaletest guest: where the memory goes (busybox sh, sourced by /init):
# hist triggers on kmem events, and page_owner.  Parsed by
# harness/record/attribution.c and harness/record/pageowner.c.
#
#	attr_start		before the before-insmod snapshot (po_start too)
#	attr_step STEP		after each sweep step's point record
#	attr_pause		before the after-insmod snapshot
#	attr_collect		after it: the hist files, page_owner, the attr record

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
	local _t0 e n f k
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
				fault_at stack-key && k=no_such_field_$k
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
	local e
	for e in $ATTR_EVENTS; do
		[ "${e%%:*}" = "$1" ] && echo "${e#*:}"
	done
}

# Removes the triggers that attr_start set.
attr_remove() {
	local n
	for n in $attr_set; do
		echo "!$(attr_trigger "$n" "$attr_key")" >> "$T/events/kmem/$(attr_event "$n")/trigger" 2>/dev/null
	done
	attr_set=""
}

attr_pause() {
	local n
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
	local _t0 _steps n
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
	local _t0 d n _srcs
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
	local _t0
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
	local _t0
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
