/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fiojson: the summary of fio's --output-format=json output.
 *
 * For each job: its name, the file(s) it ran on, fio's error code, and for
 * reads and writes the IOPS, bandwidth (KiB/s), completion-latency p50 and
 * p99 (microseconds) and I/O count, as a json_object ready for result.json:
 *
 *	{"group": "sample", "job": "sda", "filename": "/dev/sda", "error": 0,
 *	 "read": {"iops": 812.3, "bw_kib": 3249, "clat_p50_us": 1.1,
 *	          "clat_p99_us": 3.4, "ios": 4062}, "write": {...}}
 *
 * Directions with no I/O (no completed I/Os or zero IOPS) are left out.  The text may start with lines fio
 * prints before the JSON document ("note: ..."); they are skipped.
 * Anything else malformed is an error; nothing partial is appended.
 *
 *	json_object *jobs = json_object_new_array();
 *	int failed = fio_json_summarize(buf, len, "verify", jobs, &err);
 *	// -1: not fio JSON (err says why); else the number of jobs with error != 0
 */
#ifndef SCALETEST_FIOJSON_H
#define SCALETEST_FIOJSON_H

#include <json.h>
#include <stddef.h>

#include "lib/strbuf.h"

int fio_json_summarize(const char *buf, size_t len, const char *group,
		       json_object *jobs, struct strbuf *err);

#endif
