// SPDX-License-Identifier: Apache-2.0
#include "run/run.h"

#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest/guest.h"
#include "guest/initramfs.h"
#include "kernel/kbuild.h"
#include "kernel/kernel.h"
#include "lib/child.h"
#include "lib/util.h"
#include "report/report.h"
#include "result/build.h"
#include "result/host.h"
#include "result/result.h"
#include "run/guard.h"
#include "run/preflight.h"
#include "run/rundir.h"
#include "vm/accel.h"
#include "vm/backends.h"
#include "vm/vm.h"

struct run {
	const struct scenario *s;
	const struct run_config *rc;
	const struct vm_backend *be;
	struct rundir dir;
	char *log;			/* build.log */
	struct kernel_artifact k;
	char *initrd;
	int virtio_channel;	/* the record channel: guest_compose() chose */
	struct accel_result accel;
	struct strvec disks;		/* virtio disk images */
	struct vm vm;
	struct guard g;			/* the watch: the logs, the console scan, the records */
	json_object *host;		/* host.json: what only the host saw */
	double t0, t_vm;
	char *error;			/* the harness's own failure */
	int failure;			/* ... its class (lib/util.h), or 0 */
};

static void set_error(struct run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_error(struct run *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (r->error)
		return;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	r->error = sb_detach(&sb, NULL);
}

static void save_argv(struct run *r)
{
	struct strbuf argv = STRBUF_INIT;
	char *path = rundir_path(&r->dir, "qemu-argv.txt");

	for (size_t i = 0; i < r->vm.argv.n; i++)
		sb_addf(&argv, "%s\n", r->vm.argv.v[i]);
	write_file(path, argv.buf, argv.len);
	free(path);
	sb_release(&argv);
}

/* kernel -> initramfs -> disks -> accelerator -> VM started: 0, or the
 * failure's class. */
static int setup_and_boot(struct run *r)
{
	struct initramfs ir = INITRAMFS_INIT;
	struct vm_config c;
	char *cmdline = NULL, *qlog = NULL, *probe_log = NULL, *xml = NULL;
	int hit = 0, ret;

	note("run %s in %s/%s", r->dir.id, r->rc->out, r->dir.id);
	if ((ret = kernel_obtain(r->s, r->log, kbuild_obtain, &r->k)) < 0)
		goto out;
	note("kernel %s (%s%s%s)", r->k.version, r->k.source,
	     r->k.package ? " " : "", r->k.package ? r->k.package : "");
	{
		struct strbuf why = STRBUF_INIT;

		if ((ret = preflight_layout(r->s, &r->k, &why)) < 0)
			set_error(r, "refused before boot: %s", why.buf);
		sb_release(&why);
		if (ret < 0)
			goto out;
	}
	if ((ret = guest_compose(r->s, &r->k, r->log, &ir, &r->virtio_channel)) < 0 ||
	    (ret = initramfs_build_cached(&ir, &r->initrd, &hit)) < 0)
		goto out;
	note("initramfs %s (%s)", path_basename(r->initrd), hit ? "cached" : "built");
	if ((ret = rundir_make_disks(&r->dir, r->s, &r->disks)) < 0)
		goto out;
	probe_log = rundir_path(&r->dir, "accel-probe.log");
	if ((ret = accel_choose(r->be, r->s, r->rc->uri, r->k.image, r->initrd,
				r->virtio_channel, probe_log, &r->accel)) < 0)
		goto out;
	if (child_interrupted()) {
		ret = -1;
		goto out;
	}
	note("accelerator %s: %s", r->accel.accel, r->accel.reason);

	cmdline = guest_cmdline(r->s);
	qlog = rundir_path(&r->dir, "qemu.log");
	if (strcmp(r->be->name, "qemu"))
		xml = rundir_path(&r->dir, "domain.xml");
	memset(&c, 0, sizeof(c));
	c.arch = r->s->arch;
	c.kernel = r->k.image;
	c.initrd = r->initrd;
	c.cmdline = cmdline;
	c.memory_mb = r->s->memory_mb;
	c.cpus = r->s->cpus;
	c.accel = r->accel.accel;
	c.disks = &r->disks;
	c.virtio_bus = r->s->virtio_bus;
	c.virtio_channel = r->virtio_channel;
	c.log = qlog;
	c.uri = r->rc->uri;
	c.upload = r->rc->upload;
	c.name = r->dir.id;
	c.domain_xml = xml;
	if ((ret = r->be->start(&r->vm, &c)) < 0)
		goto out;
	/* The guest runs from here: a backend slow to start it (libvirt on a
	 * host where each call takes a minute) costs setup time, never the
	 * boot deadline. */
	r->t_vm = now_monotonic();
	save_argv(r);
	note("booting %lld disks + %lld virtio (%s, %lld MiB, %lld CPU)",
	     r->s->disks, r->s->virtio_disks, r->accel.accel, r->s->memory_mb,
	     r->s->cpus);
	{
		struct strbuf why = STRBUF_INIT;

		if (scenario_sd_crowded(r->s, &why))
			note("%s", why.buf);
		sb_release(&why);
	}
	ret = 0;
out:
	initramfs_release(&ir);
	free(cmdline);
	free(qlog);
	free(probe_log);
	free(xml);
	return ret;
}

static int open_log(struct run *r, const char *name)
{
	char *p = rundir_path(&r->dir, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	free(p);
	return fd;
}

/* host.json's closing facts, then host.json and result.json. */
static enum run_status write_result(struct run *r)
{
	double now = now_monotonic();
	enum run_status st;
	json_object *root;
	char *path;

	host_finish(r->host, r->vm.backend != NULL, (r->t_vm ? r->t_vm : now) - r->t0,
		    r->t_vm ? now - r->t_vm : NAN, now - r->t0, child_interrupted(), r->error);
	path = rundir_path(&r->dir, "host.json");
	json_save(r->host, path);
	free(path);

	root = result_build(r->s, &r->g.rs, &r->g.cs, r->host, &st);
	path = rundir_path(&r->dir, "result.json");
	if (result_save(root, path) < 0)
		st = RUN_ERROR;
	free(path);
	json_object_put(root);
	return st;
}

/* A run that ended before its run directory was made: RUN_ERROR, and
 * the failure's class in *err. */
static enum run_status refused(int *err, int failure)
{
	if (err)
		*err = failure;
	return RUN_ERROR;
}

enum run_status run_execute(const struct scenario *s, const struct run_config *rc,
			    char **dir, int *err)
{
	struct run r;
	enum run_status st;
	int e;

	memset(&r, 0, sizeof(r));
	r.s = s;
	r.rc = rc;
	r.vm = (struct vm)VM_INIT;
	r.dir = (struct rundir)RUNDIR_INIT;
	strvec_init(&r.disks);
	r.t0 = now_monotonic();
	*dir = NULL;
	if (err)
		*err = 0;

	r.be = vm_backend_find(rc->backend ? rc->backend : scenario_backend(s));
	if (!r.be)
		return refused(err, error("unknown VM backend '%s'",
					  rc->backend ? rc->backend : scenario_backend(s)));
	if ((e = preflight_check(s, r.be, rc->uri, rc->out)) < 0)
		return refused(err, e);
	if ((e = rundir_create(&r.dir, rc->out, s->name)) < 0) {
		rundir_release(&r.dir);
		return refused(err, e);
	}
	r.log = rundir_path(&r.dir, "build.log");
	r.host = host_new();
	host_start(r.host, r.dir.id, s);
	guard_init(&r.g, s, r.dir.tmp, r.host, rc->quiet);
	rundir_write_scenario(&r.dir, s);

	r.g.con_log = open_log(&r, "console.log");
	r.g.chan_log = open_log(&r, "channel.log");
	if (r.g.con_log < 0 || r.g.chan_log < 0) {
		set_error(&r, "cannot create the log files in '%s'", r.dir.tmp);
	} else if ((r.failure = setup_and_boot(&r)) < 0) {
		if (!child_interrupted() && r.k.failure)
			set_error(&r, "refused before build: %s; see build.log", r.k.failure);
		else if (!child_interrupted())
			set_error(&r, "setup failed before boot%s; see build.log",
				  r.failure == ERR_ENV ? " (missing package or tool)" : "");
	} else {
		guard_watch(&r.g, &r.vm, r.t_vm);
		if (r.g.error)
			set_error(&r, "%s", r.g.error);
	}
	host_kernel(r.host, s, &r.k);
	host_vm(r.host, s, r.be, &r.vm, &r.accel, r.initrd, r.virtio_channel, rc->uri);
	if (r.g.con_log >= 0)
		close(r.g.con_log);
	if (r.g.chan_log >= 0)
		close(r.g.chan_log);
	st = write_result(&r);

	if (report_write_dir(r.dir.tmp, rc->quiet ? NULL : stdout) < 0) {
		/* A run whose reports are missing is not a pass: say so in
		 * result.json too, if the disk still takes it. */
		set_error(&r, "cannot write the reports in '%s' (disk full or not writable?); "
			  "'scaletest report' writes them again from result.json", r.dir.tmp);
		if (write_result(&r) == RUN_PASS || st == RUN_PASS)
			st = RUN_ERROR;
	}
	rundir_finish(&r.dir, st == RUN_PASS && !rc->no_latest, dir);
	if (err && st == RUN_ERROR)
		*err = r.failure < 0 ? r.failure : ERR_FAIL;

	vm_release(&r.vm);
	kernel_release(&r.k);
	guard_release(&r.g);
	strvec_clear(&r.disks);
	json_object_put(r.host);
	rundir_release(&r.dir);
	free(r.log);
	free(r.initrd);
	free(r.error);
	return st;
}

int run_exit_code(enum run_status st, int err)
{
	switch (st) {
	case RUN_PASS:
		return EXIT_OK;
	case RUN_INTERRUPTED:
		return EXIT_INTERRUPTED;
	case RUN_ERROR:
		return exit_code(err < 0 ? err : ERR_FAIL);
	default:
		return EXIT_RUNFAIL;
	}
}
