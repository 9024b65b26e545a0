#!/bin/sh
# Start or stop the libvirt daemons for the tests and CI, without systemd.
#
#   sh tests/libvirt/daemons.sh start    virtlogd -d, libvirtd -d, wait for
#                                        the socket; prints "started" or
#                                        "running" (already up: left alone)
#   sh tests/libvirt/daemons.sh stop     stops only what "start" started
#   sh tests/libvirt/daemons.sh status   exit 0 if libvirtd answers
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

start() {
	for tool in virtlogd libvirtd virsh; do
		command -v $tool >/dev/null 2>&1 || {
			say "$tool not found: install libvirt-daemon-system and libvirt-clients (make deps-libvirt)"
			exit 3
		}
	done
	[ "$(id -u)" = 0 ] || { say "qemu:///system needs root"; exit 3; }
	if answers; then
		echo running
		return 0
	fi
	mkdir -p "$STATE"
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

case "${1:-}" in
start) start ;;
stop) stop ;;
status) answers ;;
*) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
