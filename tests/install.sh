#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make install, as a packager and a user meet it (no QEMU; tests/e2e/
# install.sh boots the installed copy):
#
#   1. make install DESTDIR=TMP PREFIX=/usr puts exactly the binary, the
#      data (initramfs/, kernel-configs/, scenarios/: every file of the
#      tree's), the manual pages and the bash completion in their FHS
#      places, and rebuilds nothing;
#   2. from an unrelated directory, the installed binary runs the installed
#      smoke scenario with --dry-run: exit 0, the installed paths said (the
#      scenario, the guest's init under TMP/usr/share/scaletest), nothing
#      written where it ran;
#   3. scaletest keys and help run work from there, help run on a terminal
#      is the installed manual page, man -l renders every installed page,
#      the completion completes commands and options;
#   4. the install moved elsewhere (another DESTDIR) still finds its data;
#      the tree's own binary still uses the tree;
#   5. make uninstall removes every file install put there;
#   6. all or nothing: a DESTDIR that is a file, one this user may not
#      write, or a PREFIX with one folder not writable (usr/bin is, usr/
#      share is not): one message naming it, exit non-zero, nothing
#      written (the old install put the binary in and failed after it);
#      make install as another user than the build's (sudo make install:
#      git refuses root a repository another user owns) rebuilds nothing
#      and installs the build's version, not "unknown".
#
#   sh tests/install.sh              (make check runs it)
#   sh tests/install.sh 'help_*'     some tests (--list names them)
# suite: quick
set -u

. "$(dirname "$0")/lib.sh"
make=${MAKE:-make}
unset SCALETEST_ROOT
export SCALETEST_CACHE="$tmp/cache"
dest=$tmp/dest
inst=$dest/usr

# install_tree: the tree built, then installed afresh into $dest
# (make install DESTDIR=$dest PREFIX=/usr, its output in $tmp/make.log);
# 1 and a failure said if either fails.
install_tree() {
	rm -rf "$dest"
	if ! "$make" -s -C "$top" > "$tmp/make.log" 2>&1; then
		fail "make (the tree's build) failed"
		sed 's/^/    /' "$tmp/make.log" >&2
		return 1
	fi
	if ! "$make" --no-print-directory -C "$top" install DESTDIR="$dest" PREFIX=/usr > "$tmp/make.log" 2>&1; then
		fail "make install failed"
		sed 's/^/    /' "$tmp/make.log" >&2
		return 1
	fi
}

# installed: the install in $dest, made if it is not there.
installed() {
	[ -x "$inst/bin/scaletest" ] || install_tree
}

# elsewhere: into a new empty directory unrelated to the tree.
elsewhere() {
	rm -rf "$tmp/elsewhere"
	mkdir "$tmp/elsewhere" && cd "$tmp/elsewhere"
}

# 1: what install puts where.  (The tree is built first: install must then
# build nothing, whatever PREFIX and DESTDIR say.)
test_install_puts_files() {
	checked
	install_tree || return
	checked
	if grep -E '^(cc|ar) ' "$tmp/make.log" > "$tmp/rebuilt"; then
		fail "make install rebuilt something: $(head -1 "$tmp/rebuilt")"
	fi
	(cd "$top" && find initramfs kernel-configs scenarios -type f ! -name '*~' ! -name '.*' |
		sed 's|^|usr/share/scaletest/|'
	 for p in docs/man/*.1; do echo "usr/share/man/man1/${p##*/}"; done
	 for p in docs/man/*.5; do echo "usr/share/man/man5/${p##*/}"; done
	 echo usr/share/scaletest/result.schema.json
	 echo usr/share/doc/scaletest/README.md
	 for p in docs/*.md; do echo "usr/share/doc/scaletest/$p"; done
	 echo usr/bin/scaletest
	 echo usr/share/bash-completion/completions/scaletest
	 echo usr/share/zsh/site-functions/_scaletest
	 echo usr/share/fish/vendor_completions.d/scaletest.fish) | sort > "$tmp/want"
	(cd "$dest" && find . -type f | sed 's|^\./||' | sort) > "$tmp/got"
	checked
	if ! diff -u "$tmp/want" "$tmp/got" >&2; then
		fail "make install put other files than the binary, the data, the pages, the docs and the completions"
	fi
	check "$inst/bin/scaletest is not executable" [ -x "$inst/bin/scaletest" ]
	check "the installed init differs from the tree's" \
		cmp -s "$top/initramfs/init" "$inst/share/scaletest/initramfs/init"
}

# 2: a dry run of the installed smoke scenario, from elsewhere.
test_dry_run_from_elsewhere() {
	installed || return
	elsewhere || return
	checked
	"$inst/bin/scaletest" run "$inst/share/scaletest/scenarios/smoke" --dry-run > "$tmp/dry" 2>&1
	rc=$?
	if [ $rc != 0 ]; then
		fail "installed run --dry-run: exit $rc"
		sed 's/^/    /' "$tmp/dry" >&2
	fi
	check "the dry run does not name the installed init ($inst/share/scaletest/initramfs/init)" \
		grep -qF "$inst/share/scaletest/initramfs/init" "$tmp/dry"
	check "the dry run does not name the installed scenario's lines" \
		grep -qF "# $inst/share/scaletest/scenarios/smoke:" "$tmp/dry"
	checked
	if grep -F "$top" "$tmp/dry" > "$tmp/tree"; then
		fail "the installed binary's dry run names the source tree: $(head -1 "$tmp/tree")"
	fi
	check "the dry run wrote into the directory it ran in: $(ls -A "$tmp/elsewhere")" \
		none_in "$tmp/elsewhere"
}

# 3: keys, help, the pages, the completion, from elsewhere.
test_keys() {
	installed || return
	elsewhere || return
	checked
	"$inst/bin/scaletest" keys > "$tmp/keys" && head -1 "$tmp/keys" | grep -q '^| key | type |' ||
		fail "installed scaletest keys"
}

test_help_off_terminal_is_the_text() {
	installed || return
	elsewhere || return
	checked
	"$inst/bin/scaletest" help run > "$tmp/help" && "$top/bin/scaletest" run -h | cmp -s - "$tmp/help" ||
		fail "installed scaletest help run (off a terminal) is not the usage text"
}

test_help_on_terminal_is_the_page() {
	installed || return
	elsewhere || return
	MANPAGER=cat PAGER=cat MANWIDTH=80 script -qec "'$inst/bin/scaletest' help run" /dev/null < /dev/null |
		tr -d '\r' | sed "s/$(printf '\033')\\[[0-9;]*m//g" > "$tmp/man" 2>&1
	check "installed scaletest help run on a terminal: no manual page" grep -q '^SCALETEST-RUN(1)' "$tmp/man"
}

test_man_renders_installed_pages() {
	installed || return
	for p in "$inst"/share/man/man*/*; do
		checked
		if ! MANWIDTH=80 man -l "$p" > "$tmp/page" 2> "$tmp/err" || [ -s "$tmp/err" ] || [ ! -s "$tmp/page" ]; then
			fail "man -l ${p#"$dest"}"
			sed 's/^/    /' "$tmp/err" >&2
		fi
	done
}

test_completion() {
	if ! command -v bash > /dev/null 2>&1; then
		skip "no bash"
		return
	fi
	installed || return
	got=$(PATH="$inst/bin:$PATH" bash -c '
		. "$1"
		COMP_WORDS=(scaletest ru); COMP_CWORD=1; _scaletest; printf "%s " "${COMPREPLY[@]}"
		COMP_WORDS=(scaletest report --for); COMP_CWORD=2; _scaletest; printf "%s " "${COMPREPLY[@]}"
	' sh "$inst/share/bash-completion/completions/scaletest")
	check "the completion completes 'ru' and 'report --for' as '$got'" [ "$got" = "run --format " ]
}

# 4: moved elsewhere, and the tree's own binary.
test_moved_install_finds_its_data() {
	installed || return
	rm -rf "$tmp/moved"
	mkdir -p "$tmp/moved"
	cp -a "$inst" "$tmp/moved/"
	checked
	"$tmp/moved/usr/bin/scaletest" run "$tmp/moved/usr/share/scaletest/scenarios/smoke" --dry-run > "$tmp/dry" 2>&1 &&
		grep -qF "$tmp/moved/usr/share/scaletest/initramfs/init" "$tmp/dry" ||
		fail "a moved install does not find its data where it is now"
	rm -rf "$tmp/moved"
}

test_tree_binary_uses_the_tree() {
	cd "$top" || return
	checked
	"$top/bin/scaletest" run scenarios/smoke --dry-run > "$tmp/dry" 2>&1 &&
		grep -qF "$top/initramfs/init" "$tmp/dry" || fail "the tree's binary does not use the tree's initramfs/"
}

# 5: uninstall.
test_uninstall_removes_everything() {
	installed || return
	checked
	if ! "$make" -s -C "$top" uninstall DESTDIR="$dest" PREFIX=/usr > "$tmp/make.log" 2>&1; then
		fail "make uninstall failed"
		sed 's/^/    /' "$tmp/make.log" >&2
	fi
	left=$(find "$dest" -type f | head -5)
	check "make uninstall left: $left" [ -z "$left" ]
}

# 6: all or nothing.
# as_user CMD...: CMD as a user who is not root (nobody, when the suite
# runs as root, whose writes a folder's mode stops).
as_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups "$@"
	else
		"$@"
	fi
}

# user_dir DIR...: made, writable by as_user's user.
user_dir() {
	mkdir -p "$@" || return 1
	[ "$(id -u)" != 0 ] || chown "$(id -u nobody):$(id -g nobody)" "$@"
}

# refused WHAT PATTERN DEST MAKEARGS...: make install (as_user) exits
# non-zero saying PATTERN, compiles nothing, and DEST gains no file.
refused() {
	what=$1 pat=$2 d=$3
	shift 3
	find "$d" 2>/dev/null | sort > "$tmp/before"
	as_user "$make" --no-print-directory -C "$top" install "$@" > "$tmp/make.log" 2>&1
	rc=$?
	checked
	[ $rc != 0 ] || fail "$what: make install exit 0"
	check "$what: the message does not say '$pat'" grep -q -- "$pat" "$tmp/make.log"
	checked
	if grep -E '^(cc|ar) ' "$tmp/make.log" > /dev/null; then
		fail "$what: make install compiled"
	fi
	find "$d" 2>/dev/null | sort > "$tmp/after"
	checked
	if ! cmp -s "$tmp/before" "$tmp/after"; then
		fail "$what: make install wrote: $(comm -13 "$tmp/before" "$tmp/after" | head -3 | tr '\n' ' ')"
	fi
}

# A folder nobody may enter is no place for these tests: the suite's own
# is opened for the other user to traverse.
# (As root, nobody must be able to read the tree: not so in a copy inside
# a private folder, as tests/deb.sh's package build; skipped there.)
open_tmp() {
	if ! as_user test -r "$top/Makefile"; then
		skip "the tree is not readable by the user who is not root (nobody)"
		return 1
	fi
	# (a test before made folders of it read-only: writable again to go)
	[ ! -d "$tmp/u" ] || chmod -R u+w "$tmp/u"
	chmod 755 "$tmp" && rm -rf "$tmp/u" && user_dir "$tmp/u" && return 0
	fail "cannot make a fresh $tmp/u"
	return 1
}

test_destdir_is_a_file() {
	installed || return
	open_tmp || return
	printf 'not a folder\n' > "$tmp/u/dest"
	[ "$(id -u)" != 0 ] || chown nobody "$tmp/u/dest"
	refused "DESTDIR a file" "'$tmp/u/dest' is not a folder" "$tmp/u" DESTDIR="$tmp/u/dest" PREFIX=/usr
	check "the file DESTDIR named was changed" [ "$(cat "$tmp/u/dest")" = "not a folder" ]
}

test_destdir_not_writable() {
	installed || return
	open_tmp || return
	mkdir "$tmp/u/ro" && chmod 555 "$tmp/u/ro"
	refused "DESTDIR not writable" "cannot write to '$tmp/u/ro'" "$tmp/u/ro" DESTDIR="$tmp/u/ro" PREFIX=/usr
}

test_prefix_half_writable() {
	installed || return
	open_tmp || return
	user_dir "$tmp/u/half/usr/bin" "$tmp/u/half/usr/share/man"
	chmod 555 "$tmp/u/half/usr/share"
	[ "$(id -u)" != 0 ] || chown root "$tmp/u/half/usr/share"
	refused "usr/share not writable" "cannot write to '$tmp/u/half/usr/share'" "$tmp/u/half" \
		DESTDIR="$tmp/u/half" PREFIX=/usr
	check "the binary went in, and nothing else could" [ ! -e "$tmp/u/half/usr/bin/scaletest" ]
}

test_destdir_with_a_space() {
	installed || return
	open_tmp || return
	refused "DESTDIR with a space" "'$tmp/u/a b' holds a space" "$tmp/u" DESTDIR="$tmp/u/a b" PREFIX=/usr
}

# sudo make install: the build's user builds, another installs, for whom
# git describe fails (GIT_DIR names no repository, as git refuses root
# a repository it does not own).
test_install_as_another_user_keeps_the_version() {
	installed || return
	want=$("$top/bin/scaletest" --version)
	rm -rf "$tmp/sudo"
	GIT_DIR=$tmp/no-repository "$make" --no-print-directory -C "$top" install DESTDIR="$tmp/sudo" PREFIX=/usr \
		> "$tmp/make.log" 2>&1
	check "make install with git refusing the tree failed" [ $? = 0 ]
	checked
	if grep -E '^(cc|ar) ' "$tmp/make.log" > /dev/null; then
		fail "make install compiled again: $(grep -E '^(cc|ar) ' "$tmp/make.log" | head -1 | cut -c1-100)"
	fi
	got=$("$tmp/sudo/usr/bin/scaletest" --version 2>&1)
	check "the installed binary says '$got', the build '$want'" [ "$got" = "$want" ]
	got=$("$top/bin/scaletest" --version)
	check "the tree's binary says '$got' after it, not '$want'" [ "$got" = "$want" ]
}

run_tests "$@"
