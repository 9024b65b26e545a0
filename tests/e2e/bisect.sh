#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# End-to-end tests of scaletest bisect on a synthetic history of Debian's
# linux-source (the tree kbuild unpacked for kernel.sh): a bare repository
# whose first commit carries scenarios/patches/sched-tags-32 (32 scheduler
# requests per queue), then commits that change only documentation, one
# that reverts the patch (the culprit: per-disk memory grows), and more
# documentation.  Every commit is a real build and a real boot.  The same
# over histories of Debian's linux-source-6.12 and of sid's 7.2 (*_612,
# *_72), each with its series' form of the patch.
#
#   sh tests/e2e/bisect.sh [NAME...]
#   sh tests/e2e/bisect.sh history_72 finds_culprit_72
#   SCALETEST_TEST_7X=1 sh tests/e2e/bisect.sh
#
# The 7.2 tests download sid's linux-source-7.2 and build it cold, which
# make test's time on a 2-core machine cannot afford: they run when named
# or with SCALETEST_TEST_7X=1, and are skips otherwise (opt_in).
#
# The tests share the history and what they built; one run alone makes the
# history first (and the limit tests the culprit bisect that sets the
# limit).
# suite: full
# Last: its histories are cloned from the sources e2e/kernel unpacked (above).
# order: 90
# lane: kernel
set -u
. "$(dirname "$0")/lib.sh"

cache=$("$bin" cache list | sed -n 's/^cache: //p')
patch=$top/scenarios/patches/sched-tags-32/0001-blk-mq-sched-preallocate-32-scheduler-requests.patch
broken=$top/tests/fixtures/patches/compile-error/0001-compile-error.patch
repo=$out/linux.git
# Fixed identities and dates: the same history has the same hashes on
# every run, so its builds are found in the kernel-build cache.
export GIT_AUTHOR_NAME=scaletest GIT_AUTHOR_EMAIL=scaletest@localhost
export GIT_COMMITTER_NAME=scaletest GIT_COMMITTER_EMAIL=scaletest@localhost
export GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
idx=$out/index
sets="--set arch=x86_64 --set disks=200"

# The pristine Debian source kbuild keeps (a git repository tagged
# "pristine") of a series (6.1, 6.12); made by a build of Debian's source
# when there is none.
pristine_tree() { # SERIES
	for d in "$cache"/kbuild/*/src; do
		git -C "$d" rev-parse -q --verify pristine >/dev/null 2>&1 || continue
		v=$(sed -n 's/^VERSION = //p' "$d/Makefile").$(sed -n 's/^PATCHLEVEL = //p' "$d/Makefile")
		if [ "$v" = "$1" ]; then
			echo "$d"
			return
		fi
	done
}

# unpack_source [OPTIONS]: a kernel build (x86_64, kernel build's
# OPTIONS) that unpacks Debian's source into a work tree of the cache,
# where pristine_tree finds it.  A build the cache still holds would
# unpack nothing, and the cache keeps more builds than work trees (a run
# of the 7.2 tests leaves 6.1's build and no 6.1 tree): a fragment of this
# run's own, only a comment, makes it a build to do.
unpack_source() {
	[ -f "$out/unpack.config" ] ||
		echo "# scaletest e2e/bisect: a build that unpacks the source ($out)" > "$out/unpack.config"
	"$bin" kernel build --arch x86_64 --fragment "$out/unpack.config" "$@"
}

# clone_pristine SRC DEST: a bare clone of the pristine tree SRC (a
# kernel work tree of the cache, .../kbuild/KEY/src), holding the entry's
# lock, as the harness does when it builds in the tree (reset and patched
# in place) or prunes it (two work trees kept): beside other runs, a clone
# without it once lost objects from under it ("failed to create link").
# --local: the objects hardlinked, the clone independent of the cache.
clone_pristine() {
	flock "${1%/src}.lock" sh -c '[ -d "$1" ] && git clone -q --bare --local "$1" "$2"' - "$1" "$2"
}

# commit PARENT MESSAGE [git apply args]: a commit of PARENT's tree with
# the patch applied to the index (no work tree anywhere); prints its hash.
commit() {
	parent=$1 msg=$2
	shift 2
	GIT_INDEX_FILE=$idx git -C "$repo" read-tree "$parent" || return 1
	if [ $# -gt 0 ]; then
		GIT_INDEX_FILE=$idx git -C "$repo" apply --cached "$@" || return 1
	fi
	tree=$(GIT_INDEX_FILE=$idx git -C "$repo" write-tree) || return 1
	git -C "$repo" commit-tree "$tree" -p "$parent" -m "$msg"
}

# doc PARENT N: a commit that only adds a line to a documentation file.
doc() {
	f=Documentation/block/index.rst
	GIT_INDEX_FILE=$idx git -C "$repo" read-tree "$1" || return 1
	blob=$( (git -C "$repo" cat-file -p "$1:$f"; echo ".. scaletest synthetic history, commit $2") |
		git -C "$repo" hash-object -w --stdin) || return 1
	GIT_INDEX_FILE=$idx git -C "$repo" update-index --cacheinfo "100644,$blob,$f" || return 1
	tree=$(GIT_INDEX_FILE=$idx git -C "$repo" write-tree) || return 1
	git -C "$repo" commit-tree "$tree" -p "$1" -m "docs: synthetic commit $2"
}

# bisect NAME ARGS...: scaletest bisect of the smoke scenario into
# $out/NAME; sets $rc, $log, $bdir (the bisect directory).
bisect() {
	name=$1
	shift
	log=$out/$name.log
	"$bin" bisect "$smoke" --source "$repo" --out "$out/$name" $sets "$@" > "$log" 2>&1
	rc=$?
	bdir=$(find "$out/$name" -mindepth 1 -maxdepth 1 -type d -name 'bisect-*' 2>/dev/null | head -n 1)
	[ -n "$bdir" ] || bdir=$out/$name/none
}

b() { # jq -e on the current bisect.json
	jq -e "$1" "$bdir/bisect.json" >/dev/null 2>&1
}

# patched_history VERSION WHOSE REPO PATCH SUBJECT TAIL LOG UNPACK-ARGS...:
# a history of Debian's VERSION source (unpacked once if the cache has no
# pristine tree of it, the build's words in LOG) in the bare repository
# REPO: PATCH committed as SUBJECT, two documentation commits, its revert
# (the culprit), TAIL more; sets h0 (the first), hculprit and hlast (the
# last, master); returns 1 where a step failed (each checked).
patched_history() {
	ph_v=$1 ph_whose=$2 ph_repo=$3 ph_patch=$4 ph_subject=$5 ph_tail=$6 ph_log=$7
	shift 7
	src=$(pristine_tree "$ph_v")
	if [ -z "$src" ]; then
		say "  no unpacked $ph_v source yet: building $ph_whose linux-source once"
		unpack_source "$@" > "$ph_log" 2>&1
		src=$(pristine_tree "$ph_v")
	fi
	check "$ph_whose source is unpacked (a pristine tree)" [ -n "$src" ]
	[ -n "$src" ] || return 1
	clone_pristine "$src" "$ph_repo"
	check "cloned" [ -d "$ph_repo" ]
	repo_save=$repo
	repo=$ph_repo
	h0=$(commit pristine "$ph_subject" "$ph_patch")
	check "the $ph_v patch applies to $ph_whose source" [ -n "$h0" ]
	h1=$(doc "$h0" 1)
	h2=$(doc "$h1" 2)
	hculprit=$(commit "$h2" "Revert \"$ph_subject\"" -R "$ph_patch")
	check "the revert applies" [ -n "$hculprit" ]
	hlast=$hculprit
	ph_i=4
	while [ $ph_i -lt $((ph_tail + 4)) ]; do
		hlast=$(doc "$hlast" $ph_i)
		ph_i=$((ph_i + 1))
	done
	git -C "$repo" update-ref refs/heads/master "$hlast"
	n=$(git -C "$repo" rev-list --count "$h0..$hlast")
	check "$((ph_tail + 3)) commits from good to bad (got $n)" [ "$n" = $((ph_tail + 3)) ]
	repo=$repo_save
	[ -n "$h0" ] && [ -n "$hculprit" ] && [ "$n" = $((ph_tail + 3)) ]
}

test_history() {
	patched_history 6.1 "Debian's 6.1" "$repo" "$patch" "blk-mq-sched: preallocate 32 scheduler requests" 4 \
		"$out/kbuild.log" || return
	c0=$h0 culprit=$hculprit c7=$hlast
	# A side branch where the two commits after the good one do not build.
	s1=$(commit "$c0" "a deliberate build failure" "$broken")
	s2=$(doc "$s1" s2)
	s3=$(commit "$s2" "fix the build, and revert the patch" -R "$broken" "$patch")
	git -C "$repo" update-ref refs/heads/broken "$s3"
	check "the side branch is made" [ -n "$s3" ]
}

# A second history, of Debian's linux-source-6.12: the patch's 6.12 form
# (sched-tags-32-612), reverted three commits later.  Made here, before
# any bisect builds: each bisect's work tree is a kbuild work tree of its
# own, and the cache keeps two, so the first bisect may push the unpacked
# Debian sources out (make test runs e2e/kernel first, which unpacks both).
patch612=$top/scenarios/patches/sched-tags-32-612/0001-blk-mq-sched-preallocate-32-scheduler-requests.patch
repo612=$out/linux-612.git

test_history_612() {
	patched_history 6.12 "Debian's 6.12" "$repo612" "$patch612" "blk-mq-sched: preallocate 32 scheduler requests" \
		2 "$out/kbuild-612.log" --source debian:6.12 || return
	d0=$h0 culprit612=$hculprit d5=$hlast
}

# The culprit is found, within git bisect's bound (ceil(log2 7) = 3) plus
# a few, judged against the good end's own figure by compare's rule.
test_finds_culprit() {
	[ -n "${c7:-}" ] || test_history
	bisect culprit --good "$c0" --bad "$c7" --metric memfree_per_disk --worse-than-good
	check "exit 0 (got $rc)" [ "$rc" = 0 ]
	check "found" b '.outcome == "found"'
	check "the culprit is the revert" b ".first_bad.commit == \"$culprit\""
	check "its subject is named" b '.first_bad.subject | startswith("Revert")'
	check "the report names it" grep -q "First bad commit: .*$culprit" "$bdir/bisect.md"
	steps=$(jq '.steps_between' "$bdir/bisect.json")
	bound=$(jq '.bound' "$bdir/bisect.json")
	say "  $steps steps between the ends (bound $bound), $(jq '[.steps[].runs | length] | add' "$bdir/bisect.json") runs"
	check "steps ($steps) within the bound + 2 ($bound)" [ "$steps" -le $((bound + 2)) ]
	check "both ends tested first" b '.steps[0].role == "good end" and .steps[1].role == "bad end"'
	check "every step has a verdict and a figure" b '[.steps[] | select(.verdict != "good" and .verdict != "bad")] | length == 0'
	good=$(jq '.steps[0].mean' "$bdir/bisect.json")
	badv=$(jq '.steps[1].mean' "$bdir/bisect.json")
	check "bad end's figure > good end's ($badv > $good)" jq -n -e "$badv > $good"
	check "git's bisect log kept" grep -q "first bad commit" "$bdir/bisect.log"
	runs=$(jq '[.steps[].runs | length] | add' "$bdir/bisect.json")
	kept=$(find "$bdir/runs" -name result.json | wc -l)
	check "every run kept ($kept of $runs)" [ "$kept" -eq "$runs" -a "$runs" -ge 4 ]
	check "the user's repository has no bisect state" sh -c "! git -C '$repo' rev-parse -q --verify BISECT_HEAD >/dev/null"
	check "no clone left" absent "$bdir/git"
	check "no QEMU left" no_qemu_left culprit
	# The midpoint of the two ends, for the limit tests below.
	limit=$(jq -n "($good + $badv) / 2 | floor")
}

# A good end that is in fact bad: said, nothing bisected, exit 1.
test_good_is_bad() {
	[ -n "${limit:-}" ] || test_finds_culprit
	bisect goodbad --good "$culprit" --bad "$c7" --metric memfree_per_disk --max "$limit"
	check "exit 1 (got $rc)" [ "$rc" = 1 ]
	check "outcome good_is_bad" b '.outcome == "good_is_bad"'
	check "says so" grep -q "is bad" "$log"
	check "only the good end was tested" b '.steps | length == 1'
}

# Commits that do not build are skipped; with only those left, bisect
# names the candidates and fails.
test_all_skipped() {
	[ -n "${limit:-}" ] || test_finds_culprit
	bisect skipped --good "$c0" --bad "$s3" --metric memfree_per_disk --max "$limit"
	check "exit 1 (got $rc)" [ "$rc" = 1 ]
	check "outcome undecided" b '.outcome == "undecided"'
	check "the broken commits were skipped as build failures" b '[.steps[] | select(.role == "step") | select(.verdict == "skip" and (.why | startswith("the build failed")))] | length >= 1'
	check "the candidates are listed" b ".candidates | index(\"$s1\") != null"
	check "the log says why" grep -q "only skipped commits are left" "$log"
}

# culprit_in VERSION NAME REPO GOOD BAD CULPRIT FRAGMENT: bisect REPO from
# GOOD to BAD (the builds with kernel_fragments=FRAGMENT) into NAME, and
# check that it found CULPRIT, on kernels of VERSION, the bad end's figure
# above the good end's.
culprit_in() {
	ci_v=$1 ci_name=$2 ci_repo=$3 ci_good=$4 ci_bad=$5 ci_culprit=$6 ci_frag=$7
	repo_save=$repo
	repo=$ci_repo
	bisect "$ci_name" --good "$ci_good" --bad "$ci_bad" --metric memfree_per_disk --worse-than-good \
		--set kernel_fragments="$ci_frag"
	repo=$repo_save
	check "exit 0 (got $rc)" [ "$rc" = 0 ]
	check "found" b '.outcome == "found"'
	check "the culprit is the revert" b ".first_bad.commit == \"$ci_culprit\""
	check "the kernels were $ci_v" sh -c 'find "$1/runs" -name result.json -exec jq -r .kernel.version {} + | grep -q "^$2\."' - "$bdir" "$(printf '%s' "$ci_v" | sed 's/\./\\./g')"
	good=$(jq '.steps[0].mean' "$bdir/bisect.json")
	badv=$(jq '.steps[1].mean' "$bdir/bisect.json")
	say "  $ci_v: good end $good B a disk, bad end $badv; $(jq '.steps_between' "$bdir/bisect.json") steps between (bound $(jq '.bound' "$bdir/bisect.json"))"
	check "bad end's figure > good end's ($badv > $good)" jq -n -e "$badv > $good"
	check "no QEMU left" no_qemu_left "$ci_name"
}

# The bisect over the 6.12 history: the builds take the 6.12 fragment
# (kernel-configs/linux-6.12.config), which a tree that is not
# "debian:6.12" must name.
test_finds_culprit_612() {
	[ -n "${d5:-}" ] || test_history_612
	culprit_in 6.12 culprit-612 "$repo612" "$d0" "$d5" "$culprit612" linux-6.12
}

# And over a history of sid's linux-source-7.2: the patch's 7.x form
# (sched-tags-32-72: 7.x computes the default in block/blk-mq.h), reverted
# three commits later; the builds take the 7.2 fragment.
patch72=$top/scenarios/patches/sched-tags-32-72/0001-blk-mq-preallocate-32-scheduler-requests.patch
repo72=$out/linux-72.git
why72="downloads and builds sid's linux-source-7.2 cold, left out of make test for its time"

test_history_72() {
	opt_in SCALETEST_TEST_7X "$why72" || return
	patched_history 7.2 "sid's 7.2" "$repo72" "$patch72" "blk-mq: preallocate 32 scheduler requests" \
		2 "$out/kbuild-72.log" --source debian:7.2 --set kernel_suite=sid || return
	e0=$h0 culprit72=$hculprit e5=$hlast
}

test_finds_culprit_72() {
	opt_in SCALETEST_TEST_7X "$why72" || return
	[ -n "${e5:-}" ] || test_history_72
	culprit_in 7.2 culprit-72 "$repo72" "$e0" "$e5" "$culprit72" linux-7.2
}

run_tests "$@"
