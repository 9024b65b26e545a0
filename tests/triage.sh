#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `scaletest triage CONSOLE_LOG`: exit statuses, messages, and the classes
# and titles it prints for console logs captured from real guests
# (tests/fixtures/console, tests/fixtures/replay/*/console.log).  Nothing
# here boots QEMU.
# suite: quick
set -u

SUITE=triage
. "$(dirname "$0")/lib.sh"

# title FILE: the title triage prints for FILE.
title() {
	"$bin" triage "$1" | sed -n 's/^title: //p'
}

# Usage: --help ends with the exit statuses; errors exit 2 and say why.
test_usage() {
expect 0 "^usage: scaletest triage \[--max-mb N\] CONSOLE_LOG" -- "$bin" triage --help
checked
"$bin" triage --help | tail -n 6 | tr "\n" "|" |
	grep -q "^Exit status:|  0    nothing found, or findings only|  1    a crash or OOM found|  2    bad usage.*|  130  interrupted" ||
	fail "triage --help does not end with the exit statuses"
expect 0 "triage +classify a console log" -- "$bin" --help
expect 2 "triage takes one console log" -- "$bin" triage
expect 2 "triage takes one console log" -- "$bin" triage a b
expect 2 "unknown option '--json'" -- "$bin" triage --json
expect 2 "cannot open '$tmp/missing.log': No such file or directory" -- "$bin" triage "$tmp/missing.log"
}

# Nothing wrong: exit 0.
test_nothing_found() {
expect 0 "^nothing found in 12 lines$" -- "$bin" triage "$fx/replay/smoke-x86_64/console.log"
: > "$tmp/empty.log"
expect 0 "^nothing found in 0 lines$" -- "$bin" triage "$tmp/empty.log"
# The host-side endings need the host's facts: a console alone shows none.
expect 0 "^nothing found" -- "$bin" triage "$fx/replay/timeout/console.log"
expect 0 "^nothing found" -- "$bin" triage "$fx/replay/qemu-exit/console.log"
}

# Real crashes: exit 1, class, blame, title, the line and the context.
test_real_crashes() {
expect 1 "^class: panic$" -- "$bin" triage "$fx/replay/crash/console.log"
expect 1 "^title: kernel panic: sysrq triggered crash$" -- "$bin" triage "$fx/replay/crash/console.log"
expect 1 "^blame: kernel$" -- "$bin" triage "$fx/replay/crash/console.log"
expect 1 "^type: DoS$" -- "$bin" triage "$fx/replay/crash/console.log"
expect 1 "^type: HANG$" -- "$bin" triage "$fx/replay/hung-task/console.log"
expect 1 "^class: oom$" -- "$bin" triage "$fx/replay/oom/console.log"
expect 1 "^title: INFO: task hung in blkdev_put$" -- "$bin" triage "$fx/replay/hung-task/console.log"
expect 1 "^class: reboot$" -- "$bin" triage "$fx/console/reboot-x86_64.log"
expect 1 "^title: WARNING in crashmod_init$" -- "$bin" triage "$fx/console/warning-x86_64.log"
expect 1 "^class: rcu-stall$" -- "$bin" triage "$fx/console/rcu-stall-x86_64.log"
expect 1 "^title: general protection fault in crashmod_poke$" -- "$bin" triage "$fx/console/gpf-x86_64.log"
# A report is found and named the same in a log from anywhere: syzkaller's
# (tests/syzkaller.sh holds triage to its whole corpus).
expect 1 "^title: KASAN: use-after-free Read in remove_wait_queue$" -- "$bin" triage "$fx/syzkaller/linux-report/147"
}

# What is no crash, or no crash of its own (issue 36): a message that says
# "Oops" without die()'s "[#N]"; a page allocation failure, which the
# kernel survives: a finding, printed, exit 0; an OOM the kernel survived.
test_not_crashes() {
expect 0 "^nothing found in 337 lines$" -- "$bin" triage "$fx/console/efitime-x86_64.log"
expect 0 "^no crash found in 407 lines$" -- "$bin" triage "$fx/console/alloc-failure-x86_64.log"
expect 0 "^finding: alloc-failure: page allocation failure: order:9 in crashmod_alloc_until_failure \\(line 341\\)$" \
	-- "$bin" triage "$fx/console/alloc-failure-x86_64.log"
# An OOM the kernel survived (the OOM killer killed awk) hides no crash:
# the WARNING after it.
expect 1 "^class: warning$" -- "$bin" triage "$fx/console/oom-then-warning-x86_64.log"
expect 1 "^title: WARNING in crashmod_init$" -- "$bin" triage "$fx/console/oom-then-warning-x86_64.log"
# A finding in the middle of a crash's report: the crash, and the finding
# beside it (syzkaller's log 492, its header cut as tests/syzkaller.sh does).
sed -e '0,/^$/d' -e '/^REPORT:$/,$d' -e 's/\r//g' "$fx/syzkaller/linux-report/492" > "$tmp/492.log"
expect 1 "^title: INFO: rcu detected stall in drm_ioctl$" -- "$bin" triage "$tmp/492.log"
expect 1 "^finding: alloc-failure: page allocation failure: order:0 in " -- "$bin" triage "$tmp/492.log"
}

# The line printed is the report's first line in the file, and the
# context holds it.
test_report_line() {
checked
line=$("$bin" triage "$fx/replay/hung-task/console.log" | sed -n 's/^line: //p')
first=$(sed -n "${line}p" "$fx/replay/hung-task/console.log" | tr -d '\r')
case "$first" in
*"blocked for more than"*) ;;
*) fail "line $line of the hung-task console is '$first', not the report" ;;
esac
checked
"$bin" triage "$fx/replay/hung-task/console.log" | grep -xF -- "$first" > /dev/null ||
	fail "the context does not hold the report's first line"
}

# The same bug as a scale test's console shows it (thousands of SCSI lines
# between the report's, caller ids), as newer kernels print it, and on
# i386 (EIP: lines): the same title as the console captured.
test_titles_as_scale_tests_show_them() {
for pair in hung-task-i386:hung-task-i386-interleaved hung-task-i386:hung-task-i386-callerid \
	hung-task-i386:hung-task-i386-iowait warning-x86_64:warning-x86_64-new-format \
	gpf-x86_64:gpf-x86_64-interleaved-callerid null-deref-x86_64:null-deref-i386 \
	warning-x86_64:warning-i386 kernel-bug-x86_64:kernel-bug-i386; do
	checked
	a=$(title "$fx/console/${pair%%:*}.log")
	b=$(title "$fx/console/${pair#*:}.log")
	[ -n "$a" ] && [ "$a" = "$b" ] || fail "${pair#*:}: title '$b', not '$a'"
done
}

# The same bug from two boots (x86_64 and i386): the same title.
test_same_bug_same_title() {
checked
a=$(title "$fx/replay/hung-task/console.log")
b=$(title "$fx/console/hung-task-i386.log")
[ -n "$a" ] && [ "$a" = "$b" ] || fail "hung task titles differ: '$a' and '$b'"
checked
a=$(title "$fx/replay/crash/console.log")
b=$(title "$fx/console/panic-i386.log")
[ -n "$a" ] && [ "$a" = "$b" ] || fail "panic titles differ: '$a' and '$b'"
}

# Hostile bytes reach the terminal printable, and the log's text is never
# interpreted.
test_hostile_bytes() {
printf '\033]0;pwned\007[ 1.0] Kernel panic - not syncing: $(touch %s/x) \033[31mred\r\n' "$tmp" > "$tmp/hostile.log"
expect 1 'not syncing: \$\(touch .*/x\) \?\[31mred$' -- "$bin" triage "$tmp/hostile.log"
checked
if "$bin" triage "$tmp/hostile.log" | LC_ALL=C grep '[[:cntrl:]]' > /dev/null; then
	fail "triage printed a control byte"
fi
[ -e "$tmp/x" ] && fail "the log's text was run"
}


# What is not a regular file (issue 36, 6): /dev/zero ran 10 minutes, a
# FIFO blocked in open() forever, a 20 GB sparse file ran past 60 s.  Each
# is refused at once, saying what it is (timeout only ends a hung test).
test_not_a_regular_file() {
expect 2 "'/dev/zero' is a character device, not a console log" -- timeout -k 5 60 "$bin" triage /dev/zero
rm -f "$tmp/fifo"
mkfifo "$tmp/fifo"
expect 2 "'$tmp/fifo' is a FIFO, not a console log" -- timeout -k 5 60 "$bin" triage "$tmp/fifo"
truncate -s 20G "$tmp/sparse.log"
expect 2 "'$tmp/sparse.log' holds more than 1024 MiB, the most triage reads \(--max-mb\)" -- \
	timeout -k 5 60 "$bin" triage "$tmp/sparse.log"
rm -f "$tmp/sparse.log" "$tmp/fifo"
expect 2 "'$fx/console' is a directory, not a console log" -- "$bin" triage "$fx/console"
}

# Standard input only when named '-', and bounded as a file is.
test_standard_input() {
log=$fx/replay/crash/console.log
expect 1 "^class: panic" -- sh -c '"$1" triage - < "$2"' sh "$bin" "$log"
expect 2 "standard input: more than 2 MiB, the most triage reads \(--max-mb\)" -- \
	sh -c 'head -c 3M /dev/zero | "$1" triage --max-mb 2 -' sh "$bin"
expect 2 "'$tmp/big.log' holds more than 1 MiB" -- \
	sh -c 'head -c 2M /dev/zero > "$2" && "$1" triage --max-mb 1 "$2"' sh "$bin" "$tmp/big.log"
expect 2 "--max-mb: 'many' is not" -- "$bin" triage --max-mb many -
}

# SIGTERM ends a triage at once, even one waiting on its input: triage
# reads a FIFO as '-' whose writer the test holds open; once triage
# catches SIGTERM (its SigCgt in /proc), the test sends it and waits, with
# a bound that only ends a hung test.  (The old triage ignored the first
# SIGTERM.)
test_sigterm_at_once() {
rm -f "$tmp/in"
mkfifo "$tmp/in"
"$bin" triage - < "$tmp/in" > "$tmp/term.out" 2>&1 &
pid=$!
exec 9> "$tmp/in"
printf '[    1.000000] a line\n' >&9
n=0
# the job is scaletest (no longer the shell that forked it, whose trap
# catches TERM too), and catches SIGTERM (15: bit 14 of SigCgt)
exe=$(readlink -f "$bin")
while [ $n -lt 600 ] && kill -0 $pid 2> /dev/null; do
	m=$(sed -n 's/^SigCgt:[[:space:]]*//p' /proc/$pid/status 2> /dev/null)
	[ "$(readlink /proc/$pid/exe 2> /dev/null)" = "$exe" ] && [ -n "$m" ] &&
		[ $((0x$m & 16384)) != 0 ] && break
	sleep 0.1
	n=$((n + 1))
done
kill -TERM $pid 2> /dev/null
n=0
while [ $n -lt 100 ] && kill -0 $pid 2> /dev/null; do
	sleep 0.1
	n=$((n + 1))
done
if kill -0 $pid 2> /dev/null; then
	checked
	fail "triage still runs after SIGTERM"
	kill -KILL $pid
fi
wait $pid
rc=$?
exec 9>&-
check "triage exits 130 after SIGTERM (exit $rc)" test $rc = 130
check "and says it was interrupted" grep -q "interrupted" "$tmp/term.out"
}

run_tests "$@"
