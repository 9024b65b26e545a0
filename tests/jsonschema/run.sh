#!/bin/sh
# build/jsonschema (tests/tools/jsonschema.c) against its fixtures, each
# run from its own directory so that the names it prints are short:
#
#   cases/NAME/schema.json   with good*.json (valid: exit 0, no output)
#                            and bad*.json (exit 1, standard output
#                            exactly bad*.out: every violation, each with
#                            its JSON pointer and rule)
#   schema-errors/NAME.json  a schema the validator must refuse (exit 2,
#                            standard error exactly NAME.err), so that a
#                            keyword it does not know is never skipped
#   not-json/NAME.json       a document that is not strict JSON (exit 2,
#                            standard error exactly NAME.err)
#
#   sh tests/jsonschema/run.sh            (make check runs it)
#   sh tests/jsonschema/run.sh --update   rewrite the .out and .err files
#                                         (then read the diff: each is a claim)
# suite: quick
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
js=${JSONSCHEMA:-$top/build/jsonschema}
update=0
[ "${1:-}" = --update ] && update=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scaletest-jsonschema.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0
nfail=0

fail() {
	echo "  FAIL: $*" >&2
	nfail=$((nfail + 1))
}

if [ ! -x "$js" ]; then
	echo "jsonschema: FAIL: $js missing: run make build/jsonschema" >&2
	exit 1
fi

# expect WANT_RC WANT_FILE STREAM LABEL -- command...: the exit status is
# WANT_RC and the stream (out or err) is WANT_FILE's text; the other stream
# is empty.
expect() {
	want_rc=$1 want=$2 stream=$3 label=$4
	shift 5
	n=$((n + 1))
	"$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $update = 1 ] && [ -n "$want" ]; then
		cp "$tmp/$stream" "$want"
	fi
	other=err
	[ "$stream" = err ] && other=out
	if [ "$rc" != "$want_rc" ]; then
		fail "$label: exit $rc, want $want_rc"
		sed 's/^/    /' "$tmp/out" "$tmp/err" >&2
	elif [ -s "$tmp/$other" ]; then
		fail "$label: unexpected output on std$other"
		sed 's/^/    /' "$tmp/$other" >&2
	elif [ -n "$want" ] && ! diff -u "$want" "$tmp/$stream" >&2; then
		fail "$label: std$stream differs from $want"
	elif [ -z "$want" ] && [ -s "$tmp/$stream" ]; then
		fail "$label: unexpected output"
		sed 's/^/    /' "$tmp/$stream" >&2
	fi
}

for d in "$here"/cases/*/; do
	name=$(basename "$d")
	cd "$d" || exit 1
	good=0 bad=0
	for f in good*.json; do
		[ -f "$f" ] || continue
		good=$((good + 1))
		expect 0 "" out "cases/$name/$f" -- "$js" schema.json "$f"
	done
	for f in bad*.json; do
		[ -f "$f" ] || continue
		bad=$((bad + 1))
		[ -f "${f%.json}.out" ] || [ $update = 1 ] ||
			fail "cases/$name/$f has no ${f%.json}.out"
		expect 1 "${f%.json}.out" out "cases/$name/$f" -- "$js" schema.json "$f"
	done
	# Each case shows both sides: a rule that passes and one that fails.
	[ $good -gt 0 ] && [ $bad -gt 0 ] || [ "$name" = ref-loop ] || [ "$name" = annotations ] ||
		fail "cases/$name needs a good*.json and a bad*.json"
done

cd "$here/schema-errors" || exit 1
for f in *.json; do
	expect 2 "${f%.json}.err" err "schema-errors/$f" -- "$js" "$f" "$f"
done

cd "$here/not-json" || exit 1
for f in *.json; do
	expect 2 "${f%.json}.err" err "not-json/$f" -- "$js" ../cases/type/schema.json "$f"
done
expect 2 missing.err err "not-json/missing" -- "$js" ../cases/type/schema.json no-such-file.json

# Every document of a run is checked, and the status is that of the worst.
cd "$here/cases/type" || exit 1
expect 1 "$here/cases/type/two-docs.out" out "cases/type: good and bad together" -- \
	"$js" schema.json good.json bad.json good-whole-float.json

if [ $update = 1 ]; then
	echo "jsonschema: rewrote the .out and .err files; read 'git diff tests/jsonschema'" >&2
	exit 0
fi
echo "jsonschema: $((n - nfail)) passed, $nfail failed" >&2
[ $nfail = 0 ]
