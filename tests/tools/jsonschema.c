// SPDX-License-Identifier: Apache-2.0
/*
 * jsonschema: check JSON documents against a JSON Schema (the draft-07
 * keywords that real schemas use), for the tests: the KCIDB documents of
 * the golden runs against kcidb-io's schema, result.json against its own.
 *
 *	build/jsonschema SCHEMA.json DOC.json...
 *
 * Each violation is one line on standard output, the document's name, the
 * JSON pointer of the value that breaks the rule, and the rule:
 *
 *	doc.json: /tests/3/status: "BOGUS" is not one of "FAIL", "ERROR", ...
 *	doc.json: /tests/3: required property "id" is missing
 *
 * (the whole document is "(root)").  Exit status: 0 when every document
 * is valid; 1 when one is not; 2 for bad usage, a file that cannot be read
 * or is not JSON (strict RFC 8259, valid UTF-8), or a schema this program
 * cannot apply, said on standard error.
 *
 * The schema is checked whole before any document, every subschema
 * (unreferenced definitions too): a keyword this program does not know is
 * an error ("unsupported keyword"), never skipped, since a validator that
 * skips a constraint is a check that cannot fail.  So is a keyword's value
 * of the wrong type, a pattern it cannot translate or compile, and a $ref
 * it cannot resolve.
 *
 * Keywords applied: type (a name or a list; "integer" is a number with no
 * fractional part, 1.0 included), enum, const, properties, required,
 * additionalProperties (false or a schema), patternProperties, items (a
 * schema, or a list for the leading items), minItems, maxItems,
 * uniqueItems, minimum, maximum, exclusiveMinimum, exclusiveMaximum (the
 * draft-06+ numbers), minLength, maxLength (in code points), pattern,
 * format ("date-time" is checked as RFC 3339's; any other format is
 * accepted unchecked), $ref ("#", or a JSON pointer into the schema
 * document: "#/definitions/x", "#/$defs/x"; no remote references, no
 * $id-based resolution), allOf, anyOf, oneOf, not, if/then/else; true and
 * false as schemas.  The keywords beside a $ref are applied too (draft-07
 * would ignore them; 2019-09 applies them), which is the stricter choice.
 * Annotations, accepted and not checked: $schema, $id, $comment, title,
 * description, default, examples, readOnly, writeOnly, deprecated;
 * definitions and $defs hold subschemas for $ref.
 *
 * Patterns are ECMA-262 regular expressions, matched here by POSIX regexec
 * (regcomp REG_EXTENDED, in the C.UTF-8 locale, so a bracket or '.' is a
 * code point) after a translation: \d \w \s and their negations, \. and
 * the other escaped punctuation, \n \t \r \f \v, \xHH and \uXXXX, (?:...)
 * as a group, '.' as anything but a line terminator, and \0 inside a
 * negated bracket ([^\0]).  Not supported, each a schema error: lookahead
 * and lookbehind, named groups, backreferences, \b and \B, lazy
 * quantifiers (*? +? ?? {n}?), \c, \p{...}, surrogate escapes, \D \W \S
 * inside brackets, and \0 anywhere else.  ECMA's \s also matches some
 * Unicode spaces that [[:space:]] may not.  A string holding U+0000 cannot
 * be seen whole by regexec: it fails every pattern, with a message that
 * says so.
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#define JSONSCHEMA_MAX_BYTES ((size_t)256 << 20)
#define JSONSCHEMA_MAX_DEPTH 512	/* nesting of a document */
#define REF_DEPTH_MAX 256		/* $refs in a row on one value: a loop */
#define SHOW_MAX 60			/* bytes of a value shown in a message */

/* ---- reading JSON ---- */

/*
 * RFC 8259's grammar, recognised before json-c builds the tree: json-c,
 * even strict, takes single quotes, NaN, Infinity, "1." and raw control
 * characters in strings, none of which is JSON.  Each returns 0 with *i
 * past the value, or -1 with *i at the offending byte and *why set.
 */
struct syntax {
	const char *s;
	size_t n, i;
	const char *why;
};

static void syntax_ws(struct syntax *x)
{
	while (x->i < x->n && (x->s[x->i] == ' ' || x->s[x->i] == '\t' ||
			       x->s[x->i] == '\n' || x->s[x->i] == '\r'))
		x->i++;
}

static int syntax_fail(struct syntax *x, const char *why)
{
	x->why = x->i >= x->n ? "it ends early" : why;
	return -1;
}

static int syntax_digits(struct syntax *x)
{
	size_t start = x->i;

	while (x->i < x->n && x->s[x->i] >= '0' && x->s[x->i] <= '9')
		x->i++;
	return x->i > start ? 0 : syntax_fail(x, "a digit expected");
}

static int syntax_number(struct syntax *x)
{
	if (x->s[x->i] == '-')
		x->i++;
	if (x->i < x->n && x->s[x->i] == '0')
		x->i++;
	else if (syntax_digits(x) < 0)
		return -1;
	if (x->i < x->n && x->s[x->i] == '.') {
		x->i++;
		if (syntax_digits(x) < 0)
			return -1;
	}
	if (x->i < x->n && (x->s[x->i] == 'e' || x->s[x->i] == 'E')) {
		x->i++;
		if (x->i < x->n && (x->s[x->i] == '+' || x->s[x->i] == '-'))
			x->i++;
		if (syntax_digits(x) < 0)
			return -1;
	}
	return 0;
}

static int syntax_string(struct syntax *x)
{
	for (x->i++; x->i < x->n; x->i++) {
		unsigned char c = (unsigned char)x->s[x->i];

		if (c == '"') {
			x->i++;
			return 0;
		}
		if (c < 0x20)
			return syntax_fail(x, "a control character in a string");
		if (c != '\\')
			continue;
		if (++x->i >= x->n)
			break;
		if (x->s[x->i] == 'u') {
			for (int k = 0; k < 4; k++)
				if (++x->i >= x->n || !strchr("0123456789abcdefABCDEF", x->s[x->i]) ||
				    !x->s[x->i])
					return syntax_fail(x, "\\u needs four hex digits");
		} else if (!x->s[x->i] || !strchr("\"\\/bfnrt", x->s[x->i])) {
			return syntax_fail(x, "an escape JSON does not have");
		}
	}
	return syntax_fail(x, "it ends early");
}

static int syntax_value(struct syntax *x, int depth);

/* An object's members or an array's elements, from after its bracket. */
static int syntax_members(struct syntax *x, int depth, char close)
{
	syntax_ws(x);
	if (x->i < x->n && x->s[x->i] == close) {
		x->i++;
		return 0;
	}
	for (;;) {
		syntax_ws(x);
		if (close == '}') {
			if (x->i >= x->n || x->s[x->i] != '"')
				return syntax_fail(x, "a member name (a string) expected");
			if (syntax_string(x) < 0)
				return -1;
			syntax_ws(x);
			if (x->i >= x->n || x->s[x->i] != ':')
				return syntax_fail(x, "':' expected");
			x->i++;
		}
		if (syntax_value(x, depth + 1) < 0)
			return -1;
		syntax_ws(x);
		if (x->i < x->n && x->s[x->i] == close) {
			x->i++;
			return 0;
		}
		if (x->i >= x->n || x->s[x->i] != ',')
			return syntax_fail(x, close == '}' ? "',' or '}' expected" : "',' or ']' expected");
		x->i++;
	}
}

static int syntax_value(struct syntax *x, int depth)
{
	static const char *const words[] = { "true", "false", "null" };
	char c;

	if (depth > JSONSCHEMA_MAX_DEPTH)
		return syntax_fail(x, "nested too deep");
	syntax_ws(x);
	if (x->i >= x->n)
		return syntax_fail(x, "it ends early");
	c = x->s[x->i];
	if (c == '{' || c == '[') {
		x->i++;
		return syntax_members(x, depth, c == '{' ? '}' : ']');
	}
	if (c == '"')
		return syntax_string(x);
	if (c == '-' || (c >= '0' && c <= '9'))
		return syntax_number(x);
	for (size_t k = 0; k < ARRAY_SIZE(words); k++) {
		size_t len = strlen(words[k]);

		if (x->n - x->i >= len && !memcmp(x->s + x->i, words[k], len)) {
			x->i += len;
			return 0;
		}
	}
	return syntax_fail(x, "a value expected");
}

/* path's JSON, strictly parsed, into *out (NULL for the document "null",
 * as json-c holds null): 0, or -1 with a message on stderr. */
static int load_json(const char *path, json_object **out)
{
	struct strbuf sb = STRBUF_INIT;
	struct syntax x = { NULL, 0, 0, NULL };
	struct json_tokener *tok;
	enum json_tokener_error e;

	if (sb_read_file_max(&sb, path, JSONSCHEMA_MAX_BYTES) < 0) {
		fprintf(stderr, "jsonschema: cannot read '%s': %s\n", path, sb_read_strerror(errno));
		sb_release(&sb);
		return -1;
	}
	x.s = sb.buf;
	x.n = sb.len;
	if (syntax_value(&x, 0) == 0) {
		syntax_ws(&x);
		if (x.i < x.n)
			syntax_fail(&x, "more after the value");
	}
	if (x.why) {
		fprintf(stderr, "jsonschema: '%s' is not JSON: %s, at byte %zu\n", path, x.why, x.i);
		sb_release(&sb);
		return -1;
	}
	tok = json_tokener_new_ex(JSONSCHEMA_MAX_DEPTH + 1);
	if (!tok) {
		fprintf(stderr, "jsonschema: out of memory\n");
		sb_release(&sb);
		return -1;
	}
	/* json-c 0.18 (trixie's) takes every byte above 0x7f in a string for
	 * a control character in strict mode, so "\xc3\xa9" is "invalid
	 * utf-8" (json-c issue #875, fixed after 0.18): there, UTF-8 is
	 * validated without it; the grammar above is stricter than json-c's
	 * strict mode anyway. */
	if (json_c_version_num() >= 0x001200 && json_c_version_num() < 0x001300)
		json_tokener_set_flags(tok, JSON_TOKENER_VALIDATE_UTF8);
	else
		json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	/* With its NUL: a number at the very end is then a whole number. */
	*out = json_tokener_parse_ex(tok, sb.buf, (int)sb.len + 1);
	e = json_tokener_get_error(tok);
	if (e != json_tokener_success) {
		fprintf(stderr, "jsonschema: '%s' is not JSON: %s, at byte %zu\n", path,
			json_tokener_error_desc(e), json_tokener_get_parse_end(tok));
		json_object_put(*out);
	}
	json_tokener_free(tok);
	sb_release(&sb);
	return e == json_tokener_success ? 0 : -1;
}

/* json-c holds null as NULL. */
static int is_null(json_object *o)
{
	return !o || json_object_is_type(o, json_type_null);
}

static int is_number(json_object *o)
{
	return json_object_is_type(o, json_type_int) || json_object_is_type(o, json_type_double);
}

static int is_integer(json_object *o)
{
	double d;

	if (json_object_is_type(o, json_type_int))
		return 1;
	if (!json_object_is_type(o, json_type_double))
		return 0;
	d = json_object_get_double(o);
	return isfinite(d) && d == floor(d);
}

/* The JSON Schema type name of a value ("integer" is a "number" here). */
static const char *type_of(json_object *o)
{
	static const char *const names[] = {
		[json_type_null] = "null", [json_type_boolean] = "boolean",
		[json_type_double] = "number", [json_type_int] = "number",
		[json_type_object] = "object", [json_type_array] = "array",
		[json_type_string] = "string",
	};

	return is_null(o) ? "null" : names[json_object_get_type(o)];
}

static int json_equal(json_object *a, json_object *b);

static int number_equal(json_object *a, json_object *b)
{
	if (json_object_is_type(a, json_type_int) && json_object_is_type(b, json_type_int))
		return json_object_get_int64(a) == json_object_get_int64(b) &&
		       json_object_get_uint64(a) == json_object_get_uint64(b);
	return json_object_get_double(a) == json_object_get_double(b);
}

/* JSON equality as JSON Schema has it: 1 and 1.0 are equal, keys in any
 * order. */
static int json_equal(json_object *a, json_object *b)
{
	if (is_null(a) || is_null(b))
		return is_null(a) && is_null(b);
	if (is_number(a) && is_number(b))
		return number_equal(a, b);
	if (json_object_get_type(a) != json_object_get_type(b))
		return 0;
	switch (json_object_get_type(a)) {
	case json_type_boolean:
		return json_object_get_boolean(a) == json_object_get_boolean(b);
	case json_type_string:
		return json_object_get_string_len(a) == json_object_get_string_len(b) &&
		       !memcmp(json_object_get_string(a), json_object_get_string(b),
			       (size_t)json_object_get_string_len(a));
	case json_type_array:
		if (json_object_array_length(a) != json_object_array_length(b))
			return 0;
		for (size_t i = 0; i < json_object_array_length(a); i++)
			if (!json_equal(json_object_array_get_idx(a, i),
					json_object_array_get_idx(b, i)))
				return 0;
		return 1;
	case json_type_object: {
		if (json_object_object_length(a) != json_object_object_length(b))
			return 0;
		json_object_object_foreach(a, k, va) {
			json_object *vb;

			if (!json_object_object_get_ex(b, k, &vb) || !json_equal(va, vb))
				return 0;
		}
		return 1;
	}
	default:
		return 0;
	}
}

/* A value for a message: its JSON, cut at SHOW_MAX bytes (on a character
 * boundary) with "...". */
static void show(struct strbuf *sb, json_object *o)
{
	const char *s = is_null(o) ? "null"
		: json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
						 JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t n = strlen(s);

	if (n <= SHOW_MAX) {
		sb_add(sb, s, n);
		return;
	}
	n = SHOW_MAX;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	sb_add(sb, s, n);
	sb_adds(sb, "...");
}

/* A JSON pointer's next step: "/" and the name with ~ as ~0, / as ~1. */
static void pointer_push(struct strbuf *ptr, const char *name)
{
	sb_addch(ptr, '/');
	for (const char *p = name; *p; p++) {
		if (*p == '~')
			sb_adds(ptr, "~0");
		else if (*p == '/')
			sb_adds(ptr, "~1");
		else
			sb_addch(ptr, *p);
	}
}

static void pointer_push_index(struct strbuf *ptr, size_t i)
{
	sb_addf(ptr, "/%zu", i);
}

/* ---- patterns: ECMA-262 to POSIX ERE ---- */

struct pattern {
	char *source;		/* as the schema has it */
	regex_t re;
};

struct patterns {
	struct pattern *v;
	size_t n, alloc;
};

/* The UTF-8 bytes of code point c. */
static void add_utf8(struct strbuf *sb, unsigned long c)
{
	if (c < 0x80) {
		sb_addch(sb, (int)c);
	} else if (c < 0x800) {
		sb_addch(sb, (int)(0xc0 | (c >> 6)));
		sb_addch(sb, (int)(0x80 | (c & 0x3f)));
	} else if (c < 0x10000) {
		sb_addch(sb, (int)(0xe0 | (c >> 12)));
		sb_addch(sb, (int)(0x80 | ((c >> 6) & 0x3f)));
		sb_addch(sb, (int)(0x80 | (c & 0x3f)));
	} else {
		sb_addch(sb, (int)(0xf0 | (c >> 18)));
		sb_addch(sb, (int)(0x80 | ((c >> 12) & 0x3f)));
		sb_addch(sb, (int)(0x80 | ((c >> 6) & 0x3f)));
		sb_addch(sb, (int)(0x80 | (c & 0x3f)));
	}
}

static int hex_digits(const char *s, int n, unsigned long *out)
{
	unsigned long v = 0;

	for (int i = 0; i < n; i++) {
		int c = (unsigned char)s[i], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v * 16 + (unsigned long)d;
	}
	*out = v;
	return 0;
}

/* Escapes that stand for one character: \n \t \r \f \v, \xHH, \uXXXX.
 * At s (after the backslash): the code point and how many bytes the
 * escape took after the backslash; 0 when s is no such escape, -1 (with
 * why) when it is one this program cannot take. */
static int char_escape(const char *s, unsigned long *c, const char **why)
{
	static const struct {
		char e;
		unsigned long c;
	} ctl[] = { { 'n', '\n' }, { 't', '\t' }, { 'r', '\r' }, { 'f', '\f' }, { 'v', '\v' } };

	for (size_t i = 0; i < ARRAY_SIZE(ctl); i++)
		if (*s == ctl[i].e) {
			*c = ctl[i].c;
			return 1;
		}
	if (*s == 'x') {
		if (hex_digits(s + 1, 2, c) < 0)
			return *why = "\\x needs two hex digits", -1;
		return *c ? 3 : (*why = "\\x00 (U+0000) is not supported", -1);
	}
	if (*s == 'u') {
		if (s[1] == '{' || hex_digits(s + 1, 4, c) < 0)
			return *why = "\\u needs four hex digits", -1;
		if (*c >= 0xd800 && *c <= 0xdfff)
			return *why = "surrogate escapes (\\uD800-\\uDFFF) are not supported", -1;
		return *c ? 5 : (*why = "\\u0000 (U+0000) is not supported", -1);
	}
	return 0;
}

/* A literal code point outside brackets: ERE's special characters behind
 * a backslash. */
static void add_literal(struct strbuf *out, unsigned long c)
{
	if (c < 0x80 && strchr(".[]()*+?{}|^$\\", (int)c))
		sb_addch(out, '\\');
	add_utf8(out, c);
}

/* What a bracket holds, sorted for POSIX (where ']' must come first, '-'
 * last, '^' not first and a backslash is literal). */
struct bracket {
	int negated, close, caret, open, dash;	/* ']' '^' '[' '-' as members */
	struct strbuf items;			/* everything else: chars, ranges, classes */
};

/* One member code point of a bracket. */
static void bracket_char(struct bracket *b, unsigned long c)
{
	if (c == ']')
		b->close = 1;
	else if (c == '^')
		b->caret = 1;
	else if (c == '[')
		b->open = 1;
	else if (c == '-')
		b->dash = 1;
	else
		add_utf8(&b->items, c);
}

static void bracket_emit(struct bracket *b, struct strbuf *out)
{
	if (!b->negated && b->caret && !b->close && !b->open && !b->dash && !b->items.len) {
		sb_adds(out, "\\^");	/* [\^] alone */
		return;
	}
	if (b->negated && !b->caret && !b->close && !b->open && !b->dash && !b->items.len) {
		sb_addch(out, '.');	/* [^\0] alone: POSIX '.' is any character */
		return;
	}
	sb_addch(out, '[');
	if (b->negated)
		sb_addch(out, '^');
	if (b->close)
		sb_addch(out, ']');
	sb_add(out, b->items.buf, b->items.len);
	if (b->open)
		sb_addch(out, '[');
	if (b->caret)
		sb_addch(out, '^');
	if (b->dash)
		sb_addch(out, '-');
	sb_addch(out, ']');
}

/* One endpoint or member of a bracket at *s: a code point (*c, return 1),
 * a class written into b (return 2), or -1 with why. */
static int bracket_atom(const char **s, struct bracket *b, unsigned long *c, const char **why)
{
	static const struct {
		char e;
		const char *members;
	} classes[] = { { 'd', "0-9" }, { 'w', "A-Za-z0-9_" }, { 's', "[:space:]" } };
	const char *p = *s;
	int n;

	if (*p != '\\') {
		unsigned char u = (unsigned char)*p;
		int len = u < 0x80 ? 1 : u < 0xe0 ? 2 : u < 0xf0 ? 3 : 4;

		*c = 0;
		for (int i = 0; i < len; i++)
			*c = i == 0 ? (len == 1 ? u : u & (0x3f >> (len - 1)))
				    : (*c << 6) | ((unsigned char)p[i] & 0x3f);
		*s = p + len;
		return 1;
	}
	p++;
	for (size_t i = 0; i < ARRAY_SIZE(classes); i++)
		if (*p == classes[i].e) {
			sb_adds(&b->items, classes[i].members);
			*s = p + 1;
			return 2;
		}
	if (*p == 'D' || *p == 'W' || *p == 'S')
		return *why = "\\D, \\W and \\S inside brackets are not supported", -1;
	if (*p == '0' && b->negated && !(p[1] >= '0' && p[1] <= '9')) {
		/* [^\0]: a C string holds no U+0000 (a string with one fails
		 * every pattern, said apart) */
		*s = p + 1;
		return 3;
	}
	if (*p == 'b')
		return *why = "\\b (backspace) inside brackets is not supported", -1;
	n = char_escape(p, c, why);
	if (n < 0)
		return -1;
	if (n > 0) {
		*s = p + n;
		return 1;
	}
	if (!*p || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
		return *why = "this escape inside brackets is not supported", -1;
	*c = (unsigned char)*p;
	*s = p + 1;
	return 1;
}

/* The bracket at *s (after its '['), appended to out as POSIX's. */
static int translate_bracket(const char **s, struct strbuf *out, const char **why)
{
	struct bracket b = { 0, 0, 0, 0, 0, STRBUF_INIT };
	const char *p = *s;
	int r = -1;

	if (*p == '^') {
		b.negated = 1;
		p++;
	}
	if (*p == ']') {	/* ECMA's [^] is anything (POSIX's '.'); [] nothing */
		if (!b.negated)
			return *why = "[] (matching nothing) is not supported", -1;
		sb_addch(out, '.');
		*s = p + 1;
		return 0;
	}
	while (*p && *p != ']') {
		unsigned long lo, hi;
		int k = bracket_atom(&p, &b, &lo, why);

		if (k < 0)
			goto out;
		if (k != 1)
			continue;
		if (p[0] == '-' && p[1] && p[1] != ']') {
			p++;
			k = bracket_atom(&p, &b, &hi, why);
			if (k < 0)
				goto out;
			if (k != 1) {
				*why = "a range that ends in a class";
				goto out;
			}
			if (hi < lo) {
				*why = "a range out of order";
				goto out;
			}
			if (lo == ']' || lo == '^' || lo == '-' || lo == '[' ||
			    hi == ']' || hi == '^' || hi == '-' || hi == '[') {
				*why = "a range that starts or ends with ] ^ - or [";
				goto out;
			}
			add_utf8(&b.items, lo);
			sb_addch(&b.items, '-');
			add_utf8(&b.items, hi);
		} else {
			bracket_char(&b, lo);
		}
	}
	if (*p != ']') {
		*why = "a bracket that does not close";
		goto out;
	}
	bracket_emit(&b, out);
	*s = p + 1;
	r = 0;
out:
	sb_release(&b.items);
	return r;
}

/* src (ECMA-262) as a POSIX ERE; -1 with why. */
static int translate_pattern(const char *src, struct strbuf *out, const char **why)
{
	static const struct {
		char e;
		const char *ere;
	} classes[] = {
		{ 'd', "[0-9]" }, { 'D', "[^0-9]" }, { 'w', "[A-Za-z0-9_]" },
		{ 'W', "[^A-Za-z0-9_]" }, { 's', "[[:space:]]" }, { 'S', "[^[:space:]]" },
	};
	const char *p = src;
	int quantified = 0;	/* the last thing written was a quantifier */

	while (*p) {
		int q = 0;

		if (*p == '\\') {
			unsigned long c;
			size_t i;
			int n;

			p++;
			for (i = 0; i < ARRAY_SIZE(classes) && *p != classes[i].e; i++)
				;
			if (i < ARRAY_SIZE(classes)) {
				sb_adds(out, classes[i].ere);
				p++;
			} else if (*p >= '0' && *p <= '9') {
				return *why = *p == '0' ? "\\0 outside [^...] is not supported"
							: "backreferences are not supported", -1;
			} else if ((n = char_escape(p, &c, why)) != 0) {
				if (n < 0)
					return -1;
				add_literal(out, c);
				p += n;
			} else if (!*p) {
				return *why = "a pattern that ends in a backslash", -1;
			} else if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) {
				return *why = *p == 'b' || *p == 'B' ? "\\b and \\B are not supported"
					: "this escape is not supported (\\c, \\p, \\k ...)", -1;
			} else {
				add_literal(out, (unsigned char)*p);
				p++;
			}
		} else if (*p == '[') {
			p++;
			if (translate_bracket(&p, out, why) < 0)
				return -1;
		} else if (*p == '(' && p[1] == '?') {
			if (p[2] != ':')
				return *why = "lookaround and named groups are not supported", -1;
			sb_addch(out, '(');
			p += 3;
		} else if (*p == '.') {
			/* anything but a line terminator */
			sb_adds(out, "[^\n\r\xe2\x80\xa8\xe2\x80\xa9]");
			p++;
		} else if (*p == '*' || *p == '+' || *p == '?' || *p == '{') {
			if (*p == '?' && quantified)
				return *why = "lazy quantifiers are not supported", -1;
			if (*p == '{') {
				const char *e = strchr(p, '}');

				if (!e)
					return *why = "a { that does not close", -1;
				sb_add(out, p, (size_t)(e - p) + 1);
				p = e + 1;
			} else {
				sb_addch(out, *p++);
			}
			q = 1;
		} else {
			sb_addch(out, *p++);
		}
		quantified = q;
	}
	return 0;
}

/* The compiled pattern src, compiled once; NULL with a message (why). */
static regex_t *pattern_get(struct patterns *ps, const char *src, struct strbuf *why)
{
	struct strbuf ere = STRBUF_INIT;
	const char *tw = NULL;
	struct pattern *p;
	int rc;

	for (size_t i = 0; i < ps->n; i++)
		if (!strcmp(ps->v[i].source, src))
			return &ps->v[i].re;
	if (translate_pattern(src, &ere, &tw) < 0) {
		sb_addf(why, "pattern \"%s\": %s", src, tw);
		sb_release(&ere);
		return NULL;
	}
	ALLOC_GROW(ps->v, ps->n + 1, ps->alloc);
	p = &ps->v[ps->n];
	rc = regcomp(&p->re, ere.buf, REG_EXTENDED | REG_NOSUB);
	if (rc != 0) {
		char msg[200];

		regerror(rc, &p->re, msg, sizeof(msg));
		sb_addf(why, "pattern \"%s\" (as POSIX \"%s\"): %s", src, ere.buf, msg);
		sb_release(&ere);
		return NULL;
	}
	sb_release(&ere);
	p->source = xstrdup(src);
	ps->n++;
	return &p->re;
}

static void patterns_release(struct patterns *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		regfree(&ps->v[i].re);
		free(ps->v[i].source);
	}
	free(ps->v);
}

/* Whether string value s matches pattern src (compiled while checking the
 * schema). */
static int pattern_matches(struct patterns *ps, const char *src, json_object *s)
{
	struct strbuf why = STRBUF_INIT;
	regex_t *re = pattern_get(ps, src, &why);

	sb_release(&why);
	if (!re)
		return 0;
	if (strlen(json_object_get_string(s)) != (size_t)json_object_get_string_len(s))
		return 0;
	return regexec(re, json_object_get_string(s), 0, NULL, 0) == 0;
}

/* ---- formats ---- */

static int digits(const char *s, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*v = *v * 10 + (s[i] - '0');
	}
	return 0;
}

/* RFC 3339 section 5.6's date-time: 2024-02-29T23:59:60.5+01:00. */
static int is_date_time(const char *s)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, mo, d, h, mi, sec, oh, om;

	if (strlen(s) < 20 || digits(s, 4, &y) || s[4] != '-' || digits(s + 5, 2, &mo) ||
	    s[7] != '-' || digits(s + 8, 2, &d) || (s[10] != 'T' && s[10] != 't') ||
	    digits(s + 11, 2, &h) || s[13] != ':' || digits(s + 14, 2, &mi) || s[16] != ':' ||
	    digits(s + 17, 2, &sec))
		return 0;
	if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 || mi > 59 || sec > 60)
		return 0;
	if (mo == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
		return 0;
	s += 19;
	if (*s == '.') {
		if (s[1] < '0' || s[1] > '9')
			return 0;
		for (s++; *s >= '0' && *s <= '9'; s++)
			;
	}
	if ((*s == 'Z' || *s == 'z') && !s[1])
		return 1;
	if ((*s != '+' && *s != '-') || strlen(s) != 6 || digits(s + 1, 2, &oh) || s[3] != ':' ||
	    digits(s + 4, 2, &om))
		return 0;
	return oh <= 23 && om <= 59;
}

/* ---- the schema's own check ---- */

/* What a keyword's value must be, which also says where subschemas are. */
enum arg {
	A_ANY,		/* const, default, examples */
	A_STRING,	/* title, description, $schema, format */
	A_BOOL,
	A_NUMBER,
	A_COUNT,	/* a non-negative integer */
	A_TYPE,		/* a type name, or a non-empty list of unique ones */
	A_STRINGS,	/* a list of unique strings (required) */
	A_ARRAY,	/* enum */
	A_PATTERN,
	A_REF,
	A_SCHEMA,
	A_SCHEMAS,	/* a non-empty list of schemas */
	A_SCHEMA_MAP,	/* name: schema */
	A_PATTERN_MAP,	/* pattern: schema */
	A_ITEMS,	/* a schema or a list of schemas */
};

struct validator;
typedef void keyword_fn(struct validator *v, json_object *schema, json_object *arg,
			json_object *inst, struct strbuf *ptr);

static keyword_fn kw_type, kw_enum, kw_const, kw_properties, kw_required,
	kw_additional, kw_pattern_properties, kw_items, kw_min_items, kw_max_items,
	kw_unique, kw_minimum, kw_maximum, kw_exclusive_minimum, kw_exclusive_maximum,
	kw_min_length, kw_max_length, kw_pattern, kw_format, kw_ref, kw_all_of,
	kw_any_of, kw_one_of, kw_not, kw_if;

/* The keywords, one row each: its value's shape and what applies it (NULL:
 * an annotation, a container for $ref, or read by another keyword's row). */
static const struct keyword {
	const char *name;
	enum arg arg;
	keyword_fn *apply;
} keywords[] = {
	{ "type", A_TYPE, kw_type },
	{ "enum", A_ARRAY, kw_enum },
	{ "const", A_ANY, kw_const },
	{ "properties", A_SCHEMA_MAP, kw_properties },
	{ "required", A_STRINGS, kw_required },
	{ "additionalProperties", A_SCHEMA, kw_additional },
	{ "patternProperties", A_PATTERN_MAP, kw_pattern_properties },
	{ "items", A_ITEMS, kw_items },
	{ "minItems", A_COUNT, kw_min_items },
	{ "maxItems", A_COUNT, kw_max_items },
	{ "uniqueItems", A_BOOL, kw_unique },
	{ "minimum", A_NUMBER, kw_minimum },
	{ "maximum", A_NUMBER, kw_maximum },
	{ "exclusiveMinimum", A_NUMBER, kw_exclusive_minimum },
	{ "exclusiveMaximum", A_NUMBER, kw_exclusive_maximum },
	{ "minLength", A_COUNT, kw_min_length },
	{ "maxLength", A_COUNT, kw_max_length },
	{ "pattern", A_PATTERN, kw_pattern },
	{ "format", A_STRING, kw_format },
	{ "$ref", A_REF, kw_ref },
	{ "allOf", A_SCHEMAS, kw_all_of },
	{ "anyOf", A_SCHEMAS, kw_any_of },
	{ "oneOf", A_SCHEMAS, kw_one_of },
	{ "not", A_SCHEMA, kw_not },
	{ "if", A_SCHEMA, kw_if },
	{ "then", A_SCHEMA, NULL },		/* applied by "if" */
	{ "else", A_SCHEMA, NULL },		/* applied by "if" */
	{ "definitions", A_SCHEMA_MAP, NULL },
	{ "$defs", A_SCHEMA_MAP, NULL },
	{ "$schema", A_STRING, NULL },
	{ "$id", A_STRING, NULL },
	{ "$comment", A_STRING, NULL },
	{ "title", A_STRING, NULL },
	{ "description", A_STRING, NULL },
	{ "default", A_ANY, NULL },
	{ "examples", A_ARRAY, NULL },
	{ "readOnly", A_BOOL, NULL },
	{ "writeOnly", A_BOOL, NULL },
	{ "deprecated", A_BOOL, NULL },
};

static const struct keyword *keyword_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(keywords); i++)
		if (!strcmp(keywords[i].name, name))
			return &keywords[i];
	return NULL;
}

struct validator {
	json_object *root;		/* the schema document */
	const char *schema_name, *doc;	/* file names, for messages */
	struct patterns patterns;
	struct strbuf *out;		/* violations, a line each */
	size_t errors;
	json_object *ref_inst;		/* the value the last $ref was followed on */
	int ref_depth;			/* $refs followed on it in a row */
};

/* A schema error: "SCHEMA: #/path: message" on stderr; returns -1. */
static int schema_error(struct validator *v, const struct strbuf *spath, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int schema_error(struct validator *v, const struct strbuf *spath, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "jsonschema: %s: #%s: ", v->schema_name, spath->buf);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* The schema at "#..." (a JSON pointer in the schema document), or NULL. */
static json_object *ref_resolve(struct validator *v, const char *ref)
{
	json_object *o = v->root;
	struct strbuf tok = STRBUF_INIT;
	const char *p;

	if (ref[0] != '#' || (ref[1] && ref[1] != '/'))
		return NULL;
	for (p = ref + 1; o && *p == '/';) {
		json_object *next = NULL;

		sb_reset(&tok);
		for (p++; *p && *p != '/'; p++) {
			if (p[0] == '~' && (p[1] == '0' || p[1] == '1'))
				sb_addch(&tok, *++p == '0' ? '~' : '/');
			else if (p[0] == '%' || p[0] == '~')
				goto fail;	/* percent-encoding, a stray ~ */
			else
				sb_addch(&tok, *p);
		}
		if (json_object_is_type(o, json_type_object)) {
			json_object_object_get_ex(o, tok.buf, &next);
		} else if (json_object_is_type(o, json_type_array)) {
			uint64_t i;

			if (parse_u64(tok.buf, &i) == 0 && i < json_object_array_length(o))
				next = json_object_array_get_idx(o, (size_t)i);
		}
		o = next;
	}
	sb_release(&tok);
	return o;
fail:
	sb_release(&tok);
	return NULL;
}

static int is_schema(json_object *o)
{
	return json_object_is_type(o, json_type_object) || json_object_is_type(o, json_type_boolean);
}

static int check_schema(struct validator *v, json_object *s, struct strbuf *spath);

static int check_type_name(json_object *t)
{
	static const char *const names[] = {
		"null", "boolean", "object", "array", "number", "string", "integer",
	};

	if (!json_object_is_type(t, json_type_string))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(json_object_get_string(t), names[i]))
			return 0;
	return -1;
}

/* A list of unique values, each passing ok() when it is given. */
static int check_list(json_object *a, int (*ok)(json_object *))
{
	size_t n;

	if (!json_object_is_type(a, json_type_array))
		return -1;
	n = json_object_array_length(a);
	for (size_t i = 0; i < n; i++) {
		if (ok && ok(json_object_array_get_idx(a, i)) < 0)
			return -1;
		for (size_t j = 0; j < i; j++)
			if (json_equal(json_object_array_get_idx(a, i), json_object_array_get_idx(a, j)))
				return -1;
	}
	return 0;
}

static int is_string_ok(json_object *o)
{
	return json_object_is_type(o, json_type_string) ? 0 : -1;
}

/* Keyword k's value a at spath (which ends in k's name). */
static int check_keyword(struct validator *v, const struct keyword *k, json_object *a,
			 struct strbuf *spath)
{
	struct strbuf why = STRBUF_INIT;
	size_t len = spath->len;
	int r = 0;

	switch (k->arg) {
	case A_ANY:
		return 0;
	case A_STRING:
		return json_object_is_type(a, json_type_string) ? 0
			: schema_error(v, spath, "\"%s\" must be a string", k->name);
	case A_BOOL:
		return json_object_is_type(a, json_type_boolean) ? 0
			: schema_error(v, spath, "\"%s\" must be true or false", k->name);
	case A_NUMBER:
		return is_number(a) ? 0 : schema_error(v, spath, "\"%s\" must be a number", k->name);
	case A_COUNT:
		return is_integer(a) && json_object_get_double(a) >= 0 ? 0
			: schema_error(v, spath, "\"%s\" must be a non-negative integer", k->name);
	case A_TYPE:
		if (check_type_name(a) == 0 ||
		    (check_list(a, check_type_name) == 0 && json_object_array_length(a) > 0))
			return 0;
		return schema_error(v, spath, "\"type\" must be a type name or a list of unique ones");
	case A_STRINGS:
		return check_list(a, is_string_ok) == 0 ? 0
			: schema_error(v, spath, "\"%s\" must be a list of unique strings", k->name);
	case A_ARRAY:
		return json_object_is_type(a, json_type_array) ? 0
			: schema_error(v, spath, "\"%s\" must be a list", k->name);
	case A_PATTERN:
		if (!json_object_is_type(a, json_type_string))
			return schema_error(v, spath, "\"pattern\" must be a string");
		if (!pattern_get(&v->patterns, json_object_get_string(a), &why))
			r = schema_error(v, spath, "%s", why.buf);
		sb_release(&why);
		return r;
	case A_REF:
		if (!json_object_is_type(a, json_type_string))
			return schema_error(v, spath, "\"$ref\" must be a string");
		if (!is_schema(ref_resolve(v, json_object_get_string(a))))
			return schema_error(v, spath, "cannot resolve $ref \"%s\" (only \"#\" and "
					    "\"#/...\" pointers to a schema in this document)",
					    json_object_get_string(a));
		return 0;
	case A_SCHEMA:
		return check_schema(v, a, spath);
	case A_SCHEMAS:
	case A_ITEMS:
		if (k->arg == A_ITEMS && is_schema(a))
			return check_schema(v, a, spath);
		if (!json_object_is_type(a, json_type_array) ||
		    (k->arg == A_SCHEMAS && json_object_array_length(a) == 0))
			return schema_error(v, spath, "\"%s\" must be a %slist of schemas", k->name,
					    k->arg == A_SCHEMAS ? "non-empty " : "schema or a ");
		for (size_t i = 0; i < json_object_array_length(a); i++) {
			pointer_push_index(spath, i);
			r |= check_schema(v, json_object_array_get_idx(a, i), spath);
			sb_setlen(spath, len);
		}
		return r;
	case A_SCHEMA_MAP:
	case A_PATTERN_MAP:
		if (!json_object_is_type(a, json_type_object))
			return schema_error(v, spath, "\"%s\" must be an object of schemas", k->name);
		json_object_object_foreach(a, name, sub) {
			pointer_push(spath, name);
			if (k->arg == A_PATTERN_MAP && !pattern_get(&v->patterns, name, &why)) {
				r = schema_error(v, spath, "%s", why.buf);
				sb_reset(&why);
			}
			r |= check_schema(v, sub, spath);
			sb_setlen(spath, len);
		}
		sb_release(&why);
		return r;
	}
	return schema_error(v, spath, "keyword \"%s\" of no known shape", k->name);
}

/* A schema and every schema inside it: 0, or -1 after saying each error. */
static int check_schema(struct validator *v, json_object *s, struct strbuf *spath)
{
	size_t len = spath->len;
	int r = 0;

	if (json_object_is_type(s, json_type_boolean))
		return 0;
	if (!json_object_is_type(s, json_type_object))
		return schema_error(v, spath, "a schema must be an object or true or false");
	json_object_object_foreach(s, name, a) {
		const struct keyword *k = keyword_find(name);

		pointer_push(spath, name);
		if (!k)
			r = schema_error(v, spath, "unsupported keyword \"%s\"", name);
		else if (check_keyword(v, k, a, spath) < 0)
			r = -1;
		sb_setlen(spath, len);
	}
	if (json_object_object_get_ex(s, "if", NULL) == 0 &&
	    (json_object_object_get_ex(s, "then", NULL) || json_object_object_get_ex(s, "else", NULL)))
		r = schema_error(v, spath, "\"then\" or \"else\" without \"if\"");
	return r;
}

/* ---- validation ---- */

static void validate(struct validator *v, json_object *schema, json_object *inst,
		     struct strbuf *ptr);

/* A violation at ptr. */
static void violation(struct validator *v, const struct strbuf *ptr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void violation(struct validator *v, const struct strbuf *ptr, const char *fmt, ...)
{
	va_list ap;

	v->errors++;
	sb_addf(v->out, "%s: %s: ", v->doc, ptr->len ? ptr->buf : "(root)");
	va_start(ap, fmt);
	sb_vaddf(v->out, fmt, ap);
	va_end(ap);
	sb_addch(v->out, '\n');
}

/* inst against schema without a word to the output: the number of
 * violations, whose lines are appended to lines when it is given. */
static size_t validate_quiet(struct validator *v, json_object *schema, json_object *inst,
			     struct strbuf *ptr, struct strbuf *lines)
{
	struct strbuf buf = STRBUF_INIT, *saved = v->out;
	size_t before = v->errors, n;

	v->out = &buf;
	validate(v, schema, inst, ptr);
	v->out = saved;
	n = v->errors - before;
	v->errors = before;
	if (lines)
		sb_add(lines, buf.buf, buf.len);
	sb_release(&buf);
	return n;
}

static int type_matches(json_object *t, json_object *inst)
{
	const char *want = json_object_get_string(t);

	if (!strcmp(want, "integer"))
		return is_integer(inst);
	return !strcmp(want, type_of(inst));
}

static void kw_type(struct validator *v, json_object *schema, json_object *t,
		    json_object *inst, struct strbuf *ptr)
{
	struct strbuf names = STRBUF_INIT, val = STRBUF_INIT;
	size_t n;

	(void)schema;
	if (json_object_is_type(t, json_type_string)) {
		if (type_matches(t, inst))
			return;
		sb_addf(&names, "%s", json_object_get_string(t));
	} else {
		n = json_object_array_length(t);
		for (size_t i = 0; i < n; i++) {
			if (type_matches(json_object_array_get_idx(t, i), inst))
				goto out;
			sb_addf(&names, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ",
				json_object_get_string(json_object_array_get_idx(t, i)));
		}
	}
	show(&val, inst);
	violation(v, ptr, "%s is not of type %s", val.buf, names.buf);
out:
	sb_release(&names);
	sb_release(&val);
}

static void kw_enum(struct validator *v, json_object *schema, json_object *e,
		    json_object *inst, struct strbuf *ptr)
{
	struct strbuf val = STRBUF_INIT, list = STRBUF_INIT;

	(void)schema;
	for (size_t i = 0; i < json_object_array_length(e); i++) {
		if (json_equal(json_object_array_get_idx(e, i), inst)) {
			sb_release(&list);
			return;
		}
		if (i)
			sb_adds(&list, ", ");
		show(&list, json_object_array_get_idx(e, i));
	}
	show(&val, inst);
	violation(v, ptr, "%s is not one of %s", val.buf, list.buf);
	sb_release(&val);
	sb_release(&list);
}

static void kw_const(struct validator *v, json_object *schema, json_object *c,
		     json_object *inst, struct strbuf *ptr)
{
	struct strbuf val = STRBUF_INIT, want = STRBUF_INIT;

	(void)schema;
	if (json_equal(c, inst))
		return;
	show(&val, inst);
	show(&want, c);
	violation(v, ptr, "%s is not %s (const)", val.buf, want.buf);
	sb_release(&val);
	sb_release(&want);
}

static void kw_properties(struct validator *v, json_object *schema, json_object *props,
			  json_object *inst, struct strbuf *ptr)
{
	size_t len = ptr->len;

	(void)schema;
	if (!json_object_is_type(inst, json_type_object))
		return;
	json_object_object_foreach(props, name, sub) {
		json_object *val;

		if (!json_object_object_get_ex(inst, name, &val))
			continue;
		pointer_push(ptr, name);
		validate(v, sub, val, ptr);
		sb_setlen(ptr, len);
	}
}

static void kw_required(struct validator *v, json_object *schema, json_object *req,
			json_object *inst, struct strbuf *ptr)
{
	(void)schema;
	if (!json_object_is_type(inst, json_type_object))
		return;
	for (size_t i = 0; i < json_object_array_length(req); i++) {
		const char *name = json_object_get_string(json_object_array_get_idx(req, i));

		if (!json_object_object_get_ex(inst, name, NULL))
			violation(v, ptr, "required property \"%s\" is missing", name);
	}
}

/* Whether name matches a key of patternProperties (pp may be NULL). */
static int pattern_property(struct validator *v, json_object *pp, const char *name)
{
	json_object *s;
	int r = 0;

	if (!pp)
		return 0;
	s = json_object_new_string(name);
	json_object_object_foreach(pp, pat, sub) {
		(void)sub;
		if (pattern_matches(&v->patterns, pat, s)) {
			r = 1;
			break;
		}
	}
	json_object_put(s);
	return r;
}

static void kw_pattern_properties(struct validator *v, json_object *schema, json_object *pp,
				  json_object *inst, struct strbuf *ptr)
{
	size_t len = ptr->len;

	(void)schema;
	if (!json_object_is_type(inst, json_type_object))
		return;
	json_object_object_foreach(inst, name, val) {
		json_object *s = json_object_new_string(name);

		json_object_object_foreach(pp, pat, sub) {
			if (!pattern_matches(&v->patterns, pat, s))
				continue;
			pointer_push(ptr, name);
			validate(v, sub, val, ptr);
			sb_setlen(ptr, len);
		}
		json_object_put(s);
	}
}

static void kw_additional(struct validator *v, json_object *schema, json_object *ap,
			  json_object *inst, struct strbuf *ptr)
{
	json_object *props = NULL, *pp = NULL;
	size_t len = ptr->len;

	if (!json_object_is_type(inst, json_type_object))
		return;
	json_object_object_get_ex(schema, "properties", &props);
	json_object_object_get_ex(schema, "patternProperties", &pp);
	json_object_object_foreach(inst, name, val) {
		if ((props && json_object_object_get_ex(props, name, NULL)) ||
		    pattern_property(v, pp, name))
			continue;
		if (json_object_is_type(ap, json_type_boolean)) {
			if (!json_object_get_boolean(ap))
				violation(v, ptr, "property \"%s\" is not allowed", name);
			continue;
		}
		pointer_push(ptr, name);
		validate(v, ap, val, ptr);
		sb_setlen(ptr, len);
	}
}

static void kw_items(struct validator *v, json_object *schema, json_object *items,
		     json_object *inst, struct strbuf *ptr)
{
	size_t len = ptr->len, n;

	(void)schema;
	if (!json_object_is_type(inst, json_type_array))
		return;
	n = json_object_array_length(inst);
	for (size_t i = 0; i < n; i++) {
		json_object *sub = items;

		if (json_object_is_type(items, json_type_array)) {
			if (i >= json_object_array_length(items))
				break;
			sub = json_object_array_get_idx(items, i);
		}
		pointer_push_index(ptr, i);
		validate(v, sub, json_object_array_get_idx(inst, i), ptr);
		sb_setlen(ptr, len);
	}
}

static void kw_min_items(struct validator *v, json_object *schema, json_object *m,
			 json_object *inst, struct strbuf *ptr)
{
	(void)schema;
	if (json_object_is_type(inst, json_type_array) &&
	    (double)json_object_array_length(inst) < json_object_get_double(m))
		violation(v, ptr, "has %zu items, fewer than minItems %s",
			  json_object_array_length(inst), json_object_to_json_string(m));
}

static void kw_max_items(struct validator *v, json_object *schema, json_object *m,
			 json_object *inst, struct strbuf *ptr)
{
	(void)schema;
	if (json_object_is_type(inst, json_type_array) &&
	    (double)json_object_array_length(inst) > json_object_get_double(m))
		violation(v, ptr, "has %zu items, more than maxItems %s",
			  json_object_array_length(inst), json_object_to_json_string(m));
}

static void kw_unique(struct validator *v, json_object *schema, json_object *u,
		      json_object *inst, struct strbuf *ptr)
{
	size_t n;

	(void)schema;
	if (!json_object_get_boolean(u) || !json_object_is_type(inst, json_type_array))
		return;
	n = json_object_array_length(inst);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (json_equal(json_object_array_get_idx(inst, i),
				       json_object_array_get_idx(inst, j))) {
				violation(v, ptr, "items %zu and %zu are equal (uniqueItems)", j, i);
				return;
			}
}

/* The numeric bounds: which side, whether the bound itself is allowed. */
static void bound(struct validator *v, json_object *b, json_object *inst, struct strbuf *ptr,
		  int below, int inclusive, const char *name)
{
	double x, lim = json_object_get_double(b);
	struct strbuf val = STRBUF_INIT;
	int bad;

	if (!is_number(inst))
		return;
	x = json_object_get_double(inst);
	if (json_object_is_type(inst, json_type_int) && json_object_is_type(b, json_type_int)) {
		int64_t xi = json_object_get_int64(inst), li = json_object_get_int64(b);

		bad = below ? (inclusive ? xi < li : xi <= li) : (inclusive ? xi > li : xi >= li);
	} else {
		bad = below ? (inclusive ? x < lim : x <= lim) : (inclusive ? x > lim : x >= lim);
	}
	if (!bad)
		return;
	show(&val, inst);
	violation(v, ptr, "%s is %s %s %s", val.buf,
		  below ? (inclusive ? "less than" : "not greater than")
			: (inclusive ? "greater than" : "not less than"),
		  name, json_object_to_json_string(b));
	sb_release(&val);
}

static void kw_minimum(struct validator *v, json_object *schema, json_object *b,
		       json_object *inst, struct strbuf *ptr)
{
	(void)schema;
	bound(v, b, inst, ptr, 1, 1, "minimum");
}

static void kw_maximum(struct validator *v, json_object *schema, json_object *b,
		       json_object *inst, struct strbuf *ptr)
{
	(void)schema;
	bound(v, b, inst, ptr, 0, 1, "maximum");
}

static void kw_exclusive_minimum(struct validator *v, json_object *schema, json_object *b,
				 json_object *inst, struct strbuf *ptr)
{
	(void)schema;
	bound(v, b, inst, ptr, 1, 0, "exclusiveMinimum");
}

static void kw_exclusive_maximum(struct validator *v, json_object *schema, json_object *b,
				 json_object *inst, struct strbuf *ptr)
{
	(void)schema;
	bound(v, b, inst, ptr, 0, 0, "exclusiveMaximum");
}

/* Code points in a valid UTF-8 string (the parser checked it). */
static size_t code_points(json_object *s)
{
	const char *p = json_object_get_string(s);
	size_t n = 0, len = (size_t)json_object_get_string_len(s);

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)p[i] & 0xc0) != 0x80;
	return n;
}

static void length(struct validator *v, json_object *m, json_object *inst,
		   struct strbuf *ptr, int min)
{
	size_t n;

	if (!json_object_is_type(inst, json_type_string))
		return;
	n = code_points(inst);
	if (min ? (double)n < json_object_get_double(m) : (double)n > json_object_get_double(m))
		violation(v, ptr, "is %zu characters long, %s than %s %s", n,
			  min ? "shorter" : "longer", min ? "minLength" : "maxLength",
			  json_object_to_json_string(m));
}

static void kw_min_length(struct validator *v, json_object *schema, json_object *m,
			  json_object *inst, struct strbuf *ptr)
{
	(void)schema;
	length(v, m, inst, ptr, 1);
}

static void kw_max_length(struct validator *v, json_object *schema, json_object *m,
			  json_object *inst, struct strbuf *ptr)
{
	(void)schema;
	length(v, m, inst, ptr, 0);
}

static void kw_pattern(struct validator *v, json_object *schema, json_object *p,
		       json_object *inst, struct strbuf *ptr)
{
	struct strbuf val = STRBUF_INIT;

	(void)schema;
	if (!json_object_is_type(inst, json_type_string) ||
	    pattern_matches(&v->patterns, json_object_get_string(p), inst))
		return;
	show(&val, inst);
	if (strlen(json_object_get_string(inst)) != (size_t)json_object_get_string_len(inst))
		violation(v, ptr, "%s holds U+0000, which this validator's patterns cannot "
			  "match (pattern \"%s\")", val.buf, json_object_get_string(p));
	else
		violation(v, ptr, "%s does not match pattern \"%s\"", val.buf,
			  json_object_get_string(p));
	sb_release(&val);
}

static void kw_format(struct validator *v, json_object *schema, json_object *f,
		      json_object *inst, struct strbuf *ptr)
{
	struct strbuf val = STRBUF_INIT;

	(void)schema;
	if (!json_object_is_type(inst, json_type_string) ||
	    strcmp(json_object_get_string(f), "date-time"))
		return;
	if (strlen(json_object_get_string(inst)) == (size_t)json_object_get_string_len(inst) &&
	    is_date_time(json_object_get_string(inst)))
		return;
	show(&val, inst);
	violation(v, ptr, "%s is not a date-time (RFC 3339)", val.buf);
	sb_release(&val);
}

static void kw_ref(struct validator *v, json_object *schema, json_object *r,
		   json_object *inst, struct strbuf *ptr)
{
	json_object *saved_inst = v->ref_inst;
	int saved_depth = v->ref_depth;

	(void)schema;
	/* $refs followed without moving to another value: a loop when there
	 * are more than REF_DEPTH_MAX of them. */
	if (inst != v->ref_inst) {
		v->ref_inst = inst;
		v->ref_depth = 0;
	}
	if (++v->ref_depth > REF_DEPTH_MAX)
		violation(v, ptr, "$ref \"%s\" is followed more than %d times on one value: "
			  "a loop in the schema", json_object_get_string(r), REF_DEPTH_MAX);
	else
		validate(v, ref_resolve(v, json_object_get_string(r)), inst, ptr);
	v->ref_inst = saved_inst;
	v->ref_depth = saved_depth;
}

static void kw_all_of(struct validator *v, json_object *schema, json_object *list,
		      json_object *inst, struct strbuf *ptr)
{
	(void)schema;
	for (size_t i = 0; i < json_object_array_length(list); i++)
		validate(v, json_object_array_get_idx(list, i), inst, ptr);
}

/* The lines of the branches that failed, indented, after the summary. */
static void branches(struct validator *v, const char *kw, json_object *list,
		     json_object *inst, struct strbuf *ptr, struct strbuf *lines)
{
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		struct strbuf one = STRBUF_INIT;
		const char *p, *nl;

		if (!validate_quiet(v, json_object_array_get_idx(list, i), inst, ptr, &one))
			continue;
		for (p = one.buf; *p; p = nl + 1) {
			nl = strchr(p, '\n');
			sb_addf(lines, "  %s/%zu: %.*s\n", kw, i, (int)(nl - p), p);
		}
		sb_release(&one);
	}
}

static void kw_any_of(struct validator *v, json_object *schema, json_object *list,
		      json_object *inst, struct strbuf *ptr)
{
	struct strbuf lines = STRBUF_INIT;

	(void)schema;
	for (size_t i = 0; i < json_object_array_length(list); i++)
		if (!validate_quiet(v, json_object_array_get_idx(list, i), inst, ptr, NULL))
			return;
	violation(v, ptr, "matches none of the %zu schemas of anyOf",
		  json_object_array_length(list));
	branches(v, "anyOf", list, inst, ptr, &lines);
	sb_add(v->out, lines.buf, lines.len);
	sb_release(&lines);
}

static void kw_one_of(struct validator *v, json_object *schema, json_object *list,
		      json_object *inst, struct strbuf *ptr)
{
	struct strbuf which = STRBUF_INIT, lines = STRBUF_INIT;
	size_t matched = 0;

	(void)schema;
	for (size_t i = 0; i < json_object_array_length(list); i++)
		if (!validate_quiet(v, json_object_array_get_idx(list, i), inst, ptr, NULL)) {
			sb_addf(&which, "%s%zu", matched ? ", " : "", i);
			matched++;
		}
	if (matched == 1)
		goto out;
	if (matched > 1) {
		violation(v, ptr, "matches schemas %s of oneOf; exactly one must match", which.buf);
		goto out;
	}
	violation(v, ptr, "matches none of the %zu schemas of oneOf",
		  json_object_array_length(list));
	branches(v, "oneOf", list, inst, ptr, &lines);
	sb_add(v->out, lines.buf, lines.len);
out:
	sb_release(&which);
	sb_release(&lines);
}

static void kw_not(struct validator *v, json_object *schema, json_object *sub,
		   json_object *inst, struct strbuf *ptr)
{
	(void)schema;
	if (!validate_quiet(v, sub, inst, ptr, NULL))
		violation(v, ptr, "matches the schema of \"not\"");
}

static void kw_if(struct validator *v, json_object *schema, json_object *cond,
		  json_object *inst, struct strbuf *ptr)
{
	json_object *branch = NULL;

	json_object_object_get_ex(schema, validate_quiet(v, cond, inst, ptr, NULL) ? "else" : "then",
				  &branch);
	if (branch)
		validate(v, branch, inst, ptr);
}

static void validate(struct validator *v, json_object *schema, json_object *inst,
		     struct strbuf *ptr)
{
	if (json_object_is_type(schema, json_type_boolean)) {
		if (!json_object_get_boolean(schema))
			violation(v, ptr, "no value is allowed here (schema false)");
		return;
	}
	json_object_object_foreach(schema, name, arg) {
		const struct keyword *k = keyword_find(name);

		if (k && k->apply)
			k->apply(v, schema, arg, inst, ptr);
	}
}

int main(int argc, char **argv)
{
	struct validator v = { 0 };
	struct strbuf spath = STRBUF_INIT, ptr = STRBUF_INIT, out = STRBUF_INIT;
	int status = 0;

	if (argc < 3 || argv[1][0] == '-') {
		fprintf(stderr, "usage: jsonschema SCHEMA.json DOC.json...\n"
				"  each violation as DOC: /json/pointer: what is wrong; exit 0 when\n"
				"  every DOC is valid, 1 when one is not, 2 when a file cannot be read,\n"
				"  is not JSON, or the schema uses what this program cannot apply\n");
		return 2;
	}
	/* Brackets and '.' match code points, as ECMA-262's do. */
	if (!setlocale(LC_CTYPE, "C.UTF-8")) {
		fprintf(stderr, "jsonschema: the C.UTF-8 locale is missing\n");
		return 2;
	}
	v.schema_name = argv[1];
	if (load_json(argv[1], &v.root) < 0)
		return 2;
	if (check_schema(&v, v.root, &spath) < 0) {
		status = 2;
		goto out;
	}
	v.out = &out;
	for (int i = 2; i < argc; i++) {
		json_object *doc;

		if (load_json(argv[i], &doc) < 0) {
			status = 2;
			continue;
		}
		v.doc = argv[i];
		sb_reset(&ptr);
		validate(&v, v.root, doc, &ptr);
		json_object_put(doc);
	}
	fwrite(out.buf, 1, out.len, stdout);
	if (v.errors && status == 0)
		status = 1;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "jsonschema: cannot write to standard output\n");
		status = 2;
	}
out:
	json_object_put(v.root);
	patterns_release(&v.patterns);
	sb_release(&spath);
	sb_release(&ptr);
	sb_release(&out);
	return status;
}
