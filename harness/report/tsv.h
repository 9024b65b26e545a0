/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tsv: a sweep's points as tab-separated values, sweep.tsv next to
 * result.json (report.c writes it when the run has a sweep), for
 * spreadsheets, gnuplot and awk:
 *
 *	step  disks  memfree_drop_kb  lowfree_drop_kb  slab_growth_kb
 *	unaccounted_kb  enumerate_s  rate_disks_per_s
 *
 * one header line, then a line per point; a missing figure is empty.
 */
#ifndef SCALETEST_REPORT_TSV_H
#define SCALETEST_REPORT_TSV_H

#include "report/model.h"
#include "lib/strbuf.h"

void tsv_sweep(const struct report_model *m, struct strbuf *out);

#endif
