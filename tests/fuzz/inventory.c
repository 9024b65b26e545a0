// SPDX-License-Identifier: Apache-2.0
/* inventory_parse and its checks: the guest's "inventory" record. */
#include "fuzz.h"

#include "record/inventory.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct inventory inv = INVENTORY_INIT;
	struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	struct strvec sd = STRVEC_INIT, virtio = STRVEC_INIT;

	if (inventory_parse(&inv, (const char *)data, size, &err) == 0) {
		/* The sd-named rows as the scsi_debug disks, the others as
		 * virtio, in the order they came. */
		for (size_t i = 0; i < inv.n; i++) {
			FUZZ_ASSERT(inventory_find(&inv, inv.r[i].name) != NULL);
			strvec_push(!strncmp(inv.r[i].name, "sd", 2) ? &sd : &virtio,
				    inv.r[i].name);
		}
		(void)inventory_check_unique_devt(&inv, &why);
		sb_reset(&why);
		(void)inventory_check_sd_sequence(&inv, &sd, (long)sd.n, &why);
		sb_reset(&why);
		(void)inventory_check_after_range(&inv, &virtio, (long)sd.n, &why);
		sb_reset(&why);
		(void)inventory_check_readable(&inv, &why);
	} else {
		FUZZ_ASSERT(err.len > 0);
	}
	inventory_release(&inv);
	strvec_clear(&sd);
	strvec_clear(&virtio);
	sb_release(&err);
	sb_release(&why);
	return 0;
}
