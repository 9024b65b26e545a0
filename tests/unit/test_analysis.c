// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "result/analysis.h"
#include "result/result.h"
#include "test.h"
#include "lib/util.h"

static json_object *parse(const char *text)
{
	json_object *o = json_tokener_parse(text);

	REQUIRE(o != NULL);
	return o;
}

static json_object *check_named(json_object *checks, const char *name)
{
	for (size_t i = 0; i < json_object_array_length(checks); i++) {
		json_object *c = json_object_array_get_idx(checks, i);
		if (!strcmp(jstr(c, "name", ""), name))
			return c;
	}
	return NULL;
}

static void scenario_with(struct scenario *s, const char *const *sets)
{
	struct strbuf err = STRBUF_INIT;

	scenario_init(s);
	for (; *sets; sets++)
		REQUIRE(scenario_set(s, *sets, "--set", &err) == 0);
	sb_release(&err);
}

TEST(analysis_deltas_per_disk_costs_and_unaccounted)
{
	static const char *const sets[] = { "arch=i386", "disks=1000", NULL };
	json_object *root = parse(
		"{\"phases\": ["
		"{\"name\": \"before-insmod\", \"meminfo\": {\"LowFree\": 800000, \"MemFree\": 2000000,"
		" \"MemAvailable\": 1900000, \"Slab\": 10000, \"PageTables\": 100, \"KernelStack\": 500,"
		" \"VmallocUsed\": 1000, \"Percpu\": 200}},"
		"{\"name\": \"after-insmod\", \"meminfo\": {\"LowFree\": 600000, \"MemFree\": 1800000,"
		" \"MemAvailable\": 1750000, \"Slab\": 110000, \"PageTables\": 100, \"KernelStack\": 600,"
		" \"VmallocUsed\": 3000, \"Percpu\": 1200}},"
		"{\"name\": \"after-io\", \"meminfo\": {\"MemFree\": 1790000}},"
		"{\"name\": \"after-rmmod\", \"meminfo\": {\"MemFree\": 1970000}}]}");
	struct scenario s;

	scenario_with(&s, sets);
	analysis_deltas(root, &s);
	CHECK_EQ_INT(jint(root, "deltas.insmod.LowFree_kb", 0), -200000);
	CHECK_EQ_INT(jint(root, "deltas.insmod.Slab_kb", 0), 100000);
	/* costs are positive, per disk, in bytes */
	CHECK_EQ_INT(jint(root, "deltas.insmod.per_disk_bytes.LowFree", 0), 200000 * 1024 / 1000);
	CHECK_EQ_INT(jint(root, "deltas.insmod.per_disk_bytes.Slab", 0), 100000 * 1024 / 1000);
	/* 200000 drop - (100000 slab + 0 pt + 100 stack + 2000 vmalloc + 1000 percpu) */
	CHECK_EQ_INT(jint(root, "deltas.insmod.unaccounted_kb", 0), 200000 - 103100);
	/* lowmem: 200000 - (100000 + 0 + 100 + 1000) */
	CHECK_EQ_INT(jint(root, "deltas.insmod.lowmem_unaccounted_kb", 0), 200000 - 101100);
	/* 180000 of the 200000 came back */
	CHECK(jdouble(root, "deltas.rmmod.returned_pct", 0) > 89.9 &&
	      jdouble(root, "deltas.rmmod.returned_pct", 0) < 90.1);

	json_object *checks = json_object_new_array();
	analysis_leak(root, &s, checks);
	json_object *c = check_named(checks, "memory returned after rmmod");
	REQUIRE(c);
	CHECK(json_object_get_boolean(jget(c, "pass")));	/* 20000 kept <= 25% of 200000 */
	json_object_put(checks);

	struct strbuf err = STRBUF_INIT;
	REQUIRE(scenario_set(&s, "rmmod_tolerance_pct=5", "--set", &err) == 0);
	REQUIRE(scenario_set(&s, "rmmod_tolerance_kb=1000", "--set", &err) == 0);
	checks = json_object_new_array();
	analysis_leak(root, &s, checks);
	c = check_named(checks, "memory returned after rmmod");
	REQUIRE(c);
	CHECK(!json_object_get_boolean(jget(c, "pass")));	/* 20000 > max(10000, 1000) */
	CHECK_CONTAINS(jstr(c, "detail", ""), "20000 kB stayed taken, 10000 kB allowed");
	json_object_put(checks);
	sb_release(&err);
	scenario_release(&s);
	json_object_put(root);
}

TEST(analysis_deltas_without_highmem_have_no_lowfree)
{
	static const char *const sets[] = { "disks=10", NULL };
	json_object *root = parse(
		"{\"phases\": ["
		"{\"name\": \"before-insmod\", \"meminfo\": {\"MemFree\": 1000}},"
		"{\"name\": \"after-insmod\", \"meminfo\": {\"MemFree\": 900}}]}");
	struct scenario s;

	scenario_with(&s, sets);
	analysis_deltas(root, &s);
	CHECK(jget(root, "deltas.insmod.LowFree_kb") == NULL);
	CHECK(jget(root, "deltas.insmod.lowmem_unaccounted_kb") == NULL);
	CHECK(jget(root, "deltas.rmmod.returned_pct") == NULL);
	CHECK_EQ_INT(jint(root, "deltas.insmod.MemFree_kb", 0), -100);
	scenario_release(&s);
	json_object_put(root);
}

TEST(analysis_fio_checks)
{
	static const char *const sets[] = { "virtio_disks=2", NULL };
	struct scenario s;
	json_object *checks, *c, *root;

	scenario_with(&s, sets);

	/* Both disks verified, no errors. */
	root = parse("{\"fio\": {\"jobs\": ["
		     "{\"group\": \"verify\", \"job\": \"verify-sdb\", \"error\": 0},"
		     "{\"group\": \"verify\", \"job\": \"verify-sdc\", \"error\": 0},"
		     "{\"group\": \"all\", \"job\": \"all\", \"error\": 0}],"
		     " \"groups\": {\"verify\": {\"status\": 0}}}}");
	checks = json_object_new_array();
	analysis_fio(root, &s, checks);
	CHECK(json_object_get_boolean(jget(check_named(checks, "fio verify on the virtio disks"), "pass")));
	CHECK(json_object_get_boolean(jget(check_named(checks, "fio jobs without errors"), "pass")));
	json_object_put(checks);
	json_object_put(root);

	/* A verify mismatch names the job and the disk. */
	root = parse("{\"fio\": {\"jobs\": ["
		     "{\"group\": \"verify\", \"job\": \"verify-sdb\", \"filename\": \"/dev/sdb\", \"error\": 84},"
		     "{\"group\": \"verify\", \"job\": \"verify-sdc\", \"error\": 0}]}}");
	checks = json_object_new_array();
	analysis_fio(root, &s, checks);
	c = check_named(checks, "fio verify on the virtio disks");
	REQUIRE(c);
	CHECK(!json_object_get_boolean(jget(c, "pass")));
	CHECK_CONTAINS(jstr(c, "detail", ""), "job verify-sdb on /dev/sdb (verify): error 84");
	json_object_put(checks);
	json_object_put(root);

	/* fio could not start: no jobs, a non-zero status and its message. */
	root = parse("{\"fio\": {\"jobs\": [], \"groups\": {\"sample\": {\"status\": 134,"
		     " \"message\": \"Assertion failed\"}}}}");
	checks = json_object_new_array();
	analysis_fio(root, &s, checks);
	c = check_named(checks, "fio jobs without errors");
	REQUIRE(c);
	CHECK(!json_object_get_boolean(jget(c, "pass")));
	CHECK_CONTAINS(jstr(c, "detail", ""), "fio sample exited with status 134: Assertion failed");
	json_object_put(checks);
	json_object_put(root);

	/* A failure elsewhere does not fail the verify check. */
	root = parse("{\"fio\": {\"jobs\": ["
		     "{\"group\": \"verify\", \"job\": \"verify-sdb\", \"error\": 0},"
		     "{\"group\": \"verify\", \"job\": \"verify-sdc\", \"error\": 0}],"
		     " \"groups\": {\"all\": {\"status\": 1, \"message\": \"too long\"}}}}");
	checks = json_object_new_array();
	analysis_fio(root, &s, checks);
	CHECK(json_object_get_boolean(jget(check_named(checks, "fio verify on the virtio disks"), "pass")));
	c = check_named(checks, "fio jobs without errors");
	CHECK(!json_object_get_boolean(jget(c, "pass")));
	CHECK_CONTAINS(jstr(c, "detail", ""), "fio all exited with status 1: too long");
	json_object_put(checks);
	json_object_put(root);

	/* Nothing at all reported is not a pass either. */
	root = parse("{}");
	checks = json_object_new_array();
	analysis_fio(root, &s, checks);
	c = check_named(checks, "fio jobs without errors");
	REQUIRE(c);
	CHECK(!json_object_get_boolean(jget(c, "pass")));
	CHECK_STR(jstr(c, "detail", ""), "fio reported no jobs");
	json_object_put(checks);
	json_object_put(root);
	scenario_release(&s);
}

TEST(analysis_monitor_peak_against_steady)
{
	json_object *root = parse(
		"{\"phases\": [{\"name\": \"after-insmod\", \"meminfo\": {\"MemFree\": 5000, \"Slab\": 700}}],"
		" \"monitor\": {\"samples\": ["
		"{\"n\": 1, \"step\": \"insmod\", \"meminfo\": {\"MemFree\": 4000, \"Slab\": 900}},"
		"{\"n\": 2, \"step\": \"io\", \"meminfo\": {\"MemFree\": 4800, \"Slab\": 710}},"
		"{\"n\": 3, \"step\": \"io\", \"meminfo\": {\"MemFree\": 4500, \"Slab\": 750}},"
		"{\"n\": 4, \"step\": \"rmmod\", \"meminfo\": {\"MemFree\": 4400, \"Slab\": 800}}]}}");

	analysis_monitor(root);
	CHECK_EQ_INT(jint(root, "monitor.peak.during_io.MemFree_min", 0), 4500);
	CHECK_EQ_INT(jint(root, "monitor.peak.during_io.Slab_max", 0), 750);
	CHECK_EQ_INT(jint(root, "monitor.peak.during_io.samples", 0), 2);
	CHECK_EQ_INT(jint(root, "monitor.peak.steady_after_insmod.MemFree", 0), 5000);
	CHECK_EQ_INT(jint(root, "monitor.peak.io_extra_kb", 0), 500);
	CHECK(jget(root, "monitor.peak.during_io.LowFree_min") == NULL);
	json_object_put(root);
}

/* Free memory with the per-CPU lists' change (record/zoneinfo.h): the
 * lists each free measure leaves out, added where the run has them. */
TEST(result_free_change_adds_the_lists)
{
	json_object *d = parse("{\"MemFree_kb\": -1000, \"LowFree_kb\": -600, \"MemAvailable_kb\": -900,"
			       " \"Slab_kb\": 300, \"pcp_kb\": -40, \"pcp_low_kb\": -25,"
			       " \"Percpu_kb\": null, \"KernelStack_kb\": 1.5}");
	json_object *old = parse("{\"MemFree_kb\": -1000, \"pcp_kb\": null}");

	CHECK_STR(result_pcp_key("MemFree"), "pcp_kb");
	CHECK_STR(result_pcp_key("MemAvailable"), "pcp_kb");
	CHECK_STR(result_pcp_key("LowFree"), "pcp_low_kb");
	CHECK(result_pcp_key("Slab") == NULL);
	CHECK_EQ_INT(result_free_change(d, "MemFree", 7), -1040);
	CHECK_EQ_INT(result_free_change(d, "MemAvailable", 7), -940);
	CHECK_EQ_INT(result_free_change(d, "LowFree", 7), -625);
	CHECK_EQ_INT(result_free_change(d, "Slab", 7), 300);
	/* absent, null or not a whole number: the default */
	CHECK_EQ_INT(result_free_change(d, "Percpu", 7), 7);
	CHECK_EQ_INT(result_free_change(d, "KernelStack", 7), 7);
	CHECK_EQ_INT(result_free_change(d, "VmallocUsed", 7), 7);
	CHECK_EQ_INT(result_free_change(NULL, "MemFree", 7), 7);
	/* a run without zoneinfo: the kernel's own figure */
	CHECK_EQ_INT(result_free_change(old, "MemFree", 7), -1000);
	json_object_put(d);
	json_object_put(old);
}
