/* SPDX-License-Identifier: Apache-2.0 */
/*
 * git: asking a git repository questions, with argv, never a shell.
 *
 * Used by kbuild (a commit of the user's tree, built in a shared clone)
 * and by bisect (which drives git bisect in one).  Revisions come from
 * the user and are passed as one argv entry each, after "--end-of-options"
 * where git takes it, so a revision can never be read as an option.
 *
 *	char *sha = git_commit(repo, "v6.1");	// NULL: not a commit there
 *	struct strbuf out = STRBUF_INIT;
 *	const char *args[] = { "log", "-1", "--format=%s", sha, NULL };
 *	int st = git_capture(repo, args, &out);	// exit status, -1 (said)
 */
#ifndef SCALETEST_GIT_H
#define SCALETEST_GIT_H

#include "lib/strbuf.h"

/* Runs git -C REPO ARGS... (60 s deadline), stdout and stderr into out
 * (may be NULL) and into log (may be NULL): git's exit status, or -1
 * when git could not be run or timed out (said). */
int git_capture(const char *repo, const char *const *args, struct strbuf *out);
int git_logged(const char *repo, const char *const *args, struct strbuf *out,
	       const char *log, double timeout);
/* 1 when path is inside a git work tree or is a git directory, else 0. */
int git_is_repo(const char *path);
/* The full hash of the commit rev names in repo (malloc'd), or NULL. */
char *git_commit(const char *repo, const char *rev);
/* 1 when a is an ancestor of b (or equal), 0 when not, -1 on error. */
int git_is_ancestor(const char *repo, const char *a, const char *b);
/* The first line of a commit's message, malloc'd ("" when unknown). */
char *git_subject(const char *repo, const char *commit);
/* Tracked files with changes, staged or not ("git status --porcelain
 * -uno"), into out: 0 clean (a bare repository is), 1 dirty, -1 on error. */
int git_dirty(const char *repo, struct strbuf *out);

#endif
