// SPDX-License-Identifier: Apache-2.0
#include "report/markup.h"

#include <stdarg.h>

void doc_init(struct doc *d, const struct markup *mk, struct strbuf *out)
{
	*d = (struct doc){ .mk = mk, .out = out };
}

void mk_text(struct doc *d, const char *s)
{
	d->mk->escape(d->out, s);
}

void mk_textf(struct doc *d, const char *fmt, ...)
{
	struct strbuf s = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(&s, fmt, ap);
	va_end(ap);
	mk_text(d, s.buf);
	sb_release(&s);
}

void mk_lit(struct doc *d, const char *s)
{
	sb_adds(d->out, s);
}

void mk_addf(struct doc *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(d->out, fmt, ap);
	va_end(ap);
}

void mk_block(struct doc *d, enum mk_block what, const char *cls, const char *id)
{
	d->mk->block(d, what, cls, id);
}

void mk_block_end(struct doc *d, enum mk_block what)
{
	d->mk->block_end(d, what);
}

void mk_inline(struct doc *d, enum mk_inline what, const char *cls)
{
	d->mk->inline_begin(d, what, cls);
}

void mk_inline_end(struct doc *d, enum mk_inline what)
{
	d->mk->inline_end(d, what);
}

void mk_lit_block(struct doc *d, enum mk_block what, const char *cls, const char *id, const char *s)
{
	mk_block(d, what, cls, id);
	mk_lit(d, s);
	mk_block_end(d, what);
}

void mk_lit_inline(struct doc *d, enum mk_inline what, const char *cls, const char *s)
{
	mk_inline(d, what, cls);
	mk_lit(d, s);
	mk_inline_end(d, what);
}

void mk_table(struct doc *d, const char *cls, const struct mk_col *cols, size_t ncols)
{
	d->cols = cols;
	d->ncols = ncols;
	d->mk->table(d, cls);
}

void mk_row(struct doc *d, const char *cls)
{
	d->col = 0;
	d->mk->row(d, cls);
}

void mk_cell(struct doc *d, const char *cls, int strong)
{
	d->strong = strong;
	d->mk->cell(d, cls, strong);
}

void mk_cell_end(struct doc *d)
{
	d->mk->cell_end(d);
	d->strong = 0;
	d->col++;
}

void mk_row_end(struct doc *d)
{
	d->mk->row_end(d);
}

void mk_table_end(struct doc *d)
{
	d->mk->table_end(d);
	d->cols = NULL;
	d->ncols = 0;
}

void mk_text_cell(struct doc *d, const char *s)
{
	mk_cell(d, NULL, 0);
	mk_text(d, s);
	mk_cell_end(d);
}

void mk_lit_cell(struct doc *d, const char *s)
{
	mk_cell(d, NULL, 0);
	mk_lit(d, s);
	mk_cell_end(d);
}

void mk_parts(struct doc *d, const char *const *parts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i % 2)
			mk_text(d, parts[i]);
		else
			mk_lit(d, parts[i]);
	}
}

void mk_br(struct doc *d)
{
	d->mk->br(d);
}

void mk_pre(struct doc *d, const char *text)
{
	d->mk->pre(d, text);
}

void mk_text_inline(struct doc *d, enum mk_inline what, const char *cls, const char *s)
{
	mk_inline(d, what, cls);
	mk_text(d, s);
	mk_inline_end(d, what);
}
