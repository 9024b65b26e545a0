#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# How long `make deps` takes on a fresh machine, per profile: each profile
# is installed by tools/deps.sh in its own copy of a fresh Debian bookworm
# (debootstrap --variant=minbase, plus git, make, sudo and ca-certificates:
# the README's first step), with the network and mirror of this machine.
# The figures of docs/setup.md's profile table.
#
#   sh tools/deps-time.sh [PROFILE...]      default: "default full"
#
# Needs root and debootstrap; the base system is kept in $BASE between
# calls (about 350 MB; delete it when done).  Services are not started in
# the chroots (policy-rc.d).  Prints one line per profile: its exit
# status, seconds, and the packages installed before and after.
set -u

BASE=${DEPS_TIME_BASE:-/var/tmp/scaletest-deps-base}
top=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" = 0 ] || { echo "deps-time.sh: needs root (chroot)" >&2; exit 3; }
command -v debootstrap >/dev/null 2>&1 || { echo "deps-time.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 3; }
if [ ! -x "$BASE/bin/sh" ]; then
	debootstrap --variant=minbase --include=git,make,sudo,ca-certificates \
		bookworm "$BASE" http://deb.debian.org/debian >&2 || exit 3
fi
base_n=$(chroot "$BASE" dpkg-query -f '.\n' -W | wc -l)
[ $# -gt 0 ] || set -- default full
for p in "$@"; do
	c=$BASE.$p
	rm -rf "$c"
	cp -a "$BASE" "$c"
	printf '#!/bin/sh\nexit 101\n' > "$c/usr/sbin/policy-rc.d"
	chmod +x "$c/usr/sbin/policy-rc.d"
	cp /etc/resolv.conf "$c/etc/resolv.conf"
	mkdir -p "$c/src"
	(cd "$top" && git archive HEAD) | tar -x -C "$c/src"
	mount -t proc proc "$c/proc"
	s=$(date +%s)
	chroot "$c" sh -c "cd /src && sh tools/deps.sh install $p" > "$c.log" 2>&1
	rc=$?
	e=$(date +%s)
	umount "$c/proc"
	n=$(chroot "$c" dpkg-query -f '.\n' -W | wc -l)
	echo "$p: exit $rc, $((e - s)) s, packages $base_n -> $n (log: $c.log)"
	rm -rf "$c"
done
