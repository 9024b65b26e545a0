// SPDX-License-Identifier: Apache-2.0
/* The disk class table (scenario/diskclass.h) and the names of its
 * devices (guest/contract.h). */
#include <string.h>

#include "guest/contract.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "scenario/diskclass.h"
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
		CHECK(c->making && *c->making);
		CHECK(c->make && c->make[0]);
		CHECK(c->params && c->scheduler && c->cost_kb && c->layout && c->describe);
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
