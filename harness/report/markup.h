/* SPDX-License-Identifier: Apache-2.0 */
/*
 * markup: the elements a report document is made of, and one table of
 * functions per format that draws them.
 *
 * document.h says once what each document holds: its sections in order,
 * their headings, tables and lists, and the condition for each.  A markup
 * only draws those elements in its format and escapes every string of
 * data.  markdown.h's markdown_markup and html.c's html_markup are the
 * two; the page shell around an HTML document is html.c's own.
 *
 *	struct doc d;
 *	doc_init(&d, &html_markup, &sb);
 *	mk_lit_block(&d, MK_H2, NULL, "checks", "Checks");	// <h2 id="checks">
 *	mk_table(&d, "checks", cols, ARRAY_SIZE(cols));		// and its header row
 *	mk_row(&d, NULL);
 *	mk_text_cell(&d, check_name);
 *	mk_cell(&d, "fail", 1); mk_lit(&d, "FAIL"); mk_cell_end(&d);
 *	mk_row_end(&d);
 *	mk_table_end(&d);
 *
 * Text comes in two kinds.  mk_text() is data (a name from the guest, a
 * check's detail), escaped by the format (md_escape, html_escape).
 * mk_lit(), mk_addf() and a table's headings are the report's own words
 * and numbers, written as they are: they hold nothing either format reads
 * as markup (no < & or quote, no markdown character that counts mid-line).
 * MK_PARTS() writes words and data in turn: "kernel ", version, " (", ...
 *
 * Hints a format may ignore: a class (HTML's class attribute: a paragraph
 * "note", a row "headline", a cell "fail"; markdown has none), an id (an
 * HTML anchor), MK_SPAN and MK_EM (styled text in HTML, plain in
 * markdown), MK_CODE (HTML's <code>; markdown writes the escaped text, as
 * escapes do not work inside a code span), MK_BOX (HTML's <div>) and a
 * line break (a space in markdown).  A cell that must stand out (a failed
 * check, a regression) is bold in markdown; HTML marks it by its class.
 *
 * A page (mk->page: HTML) states every fact where it belongs and draws
 * charts (svg.h, straight into d->out); markdown instead quotes the
 * terminal summary (text.h) in a code block (mk->pre) after the head and
 * leaves those facts to it.
 */
#ifndef SCALETEST_REPORT_MARKUP_H
#define SCALETEST_REPORT_MARKUP_H

#include <stddef.h>

#include "lib/strbuf.h"

enum mk_block { MK_H1, MK_H2, MK_P, MK_BOX, MK_LIST, MK_ITEM };
enum mk_inline { MK_STRONG, MK_EM, MK_SPAN, MK_CODE };
enum mk_align { MK_LEFT, MK_RIGHT };

/* A table's column: its heading and how its cells align. */
struct mk_col {
	const char *head;
	enum mk_align align;
};

struct doc;

struct markup {
	int page;
	void (*escape)(struct strbuf *out, const char *s);
	void (*block)(struct doc *d, enum mk_block what, const char *cls, const char *id);
	void (*block_end)(struct doc *d, enum mk_block what);
	void (*inline_begin)(struct doc *d, enum mk_inline what, const char *cls);
	void (*inline_end)(struct doc *d, enum mk_inline what);
	void (*br)(struct doc *d);
	void (*pre)(struct doc *d, const char *text);	/* lines ending '\n' */
	void (*table)(struct doc *d, const char *cls);	/* d->cols: the header */
	void (*row)(struct doc *d, const char *cls);
	void (*cell)(struct doc *d, const char *cls, int strong);
	void (*cell_end)(struct doc *d);		/* d->strong: as begun */
	void (*row_end)(struct doc *d);
	void (*table_end)(struct doc *d);
};

/* A document being written: its markup, its output, and what the markup
 * keeps between calls. */
struct doc {
	const struct markup *mk;
	struct strbuf *out;
	int blank;			/* markdown: a block ended, a blank line is due */
	const struct mk_col *cols;	/* the table being written */
	size_t ncols, col;		/* its columns, the cell being written */
	int strong;			/* that cell stands out */
};

void doc_init(struct doc *d, const struct markup *mk, struct strbuf *out);

void mk_text(struct doc *d, const char *s);
void mk_textf(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mk_lit(struct doc *d, const char *s);
void mk_addf(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* parts[0], parts[2]... as words, parts[1], parts[3]... as data. */
void mk_parts(struct doc *d, const char *const *parts, size_t n);
#define MK_PARTS(d, ...) \
	mk_parts((d), (const char *const[]){ __VA_ARGS__ }, \
		 sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *))

void mk_block(struct doc *d, enum mk_block what, const char *cls, const char *id);
void mk_block_end(struct doc *d, enum mk_block what);
void mk_inline(struct doc *d, enum mk_inline what, const char *cls);
void mk_inline_end(struct doc *d, enum mk_inline what);
void mk_br(struct doc *d);
void mk_pre(struct doc *d, const char *text);
/* A block or inline element holding only the report's own words. */
void mk_lit_block(struct doc *d, enum mk_block what, const char *cls, const char *id, const char *s);
void mk_lit_inline(struct doc *d, enum mk_inline what, const char *cls, const char *s);
/* An inline element holding data. */
void mk_text_inline(struct doc *d, enum mk_inline what, const char *cls, const char *s);

void mk_table(struct doc *d, const char *cls, const struct mk_col *cols, size_t ncols);
void mk_row(struct doc *d, const char *cls);
void mk_cell(struct doc *d, const char *cls, int strong);
void mk_cell_end(struct doc *d);
void mk_row_end(struct doc *d);
void mk_table_end(struct doc *d);
/* A cell holding data / the report's own words. */
void mk_text_cell(struct doc *d, const char *s);
void mk_lit_cell(struct doc *d, const char *s);

#endif
