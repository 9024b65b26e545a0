// SPDX-License-Identifier: Apache-2.0
#include "report/tsv.h"

static void cell(struct strbuf *out, struct num v, int decimals, int last)
{
	if (v.have)
		sb_addf(out, "%.*f", decimals, v.v);
	sb_addch(out, last ? '\n' : '\t');
}

void tsv_sweep(const struct report_model *m, struct strbuf *out)
{
	sb_adds(out, "step\tdisks\tmemfree_drop_kb\tlowfree_drop_kb\tslab_growth_kb\t"
		"unaccounted_kb\tenumerate_s\trate_disks_per_s\n");
	for (size_t i = 0; i < m->nsweep; i++) {
		const struct report_sweep_point *p = &m->sweep[i];

		sb_addf(out, "%zu\t", i + 1);
		cell(out, p->disks, 0, 0);
		cell(out, p->memfree_kb, 0, 0);
		cell(out, p->lowfree_kb, 0, 0);
		cell(out, p->slab_kb, 0, 0);
		cell(out, p->unaccounted_kb, 0, 0);
		cell(out, p->enumerate_s, 2, 0);
		cell(out, p->rate, 1, 1);
	}
}
