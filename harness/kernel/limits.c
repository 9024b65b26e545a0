// SPDX-License-Identifier: Apache-2.0
#include "kernel/limits.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "scenario/diskclass.h"

int kernel_version_parse(const char *version, int *major, int *minor)
{
	char *end;
	long a, b;

	if (!version || !isdigit((unsigned char)*version))
		return -1;
	a = strtol(version, &end, 10);
	if (*end != '.' || !isdigit((unsigned char)end[1]))
		return -1;
	b = strtol(end + 1, &end, 10);
	if (a > 1000 || b > 1000)
		return -1;
	*major = (int)a;
	*minor = (int)b;
	return 0;
}

int kernel_config_enabled(const char *config, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = config; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, "CONFIG_", 7) && !strncmp(p + 7, name, n) && p[7 + n] == '=' &&
		    (p[8 + n] == 'y' || p[8 + n] == 'm') &&
		    (p[9 + n] == '\n' || p[9 + n] == '\0'))
			return 1;
	return 0;
}

long long scenario_scsi_devices(const struct scenario *s)
{
	int scsi = disk_class_of(s)->scsi;
	long long peak = scsi ? scenario_sweep_peak(s) : 0;
	long long after = (scsi ? s->disks : 0) +
		(s->virtio_bus == VIRTIO_SCSI ? s->virtio_disks : 0);

	return peak > after ? peak : after;
}

int kernel_layout_may_refuse(const struct scenario *s)
{
	return scenario_scsi_devices(s) > KERNEL_BSG_MAX_OLD || disk_class_of(s) != disk_classes;
}

/* Whether a modules tree's indexes (modules.dep, modules.builtin) name
 * module name, '-' and '_' alike. */
static int tree_has_module(const char *modules, const char *name)
{
	static const char *const index[] = { "modules.dep", "modules.builtin" };
	size_t n = strlen(name);
	int found = 0;

	for (size_t i = 0; i < ARRAY_SIZE(index) && !found; i++) {
		struct strbuf f = STRBUF_INIT;
		char *path = xstrfmt("%s/%s", modules, index[i]);

		if (sb_read_file(&f, path) == 0) {
			for (char *l = f.buf; l && *l && !found; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
				size_t len = strcspn(l, ":\n");
				const char *b = l;

				for (size_t j = 0; j < len; j++)
					if (l[j] == '/')
						b = l + j + 1;
				found = (size_t)(l + len - b) > n + 3 && !strncmp(b + n, ".ko", 3);
				for (size_t j = 0; found && j < n; j++)
					found = b[j] == name[j] || (strchr("-_", b[j]) && strchr("-_", name[j]));
			}
		}
		sb_release(&f);
		free(path);
	}
	return found;
}

/* The class's needs against the kernel: its .config when known, else the
 * modules its tree indexes. */
static int check_needs(const struct scenario *s, const struct kernel_artifact *k,
		       const char *cfg, struct strbuf *why)
{
	const struct disk_class *c = disk_class_of(s);

	for (const struct disk_class_need *n = c->needs; n && n->config; n++) {
		if (n->when && !n->when(s))
			continue;
		if (cfg ? kernel_config_enabled(cfg, n->config)
			: !n->module || !k->modules || tree_has_module(k->modules, n->module))
			continue;
		sb_addf(why, "disk_class = %s needs %s (CONFIG_%s), and kernel %s has it "
			"neither built in nor as a module: %s", c->name, n->what, n->config,
			k->version, c->instead);
		return -1;
	}
	return 0;
}

int kernel_check_layout(const struct scenario *s, const struct kernel_artifact *k,
			struct strbuf *why)
{
	struct strbuf cfg = STRBUF_INIT;
	const struct disk_class *c = disk_class_of(s);
	long long scsi = scenario_scsi_devices(s), sd = c->scsi ? scenario_sweep_peak(s) : 0;
	int major, minor, bsg, have_cfg;

	have_cfg = k->config && sb_read_file(&cfg, k->config) == 0;
	if (s->disks && check_needs(s, k, have_cfg ? cfg.buf : NULL, why) < 0) {
		sb_release(&cfg);
		return -1;
	}
	if (scsi <= KERNEL_BSG_MAX_OLD || kernel_version_parse(k->version, &major, &minor) < 0 ||
	    major > 6 || (major == 6 && minor >= 5) || !have_cfg) {
		sb_release(&cfg);
		return 0;
	}
	bsg = kernel_config_enabled(cfg.buf, "BLK_DEV_BSG");
	sb_release(&cfg);
	if (!bsg)
		return 0;
	sb_addf(why, "%lld SCSI devices (%lld %s", scsi, sd, c->devices);
	if (scsi > sd)
		sb_addf(why, ", then %lld virtio-scsi disks after %lld", scsi - (c->scsi ? s->disks : 0),
			c->scsi ? s->disks : 0);
	sb_addf(why, ") are more than the %d that bsg (CONFIG_BLK_DEV_BSG) gives minors to "
		"on Linux before 6.5, and kernel %s has it: the devices past %d would never "
		"appear.  Linux 6.5 raised the limit to 2^20 (commits 9077fb2ab78c and "
		"37c918e03ef7): use a 6.5 or later kernel (kernel_package = "
		"linux-image-6.12-amd64, or kernel_source = debian:6.12)", KERNEL_BSG_MAX_OLD,
		k->version, KERNEL_BSG_MAX_OLD);
	if (sd <= KERNEL_BSG_MAX_OLD)
		sb_adds(why, ", virtio_bus = blk (virtio-blk disks are no SCSI devices)");
	sb_addf(why, " or at most %d disks", KERNEL_BSG_MAX_OLD);
	return -1;
}
