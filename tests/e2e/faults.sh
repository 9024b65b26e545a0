#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The fault matrix, end to end (docs/faults.md, "Fault matrix"): what the host does
# to a run, each fault ending in a known status, class and exit code, with
# nothing left behind that looks complete.  The guest's own faults (a hung
# phase, a panic, an OOM, a garbled channel) and SIGTERM, SIGINT and
# SIGKILL at boot are in tests/e2e/run.sh; a results directory that is full
# or read-only is refused before boot in tests/cli.sh.
#
#   sh tests/e2e/faults.sh [NAME...]     run all tests, or those named
#
# Each test measures the time from its fault to the harness's exit (and to
# the last QEMU of the run gone) and the table of them is printed at the
# end.  FAULTS_KILLS (default 8) sets the number of random SIGKILLs,
# one in each of as many equal windows of 0..25 s (every phase is hit);
# FAULTS_KILL_DELAYS="MS MS ..." replays the delays a failed run printed.
# suite: full
# order: 60
set -u
. "$(dirname "$0")/lib.sh"

times=$tmp/.times
print_times() {
	if [ -s "$times" ]; then
		say "faults: time from the fault to the harness's exit, $(date -u +%Y-%m-%d), load $(cut -d' ' -f1-3 /proc/loadavg)"
		while read -r took what; do
			say "$(printf '  %-40s %7s ms' "$what" "$took")"
		done < "$times"
	fi
}
at_exit print_times

ms() { date +%s%3N; }
record() { # case, milliseconds
	printf '%s %s\n' "$2" "$1" >> "$times"
	say "  $1: $2 ms from the fault to the exit"
}

# start NAME [args...]: scaletest run of smoke into $out/NAME, in the
# background ($pid, $log; environment as the caller's).
start() {
	name=$1
	shift
	log=$out/$name.log
	"$bin" run "$smoke" --out "$out/$name" "$@" > "$log" 2>&1 &
	pid=$!
}

# wait_for CMD...: until CMD succeeds; 1 if the harness ($pid) ended first
# (lib.sh's wait_until).
wait_for() { wait_until -p "$pid" "$@"; }
in_log() { grep -Eq -- "$1" "$log" 2>/dev/null; }

tmp_of() { # the run directory in progress under $out/NAME (a path that
	# names no process when there is none: qemu_of must never match
	# another run's QEMU)
	d=$(find "$out/$1" -mindepth 1 -maxdepth 1 -name '.tmp-*' 2>/dev/null | head -n 1)
	echo "${d:-$out/$1/no-run-directory}"
}
finished_of() { # the finished run directory under $out/NAME
	find "$out/$1" -mindepth 1 -maxdepth 1 -type d -name '2*' 2>/dev/null | head -n 1
}
qemu_of() { # QEMU processes whose command line names the directory
	pgrep -f -- "qemu-system.*$1/"
}
no_qemu_of() { # (pgrep: 1 is "none", 2 and 3 are errors, never "none")
	qemu_of "$1" > /dev/null
	[ $? = 1 ]
}
wait_no_qemu() { # directory: until its QEMU is gone (10 s at most)
	i=0
	while ! no_qemu_of "$1" && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# SIGKILL the harness ($pid) now; sets $rc, records the time until its
# exit and the QEMU of run directory $2 gone, under the case name $1.
kill_harness() {
	t0=$(ms)
	kill -KILL $pid
	{ wait $pid; } 2>/dev/null
	rc=$?
	wait_no_qemu "$2"
	record "$1" $(( $(ms) - t0 ))
}

# After a harness was SIGKILLed: nothing of its run goes on or looks done.
killed_checks() { # name
	check "killed by SIGKILL (exit $rc)" [ "$rc" = 137 ]
	check "no QEMU of the run left" no_qemu_left "$1"
	check "no run directory without the .tmp- prefix in $1/" none_in "$out/$1" -maxdepth 1 -name '2*'
	check "not made latest" absent "$out/$1/latest"
	check "gc names it abandoned" sh -c "'$bin' gc --dry-run '$out/$1' | grep -q 'abandoned (its harness is gone)'"
	check "gc collects it" sh -c "'$bin' gc '$out/$1' | grep -q '^1 run directory collected'"
	check "no .tmp- run directory left in $1/" none_in "$out/$1" -name '.tmp-*'
}

# ---- QEMU killed from outside ----------------------------------------------

# The guest hangs once it has reached after-insmod (a fault), so QEMU is
# killed while the run is surely going on, whatever the machine's speed.
test_qemu_killed() {
	start qemu-killed --set cmdline=scaletest_fault=hang:after-insmod
	check "the guest reached before-insmod" wait_for in_log 'before-insmod +guest uptime'
	run=$(tmp_of qemu-killed)
	qp=$(qemu_of "$run")
	check "one QEMU of the run, found by its run directory ($qp)" [ "$(echo $qp | wc -w)" = 1 ]
	if [ "$(echo $qp | wc -w)" != 1 ]; then
		kill -KILL $pid
		{ wait $pid; } 2>/dev/null
		return
	fi
	t0=$(ms)
	kill -KILL $qp
	wait $pid
	rc=$?
	record qemu-killed $(( $(ms) - t0 ))
	dir=$(finished_of qemu-killed)
	[ -n "$dir" ] || dir=$out/qemu-killed/none
	check "exit status 1 (got $rc)" [ "$rc" = 1 ]
	check "status error" j '.status == "error"'
	check "crash class qemu-exited, blamed on the harness" j '.crash.class == "qemu-exited" and .crash.blame == "harness"'
	check "the detail says how QEMU ended" j '.crash.detail | test("killed by signal 9")'
	check "no QEMU left running" no_qemu_left qemu-killed
	check "console.log kept" [ -s "$dir/console.log" ]
	check "report.md written" [ -s "$dir/report.md" ]
	check "not made latest" absent "$out/qemu-killed/latest"
}

# ---- the harness SIGKILLed at several points ------------------------------

# While fetching the guest's packages: a cache with the kernel but without
# busybox and fio, and an apt-get that marks the moment, then waits (as
# the same process: it dies with the harness as a real one would).
no_download() {
	pgrep -f "$stub/fetch-sleeper" > /dev/null
	[ $? = 1 ]
}

test_sigkill_fetch() {
	fresh=$out/fetch-cache
	stub=$out/fetch-stub
	main=$("$bin" cache list | sed -n 's/^cache: //p')
	mkdir -p "$fresh" "$stub"
	for d in kernels apt accel; do
		[ -e "$main/$d" ] && ln -s "$main/$d" "$fresh/$d"
	done
	ln -s "$(command -v sleep)" "$stub/fetch-sleeper"
	printf '#!/bin/sh\npwd > "%s/fetching"\nexec "%s/fetch-sleeper" 300\n' "$stub" "$stub" > "$stub/apt-get"
	chmod +x "$stub/apt-get"
	old_path=$PATH
	export SCALETEST_CACHE="$fresh" PATH="$stub:$PATH"
	start sigkill-fetch
	unset SCALETEST_CACHE
	PATH=$old_path
	check "the harness started a download" wait_for test -e "$stub/fetching"
	check "the download runs" pgrep -f "$stub/fetch-sleeper"
	kill_harness sigkill-fetch "$out/sigkill-fetch"
	killed_checks sigkill-fetch
	i=0
	while ! no_download && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	check "the download died with the harness" no_download
	# It was downloading into a cache entry's .tmp- directory, of debs/ or
	# fio/: nothing there looks fetched (and nothing in the other one, if
	# the run had made it).
	where=$(cat "$stub/fetching")
	case $where in
	"$fresh"/debs/*) kind=debs other=fio ;;
	"$fresh"/fio/*) kind=fio other=debs ;;
	*) kind= other= ;;
	esac
	check "the download ran in the cache's debs/ or fio/ ($where)" [ -n "$kind" ] || return
	check "nothing in $kind/ looks fetched" none_in "$fresh/$kind" -maxdepth 1 ! -name '*.lock' ! -name '*.tmp-*' ! -name '.*'
	check "nor in $other/" sh -c '[ -d "$1" ] && { [ ! -e "$1/$2" ] || [ -z "$(find "$1/$2" -mindepth 1 -maxdepth 1 ! -name "*.lock" ! -name "*.tmp-*" ! -name ".*")" ]; }' - "$fresh" "$other"
}

# While apt-get really downloads: a fresh cache with the kernel and nothing
# else (no apt answers, no busybox, no fio), so the run asks apt and
# downloads busybox-static, then fio's source, from Debian's archive,
# at 8 kB/s (APT_CONFIG: apt's own Dl-Limit), so that they last minutes on
# any network and the moment cannot be missed.  The harness is SIGKILLed as soon as one of its apt-get children has an apt
# method (/usr/lib/apt/methods/http) of its own; a download that ended
# before it was seen is tried again with another fresh cache.  apt-get dies
# by its PR_SET_PDEATHSIG (lib/child.c); its method, a grandchild, when it
# finds apt-get's pipes closed.
method_of() { # apt-get pid: its apt method
	pgrep -P "$1" -f '^/usr/lib/apt/methods/' | head -n 1
}
is_live() { # pid, pattern: alive and its command line matches
	alive "$1" && tr '\0' ' ' < "/proc/$1/cmdline" 2>/dev/null | grep -q -- "$2"
}
ended() { # pid: gone or a zombie (builtins only, for a fine-grained poll)
	s=
	read -r s 2> /dev/null < "/proc/$1/stat" || return 0
	case ${s##*) } in Z*) return 0 ;; esac
	return 1
}
apt_gone() { ! is_live "$apt" apt-get; }
method_gone() { ! is_live "$method" apt/methods; }
working_in() { # directory: live processes whose working directory is in it
	for p in /proc/[0-9]*; do
		case $(readlink "$p/cwd" 2>/dev/null) in
		"$1"/*) alive "${p#/proc/}" && echo "${p#/proc/}" ;;
		esac
	done
}
unsealed() { # cache: entries of debs/ and fio/ without their seal
	for e in "$1"/debs/* "$1"/fio/*; do
		b=${e##*/}
		case $b in *.lock | *.tmp-* | '*') continue ;; esac
		[ -e "${e%/*}/.$b.seal" ] || echo "$e"
	done
}
# catch_download: until an apt-get of the harness ($pid) has its method:
# sets $apt, $method, $apt_cwd, $apt_cmd; 1 if the run got past its
# downloads (fio's build or the boot) or ended first.
catch_download() {
	apt= method=
	while alive $pid; do
		for a in $(pgrep -P $pid -x apt-get); do
			m=$(method_of $a)
			case $(readlink "/proc/$a/cwd") in "$fresh"/*) ;; *) continue ;; esac
			if [ -n "$m" ]; then
				apt=$a method=$m
				apt_cwd=$(readlink "/proc/$a/cwd")
				apt_cmd=$(tr '\0' ' ' < "/proc/$a/cmdline")
				return 0
			fi
		done
		pgrep -P $pid -f '^(dpkg-source|make|[^ ]*/configure|[^ ]*qemu-system)' > /dev/null && return 1
	done
	return 1
}

test_sigkill_download() {
	main=$("$bin" cache list | sed -n 's/^cache: //p')
	printf 'Acquire::http::Dl-Limit "8";\nAcquire::https::Dl-Limit "8";\n' > "$out/apt-slow.conf"
	try=0
	while [ $try -lt ${FAULTS_DOWNLOAD_TRIES:-4} ]; do
		try=$((try + 1))
		fresh=$out/download-cache-$try
		mkdir -p "$fresh"
		for d in kernels accel; do
			[ -e "$main/$d" ] && ln -s "$main/$d" "$fresh/$d"
		done
		name=sigkill-download-$try
		export SCALETEST_CACHE="$fresh" APT_CONFIG="$out/apt-slow.conf"
		start $name
		unset SCALETEST_CACHE APT_CONFIG
		catch_download && break
		if ! alive $pid; then
			say "  try $try: the harness ended before its downloads were seen:"
			tail -n 3 "$log" >&2
			break
		fi
		say "  try $try: the downloads ended before an apt method was seen; again with a fresh cache"
		kill -KILL $pid 2> /dev/null
		{ wait $pid; } 2> /dev/null
		wait_no_qemu "$out/$name"
		apt=
	done
	check "an apt-get with its apt method caught in $try tries" [ -n "$apt" ]
	[ -n "$apt" ] || return
	kill_harness sigkill-download "$(tmp_of $name)"
	i=0
	while ! { ended $apt && ended $method; } && [ $i -lt 500 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	method_gone && record "sigkill-download (to its apt method gone)" $(( $(ms) - t0 ))
	say "  killed during: $apt_cmd(in ${apt_cwd#$fresh/}, method $method)"
	killed_checks $name
	check "apt-get died with the harness" apt_gone
	check "its apt method died with it" method_gone
	check "no process left working in the cache" [ -z "$(working_in "$fresh")" ]
	entry=${apt_cwd%%.tmp-*}
	check "the download was for a cache entry ($entry)" [ "$entry" != "$apt_cwd" ]
	check "the entry being downloaded is not there" absent "$entry"
	check "nor its seal" absent "${entry%/*}/.${entry##*/}.seal"
	check "no entry without its seal" [ -z "$(unsealed "$fresh")" ]

	# The next run with that cache downloads again, and passes.
	export SCALETEST_CACHE="$fresh"
	run_smoke $name-again
	unset SCALETEST_CACHE
	check "the next run: exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "the next run: status pass" j '.status == "pass"'
	case $entry in
	*/debs/*) check "the next run downloaded busybox-static again" grep -q '^scaletest: downloading busybox-static' "$log" ;;
	*/fio/*) check "the next run built fio again" grep -q '^scaletest: fio .* built in' "$log" ;;
	esac
	check "the entry is there now" [ -d "$entry" ]
	check "with its seal" [ -e "${entry%/*}/.${entry##*/}.seal" ]
	check "no entry without its seal" [ -z "$(unsealed "$fresh")" ]
	check "the killed run's partial download removed from debs/" none_in "$fresh/debs" -maxdepth 1 -name '*.tmp-*'
	check "and from fio/" none_in "$fresh/fio" -maxdepth 1 -name '*.tmp-*'
}

# While QEMU boots the guest: the guest hangs before its boot record (a
# fault), so the kill lands before the guest has booted on any machine.
test_sigkill_boot() {
	start sigkill-boot --set cmdline=scaletest_fault=hang:boot
	check "QEMU started" wait_for in_log '^scaletest: booting '
	run=$(tmp_of sigkill-boot)
	check "QEMU of the run running" qemu_of "$run"
	check "the guest has not booted yet" lacks "$log" ' boot +guest uptime'
	kill_harness sigkill-boot "$run"
	killed_checks sigkill-boot
}

# During insmod: the guest loads half of the disks and its insmod never
# ends (the fault insmod-stall), so the harness's live count says the disks
# are coming and not all there however fast the machine enumerates them
# (400 disks in 2.3 s used to race the kill).  The count comes from /init's
# own progress records, not the monitor: here the monitor is off.
test_sigkill_insmod() {
	start sigkill-insmod --set monitor_interval_ms=0 --set cmdline=scaletest_fault=insmod-stall
	check "insmod in progress" wait_for in_log '^scaletest: insmod: [0-9]+/40 disks present'
	run=$(tmp_of sigkill-insmod)
	kill_harness sigkill-insmod "$run"
	check "the guest stalled in insmod" grep -q "fault: loading half of the disks" "$(tmp_of sigkill-insmod)/console.log"
	check "killed before all disks were present" lacks "$log" 'insmod: 40/40|after-insmod +guest'
	killed_checks sigkill-insmod
}

# During rmmod: half of the disks are deleted and the rmmod never ends
# (the fault rmmod-stall), so the kill lands inside rmmod on any machine.
test_sigkill_rmmod() {
	start sigkill-rmmod --set cmdline=scaletest_fault=rmmod-stall
	check "rmmod in progress" wait_for in_log '^scaletest: rmmod: [0-9]+/40 disks removed'
	run=$(tmp_of sigkill-rmmod)
	kill_harness sigkill-rmmod "$run"
	check "the guest stalled in rmmod" grep -q "fault: deleting half of the disks" "$(tmp_of sigkill-rmmod)/console.log"
	check "killed before all disks were removed" lacks "$log" 'rmmod: 40/40|after-rmmod +guest'
	killed_checks sigkill-rmmod
}

# ---- SIGKILL at random moments -----------------------------------------------
# The span 0..25 s (boot to the end of smoke) is cut into FAULTS_KILLS equal
# windows and one kill lands at a random moment in each (stratified): every
# phase gets a kill on every run, with fewer kills than uniform delays need
# to cover them (20 uniform kills took 286 s on 2026-12-07; 8 windows of
# 3.1 s cover the same span).

random_in() { # LO HI: a random millisecond in LO..HI-1
	v=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
	echo $(($1 + v * ($2 - $1) / 65536))
}

test_sigkill_random() {
	n=${FAULTS_KILLS:-8}
	case $n in ''|*[!0-9]*|0) fail "FAULTS_KILLS '$n': not a count above 0"; return;; esac
	delays=${FAULTS_KILL_DELAYS:-}
	if [ -z "$delays" ]; then
		i=0
		while [ $i -lt "$n" ]; do
			delays="$delays $(random_in $((i * 25000 / n)) $(((i + 1) * 25000 / n)))"
			i=$((i + 1))
		done
	fi
	say "  delays (ms; replay with FAULTS_KILL_DELAYS=\"...\"):$delays"
	killed=0
	done_first=0
	worst=0
	for d in $delays; do
		start random
		sleep "$((d / 1000)).$(printf '%03d' $((d % 1000)))"
		t0=$(ms)
		kill -KILL $pid 2>/dev/null
		{ wait $pid; } 2>/dev/null
		rc=$?
		wait_no_qemu "$out/random"
		dt=$(( $(ms) - t0 ))
		[ $dt -gt $worst ] && worst=$dt
		if [ $rc = 137 ]; then
			killed=$((killed + 1))
		else
			done_first=$((done_first + 1))
			say "  the run killed after $d ms had ended first (exit $rc)"
		fi
		check "no QEMU of the run left after $d ms" no_qemu_left random
	done
	record "sigkill-random (worst of $((killed + done_first)))" $worst
	check "the runs' results directory is there" [ -d "$out/random" ]
	complete=$(find "$out/random" -mindepth 1 -maxdepth 1 -type d -name '2*' | wc -l)
	partial=$(find "$out/random" -mindepth 1 -maxdepth 1 -name '.tmp-*' | wc -l)
	say "  $killed killed, $done_first ended before the kill; $complete finished run directories, $partial .tmp- ones"
	check "at most one run directory per run" [ $((complete + partial)) -le $((killed + done_first)) ]
	check "every run that ended before its kill is there, finished" [ "$complete" -ge "$done_first" ]
	for r in $(find "$out/random" -mindepth 1 -maxdepth 1 -type d -name '2*'); do
		check "$(basename "$r"): a finished run is complete" \
			jq -e --arg id "$(basename "$r")" '.run_id == $id and (.status | IN("pass","fail","timeout","crash","oom","error","interrupted"))' "$r/result.json"
		check "$(basename "$r"): its logs and reports written" sh -c "[ -s '$r/report.md' ] && [ -s '$r/console.log' ]"
	done
	if [ -e "$out/random/latest" ] || [ -L "$out/random/latest" ]; then
		check "latest is a link to a finished run" sh -c "[ -L '$out/random/latest' ] && [ -s '$out/random/latest/result.json' ] && case \$(readlink '$out/random/latest') in 2*) ;; *) exit 1;; esac"
	fi
	check "gc collects every .tmp- run directory ($partial)" sh -c "'$bin' gc '$out/random' | grep -Eq '^$partial run director(y|ies) collected'"
	check "no .tmp- run directory left" none_in "$out/random" -name '.tmp-*'
	check "no stray latest link of a killed harness" none_in "$out/random" -name '.latest.tmp-*'
}

# ---- two runs into one results directory -----------------------------------

test_two_runs_one_dir() {
	two=$out/two
	t0=$(ms)
	"$bin" run "$smoke" --out "$two" > "$out/two-a.log" 2>&1 &
	pa=$!
	"$bin" run "$smoke" --out "$two" > "$out/two-b.log" 2>&1 &
	pb=$!
	wait $pa
	ra=$?
	wait $pb
	rb=$?
	say "  both ended after $(( $(ms) - t0 )) ms"
	check "both exit 0 (got $ra and $rb)" [ "$ra$rb" = 00 ]
	set -- $(find "$two" -mindepth 1 -maxdepth 1 -type d -name '2*' | sort)
	check "two run directories (got $#)" [ $# = 2 ]
	check "distinct run ids" [ "${1:-x}" != "${2:-x}" ]
	for r in "$@"; do
		id=$(basename "$r")
		other=$id
		for o in "$@"; do [ "$o" != "$r" ] && other=$(basename "$o"); done
		check "$id: passed" jq -e '.status == "pass"' "$r/result.json"
		check "$id: result.json's run_id is its directory's" jq -e --arg id "$id" '.run_id == $id' "$r/result.json"
		check "$id: one guest in its console.log" [ "$(grep -Ec 'phase boot.?$' "$r/console.log")" = 1 ]
		# (one id may be the other's prefix: "...-smoke" and "...-smoke-2")
		check "$id: its QEMU used its own disks" grep -q "/[.]tmp-$id/disks/" "$r/qemu-argv.txt"
		check "$id: and not the other run's" lacks "$r/qemu-argv.txt" "(/|tmp-)$other/"
		check "$id: nothing in it names the other run" lacks "$r" "(/|tmp-)$other(/|\$)"
	done
	check "latest is a symlink" [ -L "$two/latest" ]
	target=$(readlink "$two/latest")
	check "latest names one of the two ($target)" sh -c "[ -d '$two/$target' ] && case '$target' in '$(basename "${1:-x}")'|'$(basename "${2:-x}")') ;; *) exit 1;; esac"
	check "no temporary latest link left" none_in "$two" -name '.latest.tmp-*'
	check "no .tmp- run directory left" none_in "$two" -name '.tmp-*'
}

# ---- a missing tool ---------------------------------------------------------

# A PATH with every program of this one but QEMU: exit 3, the package
# named, nothing created.  (tests/cli.sh tries an empty PATH.)
test_missing_qemu() {
	p=$out/path-without-qemu
	mkdir -p "$p"
	old_ifs=$IFS
	IFS=:
	for d in $PATH; do
		[ -d "$d" ] && ln -s "$d"/* "$p"/ 2>/dev/null
	done
	IFS=$old_ifs
	rm -f "$p"/qemu-system-*
	check "the PATH has the other tools" env PATH="$p" sh -c 'command -v apt-get && command -v depmod && command -v jq'
	check "but no QEMU" env PATH="$p" sh -c '! command -v qemu-system-x86_64'
	log=$out/missing-qemu.log
	t0=$(ms)
	PATH=$p "$bin" run "$smoke" --out "$out/missing-qemu" > "$log" 2>&1
	rc=$?
	record missing-qemu $(( $(ms) - t0 ))
	check "exit status 3 (got $rc)" [ "$rc" = 3 ]
	check "the message names the program and its package" grep -q "qemu-system-x86_64 not found: install the Debian package qemu-system-x86" "$log"
	check "nothing created: no results directory" absent "$out/missing-qemu"
}

# ---- a damaged cache --------------------------------------------------------

# copy_entries FROM TO CATEGORY GLOB: the entries (and their seals) that
# smoke needs, copied.
copy_entries() {
	mkdir -p "$2/$3"
	for e in "$1/$3"/$4; do
		case $e in *.lock|*.tmp-*) continue ;; esac
		[ -d "$e" ] || continue
		cp -a "$e" "$2/$3/"
		seal="$1/$3/.$(basename "$e").seal"
		[ -e "$seal" ] && cp -a "$seal" "$2/$3/"
	done
}

# A cache holding what smoke needs, then its kernel image overwritten (the
# same size), its initramfs cut in half and a killed builder's half-written
# initramfs beside it: the run says so, fetches and builds them again, and
# boots only good files.  Then fio and busybox damaged: built again too.
test_cache_damaged() {
	fresh=$out/damaged-cache
	main=$("$bin" cache list | sed -n 's/^cache: //p')
	# The kernel smoke boots, as a dry run resolves it in the user's cache:
	# that entry only, whatever other kernels the cache holds (none copied:
	# the run downloads it).
	kimage=$("$bin" run "$smoke" --dry-run 2>/dev/null | sed -n 's/^  image *//p')
	case $kimage in
	"$main"/kernels/debian/*/boot/vmlinuz-*)
		kentry=${kimage#"$main"/kernels/debian/}
		copy_entries "$main" "$fresh" kernels/debian "${kentry%%/*}" ;;
	esac
	# busybox and fio: every version there is for the arch (the run takes the
	# one apt names); each is damaged below, so the one used is, whichever.
	copy_entries "$main" "$fresh" debs 'busybox-static_*_amd64'
	copy_entries "$main" "$fresh" fio '*_x86_64'
	for d in apt accel; do
		[ -e "$main/$d" ] && ln -s "$main/$d" "$fresh/$d"
	done
	# Every entry checked and sealed, the initramfs built: stopped there.
	export SCALETEST_CACHE="$fresh"
	start damaged-setup
	check "setup: the initramfs built" wait_for in_log '^scaletest: initramfs .*\(built\)'
	kill -TERM $pid
	wait $pid
	cpio=$(find "$fresh/initramfs" -name '*.cpio' | head -n 1)
	vmlinuz=$("$bin" run "$smoke" --dry-run 2>/dev/null | sed -n 's/^  image *//p')
	[ -f "$vmlinuz" ] || vmlinuz=
	check "setup: a kernel and an initramfs" sh -c "[ -n '$cpio' ] && [ -n '$vmlinuz' ]"
	if [ -z "$cpio" ] || [ -z "$vmlinuz" ]; then
		unset SCALETEST_CACHE
		return
	fi
	check "setup: their seals" [ -e "$(dirname "$cpio")/.$(basename "$cpio").seal" ]
	good_cpio=$(sha256sum < "$cpio")
	good_kernel=$(sha256sum < "$vmlinuz")

	dd if=/dev/urandom of="$vmlinuz" bs=4096 count=1 seek=64 conv=notrunc 2>/dev/null
	truncate -s $(( $(stat -c %s "$cpio") / 2 )) "$cpio"
	head -c 100000 /dev/urandom > "$cpio.tmp-999999"
	check "the kernel image damaged" [ "$(sha256sum < "$vmlinuz")" != "$good_kernel" ]
	run_smoke damaged-kernel
	record "cache-damaged (kernel, initramfs): run" "$(jq -r '.timings.total_s * 1000 | floor' "$dir/result.json" 2>/dev/null || echo '?')"
	grep 'is damaged' "$log" >&2
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "the damaged kernel image found" grep -q "is damaged (boot/vmlinuz-.*: its contents differ from the seal (SHA-256)): building it again" "$log"
	check "the kernel fetched again" grep -q "^scaletest: downloading linux-image-" "$log"
	check "the cut initramfs found" grep -Eq "initramfs/$(basename "$cpio")' is damaged \([0-9]+ bytes, sealed with [0-9]+\)" "$log"
	check "the initramfs built again, under the same name" grep -q "^scaletest: initramfs $(basename "$cpio") (built)" "$log"
	check "the half-written one removed" absent "$cpio.tmp-999999"
	check "the kernel image is whole again" [ "$(sha256sum < "$vmlinuz")" = "$good_kernel" ]
	check "the initramfs is whole again" [ "$(sha256sum < "$cpio")" = "$good_cpio" ]
	check "the run booted them" grep -q -- "$(basename "$vmlinuz")" "$dir/qemu-argv.txt"

	for fio in $(find "$fresh/fio" -path '*/fio' -type f); do
		truncate -s 100000 "$fio"
	done
	for busybox in $(find "$fresh/debs" -path '*/bin/busybox' -type f); do
		dd if=/dev/zero of="$busybox" bs=4096 count=1 seek=16 conv=notrunc 2>/dev/null
	done
	run_smoke damaged-guest
	record "cache-damaged (fio, busybox): run" "$(jq -r '.timings.total_s * 1000 | floor' "$dir/result.json" 2>/dev/null || echo '?')"
	grep 'is damaged' "$log" >&2
	check "exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "status pass" j '.status == "pass"'
	check "the cut fio found" grep -Eq "fio/[^ ]*' is damaged \(fio: 100000 bytes, sealed with [0-9]+\)" "$log"
	check "the damaged busybox found" grep -q "is damaged (bin/busybox: its contents differ from the seal (SHA-256))" "$log"
	check "fio ran in the guest" j '[.fio.jobs[] | select(.error == 0)] | length > 0'
	used=$(sed -n "s|.*/fio/\([^/']*\)' is damaged (fio: .*|\1|p" "$log" | head -n 1)
	check "the fio it used is whole again ($used)" [ "$(stat -c %s "$fresh/fio/$used/fio" 2>/dev/null || echo 0)" -gt 100000 ]
	unset SCALETEST_CACHE
}


# ---- lowmem running out during insmod ----------------------------------------

# Too many disks for a HIGHMEM guest's low memory (the estimate that would
# refuse it before boot is lowered with disk_cost_kb): the kernel runs out
# during insmod, and the run ends as oom when the console reports it, not
# when the insmod deadline fires (host.json's timed_out: no clock here).
test_oom_lowmem() {
	name=oom-lowmem
	t0=$(ms)
	"$bin" run "$top/scenarios/seed-i386-4000" --out "$out/$name" --set disks=1500 \
		--set memory_mb=256 --set virtio_disks=0 --set disk_cost_kb=50 > "$out/$name.log" 2>&1
	rc=$?
	dir=$(finished_of $name)
	[ -n "$dir" ] || dir=$out/$name/none
	record "oom-lowmem: the whole VM, boot included" "$(jq -r '(.timings.vm_s // 0) * 1000 | floor' "$dir/result.json" 2>/dev/null || echo '?')"
	check "exit status 1 (got $rc)" [ "$rc" = 1 ]
	check "status oom" j '.status == "oom"'
	check "crash class oom, blamed on the kernel" j '.crash.class == "oom" and .crash.blame == "kernel"'
	check "it ended during insmod: no disks counted, no after-insmod phase" j '.timings.enumerate_s == null'
	check "at the OOM, not at the insmod deadline" jq -e '.timed_out == false' "$dir/host.json"
	check "no QEMU left running" no_qemu_of "$out/$name"
}

run_tests "$@"
