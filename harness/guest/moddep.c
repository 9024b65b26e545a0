#include "guest/moddep.h"

#include <stdlib.h>
#include <string.h>

#include "lib/textscan.h"
#include "lib/util.h"

void module_name(const char *path, char *out, size_t n)
{
	const char *b = path_basename(path);
	size_t i = 0;

	for (; *b && i + 1 < n; b++) {
		if (!strncmp(b, ".ko", 3) && (b[3] == '\0' || b[3] == '.'))
			break;
		out[i++] = *b == '-' ? '_' : *b;
	}
	out[i] = '\0';
}

static void normalise(const char *name, char *out, size_t n)
{
	module_name(name, out, n);
}

static const struct modent *find(const struct moddep *d, const char *name)
{
	char norm[64];

	normalise(name, norm, sizeof(norm));
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->m[i].name, norm))
			return &d->m[i];
	return NULL;
}

/* The length of the module name in path, as module_name() makes it but
 * whole (module_name() cuts it to the buffer it is given). */
static size_t name_len(const char *path)
{
	const char *b = path_basename(path);
	size_t i = 0;

	for (; b[i]; i++)
		if (!strncmp(b + i, ".ko", 3) && (b[i + 3] == '\0' || b[i + 3] == '.'))
			break;
	return i;
}

static int valid_path(const char *p)
{
	size_t n = strlen(p);

	if (!n || p[0] == '/' || strstr(p, "..") || n < 4)
		return 0;
	/* A name cut to fit struct modent would compare equal to another. */
	if (name_len(p) >= sizeof(((struct modent *)0)->name))
		return 0;
	for (; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return 0;
	return 1;
}

int moddep_parse(struct moddep *d, const char *buf, size_t len, struct strbuf *err)
{
	struct line_iter it;
	struct strbuf line = STRBUF_INIT;

	line_iter_init(&it, buf, len);
	while (line_next(&it)) {
		char *f[512];
		int n;
		const char *why = NULL;

		if (!it.len)
			continue;
		if (line_has_nul(it.line, it.len)) {
			why = "NUL byte";
			goto bad;
		}
		sb_reset(&line);
		sb_add(&line, it.line, it.len);
		char *colon = strchr(line.buf, ':');
		if (!colon) {
			why = "missing ':'";
			goto bad;
		}
		*colon = '\0';
		n = split_fields(colon + 1, f, 511);
		if (n > 511) {
			why = "too many dependencies";
			goto bad;
		}
		if (!valid_path(line.buf)) {
			why = "bad module path";
			goto bad;
		}
		for (int i = 0; i < n; i++)
			if (!valid_path(f[i])) {
				why = "bad dependency path";
				goto bad;
			}
		ALLOC_GROW(d->m, d->n + 1, d->alloc);
		struct modent *e = &d->m[d->n++];
		e->path = xstrdup(line.buf);
		module_name(e->path, e->name, sizeof(e->name));
		e->ndeps = (size_t)n;
		e->deps = xcalloc((size_t)n + 1, sizeof(char *));
		for (int i = 0; i < n; i++)
			e->deps[i] = xstrdup(f[i]);
		continue;
bad:
		sb_addf(err, "modules.dep:%u: %s", it.lineno, why);
		sb_release(&line);
		return -1;
	}
	sb_release(&line);
	return 0;
}

int moddep_parse_builtin(struct moddep *d, const char *buf, size_t len,
			 struct strbuf *err)
{
	struct line_iter it;
	struct strbuf line = STRBUF_INIT;
	char name[64];

	line_iter_init(&it, buf, len);
	while (line_next(&it)) {
		if (!it.len)
			continue;
		sb_reset(&line);
		sb_add(&line, it.line, it.len);
		if (line_has_nul(it.line, it.len) || !valid_path(line.buf)) {
			sb_addf(err, "modules.builtin:%u: bad module path", it.lineno);
			sb_release(&line);
			return -1;
		}
		module_name(line.buf, name, sizeof(name));
		strvec_push(&d->builtin, name);
	}
	sb_release(&line);
	return 0;
}

int moddep_is_builtin(const struct moddep *d, const char *name)
{
	char norm[64];

	normalise(name, norm, sizeof(norm));
	return strvec_find(&d->builtin, norm) >= 0;
}

static int compressed(const char *path)
{
	const char *ko = strstr(path, ".ko.");

	return ko != NULL;
}

static int add_path(struct strvec *order, const char *path, struct strbuf *err)
{
	if (compressed(path)) {
		sb_addf(err, "module '%s' is compressed; build the kernel with "
			"CONFIG_MODULE_COMPRESS_NONE", path);
		return -1;
	}
	if (strvec_find(order, path) < 0)
		strvec_push(order, path);
	return 0;
}

int moddep_closure(const struct moddep *d, const char *name,
		   struct strvec *order, struct strbuf *err)
{
	const struct modent *e = find(d, name);

	if (!e) {
		if (moddep_is_builtin(d, name))
			return 0;
		sb_addf(err, "module '%s' is neither in modules.dep nor built in", name);
		return -1;
	}
	/* depmod lists the deepest dependency last: load in reverse. */
	for (size_t i = e->ndeps; i-- > 0; )
		if (add_path(order, e->deps[i], err) < 0)
			return -1;
	return add_path(order, e->path, err);
}

void moddep_release(struct moddep *d)
{
	for (size_t i = 0; i < d->n; i++) {
		for (size_t j = 0; j < d->m[i].ndeps; j++)
			free(d->m[i].deps[j]);
		free(d->m[i].deps);
		free(d->m[i].path);
	}
	free(d->m);
	strvec_clear(&d->builtin);
	memset(d, 0, sizeof(*d));
}
