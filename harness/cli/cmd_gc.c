// SPDX-License-Identifier: Apache-2.0
#include <getopt.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "lib/owner.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "run/rundir.h"
#include "vm/libvirt.h"

const char usage_gc[] =
	"usage: scaletest gc [--keep] [--dry-run] [--connect URI]... [RESULTS_DIR...]\n"
	"\n"
	"Collect what killed harnesses left behind.  A run is written into\n"
	"RESULTS_DIR/.tmp-ID with an owner file (host, pid, the pid's start\n"
	"time); a harness killed by SIGKILL leaves that directory unfinished.\n"
	"gc looks for .tmp-* directories in each RESULTS_DIR (default: results)\n"
	"and in the groups and fan-out slots inside it, and removes those whose\n"
	"harness ran on this host and is gone.  Runs in progress, runs of\n"
	"another host and directories without an owner file are listed and left.\n"
	"gc never follows a link and never leaves RESULTS_DIR's filesystem: a\n"
	".tmp-* that is a link, another user's, or on another filesystem is\n"
	"listed and left, and a link inside is removed, never followed.\n"
	"A run never counts as finished, latest or a baseline while it is .tmp-*.\n"
	"\n"
	"With --connect URI (repeatable), also destroy the leftover domains of\n"
	"this host's dead harnesses on that libvirt connection and delete their\n"
	"uploaded volumes (each run does this sweep when it connects).\n"
	"\n"
	"  --keep       rename abandoned runs to .abandoned-ID instead of removing\n"
	"               them (kept for a look, still never a run, latest or baseline)\n"
	"  --dry-run    only list what would be collected\n"
	"  --connect URI  sweep this libvirt connection too\n"
	"\n"
	"Exit status:\n"
	"  0    done (also when nothing was found)\n"
	"  1    a libvirt host answered but could not be swept\n"
	"  2    bad usage: an unknown option, or a RESULTS_DIR that is not a\n"
	"       directory\n"
	"  3    a libvirt connection failed\n";

struct gc {
	int keep, dry_run;
	int collected, left;
};

static const char *const state_words[] = {
	[RUNDIR_LIVE] = "in progress (its harness runs)",
	[RUNDIR_ABANDONED] = "abandoned (its harness is gone)",
	[RUNDIR_ELSEWHERE] = "of another host (not judged here)",
	[RUNDIR_UNOWNED] = "without a valid owner file (not judged)",
	[RUNDIR_LINK] = "a symbolic link (never followed)",
	[RUNDIR_NOT_MINE] = "another user's",
	[RUNDIR_OTHER_FS] = "on another filesystem",
};

static void collect(const struct rundir_entry *e, void *arg)
{
	struct gc *g = arg;
	const struct owner *o = &e->owner;
	char *dst;

	if (e->state == RUNDIR_NOT_MINE) {
		printf_clean("%s: %s (uid %lu), left\n", e->path, state_words[e->state],
			     (unsigned long)e->st.st_uid);
		g->left++;
		return;
	}
	if (e->state != RUNDIR_ABANDONED) {
		printf_clean("%s: %s, left\n", e->path, state_words[e->state]);
		g->left++;
		return;
	}
	if (g->dry_run) {
		printf_clean("%s: %s (pid %lld on %s), would be %s\n", e->path, state_words[e->state],
			     o->pid, o->host, g->keep ? "kept as .abandoned-*" : "removed");
		g->collected++;
		return;
	}
	if (g->keep) {
		/* renamed beside itself, through the open parent */
		char *to = xstrfmt(".abandoned-%s", e->name + 5);
		size_t dirlen = (size_t)(path_basename(e->path) - e->path);

		dst = xstrfmt("%.*s%s", (int)dirlen, e->path, to);
		if (renameat(e->dirfd, e->name, e->dirfd, to) < 0) {
			error_errno("cannot rename '%s' to '%s'", e->path, dst);
		} else {
			printf_clean("%s: %s (pid %lld), kept as %s\n", e->path, state_words[e->state],
				     o->pid, dst);
			g->collected++;
		}
		free(to);
		free(dst);
		return;
	}
	if (remove_tree_at(e->dirfd, e->name, e->path, &e->st) < 0)
		return;
	printf_clean("%s: %s (pid %lld), removed\n", e->path, state_words[e->state], o->pid);
	g->collected++;
}

int cmd_gc(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "keep", no_argument, NULL, 'k' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "connect", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	struct gc g = { 0, 0, 0, 0 };
	struct strvec uris = STRVEC_INIT;
	static const char *const def[] = { "results" };
	const char *const *dirs;
	int ndirs, c, failed = 0;

	if (want_help(argc, argv, usage_gc))
		return finish_stdout(EXIT_OK);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			g.keep = 1;
			break;
		case 'n':
			g.dry_run = 1;
			break;
		case 'c':
			strvec_push(&uris, optarg);
			break;
		default:
			fputs(usage_gc, stderr);
			strvec_clear(&uris);
			return EXIT_USAGE;
		}
	}
	dirs = optind < argc ? (const char *const *)argv + optind : def;
	ndirs = optind < argc ? argc - optind : 1;
	for (int i = 0; i < ndirs; i++)
		if (!is_dir(dirs[i]) && (optind < argc || path_exists(dirs[i]))) {
			error("'%s' is not a results directory", dirs[i]);
			fputs(usage_gc, stderr);
			strvec_clear(&uris);
			return EXIT_USAGE;
		}
	for (int i = 0; i < ndirs; i++)
		rundir_scan(dirs[i], 3, collect, &g);
	for (size_t i = 0; i < uris.n; i++) {
		int n;

		if (g.dry_run) {
			printf_clean("%s: not swept (--dry-run)\n", uris.v[i]);
			continue;
		}
		n = libvirt_sweep(uris.v[i]);
		if (n < 0) {
			failed = err_worse(failed, n);
			continue;
		}
		printf_clean("%s: %d leftover domain%s and volume%s removed\n", uris.v[i], n,
		       n == 1 ? "" : "s", n == 1 ? "" : "s");
	}
	printf_clean("%d run director%s %s, %d left\n", g.collected, g.collected == 1 ? "y" : "ies",
	       g.dry_run ? "to collect" : "collected", g.left);
	strvec_clear(&uris);
	return finish_stdout(exit_code(failed));
}
