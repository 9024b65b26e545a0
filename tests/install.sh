#!/bin/sh
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
#   5. make uninstall removes every file install put there.
#
#   sh tests/install.sh        (make check runs it)
# suite: quick
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scaletest-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0
nfail=0
make=${MAKE:-make}
unset SCALETEST_ROOT
export SCALETEST_CACHE="$tmp/cache"

fail() {
	echo "  FAIL: $*" >&2
	nfail=$((nfail + 1))
}

dest=$tmp/dest
inst=$dest/usr
# 1: what install puts where.  (The tree is built first: install must then
# build nothing, whatever PREFIX and DESTDIR say.)
"$make" -s -C "$top" > "$tmp/make.log" 2>&1 || { sed 's/^/    /' "$tmp/make.log" >&2; exit 1; }
n=$((n + 1))
if ! "$make" --no-print-directory -C "$top" install DESTDIR="$dest" PREFIX=/usr > "$tmp/make.log" 2>&1; then
	fail "make install failed"
	sed 's/^/    /' "$tmp/make.log" >&2
	exit 1
fi
n=$((n + 1))
grep -E '^(cc|ar) ' "$tmp/make.log" > /dev/null && fail "make install rebuilt something: $(grep -E '^(cc|ar) ' "$tmp/make.log" | head -1)"
(cd "$top" && find initramfs kernel-configs scenarios -type f ! -name '*~' ! -name '.*' |
	sed 's|^|usr/share/scaletest/|'
 for p in docs/man/*.1; do echo "usr/share/man/man1/${p##*/}"; done
 for p in docs/man/*.5; do echo "usr/share/man/man5/${p##*/}"; done
 echo usr/bin/scaletest
 echo usr/share/bash-completion/completions/scaletest) | sort > "$tmp/want"
(cd "$dest" && find . -type f | sed 's|^\./||' | sort) > "$tmp/got"
n=$((n + 1))
if ! diff -u "$tmp/want" "$tmp/got" >&2; then
	fail "make install put other files than the binary, the data, the pages and the completion"
fi
n=$((n + 1))
[ -x "$inst/bin/scaletest" ] || fail "$inst/bin/scaletest is not executable"
n=$((n + 1))
cmp -s "$top/initramfs/init" "$inst/share/scaletest/initramfs/init" || fail "the installed init differs from the tree's"

# 2: a dry run of the installed smoke scenario, from elsewhere.
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere" || exit 1
n=$((n + 1))
"$inst/bin/scaletest" run "$inst/share/scaletest/scenarios/smoke" --dry-run > "$tmp/dry" 2>&1
rc=$?
if [ $rc != 0 ]; then
	fail "installed run --dry-run: exit $rc"
	sed 's/^/    /' "$tmp/dry" >&2
fi
n=$((n + 1))
grep -qF "$inst/share/scaletest/initramfs/init" "$tmp/dry" ||
	fail "the dry run does not name the installed init ($inst/share/scaletest/initramfs/init)"
n=$((n + 1))
grep -qF "# $inst/share/scaletest/scenarios/smoke:" "$tmp/dry" ||
	fail "the dry run does not name the installed scenario's lines"
n=$((n + 1))
grep -qF "$top" "$tmp/dry" && fail "the installed binary's dry run names the source tree: $(grep -F "$top" "$tmp/dry" | head -1)"
n=$((n + 1))
[ -z "$(ls -A "$tmp/elsewhere")" ] || fail "the dry run wrote into the directory it ran in: $(ls -A "$tmp/elsewhere")"

# 3: keys, help, the pages, the completion.
n=$((n + 1))
"$inst/bin/scaletest" keys > "$tmp/keys" && head -1 "$tmp/keys" | grep -q '^| key | type |' ||
	fail "installed scaletest keys"
n=$((n + 1))
"$inst/bin/scaletest" help run > "$tmp/help" && "$top/bin/scaletest" run -h | cmp -s - "$tmp/help" ||
	fail "installed scaletest help run (off a terminal) is not the usage text"
n=$((n + 1))
MANPAGER=cat PAGER=cat MANWIDTH=80 script -qec "'$inst/bin/scaletest' help run" /dev/null < /dev/null |
	tr -d '\r' > "$tmp/man" 2>&1
grep -q '^SCALETEST-RUN(1)' "$tmp/man" || fail "installed scaletest help run on a terminal: no manual page"
for p in "$inst"/share/man/man*/*; do
	n=$((n + 1))
	if ! MANWIDTH=80 man -l "$p" > "$tmp/out" 2> "$tmp/err" || [ -s "$tmp/err" ] || [ ! -s "$tmp/out" ]; then
		fail "man -l ${p#"$dest"}"
		sed 's/^/    /' "$tmp/err" >&2
	fi
done
if command -v bash > /dev/null 2>&1; then
	n=$((n + 1))
	got=$(PATH="$inst/bin:$PATH" bash -c '
		. "$1"
		COMP_WORDS=(scaletest ru); COMP_CWORD=1; _scaletest; printf "%s " "${COMPREPLY[@]}"
		COMP_WORDS=(scaletest report --for); COMP_CWORD=2; _scaletest; printf "%s " "${COMPREPLY[@]}"
	' sh "$inst/share/bash-completion/completions/scaletest")
	[ "$got" = "run --format " ] || fail "the completion completes 'ru' and 'report --for' as '$got'"
fi

# 4: moved elsewhere, and the tree's own binary.
mkdir -p "$tmp/moved"
cp -a "$inst" "$tmp/moved/"
n=$((n + 1))
"$tmp/moved/usr/bin/scaletest" run "$tmp/moved/usr/share/scaletest/scenarios/smoke" --dry-run > "$tmp/dry" 2>&1 &&
	grep -qF "$tmp/moved/usr/share/scaletest/initramfs/init" "$tmp/dry" ||
	fail "a moved install does not find its data where it is now"
rm -rf "$tmp/moved"
cd "$top" || exit 1
n=$((n + 1))
"$top/bin/scaletest" run scenarios/smoke --dry-run > "$tmp/dry" 2>&1 &&
	grep -qF "$top/initramfs/init" "$tmp/dry" || fail "the tree's binary does not use the tree's initramfs/"

# 5: uninstall.
n=$((n + 1))
if ! "$make" -s -C "$top" uninstall DESTDIR="$dest" PREFIX=/usr > "$tmp/make.log" 2>&1; then
	fail "make uninstall failed"
	sed 's/^/    /' "$tmp/make.log" >&2
fi
n=$((n + 1))
left=$(find "$dest" -type f | head -5)
[ -z "$left" ] || fail "make uninstall left: $left"

echo "install: $((n - nfail)) passed, $nfail failed" >&2
[ $nfail = 0 ]
