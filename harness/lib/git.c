// SPDX-License-Identifier: Apache-2.0
#include "lib/git.h"

#include <stdlib.h>
#include <string.h>

#include "lib/child.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "lib/xalloc.h"

int git_logged(const char *repo, const char *const *args, struct strbuf *out,
	       const char *log, double timeout)
{
	struct strvec av = STRVEC_INIT;
	struct child_opts o = CHILD_OPTS_INIT;
	struct child_result res;
	/* Messages in one language (bisect reads them), no prompt. */
	const char *env[] = { "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", NULL };
	int r;

	strvec_push(&av, "git");
	strvec_push(&av, "-C");
	strvec_push(&av, repo);
	for (size_t i = 0; args[i]; i++)
		strvec_push(&av, args[i]);
	o.capture = out;
	o.log = log;
	o.timeout = timeout;
	o.env = env;
	r = child_run((const char *const *)av.v, &o, &res);
	if (r == 0 && res.outcome != CHILD_EXITED)
		r = error("git %s in '%s': %s", args[0], repo, child_describe(&res));
	else if (r == 0)
		r = res.status;
	strvec_clear(&av);
	return r;
}

int git_capture(const char *repo, const char *const *args, struct strbuf *out)
{
	return git_logged(repo, args, out, NULL, 60);
}

int git_is_repo(const char *path)
{
	const char *args[] = { "rev-parse", "--git-dir", NULL };
	struct strbuf out = STRBUF_INIT;
	int r = is_dir(path) && git_capture(path, args, &out) == 0;

	sb_release(&out);
	return r;
}

char *git_commit(const char *repo, const char *rev)
{
	struct strbuf out = STRBUF_INIT;
	char *spec = xstrfmt("%s^{commit}", rev);
	const char *args[] = { "rev-parse", "--verify", "--quiet", "--end-of-options", spec, NULL };
	char *sha = NULL;

	if (*rev && rev[0] != '-' && git_capture(repo, args, &out) == 0) {
		sb_setlen(&out, strcspn(out.buf, "\n"));
		if (out.len == 40 || out.len == 64)
			sha = sb_detach(&out, NULL);
	}
	sb_release(&out);
	free(spec);
	return sha;
}

int git_is_ancestor(const char *repo, const char *a, const char *b)
{
	const char *args[] = { "merge-base", "--is-ancestor", a, b, NULL };
	struct strbuf out = STRBUF_INIT;
	int r = git_capture(repo, args, &out);

	if (r > 1)
		r = error("git merge-base --is-ancestor: %s", out.buf);
	sb_release(&out);
	return r < 0 ? -1 : r == 0;
}

char *git_subject(const char *repo, const char *commit)
{
	const char *args[] = { "log", "-1", "--format=%s", commit, "--", NULL };
	struct strbuf out = STRBUF_INIT;

	if (git_capture(repo, args, &out) != 0)
		sb_reset(&out);
	sb_setlen(&out, strcspn(out.buf, "\n"));
	return sb_detach(&out, NULL);
}

int git_dirty(const char *repo, struct strbuf *out)
{
	const char *bare[] = { "rev-parse", "--is-bare-repository", NULL };
	const char *args[] = { "status", "--porcelain", "--untracked-files=no", NULL };
	int r = git_capture(repo, bare, out);

	if (r == 0 && !strncmp(out->buf, "true", 4)) {	/* no work tree to change */
		sb_reset(out);
		return 0;
	}
	sb_reset(out);
	r = git_capture(repo, args, out);

	if (r != 0)
		return error("git status in '%s' failed: %s", repo, out->buf);
	return out->len ? 1 : 0;
}
