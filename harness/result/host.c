// SPDX-License-Identifier: Apache-2.0
#include "result/host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/json.h"
#include "lib/util.h"
#include "scenario/keys.h"
#include "vm/backends.h"

json_object *host_new(void)
{
	json_object *h = json_object_new_object();

	json_object_object_add(h, "phase_host_s", json_object_new_object());
	return h;
}

void host_phase(json_object *host, const char *phase, double seconds)
{
	json_object *p = jget(host, "phase_host_s");

	if (!p) {
		p = json_object_new_object();
		json_object_object_add(host, "phase_host_s", p);
	}
	json_object_object_add(p, phase, json_seconds(seconds));
}

static json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* The keys given on top of the scenario file (--set, and what run's and
 * sweep's options turn into --set), "key=value" in the table's order:
 * result.json's scenario.overrides, so that a report says the run is
 * not the scenario its description describes. */
static json_object *scenario_overrides(const struct scenario *s)
{
	json_object *a = json_object_new_array();
	struct strbuf kv = STRBUF_INIT;

	for (size_t i = 0; i < scenario_nkeys; i++) {
		if (s->origin[i] >= 0)
			continue;
		sb_reset(&kv);
		sb_addf(&kv, "%s=", scenario_keys[i].name);
		scenario_value(s, &scenario_keys[i], &kv);
		json_object_array_add(a, json_object_new_string(kv.buf));
	}
	sb_release(&kv);
	return a;
}

void host_start(json_object *host, const char *run_id, const struct scenario *s)
{
	char iso[32];
	char name[256];

	timestamp_iso(iso, sizeof(iso));
	json_object_object_add(host, "run_id", json_object_new_string(run_id));
	json_object_object_add(host, "tool", json_object_new_string("scaletest " SCALETEST_VERSION));
	json_object_object_add(host, "started", json_object_new_string(iso));
	/* The host scaletest ran on (JUnit's hostname), not the libvirt host. */
	if (gethostname(name, sizeof(name)) == 0) {
		name[sizeof(name) - 1] = 0;
		json_object_object_add(host, "hostname", json_object_new_string(name));
	}
	json_object_object_add(host, "scenario_file", str_or_null(s->file));
	json_object_object_add(host, "scenario_overrides", scenario_overrides(s));
}

void host_watch_end(json_object *host, int timed_out, int vm_exited, const char *vm_exit)
{
	json_object_object_add(host, "timed_out", json_object_new_boolean(timed_out));
	json_object_object_add(host, "vm_exited", json_object_new_boolean(vm_exited));
	json_object_object_add(host, "vm_exit", json_object_new_string(vm_exit));
}

void host_kernel(json_object *host, const struct scenario *s, const struct kernel_artifact *ka)
{
	json_object *k = json_object_new_object();

	json_object_object_add(k, "version", str_or_null(ka->version));
	json_object_object_add(k, "arch", json_object_new_string(arch_name(s->arch)));
	json_object_object_add(k, "source", str_or_null(ka->source));
	json_object_object_add(k, "package", str_or_null(ka->package));
	json_object_object_add(k, "package_version", str_or_null(ka->package_version));
	json_object_object_add(k, "image", str_or_null(ka->image));
	json_object_object_add(k, "highmem", ka->highmem < 0 ? NULL : json_object_new_boolean(ka->highmem));
	if (ka->build_key) {
		json_object *b = json_object_new_object(), *p = json_object_new_array();
		json_object *f = json_object_new_array();

		json_object_object_add(b, "source_tree", json_object_new_string(ka->build_source));
		json_object_object_add(b, "key", json_object_new_string(ka->build_key));
		json_object_object_add(b, "config_base", json_object_new_string(ka->build_base));
		for (size_t i = 0; i < ka->build_patches.n; i++)
			json_object_array_add(p, json_object_new_string(ka->build_patches.v[i]));
		for (size_t i = 0; i < ka->build_fragments.n; i++)
			json_object_array_add(f, json_object_new_string(path_basename(ka->build_fragments.v[i])));
		json_object_object_add(b, "patches", p);
		json_object_object_add(b, "fragments", f);
		if (ka->build_patchset_hash)
			json_object_object_add(b, "patchset_hash",
					       json_object_new_string(ka->build_patchset_hash));
		if (ka->build_git_url)
			json_object_object_add(b, "git_url", json_object_new_string(ka->build_git_url));
		json_object_object_add(k, "build", b);
	}
	json_object_object_add(host, "kernel", k);
}

void host_vm(json_object *host, const struct scenario *s, const struct vm_backend *be,
	     const struct vm *v, const struct accel_result *accel, const char *initrd,
	     int virtio_channel, const char *uri)
{
	json_object *vm = json_object_new_object();

	json_object_object_add(vm, "backend", json_object_new_string(be->name));
	json_object_object_add(vm, "accel", str_or_null(*accel->accel ? accel->accel : NULL));
	json_object_object_add(vm, "accel_reason", str_or_null(*accel->reason ? accel->reason : NULL));
	json_object_object_add(vm, "memory_mb", json_object_new_int64(s->memory_mb));
	json_object_object_add(vm, "cpus", json_object_new_int64(s->cpus));
	json_object_object_add(vm, "qemu_version", json_object_new_string(be->version(s->arch)));
	json_object_object_add(vm, "initramfs", str_or_null(initrd));
	if (initrd)
		json_object_object_add(vm, "channel", json_object_new_string(virtio_channel ?
							"virtio-serial" : "uart"));
	if (uri)
		json_object_object_add(vm, "uri", json_object_new_string(uri));
	/* The backend's own facts (libvirt: uri, host, versions, domain). */
	for (size_t i = 0; i < v->facts.n; i++) {
		const char *f = v->facts.v[i], *eq = strchr(f, '=');
		char *key = eq ? xstrndup(f, (size_t)(eq - f)) : NULL;

		if (key && !strcmp(eq + 1, "true"))
			json_object_object_add(vm, key, json_object_new_boolean(1));
		else if (key)
			json_object_object_add(vm, key, json_object_new_string(eq + 1));
		free(key);
	}
	json_object_object_add(host, "vm", vm);
}

void host_finish(json_object *host, int booted, double setup_s, double vm_s, double total_s,
		 int signal, const char *error)
{
	char iso[32];

	timestamp_iso(iso, sizeof(iso));
	json_object_object_add(host, "finished", json_object_new_string(iso));
	json_object_object_add(host, "booted", json_object_new_boolean(booted));
	json_object_object_add(host, "setup_s", json_seconds(setup_s));
	json_object_object_add(host, "vm_s", json_seconds(vm_s));
	json_object_object_add(host, "total_s", json_seconds(total_s));
	json_object_object_add(host, "signal", json_object_new_int(signal));
	json_object_object_add(host, "error", str_or_null(error));
}

/* host[key] = a new reference to src[path], or null. */
static void copy(json_object *host, const char *key, json_object *src, const char *path)
{
	json_object *v = jget(src, path);

	json_object_object_add(host, key, v ? json_object_get(v) : NULL);
}

json_object *host_from_result(json_object *res)
{
	json_object *h = host_new(), *phases = jget(res, "phases");
	const char *st = jstr(res, "status", ""), *reason = jstr(res, "reason", "");
	int sig = 0;

	copy(h, "run_id", res, "run_id");
	copy(h, "tool", res, "tool");
	copy(h, "started", res, "started");
	if (jget(res, "hostname"))
		copy(h, "hostname", res, "hostname");
	copy(h, "finished", res, "finished");
	copy(h, "scenario_file", res, "scenario.file");
	if (jget(res, "scenario.overrides"))
		copy(h, "scenario_overrides", res, "scenario.overrides");
	copy(h, "kernel", res, "kernel");
	copy(h, "vm", res, "vm");
	json_object_object_add(h, "booted", json_object_new_boolean(jget(res, "disks") != NULL));
	for (size_t i = 0; phases && i < json_object_array_length(phases); i++) {
		json_object *p = json_object_array_get_idx(phases, i);
		if (jget(p, "host_s"))
			host_phase(h, jstr(p, "name", "?"), jdouble(p, "host_s", 0));
	}
	copy(h, "setup_s", res, "timings.setup_s");
	copy(h, "vm_s", res, "timings.vm_s");
	copy(h, "total_s", res, "timings.total_s");
	/* How the watch ended is in the status and its reason. */
	json_object_object_add(h, "timed_out", json_object_new_boolean(
		!strcmp(st, "timeout") && strstr(reason, "not reached in time")));
	if (!strcmp(st, "interrupted"))
		sscanf(reason, "interrupted by signal %d", &sig);
	json_object_object_add(h, "signal", json_object_new_int(sig));
	json_object_object_add(h, "error", !strcmp(st, "error") && *reason
			       ? json_object_new_string(reason) : NULL);
	return h;
}
