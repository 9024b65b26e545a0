#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Hostile input against the host side (issue 25): run directories, result.json
# and caches from elsewhere, planted links, poisoned memos, guest output past
# its budget, Unicode specials.  Each test is a reproducer of a finding that
# failed before its fix.  No QEMU: a fake apt-get/apt-cache on PATH stands in
# where the harness would fetch.
#
#	sh tests/security.sh [TEST...]	# all, or the named tests
# suite: quick
SUITE=security
. "$(dirname "$0")/lib.sh"

# A copy of a fixture run directory in $tmp/NAME.
run_copy() {
	rm -rf "${tmp:?}/$1"
	mkdir -p "$tmp/$1"
	cp "$fx/run/result.json" "$tmp/$1/"
}

# ---- reproduce.sh: no value of result.json reaches the shell ----------------

test_reproduce_arch_injection() {
	run_copy repro
	jq --arg p "$tmp/PWNED" '.kernel.arch = ("x86_64 --version; touch " + $p + "; echo") |
	    .settings.arch = ("x86_64; touch " + $p)' "$fx/run/result.json" > "$tmp/repro/result.json"
	expect 0 "" -- "$bin" report "$tmp/repro"
	r=$tmp/repro/reproduce.sh
	check "reproduce.sh is valid sh" sh -n "$r"
	check "reproduce.sh is executable (it starts with #!/bin/sh)" test -x "$r"
	check "the hostile arch is left out of the scenario" grep -q '^# arch: left out' "$r"
	check "QEMU is named from a known arch" grep -q 'qemu-system-x86_64 --version' "$r"
	checked
	if grep -q 'touch' "$r"; then
		fail "a hostile value reached reproduce.sh"
	fi
	# Run it, with make and bin/scaletest of a fake clone: nothing of the
	# hostile values runs.
	mkdir -p "$tmp/clone/bin"
	printf 'all:\n\t@true\n' > "$tmp/clone/Makefile"
	printf '#!/bin/sh\nexit 0\n' > "$tmp/clone/bin/scaletest"
	chmod +x "$tmp/clone/bin/scaletest"
	(cd "$tmp" && sh "$r" "$tmp/clone") > /dev/null 2>&1
	check "running reproduce.sh ran no hostile command" test ! -e "$tmp/PWNED"
}

# A foreign result.json names the paths a kernel is built from (issue 36,
# 4).  reproduce.sh's scenario lives in ${TMPDIR:-/tmp}: a relative
# kernel_source = evil-tree would be /tmp/evil-tree, any user's to plant,
# and make runs there.  No path of result.json is a live line: each is
# commented after a "review:" line, and the script stops before it builds
# anything until they are read; Debian's sources (debian, debian:X.Y) stay.
test_reproduce_foreign_paths() {
	run_copy rpath
	jq '.settings.kernel = "build" | .settings.kernel_source = "evil-tree" |
	    .settings.kernel_patches = "evil.patch" | .settings.kernel_fragments = "base,../x/evil.config"' \
		"$fx/run/result.json" > "$tmp/rpath/result.json"
	expect 0 "" -- "$bin" report "$tmp/rpath"
	r=$tmp/rpath/reproduce.sh
	check "reproduce.sh is valid sh" sh -n "$r"
	for k in kernel_source kernel_patches kernel_fragments; do
		checked
		if grep -q "^$k = " "$r"; then
			fail "result.json's $k is a live line of reproduce.sh"
		fi
		check "$k is commented after a review line" grep -q "^# review: .*($k)" "$r"
	done
	check "the relative path is said to be relative" \
		grep -q "^# review: builds code from 'evil-tree', a relative path" "$r"
	jq '.settings.kernel = "build" | .settings.kernel_source = "/srv/evil-tree" |
	    .settings.kernel_patches = "/srv/evil.patch"' "$fx/run/result.json" > "$tmp/rpath/result.json"
	expect 0 "" -- "$bin" report "$tmp/rpath"
	check "an absolute path is named in its review line" \
		grep -q "^# review: builds code from /srv/evil-tree (kernel_source)" "$r"
	check "and written commented" grep -q "^# kernel_source = /srv/evil-tree$" "$r"
	# Run: it stops before make, building nothing.
	rm -rf "$tmp/rclone"
	mkdir -p "$tmp/rclone/bin"
	printf 'all:\n\t@touch %s/MADE\n' "$tmp" > "$tmp/rclone/Makefile"
	printf '#!/bin/sh\ntouch %s/RAN\n' "$tmp" > "$tmp/rclone/bin/scaletest"
	chmod +x "$tmp/rclone/bin/scaletest"
	rm -f "$tmp/MADE" "$tmp/RAN"
	expect 2 "reproduce: review the paths" -- sh "$r" "$tmp/rclone"
	check "nothing was built" test ! -e "$tmp/MADE" -a ! -e "$tmp/RAN"
	# Debian's sources are no paths: live, and the script runs.
	jq '.settings.kernel = "build" | .settings.kernel_source = "debian:6.12" |
	    .settings.kernel_fragments = "base,debug"' "$fx/run/result.json" > "$tmp/rpath/result.json"
	expect 0 "" -- "$bin" report "$tmp/rpath"
	check "kernel_source = debian:6.12 is live" grep -q "^kernel_source = debian:6.12$" "$r"
	check "fragments by name are live" grep -q "^kernel_fragments = " "$r"
	checked
	if grep -q "^# review:" "$r"; then
		fail "a Debian source was sent for review"
	fi
}

# ---- planted links in a run directory ---------------------------------------

test_link_planted_at_report() {
	run_copy linked
	echo victim > "$tmp/victim"
	ln -s "$tmp/victim" "$tmp/linked/report.md"
	expect 1 "report.md' is a symbolic link" -- "$bin" report "$tmp/linked"
	check "the link's target is unchanged" grep -qx victim "$tmp/victim"
	check "the link is still a link" test -L "$tmp/linked/report.md"
	# The old temporary name is no door either.
	rm "$tmp/linked/report.md"
	ln -s "$tmp/victim" "$tmp/linked/report.md.tmp"
	ln -s "$tmp/victim" "$tmp/linked/reproduce.sh.tmp"
	expect 0 "" -- "$bin" report "$tmp/linked"
	check "report.md.tmp -> victim: the victim is unchanged" grep -qx victim "$tmp/victim"
	check "report.md written as a file of its own" test -f "$tmp/linked/report.md" -a ! -L "$tmp/linked/report.md"
}

test_link_planted_at_replay_dir() {
	rm -rf "$tmp/rp" "$tmp/elsewhere"
	cp -r "$fx/replay/smoke-x86_64" "$tmp/rp"
	mkdir "$tmp/elsewhere"
	ln -s "$tmp/elsewhere" "$tmp/rp/replay"
	expect 1 "replay' is a symbolic link" -- "$bin" report --replay "$tmp/rp"
	check "nothing written through replay -> elsewhere" none_in "$tmp/elsewhere"
	rm "$tmp/rp/replay"
	expect 0 "the run.s own result.json" -- "$bin" report --replay "$tmp/rp"
}

test_link_planted_in_night_dir() {
	rm -rf "$tmp/night"
	cp -r "$top/tests/golden/nightly/input" "$tmp/night"
	echo victim > "$tmp/victim"
	ln -s "$tmp/victim" "$tmp/night/summary.md"
	expect 1 "summary.md' is a symbolic link" -- "$bin" report --nightly "$tmp/night"
	check "summary.md -> victim: the victim is unchanged" grep -qx victim "$tmp/victim"
}

test_foreign_owner() {
	[ "$(id -u)" = 0 ] || { skip "needs root for chown"; return; }
	run_copy foreign
	chown -R nobody "$tmp/foreign"
	expect 2 "belongs to another user" -- "$bin" report "$tmp/foreign"
	check "nothing written into another user's run directory" test ! -e "$tmp/foreign/report.md"
	expect 0 "" -- "$bin" report "$tmp/foreign" --out "$tmp/foreign-out"
	check "--out takes the reports elsewhere" test -f "$tmp/foreign-out/report.md"
	# A file of another user's in our own directory is not replaced.
	run_copy mine
	echo theirs > "$tmp/mine/report.md"
	chown nobody "$tmp/mine/report.md"
	expect 1 "belongs to another user" -- "$bin" report "$tmp/mine"
	check "another user's report.md is unchanged" grep -qx theirs "$tmp/mine/report.md"
}

# ---- input files: bounded ---------------------------------------------------

test_result_json_not_a_file() {
	rm -rf "$tmp/zero"
	mkdir "$tmp/zero"
	ln -s /dev/zero "$tmp/zero/result.json"
	expect 1 "not a regular file" -- "$bin" report "$tmp/zero"
	rm "$tmp/zero/result.json"
	truncate -s 300M "$tmp/zero/result.json"
	expect 1 "larger than the harness reads" -- "$bin" report "$tmp/zero"
	rm -f "$tmp/zero/result.json"
	mkfifo "$tmp/zero/result.json"
	expect 1 "not a regular file" -- "$bin" report "$tmp/zero"
}

test_replay_inputs_bounded() {
	# A small channel.log.gz that inflates past the run's guest_output_mb
	# (a gzip bomb) is refused at the bound, not read into memory.
	rm -rf "$tmp/bomb"
	cp -r "$fx/replay/smoke-x86_64" "$tmp/bomb"
	echo "guest_output_mb = 16" >> "$tmp/bomb/scenario.scn"
	head -c 17M /dev/zero | gzip -1 > "$tmp/bomb/channel.log.gz"
	check "the bomb is small" test "$(stat -c %s "$tmp/bomb/channel.log.gz")" -lt 1048576
	expect 1 "channel.log.gz' holds more than 16 MiB \(guest_output_mb" -- \
		"$bin" report --replay "$tmp/bomb"
	# A FIFO as console.log would block a reader: refused at once.
	cp "$fx/replay/smoke-x86_64/channel.log.gz" "$tmp/bomb/"
	rm -f "$tmp/bomb/console.log"
	mkfifo "$tmp/bomb/console.log"
	expect 1 "console.log': not a regular file" -- "$bin" report --replay "$tmp/bomb"
}

# A replay takes its bounds from the harness, not from the run directory
# it reads (issue 36, 5): a scenario.scn saying guest_output_mb = 1048576
# let a 1 MB console.log.gz inflate to 2 GiB.  Now past the harness's own
# 1024 MiB it is refused; --guest-output-mb sets another bound.
test_replay_limits_are_the_harness() {
	rm -rf "$tmp/rbomb"
	cp -r "$fx/replay/smoke-x86_64" "$tmp/rbomb"
	echo "guest_output_mb = 1048576" >> "$tmp/rbomb/scenario.scn"
	rm -f "$tmp/rbomb/console.log" "$tmp/rbomb/console.log.gz"
	# gzip members of 1 MiB of zeros, one after another: one stream of
	# 1025 MiB (gzip reads on across members), 1 MB on disk
	head -c 1M /dev/zero | gzip -9 > "$tmp/mib.gz"
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32; do
		cat "$tmp/mib.gz"
	done > "$tmp/32mib.gz"
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32; do
		cat "$tmp/32mib.gz"
	done > "$tmp/rbomb/console.log.gz"
	cat "$tmp/mib.gz" >> "$tmp/rbomb/console.log.gz"
	check "the bomb is small" test "$(stat -c %s "$tmp/rbomb/console.log.gz")" -lt 2097152
	expect 1 "console.log.gz' holds more than 1024 MiB \(guest_output_mb" -- \
		"$bin" report --replay "$tmp/rbomb"
	check "nothing replayed" test ! -e "$tmp/rbomb/replay/result.json"
	expect 1 "console.log.gz' holds more than 64 MiB" -- \
		"$bin" report --replay "$tmp/rbomb" --guest-output-mb 64
	expect 2 "--guest-output-mb: 'lots' is not" -- \
		"$bin" report --replay "$tmp/rbomb" --guest-output-mb lots
	expect 2 "--guest-output-mb goes with --replay" -- \
		"$bin" report "$tmp/rbomb" --guest-output-mb 64
}

# ---- what a document costs (issue 36, 1 and 2) ------------------------------

# FILE ITEM COUNT: {"schema": 1, "x": [ITEM, ITEM, ...]}, COUNT items.
many() {
	{ printf '{"schema": 1, "x": ['; yes "$2," | head -n $(($3 - 1)) | tr -d '\n'
	  printf '%s]}\n' "$2"; } > "$1"
}

# Peak memory (kB) of a command, by GNU time; empty without it.
peak_kb() {
	[ -x /usr/bin/time ] || return 0
	/usr/bin/time -f '%M' -o "$tmp/peak" "$@" > /dev/null 2>&1
	tail -n 1 "$tmp/peak"
}

# json-c spends about 780 bytes on "{}": a 9 MB result.json of them took
# 2.3 GB.  Objects, arrays and values are counted before json-c makes
# them, and the document is refused past a limit, naming file and limit;
# the memory a refusal takes does not grow with the document.
test_json_cost_bounded() {
	rm -rf "$tmp/jc"
	mkdir -p "$tmp/jc/run"
	many "$tmp/jc/run/result.json" '{}' 70000
	expect 1 "jc/run/result.json: more than 65536 objects and arrays" -- "$bin" report "$tmp/jc/run"
	many "$tmp/jc/run/result.json" '[]' 70000
	expect 1 "jc/run/result.json: more than 65536 objects and arrays" -- "$bin" report "$tmp/jc/run"
	many "$tmp/jc/run/result.json" 0 2100000
	expect 1 "jc/run/result.json: more than 2097152 values" -- "$bin" report "$tmp/jc/run"
	# compare reads runs the same way
	cp -r "$fx/run" "$tmp/jc/good"
	many "$tmp/jc/run/result.json" '{}' 70000
	expect 2 "jc/run/result.json: more than 65536 objects and arrays" -- \
		"$bin" compare "$tmp/jc/good" "$tmp/jc/run"
	# a replay's host.json, a comparison's compare.json, a night's summary.json
	rm -rf "$tmp/jc/rp"
	cp -r "$fx/replay/smoke-x86_64" "$tmp/jc/rp"
	many "$tmp/jc/rp/host.json" '{}' 70000
	expect 1 "host.json: more than 65536 objects and arrays" -- "$bin" report --replay "$tmp/jc/rp"
	mkdir -p "$tmp/jc/cmp"
	many "$tmp/jc/cmp/compare.json" '{}' 70000
	expect 1 "compare.json: more than 65536 objects and arrays" -- "$bin" report --compare "$tmp/jc/cmp/compare.json"
	rm -rf "$tmp/jc/night"
	cp -r "$top/tests/golden/nightly/input" "$tmp/jc/night"
	many "$tmp/jc/night/summary.json" '{}' 70000
	expect 1 "summary.json: more than 65536 objects and arrays" -- "$bin" report --nightly "$tmp/jc/night"
	# The memory of a refusal: the same for 0.9 MB and 9 MB of "{}".
	many "$tmp/jc/run/result.json" '{}' 300000
	small=$(peak_kb "$bin" report "$tmp/jc/run")
	many "$tmp/jc/run/result.json" '{}' 3000000
	large=$(peak_kb "$bin" report "$tmp/jc/run")
	if [ -n "$small" ] && [ -n "$large" ]; then
		check "10 times the objects, not twice the memory ($small kB, $large kB)" \
			test "$large" -lt $((2 * small))
	else
		say "  (no /usr/bin/time: the memory of a refusal not measured)"
	fi
}

# A group of 10,000 runs (hard links to one result.json) took 14.7 GB:
# a side holds at most as many runs as run --repeat makes.
test_compare_group_capped() {
	rm -rf "$tmp/grp"
	mkdir -p "$tmp/grp/g"
	i=0
	while [ $i -lt 101 ]; do
		mkdir "$tmp/grp/g/r$i"
		ln "$fx/run/result.json" "$tmp/grp/g/r$i/result.json"
		i=$((i + 1))
	done
	cp -r "$fx/run" "$tmp/grp/one"
	expect 2 "'$tmp/grp/g' holds more than 100 runs, the most a group may hold \(run --repeat" -- \
		"$bin" compare "$tmp/grp/one" "$tmp/grp/g"
	rm -r "$tmp/grp/g/r100"
	expect 0 "" -- "$bin" compare "$tmp/grp/one" "$tmp/grp/g"
}

# ---- the cache --------------------------------------------------------------

test_cache_not_anyones() {
	rm -rf "$tmp/c"
	mkdir -p "$tmp/c"
	chmod 0777 "$tmp/c"
	expect 3 "writable by everyone" -- env SCALETEST_CACHE=$tmp/c "$bin" cache list
	chmod 0775 "$tmp/c"
	expect 3 "writable by its group" -- env SCALETEST_CACHE=$tmp/c "$bin" cache list
	chmod 0755 "$tmp/c"
	expect 0 "" -- env SCALETEST_CACHE=$tmp/c "$bin" cache list
	# In a directory that anyone may change (not sticky): refused.
	mkdir -p "$tmp/open/c"
	chmod 0777 "$tmp/open"
	expect 3 "another user may change" -- env SCALETEST_CACHE=$tmp/open/c "$bin" cache list
	chmod 0755 "$tmp/open"
	if [ "$(id -u)" = 0 ]; then
		chown nobody "$tmp/c"
		expect 3 "owned by another user" -- env SCALETEST_CACHE=$tmp/c "$bin" cache list
		chown root "$tmp/c"
	fi
}

# A cache whose directories cannot be made (a file where one goes) is the
# environment's failure: exit 3, said by the library and exited by the
# command, never a library's own exit (which said 2).
test_cache_unmakeable_is_environment() {
	rm -rf "$tmp/cf"
	mkdir -p "$tmp/cf"
	echo "not a directory" > "$tmp/cf/logs"
	expect 3 "'$tmp/cf/logs' exists and is not a directory" -- \
		env SCALETEST_CACHE="$tmp/cf" "$bin" fio
	rm "$tmp/cf/logs"
	echo "not a directory" > "$tmp/cf/kernels"
	expect 3 "cannot create directory '$tmp/cf/kernels/build': Not a directory" -- \
		env SCALETEST_CACHE="$tmp/cf" "$bin" kernel build --source "$fx/kbuild/tree"
}

# The cache root through a link (issue 36, 9): HOME/.cache a link another
# user owns was accepted (stat judged its target alone), and they may
# point it elsewhere later.  Each link on the way is looked at itself: one
# of another user's is refused, naming it; and the directories a link
# leads through are held to the rule the others are.
test_cache_root_through_a_link() {
	[ "$(id -u)" = 0 ] || { skip "needs root for chown -h"; return; }
	rm -rf "$tmp/lh"
	mkdir -p "$tmp/lh/home" "$tmp/lh/real" "$tmp/lh/open/real"
	chmod 755 "$tmp/lh" "$tmp/lh/home" "$tmp/lh/real" "$tmp/lh/open/real"
	ln -s "$tmp/lh/real" "$tmp/lh/home/.cache"
	chown -h nobody "$tmp/lh/home/.cache"
	expect 3 "'$tmp/lh/home/.cache', a symbolic link owned by another user \(uid [0-9]+\)" -- \
		env -u XDG_CACHE_HOME -u SCALETEST_CACHE HOME="$tmp/lh/home" "$bin" cache list
	# the same link of this user's: the cache is used
	chown -h root "$tmp/lh/home/.cache"
	expect 0 "^cache: $tmp/lh/home/.cache/scaletest" -- \
		env -u XDG_CACHE_HOME -u SCALETEST_CACHE HOME="$tmp/lh/home" "$bin" cache list
	# a link of this user's into a directory anyone may change
	chmod 777 "$tmp/lh/open"
	rm "$tmp/lh/home/.cache"
	ln -s "$tmp/lh/open/real" "$tmp/lh/home/.cache"
	expect 3 "lies in '$tmp/lh/open', which another user may change" -- \
		env -u XDG_CACHE_HOME -u SCALETEST_CACHE HOME="$tmp/lh/home" "$bin" cache list
}

test_cache_no_tmp_fallback() {
	command -v setpriv > /dev/null 2>&1 || { skip "no setpriv"; return; }
	[ "$(id -u)" = 0 ] || { skip "needs root"; return; }
	# A user without a passwd entry and without HOME: no /tmp fallback.
	chmod 755 "$tmp"
	expect 3 "no place for the cache" -- env -u HOME -u XDG_CACHE_HOME -u SCALETEST_CACHE \
		setpriv --reuid=54321 --regid=54321 --clear-groups "$bin" cache list
	check "nothing made in /tmp/scaletest-cache" test ! -e /tmp/scaletest-cache
}

# Fake apt-cache and apt-get: apt-cache answers for the smoke scenario's
# packages, apt-get records its arguments and fails (nothing is fetched).
fake_apt() {
	mkdir -p "$tmp/fakebin"
	cat > "$tmp/fakebin/apt-cache" <<'EOF'
#!/bin/sh
for a; do p=$a; done
case $p in
linux-image-amd64:*) printf 'Package: linux-image-amd64\nVersion: 6.1.99-1\nDepends: linux-image-6.1.0-99-amd64 (= 6.1.99-1)\n\n' ;;
*) printf 'Package: %s\nVersion: 6.1.99-1\n\n' "${p%%:*}" ;;
esac
EOF
	cat > "$tmp/fakebin/apt-get" <<EOF
#!/bin/sh
echo "\$*" >> "$tmp/apt-get.args"
exit 100
EOF
	chmod +x "$tmp/fakebin/apt-cache" "$tmp/fakebin/apt-get"
	rm -f "$tmp/apt-get.args"
}

test_cache_memo_poisoned() {
	fake_apt
	rm -rf "$tmp/mc"
	mkdir -p "$tmp/mc"
	expect 3 "apt-get download" -- env PATH="$tmp/fakebin:$PATH" SCALETEST_CACHE=$tmp/mc \
		"$bin" run "$top/scenarios/smoke" --out "$tmp/mc-out" --quiet
	memo=$(ls "$tmp/mc/apt/" 2>/dev/null | head -n 1)
	checked
	if [ -z "$memo" ]; then
		fail "no apt memo was written"
		return
	fi
	printf '%s\n' '-c/tmp/evil.conf 6.1.192-3' > "$tmp/mc/apt/$memo"
	rm -f "$tmp/apt-get.args"
	expect 3 "does not hold a package name" -- env PATH="$tmp/fakebin:$PATH" SCALETEST_CACHE=$tmp/mc \
		"$bin" run "$top/scenarios/smoke" --out "$tmp/mc-out" --quiet
	check "apt-get was still asked for the real package" grep -q 'linux-image-6.1.0-99-amd64' "$tmp/apt-get.args"
	checked
	if grep -q -- '-c/tmp' "$tmp/apt-get.args"; then
		fail "the poisoned memo reached apt-get's argv"
	fi
}

test_package_name_validated() {
	fake_apt
	expect 2 "not a Debian package name" -- env PATH="$tmp/fakebin:$PATH" SCALETEST_CACHE=$tmp/pc \
		"$bin" run "$top/scenarios/smoke" \
		--set kernel_package=-c/tmp/evil.conf --out "$tmp/pc-out" --quiet
	check "apt-get never ran" test ! -e "$tmp/apt-get.args"
}

test_dry_run_changes_nothing() {
	fake_apt
	rm -rf "$tmp/dc"
	expect 0 "dry run" -- env PATH="$tmp/fakebin:$PATH" SCALETEST_CACHE=$tmp/dc/cache \
		"$bin" run "$top/scenarios/smoke" --dry-run
	check "a dry run made no cache" test ! -e "$tmp/dc"
	mkdir -p "$tmp/dc/cache"
	expect 0 "dry run" -- env PATH="$tmp/fakebin:$PATH" SCALETEST_CACHE=$tmp/dc/cache \
		"$bin" run "$top/scenarios/smoke" --dry-run
	check "a dry run wrote nothing into the cache" none_in "$tmp/dc/cache"
}

# ---- Unicode specials and terminal escapes ----------------------------------

# Bytes no output may carry: ESC, U+202E, U+FFFF, U+FFFE, C1 CSI, and the
# invalid bytes planted below.
specials='\033|\342\200\256|\357\277\277|\357\277\276|\302\233|\377'
has_specials() { # FILE
	grep -q "$(printf "$specials" | sed 's/|/\\|/g')" "$1"
}
valid_utf8() { # FILE
	iconv -f UTF-8 -t UTF-8 "$1" > /dev/null 2>&1
}

test_unicode_specials() {
	rm -rf "$tmp/u" "$tmp/u2" "$tmp/ucmp"
	mkdir -p "$tmp/u"
	jq '.reason = ("guest: " + ("a\uffffb\u202ec\u001b[31md\u009be\ufffef")) |
		 .scenario.description = "a\uffffb\u202ec\u001b[31md" | .guest.kernel = "6.1\ufffe\u202e" |
		 .tool = "scaletest v\u009b2J" | .kernel.version = "6.1.0-57-amd64\u202eX" |
		 .guest["k\u001bey"] = "v\uffff"' \
		"$fx/run/result.json" > "$tmp/u/result.json"
	# and raw bytes that are no UTF-8 at all
	sed -i 's/"machine": "x86_64"/"machine": "x86\xff\xc0_64"/' "$tmp/u/result.json"
	expect 0 "" -- "$bin" report "$tmp/u"
	cp "$tmp/out" "$tmp/u-stdout"
	for f in report.md report.html junit.xml reproduce.sh u-stdout; do
		p=$tmp/u/$f
		[ "$f" = u-stdout ] && p=$tmp/u-stdout
		check "$f is valid UTF-8" valid_utf8 "$p"
		checked
		if has_specials "$p"; then
			fail "$f carries a terminal escape, bidi control, noncharacter or invalid byte"
		fi
	done
	check "junit.xml is well-formed (U+FFFF, U+FFFE removed)" xmllint --noout "$tmp/u/junit.xml"
	# compare.json and compare.xml from two such runs
	cp -r "$tmp/u" "$tmp/u2"
	"$bin" compare "$tmp/u" "$tmp/u2" --out "$tmp/ucmp" > "$tmp/u-cmp-stdout" 2>&1
	for f in compare.json compare.md compare.xml; do
		if [ -f "$tmp/ucmp/$f" ]; then
			check "$f is valid UTF-8" valid_utf8 "$tmp/ucmp/$f"
			checked
			has_specials "$tmp/ucmp/$f" && fail "$f carries a special"
		else
			checked
			fail "compare wrote no $f"
		fi
	done
	check "compare.xml is well-formed" xmllint --noout "$tmp/ucmp/compare.xml"
	checked
	has_specials "$tmp/u-cmp-stdout" && fail "compare's output carries a special"
}

test_replay_host_json_cleaned() {
	rm -rf "$tmp/hj"
	cp -r "$fx/replay/smoke-x86_64" "$tmp/hj"
	jq '.qemu_version = "7.2\u001b[2J\uffff\u202e" | .error = null' "$tmp/hj/host.json" > "$tmp/hj/h" &&
		mv "$tmp/hj/h" "$tmp/hj/host.json"
	sed -i 's/"qemu_version": "7.2/"qemu_version": "7.2\xff/' "$tmp/hj/host.json"
	"$bin" report --replay "$tmp/hj" > "$tmp/hj-out" 2>&1
	check "replay wrote result.json" test -f "$tmp/hj/replay/result.json"
	check "replayed result.json is valid UTF-8" valid_utf8 "$tmp/hj/replay/result.json"
	checked
	has_specials "$tmp/hj/replay/result.json" && fail "host.json's specials reached result.json"
	check "junit.xml of the replay is well-formed" xmllint --noout "$tmp/hj/replay/junit.xml"
}

test_terminal_escapes_in_listings() {
	rm -rf "$tmp/bl"
	mkdir -p "$tmp/bl"
	rm -rf "$tmp/blrun"
	cp -r "$fx/run" "$tmp/blrun"
	check "a baseline recorded" "$bin" baseline update "$tmp/blrun" --baselines "$tmp/bl"
	for d in "$tmp/bl"/*/; do
		[ -f "$d/key.json" ] || continue
		jq '.made = "2026\u001b]0;owned\u0007\u202e"' "$d/key.json" > "$d/k" && mv "$d/k" "$d/key.json"
		mv "$d" "$tmp/bl/evil$(printf '\033')[2Jname"
	done
	"$bin" baseline list --baselines "$tmp/bl" > "$tmp/bl-out" 2>&1
	checked
	has_specials "$tmp/bl-out" && fail "baseline list printed a terminal escape or bidi control"
	mkdir -p "$tmp/gcdir/.tmp-20260101-000000-x$(printf '\033')[2J"
	"$bin" gc --dry-run "$tmp/gcdir" > "$tmp/gc-out" 2>&1
	checked
	has_specials "$tmp/gc-out" && fail "gc printed a terminal escape"
	"$bin" run "$top/scenarios/smoke" --dry-run --set "description=a$(printf '\342\200\256')b" \
		> "$tmp/dry-out" 2>&1
	checked
	has_specials "$tmp/dry-out" && fail "run --dry-run printed a bidi control"
}

# Every name a command prints goes through the cleaner guest strings go
# through (issue 36, 7): scaletest check printed scenario file names raw.
test_terminal_escapes_in_names() {
	esc=$(printf '\033]0;owned\007\033[2J\342\200\256')
	rm -rf "$tmp/names"
	mkdir -p "$tmp/names"
	cp "$top/scenarios/smoke" "$tmp/names/smoke$esc"
	expect 0 "smoke.*: ok" -- "$bin" check "$tmp/names/smoke$esc"
	checked
	has_specials "$tmp/out" && fail "check printed a scenario's name raw"
	mkdir -p "$tmp/names/cache$esc"
	chmod 755 "$tmp/names/cache$esc"
	expect 0 "^cache: " -- env SCALETEST_CACHE="$tmp/names/cache$esc" "$bin" cache list
	checked
	has_specials "$tmp/out" && fail "cache list printed the cache's name raw"
	rm -rf "$tmp/names/rp"
	cp -r "$fx/replay/smoke-x86_64" "$tmp/names/rp"
	expect 0 "replay: .* the run's own result.json" -- \
		"$bin" report --replay "$tmp/names/rp" --out "$tmp/names/out$esc"
	checked
	has_specials "$tmp/out" && fail "report --replay printed the --out name raw"
}

run_tests "$@"
