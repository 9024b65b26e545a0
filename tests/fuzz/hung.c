// SPDX-License-Identifier: Apache-2.0
/* hung_parse: the stacks the guest read when the hung-task detector spoke
 * (initramfs/lib/hung.sh); and a hung-task report titled with them. */
#include "fuzz.h"

#include <string.h>

#include "record/console.h"
#include "record/hung.h"

static const char report[] =
	"[    3.856682] INFO: task insmod:139 blocked for more than 1 seconds.\n"
	"[    3.857385]       Not tainted 6.1.0-57-amd64 #1 Debian 6.1.192-3\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hung_tasks h = HUNG_TASKS_INIT;
	struct strbuf err = STRBUF_INIT;
	struct crash_host host = CRASH_HOST_INIT;
	struct console_scan cs;
	struct crash c = CRASH_INIT;

	if (hung_parse(&h, (const char *)data, size, &err) < 0) {
		FUZZ_ASSERT(err.len > 0 && h.n == 0);
		hung_release(&h);
		sb_release(&err);
		return 0;
	}
	FUZZ_ASSERT(err.len == 0 && h.n <= HUNG_MAX_TASKS);
	for (size_t i = 0; i < h.n; i++) {
		const struct hung_task *t = &h.v[i];

		FUZZ_ASSERT(t->pid >= 1 && t->pid <= HUNG_MAX_PID && t->t >= 0);
		FUZZ_ASSERT(*t->comm && strlen(t->comm) <= HUNG_COMM_MAX);
		FUZZ_ASSERT(t->nframes <= HUNG_MAX_FRAMES);
		for (size_t f = 0; f < t->nframes; f++)
			FUZZ_ASSERT(*t->frames[f] && strlen(t->frames[f]) < HUNG_FRAME_MAX);
		FUZZ_ASSERT(hung_find(&h, t->pid) != NULL);
	}
	/* The report they title: a hung task, a title of printable bytes. */
	host.hung = &h;
	console_scan_init(&cs);
	console_scan_feed(&cs, report, sizeof(report) - 1);
	console_scan_finish(&cs);
	FUZZ_ASSERT(crash_classify(&cs, &host, &c) == 1);
	FUZZ_ASSERT(!strncmp(c.title.buf, "INFO: task hung in ", 19));
	for (size_t i = 0; i < c.title.len; i++)
		FUZZ_ASSERT(c.title.buf[i] >= 0x20 && c.title.buf[i] < 0x7f);
	crash_release(&c);
	console_scan_release(&cs);
	hung_release(&h);
	sb_release(&err);
	return 0;
}
