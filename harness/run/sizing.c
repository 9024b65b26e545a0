// SPDX-License-Identifier: Apache-2.0
#include "run/sizing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "guest/phase.h"
#include "result/result.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#define PROBE_HOST 256

int sizing_probe(const struct scenario *s, const struct run_config *rc, long long *mb)
{
	static const char *const sets[] = {
		"sweep=0,256,512", "sweep_floor_mb=0", "disks=512", "fio=0", "rmmod=0",
		"virtio_disks=0", "monitor_interval_ms=0", "memory_mb=2048",
	};
	struct scenario p;
	struct run_config prc = *rc;
	struct strbuf err = STRBUF_INIT;
	json_object *root = NULL;
	char *dir = NULL;
	enum run_status st;
	long long peak = scenario_sweep_peak(s), avail, need_kb, used, fixed;
	double bpd;
	int r = -1, e;

	scenario_copy(&p, s);
	for (size_t i = 0; i < ARRAY_SIZE(sets); i++)
		if (scenario_set(&p, sets[i], "--size-memory", &err) < 0)
			break;
	if (!err.len)
		(void)scenario_check(&p, &err);
	if (err.len) {
		error("--size-memory: the probe of 512 disks: %s", err.buf);
		goto out;
	}
	note("--size-memory: a probe sweep of 0, %d and %d disks in %lld MiB", PROBE_HOST,
	     2 * PROBE_HOST, p.memory_mb);
	prc.no_latest = 1;
	st = run_execute(&p, &prc, &dir, &e);
	if (!dir || result_load(dir, &root, &err) < 0 || st != RUN_PASS) {
		error("--size-memory: the probe run %s (%s)%s%s", run_status_name(st),
		      dir ? dir : "no run directory", err.len ? ": " : "", err.buf);
		r = st == RUN_ERROR ? e : -1;
		goto out;
	}
	bpd = jdouble(root, "sweep.fit.MemFree.bytes_per_disk", -1);
	fixed = jint(root, "sweep.fit.MemFree.fixed_kb", 0);
	{
		json_object *b = result_phase(root, phase_name(PHASE_BEFORE_INSMOD));
		used = jint(b, "meminfo.MemTotal", -1) - jint(b, "meminfo.MemFree", 0);
	}
	if (bpd <= 0 || used <= 0) {
		error("--size-memory: the probe run %s has no MemFree fit to size from", dir);
		goto out;
	}
	need_kb = used + (fixed > 0 ? fixed : 0) + (long long)ceil((double)peak * bpd * 1.1 / 1024);
	*mb = (need_kb + 1023) / 1024 + 256;
	*mb = (*mb + 255) / 256 * 256;
	note("--size-memory: %.0f B per disk and %lld kB fixed (probe %s), %lld MiB in use "
	     "before insmod: %lld disks need a %lld MiB guest", bpd, fixed, dir, used / 1024,
	     peak, *mb);
	if (*mb > 65536) {
		r = error_env("--size-memory: %lld disks need a %lld MiB guest, more than "
			      "memory_mb's 65536", peak, *mb);
		goto out;
	}
	avail = host_mem_available_kb();
	if (avail >= 0 && avail < (*mb + 256) * 1024) {
		r = error_env("--size-memory: %lld disks need a %lld MiB guest, but the host has "
			      "%lld MiB available (and QEMU needs about 256 MiB of its own)", peak,
			      *mb, avail / 1024);
		goto out;
	}
	r = 0;
out:
	scenario_release(&p);
	json_object_put(root);
	free(dir);
	sb_release(&err);
	return r;
}
