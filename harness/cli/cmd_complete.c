// SPDX-License-Identifier: Apache-2.0
/*
 * scaletest __complete WORD...: what a shell may complete, for the bash,
 * zsh and fish completions (tools/completion/), which ask it and only
 * adapt its answer to their shell, so the three offer the same words,
 * drawn from the same tables as --help: the command table (main.c hands
 * it over, as the table is above the commands), each command's usage text
 * (its --options, the argument each takes, its verbs "scaletest CMD
 * VERB") and the scenario key table.  Not in the command table: a shell's
 * helper, not a user's command.
 *
 * WORDs are the command line after "scaletest" up to the word being
 * completed, which is the last (empty when it is a new word).  Printed:
 * the candidates that start with it, one a line, "WORD" or
 * "WORD<TAB>DESCRIPTION", then one line saying what else to complete:
 *
 *	:words     nothing else
 *	:nospace   nothing else, and no space after the word (KEY=)
 *	:files     file names too
 *	:dirs      folder names too
 *
 * (":words" with no word before it: a free value, a number, a revision,
 * a URI, or an unknown command's argument.)
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "scenario/scenario.h"

/* What an option's argument is, by the name its usage gives it ("--out
 * DIR"); a name not here is a free value.  KEY=VALUE: the scenario keys,
 * as "KEY=". */
static const struct {
	const char *name;
	const char *kind;
} arg_kinds[] = {
	{ "DIR", "dirs" }, { "TREE", "dirs" }, { "RUN", "dirs" },
	{ "RUN_DIR", "dirs" }, { "NIGHT_DIR", "dirs" }, { "RESULTS_DIR", "dirs" },
	{ "PATH", "files" }, { "FILE", "files" }, { "BZIMAGE", "files" },
	{ "SERIES", "files" }, { "SCENARIO", "files" }, { "MATRIX", "files" },
	{ "COMPARE.json", "files" },
};

/* One completion run: the word being completed, what was printed. */
struct completion {
	const char *cur;
	const char *kind;	/* words, nospace, files or dirs */
	struct strbuf seen;	/* "\nWORD\n...": each candidate printed */
	size_t offered;
};

/* A candidate, if it starts with the current word (and once). */
static void offer(struct completion *c, const char *word, size_t len, const char *desc, size_t dlen)
{
	struct strbuf key = STRBUF_INIT;

	if (len < strlen(c->cur) || strncmp(word, c->cur, strlen(c->cur)))
		return;
	sb_addch(&key, '\n');
	sb_add(&key, word, len);
	sb_addch(&key, '\n');
	if (!strstr(c->seen.buf, key.buf)) {
		sb_add(&c->seen, key.buf + 1, key.len - 1);
		c->offered++;
		printf("%.*s", (int)len, word);
		if (dlen)
			printf("\t%.*s", (int)dlen, desc);
		putchar('\n');
	}
	sb_release(&key);
}

static void offers(struct completion *c, const char *word, const char *desc)
{
	offer(c, word, strlen(word), desc ? desc : "", desc ? strlen(desc) : 0);
}

/* The length of an option's name at s ("--name"), 0 if none is there. */
static size_t option_len(const char *s)
{
	size_t n = 2;

	if (s[0] != '-' || s[1] != '-' || !islower((unsigned char)s[2]))
		return 0;
	while (islower((unsigned char)s[n]) || isdigit((unsigned char)s[n]) || s[n] == '-')
		n++;
	while (n > 2 && s[n - 1] == '-')
		n--;
	return n;
}

/* The argument's name after an option at s + n in a usage text ("--out
 * DIR": DIR), or 0: one space, then a name in capitals (URI[,slots=N]:
 * URI) or choices (md|mdoc).  Its length, from *arg. */
static size_t option_arg(const char *s, size_t n, const char **arg)
{
	const char *a = s + n;
	size_t len = 0;

	if (a[0] != ' ' || a[1] == ' ')
		return 0;
	a++;
	while (a[len] && !isspace((unsigned char)a[len]) && a[len] != '[' && a[len] != ']' &&
	       a[len] != ')' && a[len] != ',')
		len++;
	if (!len || !(isupper((unsigned char)a[0]) || memchr(a, '|', len)))
		return 0;
	*arg = a;
	return len;
}

/* An option's mention at s in usage, n bytes long, if it is one of this
 * command's: not part of a longer word, and not another command's
 * ("(scaletest run --repeat N)" in compare's usage). */
static int own_option(const char *usage, const char *s, size_t n, const char *cmd)
{
	const char *bol = s, *sc = NULL;

	if (!n || (s > usage && (isalnum((unsigned char)s[-1]) || s[-1] == '-')))
		return 0;
	while (bol > usage && bol[-1] != '\n')
		bol--;
	for (const char *p = bol; (p = strstr(p, "scaletest ")) && p < s; p++)
		sc = p;
	if (sc) {
		const char *w = sc + strlen("scaletest ");
		const char *e = w;

		while (islower((unsigned char)*e))
			e++;
		if (*e == ' ' && e + 1 == s &&
		    ((size_t)(e - w) != strlen(cmd) || strncmp(w, cmd, (size_t)(e - w))))
			return 0;
	}
	return 1;
}

/* The description beside option opt where a line of usage starts with it
 * ("  --out DIR   results directory"), or 0. */
static size_t option_desc(const char *usage, const char *opt, size_t n, const char **desc)
{
	for (const char *s = usage; (s = strstr(s, opt)); s += n) {
		const char *bol = s, *d = s + n, *eol;
		int at_start = 1;

		if (option_len(s) != n)
			continue;
		while (bol > usage && bol[-1] != '\n')
			bol--;
		for (const char *p = bol; p < s; p++)
			if (*p != ' ')
				at_start = 0;
		if (!at_start || bol == s)
			continue;
		eol = strchrnul(d, '\n');
		/* past the argument, to two spaces */
		while (d < eol && !(d[0] == ' ' && d[1] == ' '))
			d++;
		while (d < eol && *d == ' ')
			d++;
		if (d == eol)
			continue;
		*desc = d;
		return (size_t)(eol - d);
	}
	return 0;
}

/* Each --option of command cmd's usage text (once, in order of first
 * mention), with the description beside it where a line starts with it. */
static void usage_options(struct completion *c, const struct command *cmd)
{
	const char *usage = cmd->usage;

	for (const char *s = usage; (s = strstr(s, "--")); ) {
		size_t n = option_len(s), dlen;
		const char *desc = "";
		char *name;

		if (!own_option(usage, s, n, cmd->name)) {
			s += 2;
			continue;
		}
		name = xstrfmt("%.*s", (int)n, s);
		dlen = option_desc(usage, name, n, &desc);
		offer(c, s, n, desc, dlen);
		free(name);
		s += n;
	}
}

static void keys(struct completion *c);

/* What follows option opt (with its dashes) in usage: the choices offered
 * ("--format md|mdoc") and the kind set (arg_kinds); 0 if opt takes no
 * argument. */
static int option_argument(struct completion *c, const char *cmd, const char *usage, const char *opt)
{
	size_t olen = strlen(opt);
	int takes = 0;

	for (const char *s = usage; (s = strstr(s, opt)); s += olen) {
		const char *arg, *alt, *end, *next;
		size_t len;

		if (option_len(s) != olen || !own_option(usage, s, olen, cmd))
			continue;
		len = option_arg(s, olen, &arg);
		if (!len)
			continue;
		takes = 1;
		end = arg + len;
		for (alt = arg; alt < end; alt = next) {
			const char *bar = memchr(alt, '|', (size_t)(end - alt));
			size_t alen = (size_t)((bar ? bar : end) - alt);
			int literal = alen > 0;

			next = bar ? bar + 1 : end;
			for (size_t i = 0; i < alen; i++)
				if (!(islower((unsigned char)alt[i]) || isdigit((unsigned char)alt[i]) ||
				      alt[i] == '_' || alt[i] == '-' || alt[i] == '.'))
					literal = 0;
			if (literal) {
				offer(c, alt, alen, "", 0);
				continue;
			}
			if (alen == 9 && !strncmp(alt, "KEY=VALUE", 9)) {
				keys(c);
				continue;
			}
			for (size_t i = 0; i < ARRAY_SIZE(arg_kinds); i++)
				if (strlen(arg_kinds[i].name) == alen && !strncmp(arg_kinds[i].name, alt, alen) &&
				    strcmp(c->kind, "files"))	/* files holds dirs */
					c->kind = arg_kinds[i].kind;
		}
	}
	return takes;
}

/* The verbs of a command, from its usage lines "scaletest CMD VERB". */
static void usage_verbs(struct completion *c, const char *cmd, const char *usage)
{
	struct strbuf pat = STRBUF_INIT;

	sb_addf(&pat, "scaletest %s ", cmd);
	for (const char *s = usage; (s = strstr(s, pat.buf)); s += pat.len) {
		const char *v = s + pat.len;
		size_t n = 0;

		while (islower((unsigned char)v[n]))
			n++;
		if (n && (v[n] == ' ' || v[n] == '\n' || !v[n]))
			offer(c, v, n, "", 0);
	}
	sb_release(&pat);
}

/* The scenario keys, as KEY= (their help's first sentence beside). */
static void keys(struct completion *c)
{
	for (size_t i = 0; i < scenario_nkeys; i++) {
		const struct scenario_key *k = &scenario_keys[i];
		char *w = xstrfmt("%s=", k->name);
		const char *stop = strstr(k->help, ". ");
		size_t dlen = stop ? (size_t)(stop - k->help) : strlen(k->help);

		offer(c, w, strlen(w), k->help, dlen > 72 ? 72 : dlen);
		free(w);
	}
	c->kind = "nospace";
}

int cmd_complete(int argc, char **argv, const struct command *table, size_t n)
{
	struct completion c = { .kind = "words", .seen = STRBUF_INIT, .offered = 0 };
	const struct command *cmd = NULL;
	int nw = argc - 1;	/* the words, argv[1..nw]; the last is being completed */
	const char *prev;

	sb_addch(&c.seen, '\n');
	c.cur = nw >= 1 ? argv[nw] : "";
	prev = nw >= 2 ? argv[nw - 1] : NULL;
	if (nw <= 1) {
		for (size_t i = 0; i < n; i++)
			offers(&c, table[i].name, table[i].summary);
		offers(&c, "help", "a command's manual page, or the scenario format's");
		offers(&c, "--help", "the commands");
		offers(&c, "--version", "the version");
		goto done;
	}
	if (!strcmp(argv[1], "help")) {
		if (nw == 2) {
			for (size_t i = 0; i < n; i++)
				offers(&c, table[i].name, table[i].summary);
			offers(&c, "scenario", "the scenario file format and its keys");
		} else {
			c.kind = "words";
		}
		goto done;
	}
	for (size_t i = 0; i < n; i++)
		if (!strcmp(table[i].name, argv[1]))
			cmd = &table[i];
	if (!cmd) {
		c.kind = "words";
		goto done;
	}
	if (prev && prev[0] == '-' && option_len(prev) == strlen(prev)) {
		/* every command that reads a scenario takes --set */
		if (!strcmp(prev, "--set")) {
			keys(&c);
			goto done;
		}
		if (option_argument(&c, cmd->name, cmd->usage, prev))
			goto done;
	}
	if (c.cur[0] == '-') {
		usage_options(&c, cmd);
		goto done;
	}
	if (nw == 2) {
		usage_verbs(&c, cmd->name, cmd->usage);
		if (c.offered)
			goto done;
	}
	c.kind = "files";
done:
	printf(":%s\n", c.kind);
	sb_release(&c.seen);
	return finish_stdout(EXIT_OK);
}
