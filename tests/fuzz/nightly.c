// SPDX-License-Identifier: Apache-2.0
/*
 * nightly_matrix_load: a nightly matrix ("SCENARIO [KEY=VALUE]..." lines).
 *
 * The matrix parser reads a path, not a buffer (campaign/nightly.c), so the
 * input is written to a file in a scratch directory that also holds one
 * good scenario, "ok.scn", for lines to name.  Inputs with a '/' are
 * skipped: a line naming /dev/zero would read forever, and the matrix is
 * the operator's own file, not the guest's.
 */
#include "fuzz.h"

#include <unistd.h>

#include "campaign/nightly.h"

static char dir[] = "/tmp/scaletest-fuzz-nightly.XXXXXX";
static char *matrix;

static void cleanup(void)
{
	remove_tree(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *scn;

	(void)argc;
	(void)argv;
	if (!mkdtemp(dir))
		abort();
	atexit(cleanup);
	matrix = xstrfmt("%s/matrix", dir);
	scn = xstrfmt("%s/ok.scn", dir);
	if (write_file(scn, "disks = 10\n", 11) < 0)
		abort();
	free(scn);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nightly_matrix mx;

	if (memchr(data, '/', size))
		return 0;
	if (write_file(matrix, data, size) < 0)
		abort();
	if (nightly_matrix_load(&mx, matrix) == 0) {
		FUZZ_ASSERT(mx.n > 0);
		nightly_matrix_release(&mx);
	}
	return 0;
}
