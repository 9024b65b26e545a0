// SPDX-License-Identifier: Apache-2.0
#include <getopt.h>
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
};

static void collect(const char *path, enum rundir_owner_state st, const struct owner *o,
		    void *arg)
{
	struct gc *g = arg;
	char *dst;

	if (st != RUNDIR_ABANDONED) {
		printf_clean("%s: %s, left\n", path, state_words[st]);
		g->left++;
		return;
	}
	if (g->dry_run) {
		printf_clean("%s: %s (pid %lld on %s), would be %s\n", path, state_words[st], o->pid,
		       o->host, g->keep ? "kept as .abandoned-*" : "removed");
		g->collected++;
		return;
	}
	if (g->keep) {
		const char *base = path_basename(path);
		size_t dirlen = (size_t)(base - path);

		dst = xstrfmt("%.*s.abandoned-%s", (int)dirlen, path, base + 5);
		if (rename(path, dst) < 0) {
			error_errno("cannot rename '%s' to '%s'", path, dst);
		} else {
			printf_clean("%s: %s (pid %lld), kept as %s\n", path, state_words[st], o->pid, dst);
			g->collected++;
		}
		free(dst);
		return;
	}
	if (remove_tree(path) < 0) {
		error_errno("cannot remove '%s'", path);
		return;
	}
	printf_clean("%s: %s (pid %lld), removed\n", path, state_words[st], o->pid);
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
