// SPDX-License-Identifier: Apache-2.0
#include "report/runname.h"

#include <stdlib.h>

#include "lib/strbuf.h"
#include "lib/util.h"
#include "report/format.h"

void run_names_init(struct run_names *names)
{
	strvec_init(&names->taken);
}

void run_names_release(struct run_names *names)
{
	strvec_clear(&names->taken);
}

static void clean_name(struct strbuf *sb, const char *want)
{
	for (const char *p = want ? want : ""; *p && sb->len < RUN_NAME_MAX; p++) {
		int c = (unsigned char)*p;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '+';

		sb_addch(sb, ok ? c : '_');
	}
	if (!sb->len)
		sb_adds(sb, "run");
}

char *run_name_take(struct run_names *names, const char *want)
{
	struct strbuf base = STRBUF_INIT, name = STRBUF_INIT;

	clean_name(&base, want);
	sb_adds(&name, base.buf);
	for (unsigned n = 2; strvec_find(&names->taken, name.buf) >= 0; n++) {
		sb_reset(&name);
		sb_addf(&name, "%s~%u", base.buf, n);
	}
	strvec_push(&names->taken, name.buf);
	sb_release(&base);
	return sb_detach(&name, NULL);
}

char *run_name_night_row(struct run_names *names, const struct nightly_model *m, size_t i)
{
	const struct nightly_row *row = &m->rows[i];
	char *want, *name;

	if (row->run)
		want = xstrdup(path_basename(row->run));
	else
		want = xstrfmt("nightly-%s-%s", fmt_or(m->stamp, "?"), fmt_or(row->scenario, "?"));
	name = run_name_take(names, want);
	free(want);
	return name;
}
