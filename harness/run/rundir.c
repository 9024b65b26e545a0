// SPDX-License-Identifier: Apache-2.0
#include "run/rundir.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/owner.h"
#include "lib/util.h"

/* .tmp-ID/owner: who writes this run, so that a run dir whose harness
 * was killed is known for what it is (rundir_scan). */
static int write_owner(const struct rundir *d)
{
	struct owner me;
	struct strbuf sb = STRBUF_INIT;
	char *p = rundir_path(d, OWNER_FILE);
	int e;

	owner_self(&me);
	owner_format(&me, &sb);
	e = write_file(p, sb.buf, sb.len);
	sb_release(&sb);
	free(p);
	return e;
}

static void count_abandoned(const struct rundir_entry *e, void *arg)
{
	if (e->state == RUNDIR_ABANDONED) {
		warning("'%s' is the run directory of a harness that is gone (pid %lld); "
			"'scaletest gc %s' removes it", e->path, e->owner.pid, (const char *)arg);
	}
}

/* A warning for each abandoned run directory directly under out. */
static void warn_abandoned(const char *out)
{
	rundir_scan(out, 1, count_abandoned, (void *)out);
}

int rundir_create(struct rundir *d, const char *out, const char *name)
{
	static const char *const sub[] = { "snapshots", "blocks", "disks", "fio", "attribution" };
	char stamp[32];

	if (mkdir_p(out, 0755) < 0)
		return -1;
	d->out = xstrdup(out);
	timestamp_id(stamp, sizeof(stamp));
	for (int i = 1; i < 1000 && !d->tmp; i++) {
		char *final, *tmp;

		if (i == 1)
			snprintf(d->id, sizeof(d->id), "%s-%s", stamp, name);
		else
			snprintf(d->id, sizeof(d->id), "%s-%s-%d", stamp, name, i);
		final = xstrfmt("%s/%s", out, d->id);
		tmp = xstrfmt("%s/.tmp-%s", out, d->id);
		if (!path_exists(final) && mkdir(tmp, 0755) == 0)
			d->tmp = tmp;
		else
			free(tmp);
		free(final);
	}
	if (!d->tmp)
		return error("cannot create a run directory in '%s'", out);
	if (write_owner(d) < 0)
		return -1;
	warn_abandoned(out);
	for (size_t i = 0; i < ARRAY_SIZE(sub); i++) {
		char *p = rundir_path(d, sub[i]);
		int e = mkdir(p, 0755);

		free(p);
		if (e < 0)
			return error_errno("cannot create '%s/%s'", d->tmp, sub[i]);
	}
	return 0;
}

char *rundir_path(const struct rundir *d, const char *name)
{
	return xstrfmt("%s/%s", d->tmp, name);
}

int rundir_write_scenario(const struct rundir *d, const struct scenario *s)
{
	struct strbuf sb = STRBUF_INIT, v = STRBUF_INIT;
	char *path = rundir_path(d, "scenario.scn");
	int ret;

	const char *from = s->file ? s->file : "defaults";

	/* (a file name with a newline must not start a line of its own) */
	sb_addf(&sb, "# Resolved settings of run %s (from ", d->id);
	sb_add_clean(&sb, from, strlen(from), 0);
	sb_adds(&sb, ").\n");
	for (size_t i = 0; i < scenario_nkeys; i++) {
		sb_reset(&v);
		scenario_value(s, &scenario_keys[i], &v);
		if (!v.len)
			continue;
		sb_addf(&sb, "%s = ", scenario_keys[i].name);
		scenario_quote(v.buf, &sb);
		sb_addch(&sb, '\n');
	}
	ret = write_file(path, sb.buf, sb.len);
	free(path);
	sb_release(&sb);
	sb_release(&v);
	return ret;
}

int rundir_make_disks(const struct rundir *d, const struct scenario *s,
		      struct strvec *images)
{
	for (long long i = 0; i < s->virtio_disks; i++) {
		char *p = xstrfmt("%s/disks/vd%lld.img", d->tmp, i);
		int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		if (fd < 0 || ftruncate(fd, (off_t)s->virtio_disk_mb << 20) < 0) {
			error_errno("cannot create disk image '%s'", p);
			if (fd >= 0)
				close(fd);
			free(p);
			return -1;
		}
		close(fd);
		strvec_push(images, p);
		free(p);
	}
	return 0;
}

void rundir_finish(struct rundir *d, int passed, char **final)
{
	char *dst = xstrfmt("%s/%s", d->out, d->id);
	char *disks = rundir_path(d, "disks");

	/* The disk images are scratch: only the pattern written to them. */
	remove_tree(disks);
	free(disks);
	disks = rundir_path(d, OWNER_FILE);	/* a finished run has no owner */
	unlink(disks);
	free(disks);
	if (rename(d->tmp, dst) < 0) {
		error_errno("cannot rename '%s' to '%s'", d->tmp, dst);
		*final = xstrdup(d->tmp);
		free(dst);
		return;
	}
	fsync_parent(dst);	/* the run is finished on disk before latest says so */
	if (passed)
		rundir_link_latest(d->out, d->id);
	*final = dst;
}

int rundir_link_latest(const char *out, const char *id)
{
	/* A temporary link of our own, so two runs never share one. */
	char *tmp = xstrfmt("%s/.latest.tmp-%ld", out, (long)getpid());
	char *latest = xstrfmt("%s/latest", out);
	int r = 0;

	unlink(tmp);
	if (symlink(id, tmp) < 0 || rename(tmp, latest) < 0) {
		r = error_errno("cannot point '%s' at '%s'", latest, id);
		unlink(tmp);
	}
	free(tmp);
	free(latest);
	return r;
}

void rundir_release(struct rundir *d)
{
	free(d->out);
	free(d->tmp);
	d->out = d->tmp = NULL;
}

/* ---- run directories whose harness is gone ------------------------------ */

/* dirfd/name/owner, read without following a link: what it says. */
static enum rundir_owner_state owner_state_at(int dirfd, const char *name, struct owner *o)
{
	struct strbuf sb = STRBUF_INIT;
	enum rundir_owner_state st = RUNDIR_UNOWNED;
	int dfd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int fd = dfd < 0 ? -1 : openat(dfd, OWNER_FILE, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat fst;

	memset(o, 0, sizeof(*o));
	if (fd >= 0 && fstat(fd, &fst) == 0 && S_ISREG(fst.st_mode) &&
	    sb_read_fd_max(&sb, fd, 4096) == 0 && owner_parse(sb.buf, o) == 0) {
		int a = owner_alive(o);
		st = a > 0 ? RUNDIR_LIVE : a == 0 ? RUNDIR_ABANDONED : RUNDIR_ELSEWHERE;
	}
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	sb_release(&sb);
	return st;
}

/* The entries of the open directory dfd (shown as path, on device dev). */
static int scan_at(int dfd, const char *path, dev_t dev, int depth, rundir_scan_fn fn,
		   void *arg)
{
	struct strvec names = STRVEC_INIT;
	struct dirent *de;
	int n = 0, dupfd = dup(dfd);
	DIR *d = dupfd < 0 ? NULL : fdopendir(dupfd);

	if (!d) {
		if (dupfd >= 0)
			close(dupfd);
		return 0;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			strvec_push(&names, de->d_name);
	closedir(d);
	for (size_t i = 0; i < names.n; i++) {
		const char *name = names.v[i];
		struct rundir_entry e;
		char *p;

		if (!name)	/* never (a strvec holds no NULL): for gcc -fsanitize */
			continue;
		memset(&e, 0, sizeof(e));
		if (fstatat(dfd, name, &e.st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		p = xstrfmt("%s/%s", path, name);
		if (!strncmp(name, ".tmp-", 5) && (S_ISDIR(e.st.st_mode) || S_ISLNK(e.st.st_mode))) {
			if (S_ISLNK(e.st.st_mode))
				e.state = RUNDIR_LINK;
			else if (e.st.st_dev != dev)
				e.state = RUNDIR_OTHER_FS;
			else if (e.st.st_uid != geteuid())
				e.state = RUNDIR_NOT_MINE;
			else
				e.state = owner_state_at(dfd, name, &e.owner);
			e.dirfd = dfd;
			e.name = name;
			e.path = p;
			fn(&e, arg);
			n++;
		} else if (depth > 1 && S_ISDIR(e.st.st_mode) && e.st.st_dev == dev &&
			   strcmp(name, "latest") && strncmp(name, ".abandoned-", 11)) {
			/* groups and fan-out slots hold runs of their own; a link
			 * or another filesystem leads out of the results directory */
			int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			struct stat st;

			if (sub >= 0 && fstat(sub, &st) == 0 && st.st_dev == dev)
				n += scan_at(sub, p, dev, depth - 1, fn, arg);
			if (sub >= 0)
				close(sub);
		}
		free(p);
	}
	strvec_clear(&names);
	return n;
}

int rundir_scan(const char *out, int depth, rundir_scan_fn fn, void *arg)
{
	int dfd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	int n = 0;

	if (dfd < 0)
		return 0;
	if (fstat(dfd, &st) == 0)
		n = scan_at(dfd, out, st.st_dev, depth, fn, arg);
	close(dfd);
	return n;
}
