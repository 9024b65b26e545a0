/* moddep_parse, moddep_parse_builtin and moddep_closure: a kernel
 * package's modules.dep and modules.builtin.  The input is modules.dep;
 * its lines' names, and a few of the harness's own, are then closed over. */
#include "fuzz.h"

#include "guest/moddep.h"

static const char builtin[] = "kernel/drivers/scsi/scsi_mod.ko\nkernel/fs/ext4.ko\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const wanted[] = { "sd_mod", "scsi_debug", "virtio_scsi",
					      "virtio_blk", "virtio-pci" };
	struct moddep d = MODDEP_INIT;
	struct strbuf err = STRBUF_INIT;
	struct strvec order = STRVEC_INIT;

	if (moddep_parse(&d, (const char *)data, size, &err) == 0 &&
	    moddep_parse_builtin(&d, builtin, sizeof(builtin) - 1, &err) == 0) {
		for (size_t i = 0; i < ARRAY_SIZE(wanted); i++)
			(void)moddep_closure(&d, wanted[i], &order, &err);
		for (size_t i = 0; i < d.n && i < 64; i++)
			(void)moddep_closure(&d, d.m[i].name, &order, &err);
	}
	/* The same bytes as modules.builtin. */
	moddep_release(&d);
	d = (struct moddep)MODDEP_INIT;
	if (moddep_parse_builtin(&d, (const char *)data, size, &err) == 0)
		for (size_t i = 0; i < d.builtin.n && i < 64; i++)
			FUZZ_ASSERT(moddep_is_builtin(&d, d.builtin.v[i]));
	strvec_clear(&order);
	moddep_release(&d);
	sb_release(&err);
	return 0;
}
