#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The README's set-up on a fresh Debian 13 (trixie), as a new user takes
# it: debootstrap a minimal trixie into a folder of the test's own, install
# the README's first step there (git make sudo ca-certificates), clone this
# tree into it, and run the README's first command, `make scale-test`, in
# it through chroot: make deps, the build, and the default scenario (the
# seed's 686-pae kernel from bookworm, whatever the host runs) to a pass.
# QEMU runs inside the chroot under TCG (no /dev/kvm there).  /proc, /sys
# (read-only), /dev/pts and /dev/shm are mounted for it and unmounted whatever happens.
#
#   sh tests/e2e/trixie.sh                  (wrap it in heavy: one TCG guest)
#   CHROOT_RELEASE=bookworm sh tests/e2e/trixie.sh    the same on Debian 12
#   CHROOT_KEEP=1 ...                       keep the chroot (and its caches)
#   CHROOT_CACHE=DIR                        where the pristine minbase is kept as
#                                           a sealed tarball between runs (default
#                                           the harness's cache, CACHE/chroot:
#                                           tests/deb-chroot.sh's, shared with it)
#
# Needs root (chroot, mount), debootstrap (make deps-test) and Debian's
# archive over the network; about 1 GB in the chroot.  It prints each
# step's seconds (docs/setup.md has the figures).
# suite: full
# order: 55
set -u
. "$(dirname "$0")/lib.sh"
. "$top/tests/minbase.sh"

release=${CHROOT_RELEASE:-trixie}
root=$out/$release

umount_all() {
	for m in dev/shm dev/pts proc sys; do
		if mountpoint -q "$root/$m" 2>/dev/null; then
			umount "$root/$m" 2>/dev/null || umount -l "$root/$m"
		fi
	done
}

cleanup() {
	umount_all
	if [ -z "${CHROOT_KEEP:-}" ] && [ -d "$root" ]; then
		# Nothing mounted below: removing cannot reach the host.
		if grep -q " $root/" /proc/mounts; then
			say "# $release: something is still mounted below $root: leaving it"
		else
			rm -rf "$root"
		fi
	fi
}
at_exit cleanup

in_root() { # CMD...: a login-like shell in the chroot
	chroot "$root" env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		LANG=C.UTF-8 TERM=dumb "$@"
}

step() { # NAME CMD...: run, print its seconds, keep its log
	st_name=$1
	shift
	st_start=$(date +%s)
	"$@" > "$out/$release-$st_name.log" 2>&1
	st_rc=$?
	say "# $release: $st_name: exit $st_rc, $(($(date +%s) - st_start)) s"
	if [ "$st_rc" != 0 ]; then
		tail -n 30 "$out/$release-$st_name.log" >&2
	fi
	return "$st_rc"
}

test_fresh_debian_make_scale_test() {
	if [ "$(id -u)" != 0 ]; then skip "needs root (chroot, mount)"; return 0; fi
	if ! command -v debootstrap > /dev/null 2>&1; then
		skip "needs debootstrap (make deps-test)"
		return 0
	fi
	if ! git -C "$top" rev-parse --git-dir > /dev/null 2>&1; then
		skip "not a git tree: nothing to clone"
		return 0
	fi
	[ -n "$(git -C "$top" status --porcelain --untracked-files=no)" ] &&
		say "# $release: the tree has changes not committed: the clone is of HEAD, without them"
	rm -rf "$root"
	# A pristine minbase, kept as a sealed tarball between runs (CHROOT_CACHE;
	# tests/minbase.sh): the same bytes debootstrap leaves, without its minute
	# of downloads, and the same tarball as deb-chroot's (one debootstrap of
	# trixie for both, the second suite waiting for the first's).
	minbase_cache "${CHROOT_CACHE:-${SCALETEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/scaletest}/chroot}"
	base=$out/$release-minbase.tar
	step base minbase "$release" "$base" http://deb.debian.org/debian "$out/$release-debootstrap.log" ||
		{ fail "debootstrap $release failed (see $out/$release-debootstrap.log)"; return 0; }
	say "# $release: the base system: $(cat "$base.from")"
	mkdir -p "$root"
	step unpack tar -xpf "$base" -C "$root" ||
		{ fail "cannot unpack '$base'"; return 0; }
	rm -f "$base"
	checked
	# No service starts inside; name resolution as the host's.
	printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
	chmod +x "$root/usr/sbin/policy-rc.d"
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	mkdir -p "$root/dev/pts" "$root/dev/shm"
	mount -t proc proc "$root/proc" &&
		mount -t sysfs -o ro sysfs "$root/sys" &&
		mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts" &&
		mount -t tmpfs tmpfs "$root/dev/shm" ||
		{ fail "cannot mount /proc, /dev/pts, /dev/shm in the chroot"; return 0; }
	check "the chroot has no /dev/kvm: QEMU runs under TCG there" test ! -e "$root/dev/kvm"
	# The README's set-up, step by step.
	step apt-get in_root sh -c 'apt-get update -q && apt-get install -y -q git make sudo ca-certificates' ||
		{ fail "apt-get install git make sudo in the chroot failed"; return 0; }
	git clone -q "$top" "$root/root/scaletest" || { fail "git clone failed"; return 0; }
	checked
	step make-scale-test in_root sh -c 'cd /root/scaletest && make scale-test'
	rc=$?
	check "make scale-test passed on a fresh Debian $release (exit $rc; $out/$release-make-scale-test.log)" \
		test "$rc" = 0
	# The run's summary, for the record (docs/setup.md quotes it).
	sed -n '/^scaletest [0-9]*-[0-9]*-seed-i386-4000: /,/^  memory at insmod/p' \
		"$out/$release-make-scale-test.log" | sed "s/^/# $release: /" >&2
	check "the default run's summary says pass" \
		grep -q '^scaletest [0-9]*-[0-9]*-seed-i386-4000: pass$' "$out/$release-make-scale-test.log"
	check "its kernel is bookworm's 686-pae" \
		grep -q '^  kernel [0-9.]*-[0-9]*-686-pae i386, tcg' "$out/$release-make-scale-test.log"
	# Nothing of the chroot's apt was changed by make deps: no i386, no deb-src.
	check "make deps added no dpkg architecture" \
		test -z "$(in_root dpkg --print-foreign-architectures)"
	check "make deps wrote no sources" test ! -e "$root/etc/apt/sources.list.d/scaletest-src.sources"
	umount_all
	check "nothing stays mounted in the chroot" sh -c "! grep -q ' $root/' /proc/mounts"
}

run_tests "$@"
