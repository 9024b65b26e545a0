#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# build/jsonschema (tests/tools/jsonschema.c) against its fixtures, each
# run from its own directory so that the names it prints are short; a test
# per fixture:
#
#   cases/NAME/schema.json   with good*.json (valid: exit 0, no output)
#                            and bad*.json (exit 1, standard output
#                            exactly bad*.out: every violation, each with
#                            its JSON pointer and rule); test cases/NAME
#   schema-errors/NAME.json  a schema the validator must refuse (exit 2,
#                            standard error exactly NAME.err), so that a
#                            keyword it does not know is never skipped;
#                            test schema-errors/NAME
#   not-json/NAME.json       a document that is not strict JSON (exit 2,
#                            standard error exactly NAME.err); test
#                            not-json/NAME
#
#   sh tests/jsonschema/run.sh            (make check runs it)
#   sh tests/jsonschema/run.sh 'cases/*'  some tests (--list names them)
#   sh tests/jsonschema/run.sh --update   rewrite the .out and .err files
#                                         (then read the diff: each is a claim)
# suite: quick
set -u

update=0
if [ "${1:-}" = --update ]; then
	update=1
	shift
fi
. "$(dirname "$0")/../lib.sh"
here=$top/tests/jsonschema
js=${JSONSCHEMA:-$top/build/jsonschema}

# exact WANT_RC WANT_FILE STREAM LABEL -- command...: the exit status is
# WANT_RC and the stream (out or err) is WANT_FILE's text (none: empty);
# the other stream is empty.  With --update, WANT_FILE is rewritten first.
exact() {
	want_rc=$1 want=$2 stream=$3 label=$4
	shift 5
	checked
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

# A case: its good documents pass, its bad ones fail as their .out says;
# each case shows both sides, a rule that passes and one that fails
# (ref-loop and annotations: only that the schema loads and applies).
schema_case() {
	cd "$here/cases/$1" || { fail "no tests/jsonschema/cases/$1"; return; }
	good=0 bad=0
	for f in good*.json; do
		[ -f "$f" ] || continue
		good=$((good + 1))
		exact 0 "" out "cases/$1/$f" -- "$js" schema.json "$f"
	done
	for f in bad*.json; do
		[ -f "$f" ] || continue
		bad=$((bad + 1))
		[ $update = 1 ] || check "cases/$1/$f has no ${f%.json}.out" [ -f "${f%.json}.out" ]
		exact 1 "${f%.json}.out" out "cases/$1/$f" -- "$js" schema.json "$f"
	done
	case $1 in
	ref-loop | annotations) ;;
	*) check "cases/$1 needs a good*.json and a bad*.json" [ $((good > 0 && bad > 0)) = 1 ] ;;
	esac
}

# A schema the validator refuses, saying why.
schema_error() {
	cd "$here/schema-errors" || return
	exact 2 "$1.err" err "schema-errors/$1.json" -- "$js" "$1.json" "$1.json"
}

# A document that is not strict JSON, refused.
not_json() {
	cd "$here/not-json" || return
	exact 2 "$1.err" err "not-json/$1.json" -- "$js" ../cases/type/schema.json "$1.json"
}

test_missing_document() {
	cd "$here/not-json" || return
	exact 2 missing.err err "not-json/missing" -- "$js" ../cases/type/schema.json no-such-file.json
}

# Every document of a run is checked, and the status is that of the worst.
test_worst_of_several_documents() {
	cd "$here/cases/type" || return
	exact 1 "$here/cases/type/two-docs.out" out "cases/type: good and bad together" -- \
		"$js" schema.json good.json bad.json good-whole-float.json
}

if [ ! -x "$js" ]; then
	say "$SUITE: $js missing: run make build/jsonschema"
	exit 1
fi
for d in "$here"/cases/*/; do
	add_test "cases/$(basename "$d")" schema_case "$(basename "$d")"
done
for f in "$here"/schema-errors/*.json; do
	add_test "schema-errors/$(basename "$f" .json)" schema_error "$(basename "$f" .json)"
done
for f in "$here"/not-json/*.json; do
	add_test "not-json/$(basename "$f" .json)" not_json "$(basename "$f" .json)"
done
[ $update = 0 ] || at_exit "say \"$SUITE: rewrote the .out and .err files; read 'git diff tests/jsonschema'\""
run_tests "$@"
