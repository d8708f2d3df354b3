// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A test extension of the erase API: it erases init_uts_ns.name.nodename
 * by kernel virtual address, init_task.comm by physical address, and the
 * first 16 bytes at the physical address --extension-arg erase_api:paddr=X
 * when given; it logs what the API returns for requests it must refuse.
 */
#include <errno.h>
#include <stdlib.h>

#include "makedumpfile-extension.h"

int mdf_extension_init(struct mdf_extension *ext)
{
	const char *arg = mdf_extension_arg(ext, "paddr");
	uint64_t uts, nodename, init_task, comm, paddr;
	int err;

	err = arg ? mdf_erase_paddr(strtoull(arg, NULL, 0), 16, "arg") : 0;
	if (!err)
		err = mdf_symbol_addr("vmlinux", "init_uts_ns", &uts);
	if (!err)
		err = mdf_member_offset(NULL, "uts_namespace", "name.nodename", &nodename);
	if (!err)
		err = mdf_symbol_addr("vmlinux", "init_task", &init_task);
	if (!err)
		err = mdf_member_offset(NULL, "task_struct", "comm", &comm);
	if (!err)
		err = mdf_kvtop(init_task + comm, &paddr);
	if (!err)
		err = mdf_erase_kvaddr(uts + nodename, 65, "uts_namespace.name.nodename");
	if (!err)
		err = mdf_erase_paddr(paddr, 16, NULL);
	if (err)
		return err;
	mdf_log(MDF_LOG_INFO, "refusals: zero %d, what %d, unmapped %d, beyond %d, big %d",
		mdf_erase_kvaddr(uts, 0, NULL), mdf_erase_kvaddr(uts, 1, "two words"),
		mdf_erase_kvaddr(0x10, 1, NULL), mdf_erase_paddr(1ull << 52, 1, NULL),
		mdf_erase_kvaddr(uts, 1ull << 30, NULL));
	return mdf_api_version() == MDF_EXTENSION_API_VERSION ? 0 : -EPROTO;
}
