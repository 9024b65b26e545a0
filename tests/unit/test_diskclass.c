// SPDX-License-Identifier: Apache-2.0
/* The disk class table (scenario/diskclass.h) and the names of its
 * devices (guest/contract.h). */
#include <string.h>

#include "guest/contract.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "scenario/scenario.h"
#include "test.h"

/* Every row is whole: a name the key and result.json use, words for the
 * reports, a guest script named after it, modules that make the devices
 * and the functions the harness calls. */
TEST(disk_classes_rows_are_whole)
{
	CHECK(disk_nclasses >= 1);
	CHECK_STR(disk_classes[0].name, "scsi_debug");
	for (size_t i = 0; i < disk_nclasses; i++) {
		const struct disk_class *c = &disk_classes[i];
		char script[64];

		CHECK(c->name && *c->name);
		CHECK(strspn(c->name, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(c->name));
		snprintf(script, sizeof(script), "class-%s.sh", c->name);
		CHECK_STR(c->script, script);
		CHECK(c->devices && strstr(c->devices, c->name) == c->devices);
		CHECK(c->device && strstr(c->devices, c->device) == c->devices);
		CHECK(c->making && *c->making && c->unit && *c->unit);
		CHECK((c->make && c->make[0] && c->params) || c->prepare);
		CHECK(c->scheduler && c->cost_kb && c->layout && c->describe);
		CHECK(c->max_devices > 0 && c->max_why);
		for (const struct disk_class_need *n = c->needs; n && n->config; n++)
			CHECK(n->what && c->instead);
		CHECK(disk_class_find(c->name) == c);
	}
	CHECK(disk_class_find("scsi-debug") == NULL);
	CHECK(disk_class_find("") == NULL);
}

/* scsi_debug as the first row: its module's parameters, layout and cost
 * are what the harness gave before there were classes. */
TEST(disk_class_scsi_debug_row_is_the_old_scsi_debug)
{
	struct scenario s;
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct strvec kv = STRVEC_INIT;
	const struct disk_class *c;

	scenario_init(&s);
	c = disk_class_of(&s);
	CHECK(c == &disk_classes[0]);
	CHECK(c->scsi);
	CHECK_EQ_INT(scenario_set(&s, "disks=4000", "--set", &err), 0);
	CHECK_EQ_INT(scenario_check(&s, &err), 0);
	c->params(&s, &sb);
	CHECK_STR(sb.buf, "add_host=1 num_tgts=80 max_luns=50 delay=0 dev_size_mb=4 fake_rw=0");
	c->layout(&s, &kv);
	CHECK_EQ_INT((long)kv.n, 3);
	if (kv.n == 3) {
		CHECK_STR(kv.v[0], "add_host=1");
		CHECK_STR(kv.v[1], "num_tgts=80");
		CHECK_STR(kv.v[2], "max_luns=50");
	}
	CHECK_STR(c->scheduler(&s), "mq-deadline");
	CHECK_EQ_INT(scenario_disk_cost_kb(&s), 360);
	sb_reset(&sb);
	c->describe(&s, &sb);
	CHECK_STR(sb.buf, "  4000 scsi_debug (1 host x 80 targets x 50 LUNs, 4 MiB each, "
		  "one shared store)\n");
	/* A sweep loads scsi_debug without hosts. */
	CHECK_EQ_INT(scenario_set(&s, "sweep=0,2000,4000", "--set", &err), 0);
	CHECK_EQ_INT(scenario_check(&s, &err), 0);
	sb_reset(&sb);
	c->params(&s, &sb);
	CHECK_STR(sb.buf, "add_host=0 num_tgts=40 max_luns=50 delay=0 dev_size_mb=4 fake_rw=0");
	strvec_clear(&kv);
	sb_release(&sb);
	sb_release(&err);
	scenario_release(&s);
}

/* The names of a class's devices, both ways. */
TEST(disk_class_names_both_ways)
{
	struct scenario s;
	char name[DISK_NAME_MAX];
	const struct disk_class *sd = &disk_classes[0];

	scenario_init(&s);
	CHECK_EQ_INT(class_disk_name(sd, &s, 3999, name, sizeof(name)), 0);
	CHECK_STR(name, "sdewv");
	CHECK_EQ_INT(class_disk_index(sd, &s, "sdewv"), 3999);
	CHECK_EQ_INT(class_disk_index(sd, &s, "vda"), -1);
	CHECK_EQ_INT(class_disk_index(sd, &s, "nullb0"), -1);
	for (long i = 0; i < 100000; i += 997) {
		CHECK_EQ_INT(class_disk_name(sd, &s, i, name, sizeof(name)), 0);
		CHECK_EQ_INT(class_disk_index(sd, &s, name), i);
	}
	scenario_release(&s);
}

/* The disk_class key's choices are the table's rows, in its order. */
TEST(disk_class_key_lists_the_rows)
{
	const struct scenario_key *k = scenario_key_find("disk_class");
	size_t n = 0;

	REQUIRE(k);
	for (; k->choices[n]; n++)
		if (n < disk_nclasses)
			CHECK_STR(k->choices[n], disk_classes[n].name);
	CHECK_EQ_INT((long)n, (long)disk_nclasses);
}

static int check_with(struct scenario *s, const char *const *sets, struct strbuf *err)
{
	scenario_init(s);
	for (; *sets; sets++)
		if (scenario_set(s, *sets, "--set", err) < 0)
			return -1;
	return scenario_check(s, err);
}

/* A class's own keys only with it; the class's limit before boot. */
TEST(disk_class_keys_and_limits)
{
	static const char *const sd_key_on_nullb[] = { "disk_class=null_blk", "sd_hosts=2", NULL };
	static const char *const nullb_key_on_sd[] = { "nullb_shared_tags=1", NULL };
	static const char *const nullb_ok[] = { "disk_class=null_blk", "disks=4096",
						"nullb_shared_tags=1", "memory_mb=4096",
						"nullb_submit_queues=2", "cpus=2", NULL };
	static const char *const nullb_at[] = { "disk_class=null_blk", "disks=1048576",
						"virtio_disks=0", "memory_mb=65536",
						"disk_cost_kb=1", NULL };
	struct scenario s;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(check_with(&s, sd_key_on_nullb, &err), -1);
	CHECK_STR(err.buf, "--set sd_hosts: sd_hosts is a key of disk_class = scsi_debug, and "
		  "this scenario's disk_class is null_blk");
	scenario_release(&s);
	sb_reset(&err);
	CHECK_EQ_INT(check_with(&s, nullb_key_on_sd, &err), -1);
	CHECK_CONTAINS(err.buf, "nullb_shared_tags is a key of disk_class = null_blk");
	scenario_release(&s);
	sb_reset(&err);

	CHECK_EQ_INT(check_with(&s, nullb_ok, &err), 0);
	CHECK_STR(err.buf, "");
	CHECK(disk_class_of(&s) == disk_class_find("null_blk"));
	CHECK_STR(scenario_disk_scheduler(&s), "none");
	scenario_release(&s);
	sb_reset(&err);

	/* 2^20 null_blk devices is the most: every minor of its major. */
	CHECK_EQ_INT(check_with(&s, nullb_at, &err), 0);
	scenario_release(&s);
	sb_reset(&err);
	scenario_init(&s);
	CHECK_EQ_INT(scenario_set(&s, "disks=1048577", "--set", &err), -1);
	CHECK_CONTAINS(err.buf, "out of range");
	scenario_release(&s);
	sb_release(&err);
}

/* null_blk: its parameters, names and settings. */
TEST(disk_class_null_blk_row)
{
	static const char *const sets[] = { "disk_class=null_blk", "disks=4000",
					    "nullb_shared_tags=1", "memory_mb=4096", NULL };
	struct scenario s;
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	const struct disk_class *c;
	char name[DISK_NAME_MAX];

	CHECK_EQ_INT(check_with(&s, sets, &err), 0);
	c = disk_class_of(&s);
	CHECK_STR(c->name, "null_blk");
	CHECK(!c->scsi);
	c->params(&s, &sb);
	CHECK_STR(sb.buf, "nr_devices=4000 queue_mode=2 memory_backed=0 shared_tags=1");
	CHECK_EQ_INT(class_disk_name(c, &s, 3999, name, sizeof(name)), 0);
	CHECK_STR(name, "nullb3999");
	CHECK_EQ_INT(class_disk_index(c, &s, "nullb3999"), 3999);
	CHECK_EQ_INT(class_disk_index(c, &s, "nullb0"), 0);
	CHECK_EQ_INT(class_disk_index(c, &s, "nullb"), -1);
	CHECK_EQ_INT(class_disk_index(c, &s, "nullb01"), -1);
	CHECK_EQ_INT(class_disk_index(c, &s, "nullb1x"), -1);
	CHECK_EQ_INT(class_disk_index(c, &s, "sda"), -1);
	/* Its keys are its settings, scsi_debug's are not; the class is said. */
	for (size_t i = 0; i < scenario_nkeys; i++) {
		const struct scenario_key *k = &scenario_keys[i];

		if (!strcmp(k->name, "disk_class") || !strncmp(k->name, "nullb_", 6))
			CHECK(disk_class_key_applies(&s, k));
		if (!strncmp(k->name, "sd_", 3))
			CHECK(!disk_class_key_applies(&s, k));
	}
	scenario_release(&s);
	scenario_init(&s);
	/* A scsi_debug run's settings are as before classes: no disk_class. */
	CHECK(!disk_class_key_applies(&s, scenario_key_find("disk_class")));
	CHECK(!disk_class_key_applies(&s, scenario_key_find("nullb_queue_mode")));
	CHECK(disk_class_key_applies(&s, scenario_key_find("sd_hosts")));
	/* A sweep makes them in configfs: none at load. */
	scenario_release(&s);
	{
		static const char *const sw[] = { "disk_class=null_blk", "sweep=0,100,200", NULL };

		CHECK_EQ_INT(check_with(&s, sw, &err), 0);
		sb_reset(&sb);
		disk_class_of(&s)->params(&s, &sb);
		CHECK_STR(sb.buf, "nr_devices=0 queue_mode=2 memory_backed=0 shared_tags=0");
	}
	scenario_release(&s);
	sb_release(&err);
	sb_release(&sb);
}

/* nvme_loop: names after the subsystem and the namespace, the path
 * devices none of its; its rules and limits. */
TEST(disk_class_nvme_loop_row)
{
	static const char *const sets[] = { "disk_class=nvme_loop", "disks=2500",
					    "nvme_ns_per_subsys=1000", "memory_mb=4096", NULL };
	static const char *const sweep_bad[] = { "disk_class=nvme_loop", "sweep=0,1536,3072", NULL };
	static const char *const sweep_ok[] = { "disk_class=nvme_loop", "sweep=0,2048,4096",
						"memory_mb=4096", NULL };
	static const char *const knob[] = { "disk_class=nvme_loop", "disks=40", "scheduler=none", NULL };
	static const char *const over[] = { "disk_class=nvme_loop", "disks=524289",
					    "memory_mb=65536", "disk_cost_kb=1", NULL };
	struct scenario s;
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	struct strvec kv = STRVEC_INIT;
	const struct disk_class *c;
	char name[DISK_NAME_MAX];

	CHECK_EQ_INT(check_with(&s, sets, &err), 0);
	CHECK_STR(err.buf, "");
	c = disk_class_of(&s);
	CHECK_STR(c->name, "nvme_loop");
	CHECK(!c->make && c->prepare && c->conf);
	CHECK_EQ_INT(class_disk_name(c, &s, 0, name, sizeof(name)), 0);
	CHECK_STR(name, "nvme0n1");
	CHECK_EQ_INT(class_disk_name(c, &s, 999, name, sizeof(name)), 0);
	CHECK_STR(name, "nvme0n1000");
	CHECK_EQ_INT(class_disk_name(c, &s, 2499, name, sizeof(name)), 0);
	CHECK_STR(name, "nvme2n500");
	CHECK_EQ_INT(class_disk_index(c, &s, "nvme2n500"), 2499);
	CHECK_EQ_INT(class_disk_index(c, &s, "nvme1n1"), 1000);
	CHECK_EQ_INT(class_disk_index(c, &s, "nvme0c0n1"), -1);	/* a path */
	CHECK_EQ_INT(class_disk_index(c, &s, "nvme0n0"), -1);
	CHECK_EQ_INT(class_disk_index(c, &s, "nvme0n1001"), -1);
	CHECK_EQ_INT(class_disk_index(c, &s, "nvme0n1p1"), -1);
	CHECK_EQ_INT(class_disk_index(c, &s, "nvmen1"), -1);
	/* shorter than "nvme": nothing read past the name (ASan) */
	CHECK_EQ_INT(class_disk_index(c, &s, ""), -1);
	CHECK_EQ_INT(class_disk_index(c, &s, "nv"), -1);
	CHECK_EQ_INT(class_disk_index(c, &s, "nvme"), -1);
	CHECK_EQ_INT(class_disk_index(c, &s, "nullb1"), -1);
	c->layout(&s, &kv);
	CHECK_EQ_INT((long)kv.n, 5);
	if (kv.n == 5)
		CHECK_STR(kv.v[0], "subsystems=3");
	c->conf(&s, &sb);
	CHECK_STR(sb.buf, "NVME_PER=1000\nNVME_SUBSYS=3\nNVME_TRANSPORT=loop\nNVME_IOQ=0\n");
	strvec_clear(&kv);
	c->prepare(&s, &kv);
	CHECK_EQ_INT((long)kv.n, 3);
	if (kv.n == 3)
		CHECK_STR(kv.v[2], "nvme_loop");
	strvec_clear(&kv);
	scenario_release(&s);
	sb_reset(&err);

	CHECK_EQ_INT(check_with(&s, sweep_bad, &err), -1);
	CHECK_CONTAINS(err.buf, "connects whole subsystems of nvme_ns_per_subsys (1024)");
	scenario_release(&s);
	sb_reset(&err);
	CHECK_EQ_INT(check_with(&s, sweep_ok, &err), 0);
	scenario_release(&s);
	sb_reset(&err);
	CHECK_EQ_INT(check_with(&s, knob, &err), -1);
	CHECK_CONTAINS(err.buf, "--set scheduler: scheduler and nr_requests are not set on nvme_loop");
	scenario_release(&s);
	sb_reset(&err);
	/* Two extended minors a namespace: 2^19 of them at most. */
	CHECK_EQ_INT(check_with(&s, over, &err), -1);
	CHECK_CONTAINS(err.buf, "--set disks: 524289 nvme_loop namespaces are more than the "
		       "524288 one boot can make");
	scenario_release(&s);
	sb_release(&err);
	sb_release(&sb);
}

/* More namespaces a subsystem than the kernel's NVMe target holds: refused,
 * naming its limit. */
TEST(disk_class_nvme_namespaces_per_subsystem)
{
	static const char *const at[] = { "disk_class=nvme_loop", "disks=2048",
					  "nvme_ns_per_subsys=1024", "memory_mb=4096", NULL };
	static const char *const over[] = { "disk_class=nvme_loop", "disks=2048",
					    "nvme_ns_per_subsys=1025", "memory_mb=4096", NULL };
	struct scenario s;
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(check_with(&s, at, &err), 0);
	scenario_release(&s);
	CHECK_EQ_INT(check_with(&s, over, &err), -1);
	CHECK_CONTAINS(err.buf, "--set nvme_ns_per_subsys: 1025 namespaces a subsystem are more "
		       "than the 1024 the kernel's NVMe target holds (NVMET_MAX_NAMESPACES");
	scenario_release(&s);
	sb_release(&err);
}

/* run/sizing.c's probe (a sweep of 0, 256 and 512) is a valid scenario
 * for every class, with the class's own probe settings. */
TEST(disk_class_sizing_probe_checks)
{
	for (size_t i = 0; i < disk_nclasses; i++) {
		static const char *const sets[] = { "sweep=0,256,512", "disks=512", "fio=0",
						    "rmmod=0", "virtio_disks=0", "memory_mb=2048",
						    NULL };
		struct scenario s;
		struct strbuf err = STRBUF_INIT;
		char cls[64];

		scenario_init(&s);
		snprintf(cls, sizeof(cls), "disk_class=%s", disk_classes[i].name);
		CHECK_EQ_INT(scenario_set(&s, cls, "--set", &err), 0);
		for (const char *const *p = sets; *p; p++)
			CHECK_EQ_INT(scenario_set(&s, *p, "--set", &err), 0);
		for (const char *const *p = disk_classes[i].probe; p && *p; p++)
			CHECK_EQ_INT(scenario_set(&s, *p, "--size-memory", &err), 0);
		CHECK_EQ_INT(scenario_check(&s, &err), 0);
		CHECK_STR(err.buf, "");
		scenario_release(&s);
		sb_release(&err);
	}
}
