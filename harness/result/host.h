/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host: host.json, the few facts of a run that only the host saw, written
 * here and nowhere else; result_build() (build.h) reads them beside the
 * records and the console.
 *
 * The live run fills it as it goes, in this order:
 *
 *	json_object *h = host_new();
 *	host_start(h, run_id, &scenario);	// who, when, which scenario
 *	host_phase(h, "boot", 3.2);		// each phase: seconds since the VM started
 *	host_watch_end(h, timed_out, vm_exited, child_describe(&res));
 *	host_kernel(h, &scenario, &kernel);	// what ran: the kernel ...
 *	host_vm(h, &scenario, backend, &vm, &accel, initrd, virtio_channel, uri);
 *	host_finish(h, booted, setup_s, vm_s, total_s, signal, error);
 *	json_save(h, "RUN/host.json");
 *
 * and a run directory made before host.json existed has the same facts
 * taken from its result.json (host_from_result(), for a replay).
 *
 * host.json (all keys optional; null when unknown):
 *	run_id, tool, started, finished	strings
 *	hostname			the host scaletest ran on (not the libvirt host)
 *	scenario_file			the scenario's path as given
 *	scenario_overrides		the keys given on top of it ("key=value")
 *	kernel, vm			objects, copied into result.json as they are
 *	booted				whether a VM was started
 *	phase_host_s			{phase: seconds since the VM started}
 *	setup_s, vm_s, total_s		host durations
 *	timed_out, signal, error	how the watch ended (run_ending)
 *	vm_exited, vm_exit		the VM ended by itself, and how (child_describe)
 */
#ifndef SCALETEST_RESULT_HOST_H
#define SCALETEST_RESULT_HOST_H

#include <json.h>

#include "kernel/kernel.h"
#include "scenario/scenario.h"
#include "vm/accel.h"
#include "vm/vm.h"

json_object *host_new(void);
/* run_id, tool, started, hostname, scenario_file and scenario_overrides. */
void host_start(json_object *host, const char *run_id, const struct scenario *s);
/* Records the host's clock when the guest reached a phase. */
void host_phase(json_object *host, const char *phase, double seconds);
/* How the watch ended: past a deadline (timed_out), the VM gone before the
 * guest's end (vm_exited), and how it ended (vm_exit). */
void host_watch_end(json_object *host, int timed_out, int vm_exited, const char *vm_exit);
/* The kernel that ran (or was to run: what the run obtained of it). */
void host_kernel(json_object *host, const struct scenario *s, const struct kernel_artifact *k);
/* The VM: its backend, the accelerator chosen (accel, empty when none
 * was), the guest's size, the initramfs and record channel, the libvirt
 * uri, and the backend's own facts (vm->facts). */
void host_vm(json_object *host, const struct scenario *s, const struct vm_backend *be,
	     const struct vm *vm, const struct accel_result *accel, const char *initrd,
	     int virtio_channel, const char *uri);
/* The closing facts: finished now, whether a VM was started, the host
 * durations (vm_s NAN: none), the signal that interrupted the run (0) and
 * the harness's own error (NULL). */
void host_finish(json_object *host, int booted, double setup_s, double vm_s, double total_s,
		 int signal, const char *error);
/* For a run directory made before host.json existed: the same facts taken
 * from its result.json. */
json_object *host_from_result(json_object *result);

#endif
