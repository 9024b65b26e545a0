#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The minimal Debian base systems' cache (tests/minbase.sh), which
# tests/deb-chroot.sh and tests/e2e/trixie.sh share, with a stub
# debootstrap (it records each call, takes a second, and leaves a tree
# naming its release and its moment): two suites wanting one release at
# once debootstrap it once; a tarball that fails its seal, is a week old,
# or is a planted link is debootstrap'd again, never used or followed; a
# folder others may write is no cache; a killed writer's leftovers go.
#
#   sh tests/minbase-cache.sh [NAME...]
#
# Needs flock (util-linux); no root, no network.
# suite: full
# order: 20
set -u
. "$(dirname "$0")/lib.sh"
. "$top/tests/minbase.sh"
need flock sha256sum tar -- "util-linux, coreutils, tar"

work=$tmp/work
mkdir -m 700 "$work"
minbase_trusted "$work" ||
	skip_all "'$tmp' lies in a folder others may change: no place for a cache here"

mkdir "$tmp/bin"
cat > "$tmp/bin/debootstrap" <<'EOF'
#!/bin/sh
# debootstrap --variant=minbase RELEASE DIR MIRROR
echo "$2" >> "$STUB_CALLS"
sleep 1
mkdir -p "$3/etc" && printf '%s %s\n' "$2" "$(date +%s%N)" > "$3/etc/stub-release"
EOF
chmod +x "$tmp/bin/debootstrap"
PATH=$tmp/bin:$PATH
STUB_CALLS=$tmp/calls
export STUB_CALLS

fresh() { # a new empty cache as $c, no calls counted
	c=$work/$t
	rm -rf "$c" "$tmp/$t"
	mkdir -p "$tmp/$t"
	: > "$STUB_CALLS"
	minbase_cache "$c"
}

calls() { wc -l < "$STUB_CALLS"; }

get() { # NAME: minbase trixie into $tmp/$t/NAME.tar
	minbase trixie "$tmp/$t/$1.tar" http://deb.example "$tmp/$t/$1.log"
}

test_two_at_once_one_debootstrap() {
	fresh
	check "the cache is used" [ "$minbase_dir" = "$c" ]
	( get a ) &
	pa=$!
	sleep 0.2
	( get b ) &
	pb=$!
	wait $pa
	ra=$?
	wait $pb
	rb=$?
	check "both have a base (exit $ra and $rb)" [ "$ra$rb" = 00 ]
	check "one debootstrap for the two (got $(calls))" [ "$(calls)" = 1 ]
	check "the same tarball, byte for byte" cmp "$tmp/$t/a.tar" "$tmp/$t/b.tar"
	check "the first debootstrap'd it" grep -q '^debootstrap [0-9]* s$' "$tmp/$t/a.tar.from"
	check "the second took it from the cache" grep -qx cached "$tmp/$t/b.tar.from"
	check "the cache's tarball is sealed" sh -c "[ \"\$(sha256sum < '$c/trixie-minbase.tar' | cut -d' ' -f1)\" = \"\$(cat '$c/.trixie-minbase.tar.sha256')\" ]"
	check "a third run uses it too" get c
	check "without a debootstrap" [ "$(calls)" = 1 ]
	check "the same bytes again" cmp "$tmp/$t/a.tar" "$tmp/$t/c.tar"
}

test_damaged_tarball_not_used() {
	fresh
	get a
	m=$(stat -c %Y "$c/trixie-minbase.tar")
	printf 'x' >> "$c/trixie-minbase.tar"
	touch -d "@$m" "$c/trixie-minbase.tar"
	check "a base despite the damage" get b
	check "debootstrap'd again (got $(calls))" [ "$(calls)" = 2 ]
	check "not the damaged one" grep -q '^debootstrap' "$tmp/$t/b.tar.from"
	check "the cache is whole again" sh -c "[ \"\$(sha256sum < '$c/trixie-minbase.tar' | cut -d' ' -f1)\" = \"\$(cat '$c/.trixie-minbase.tar.sha256')\" ]"
	printf 'garbled\n' > "$c/.trixie-minbase.tar.sha256"
	get c
	check "a garbled seal: debootstrap'd again (got $(calls))" [ "$(calls)" = 3 ]
	rm -f "$c/.trixie-minbase.tar.sha256"
	get d
	check "no seal: debootstrap'd again (got $(calls))" [ "$(calls)" = 4 ]
}

test_week_old_tarball_not_used() {
	fresh
	get a
	touch -d '8 days ago' "$c/trixie-minbase.tar"
	get b
	check "debootstrap'd again (got $(calls))" [ "$(calls)" = 2 ]
	check "the new one kept" [ -n "$(find "$c/trixie-minbase.tar" -mtime -1)" ]
	touch -d '6 days ago' "$c/trixie-minbase.tar"
	get c
	check "six days old: used (got $(calls))" [ "$(calls)" = 2 ]
}

test_planted_link_not_followed() {
	fresh
	get a
	cp "$c/trixie-minbase.tar" "$tmp/$t/elsewhere.tar"
	sha256sum < "$tmp/$t/elsewhere.tar" > "$tmp/$t/elsewhere.sum"
	rm "$c/trixie-minbase.tar"
	ln -s "$tmp/$t/elsewhere.tar" "$c/trixie-minbase.tar"
	get b
	check "a link in the tarball's place is not used (got $(calls) debootstraps)" [ "$(calls)" = 2 ]
	check "it is a file again" sh -c "[ -f '$c/trixie-minbase.tar' ] && [ ! -L '$c/trixie-minbase.tar' ]"
	check "the link's target untouched" sh -c "sha256sum < '$tmp/$t/elsewhere.tar' | cmp -s - '$tmp/$t/elsewhere.sum'"
	rm -f "$c/.trixie-minbase.lock"
	ln -s "$tmp/$t/lock-target" "$c/.trixie-minbase.lock"
	check "a linked lock: a base all the same" get c
	check "the lock link not followed" test ! -e "$tmp/$t/lock-target"
}

test_untrusted_folder_no_cache() {
	fresh
	mkdir -p "$work/shared/cache"
	chmod 777 "$work/shared"
	minbase_cache "$work/shared/cache" 2> "$tmp/$t/msg"
	check "a folder above that others may write: no cache" [ -z "$minbase_dir" ]
	check "and it says so" grep -q "the cache '$work/shared/cache' is not this user's alone" "$tmp/$t/msg"
	chmod 755 "$work/shared"
	chmod 775 "$work/shared/cache"
	minbase_cache "$work/shared/cache" 2> /dev/null
	check "the folder itself group-writable: no cache" [ -z "$minbase_dir" ]
	ln -s "$work/shared/cache" "$work/link"
	chmod 700 "$work/shared/cache"
	minbase_cache "$work/link" 2> /dev/null
	check "a link as the folder: no cache" [ -z "$minbase_dir" ]
	minbase_cache "$work/shared/cache"
	check "the same folder, its own and 700: a cache" [ "$minbase_dir" = "$work/shared/cache" ]
	chmod 1777 "$work/shared"
	minbase_cache "$work/shared/cache"
	check "a sticky folder above, as /tmp: a cache" [ "$minbase_dir" = "$work/shared/cache" ]
	chmod 1777 "$work/shared/cache"
	minbase_cache "$work/shared/cache" 2> /dev/null
	check "the folder itself sticky and all may write it: no cache" [ -z "$minbase_dir" ]
	chmod 700 "$work/shared/cache"
	chmod 755 "$work/shared"
	minbase_dir=
	get a
	check "no cache: debootstrap'd all the same" grep -q '^debootstrap' "$tmp/$t/a.tar.from"
	check "and nothing written there" none_in "$work/shared/cache"
}

test_killed_writer_leftovers_go() {
	fresh
	: > "$c/.trixie-minbase.new-tar.Ab12Cd"
	: > "$c/.trixie-minbase.new-seal.Ab12Cd"
	get a
	check "a writer's leftovers removed" none_in "$c" -name '.trixie-minbase.new-*'
	check "the tarball kept" test -s "$c/trixie-minbase.tar"
}

test_bad_release_refused() {
	fresh
	minbase '../x' "$tmp/$t/a.tar" http://deb.example "$tmp/$t/a.log" 2> "$tmp/$t/msg"
	check "not a release name: refused" [ $? = 1 ]
	check "and said" grep -q "'../x' is not a release name" "$tmp/$t/msg"
	check "no debootstrap" [ "$(calls)" = 0 ]
}

run_tests "$@"
