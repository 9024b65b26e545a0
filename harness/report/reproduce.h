/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reproduce: reproduce.sh, the script in every run directory that runs
 * the same test again (report.c writes it with the reports, from
 * result.json alone):
 *
 *	sh RUN/reproduce.sh [CLONE]	# CLONE: a clone of scaletest (default .)
 *
 * It pins what the run used: the scenario with every setting resolved
 * (result.json's settings, written as a scenario file in a quoted here
 * document, so no value reaches the shell; a value holding a double quote
 * is left out, with a comment), the kernel (a Debian kernel by the exact
 * package that ran, its version checked after the rerun; a built kernel
 * by its source, patches and fragments, the build key named in a
 * comment), and it names the harness's commit and the QEMU version seen,
 * saying so when CLONE or the host differ.  It builds CLONE, runs the
 * scenario into CLONE/results-reproduce/ (or $SCALETEST_REPRODUCE_OUT),
 * and prints the per-disk figure of both runs.
 *
 * A path result.json names (kernel_source other than debian[:X.Y],
 * kernel_patches, fragments given as paths, kernel_image, kernel_modules)
 * is never a live line: the scenario file lies in ${TMPDIR:-/tmp}, where a
 * relative path resolves, and any path may be anyone's.  Each is written
 * commented after a "review: builds code from PATH (KEY)" line, and the
 * script stops (exit 2) before it builds anything until a person has read
 * them, uncommented them and deleted the stop.
 *
 *	reproduce_script(root, &sb);	// the script's text
 */
#ifndef SCALETEST_REPORT_REPRODUCE_H
#define SCALETEST_REPORT_REPRODUCE_H

#include <json.h>

#include "lib/strbuf.h"

void reproduce_script(json_object *root, struct strbuf *out);
/* What the reports show: run in the run's directory. */
#define REPRODUCE_COMMAND "sh reproduce.sh"

#endif
