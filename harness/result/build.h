/* SPDX-License-Identifier: Apache-2.0 */
/*
 * build: result.json assembled from what a run saw.
 *
 * A run's result is a function of three inputs, all kept in its directory:
 *
 *	scenario.scn	the resolved settings
 *	channel.log	the records (record/records.h decodes them)
 *	console.log	the serial console (record/console.h scans it)
 *
 * plus host.json, the few facts only the host saw (host.h: when and how
 * long, the kernel artifact and VM that ran, the host's clock at each
 * phase, and how the watch ended: deadline, signal, the harness's own
 * error).  The live run and a replay both call result_build() on those,
 * so a replay of the same records gives the same result.json, byte for
 * byte.
 *
 *	json_object *host = host_new();		// live: the run fills it (host.h)
 *						// a replay: host.json, loaded
 *	json_object *root = result_build(&scenario, &records, &console, host,
 *					 &status);
 *	result_save(root, "RUN/result.json");
 *
 * The run's crash class (record/console.h) comes from the console scan, the
 * records and these facts, into result.json's "crash": {class, blame,
 * title, detail, line, context}; its status and title make the status and
 * the reason.
 */
#ifndef SCALETEST_RESULT_BUILD_H
#define SCALETEST_RESULT_BUILD_H

#include <json.h>

#include "record/console.h"
#include "record/records.h"
#include "result/host.h"
#include "result/verdict.h"
#include "scenario/scenario.h"

json_object *result_build(const struct scenario *s, const struct records *rs,
			  const struct console_scan *cs, json_object *host,
			  enum run_status *status);

#endif
