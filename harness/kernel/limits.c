// SPDX-License-Identifier: Apache-2.0
#include "kernel/limits.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

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
	long long peak = scenario_sweep_peak(s);
	long long after = s->disks + (s->virtio_bus == VIRTIO_SCSI ? s->virtio_disks : 0);

	return peak > after ? peak : after;
}

int kernel_check_layout(const struct scenario *s, const struct kernel_artifact *k,
			struct strbuf *why)
{
	struct strbuf cfg = STRBUF_INIT;
	long long scsi = scenario_scsi_devices(s), sd = scenario_sweep_peak(s);
	int major, minor, bsg;

	if (scsi <= KERNEL_BSG_MAX_OLD || kernel_version_parse(k->version, &major, &minor) < 0 ||
	    major > 6 || (major == 6 && minor >= 5))
		return 0;
	if (!k->config || sb_read_file(&cfg, k->config) < 0) {
		sb_release(&cfg);
		return 0;
	}
	bsg = kernel_config_enabled(cfg.buf, "BLK_DEV_BSG");
	sb_release(&cfg);
	if (!bsg)
		return 0;
	sb_addf(why, "%lld SCSI devices (%lld scsi_debug disks", scsi, sd);
	if (scsi > sd)
		sb_addf(why, ", then %lld virtio-scsi disks after %lld", scsi - s->disks, s->disks);
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
