#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Start or stop the libvirt daemons for the tests and CI, without systemd.
#
#   sh tests/libvirt/daemons.sh start    virtlogd -d, libvirtd -d, wait for
#                                        the socket; prints "started" or
#                                        "running" (already up: left alone)
#                                        (make libvirt-start runs this)
#   sh tests/libvirt/daemons.sh start --open-kvm   the same, and /dev/kvm
#                                        opened to the group kvm (below)
#   sh tests/libvirt/daemons.sh stop     stops only what "start" started,
#                                        puts /dev/kvm back
#   sh tests/libvirt/daemons.sh restore-kvm   only the latter
#   sh tests/libvirt/daemons.sh status   exit 0 if libvirtd answers
#   sh tests/libvirt/daemons.sh start-second   a private second libvirtd
#                                        (own namespace and socket); prints
#                                        its URI
#   sh tests/libvirt/daemons.sh stop-second    stops it, removes its files
#
# "start" records in $STATE (default /run/scaletest-libvirt) which daemons
# it started, so "stop" never stops a libvirtd that somebody else runs.
# Needs root (qemu:///system) and Debian's libvirt-daemon-system.
set -u

STATE=${SCALETEST_LIBVIRT_STATE:-/run/scaletest-libvirt}
SOCK=/run/libvirt/libvirt-sock
URI=qemu:///system

say() { printf 'daemons.sh: %s\n' "$*" >&2; }

answers() {
	virsh -q -c "$URI" uri >/dev/null 2>&1
}

pid_of() { # pidfile
	[ -s "$1" ] && p=$(cat "$1") && kill -0 "$p" 2>/dev/null && echo "$p"
}

# libvirt checks /dev/kvm as its QEMU user (libvirt-qemu, in group kvm):
# where the device is 0600 root:root (no udev, as on a bare CI machine)
# while its probe found KVM, libvirt takes its cached QEMU capabilities
# for stale and probes QEMU again on every call, and a domain start takes
# about a minute.  Give /dev/kvm what udev gives it on Debian (group kvm,
# mode 0660) and record the old owner and mode for "stop" to put back; only
# when asked (--open-kvm: tests/e2e/libvirt.sh): "start" leaves the host as
# it is, and the harness says what to do when libvirt is that slow.
kvm_open() {
	[ -c /dev/kvm ] && getent group kvm >/dev/null 2>&1 || return 0
	was=$(stat -c "%g %a" /dev/kvm) || return 0
	case $was in
	"$(getent group kvm | cut -d: -f3) 660") return 0 ;;
	esac
	echo "$was" > "$STATE/kvm"
	chgrp kvm /dev/kvm && chmod 0660 /dev/kvm ||
		say "could not open /dev/kvm to the group kvm: libvirt may probe QEMU on every call"
}

kvm_restore() {
	[ -f "$STATE/kvm" ] || return 0
	read -r gid mode < "$STATE/kvm" && chgrp "$gid" /dev/kvm && chmod "$mode" /dev/kvm
	rm -f "$STATE/kvm"
}

start() {
	for tool in virtlogd libvirtd virsh; do
		command -v $tool >/dev/null 2>&1 || {
			say "$tool not found: install libvirt-daemon-system and libvirt-clients (make deps-libvirt)"
			exit 3
		}
	done
	[ "$(id -u)" = 0 ] || { say "qemu:///system needs root"; exit 3; }
	mkdir -p "$STATE"
	[ "$open_kvm" = 0 ] || kvm_open
	if answers; then
		echo running
		return 0
	fi
	if [ -z "$(pid_of /run/virtlogd.pid)" ]; then
		virtlogd -d || { say "virtlogd -d failed"; exit 3; }
		echo virtlogd >> "$STATE/started"
	fi
	if [ -z "$(pid_of /run/libvirtd.pid)" ]; then
		libvirtd -d || { say "libvirtd -d failed"; exit 3; }
		echo libvirtd >> "$STATE/started"
	fi
	i=0
	while ! answers; do
		i=$((i + 1))
		[ $i -le 100 ] || { say "libvirtd does not answer on $SOCK after 20 s"; exit 3; }
		sleep 0.2
	done
	echo started
}

stop() {
	kvm_restore
	[ -f "$STATE/started" ] || return 0
	for d in libvirtd virtlogd; do
		grep -qx $d "$STATE/started" || continue
		p=$(pid_of /run/$d.pid) || continue
		kill "$p"
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.2
			i=$((i + 1))
		done
	done
	rm -f "$STATE/started"
}


# A second, private libvirtd (for the tests of a lost connection and of
# the retry on another one): in its own mount namespace, with its own
# /etc/libvirt, /var/lib/libvirt, /var/cache/libvirt, /var/log/libvirt and
# /run/libvirt bound over from $SECOND, its socket in $SECOND, QEMU's
# output in files (no virtlogd) and no autostarted network.  Prints the URI.
SECOND=${SCALETEST_LIBVIRT_SECOND:-/run/scaletest-libvirt-2}
SECOND_URI="qemu:///system?socket=$SECOND/libvirt-sock"

start_second() {
	command -v unshare >/dev/null 2>&1 || { say "unshare not found (util-linux)"; exit 3; }
	[ "$(id -u)" = 0 ] || { say "a second libvirtd needs root"; exit 3; }
	if [ -n "$(pid_of "$SECOND/libvirtd.pid")" ]; then
		echo "$SECOND_URI"
		return 0
	fi
	rm -rf "$SECOND"
	mkdir -p "$SECOND/etc" "$SECOND/lib" "$SECOND/cache" "$SECOND/log" "$SECOND/run"
	cp -a /etc/libvirt/. "$SECOND/etc/"
	rm -rf "$SECOND/etc/qemu/networks/autostart"
	echo 'stdio_handler = "file"' >> "$SECOND/etc/qemu.conf"
	printf 'unix_sock_dir = "%s"\n' "$SECOND" > "$SECOND/etc/libvirtd.conf"
	unshare -m --propagation private sh -c '
		for d in etc:/etc/libvirt lib:/var/lib/libvirt cache:/var/cache/libvirt \
			 log:/var/log/libvirt run:/run/libvirt; do
			mkdir -p "${d#*:}" && mount --bind "$1/${d%%:*}" "${d#*:}" || exit 1
		done
		exec libvirtd -d -p "$1/libvirtd.pid"' sh "$SECOND" ||
		{ say "the second libvirtd did not start"; exit 3; }
	i=0
	while ! virsh -q -c "$SECOND_URI" uri >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -le 100 ] || { say "the second libvirtd does not answer on $SECOND after 20 s"; exit 3; }
		sleep 0.2
	done
	echo "$SECOND_URI"
}

stop_second() {
	p=$(pid_of "$SECOND/libvirtd.pid") && kill "$p"
	i=0
	while [ -n "${p:-}" ] && kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	rm -rf "$SECOND"
}

open_kvm=0
[ "${2:-}" = --open-kvm ] && open_kvm=1
case "${1:-}" in
start) start ;;
stop) stop ;;
restore-kvm) kvm_restore ;;
status) answers ;;
start-second) start_second ;;
stop-second) stop_second ;;
*) echo "usage: $0 start [--open-kvm]|stop|restore-kvm|status|start-second|stop-second" >&2; exit 2 ;;
esac
