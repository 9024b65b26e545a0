// SPDX-License-Identifier: Apache-2.0
#include "run/progress.h"

#include <string.h>

#include "guest/phase.h"
#include "lib/util.h"

/* scsi_debug disks present, from a count of /sys/block: less the devices
 * there before insmod and, once they came, the virtio disks. */
static long long sd_present(const struct progress *p, long long blocks, int with_virtio)
{
	long long n = blocks - (long long)p->rs->base.n;

	if (with_virtio)
		n -= p->rs->have_virtio ? (long long)p->rs->virtio.n : p->s->virtio_disks;
	return n < 0 ? 0 : n;
}

/* The steps with a meter (progress.h). */
static const struct meter_step {
	const char *step;		/* the line's label */
	int start, end;			/* phases whose marks start and end it */
	const char *verb;
	int with_virtio;		/* the virtio disks are there too */
	int rmmod;			/* only when the scenario removes scsi_debug */
} steps[] = {
	{ "insmod", PHASE_BEFORE_INSMOD, PHASE_AFTER_INSMOD, "present", 0, 0 },
	{ "rmmod", PHASE_AFTER_IO, PHASE_AFTER_RMMOD, "removed", 1, 1 },
};

void progress_init(struct progress *p, const struct scenario *s, const struct records *rs,
		   int quiet)
{
	memset(p, 0, sizeof(*p));
	p->s = s;
	p->rs = rs;
	p->quiet = quiet;
	p->metered = -1;
}

int progress_phase(struct progress *p, int phase, double uptime)
{
	struct strbuf out = STRBUF_INIT;
	int ended = 0;

	if (p->metered >= 0 && steps[p->metered].end == phase) {
		const struct meter_step *st = &steps[p->metered];
		/* The guest has waited for the exact count: say where it ended. */
		long long end = st->with_virtio ? 0 : p->s->disks;
		if (p->scanning)
			meter_start(&p->meter, p->meter.mode, st->step, "disks", st->verb, 0,
				    scenario_sweep_peak(p->s), p->meter.t0);
		p->scanning = 0;
		meter_finish(&p->meter, uptime, end, &out);
		p->metered = -1;
		ended = 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		if (steps[i].start != phase || p->s->disks <= 0 ||
		    (steps[i].rmmod && !p->s->rmmod))
			continue;
		meter_start(&p->meter, meter_mode_for(2, p->quiet), steps[i].step,
			    "disks", steps[i].verb, steps[i].with_virtio ? p->s->disks : 0,
			    steps[i].with_virtio ? 0 : scenario_sweep_peak(p->s), uptime);
		p->metered = (int)i;
	}
	meter_write(&out);
	sb_release(&out);
	return ended;
}

const char *progress_step(const struct progress *p)
{
	return p->metered >= 0 ? steps[p->metered].step : NULL;
}

double progress_patience(const struct progress *p)
{
	return (double)phase_timeout(steps[p->metered].end, p->s);
}

int progress_update(struct progress *p, double uptime, long long blocks, long long queues)
{
	struct strbuf out = STRBUF_INIT;
	const struct meter_step *st;
	long long present, peak = scenario_sweep_peak(p->s);
	int moved;

	if (p->metered < 0)
		return 0;
	st = &steps[p->metered];
	present = sd_present(p, blocks, st->with_virtio);
	moved = blocks != p->moved_blocks || queues != p->moved_queues;
	p->moved_blocks = blocks;
	p->moved_queues = queues;
	/* The scan makes SCSI devices for minutes before the first block
	 * device (lib/wait.sh queues_v): count those until the disks come. */
	if (!st->with_virtio && !present && queues > 0) {
		if (!p->scanning)
			meter_start(&p->meter, p->meter.mode, st->step, "SCSI devices", "scanned",
				    0, peak, p->meter.t0);
		p->scanning = 1;
		meter_update(&p->meter, uptime, queues < peak ? queues : peak, &out);
	} else {
		if (p->scanning) {
			meter_finish(&p->meter, uptime, p->meter.count, &out);
			meter_start(&p->meter, p->meter.mode, st->step, "disks", st->verb, 0, peak,
				    uptime);
			p->scanning = 0;
		}
		meter_update(&p->meter, uptime, present, &out);
	}
	meter_write(&out);
	sb_release(&out);
	return moved;
}

void progress_stop(struct progress *p)
{
	struct strbuf out = STRBUF_INIT;

	if (p->metered >= 0)
		meter_finish(&p->meter, p->meter.t, p->meter.count, &out);
	p->metered = -1;
	meter_write(&out);
	sb_release(&out);
}
