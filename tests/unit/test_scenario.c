// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "test.h"
#include "lib/util.h"

#define FILE_NAME "scenarios/test.scn"

/* m must end with suffix (the "file:" prefix is checked on its own, in
 * scenario_check_after_parse_names_the_file). */
static void check_ends(const char *m, const char *suffix, int line)
{
	size_t lm = strlen(m), ls = strlen(suffix);

	CHECKF_AT(__FILE__, line, lm >= ls && !strcmp(m + lm - ls, suffix),
		  "\"%s\" does not end with \"%s\"", m, suffix);
}
#define CHECK_ENDS(m, suffix) check_ends((m), (suffix), __LINE__)

static int origin_of(const struct scenario *s, const char *key)
{
	const struct scenario_key *k = scenario_key_find(key);

	if (!k) {
		test_fail(__FILE__, __LINE__, "no key '%s'", key);
		return -99;
	}
	return s->origin[k - scenario_keys];
}

/* Parse text as FILE_NAME; returns parse's result, err in *msg (static). */
static int parse(struct scenario *s, const char *text, const char **msg)
{
	static char buf[1024];
	struct strbuf err = STRBUF_INIT;
	int r = scenario_parse(s, FILE_NAME, text, strlen(text), &err);

	snprintf(buf, sizeof(buf), "%s", err.buf);
	sb_release(&err);
	*msg = buf;
	return r;
}

/* text must fail to parse with exactly this message. */
static void parse_fails(const char *text, const char *want, int line)
{
	struct scenario s;
	const char *msg;

	scenario_init(&s);
	if (parse(&s, text, &msg) != -1)
		test_fail(__FILE__, line, "parse of '%s' did not fail", text);
	else
		CHECKF_AT(__FILE__, line, !strcmp(msg, want),
			  "parse of '%s': got \"%s\", want \"%s\"", text, msg, want);
	scenario_release(&s);
}

/* Parse (must succeed), then check; returns check's message or "". */
static const char *check_of(const char *text, int *r)
{
	static char buf[1024];
	struct scenario s;
	struct strbuf err = STRBUF_INIT;
	const char *msg;

	scenario_init(&s);
	if (parse(&s, text, &msg) < 0) {
		test_fail(__FILE__, __LINE__, "parse of '%s' failed: %s", text, msg);
		*r = -2;
		scenario_release(&s);
		return "";
	}
	*r = scenario_check(&s, &err);
	snprintf(buf, sizeof(buf), "%s", err.buf);
	sb_release(&err);
	scenario_release(&s);
	return buf;
}

TEST(scenario_parse_valid)
{
	static const char text[] =
		"# seed: 4000 disks on i386\n"
		"\n"
		"name = seed-i386\n"
		"description = \"Seed run # one, with spaces\"   # a comment\n"
		"arch = i386\n"
		"   memory_mb\t=\t2048   \n"
		"disks = 4000 # trailing comment\n"
		"sd_hosts = 2\r\n"
		"sd_fake_rw = yes\n"
		"virtio_bus = blk\n"
		"cmdline = quiet mitigations=off\n"
		"rmmod = off\n"
		"kernel_package = linux-image-686-pae\n"
		"timeout_boot=300";
	struct scenario s;
	struct strbuf err = STRBUF_INIT;
	const char *msg;

	scenario_init(&s);
	CHECK_EQ_INT(parse(&s, text, &msg), 0);
	CHECK_STR(msg, "");
	CHECK_STR(s.name, "seed-i386");
	CHECK_STR(s.description, "Seed run # one, with spaces");
	CHECK_EQ_INT(s.arch, ARCH_I386);
	CHECK_EQ_INT(s.memory_mb, 2048);
	CHECK_EQ_INT(s.disks, 4000);
	CHECK_EQ_INT(s.sd_hosts, 2);
	CHECK_EQ_INT(s.sd_fake_rw, 1);
	CHECK_EQ_INT(s.virtio_bus, VIRTIO_BLK);
	CHECK_STR(s.cmdline, "quiet mitigations=off");
	CHECK_EQ_INT(s.rmmod, 0);
	CHECK_STR(s.kernel_package, "linux-image-686-pae");
	CHECK_EQ_INT(s.timeout_boot, 300);
	/* Keys not in the file keep their defaults. */
	CHECK_EQ_INT(s.virtio_disks, 4);
	CHECK_EQ_INT(s.cpus, 1);
	/* Where each key came from. */
	CHECK_EQ_INT(origin_of(&s, "name"), 3);
	CHECK_EQ_INT(origin_of(&s, "disks"), 7);
	CHECK_EQ_INT(origin_of(&s, "timeout_boot"), 14);
	CHECK_EQ_INT(origin_of(&s, "cpus"), 0);
	CHECK_EQ_INT(scenario_check(&s, &err), 0);
	CHECK_STR(err.buf, "");
	CHECK_STR(scenario_kernel_package(&s), "linux-image-686-pae");
	CHECK_EQ_INT(scenario_disk_cost_kb(&s), 180);
	CHECK_STR(arch_name(s.arch), "i386");
	CHECK_STR(arch_debian(s.arch), "i386");
	scenario_release(&s);
	sb_release(&err);
}

TEST(scenario_defaults)
{
	struct scenario s;
	struct strbuf err = STRBUF_INIT, v = STRBUF_INIT;

	scenario_init(&s);
	CHECK_EQ_INT(s.arch, ARCH_X86_64);
	CHECK_EQ_INT(s.kernel, KERNEL_DEBIAN);
	CHECK_EQ_INT(s.accel, ACCEL_AUTO);
	CHECK_EQ_INT(s.memory_mb, 2048);
	CHECK_EQ_INT(s.cpus, 1);
	CHECK_EQ_INT(s.disks, 4000);
	CHECK_EQ_INT(s.sd_hosts, 1);
	CHECK_EQ_INT(s.sd_dev_size_mb, 4);
	CHECK_EQ_INT(s.sd_fake_rw, 0);
	CHECK_EQ_INT(s.virtio_disks, 4);
	CHECK_EQ_INT(s.virtio_bus, VIRTIO_SCSI);
	CHECK_EQ_INT(s.virtio_disk_mb, 64);
	CHECK_EQ_INT(s.io_mb, 4);
	CHECK_EQ_INT(s.rmmod, 1);
	CHECK_EQ_INT(s.loglevel, 4);
	CHECK_EQ_INT(s.disk_cost_kb, 0);
	CHECK_EQ_INT(s.timeout_boot, 120);
	CHECK_EQ_INT(s.timeout_insmod, 900);
	CHECK_EQ_INT(s.timeout_io, 600);
	CHECK_EQ_INT(s.timeout_rmmod, 900);
	CHECK_STR(s.name, "");
	CHECK_STR(s.kernel_package, "");
	CHECK_STR(s.kernel_image, "");
	CHECK_STR(scenario_kernel_package(&s), "linux-image-amd64");
	CHECK_EQ_INT(scenario_disk_cost_kb(&s), 360);
	CHECK_STR(arch_name(s.arch), "x86_64");
	CHECK_STR(arch_debian(s.arch), "amd64");
	/* Every key's value reads back as its documented default. */
	for (size_t i = 0; i < scenario_nkeys; i++) {
		const struct scenario_key *k = &scenario_keys[i];
		const char *want = k->def;

		sb_reset(&v);
		scenario_value(&s, k, &v);
		if (k->type == KT_BOOL)
			want = (!strcmp(k->def, "1") || !strcmp(k->def, "yes")) ? "1" : "0";
		CHECKF(!strcmp(v.buf, want), "key %s: value '%s', default '%s'",
		       k->name, v.buf, k->def);
		CHECK_EQ_INT(s.origin[i], 0);
		CHECK(scenario_key_find(k->name) == k);
	}
	CHECK(scenario_key_find("dsks") == NULL);
	/* The defaults make a valid scenario. */
	CHECK_EQ_INT(scenario_check(&s, &err), 0);
	CHECK_STR(err.buf, "");
	scenario_release(&s);
	sb_release(&err);
	sb_release(&v);
}

TEST(scenario_default_name_from_file)
{
	struct scenario s;
	struct strbuf err = STRBUF_INIT;

	scenario_init(&s);
	CHECK_EQ_INT(scenario_parse(&s, "scenarios/seed-i386-4000.scn", "", 0, &err), 0);
	CHECK_STR(s.name, "seed-i386-4000");
	scenario_release(&s);
	scenario_init(&s);
	CHECK_EQ_INT(scenario_parse(&s, "/x/my scenario;rm", "disks = 1\n", 10, &err), 0);
	CHECK_STR(s.name, "my_scenario_rm");
	scenario_release(&s);
	/* An explicit name wins. */
	scenario_init(&s);
	CHECK_EQ_INT(scenario_parse(&s, "scenarios/x", "name = y\n", 9, &err), 0);
	CHECK_STR(s.name, "y");
	scenario_release(&s);
	CHECK_STR(err.buf, "");
	sb_release(&err);
}

TEST(scenario_comments_and_quotes)
{
	struct scenario s;
	const char *msg;

	scenario_init(&s);
	CHECK_EQ_INT(parse(&s, "name = a#b\n"
				"description = x  # y\n"
				"cmdline = \"\"\n"
				"kernel_package = \"linux-image-amd64\"# c\n"
				"\t# indented comment\n"
				"   \n", &msg), 0);
	CHECK_STR(msg, "");
	CHECK_STR(s.name, "a#b");		/* '#' not after a blank */
	CHECK_STR(s.description, "x");
	CHECK_STR(s.cmdline, "");
	CHECK_STR(s.kernel_package, "linux-image-amd64");
	scenario_release(&s);

	scenario_init(&s);
	CHECK_EQ_INT(parse(&s, "description = \"  # kept, with = and spaces  \"\n", &msg), 0);
	CHECK_STR(s.description, "  # kept, with = and spaces  ");
	scenario_release(&s);

	parse_fails("description = \"abc\" def\n",
		    FILE_NAME ":1: text after the closing quote", __LINE__);
}

TEST(scenario_unknown_key)
{
	parse_fails("# x\ndisks = 10\ndsks = 5\n",
		    FILE_NAME ":3: unknown key 'dsks' (did you mean 'disks'?)", __LINE__);
	parse_fails("memry_mb = 1024\n",
		    FILE_NAME ":1: unknown key 'memry_mb' (did you mean 'memory_mb'?)",
		    __LINE__);
	parse_fails("zzzzzzzzzz = 1\n", FILE_NAME ":1: unknown key 'zzzzzzzzzz'", __LINE__);
}

TEST(scenario_not_a_number)
{
	parse_fails("arch = i386\ndisks = lots\n",
		    FILE_NAME ":2: disks: 'lots' is not a whole number", __LINE__);
	parse_fails("disks = 4k\n", FILE_NAME ":1: disks: '4k' is not a whole number",
		    __LINE__);
	parse_fails("disks = 0x10\n", FILE_NAME ":1: disks: '0x10' is not a whole number",
		    __LINE__);
	parse_fails("disks = +5\n", FILE_NAME ":1: disks: '+5' is not a whole number",
		    __LINE__);
	parse_fails("disks =\n", FILE_NAME ":1: disks: '' is not a whole number", __LINE__);
	parse_fails("disks = 99999999999999999999\n",
		    FILE_NAME ":1: disks: '99999999999999999999' is not a whole number",
		    __LINE__);
	parse_fails("rmmod = maybe\n",
		    FILE_NAME ":1: rmmod: 'maybe' is not a boolean (yes/no, 1/0, true/false, on/off)",
		    __LINE__);
}

TEST(scenario_out_of_range)
{
	parse_fails("\n\ndisks = 1048577\n",
		    FILE_NAME ":3: disks: 1048577 is out of range 0..1048576", __LINE__);
	parse_fails("disks = -1\n", FILE_NAME ":1: disks: -1 is out of range 0..1048576",
		    __LINE__);
	parse_fails("memory_mb = 64\n",
		    FILE_NAME ":1: memory_mb: 64 is out of range 128..65536", __LINE__);
	parse_fails("cpus = 0\n", FILE_NAME ":1: cpus: 0 is out of range 1..64", __LINE__);
	parse_fails("timeout_boot = 4\n",
		    FILE_NAME ":1: timeout_boot: 4 is out of range 5..86400", __LINE__);
}

TEST(scenario_bad_enum_lists_choices)
{
	parse_fails("arch = arm64\n",
		    FILE_NAME ":1: arch: 'arm64' is not one of x86_64, i386", __LINE__);
	parse_fails("virtio_bus = nvme\n",
		    FILE_NAME ":1: virtio_bus: 'nvme' is not one of scsi, blk", __LINE__);
	parse_fails("accel = KVM\n",
		    FILE_NAME ":1: accel: 'KVM' is not one of auto, tcg, kvm", __LINE__);
	parse_fails("kernel = deb\n",
		    FILE_NAME ":1: kernel: 'deb' is not one of debian, files, build", __LINE__);
}

TEST(scenario_duplicate_key_names_first_line)
{
	parse_fails("arch = i386\ndisks = 10\n# again\n\ndisks = 20\n",
		    FILE_NAME ":5: duplicate key 'disks' (first set on line 2)", __LINE__);
}

TEST(scenario_syntax_errors)
{
	parse_fails("arch = i386\ndisks 4000\n",
		    FILE_NAME ":2: expected '=' after the key", __LINE__);
	parse_fails("= 5\n", FILE_NAME ":1: expected 'key = value'", __LINE__);
	parse_fails("Disks = 5\n", FILE_NAME ":1: expected 'key = value'", __LINE__);
	parse_fails("description = \"no end\n",
		    FILE_NAME ":1: unterminated quote", __LINE__);
	parse_fails("description = a\x01z\n",
		    FILE_NAME ":1: description: control character in value", __LINE__);
	{
		struct scenario s;
		struct strbuf err = STRBUF_INIT;
		static const char nul[] = "arch = i386\ndisks = 1\0 0\n";

		scenario_init(&s);
		CHECK_EQ_INT(scenario_parse(&s, FILE_NAME, nul, sizeof(nul) - 1, &err), -1);
		CHECK_STR(err.buf, FILE_NAME ":2: NUL byte in line");
		scenario_release(&s);
		sb_release(&err);
	}
	{
		struct strbuf t = STRBUF_INIT;
		sb_adds(&t, "description = ");
		for (int i = 0; i < 4097; i++)
			sb_addch(&t, 'x');
		sb_addch(&t, '\n');
		parse_fails(t.buf, FILE_NAME ":1: description: value too long", __LINE__);
		sb_release(&t);
	}
}

TEST(scenario_set_overrides)
{
	struct scenario s;
	struct strbuf err = STRBUF_INIT;
	const char *msg;

	scenario_init(&s);
	CHECK_EQ_INT(parse(&s, "disks = 4000\narch = i386\n", &msg), 0);
	CHECK_EQ_INT(scenario_set(&s, "disks=200", "--set", &err), 0);
	CHECK_EQ_INT(s.disks, 200);
	CHECK_EQ_INT(origin_of(&s, "disks"), -1);
	CHECK_EQ_INT(scenario_set(&s, "disks=300", "--set", &err), 0);
	CHECK_EQ_INT(s.disks, 300);
	CHECK_EQ_INT(scenario_set(&s, "description=a = b", "--set", &err), 0);
	CHECK_STR(s.description, "a = b");
	CHECK_EQ_INT(scenario_set(&s, "arch=x86_64", "--set", &err), 0);
	CHECK_EQ_INT(s.arch, ARCH_X86_64);
	CHECK_EQ_INT(scenario_set(&s, "sd_fake_rw=true", "--set", &err), 0);
	CHECK_EQ_INT(s.sd_fake_rw, 1);
	CHECK_STR(err.buf, "");
	/* A --set value is not a duplicate of the file's. */
	CHECK_EQ_INT(origin_of(&s, "arch"), -1);
	CHECK_EQ_INT(scenario_check(&s, &err), 0);
	scenario_release(&s);
	sb_release(&err);
}

static void set_fails(const char *assignment, const char *want, int line)
{
	struct scenario s;
	struct strbuf err = STRBUF_INIT;

	scenario_init(&s);
	if (scenario_set(&s, assignment, "--set", &err) != -1)
		test_fail(__FILE__, line, "--set %s did not fail", assignment);
	else
		CHECKF_AT(__FILE__, line, !strcmp(err.buf, want),
			  "--set %s: got \"%s\", want \"%s\"", assignment, err.buf, want);
	scenario_release(&s);
	sb_release(&err);
}

TEST(scenario_set_errors)
{
	set_fails("disks", "--set: expected key=value, got 'disks'", __LINE__);
	set_fails("=5", "--set: expected key=value, got '=5'", __LINE__);
	set_fails("dsks=1", "--set dsks=1: unknown key 'dsks' (did you mean 'disks'?)",
		  __LINE__);
	set_fails("disks=abc", "--set disks=abc: disks: 'abc' is not a whole number",
		  __LINE__);
	set_fails("disks=1048577", "--set disks=1048577: disks: 1048577 is out of range 0..1048576",
		  __LINE__);
	set_fails("arch=sparc", "--set arch=sparc: arch: 'sparc' is not one of x86_64, i386",
		  __LINE__);
}

TEST(scenario_set_error_is_blamed_on_set)
{
	struct scenario s;
	struct strbuf err = STRBUF_INIT;
	const char *msg;

	scenario_init(&s);
	CHECK_EQ_INT(parse(&s, "arch = i386\nmemory_mb = 2048\ndisks = 4000\n", &msg), 0);
	CHECK_EQ_INT(scenario_set(&s, "disks=5000", "--set", &err), 0);
	CHECK_EQ_INT(scenario_check(&s, &err), -1);
	CHECK(!strncmp(err.buf, "--set disks: ", 13));
	CHECK_CONTAINS(err.buf, "low memory");
	scenario_release(&s);
	sb_release(&err);
}

TEST(scenario_check_disks_vs_hosts)
{
	int r;
	const char *m = check_of("sd_hosts = 2\ndisks = 4001\n", &r);

	CHECK_EQ_INT(r, -1);
	CHECK_ENDS(m, ":2: 4001 disks cannot be spread evenly over 2 hosts (sd_hosts)");
	m = check_of("sd_hosts = 3\ndisks = 3999\n", &r);
	CHECK_EQ_INT(r, 0);
	CHECK_STR(m, "");
}

TEST(scenario_check_kernel_files)
{
	int r;
	const char *m = check_of("\nkernel = files\nkernel_modules = /lib/modules/6.1\n", &r);

	CHECK_EQ_INT(r, -1);
	CHECK_ENDS(m, ":2: kernel=files needs kernel_image and kernel_modules");
	m = check_of("kernel = files\nkernel_image = /boot/vmlinuz\n", &r);
	CHECK_EQ_INT(r, -1);
	CHECK_CONTAINS(m, "kernel=files needs kernel_image and kernel_modules");
	m = check_of("kernel = files\nkernel_image = /boot/vmlinuz\n"
		     "kernel_modules = /lib/modules/6.1\n", &r);
	CHECK_EQ_INT(r, 0);
	m = check_of("kernel_image = /boot/vmlinuz\n", &r);
	CHECK_EQ_INT(r, -1);
	CHECK_ENDS(m, ":1: kernel_image and kernel_modules need kernel=files");
}

TEST(scenario_check_io_larger_than_disk)
{
	int r;
	const char *m = check_of("virtio_disk_mb = 64\nio_mb = 128\n", &r);

	CHECK_EQ_INT(r, -1);
	CHECK_ENDS(m, ":2: io_mb (128) is larger than virtio_disk_mb (64)");
	m = check_of("virtio_disk_mb = 64\nio_mb = 64\n", &r);
	CHECK_EQ_INT(r, 0);
}

TEST(scenario_check_memory_fit)
{
	int r;
	const char *m;

	m = check_of("arch = i386\nmemory_mb = 2048\ndisks = 5000\n", &r);
	CHECK_EQ_INT(r, -1);
	CHECK_CONTAINS(m, ":3: 5000 disks need about");
	CHECK_CONTAINS(m, "low memory");
	CHECK_CONTAINS(m, "2048 MiB i386 guest");
	m = check_of("arch = i386\nmemory_mb = 2048\ndisks = 4000\n", &r);
	CHECK_EQ_INT(r, 0);
	CHECK_STR(m, "");
	m = check_of("arch = x86_64\nmemory_mb = 4096\ndisks = 4000\n", &r);
	CHECK_EQ_INT(r, 0);
	CHECK_STR(m, "");
	/* 64-bit: all memory counts, but not enough of it. */
	m = check_of("memory_mb = 512\ndisks = 4000\n", &r);
	CHECK_EQ_INT(r, -1);
	CHECK_CONTAINS(m, "of memory");
	CHECK(!strstr(m, "low memory"));
	/* disk_cost_kb overrides the per-arch estimate. */
	m = check_of("arch = i386\nmemory_mb = 2048\ndisks = 5000\ndisk_cost_kb = 100\n", &r);
	CHECK_EQ_INT(r, 0);
	m = check_of("disks = 0\nvirtio_disks = 0\n", &r);
	CHECK_EQ_INT(r, -1);
	CHECK_CONTAINS(m, "nothing to test");
}

TEST(scenario_disk_cost_follows_the_scheduler)
{
	/* 65,536 disks with scheduler none (submit_queues = CPUs) fit a
	 * 15 GiB amd64 guest; with mq-deadline (one submit queue, the
	 * default) they do not, and the refusal names the scheduler and the
	 * way to none.  The scheduler key counts too. */
	static const char big[] = "memory_mb = 15360\ndisks = 65536\n";
	struct strbuf t = STRBUF_INIT;
	struct scenario s;
	const char *m, *msg;
	int r;

	sb_addf(&t, "%ssd_submit_queues = 2\ncpus = 2\n", big);
	m = check_of(t.buf, &r);
	CHECK_EQ_INT(r, 0);
	CHECK_STR(m, "");
	m = check_of(big, &r);
	CHECK_EQ_INT(r, -1);
	CHECK_CONTAINS(m, "65536 disks need about 23040 MiB of memory at 360 kB each "
		       "(scheduler mq-deadline)");
	CHECK_CONTAINS(m, "scheduler none costs far less a disk: sd_submit_queues = cpus, cpus > 1");
	/* Two submit queues on one CPU are one hardware queue: mq-deadline. */
	sb_reset(&t);
	sb_addf(&t, "%ssd_submit_queues = 2\n", big);
	m = check_of(t.buf, &r);
	CHECK_EQ_INT(r, -1);
	sb_reset(&t);
	sb_addf(&t, "%sscheduler = none\n", big);
	m = check_of(t.buf, &r);
	CHECK_EQ_INT(r, 0);
	/* The table, through the scenario. */
	scenario_init(&s);
	CHECK_EQ_INT(parse(&s, "arch = i386\n", &msg), 0);
	CHECK_STR(scenario_disk_scheduler(&s), "mq-deadline");
	CHECK_EQ_INT(scenario_disk_cost_kb(&s), 180);
	scenario_release(&s);
	scenario_init(&s);
	CHECK_EQ_INT(parse(&s, "arch = i386\nscheduler = none\n", &msg), 0);
	CHECK_STR(scenario_disk_scheduler(&s), "none");
	CHECK(scenario_disk_cost_kb(&s) < 180);
	scenario_release(&s);
	scenario_init(&s);
	CHECK_EQ_INT(parse(&s, "scheduler = kyber\n", &msg), 0);
	CHECK_EQ_INT(scenario_disk_cost_kb(&s), 360);
	scenario_release(&s);
	scenario_init(&s);
	CHECK_EQ_INT(parse(&s, "sd_submit_queues = 4\ncpus = 2\ndisk_cost_kb = 99\n", &msg), 0);
	CHECK_STR(scenario_disk_scheduler(&s), "none");
	CHECK_EQ_INT(scenario_disk_cost_kb(&s), 99);
	scenario_release(&s);
	sb_release(&t);
}

TEST(scenario_check_sd_index_limit)
{
	/* sd names 2^20 disks: the scsi_debug disks and the virtio-scsi ones
	 * after them must fit; virtio-blk disks are vdX, apart. */
	static const char base[] = "disks = 1048576\ndisk_cost_kb = 1\nmemory_mb = 65536\n";
	struct strbuf t = STRBUF_INIT;
	const char *m;
	int r;

	sb_addf(&t, "%svirtio_disks = 1\n", base);
	m = check_of(t.buf, &r);
	CHECK_EQ_INT(r, -1);
	CHECK_CONTAINS(m, "1048576 scsi_debug disks and 1 virtio-scsi disks after them are more "
		       "than the 1048576 that sd names (its 20-bit index)");
	sb_reset(&t);
	sb_addf(&t, "%svirtio_disks = 1\nvirtio_bus = blk\n", base);
	m = check_of(t.buf, &r);
	CHECK_EQ_INT(r, 0);
	{
		struct scenario s;
		const char *msg;

		scenario_init(&s);
		CHECK_EQ_INT(parse(&s, "disks = 1048577\n", &msg), -1);
		CHECK_CONTAINS(msg, "disks: 1048577 is out of range 0..1048576");
		scenario_release(&s);
	}
	sb_release(&t);
}

TEST(scenario_check_strings)
{
	int r;
	const char *m;

	m = check_of("name = a/b\n", &r);
	CHECK_EQ_INT(r, -1);
	CHECK_ENDS(m, ":1: name 'a/b' must be letters, digits, '.', '_' or '-' (at most 64)");
	m = check_of("kernel_package = Linux-Image\n", &r);
	CHECK_EQ_INT(r, -1);
	CHECK_ENDS(m, ":1: 'Linux-Image' is not a Debian package name");
	m = check_of("kernel_package = linux-image-686-pae:i386\n", &r);
	CHECK_EQ_INT(r, 0);
	m = check_of("cmdline = console=ttyS0;reboot\n", &r);
	CHECK_EQ_INT(r, -1);
	CHECK_CONTAINS(m, ":1: cmdline may hold only");
}

TEST(scenario_sd_layout_multiplies_back)
{
	static const long long disks[] = { 4000, 37, 4001, 64, 1, 0, 128, 100000, 4002 };

	for (long long hosts = 1; hosts <= 2; hosts++) {
		for (size_t i = 0; i < ARRAY_SIZE(disks); i++) {
			struct scenario s;
			struct strbuf err = STRBUF_INIT;
			long long tgts = -1, luns = -1;
			int ok;

			scenario_init(&s);
			s.disks = disks[i];
			s.sd_hosts = hosts;
			s.memory_mb = 65536;	/* only the layout matters here */
			ok = scenario_check(&s, &err) == 0;
			if (disks[i] % hosts) {
				/* Not a valid scenario; check says so. */
				CHECKF(!ok && strstr(err.buf, "cannot be spread evenly"),
				       "%lld disks on %lld hosts: check said '%s'", disks[i],
				       hosts, err.buf);
			} else {
				scenario_sd_layout(&s, &tgts, &luns);
				CHECKF(hosts * tgts * luns == disks[i] && luns >= 1 && luns <= 64 &&
				       tgts >= 0, "%lld disks on %lld hosts: %lld tgts * %lld luns",
				       disks[i], hosts, tgts, luns);
			}
			scenario_release(&s);
			sb_release(&err);
		}
	}
	/* The documented shape for the default: 4000 = 80 targets * 50 LUNs. */
	{
		struct scenario s;
		long long tgts, luns;

		scenario_init(&s);
		scenario_sd_layout(&s, &tgts, &luns);
		CHECK_EQ_INT(tgts, 80);
		CHECK_EQ_INT(luns, 50);
		scenario_release(&s);
	}
}

/* Count '|' not escaped by a backslash. */
static int count_pipes(const char *s, size_t n)
{
	int c = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\') {
			i++;
			continue;
		}
		if (s[i] == '|')
			c++;
	}
	return c;
}

TEST(scenario_keys_markdown_lists_every_key)
{
	struct strbuf md = STRBUF_INIT;
	size_t lines = 0;
	const char *p, *nl;

	scenario_keys_markdown(&md);
	for (size_t i = 0; i < scenario_nkeys; i++) {
		char *row = xstrfmt("\n| `%s` | ", scenario_keys[i].name);
		CHECK_CONTAINS(md.buf, row);
		free(row);
	}
	/* A header, a rule, one row per key, each with six cells. */
	for (p = md.buf; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		REQUIRE(nl);
		CHECKF(count_pipes(p, (size_t)(nl - p)) == 7, "row %zu has %d cell separators: %.*s",
		       lines, count_pipes(p, (size_t)(nl - p)), (int)(nl - p), p);
		lines++;
	}
	CHECK_EQ_INT(lines, scenario_nkeys + 2);
	CHECK_CONTAINS(md.buf, "| `disks` | int | `4000` | 0..1048576 | disks |");
	CHECK_CONTAINS(md.buf, "| `arch` | enum | `x86_64` | `x86_64`, `i386` |");
	sb_release(&md);
}

TEST(scenario_load_resolves_paths)
{
	const char *dir = test_tmpdir();
	char *path = xstrfmt("%s/k.scn", dir);
	static const char text[] = "kernel = files\nkernel_image = bzImage\n"
		"kernel_modules = /abs/modules\n";
	struct scenario s;
	struct strbuf err = STRBUF_INIT;
	char *want;

	REQUIRE(write_file(path, text, sizeof(text) - 1) == 0);
	scenario_init(&s);
	CHECK_EQ_INT(scenario_load(&s, path, &err), 0);
	CHECK_STR(err.buf, "");
	want = xstrfmt("%s/bzImage", dir);
	CHECK_STR(s.kernel_image, want);
	CHECK_STR(s.kernel_modules, "/abs/modules");
	CHECK_STR(s.name, "k");
	CHECK_STR(s.file, path);
	/* --set paths stay relative to the cwd. */
	CHECK_EQ_INT(scenario_set(&s, "kernel_image=other/bz", "--set", &err), 0);
	CHECK_STR(s.kernel_image, "other/bz");
	CHECK_EQ_INT(scenario_check(&s, &err), 0);
	scenario_release(&s);
	free(want);

	scenario_init(&s);
	sb_reset(&err);
	CHECK_EQ_INT(scenario_load(&s, "/nonexistent/x.scn", &err), -1);
	CHECK_CONTAINS(err.buf, "cannot read '/nonexistent/x.scn'");
	scenario_release(&s);
	sb_release(&err);
	free(path);
}

TEST(scenario_check_after_parse_names_the_file)
{
	/* scenario.h: scenario_parse() "does the same as scenario_load() from
	 * a buffer", and errors are "file:LINE: ...", so a rule broken on line
	 * 2 of the parsed buffer must be blamed on FILE_NAME:2, as it is after
	 * scenario_load(). */
	int r;
	const char *m = check_of("sd_hosts = 2\ndisks = 4001\n", &r);

	CHECK_EQ_INT(r, -1);
	CHECK_STR(m, FILE_NAME ":2: 4001 disks cannot be spread evenly over 2 hosts (sd_hosts)");
}

TEST(scenario_check_after_load_names_the_file)
{
	const char *dir = test_tmpdir();
	char *path = xstrfmt("%s/uneven.scn", dir);
	char *want = xstrfmt("%s:2: 4001 disks cannot be spread evenly over 2 hosts (sd_hosts)",
			     path);
	static const char text[] = "sd_hosts = 2\ndisks = 4001\n";
	struct scenario s;
	struct strbuf err = STRBUF_INIT;

	REQUIRE(write_file(path, text, sizeof(text) - 1) == 0);
	scenario_init(&s);
	CHECK_EQ_INT(scenario_load(&s, path, &err), 0);
	CHECK_EQ_INT(scenario_check(&s, &err), -1);
	CHECK_STR(err.buf, want);
	scenario_release(&s);
	sb_release(&err);
	free(want);
	free(path);
}

/* A sweep list read on its own (scenario_sweep_parse, scenario/sweep.c):
 * the steps as given, and each bad list refused with its reason. */
TEST(scenario_sweep_parse_lists)
{
	static const struct {
		const char *list, *why;
	} bad[] = {
		{ "250", "at least two steps" },
		{ "0,x", "'x' is not a disk count" },
		{ "500,250", "must rise first" },
		{ "0,2000000", "is not a disk count" },
	};
	struct strbuf why = STRBUF_INIT;
	long long *st;
	size_t n;

	REQUIRE(scenario_sweep_parse("0,250,500, 1000", &st, &n, &why) == 0);
	CHECK_EQ_INT((long)n, 4);
	CHECK(st[0] == 0 && st[1] == 250 && st[2] == 500 && st[3] == 1000);
	free(st);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		sb_reset(&why);
		CHECK(scenario_sweep_parse(bad[i].list, &st, &n, &why) == -1);
		CHECK(st == NULL && n == 0);
		CHECK_CONTAINS(why.buf, bad[i].why);
	}
	sb_release(&why);
}
