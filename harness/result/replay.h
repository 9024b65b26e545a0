/* SPDX-License-Identifier: Apache-2.0 */
/*
 * replay: a run's result.json rebuilt from its saved inputs, without QEMU.
 *
 * A run directory keeps everything its result was derived from:
 * scenario.scn, channel.log (the raw record stream), console.log and
 * host.json (build.h).  A replay feeds them through the same decoders and
 * the same result_build() as the live run, so the same records give the
 * same result.json; after a harness upgrade it re-derives a result with
 * the new code.  A directory made before host.json existed takes the host's
 * facts from its result.json instead.
 *
 *	json_object *root;
 *	enum run_status st;
 *	if (result_replay("results/RUN", 0, &root, &st, &err) < 0)
 *		fail with err.buf;
 *	result_save(root, "elsewhere/result.json");
 *	json_object_put(root);
 *
 * Nothing is written into the run directory.  The run directory may come
 * from anywhere, so its bounds are the harness's: each stream is read up
 * to the harness's own guest_output_mb (its default; the run's scenario's
 * where lower: the run kept no more), never the higher one a scenario.scn
 * may claim; max_mb > 0 (the user's --guest-output-mb) sets it instead.
 */
#ifndef SCALETEST_RESULT_REPLAY_H
#define SCALETEST_RESULT_REPLAY_H

#include <json.h>

#include "lib/strbuf.h"
#include "result/verdict.h"

int result_replay(const char *run_dir, long long max_mb, json_object **root,
		  enum run_status *status, struct strbuf *err);

#endif
