// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The names of the extension API of the series posted to the kexec list,
 * on top of makedumpfile-extension.h, so that extensions written for it
 * build unchanged against our kallsyms.h, btf_info.h, erase_info.h and
 * makedumpfile.h.
 */
#include "btf_info.h"
#include "erase_info.h"
#include "kallsyms.h"
#include "makedumpfile-extension.h"
#include "makedumpfile.h"

uint64_t get_kallsyms_value_by_name(char *name)
{
	uint64_t addr;

	return mdf_symbol_addr(NULL, name, &addr) ? 0 : addr;
}

uint64_t next_list(uint64_t list_head_addr)
{
	uint64_t next;

	return mdf_read_u64(list_head_addr, &next) ? 0 : next;
}

bool get_struct_member_by_name(struct struct_member_info *smi)
{
	struct mdf_member m;
	uint64_t size;

	if (!smi->struct_name || mdf_type_size(smi->modname, smi->struct_name, &size))
		return false;
	smi->struct_size = (uint32_t)size;
	if (!smi->member_name)
		return true;
	if (mdf_member(smi->modname, smi->struct_name, smi->member_name, &m))
		return false;
	smi->member_bit_offset = m.bit_offset;
	smi->member_size = (uint32_t)m.size;
	smi->member_bit_sz = m.bitfield_size ? m.bitfield_size : (uint32_t)(m.size * 8);
	return true;
}

bool update_filter_pages_info(unsigned long pfn, unsigned long num, bool to_discard)
{
	return !(to_discard ? mdf_discard_pfns(pfn, num) : mdf_keep_pfns(pfn, num));
}

int readmem(int type_addr, unsigned long long addr, void *buf, size_t size)
{
	int err = type_addr == PADDR ? mdf_read_paddr(addr, buf, size) : mdf_read_kvaddr(addr, buf, size);

	return err ? 0 : (int)size;
}
