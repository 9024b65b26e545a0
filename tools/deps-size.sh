#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# How many packages, and how many MB, each profile of tools/deps.sh pulls
# onto a bare Debian bookworm: the figures of docs/setup.md's profile table.
#
#   sh tools/deps-size.sh          one line per profile (needs apt's lists:
#                                  apt-get update once; installs nothing;
#                                  about 3 minutes)
#   DEPS_SIZE_PROFILES="default kbuild" sh tools/deps-size.sh   only those
#
# Method: apt-get's own resolver, simulated (-s) against an empty dpkg
# status file (-o Dir::State::status=EMPTY), so that it resolves as on a
# machine with nothing installed; recommends off, as deps.sh installs.
# The bare machine is Debian's "Priority: required" set and apt (what
# debootstrap --variant=minbase and the debian:bookworm image hold), plus
# git, make and sudo (the README's first step).  A profile's figure is
# what installing its packages on top of that adds: the number of
# packages and the sum of their Size (download) and Installed-Size fields
# in apt's lists.  Nothing is downloaded or installed.
set -eu

cd "$(dirname "$0")/.."
tmp=$(mktemp -d "${TMPDIR:-/tmp}/deps-size.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
: > "$tmp/status"
apt-cache dumpavail > "$tmp/avail"

# The native architecture's required packages, and apt.
arch=$(dpkg --print-architecture)
base=$(awk -v arch="$arch" '
	/^Package:/ { p = $2 } /^Architecture:/ { a = $2 } /^Priority: required/ { r = 1 }
	/^$/ { if (r && (a == arch || a == "all")) print p; r = 0 }' "$tmp/avail" | sort -u)
base="$base apt git make sudo"

# simulate NAME PACKAGES...: "name version arch" of each package apt
# would install, sorted, into $tmp/NAME.
simulate() {
	name=$1
	shift
	# shellcheck disable=SC2068
	apt-get -s -qq -o Dir::State::status="$tmp/status" \
		-o APT::Install-Recommends=false -o APT::Install-Suggests=false \
		install "$@" 2>"$tmp/$name.err" |
		sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*\[\([^]]*\)\]).*/\1 \2 \3/p' | sort > "$tmp/$name" ||
		true
	[ -s "$tmp/$name" ] || { echo "deps-size: apt-get -s failed for $name:" >&2; cat "$tmp/$name.err" >&2; exit 1; }
}

# sizes FILE: "packages download_MB installed_MB" of the packages listed.
sizes() {
	awk '
	NR == FNR { want[$1 " " $2 " " $3] = 1; n++; next }
	/^Package:/ { p = $2 } /^Version:/ { v = $2 } /^Architecture:/ { a = $2 }
	/^Size:/ { s = $2 } /^Installed-Size:/ { i = $2 }
	/^$/ {
		k = p " " v " " a
		if ((k in want) && !(k in done)) { done[k] = 1; dl += s; inst += i * 1024 }
		p = v = a = ""; s = i = 0
	}
	END {
		for (k in want) if (!(k in done)) { printf "deps-size: no size for %s\n", k > "/dev/stderr"; exit 1 }
		printf "%d %.0f %.0f\n", n, dl / 1e6, inst / 1e6
	}' "$1" "$tmp/avail"
}

# shellcheck disable=SC2086
simulate base $base
printf '%-8s %8s %12s %13s\n' profile packages "download MB" "installed MB"
for p in ${DEPS_SIZE_PROFILES:-default kbuild libvirt test fuzz html full}; do
	if [ "$p" = default ]; then pk=$(sh tools/deps.sh list); else pk=$(sh tools/deps.sh list "$p"); fi
	# shellcheck disable=SC2086
	simulate "$p" $base $pk
	comm -13 "$tmp/base" "$tmp/$p" > "$tmp/$p.added"
	set -- $(sizes "$tmp/$p.added")
	printf '%-8s %8s %12s %13s\n' "$p" "$1" "$2" "$3"
done
