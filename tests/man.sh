#!/bin/sh
# The manual pages (docs/man/): scaletest(1), one page per command,
# scaletest-scenario(5).
#
#   1. mandoc -Tlint clean, at every level (style included), with the
#      pages' cross references resolved among themselves only (-M: a
#      manpath of them, indexed by makewhatis; the host's pages do not count);
#   2. one page per command of the command table (scaletest --help lists
#      it), each named in scaletest(1), and no page for a command that is
#      not there;
#   3. every option a command's -h text names is in its page (rendered:
#      what a reader sees), so the pages say what --help says;
#   4. scaletest-scenario(5)'s key list is what 'scaletest keys --format
#      mdoc' prints from the key table (make man-keys rewrites it);
#   5. 'scaletest help CMD' and 'scaletest CMD --help' show the page on a
#      terminal (script(1) gives them one; MANPAGER=cat), the text off one;
#      -h is the text on a terminal too; 'help scenario' shows the
#      scenario page;
#   6. man -l renders every page without a word on standard error.
#
#   sh tests/man.sh        (make check runs it)
# suite: quick
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
bin=${SCALETEST_BIN:-$top/bin/scaletest}
man=$top/docs/man
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scaletest-man.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0
nfail=0

fail() {
	echo "  FAIL: $*" >&2
	nfail=$((nfail + 1))
}

for t in mandoc makewhatis man script; do
	command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] || {
		echo "man: FAIL: $t missing: make deps-test (mandoc, man-db, bsdutils)" >&2
		exit 1
	}
done
makewhatis=$(command -v makewhatis 2>/dev/null || echo /usr/sbin/makewhatis)
script=$(command -v script)

# A page as a reader sees it: mandoc's text, overstrikes (bold) removed.
render() {
	mandoc -Tascii "$1" | sed 's/.\x08//g'
}

# 1: lint, with a manpath of the pages so that .Xr finds them.
mkdir -p "$tmp/mp/man1" "$tmp/mp/man5"
cp "$man"/*.1 "$tmp/mp/man1/"
cp "$man"/*.5 "$tmp/mp/man5/"
"$makewhatis" "$tmp/mp" || fail "makewhatis failed"
for p in "$man"/*.1 "$man"/*.5; do
	n=$((n + 1))
	if ! mandoc -Tlint -W style -M "$tmp/mp" "$p" > "$tmp/lint" 2>&1 || [ -s "$tmp/lint" ]; then
		fail "$(basename "$p"): mandoc -Tlint"
		sed 's/^/    /' "$tmp/lint" >&2
	fi
done

# 2: a page per command, and no other.
"$bin" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }' \
	> "$tmp/commands"
[ -s "$tmp/commands" ] || fail "scaletest --help lists no command"
render "$man/scaletest.1" > "$tmp/scaletest.txt"
while read -r c; do
	n=$((n + 1))
	if [ ! -f "$man/scaletest-$c.1" ]; then
		fail "no page for '$c': docs/man/scaletest-$c.1"
		continue
	fi
	grep -q "scaletest-$c(1)" "$tmp/scaletest.txt" || fail "scaletest(1) does not name scaletest-$c(1)"
done < "$tmp/commands"
for p in "$man"/scaletest-*.1; do
	c=$(basename "$p" .1)
	c=${c#scaletest-}
	n=$((n + 1))
	grep -qx "$c" "$tmp/commands" || fail "$(basename "$p"): no command '$c' in scaletest --help"
done

# 3: every option of -h in the page.
while read -r c; do
	[ -f "$man/scaletest-$c.1" ] || continue
	render "$man/scaletest-$c.1" > "$tmp/page"
	"$bin" "$c" -h | grep -o -- '--[a-z][a-z0-9-]*' | sort -u > "$tmp/opts"
	while read -r o; do
		n=$((n + 1))
		grep -q -- "$o" "$tmp/page" || fail "scaletest-$c(1) does not name $o, which '$c -h' does"
	done < "$tmp/opts"
done < "$tmp/commands"
"$bin" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u > "$tmp/opts"
while read -r o; do
	n=$((n + 1))
	grep -q -- "$o" "$tmp/scaletest.txt" || fail "scaletest(1) does not name $o, which --help does"
done < "$tmp/opts"

# 4: the scenario page's keys are the key table's.
n=$((n + 1))
sed -n '/^\.\\" keys:start$/,/^\.\\" keys:end$/p' "$man/scaletest-scenario.5" | sed '1d;$d' \
	> "$tmp/page-keys"
"$bin" keys --format mdoc > "$tmp/keys"
if ! diff -u "$tmp/keys" "$tmp/page-keys" >&2; then
	fail "scaletest-scenario(5)'s key list is stale: make man-keys"
fi

# 5: help on a terminal and off one.  script(1) runs the command on a
# pseudo-terminal; its output (CR LF) is compared line by line.
onterm() {
	MANPAGER=cat PAGER=cat MANWIDTH=80 "$script" -qec "$*" /dev/null < /dev/null | tr -d '\r'
}
n=$((n + 1))
onterm "'$bin' help run" > "$tmp/out"
grep -q '^SCALETEST-RUN(1)' "$tmp/out" || { fail "help run on a terminal: no manual page"; head -5 "$tmp/out" >&2; }
n=$((n + 1))
onterm "'$bin' report --help" > "$tmp/out"
grep -q '^SCALETEST-REPORT(1)' "$tmp/out" || fail "report --help on a terminal: no manual page"
n=$((n + 1))
onterm "'$bin' kernel build --help" > "$tmp/out"
grep -q '^SCALETEST-KERNEL(1)' "$tmp/out" || fail "kernel build --help on a terminal: no manual page"
n=$((n + 1))
onterm "'$bin' help scenario" > "$tmp/out"
grep -q '^SCALETEST-SCENARIO(5)' "$tmp/out" || fail "help scenario on a terminal: no manual page"
n=$((n + 1))
onterm "'$bin' run -h" > "$tmp/out"
"$bin" run -h > "$tmp/want"
cmp -s "$tmp/out" "$tmp/want" || fail "run -h on a terminal is not the usage text"
n=$((n + 1))
"$bin" help run > "$tmp/out"
cmp -s "$tmp/out" "$tmp/want" || fail "help run off a terminal is not the usage text"
n=$((n + 1))
"$bin" run --help > "$tmp/out"
cmp -s "$tmp/out" "$tmp/want" || fail "run --help off a terminal is not the usage text"
n=$((n + 1))
"$bin" help scenario > "$tmp/out"
"$bin" keys > "$tmp/want"
cmp -s "$tmp/out" "$tmp/want" || fail "help scenario off a terminal is not the key reference"
# Without man on PATH: the text, on a terminal too.
n=$((n + 1))
mkdir "$tmp/noman"
for t in sh tr; do ln -s "$(command -v $t)" "$tmp/noman/$t"; done
PATH=$tmp/noman onterm "'$bin' help run" > "$tmp/out"
"$bin" run -h > "$tmp/want"
cmp -s "$tmp/out" "$tmp/want" || fail "help run without man is not the usage text"

# 6: man renders every page.
for p in "$man"/*.1 "$man"/*.5; do
	n=$((n + 1))
	if ! MANWIDTH=80 man -l "$p" > "$tmp/out" 2> "$tmp/err" || [ -s "$tmp/err" ] || [ ! -s "$tmp/out" ]; then
		fail "man -l $(basename "$p")"
		sed 's/^/    /' "$tmp/err" >&2
	fi
done

echo "man: $((n - nfail)) passed, $nfail failed" >&2
[ $nfail = 0 ]
