// SPDX-License-Identifier: Apache-2.0
/*
 * The libvirt backend's XML, owners, sweep and connection checks, against
 * libvirt's built-in test driver (test:///default: no daemon, no QEMU).
 * Without libvirt's development files the backend is a stub and these
 * tests are not built.
 */
#ifdef HAVE_LIBVIRT

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "scenario/scenario.h"
#include "test.h"
#include "guest/contract.h"
#include "vm/libvirt.h"

#define TEST_URI "test:///default"

static void quiet(void *opaque, virErrorPtr e)
{
	(void)opaque;
	(void)e;
}

static virConnectPtr test_conn(void)
{
	virConnectPtr c;

	virSetErrorFunc(NULL, quiet);
	c = virConnectOpen(TEST_URI);
	REQUIRE(c);
	return c;
}

/* The text of the first node matching an XPath expression, or NULL. */
static char *xpath_text(const char *xml, const char *expr)
{
	xmlDocPtr doc = xmlReadMemory(xml, (int)strlen(xml), "t.xml", NULL, XML_PARSE_NONET);
	xmlXPathContextPtr ctx = doc ? xmlXPathNewContext(doc) : NULL;
	xmlXPathObjectPtr o = ctx ? xmlXPathEvalExpression(BAD_CAST expr, ctx) : NULL;
	char *r = NULL;

	if (o && o->nodesetval && o->nodesetval->nodeNr > 0) {
		xmlChar *t = xmlNodeGetContent(o->nodesetval->nodeTab[0]);
		r = xstrdup((const char *)t);
		xmlFree(t);
	}
	if (o)
		xmlXPathFreeObject(o);
	if (ctx)
		xmlXPathFreeContext(ctx);
	if (doc)
		xmlFreeDoc(doc);
	return r;
}

/* The text at expr in the document is want (NULL: nothing there). */
static void xpath_is(const char *xml, const char *expr, const char *want, int line)
{
	char *t = xpath_text(xml, expr);

	if (want)
		test_check_str(__FILE__, line, expr, want, t, want);
	else
		CHECKF_AT(__FILE__, line, t == NULL, "%s: '%s', expected nothing", expr, t);
	free(t);
}
#define XPATH_IS(xml, expr, want) xpath_is((xml), (expr), (want), __LINE__)

static void config(struct vm_config *c, struct strvec *disks, const char *cmdline)
{
	memset(c, 0, sizeof(*c));
	strvec_push(disks, "/tmp/run & co/disks/vd0.img");
	strvec_push(disks, "/tmp/run <1>/disks/vd1.img");
	strvec_push(disks, "/tmp/run \"2\"/disks/vd2.img");
	c->arch = ARCH_X86_64;
	c->kernel = "/k/vmlinuz'&<>";
	c->initrd = "/k/initrd.cpio";
	c->cmdline = cmdline;
	c->memory_mb = 512;
	c->cpus = 2;
	c->accel = "tcg";
	c->disks = disks;
	c->virtio_bus = VIRTIO_SCSI;
}

/* c's domain XML for a domain of type (qemu, kvm, test) and name, owned by
 * this process, in xml (emptied first). */
static void domain_xml(const struct vm_config *c, const char *type, const char *name,
		       struct strbuf *xml)
{
	struct owner me;

	owner_self(&me);
	sb_reset(xml);
	REQUIRE(libvirt_domain_xml(c, type, name, &me, xml) == 0);
}

/* The test driver makes a domain of xml (a refusal says libvirt's reason). */
static virDomainPtr test_domain(virConnectPtr conn, const struct strbuf *xml)
{
	virDomainPtr dom = virDomainCreateXML(conn, xml->buf, 0);

	CHECKF(dom != NULL, "test driver refused the XML: %s\n%s", virGetLastErrorMessage(),
	       xml->buf);
	REQUIRE(dom);
	return dom;
}

static void test_domain_end(virConnectPtr conn, virDomainPtr dom)
{
	virDomainDestroy(dom);
	virDomainFree(dom);
	virConnectClose(conn);
}

/* libvirt names its target devices with the one sd naming (guest/contract.h). */
TEST(libvirt_disk_names_follow_sd)
{
	char b[16];

	disk_name("sd", 0, b, sizeof(b));
	CHECK_STR(b, "sda");
	disk_name("sd", 25, b, sizeof(b));
	CHECK_STR(b, "sdz");
	disk_name("sd", 26, b, sizeof(b));
	CHECK_STR(b, "sdaa");
	disk_name("vd", 701, b, sizeof(b));
	CHECK_STR(b, "vdzz");
	disk_name("sd", 702, b, sizeof(b));
	CHECK_STR(b, "sdaaa");
}

TEST(libvirt_versions_and_remote_uris)
{
	char b[32];

	libvirt_version_string(9000000, b, sizeof(b));
	CHECK_STR(b, "9.0.0");
	libvirt_version_string(7002022, b, sizeof(b));
	CHECK_STR(b, "7.2.22");
	CHECK(!libvirt_uri_is_remote("qemu:///system"));
	CHECK(!libvirt_uri_is_remote("qemu+unix:///system?socket=/x/sock"));
	CHECK(!libvirt_uri_is_remote("test:///default"));
	CHECK(libvirt_uri_is_remote("qemu+ssh://root@host2/system"));
	CHECK(libvirt_uri_is_remote("qemu+tcp://10.0.0.2:16509/system"));
}

/* Every string reaches libvirt escaped: what libvirt parsed is what we
 * meant, byte for byte, and the layout is qemu.c's. */
TEST(libvirt_xml_escapes_every_string)
{
	const char *cmdline = "console=ttyS0 x=\"a<b\" y='&amp;' ]]> </cmdline><evil/>";
	struct strvec disks = STRVEC_INIT;
	struct strbuf xml = STRBUF_INIT;
	struct vm_config c;
	virConnectPtr conn = test_conn();
	virDomainPtr dom;
	char *desc, *t, *want;

	config(&c, &disks, cmdline);
	domain_xml(&c, "test", "scaletest-unit-<&>", &xml);
	dom = test_domain(conn, &xml);
	CHECK_STR(virDomainGetName(dom), "scaletest-unit-<&>");
	CHECK_EQ_INT(virDomainGetMaxMemory(dom), 512 * 1024);
	desc = virDomainGetXMLDesc(dom, 0);
	REQUIRE(desc);
	t = xpath_text(desc, "/domain/os/cmdline");
	want = xstrfmt("%s no_timer_check", cmdline);	/* TCG: vm_cmdline() */
	CHECK_STR(t, want);
	free(want);
	free(t);
	XPATH_IS(desc, "/domain/os/kernel", "/k/vmlinuz'&<>");
	XPATH_IS(desc, "/domain/vcpu", "2");
	/* The disks, in order, on the virtio-scsi controller, target i. */
	for (size_t i = 0; i < disks.n; i++) {
		char expr[128];

		snprintf(expr, sizeof(expr), "/domain/devices/disk[%zu]/source/@file", i + 1);
		XPATH_IS(desc, expr, disks.v[i]);
		snprintf(expr, sizeof(expr), "/domain/devices/disk[%zu]/address/@target", i + 1);
		t = xpath_text(desc, expr);
		CHECK_EQ_INT(t ? atoi(t) : -1, (long long)i);
		free(t);
	}
	XPATH_IS(desc, "/domain/devices/controller[@type='scsi']/@model", "virtio-scsi");
	XPATH_IS(desc, "/domain/on_reboot", "destroy");
	/* Two serial ports: the console and the record channel. */
	XPATH_IS(desc, "/domain/devices/serial[2]/@type", "pty");
	CHECK(strstr(desc, "<interface") == NULL);
	CHECK(strstr(desc, "<filesystem") == NULL);
	free(desc);
	test_domain_end(conn, dom);
	sb_release(&xml);
	strvec_clear(&disks);
}

TEST(libvirt_xml_layouts_by_bus_and_accel)
{
	struct strvec disks = STRVEC_INIT;
	struct strbuf xml = STRBUF_INIT;
	struct vm_config c;

	config(&c, &disks, "quiet");
	c.virtio_bus = VIRTIO_BLK;
	c.arch = ARCH_I386;
	domain_xml(&c, "qemu", "scaletest-x", &xml);
	XPATH_IS(xml.buf, "/domain/@type", "qemu");
	XPATH_IS(xml.buf, "/domain/os/type/@arch", "i686");
	XPATH_IS(xml.buf, "/domain/devices/disk[3]/target/@dev", "vdc");
	XPATH_IS(xml.buf, "/domain/devices/disk[1]/target/@bus", "virtio");
	CHECK(strstr(xml.buf, "virtio-scsi") == NULL);
	CHECK(strstr(xml.buf, "host-passthrough") == NULL);
	/* Two serial ports: the console and the record channel. */
	XPATH_IS(xml.buf, "/domain/devices/serial[2]/target/@port", "1");

	domain_xml(&c, "kvm", "scaletest-x", &xml);
	XPATH_IS(xml.buf, "/domain/cpu/@mode", "host-passthrough");
	/* KVM keeps the timer check; TCG (above, and the test driver's) skips it. */
	c.accel = "kvm";
	domain_xml(&c, "kvm", "scaletest-x", &xml);
	XPATH_IS(xml.buf, "/domain/os/cmdline", "quiet");
	sb_release(&xml);
	strvec_clear(&disks);
}

/* libvirtd resolves a relative path from its own directory, not the
 * harness's (a run from the project directory writes results/...): every
 * path in the domain XML is absolute, the harness's directory in front. */
TEST(libvirt_xml_paths_are_absolute)
{
	struct strvec disks = STRVEC_INIT;
	struct strbuf xml = STRBUF_INIT;
	struct vm_config c;
	char cwd[4096], *want;
	static const char *const exprs[] = {
		"/domain/os/kernel", "/domain/os/initrd",
		"/domain/devices/disk[1]/source/@file", "/domain/devices/disk[2]/source/@file",
	};
	static const char *const rel[] = {
		"results/.tmp-x/vmlinuz", "results/.tmp-x/initrd.cpio",
		"results/.tmp-x/disks/vd0.img", "results/.tmp-x/disks/vd1.img",
	};

	REQUIRE(getcwd(cwd, sizeof(cwd)));
	config(&c, &disks, "quiet");
	strvec_clear(&disks);
	strvec_push(&disks, rel[2]);
	strvec_push(&disks, rel[3]);
	c.kernel = rel[0];
	c.initrd = rel[1];
	domain_xml(&c, "qemu", "scaletest-x", &xml);
	for (size_t i = 0; i < sizeof(exprs) / sizeof(exprs[0]); i++) {
		want = xstrfmt("%s/%s", cwd, rel[i]);
		XPATH_IS(xml.buf, exprs[i], want);
		free(want);
	}
	/* An absolute path is kept as it is. */
	c.kernel = "/k/vmlinuz";
	domain_xml(&c, "qemu", "scaletest-x", &xml);
	XPATH_IS(xml.buf, "/domain/os/kernel", "/k/vmlinuz");
	sb_release(&xml);
	strvec_clear(&disks);
}

/* The record channel as a virtio channel: one serial port (the console)
 * and a virtio channel on a UNIX socket (virDomainOpenChannel wants one)
 * named as the guest looks for it; the test driver takes the XML. */
TEST(libvirt_xml_virtio_channel)
{
	struct strvec disks = STRVEC_INIT;
	struct strbuf xml = STRBUF_INIT;
	struct vm_config c;
	virConnectPtr conn = test_conn();
	static const char *const want[][2] = {
		{ "/domain/devices/serial[1]/@type", "pty" },
		{ "/domain/devices/serial[2]/@type", NULL },	/* the console only */
		{ "/domain/devices/channel/@type", "unix" },
		{ "/domain/devices/channel/source/@mode", "bind" },
		{ "/domain/devices/channel/target/@type", "virtio" },
		{ "/domain/devices/channel/target/@name", VM_CHANNEL_NAME },
	};

	config(&c, &disks, "quiet");
	c.virtio_channel = 1;
	domain_xml(&c, "test", "scaletest-unit-vc", &xml);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		XPATH_IS(xml.buf, want[i][0], want[i][1]);
	test_domain_end(conn, test_domain(conn, &xml));
	sb_release(&xml);
	strvec_clear(&disks);
}

TEST(libvirt_owner_round_trip)
{
	struct owner me, back, other;
	struct strvec disks = STRVEC_INIT;
	struct strbuf xml = STRBUF_INIT;
	struct vm_config c;
	virConnectPtr conn = test_conn();
	virDomainPtr dom;
	char *meta;

	config(&c, &disks, "quiet");
	owner_self(&me);
	CHECK_EQ_INT(owner_alive(&me), 1);
	other = me;
	snprintf(other.host, sizeof(other.host), "%.200s-elsewhere", me.host);
	CHECK_EQ_INT(owner_alive(&other), -1);
	REQUIRE(libvirt_domain_xml(&c, "test", LIBVIRT_PREFIX "owner", &me, &xml) == 0);
	dom = virDomainCreateXML(conn, xml.buf, 0);
	REQUIRE(dom);
	meta = virDomainGetMetadata(dom, VIR_DOMAIN_METADATA_ELEMENT, LIBVIRT_OWNER_NS, 0);
	REQUIRE(meta);
	CHECK_EQ_INT(libvirt_owner_parse(meta, &back), 0);
	CHECK_STR(back.host, me.host);
	CHECK_EQ_INT(back.pid, me.pid);
	CHECK(back.start == me.start);
	CHECK_EQ_INT(libvirt_owner_parse("<owner host='h'/>", &back), -1);
	CHECK_EQ_INT(libvirt_owner_parse("not xml", &back), -1);
	free(meta);
	test_domain_end(conn, dom);
	sb_release(&xml);
	strvec_clear(&disks);
}

static long long dead_pid(void)
{
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
	return (long long)p;
}

static virDomainPtr make(virConnectPtr conn, const char *name, const struct owner *o)
{
	struct strvec disks = STRVEC_INIT;
	struct strbuf xml = STRBUF_INIT;
	struct vm_config c;
	virDomainPtr d;

	config(&c, &disks, "quiet");
	REQUIRE(libvirt_domain_xml(&c, "test", name, o, &xml) == 0);
	d = virDomainCreateXML(conn, xml.buf, 0);
	sb_release(&xml);
	strvec_clear(&disks);
	REQUIRE(d);
	return d;
}

static int exists(virConnectPtr conn, const char *name)
{
	virDomainPtr d = virDomainLookupByName(conn, name);

	if (d)
		virDomainFree(d);
	return d != NULL;
}

/* Two harnesses share a libvirt host: a sweep destroys only domains of
 * this host whose harness is gone. */
TEST(libvirt_sweep_destroys_only_dead_owners_of_this_host)
{
	virConnectPtr conn = test_conn();
	struct owner me, dead, other;
	virDomainPtr d[4];

	owner_self(&me);
	dead = me;
	dead.pid = dead_pid();
	other = dead;
	snprintf(other.host, sizeof(other.host), "%.200s-elsewhere", me.host);
	d[0] = make(conn, LIBVIRT_PREFIX "mine-alive", &me);
	d[1] = make(conn, LIBVIRT_PREFIX "mine-dead", &dead);
	d[2] = make(conn, LIBVIRT_PREFIX "other-host", &other);
	d[3] = make(conn, "not-ours", &dead);
	util_quiet = 1;
	CHECK_EQ_INT(libvirt_sweep(TEST_URI), 1);
	util_quiet = 0;
	CHECK(exists(conn, LIBVIRT_PREFIX "mine-alive"));
	CHECK(!exists(conn, LIBVIRT_PREFIX "mine-dead"));
	CHECK(exists(conn, LIBVIRT_PREFIX "other-host"));
	CHECK(exists(conn, "not-ours"));
	CHECK_EQ_INT(libvirt_sweep(TEST_URI), 0);
	for (int i = 0; i < 4; i++) {
		virDomainDestroy(d[i]);
		virDomainFree(d[i]);
	}
	virConnectClose(conn);
}

static void make_volume(virStoragePoolPtr pool, const char *name)
{
	struct strbuf xml = STRBUF_INIT;
	virStorageVolPtr v;

	sb_addf(&xml, "<volume><name>%s</name><capacity unit='bytes'>4096</capacity></volume>",
		name);
	v = virStorageVolCreateXML(pool, xml.buf, 0);
	sb_release(&xml);
	REQUIRE(v);
	virStorageVolFree(v);
}

static int volume_exists(virStoragePoolPtr pool, const char *name)
{
	virStorageVolPtr v = virStorageVolLookupByName(pool, name);

	if (v)
		virStorageVolFree(v);
	return v != NULL;
}

/* A harness killed during an upload leaves volumes (AUTODESTROY covers
 * only domains): a sweep deletes those of this host's dead harnesses,
 * once their domain is gone, and nothing else. */
TEST(libvirt_sweep_deletes_only_dead_owners_volumes)
{
	virConnectPtr conn = test_conn();
	struct owner me, dead, other;
	virStoragePoolPtr pool;
	virDomainPtr busy;
	char v[6][512];

	owner_self(&me);
	dead = me;
	dead.pid = dead_pid();
	other = dead;
	snprintf(other.host, sizeof(other.host), "%.200s-elsewhere", me.host);
	pool = virStoragePoolCreateXML(conn, "<pool type='dir'><name>scaletest</name>"
				       "<target><path>/scaletest-pool</path></target></pool>", 0);
	REQUIRE(pool);
	snprintf(v[0], sizeof(v[0]), LIBVIRT_PREFIX "a-1+%s+%lld+%llu.kernel", me.host, me.pid, me.start);
	snprintf(v[1], sizeof(v[1]), LIBVIRT_PREFIX "b-2+%s+%lld+%llu.kernel", dead.host, dead.pid, dead.start);
	snprintf(v[2], sizeof(v[2]), LIBVIRT_PREFIX "b-2+%s+%lld+%llu.disk0", dead.host, dead.pid, dead.start);
	snprintf(v[3], sizeof(v[3]), LIBVIRT_PREFIX "c-3+%s+%lld+%llu.kernel", other.host, other.pid, other.start);
	/* dead owner, but its domain still runs (restarted libvirtd) */
	snprintf(v[4], sizeof(v[4]), LIBVIRT_PREFIX "d-4+%s+%lld+%llu.kernel", dead.host, dead.pid, dead.start);
	snprintf(v[5], sizeof(v[5]), "someone-elses.img");
	for (int i = 0; i < 6; i++)
		make_volume(pool, v[i]);
	busy = make(conn, LIBVIRT_PREFIX "d-4", &me);
	util_quiet = 1;
	CHECK_EQ_INT(libvirt_sweep(TEST_URI), 2);
	util_quiet = 0;
	CHECK(volume_exists(pool, v[0]));
	CHECK(!volume_exists(pool, v[1]));
	CHECK(!volume_exists(pool, v[2]));
	CHECK(volume_exists(pool, v[3]));
	CHECK(volume_exists(pool, v[4]));
	CHECK(volume_exists(pool, v[5]));
	virDomainDestroy(busy);
	virDomainFree(busy);
	util_quiet = 1;
	CHECK_EQ_INT(libvirt_sweep(TEST_URI), 1);	/* now v[4] goes */
	util_quiet = 0;
	CHECK(!volume_exists(pool, v[4]));
	virStoragePoolDestroy(pool);
	virStoragePoolFree(pool);
	virConnectClose(conn);
}


TEST(libvirt_check_test_driver_answers)
{
	CHECK_EQ_INT(libvirt_connect_check(TEST_URI), 0);
}

/* Each failure says what to do, and is the environment's (exit 3): a
 * daemon that does not answer is started, or installed where it is not
 * (a package build's chroot has libvirt's library, not its daemon). */
TEST(libvirt_check_names_the_fix)
{
	char *libvirtd = find_in_path("libvirtd");
	int daemon = libvirtd || access("/usr/sbin/libvirtd", X_OK) == 0;
	static const struct {
		const char *uri, *says;
	} cases[] = {
		{ "qemu:///system?socket=/nonexistent/libvirt-sock", NULL },
		{ "qemu+tcp://127.0.0.1:1/system", "check that the host answers" },
		{ "nosuchdriver:///x", "is the URI right" },
	};

	free(libvirtd);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *says = cases[i].says ? cases[i].says :
				   daemon ? "daemons.sh start" : "install libvirt-daemon-system";
		char *err;
		int r;

		stderr_capture_begin();
		r = libvirt_connect_check(cases[i].uri);
		err = stderr_capture_end();
		CHECK_EQ_INT(r, ERR_ENV);
		CHECK_CONTAINS(err, cases[i].uri);
		CHECK_CONTAINS(err, says);
		free(err);
	}
}

#endif
