// SPDX-License-Identifier: Apache-2.0
#include "lib/json.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/strvec.h"
#include "lib/util.h"

json_object *json_fixed(double v, int decimals)
{
	char buf[64];

	if (!isfinite(v))
		return NULL;
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	if (!strncmp(buf, "-0", 2) && strspn(buf + 2, ".0") == strlen(buf + 2))
		memmove(buf, buf + 1, strlen(buf));	/* no "-0.000" */
	return json_object_new_double_s(atof(buf), buf);
}

json_object *json_seconds(double s)
{
	char buf[40];

	/* Two decimals while they fit in buf (below 1e15 they do, with
	 * room to spare); beyond, all the digits a double has.  JSON has no
	 * NaN or infinity: those are null. */
	if (!isfinite(s))
		return NULL;
	if (fabs(s) < 1e15)
		snprintf(buf, sizeof(buf), "%.2f", s);
	else
		snprintf(buf, sizeof(buf), "%.17g", s);
	return json_object_new_double_s(s, buf);
}



/* A string of o's tree made clean (lib/util.h, sb_add_clean; newlines and
 * tabs kept): a new string object, or NULL when it needs no change. */
static json_object *clean_copy(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	json_object *o;

	if (text_is_clean(s, n, 1))
		return NULL;
	sb_add_clean(&sb, s, n, 1);
	o = json_object_new_string_len(sb.buf, (int)sb.len);
	sb_release(&sb);
	return o;
}

void json_clean_strings(json_object *o)
{
	if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++) {
			json_object *e = json_object_array_get_idx(o, i), *c;

			if (json_object_is_type(e, json_type_string) &&
			    (c = clean_copy(json_object_get_string(e),
					    (size_t)json_object_get_string_len(e))))
				json_object_array_put_idx(o, i, c);
			else
				json_clean_strings(e);
		}
	} else if (json_object_is_type(o, json_type_object)) {
		struct strvec dirty = STRVEC_INIT;

		json_object_object_foreach(o, key, val) {
			json_object *c;

			if (!text_is_clean(key, strlen(key), 0))
				strvec_push(&dirty, key);
			else if (json_object_is_type(val, json_type_string) &&
				 (c = clean_copy(json_object_get_string(val),
						 (size_t)json_object_get_string_len(val))))
				json_object_object_add(o, key, c);	/* replaces in place */
			else
				json_clean_strings(val);
		}
		/* A dirty key: its entry again under the clean key (the order of
		 * such entries changes; none of the harness's own keys is dirty). */
		for (size_t i = 0; i < dirty.n; i++) {
			json_object *v = json_object_get(json_object_object_get(o, dirty.v[i]));
			char *k = xstrclean(dirty.v[i], strlen(dirty.v[i]));

			json_object_object_del(o, dirty.v[i]);
			json_clean_strings(v);
			if (json_object_is_type(v, json_type_string)) {
				json_object *c = clean_copy(json_object_get_string(v),
							    (size_t)json_object_get_string_len(v));
				if (c) {
					json_object_put(v);
					v = c;
				}
			}
			json_object_object_add(o, k, v);
			free(k);
		}
		strvec_clear(&dirty);
	}
}

void json_pretty(struct strbuf *out, json_object *o)
{
	json_pretty_text(out, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
								JSON_C_TO_STRING_SPACED |
								JSON_C_TO_STRING_NOSLASHESCAPE));
}

void json_pretty_text(struct strbuf *out, const char *p)
{
	size_t bol = out->len;	/* where the current line starts in out */
	int in_string = 0;

	for (; *p; p++) {
		if (in_string) {
			sb_addch(out, *p);
			if (*p == '\\' && p[1])
				sb_addch(out, *++p);
			else if (*p == '"')
				in_string = 0;
			continue;
		}
		if ((p[0] == '[' && p[1] == ']') || (p[0] == '{' && p[1] == '}')) {
			size_t indent = 0;

			while (bol + indent < out->len && out->buf[bol + indent] == ' ')
				indent++;
			sb_addch(out, p[0]);
			sb_addch(out, '\n');
			bol = out->len;
			for (size_t i = 0; i < indent; i++)
				sb_addch(out, ' ');
			sb_addch(out, *++p);
			continue;
		}
		sb_addch(out, *p);
		if (*p == '"')
			in_string = 1;
		else if (*p == '\n')
			bol = out->len;
	}
}

int json_save(json_object *root, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	/* Whatever it was built from (host.json, another run's result.json),
	 * a document the harness writes is valid UTF-8 without controls. */
	json_clean_strings(root);
	json_pretty(&sb, root);
	sb_addch(&sb, '\n');
	r = write_file_atomic(path, sb.buf, sb.len);
	sb_release(&sb);
	return r;
}

const struct json_limits json_document_limits = {
	JSON_MAX_BYTES, JSON_MAX_CONTAINERS, JSON_MAX_VALUES,
};

/* Where a scan stands in a comment (json-c's, outside strings): after
 * '/', inside a block comment, after its '*', inside a line comment. */
enum { C_NONE, C_SLASH, C_BLOCK, C_BLOCK_STAR, C_LINE };

static int token_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '-' || c == '+' || c == '.';
}

/*
 * Counts what buf holds, as json-c reads it: every '{' and '[' outside a
 * string or comment is an object or array; every string (a key too), every
 * number or literal and every object or array is a value.  Where json-c
 * would refuse the bytes (a '/' that starts no comment, a quote after a
 * number) the count may only be higher than what json-c makes, never lower:
 * json-c stops there.
 */
static void scan(struct json_reader *r, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (r->quote) {
			if (r->esc)
				r->esc = 0;
			else if (c == '\\')
				r->esc = 1;
			else if (c == (unsigned char)r->quote)
				r->quote = 0;
			continue;
		}
		switch (r->comment) {
		case C_SLASH:
			if (c == '*') {
				r->comment = C_BLOCK;
				continue;
			}
			if (c == '/') {
				r->comment = C_LINE;
				continue;
			}
			r->comment = C_NONE;	/* json-c refuses it; count on */
			break;
		case C_BLOCK:
			if (c == '*')
				r->comment = C_BLOCK_STAR;
			continue;
		case C_BLOCK_STAR:
			/* as json-c: the byte after a '*' belongs to the comment,
			 * even another '*', so three stars and a slash after the
			 * opening do not close it */
			r->comment = c == '/' ? C_NONE : C_BLOCK;
			continue;
		case C_LINE:
			if (c == '\n')
				r->comment = C_NONE;
			continue;
		}
		if (token_byte(c)) {
			if (!r->token)
				r->values++;
			r->token = 1;
			continue;
		}
		r->token = 0;
		if (c == '"' || c == '\'') {
			r->quote = (char)c;
			r->values++;
		} else if (c == '{' || c == '[') {
			r->containers++;
			r->values++;
		} else if (c == '/') {
			r->comment = C_SLASH;
		}
	}
}

void json_reader_init(struct json_reader *r, const char *name, const struct json_limits *lim)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->lim = lim;
	r->tok = json_tokener_new();
	if (!r->tok)
		xalloc_fatal("json_tokener_new", NULL);
}

void json_reader_release(struct json_reader *r)
{
	json_object_put(r->root);
	if (r->tok)
		json_tokener_free(r->tok);
	memset(r, 0, sizeof(*r));
}

void json_tree_cost(json_object *o, size_t *containers, size_t *values)
{
	++*values;
	if (json_object_is_type(o, json_type_array)) {
		++*containers;
		for (size_t i = 0; i < json_object_array_length(o); i++)
			json_tree_cost(json_object_array_get_idx(o, i), containers, values);
	} else if (json_object_is_type(o, json_type_object)) {
		++*containers;
		json_object_object_foreach(o, k, v) {
			(void)k;
			++*values;
			json_tree_cost(v, containers, values);
		}
	}
}

json_object *json_reader_root(struct json_reader *r)
{
	json_object *o = r->root;

	r->root = NULL;
	return o;
}

static int too_big(const struct json_reader *r, struct strbuf *err)
{
	sb_addf(err, "cannot read '%s': larger than the harness reads for such a file "
		"(more than %zu bytes)", r->name, r->lim->bytes);
	return -1;
}

int json_reader_feed(struct json_reader *r, const char *buf, size_t n, struct strbuf *err)
{
	size_t at = r->bytes;
	enum json_tokener_error e;
	json_object *o;

	/* json-c takes an int length: the file readers feed 64 KB. */
	if (n > (size_t)1 << 30)
		xalloc_fatal("json_reader_feed: chunk too large", NULL);
	if (r->root)
		return 1;
	if (n > r->lim->bytes - r->bytes)
		return too_big(r, err);
	r->bytes += n;
	scan(r, buf, n);
	if (r->containers > r->lim->containers) {
		sb_addf(err, "%s: more than %zu objects and arrays, the most a document may "
			"hold here (docs/trust.md)", r->name, r->lim->containers);
		return -1;
	}
	if (r->values > r->lim->values) {
		sb_addf(err, "%s: more than %zu values, the most a document may hold here "
			"(docs/trust.md)", r->name, r->lim->values);
		return -1;
	}
	o = json_tokener_parse_ex(r->tok, buf, (int)n);
	e = json_tokener_get_error(r->tok);
	if (!o && e == json_tokener_continue)
		return 0;
	if (!o || e != json_tokener_success) {
		sb_addf(err, "%s: not valid JSON (%s at byte %zu)", r->name,
			json_tokener_error_desc(e), at + json_tokener_get_parse_end(r->tok));
		json_object_put(o);
		return -1;
	}
	r->root = o;
	return 1;
}

int json_reader_end(struct json_reader *r, struct strbuf *err)
{
	json_object *o;
	enum json_tokener_error e;

	if (r->root)
		return 1;
	/* A number at the very end is complete only now (json-c reads the
	 * terminating NUL as its end). */
	o = json_tokener_parse_ex(r->tok, "", 1);
	e = json_tokener_get_error(r->tok);
	if (o && e == json_tokener_success) {
		r->root = o;
		return 1;
	}
	json_object_put(o);
	sb_addf(err, "%s: not valid JSON (%s at byte %zu)", r->name,
		r->bytes ? "unexpected end of data" : "empty", r->bytes);
	return -1;
}

static int want_object(json_object **root, json_object *o, const char *name,
		       struct strbuf *err)
{
	if (!json_object_is_type(o, json_type_object)) {
		sb_addf(err, "%s: not a JSON object", name);
		json_object_put(o);
		return -1;
	}
	*root = o;
	return 0;
}

int json_parse_object(const char *buf, size_t len, const char *name,
		      const struct json_limits *lim, json_object **root, struct strbuf *err)
{
	struct json_reader r;
	size_t off = 0;
	int st = 0;

	*root = NULL;
	json_reader_init(&r, name, lim);
	while (st == 0 && off < len) {
		size_t n = len - off < 65536 ? len - off : 65536;

		st = json_reader_feed(&r, buf + off, n, err);
		off += n;
	}
	if (st == 0)
		st = json_reader_end(&r, err);
	if (st == 1)
		st = want_object(root, json_reader_root(&r), name, err);
	json_reader_release(&r);
	return st < 0 ? -1 : 0;
}

int json_load_object_max(const char *path, const struct json_limits *lim,
			 json_object **root, struct strbuf *err)
{
	struct json_reader r;
	char chunk[65536];
	struct stat st;
	int fd, s = 0;

	*root = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		sb_addf(err, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		sb_addf(err, "cannot read '%s': %s", path, sb_read_strerror(EINVAL));
		close(fd);
		return -1;
	}
	json_reader_init(&r, path, lim);
	if ((uintmax_t)st.st_size > lim->bytes)
		s = too_big(&r, err);
	while (s == 0) {
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			sb_addf(err, "cannot read '%s': %s", path, strerror(errno));
			s = -1;
		} else if (n == 0) {
			s = json_reader_end(&r, err);
		} else {
			s = json_reader_feed(&r, chunk, (size_t)n, err);
		}
	}
	close(fd);
	if (s == 1)
		s = want_object(root, json_reader_root(&r), path, err);
	json_reader_release(&r);
	return s < 0 ? -1 : 0;
}

int json_load_object(const char *path, json_object **root, struct strbuf *err)
{
	return json_load_object_max(path, &json_document_limits, root, err);
}

json_object *jget(json_object *o, const char *path)
{
	char key[128];

	while (o && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, key, &o))
			return NULL;
		path += n;
		if (*path == '.')
			path++;
	}
	return o;
}

long long jint(json_object *o, const char *path, long long def)
{
	json_object *v = jget(o, path);

	if (!v || !(json_object_is_type(v, json_type_int) ||
		    json_object_is_type(v, json_type_double)))
		return def;
	/* NaN, an infinity or a double past int64 (fio's "bw": NaN) is no number:
	 * json_object_get_int64() would make it INT64_MIN. */
	if (json_object_is_type(v, json_type_double)) {
		double d = json_object_get_double(v);

		if (!isfinite(d) || d < -9.2e18 || d > 9.2e18)
			return def;
	}
	return json_object_get_int64(v);
}

double jdouble(json_object *o, const char *path, double def)
{
	json_object *v = jget(o, path);

	if (!v || !(json_object_is_type(v, json_type_int) ||
		    json_object_is_type(v, json_type_double)))
		return def;
	if (!isfinite(json_object_get_double(v)))
		return def;
	return json_object_get_double(v);
}

const char *jstr(json_object *o, const char *path, const char *def)
{
	json_object *v = jget(o, path);

	if (!v || !json_object_is_type(v, json_type_string))
		return def;
	return json_object_get_string(v);
}

json_object *jarray(json_object *o, const char *path)
{
	json_object *a = jget(o, path);

	return json_object_is_type(a, json_type_array) ? a : NULL;
}

size_t jlen(json_object *a)
{
	return json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

json_object *json_clean_string(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	json_object *o;

	sb_add_clean(&sb, s, n, 0);
	o = json_object_new_string_len(sb.buf, (int)sb.len);
	sb_release(&sb);
	return o;
}
