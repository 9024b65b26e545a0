#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A private sshd on 127.0.0.1, so that the libvirt e2e tests can use a
# remote URI (qemu+ssh://) for real without a second machine: the
# harness then takes the remote path (kernel, initramfs and disks
# uploaded as volumes, console streams through the ssh tunnel).
#
#   sh tests/libvirt/sshd.sh start    keys and config in $DIR, sshd on
#                                     127.0.0.1:$PORT; prints the URI
#   sh tests/libvirt/sshd.sh stop     stops it and removes $DIR
#
# Nothing of the user's ssh set-up is used or changed: the host key, the
# client key and known_hosts live in $DIR, and libvirt runs ssh through
# $DIR/ssh (the URI's command= parameter), which points ssh at them.
# Needs root and Debian's openssh-server.
set -u

DIR=${SCALETEST_SSHD_DIR:-/run/scaletest-sshd}
PORT=${SCALETEST_SSHD_PORT:-2222}

say() { printf 'sshd.sh: %s\n' "$*" >&2; }

start() {
	[ -x /usr/sbin/sshd ] || { say "sshd not found: install openssh-server (make deps-test)"; exit 3; }
	[ "$(id -u)" = 0 ] || { say "needs root (qemu+ssh://root@.../system)"; exit 3; }
	stop
	mkdir -p "$DIR" /run/sshd && chmod 700 "$DIR" || exit 3
	ssh-keygen -q -t ed25519 -N '' -f "$DIR/host_key" &&
		ssh-keygen -q -t ed25519 -N '' -f "$DIR/client_key" || exit 3
	cp "$DIR/client_key.pub" "$DIR/authorized_keys"
	cat > "$DIR/sshd_config" <<EOC
Port $PORT
ListenAddress 127.0.0.1
HostKey $DIR/host_key
PidFile $DIR/sshd.pid
AuthorizedKeysFile $DIR/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
EOC
	printf '[127.0.0.1]:%s %s\n' "$PORT" "$(cut -d' ' -f1,2 "$DIR/host_key.pub")" > "$DIR/known_hosts"
	printf '#!/bin/sh\nexec ssh -o UserKnownHostsFile=%s/known_hosts -o BatchMode=yes -i %s/client_key "$@"\n' \
		"$DIR" "$DIR" > "$DIR/ssh"
	chmod +x "$DIR/ssh"
	/usr/sbin/sshd -f "$DIR/sshd_config" -E "$DIR/sshd.log" || {
		say "sshd did not start:"; cat "$DIR/sshd.log" >&2; exit 3; }
	i=0
	while ! "$DIR/ssh" -p "$PORT" root@127.0.0.1 true 2>/dev/null; do
		i=$((i + 1))
		[ $i -le 50 ] || { say "sshd does not answer on 127.0.0.1:$PORT"; exit 3; }
		sleep 0.2
	done
	echo "qemu+ssh://root@127.0.0.1:$PORT/system?command=$DIR/ssh"
}

stop() {
	[ -s "$DIR/sshd.pid" ] && kill "$(cat "$DIR/sshd.pid")" 2>/dev/null
	rm -rf "$DIR"
	return 0
}

case "${1:-}" in
start) start ;;
stop) stop ;;
*) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
